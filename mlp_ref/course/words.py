"""How a computed value reads in a sentence: the strings behind the pages' ``{@ ... @}``.

Each page's generator module has a ``values()`` that returns the numbers its prose says, each
a string exactly as the sentence reads it; these helpers write them, the same way on every
page. Numbers themselves are formatted by :mod:`mlp_ref.course.tables` (one place for how a
number looks); the Russian agreement of a count with its noun is :func:`mlp_ref.course.i18n.ru_count`.
"""

from __future__ import annotations

import re
from fractions import Fraction

from mlp_ref.course.i18n import language, ru_count
from mlp_ref.course.tables import format_count, format_number

#: The counts English prose writes as words ("three layers"); larger ones are written as digits.
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")
_FRACTIONS = {2: "half", 3: "third", 4: "quarter", 5: "fifth", 6: "sixth"}


def number(x) -> str:
    """A value as prose writes it: a whole number as a count (``101,770``), anything else with
    the fewest decimals that say it exactly, up to 4 (``0.25``, ``2.0714``).

    Parameters
    ----------
    x : real number (Python or NumPy scalar, or a Fraction)

    Returns
    -------
    str
    """
    x = float(x)
    if abs(x - round(x)) < 1e-9:  # whole, up to float rounding (1 - 0.8 - 0.1 is not exactly 0.1)
        return format_count(int(round(x)))
    for decimals in range(1, 5):
        if abs(round(x, decimals) - x) < 1e-9:
            return format_number(x, decimals)
    return format_number(x, 4)


def point(values) -> str:
    """A row of numbers as the prose writes a point: ``"(2, 1)"``; values of shape (n,)."""
    return "(" + ", ".join(number(v) for v in values) + ")"


def word(n: int) -> str:
    """A small count as a word ("three"), as English prose writes it; larger ones, and every
    count of the Russian edition (whose words change with case and gender: :func:`counted` says them), as digits."""
    return WORDS[n] if 0 <= n < len(WORDS) and language() == "en" else format_count(n)


def times(n) -> str:
    """A whole ratio as prose says it: "twice", "three times"."""
    n = int(n)
    return "twice" if n == 2 else f"{word(n)} times"


def fold(n) -> str:
    """A whole factor as an adverb: "tenfold", "threefold"."""
    return f"{word(int(n))}fold"


def fraction_words(f: Fraction) -> str:
    """A simple fraction in words: "two thirds", "a third", "a quarter"."""
    if f.denominator not in _FRACTIONS or f.numerator >= f.denominator:
        raise ValueError(f"fraction_words: expected a fraction below 1 with a denominator in "
                         f"{sorted(_FRACTIONS)}, received {f}")
    if f.numerator == 1:
        return "a " + _FRACTIONS[f.denominator]
    return f"{word(f.numerator)} {_FRACTIONS[f.denominator]}s"


def counted(value: str, one: str, few: str, many: str, *, gender: str, case: str = "nom") -> str:
    """A count said with the Russian noun that agrees with it, a word up to ten:
    ``{@ l3.steps | counted("строка", "строки", "строк", gender="f") @}`` reads «четыре строки»,
    ``{@ l3.steps | counted("строкой", "строками", "строками", gender="f", case="ins") @}`` «четырьмя строками».

    ``value`` is a value as the prose reads it (``"4"``, ``"101\u202f770"``); a count from 1 to 10 is
    said as a word agreeing with the noun's ``gender`` ("m", "f", "n") in ``case`` (the short names of
    :data:`mlp_ref.course.i18n.RU_CASES`, the nominative by default), and the noun forms passed are those
    of that case (:func:`mlp_ref.course.i18n.ru_count`). Zero and counts above ten keep ``value``'s
    digits; a fraction takes the form of 2–4 (``2.5 строки``), as Russian says it.
    """
    digits = value.replace(",", "").replace("\u202f", "")
    if re.fullmatch(r"-?\d+", digits):
        return ru_count(int(digits), one, few, many, gender=gender, case=case, digits=value)
    if re.fullmatch(r"-?\d+\.\d+", digits):
        ru_count(2, one, few, many, gender=gender, case=case)  # the same checks of the gender and the case
        return f"{value} {few}"
    raise ValueError(f"counted: expected a number, received {value!r}")
