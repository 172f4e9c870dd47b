"""The language a page is built in, and how generated content says its words in it.

The site has two editions, English (the default) and Russian. A generator block is the
same code on both twins of a page; what it shows a reader (a table's headers, a figure's
caption and alt text, its axis labels) comes through :func:`say`, which holds both
languages side by side, so that a change to one is made next to the other::

    headers = [say("step", ru="шаг"), say("value", ru="значение")]

The build sets the language of the page it renders (the environment variable
``MLP_LANG``, so that a lab's kernel sees it too). Outside a build, and in every code block
of a lesson a reader copies, it is English: reader code prints the same on both twins. A lab
notebook sets its own language (``mlp_ref.labs.notebook.use_language``, from its ``LANGUAGE``
setting), so the downloaded Russian notebook speaks Russian.

Numbers are written the same way in both editions: a decimal point (the site's tables and
prose say the values that Python prints next to them) and, in Russian, a narrow no-break
space between thousands (``101 770``), where English writes a comma.
"""

from __future__ import annotations

import os

#: The editions, the default first.
LANGUAGES = ("en", "ru")
#: The environment variable the build sets while it renders a page of an edition.
ENV = "MLP_LANG"
#: Between groups of three digits: English writes a comma, Russian a narrow no-break space.
THOUSANDS = {"en": ",", "ru": "\u202f"}


def language() -> str:
    """The language being built: ``"en"`` unless the build set ``MLP_LANG``.

    Returns
    -------
    str
        One of :data:`LANGUAGES`.
    """
    lang = os.environ.get(ENV, "") or LANGUAGES[0]
    if lang not in LANGUAGES:
        raise ValueError(f"{ENV}: expected one of {', '.join(LANGUAGES)}, received {lang!r}")
    return lang


def say(en: str, *, ru: str) -> str:
    """The text a reader of the current edition sees.

    Parameters
    ----------
    en : str
        The English text.
    ru : str
        The same in Russian. Both are required, so that neither edition can be left out.

    Returns
    -------
    str
        ``ru`` while a Russian page is built, else ``en``.
    """
    for name, text in (("en", en), ("ru", ru)):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"say: expected a non-empty {name} text, received {text!r}")
    return ru if language() == "ru" else en


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian noun form that agrees with a count: 1 строка, 2 строки, 5 строк.

    Parameters
    ----------
    n : int
        The count (its sign is ignored).
    one, few, many : str
        The noun after 1 (and 21, 31, …), after 2–4 (22–24, …) and after 5–20 and 0.

    Returns
    -------
    str
        One of ``one``, ``few`` and ``many``.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"ru_plural: expected an integer count, received {n!r}")
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many
