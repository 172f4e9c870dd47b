"""Numbers that the pages' prose says, computed: the values behind ``{@ ... @}``.

Prose, captions and alt text never type a derived number. A page writes
``{@ l5.qwen_ffn_coeff @}`` and the build (mkdocs-macros-plugin, configured in
``mkdocs.yml`` with the delimiters ``{@ ... @}`` so that nothing else on a page is read as
a template) puts the value computed here in its place. The lab notebooks use the same
expressions in their Markdown cells; ``hooks/prose_notebooks.py`` puts the values into the
lab pages and into the downloaded notebooks.

One namespace per page (``home``, ``l1`` … ``l8``, ``lab_a``, ``lab_b``), each value a
string exactly as the prose reads it (formatted here, once). Values come from ``mlp_ref``
and from the labs' settings; pages and this module import ``mlp_ref``, never the reverse.
Everything here is cheap (no training run): the module is evaluated at every build and by
``tests/test_prose_numbers.py``.

A typed number that is an input rather than a result (a fixture value, a published
constant, a year) is declared instead, in ``prose/inputs/<page>.yml``.
"""

from __future__ import annotations

import inspect
import math
from types import SimpleNamespace

import numpy as np

import mlp_ref
from mlp_ref.charlm_cli import LabSettings
from mlp_ref.charlm_data import split_words
from mlp_ref.tables import format_count, format_number
from mlp_ref.train_digits import PARITY_TOLERANCE, DigitsSettings


def _number(x) -> str:
    """A whole number as an integer, anything else with the fewest decimals that say it exactly (up to 4)."""
    x = float(x)
    if abs(x - round(x)) < 1e-9:  # whole, up to float rounding (1 - 0.8 - 0.1 is not exactly 0.1)
        return format_count(int(round(x)))
    for decimals in range(1, 5):
        if abs(round(x, decimals) - x) < 1e-9:
            return format_number(x, decimals)
    return format_number(x, 4)


WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")


def _word(n: int) -> str:
    """A small count as a word ("three"), as prose writes it; larger ones as digits."""
    return WORDS[n] if 0 <= n < len(WORDS) else format_count(n)


def home() -> dict:
    return {}


def l1() -> dict:
    return {}


def l2() -> dict:
    return {}


def l3() -> dict:
    return {}


def l4() -> dict:
    return {}


def l5() -> dict:
    d, heads, head_dim, inner = 1024, 16, 128, 3072  # Qwen3-0.6B's published configuration
    return {
        "qwen_q_width": _number(heads * head_dim / d),                       # "2d wide"
        "qwen_inner_coeff": _number(inner / d),                              # "h = 3072 = 3d"
        "qwen_ffn_coeff": _number(mlp_ref.gated_ffn_params(d, inner) / d**2),  # "spends 9d²"
    }


def l6() -> dict:
    factor, layers = 1.1, 100  # the quiz question's per-layer factor and depth
    growth = factor ** layers
    return {
        "growth": format_count(int(growth)),
        "growth_pow2": _number(math.floor(math.log2(growth))),  # "more than 2^13"
    }


def l7() -> dict:
    return {}


def l8() -> dict:
    return {}


def lab_a() -> dict:
    settings = DigitsSettings()
    return {
        "parity_points": _number(100 * PARITY_TOLERANCE),  # "within 2 points"
        "mnist_val": format_count(settings.mnist_val),      # "(10,000)"
        "epochs": _number(settings.epochs),
        "batch_size": _number(settings.batch_size),
        "lr": _number(settings.lr),
        "seed": _number(settings.seed),
        "seeds": _word(settings.n_seeds),
        "seed_last": _number(settings.seed + settings.n_seeds - 1),
    }


def lab_b() -> dict:
    settings = LabSettings()
    train, val = inspect.signature(split_words).parameters["fractions"].default
    test = 1 - train - val
    return {
        "seeds": _word(settings.n_seeds),                      # "three seeds"
        "other_windows": _number(settings.batch_size - 1),     # "31 other windows"
        "split_percent": " / ".join(_number(100 * f) for f in (train, val, test)),  # "80 / 10 / 10"
        "batch_size": _number(settings.batch_size),
    }


PAGES = {"home": home, "l1": l1, "l2": l2, "l3": l3, "l4": l4, "l5": l5, "l6": l6, "l7": l7, "l8": l8,
         "lab_a": lab_a, "lab_b": lab_b}


def namespaces() -> dict[str, SimpleNamespace]:
    """Every page's values, as the templates see them (``l5.qwen_ffn_coeff``)."""
    return {name: SimpleNamespace(**make()) for name, make in PAGES.items()}


def define_env(env) -> None:
    """mkdocs-macros-plugin's entry point: every page's namespace becomes a template variable."""
    env.variables.update(namespaces())
