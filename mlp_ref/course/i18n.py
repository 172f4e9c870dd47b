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

The Russian edition's typographic policy (DESIGN.md, "Writing the pages") is applied to generated
text by one function, :func:`typeset`: :func:`say` passes every Russian text through it, and so do
the tables (:func:`mlp_ref.course.tables.markdown_table`) and the prose's values (``prose/values.py``).
Dates are said by :func:`ru_date`. ``tests/test_russian_typography.py`` holds the built pages to it.
"""

from __future__ import annotations

import os
import re

#: The editions, the default first.
LANGUAGES = ("en", "ru")
#: The environment variable the build sets while it renders a page of an edition.
ENV = "MLP_LANG"
#: Between groups of three digits: English writes a comma, Russian a narrow no-break space.
THOUSANDS = {"en": ",", "ru": "\u202f"}


#: The Russian edition's spaces: a no-break space before %, a narrow no-break space between thousands.
NBSP, NNBSP = "\u00a0", "\u202f"
MINUS = "\u2212"
_MONTHS_RU = ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября",
              "октября", "ноября", "декабря")
# What typeset() leaves as it is: a Markdown code span, TeX math, an HTML tag (its attributes).
_UNTOUCHED = re.compile(r"(`[^`]*`|\\\(.*?\\\)|\\\[.*?\\\]|\$\$.*?\$\$|<[^>]*>)", re.DOTALL)
_RULES = (
    (re.compile(r"(?<![\w.\-\u2212/\\])-(?=\d)"), MINUS),                  # -0.0948 → −0.0948
    (re.compile(r"(?<=\d)[ \u202f]?%"), NBSP + "%"),                          # 19% , 25 % → 19 %
    (re.compile(r"(?<=\d) x (?=\d)"), " × "),                                 # 2 x 3 → 2 × 3
    (re.compile(r"(?<=\d)x(?=[\s,.;:)]|$)"), "×"),                             # 4x → 4×
    (re.compile(r" ?-> ?"), " → "),                                            # a -> b → a → b
    (re.compile(r"(?<![\d.,/\w\u202f\u00a0])\d{5,}(?![\d.,/\w])"),              # 109386 → 109 386
     lambda m: f"{int(m[0]):,}".replace(",", NNBSP)),
    # 14 с, 2.5 мс, 5 мин, 189 кБ, 0.6 млрд, 37 млн → a no-break space: the number never ends a line without
    # its unit. «с» is the unit when no word follows it («(14 с)», «за 3.2 с.», «1.2 с/шаг»), else the
    # preposition («2-2-1 с ReLU»).
    (re.compile(r"(?<=\d) (?=(?:мс|мин|кБ|КБ|МБ|ГБ|млн|млрд)(?![\w])|с(?![\w-])(?!\s+\w))"), NBSP),
)
# In a table's column a number that is the whole cell is grouped from four digits, as the column's longer
# numbers are: 1000 → 1 000, 1365.3 → 1 365.3 (a shape "(1024, 3072)" or a year in a cell's text stays).
_CELL_NUMBER = re.compile(r"(\s*[\u2212-]?)(\d{4})((?:\.\d+)?\s*)")
# In prose a four-digit number is written whole: 1 000 → 1000 (tables keep the groups of their columns).
_FOUR_DIGITS = re.compile(r"(?<![\d.,\u202f\u00a0])(\d)[\u202f\u00a0](\d{3})(?![\d]|[\u202f\u00a0]\d)")
# In prose a point is written (1, 0): in Russian "(1,0)" reads as the decimal 1,0.
_POINT = re.compile(r"\(([-\u2212]?\d+(?:\.\d+)?(?:,\s*[-\u2212]?\d+(?:\.\d+)?)+)\)")


def typeset(text: str, *, prose: bool = False) -> str:
    """``text`` as the Russian edition prints it (DESIGN.md's typographic policy); unchanged in English.

    Outside code spans, TeX math and HTML tags: the minus sign U+2212 for a hyphen before a digit, a
    no-break space before %, and between a number and its unit (``14 с``, ``2.5 мс``, ``5 мин``, ``189 кБ``,
    ``0.6 млрд``), «×» for an ``x`` between numbers and «→» for ``->``, and numbers from five digits grouped by a narrow no-break
    space; in a table's cell (not ``prose``), a number that is the whole cell grouped from four digits
    (``1 000``), as the column's longer numbers are; in ``prose``, a four-digit number is written whole
    (``1000``), as Russian prose writes it, and a point's coordinates are spaced (``(1, 0)``, never
    ``(1,0)``, which a Russian reader reads as the decimal 1,0). Applying it twice changes nothing.

    Parameters
    ----------
    text : str
        Generated text: a table's cell, a caption, alt text, a value a sentence says.
    prose : bool
        Whether the text is read in running text (a value, a caption) rather than in a table's column.

    Returns
    -------
    str
    """
    if language() != "ru" or not isinstance(text, str):
        return text
    if not prose and (cell := _CELL_NUMBER.fullmatch(text)):
        text = f"{cell[1]}{cell[2][0]}{NNBSP}{cell[2][1:]}{cell[3]}"
    parts = _UNTOUCHED.split(text)
    for i in range(0, len(parts), 2):  # the even parts are text; the odd ones, what is left untouched
        part = parts[i]
        for pattern, replacement in _RULES:
            part = pattern.sub(replacement, part)
        if prose:
            part = _FOUR_DIGITS.sub(r"\1\2", part)
            part = _POINT.sub(lambda m: "(" + re.sub(r",\s*", ", ", m[1]) + ")", part)
        parts[i] = part
    return "".join(parts)


def ru_date(iso: str) -> str:
    """A date (``2026-12-02``, or a time ``2026-12-02 06:23 UTC``) as Russian writes it:
    «2 декабря 2026 г.», «2 декабря 2026 г. в 06:23 UTC»."""
    match = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})(?: (\d{2}:\d{2} UTC))?", iso)
    if not match or not 1 <= int(match[2]) <= 12:
        raise ValueError(f"ru_date: expected a date YYYY-MM-DD (and a time HH:MM UTC), received {iso!r}")
    said = f"{int(match[3])}\u00a0{_MONTHS_RU[int(match[2]) - 1]} {match[1]}\u00a0г."
    return f"{said} в {match[4]}" if match[4] else said


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
    return typeset(ru, prose=True) if language() == "ru" else en


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


#: The Russian grammatical cases a count is said in, by the short names :func:`ru_count` takes:
#: nominative, genitive, dative, accusative, instrumental and prepositional.
RU_CASES = ("nom", "gen", "dat", "acc", "ins", "pre")
#: The genders of a Russian noun: masculine, feminine, neuter.
RU_GENDERS = ("m", "f", "n")
# The numerals one to ten in the six cases of RU_CASES; one and two also by gender (m, f, n). The
# accusative is an inanimate noun's (один узел, одну строку): the course counts no people or animals.
_RU_NUMERALS = {
    1: {"m": ("один", "одного", "одному", "один", "одним", "одном"),
        "f": ("одна", "одной", "одной", "одну", "одной", "одной"),
        "n": ("одно", "одного", "одному", "одно", "одним", "одном")},
    2: {"m": ("два", "двух", "двум", "два", "двумя", "двух"),
        "f": ("две", "двух", "двум", "две", "двумя", "двух")},
    3: ("три", "трёх", "трём", "три", "тремя", "трёх"),
    4: ("четыре", "четырёх", "четырём", "четыре", "четырьмя", "четырёх"),
    5: ("пять", "пяти", "пяти", "пять", "пятью", "пяти"),
    6: ("шесть", "шести", "шести", "шесть", "шестью", "шести"),
    7: ("семь", "семи", "семи", "семь", "семью", "семи"),
    8: ("восемь", "восьми", "восьми", "восемь", "восемью", "восьми"),
    9: ("девять", "девяти", "девяти", "девять", "девятью", "девяти"),
    10: ("десять", "десяти", "десяти", "десять", "десятью", "десяти"),
}
_RU_NUMERALS[2]["n"] = _RU_NUMERALS[2]["m"]
#: The counts the Russian edition's running text writes as words (DESIGN.md: up to ten). Zero stays
#: a digit: «ни одной строки» needs a negated verb, which the sentence around it must say.
RU_WORDS = range(1, 11)


def _check_agreement(caller: str, gender: str, case: str):
    if gender not in RU_GENDERS:
        raise ValueError(f"{caller}: expected a gender in {RU_GENDERS}, received {gender!r}")
    if case not in RU_CASES:
        raise ValueError(f"{caller}: expected a case in {RU_CASES}, received {case!r}")


def ru_numeral(n: int, gender: str, case: str = "nom") -> str:
    """A count from one to ten as a Russian word, agreeing with its noun: ``ru_numeral(4, "f", "ins")``
    is «четырьмя» (теми же четырьмя строками), ``ru_numeral(1, "f", "acc")`` «одну».

    Parameters
    ----------
    n : int
        The count, 1 to 10 (:data:`RU_WORDS`).
    gender : {"m", "f", "n"}
        The noun's gender (it changes one and two only).
    case : {"nom", "gen", "dat", "acc", "ins", "pre"}
        The case the count stands in; the accusative is an inanimate noun's.

    Returns
    -------
    str
    """
    _check_agreement("ru_numeral", gender, case)
    if isinstance(n, bool) or not isinstance(n, int) or n not in RU_WORDS:
        raise ValueError(f"ru_numeral: expected a whole count from 1 to 10, received {n!r}")
    forms = _RU_NUMERALS[n]
    return (forms[gender] if isinstance(forms, dict) else forms)[RU_CASES.index(case)]


def ru_number(n: int, gender: str, case: str = "nom", digits: str | None = None) -> str:
    """A count as the Russian edition's running text says it: a word up to ten (:func:`ru_numeral`),
    digits above it and for zero, grouped as the edition groups them unless ``digits`` says how.

    ``gender`` and ``case`` are those of the noun it counts, checked whether or not a word is said.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"ru_number: expected an integer count, received {n!r}")
    if n in RU_WORDS:
        return ru_numeral(n, gender, case)
    _check_agreement("ru_number", gender, case)
    return digits if digits is not None else f"{n:,}".replace(",", THOUSANDS["ru"])


def ru_count(n: int, one: str, few: str, many: str, *, gender: str, case: str = "nom",
             digits: str | None = None) -> str:
    """A count said with the noun that agrees with it, as the Russian edition's running text says it: a
    word up to ten, digits above it (and for zero): «четыре строки», «пять строк», «12 строк».

    Parameters
    ----------
    n : int
        The count.
    one, few, many : str
        The noun forms of the case the count stands in, as :func:`ru_plural` takes them: for the
        nominative «строка», «строки», «строк»; for an oblique case the singular and twice the plural
        of that case («строкой», «строками», «строками» in the instrumental).
    gender, case : str
        The noun's gender and the count's case (:func:`ru_numeral`).
    digits : str, optional
        How the count is written when it stays digits (:func:`ru_number`).

    Returns
    -------
    str
    """
    return f"{ru_number(n, gender, case, digits)} {ru_plural(n, one, few, many)}"
