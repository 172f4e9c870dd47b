"""Statements of a lab page, checked in the page's own run and reported in yours.

A lab page says things about its results ("the MLP with the initialization fixes beats the
bigram on validation"). When the site is built, such a statement must hold, or the build
fails: a page must not say something its own run contradicts. When you run the notebook
yourself, with other settings or other data, the statement may well not hold for your run;
that is a result, not an error, so :func:`claim` warns and the notebook goes on.

The site build announces itself by setting the environment variable named by
:data:`SITE_BUILD_ENV` to ``"1"``.
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from mlp_ref.course.i18n import say

#: Environment variable that is ``"1"`` while the site is being built.
SITE_BUILD_ENV = "MLP_SITE_BUILD"


class ClaimWarning(UserWarning):
    """A statement of the page does not hold for this run (outside the site build)."""


def site_build() -> bool:
    """Whether this process runs as part of the site build.

    Returns
    -------
    bool
        True when the environment variable :data:`SITE_BUILD_ENV` is ``"1"``; False when it
        is unset, empty or ``"0"``.

    Raises
    ------
    ValueError
        Any other value (a typo should not silently turn the build's checks into warnings).
    """
    value = os.environ.get(SITE_BUILD_ENV, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{SITE_BUILD_ENV}: expected '1' (building the site), '0' or unset, received {value!r}")
    return value == "1"


def claim(condition, statement: str, found: str | None = None, *, stacklevel: int = 1) -> bool:
    """Check one statement the page makes about its results.

    Parameters
    ----------
    condition : bool
        Whether the statement holds for this run (a Python or NumPy boolean).
    statement : str
        What the page's run found, in words and in the edition's language, e.g. ``"the MLP
        with the initialization fixes beat the bigram on validation, for every seed"``.
    found : str, optional
        What this run found instead, with its numbers (e.g. ``"a mean validation loss of
        2.251 with batch normalization against 2.262 without"``): said after the statement
        when it does not hold.
    stacklevel : int
        Whose line the warning points at: 1, the line that called :func:`claim`; 2, the line
        that called the function that called it (a lab's helper that checks a section's
        statements points at the notebook's cell).

    Returns
    -------
    bool
        ``condition``, so that a cell can branch on it.

    Raises
    ------
    AssertionError
        While the site is being built (:func:`site_build`) and the statement does not hold.
    TypeError
        ``condition`` is not a boolean (e.g. an array, whose truth is ambiguous), or
        ``statement`` is not a non-empty string.

    Warns
    -----
    ClaimWarning
        Outside the site build, when the statement does not hold: "The page's run found that
        …; yours found …", and why a run can differ from the page. It is shown every time.
    """
    if not isinstance(statement, str) or not statement.strip():
        raise TypeError(f"statement: expected a non-empty string, received {statement!r}")
    if found is not None and (not isinstance(found, str) or not found.strip()):
        raise TypeError(f"found: expected a non-empty string or None, received {found!r}")
    if not isinstance(condition, (bool, np.bool_)):
        raise TypeError(f"condition: expected a boolean for {statement!r}, received {type(condition).__name__} "
                        f"{condition!r}")
    holds = bool(condition)
    if holds:
        return True
    if site_build():
        raise AssertionError(f"the page states that {statement}, but its own run contradicts it"
                             + (f": it found {found}" if found else ""))
    yours = (say(f"yours found {found}", ru=f"ваш запуск показал {found}") if found
             else say("yours found otherwise", ru="ваш запуск показал иное"))
    message = say(f"The page's run found that {statement}; {yours}. The page's text describes its own run "
                  "(its default settings, on its data); with other settings or other data a result can differ, "
                  "and this is a result of your run, not an error. The notebook continues.",
                  ru=f"Запуск страницы показал: {statement}; {yours}. Текст страницы описывает её собственный "
                  "запуск (настройки по умолчанию, её данные); с другими настройками или данными результат "
                  "может быть другим, и это результат вашего запуска, а не ошибка. Ноутбук продолжает работу.")
    with warnings.catch_warnings():
        warnings.simplefilter("always", ClaimWarning)  # shown again when a cell is run again
        warnings.warn(message, ClaimWarning, stacklevel=stacklevel + 1)
    return False
