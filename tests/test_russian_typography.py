"""The Russian edition's typographic policy (DESIGN.md, "Writing the pages"), on the built pages.

One function applies it to generated text (``mlp_ref.course.i18n.typeset``: :func:`say`, the tables'
cells and the prose's values go through it; ``ru_date`` says the dates); the pages' own prose is typed
to it. This test reads each built Russian page's text outside code, printed output and math (those stay
identical to the English page's) and its images' alt text, and fails on each rule broken, naming the
page and the snippet: a hyphen for the minus sign, a percent sign without a no-break space, a
breaking space between a number and its unit (``14 с``, ``2.5 мс``, ``5 мин``, ``189 кБ``, ``0.6 млрд``,
``37 млн``), a four-digit number split in prose or a longer one not grouped, ``x`` and ``->`` for «×» and «→»,
straight or English quotes for «ёлочки», a date written as ``2026-12-03``.

It also reads the Russian sources (docs/**/*.ru.md and the labs' Markdown cells, outside code, math,
tables, links and ``{@ … @}`` values) for a count up to ten typed as a digit: «на 8 строках» for «на
восьми строках» (DESIGN.md: "numbers up to ten in words in running text"). What stays a digit there:
a computed value (a ``{@ … @}`` macro), a label or a value named before it («урок 3», «строка 4»,
«класса 1», «равна 0», «с наклоном 1»), a value with a unit («в 2 байтах»), a term of a formula
(«L + 1»), a button's name in italics («*10 шагов*»), and a count beside a number above ten, which
keeps digits so that the two read alike («16 голов запросов и 8 голов ключей-значений»).
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mlp_ref.course import i18n
from tests import editions, pagekit
from tests.test_prose_numbers import (COMMENT, EXPRESSION, INLINE_CODE, LINK_TARGET, MATH, _blank,
                                      split_markdown, split_notebook)

# What stays as the English page has it: code, printed output, math, a notebook's code and output.
UNTOUCHED_TAGS = ["pre", "code", "kbd", "samp", "script", "style", "math", "svg", "textarea"]
# A lab's code cells are left out, its Markdown cells read: they are the lab's prose (a notebook puts both
# in a .jp-InputArea, and leaving out every one left Lab A's «15 %» with a breaking space unread).
UNTOUCHED_CLASSES = ".jp-CodeCell .jp-InputArea, .jp-OutputArea, .highlight, .arithmatex, .katex, .mlp-output"
INLINE = {"span", "code", "kbd", "samp", "math"}
SPACES = "\u00a0\u202f "

RULES = {
    "a hyphen for the minus sign (U+2212)": re.compile(r"(?<![\w.\-\u2212/])-\d"),
    "a percent sign without a no-break space before it": re.compile(r"\d(?:%| %|\u202f%)"),
    "a number from five digits not grouped": re.compile(r"(?<![\d.,/\w])\d{5,}(?![\d.,/\w])"),
    "x for «×»": re.compile(r"\d x \d|\dx(?=[\s,.;:)]|$)"),
    "-> for «→»": re.compile(r"->"),
    # „лапки“ are the quotes inside «ёлочки»; English quotes (“…”) and straight ones are not Russian.
    "straight or English quotes for «ёлочки»": re.compile(r'"[^"\n]{1,80}"|”'),
    "a date as YYYY-MM-DD for «2 декабря 2026 г.»": re.compile(r"(?<!\d)20\d\d-\d\d-\d\d(?!\d)"),
    # «с» after a number is the unit when no word follows it; «2-2-1 с ReLU» is the preposition.
    "a breaking space between a number and its unit": re.compile(
        r"\d (?:мс|мин|кБ|КБ|МБ|ГБ|млн|млрд)(?!\w)|\d с(?![\w-])(?!\s+\w)"),
}
# Only in a table's cell: a number that is the whole cell is grouped from four digits, as its column's are.
TABLE_RULES = {
    "a four-digit number not grouped in a table's cell": re.compile(r"^\s*\u2212?\d{4}(?:\.\d+)?\s*$"),
}
# Only in running text: a table's column groups its thousands (101 770 and 1 024 alike).
PROSE_RULES = {
    "a four-digit number split in prose": re.compile(
        rf"(?<![\d.,])(?<!\d[{SPACES}])\d[{SPACES}]\d{{3}}(?![\d]|[{SPACES}]\d)"),
    "a point written (1,0), which reads as a decimal comma": re.compile(r"\(\u2212?\d+,\u2212?\d+[,)\d\u2212]"),
}


def texts(html: str) -> list[tuple[str, str]]:
    """The page's text outside code, output and math, as (where, text): its tables' cells, the rest
    of its prose, its images' alt text, and the verification line at its end."""
    soup = BeautifulSoup(html, "html.parser")
    main = soup.find("div", class_="md-content") or soup
    alts = [("alt text", img.get("alt", "")) for img in main.find_all("img")]
    # Each left-out part reads as a word, so that "сеть 2-\\(h\\)-1" is not read as "2- -1".
    for tag in main.select(UNTOUCHED_CLASSES) + main.find_all(UNTOUCHED_TAGS):
        if tag.parent is not None:  # not inside one already left out
            tag.replace_with("Ж" if tag.name in INLINE else " Ж ")
    cells = [("table", cell.get_text(" ")) for cell in main.find_all(["td", "th"])]
    for table in main.find_all("table"):
        table.decompose()
    return [("prose", main.get_text())] + cells + alts


def violations(site: Path) -> list[str]:
    """Every breach of the policy on the built Russian pages of ``site``: page, rule and snippet."""
    found = []
    pages = {editions.twin_source(source): pagekit.built_page(site, editions.twin_source(source))
             for source in pagekit.nav_sources()}
    pages["execution report"] = site / "ru" / "execution-report" / "index.html"  # the lines' link, not in the nav
    for twin, page in pages.items():
        found += [f"{twin} ({where}): {rule}: expected the policy's form, found {what!r} in «{snippet}»"
                  for where, rule, what, snippet in breaches(page.read_text(encoding="utf-8"))]
    return found


def breaches(html: str) -> list[tuple[str, str, str, str]]:
    """Each breach of the policy in one page: (where, rule, what was found, the snippet around it)."""
    found = []
    for where, text in texts(html):
        rules = RULES | (PROSE_RULES if where != "table" else TABLE_RULES)
        for rule, pattern in rules.items():
            for match in pattern.finditer(text):
                found.append((where, rule, match[0], " ".join(text[max(0, match.start() - 40):match.end() + 40].split())))
    return found


def test_the_russian_pages_follow_the_typographic_policy(built_site):
    found = violations(built_site)
    assert not found, f"{len(found)} breaches of the Russian edition's typography:\n" + "\n".join(found[:60])


# One breach of each rule in prose, none in code, math or printed output (which stay as the English page's).
FIXTURE = ("<div class='md-content'><p>ошибка -0.0948; доля 19%; 1\u202f000 шагов; 109386 параметров; 2 x 3; "
           "768 -> 3072; \"кавычки\"; собрано 2026-12-03; угол (1,0); за 14 с, 5 мин, 0.6 млрд, сеть 2-2-1 с ReLU</p>"
           "<table><tr><td>1\u202f024</td><td>\u22120.5</td><td>4096</td><td>W (1024, 3072)</td></tr></table>"
           "<p><code>-1 -> 2 x 3 19%</code> <span class='arithmatex'>\\(x-1\\)</span></p>"
           "<div class='highlight'><pre>-0.0948 \"x\" 2026-12-03</pre></div>"
           "<img alt='от -1 до 1' src='x.svg'></div>")


def test_each_rule_finds_its_breach_and_only_outside_code():
    found = breaches(FIXTURE)
    rules = [rule for _, rule, _, _ in found]
    assert sorted(rules) == sorted([*RULES, *PROSE_RULES, *TABLE_RULES, "a hyphen for the minus sign (U+2212)",
                                                 *["a breaking space between a number and its unit"] * 2]), found
    assert ("alt text", "a hyphen for the minus sign (U+2212)") in [(where, rule) for where, rule, _, _ in found]
    # a table groups 1 024; −0.5 is right; its one breach is the whole-cell 4096 (a shape's 1024 stays)
    assert [what for where, _, what, _ in found if where == "table"] == ["4096"], found


@pytest.mark.parametrize(("text", "prose", "expected"), [
    ("b2: 0.2000 → -0.1895", False, "b2: 0.2000 → \u22120.1895"),
    ("19% и 25 %", False, "19\u00a0% и 25\u00a0%"),
    ("1\u202f000 шагов", True, "1000 шагов"),
    ("1\u202f000", False, "1\u202f000"),
    ("109386 и 101\u202f770", True, "109\u202f386 и 101\u202f770"),
    ("FFN 768 -> 3072", False, "FFN 768 → 3072"),
    ("2 x 3, в 4x", False, "2 × 3, в 4×"),
    ("углы (0,0) и (1,-1), W1[1,1]", True, "углы (0, 0) и (1, \u22121), W1[1,1]"),
    ("1000", False, "1\u202f000"),
    ("-1365.25", False, "\u22121\u202f365.25"),
    ("1000", True, "1000"),
    ("W_q (1024, 2048)", False, "W_q (1024, 2048)"),
    ("Mamba (Гу и Дао, 2023)", False, "Mamba (Гу и Дао, 2023)"),
    ("за 14 с (всё), 2.5 мс, 189 кБ, 1.2 с/шаг; 44.5 с.", True,
     "за 14\u00a0с (всё), 2.5\u00a0мс, 189\u00a0кБ, 1.2\u00a0с/шаг; 44.5\u00a0с."),
    ("0.6 млрд параметров, 37 млн, 15–30 мин.", True, "0.6\u00a0млрд параметров, 37\u00a0млн, 15–30\u00a0мин."),
    ("сеть 2-2-1 с ReLU, 256 с весами, к 0 с\nуменьшением", True, "сеть 2-2-1 с ReLU, 256 с весами, к 0 с\nуменьшением"),
    ("`-1` и \\(x-1\\) и <a href=\"x-1\">GPT-2</a>", False, "`-1` и \\(x-1\\) и <a href=\"x-1\">GPT-2</a>"),
])
def test_typeset_applies_the_policy_outside_code_and_math(text, prose, expected, monkeypatch):
    monkeypatch.setenv(i18n.ENV, "ru")
    assert i18n.typeset(text, prose=prose) == expected, text
    assert i18n.typeset(expected, prose=prose) == expected, f"typeset twice changed {expected!r}"
    monkeypatch.setenv(i18n.ENV, "en")
    assert i18n.typeset(text, prose=prose) == text, "the English edition's text is left as it is"


def test_a_russian_date_is_said_in_words():
    assert i18n.ru_date("2026-12-02") == "2\u00a0декабря 2026\u00a0г."
    assert i18n.ru_date("2026-01-31 06:23 UTC") == "31\u00a0января 2026\u00a0г. в 06:23 UTC"
    with pytest.raises(ValueError, match="2026-13-01"):
        i18n.ru_date("2026-13-01")


# ---------------------------------------------------------------------------------------
# Counts up to ten in words, in the Russian sources' running text
# ---------------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"
# A digit from 1 to 10 standing alone (not in a name, a decimal, a size 8×8, a percentage or a term of
# a formula), then a Russian word.
SMALL_COUNT = re.compile(r"(?<![\w.,\u2212\-/×*+=<>·])(?<![+=<>·\u2212-] )(?P<n>10|[1-9])(?![\w.,×\u202f\u00a0%])"
                         r"(?!\s*[×x]\s*\d)[ \u00a0\n]+(?P<word>[а-яё]+(?:-[а-яё]+)?)", re.IGNORECASE)
# After a digit, these words do not make it a count («равна 0 там, где», «класса 1 и», «метки 1 она»).
NOT_COUNTED = frozenset("и или а но в во на по при для из до от с со у к о об за там где везде только она он "
                        "оно они его её их как это то же не ни ли бы также тоже уже ещё лишь".split())
# Before a digit, a word that makes it a label or a value rather than a count.
NAMED_BEFORE = re.compile(r"(?:урок|раздел|упражнени|вопрос|глав|рисун|строк|столб|класс|сло[йяеёю]|позици|шаг|"
                          r"метк|ось|оси|равн|усилени|порядк|индекс|верси|ячейк|таблиц|пункт|нейрон|вход|выход|"
                          r"номер|наклон|размер)\w*[ \u00a0\n]+$", re.IGNORECASE)
UNIT = re.compile(r"(?:байт|бит|пиксел|секунд|минут)", re.IGNORECASE)
LARGER = re.compile(r"(?<![\w.])(?:\d{2,}|\d{1,3}(?:\u202f\d{3})+)(?![\w])")
NEAR = 60  # characters either side of a count, within its sentence, where a larger number keeps it a digit


def russian_prose(text: str, notebook: bool = False) -> str:
    """A Russian source's running text, everything else blanked (line breaks kept)."""
    prose, _ = (split_notebook if notebook else split_markdown)(text)
    for pattern in (COMMENT, EXPRESSION, INLINE_CODE, MATH, LINK_TARGET):
        prose = pattern.sub(_blank, prose)
    prose = re.sub(r"(?m)^\s*\|.*$", _blank, prose)  # a table's rows
    return re.sub(r"\{#[\w-]+\}", _blank, prose)  # a heading's English anchor


def digit_counts(text: str, notebook: bool = False) -> list[tuple[int, str]]:
    """Each count up to ten typed as a digit in a Russian source: (line, what was found)."""
    prose = russian_prose(text, notebook)
    found = []
    for match in SMALL_COUNT.finditer(prose):
        if (match["word"].lower() in NOT_COUNTED or UNIT.match(match["word"])
                or NAMED_BEFORE.search(prose[max(0, match.start() - 40):match.start()])):
            continue
        start = max(prose.rfind(end, 0, match.start()) for end in (". ", "; ", "\n\n")) + 1
        ends = [i for i in (prose.find(end, match.end()) for end in (". ", "; ", "\n\n")) if i >= 0]
        end = min(ends or [len(prose)])
        around = prose[max(start, match.start() - NEAR):match.start()] + " " + prose[match.end("n"):min(end, match.end() + NEAR)]
        if not LARGER.search(around):
            found.append((prose.count("\n", 0, match.start()) + 1, " ".join(match[0].split())))
    return found


def russian_sources() -> list[Path]:
    return sorted(DOCS.rglob("*.ru.md")) + sorted((DOCS / "labs").glob("*.ru.py"))


def test_counts_up_to_ten_are_words_in_russian_prose():
    found = [f"{page.relative_to(DOCS.parent)}:{line}: «{what}»: a count up to ten is written in words"
             for page in russian_sources()
             for line, what in digit_counts(page.read_text(encoding="utf-8"), page.suffix == ".py")]
    assert not found, "\n".join(found)


def test_the_count_check_finds_a_typed_count_and_leaves_labels_values_and_code():
    text = ("Сеть на 8 строках, за 3\nэпохи. Урок 3 выводит это; строка 4 выключает оба нейрона, и 0 там, "
            "где производная равна 0 везде. Наклон 1 около нуля, в 2 байтах, L + 1 окон, кнопка *10 шагов*.\n\n"
            "В модели 16 голов запросов и 8 голов ключей-значений. Код `for 8 строк` и \\(2 входа\\) и "
            "{@ l3.steps | counted(\"строку\", \"строки\", \"строк\") @} строки.\n\n| 2 входа |\n")
    assert digit_counts(text) == [(1, "8 строках"), (1, "3 эпохи")]
    notebook = "# %% [markdown]\n# Цикл обучает 3 эпохи.\n\n# %%\nfit(x)  # 3 эпохи в коде\n"
    assert digit_counts(notebook, notebook=True) == [(2, "3 эпохи")]


# ---------------------------------------------------------------------------------------
# What a Russian reader sees printed is Russian where it is not code
# ---------------------------------------------------------------------------------------

def test_lab_b_names_its_initializations_in_russian(monkeypatch):
    """Lab B, section 4: the lines that count the seeds below ln V name each initialization in Russian
    («уменьшенный выход», «масштаб He»), not by its name in the code; the English lines keep the name."""
    from mlp_ref.labs.charlm import model, report

    monkeypatch.setenv(i18n.ENV, "ru")
    lines = [report.below_ln_v_line(init, 3, 20, 0.01, 0.02) for init in model.INITS]
    assert not [line for line in lines if re.search(r"[A-Za-z]{3,}_?\w*\s*:", line.split("при")[0])], lines
    assert len({line.index(":") for line in lines}) == 1, f"the labels are padded to one width: {lines}"
    monkeypatch.setenv(i18n.ENV, "en")
    assert [line.split(":")[0].strip() for line in
            (report.below_ln_v_line(init, 3, 20, 0.01, 0.02) for init in model.INITS)] == list(model.INITS)
    with pytest.raises(ValueError, match="received 'he'"):
        report.below_ln_v_line("he", 3, 20, 0.01, 0.02)


# Code is what a reader pastes: the policy stops at it. A value typeset for prose inside a code span
# (``--steps 20\u202f000``) makes a command that fails (int('20\u202f000') raises) or a SyntaxError.
# (A minus sign in code font stays: the pages write formulas so, ``W1 − η dW1``, in both editions.)
TYPESET_IN_CODE = re.compile(r"\d[\u00a0\u202f]\d")


CODE_ELEMENT = re.compile(r"<code\b[^>]*>(.*?)</code>", re.DOTALL)  # code holds no code: no nesting to follow
TAG = re.compile(r"<[^>]+>")


def typeset_code(html: str) -> list[str]:
    """Each code element of a page whose text holds the prose's grouping of digits (a no-break space
    between them). Read with a regular expression: the policy test beside it has parsed the page already."""
    texts = (unescape(TAG.sub("", code[1])) for code in CODE_ELEMENT.finditer(html))
    return [text[:120] for text in texts if TYPESET_IN_CODE.search(text)]


def test_code_on_a_russian_page_is_code_as_typed(built_site):
    """No code span or block of a Russian page holds a number grouped as prose groups it: a value a page
    puts inside backticks goes through ``| as_code`` (prose/values.py)."""
    found = []
    for source in pagekit.nav_sources():
        twin = editions.twin_source(source)
        found += [f"{twin}: expected code as a reader types it, found {code!r}"
                  for code in typeset_code(pagekit.built_page(built_site, twin).read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


def test_as_code_undoes_the_prose_typesetting_of_a_value(monkeypatch):
    from prose.values import as_code

    monkeypatch.setenv("MLP_LANG", "ru")
    assert i18n.typeset("20000", prose=True) == "20\u202f000"  # what the prose writes, and a command must not
    assert as_code(i18n.typeset("20000", prose=True)) == "20000"
    assert as_code(i18n.typeset("-0.5", prose=True)) == "-0.5"
    assert typeset_code("<p><code>--steps 20\u202f000</code> <code>--steps 20000</code></p>") == ["--steps 20\u202f000"]
