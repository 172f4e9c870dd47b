"""Lab B (a character-level language model, ``docs/labs/charlm.py``): the numbers its Markdown cells say.

The lab's tables and figures come from its own package, :mod:`mlp_ref.labs.charlm`, run in the
notebook; :func:`values` says the settings and constants its prose names (``{@ lab_b.context @}``).
"""

from __future__ import annotations

import inspect

from mlp_ref.course.words import fold, number, word
from mlp_ref.labs.charlm import speed
from mlp_ref.labs.charlm.data import split_words
from mlp_ref.labs.charlm.experiment import VARIANTS, CharLMSettings
from mlp_ref.labs.charlm.model import LR_DROP


def values() -> dict[str, str]:
    """The numbers Lab B's prose says, as it reads them."""
    settings = CharLMSettings()
    train, val = inspect.signature(split_words).parameters["fractions"].default
    test = 1 - train - val
    long_factor = 5  # exercise 4's budget: five times the page's steps
    return {
        "context": number(settings.context),                        # X (B, 3), E (B, 3, 10)
        "context_word": word(settings.context),                     # "the last three letters"
        "emb": number(settings.emb_dim),                            # C in R^{V x 10}, "10-dimensional"
        "fan_in": number(settings.context * settings.emb_dim),      # x (B, 30), "a sum of 30 products"
        "variants": word(len(VARIANTS)),                            # "Four MLP variants"
        "lr_drop": fold(round(1 / LR_DROP)),                        # "drops tenfold halfway"
        "lr_drop_n": number(round(1 / LR_DROP)),                    # the same as a number, for Russian ("в 10 раз")
        "speed_context": number(speed.SPEED_CONTEXT),               # the speed timer's fixed sizes
        "speed_emb": number(speed.SPEED_EMB),
        "speed_hidden": number(speed.SPEED_HIDDEN),
        "speed_batch": number(speed.STEP_BATCH),
        "speed_vocab": number(speed.SPEED_VOCAB),                   # "over 27 tokens"
        "long_factor": word(long_factor),                           # "a budget five times larger"
        "long_steps": str(long_factor * settings.steps),            # "--steps 20000" (code: no comma)
        "steps": number(settings.steps),                            # "this budget of 4,000 steps"
        "steps_n": str(settings.steps),                             # the same unspaced, for Russian prose ("4000")
        "seeds": word(settings.n_seeds),                            # "three seeds"
        "other_windows": number(settings.batch_size - 1),           # "31 other windows"
        "split_percent": " / ".join(number(100 * f) for f in (train, val, test)),  # "80 / 10 / 10"
        "batch_size": number(settings.batch_size),
    }
