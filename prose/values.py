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


def _tuple(values) -> str:
    """A row of numbers as the prose writes a point: "(2, 1)"."""
    return "(" + ", ".join(_number(v) for v in values) + ")"


def _xor_231(b1, w2, b2) -> mlp_ref.MLP:
    """Lesson 2's 2-3-1 network: W1 all ones (2, 3), ReLU hidden, sigmoid output."""
    return mlp_ref.MLP.from_arrays([np.ones((2, 3)), np.array(w2, dtype=float).reshape(3, 1)],
                                   [np.array(b1, dtype=float), np.array([b2], dtype=float)],
                                   activation="relu", output="sigmoid")


def l2() -> dict:
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])  # XOR's corners, (4, 2)
    y = np.array([0, 1, 1, 0])
    # SYLLABUS's 2-2-1 network: h1 = relu(x1 + x2), h2 = relu(x1 + x2 - 1), y = h1 - 2 h2
    net = mlp_ref.MLP.from_arrays([np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([[1.0], [-2.0]])],
                                  [np.array([0.0, -1.0]), np.array([0.0])],
                                  activation="relu", output="identity")
    out, cache = net.forward(X, keep_cache=True)
    H = cache.activations[1]
    sums = X.sum(axis=1)

    def along_sum(model, s):
        """The model's output (logit) at x = (s, 0), which depends on x1 + x2 only."""
        points = np.stack([np.asarray(s, dtype=float), np.zeros(np.size(s))], axis=1)
        return model.logits(points)[:, 0]

    # The 2-2-1 output is a tent in s, linear between the hidden units' thresholds -b1/w.
    knots = np.unique(np.append(-net.biases[0] / net.weights[0][0], sums.max()))
    tent = along_sum(net, knots)
    peak = int(np.argmax(tent))
    threshold = 0.5  # an output is read at 1/2
    band = (np.interp(threshold, tent[:peak + 1], knots[:peak + 1]),
            np.interp(threshold, tent[peak:][::-1], knots[peak:][::-1]))

    claimed = _xor_231([0.5, -0.5, -1.5], [1, -2, 1], -0.5)   # SYLLABUS's claimed solver
    fixed = _xor_231([0.0, -1.0, -2.0], [4, -8, 4], -2.0)     # the page's fix with margin
    ramps = -claimed.biases[0] / claimed.weights[0][0]        # where each hidden ramp starts
    p = claimed.forward(X)[:, 0]
    _, claimed_cache = claimed.forward(X, keep_cache=True)
    _, fixed_cache = fixed.forward(X, keep_cache=True)
    scale = fixed.weights[1][:, 0] / claimed.weights[1][:, 0]  # fixed W2 = c (1, -2, 1)
    assert np.allclose(scale, scale[0])
    tolerance = 0.01                                           # exercise 3's "within 0.01"
    sizes = (784, 16, 784)                                     # exercise 4's stack
    return {
        "corner_sums": ", ".join(_number(s) for s in sums),                 # "0, 1, 1, 2"
        "hidden_shape": ", ".join(map(str, H.shape)),                       # H (4, 2)
        "out_shape": ", ".join(map(str, out.shape)),                        # y (4, 1)
        "tent_peak": _number(tent[peak]),                                   # "rises to 1"
        "tent_peak_s": _number(knots[peak]),                                # "at s = 1"
        "tent_end": _number(tent[-1]),                                      # "falls back to 0"
        "tent_end_s": _number(knots[-1]),                                   # "at s = 2"
        "band_low": _number(band[0]),                                       # "0.5 < x1 + x2"
        "band_high": _number(band[1]),                                      # "x1 + x2 < 1.5"
        "hidden_00": _tuple(H[0]),                                          # (0,0) lands on (0, 0)
        "hidden_01": _tuple(H[1]),                                          # (0,1), (1,0) land on (1, 0)
        "hidden_11": _tuple(H[3]),                                          # (1,1) lands on (2, 1)
        "claimed_ramps": ", ".join(_number(r) for r in ramps),              # "s = -0.5, 0.5, 1.5"
        "claimed_peak_s": _number(ramps[np.argmax(along_sum(claimed, ramps))]),  # "peaks at s = 0.5"
        "claimed_right_ge": _word(int(np.sum((p >= threshold) == y))),      # "three of four"
        "claimed_hidden_points": _word(len(np.unique(claimed_cache.activations[1], axis=0))),
        "other_corners": _word(len(X) - 1),                                 # "the other three corners"
        "fixed_hidden": ", ".join(_tuple(h) for h in fixed_cache.activations[1]),
        "fixed_scale": _number(scale[0]),                                   # "the fix used c = 4"
        "target_p": _number(1 - tolerance),                                 # "0.99"
        "target_odds": _number((1 - tolerance) / tolerance),                # "ln 99"
        "rank_bound": _number(min(sizes)),                                  # "at most 16"
    }


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
