"""Lab A (handwritten digits, ``docs/labs/digits.py``): the numbers its Markdown cells say.

The lab's tables and figures come from its own package, :mod:`mlp_ref.labs.digits`, run in the
notebook; :func:`values` says the settings and constants its prose names (``{@ lab_a.epochs @}``).
"""

from __future__ import annotations

import dataclasses

from mlp_ref.course.tables import format_count
from mlp_ref.course.words import number, times, word
from mlp_ref.labs.digits.data import Splits
from mlp_ref.labs.digits.experiment import CHANCE_FACTOR, LATE_EPOCHS, PARITY_TOLERANCE, DigitsSettings


def values() -> dict[str, str]:
    """The numbers Lab A's prose says, as it reads them."""
    settings = DigitsSettings()
    parts = [f.name for f in dataclasses.fields(Splits) if f.name.endswith("_idx")]  # train, val, test
    return {
        "split_parts": word(len(parts)),                  # "split three ways"
        "split_calls": times(len(parts) - 1),             # train_test_split "twice": k parts, k - 1 cuts
        "split_calls_n": number(len(parts) - 1),          # the same as a number, for Russian ("2 раза")
        "late_epochs": word(LATE_EPOCHS),                 # "within the last five epochs"
        "parity_points": number(100 * PARITY_TOLERANCE),  # "within 2 points"
        "mnist_val": format_count(settings.mnist_val),    # "(10,000)"
        "chance": number(100 / settings.sizes[-1]),       # guessing among the ten digits: "10 %"
        "chance_limit": number(100 * CHANCE_FACTOR / settings.sizes[-1]),  # "at chance: below 15 %"
        "epochs": number(settings.epochs),
        "batch_size": number(settings.batch_size),
        "lr": number(settings.lr),
        "seed": number(settings.seed),
        "seeds": word(settings.n_seeds),
        "seed_last": number(settings.seed + settings.n_seeds - 1),
    }
