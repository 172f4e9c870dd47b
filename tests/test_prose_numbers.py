"""Numbers in sentences come from code too (README.md, "How to add a lesson", step 3; CONTRIBUTING.md).

Every number in a page's prose — the Markdown of a lesson, the Markdown cells of a lab, and
the alt text and captions that the page's code writes — is either said through the build,
as ``{@ l6.qwen_ffn_coeff @}`` (values computed by the page's ``values()`` in
``mlp_ref/course/generators/``, named by ``prose/values.py``), or declared as an input in
``prose/inputs/<page>.yml``, with where it comes from (a fixture value, a published constant,
a year or a citation number, a setting). A typed number that is neither fails here.

What is scanned, without building the site:

* Prose: everything outside fences, HTML comments, inline code spans, link targets and
  ``{@ ... @}`` expressions. Numbers are digits (``123,457``, ``0.8``, ``10⁻³``, superscripts)
  and number words from "three" up (``three``, ``twice``, ``tenfold``, ``hundred``; not
  "one", "two", "half", "double", which prose uses for structure far more than for values).
* Math (``\\( \\)``, ``\\[ \\]``, ``$$``) is scanned like prose, except the constants 0, 1
  and 2, which in a formula of symbols are its structure (an exponent, ``1/2``, ``i = 1``):
  a fixture value or a result written in math is held to the same rule as one in a sentence.
  Superscript digits (``d²``) count as math.
* Not numbers of the page's content, so not scanned: list and heading numbers, a number right
  after "lesson", "exercise", "question", "section" or "Lab" (a cross-reference), digits in a
  name (``W1``, ``float64``, ``GPT-2``, ``Qwen3-0.6B``).
* Captions and alt text: the string literals in the ``alt=`` and ``caption=`` arguments of
  the page's build-time code (markdown-exec fences, the generator functions they call in
  ``mlp_ref/course/generators/``, the labs' code cells); the values an f-string puts in are
  computed, its format specs are not text.

A declaration no longer used on its page fails too, so the lists stay the page's inputs.
Run ``python -m tests.test_prose_numbers [PAGE ...]`` to list the undeclared numbers of pages.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from prose.structure import generator_calls
from tests import editions

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
INPUTS = ROOT / "prose" / "inputs"

EXPRESSION = re.compile(r"\{@(?![%#]).*?@\}", re.DOTALL)
FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,}|~{3,})(?P<info>.*)$")
EXEC_INFO = re.compile(r'\bexec\s*=\s*"(on|true|1)"')
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|^\s*\[[^\]]+\]:\s*\S+.*$|<[a-zA-Z/][^>]*>", re.MULTILINE)
FOOTNOTE = re.compile(r"\[\^[^\]]+\]")
HEADING_ID = re.compile(r"\{#[\w-]+\}")  # a Russian heading's English anchor: "{#1-the-data-and-the-split}"
LIST_OR_HEADING = re.compile(r"^(?P<lead>\s*(?:>\s*)*)(?:#{1,6}\s+(?:Lab\s+[A-Z]\.\s*)?)?\d+[.)](?=\s)", re.MULTILINE)
REFERENCE = re.compile(
    r"\b(?:lessons?|exercises?|questions?|sections?|labs?|parts?|chapters?"
    # the Russian edition's, in any case: «урок 3», «уроке 5», «упражнение 2», «разделы 4.3 и 11.5»
    r"|урок\w*|упражнени\w*|вопрос\w*|раздел\w*|глав\w*|част\w*|лабораторн\w*(?:\s+работ\w*)?)\s+"
    # a lab's letter is a capital standing alone ("Lab A"), never the first letter of the next word
    # ("labs\n\nEight lessons": under IGNORECASE a bare [A-Z] took the "E" and hid the number word)
    r"(?:\d+(?:\.\d+)*|(?-i:[A-Z])\b)(?:\s*(?:,|and|or|to|и|или|–|-)\s*(?:\d+(?:\.\d+)*|(?-i:[A-Z]))\b)*", re.IGNORECASE)
MATH = re.compile(r"\\\((?P<a>.*?)\\\)|\\\[(?P<b>.*?)\\\]|\$\$(?P<c>.*?)\$\$", re.DOTALL)
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
# A number: not inside a name (a letter, or a letter and a hyphen, right before it).
NUMBER = re.compile(
    r"(?<![A-Za-z_\d.,\u202f])(?<![A-Za-z]-)(?<![A-Za-z]\d-)"
    # thousands: a comma in English, a narrow no-break space in Russian ("50 257")
    r"(?P<num>\d{1,3}(?:[,\u202f]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE][−-]?\d+)?"
    r"|(?<=[^\s⁰¹²³⁴⁵⁶⁷⁸⁹])(?P<sup>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
WORDS = {"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
         "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
         "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90, "hundred": 100, "hundreds": 100, "thousand": 1000, "thousands": 1000,
         "million": 10**6, "millions": 10**6, "billion": 10**9, "billions": 10**9, "twice": 2,
         "thrice": 3, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "tenfold": 10,
         "hundredfold": 100, "threefold": 3, "fourfold": 4}
WORD = re.compile(r"\b(?P<word>" + "|".join(WORDS) + r")\b", re.IGNORECASE)
MATH_STRUCTURE = {Decimal(0), Decimal(1), Decimal(2)}


@dataclass(frozen=True)
class Number:
    """One typed number of a page: where it stands, as written, and its magnitude."""

    line: int
    text: str
    value: Decimal
    context: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text!r} in \"{self.context}\""


def value_of(token: str) -> Decimal:
    """The magnitude of a written number: '−123,457' -> 123457, '¹³' -> 13, 'three' -> 3."""
    token = token.translate(SUPERSCRIPTS).replace(",", "").replace("\u202f", "").replace("−", "-").lstrip("-").lower()
    if token in WORDS:
        return Decimal(WORDS[token])
    value = abs(Decimal(token))
    return value.to_integral_value() if value == value.to_integral_value() else value.normalize()


# ---------------------------------------------------------------------------------------
# Reading a page: its prose (with line numbers kept) and the code that writes its captions
# ---------------------------------------------------------------------------------------

def _blank(match: re.Match) -> str:
    """The text of a match with everything but its line breaks blanked (line numbers stay)."""
    return re.sub(r"[^\n]", " ", match[0])


def split_markdown(text: str) -> tuple[str, list[tuple[int, str]]]:
    """(prose with fences blanked, [(line, code) of each build-time fence])."""
    lines = text.split("\n")
    prose, code = [], []
    index = 0
    if lines and lines[0].strip() == "---":  # YAML front matter
        end = lines.index("---", 1) if "---" in lines[1:] else 0
        prose.extend([""] * (end + 1))
        index = end + 1
    while index < len(lines):
        opening = FENCE_OPEN.match(lines[index])
        if not opening:
            prose.append(lines[index])
            index += 1
            continue
        start, ticks, indent = index, opening["ticks"], len(opening["indent"])
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(ticks):
            index += 1
        body = lines[start + 1:index]
        if EXEC_INFO.search(opening["info"]):
            code.append((start + 2, "\n".join(line[indent:] for line in body)))
        prose.extend([""] * (index + 1 - start))
        index += 1
    return "\n".join(prose[:len(lines)]), code


def split_notebook(text: str) -> tuple[str, list[tuple[int, str]]]:
    """A jupytext percent notebook: (its Markdown cells, other lines blanked; its code cells)."""
    prose, code, cell, cell_start, kind = [], [], [], 0, None

    def close():
        if kind == "code":
            code.append((cell_start + 1, "\n".join(cell)))

    for number, line in enumerate(text.split("\n")):
        if line.startswith("# %%"):
            close()
            kind = "markdown" if "[markdown]" in line else "code"
            cell, cell_start = [], number + 1
            prose.append("")
            continue
        if kind == "markdown":
            prose.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
        else:
            prose.append("")
            cell.append(line)
    close()
    return "\n".join(prose), code


def caption_strings(code: str, first_line: int) -> list[tuple[int, str]]:
    """(line, text) of every string literal in the alt= and caption= arguments of a piece of code."""
    try:
        tree = ast.parse(code)
    except SyntaxError:  # a cell with IPython magics; the labs have none that hold captions
        return []
    found = []

    def literals(node):
        if isinstance(node, ast.FormattedValue):
            return  # computed; its format spec (".1f") is not text
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((first_line + node.lineno - 1, node.value))
        for child in ast.iter_child_nodes(node):
            literals(child)

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in ("alt", "caption"):
                    literals(keyword.value)
    return found


def numbers_in(text: str, first_line: int = 1) -> list[Number]:
    """The typed numbers of a piece of prose, after the parts that are not prose are removed."""
    text = COMMENT.sub(_blank, text)
    text = EXPRESSION.sub(_blank, text)
    text = INLINE_CODE.sub(_blank, text)
    text = LINK_TARGET.sub(_blank, text)
    text = FOOTNOTE.sub(_blank, text)
    text = HEADING_ID.sub(_blank, text)
    text = LIST_OR_HEADING.sub(lambda m: m["lead"] + _blank(m)[len(m["lead"]):], text)
    text = REFERENCE.sub(_blank, text)
    lines = text.split("\n")

    def context(start: int) -> str:
        line = text.count("\n", 0, start)
        return " ".join(lines[line].split())[:120]

    math_spans = [m.span() for m in MATH.finditer(text)]

    def in_math(position: int) -> bool:
        return any(a <= position < b for a, b in math_spans)

    found = []
    for match in NUMBER.finditer(text):
        token = match[0]
        value = value_of(match["num"] if match["num"] else match["sup"])
        if (match["sup"] or in_math(match.start())) and value in MATH_STRUCTURE:
            continue
        found.append(Number(first_line + text.count("\n", 0, match.start()), token, value, context(match.start())))
    for match in WORD.finditer(text):
        found.append(Number(first_line + text.count("\n", 0, match.start()), match[0], value_of(match[0]),
                            context(match.start())))
    return sorted(found, key=lambda n: n.line)


def page_numbers(page: Path, text: str | None = None) -> list[Number]:
    """Every typed number of a page: its prose, and its alt texts and captions."""
    text = page.read_text(encoding="utf-8") if text is None else text
    prose, code = (split_notebook if page.suffix == ".py" else split_markdown)(text)
    found = numbers_in(prose)
    for first_line, block in code:
        for line, literal in caption_strings(block, first_line):
            found.extend(numbers_in(literal, line))
    # A generator's captions: reported at the line of the page that calls it, named by its module's line.
    seen = set()
    for call in [] if page.suffix == ".py" else generator_calls(text):
        page_line = text.count("\n", 0, call.offset) + 1
        for first_line, source in call.parts:
            if (call.path, first_line) in seen:
                continue
            seen.add((call.path, first_line))
            for line, literal in caption_strings(source, first_line):
                found.extend(Number(page_line, n.text, n.value, f"{call.path.name}:{n.line}: {n.context}")
                             for n in numbers_in(literal, line))
    return sorted(found, key=lambda n: n.line)


# ---------------------------------------------------------------------------------------
# Declared inputs, one file per page
# ---------------------------------------------------------------------------------------

def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md")) + sorted((DOCS / "labs").glob("*.py"))


english = editions.english_of


def inputs_file(page: Path) -> Path:
    """A page's declarations; a Russian twin types the same inputs as its English page."""
    return INPUTS / english(page).relative_to(DOCS).with_suffix(".yml")


UNREVIEWED = "unreviewed:"


def declared(page: Path) -> dict[Decimal, str]:
    """The page's declared inputs: magnitude -> where it comes from."""
    path = inputs_file(page)
    if not path.exists():
        return {}
    entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    out = {}
    for entry in entries:
        assert set(entry) == {"numbers", "source"} and entry["source"].strip(), (
            f"{path.relative_to(ROOT)}: each entry needs 'numbers' and a non-empty 'source', got {entry}")
        for number in entry["numbers"]:
            out[value_of(str(number))] = entry["source"]
    return out


def undeclared(page: Path, text: str | None = None) -> list[Number]:
    allowed = declared(page)
    return [n for n in page_numbers(page, text) if n.value not in allowed]


def _values():
    spec = importlib.util.spec_from_file_location("prose_values", ROOT / "prose" / "values.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PAGES = pages()
IDS = [str(p.relative_to(DOCS)) for p in PAGES]


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_number_in_prose_is_computed_or_declared(page):
    missing = undeclared(page)
    assert not missing, (
        f"{page.relative_to(ROOT)} types numbers that are neither said through {{@ ... @}} "
        f"(a values() in mlp_ref/course/generators/) nor declared in {inputs_file(page).relative_to(ROOT)}:\n  "
        + "\n  ".join(map(str, missing)))


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_no_declaration_is_unreviewed(page):
    """No declaration is a placeholder: a source starting 'unreviewed:' (numbers not yet sorted
    into inputs, with their source, and results, said through {@ ... @}) fails here."""
    pending = sorted({str(v) for v, source in declared(page).items() if source.startswith(UNREVIEWED)})
    assert not pending, f"{inputs_file(page).relative_to(ROOT)}: still unreviewed: {pending}"


@pytest.mark.parametrize("page", [p for p in PAGES if english(p) == p], ids=[i for i, p in zip(IDS, PAGES) if english(p) == p])
def test_every_declared_input_is_used(page):
    """Used by the page or by its Russian twin (which may say an input the English page spells out)."""
    twin = editions.twin_of(page)
    used = {n.value for n in page_numbers(page)} | ({n.value for n in page_numbers(twin)} if twin.exists() else set())
    stale = sorted(str(v) for v in declared(page) if v not in used)
    assert not stale, f"{inputs_file(page).relative_to(ROOT)} declares numbers its page no longer types: {stale}"


def test_every_inputs_file_belongs_to_a_page():
    expected = {inputs_file(p) for p in PAGES}
    orphans = sorted(str(p.relative_to(ROOT)) for p in INPUTS.rglob("*.yml") if p not in expected)
    assert not orphans, f"declarations without a page: {orphans}"


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_expression_evaluates(page, monkeypatch):
    """What the build does with {@ ... @}, without the build: same delimiters, unknown names fail,
    in the page's edition (the values of a Russian page are said in Russian)."""
    import jinja2

    monkeypatch.setenv("MLP_LANG", "ru" if english(page) != page else "en")
    expressions = EXPRESSION.findall(page.read_text(encoding="utf-8"))
    env = jinja2.Environment(variable_start_string="{@", variable_end_string="@}",
                             block_start_string="{@%", block_end_string="%@}",
                             comment_start_string="{@#", comment_end_string="#@}",
                             undefined=jinja2.StrictUndefined)
    module = _values()
    env.filters.update(module.FILTERS)
    values = module.namespaces()
    for expression in expressions:
        rendered = env.from_string(expression).render(**values)
        assert rendered.strip() and "{@" not in rendered, f"{page.relative_to(ROOT)}: {expression} gave {rendered!r}"


def test_scan_reads_the_russian_edition():
    """A Russian count is one number ("50 257", narrow no-break space); «урок 3» and «разделы 4.3
    и 11.5» are cross-references, not numbers of the page."""
    page = DOCS / "lessons" / "09-mlp-in-transformers.ru.md"
    text = "В словаре GPT-2 50\u202f257 токенов (урок 3, разделы 4.3 и 11.5, упражнение 2).\n"
    assert [n.value for n in page_numbers(page, text)] == [Decimal(50257)]


def test_scan_catches_a_typed_number(tmp_path):
    """The scan sees a typed count in prose, math and a caption, and skips what is not prose."""
    page = DOCS / "lessons" / "06-counting-parameters.md"
    text = page.read_text(encoding="utf-8")
    injected = text.replace("\n## Intuition\n", "\nThe network [784, 128, 10] is small, which has 123,457 parameters.\n\n"
                            "## Intuition\n", 1)
    assert [n.text for n in undeclared(page, injected)] == ["123,457"]
    fake = tmp_path / "page.md"
    fake.write_text(
        "# 3. Title\n\n1. See lesson 4 and exercises 2 and 3; `x = 17` is code; W1 and GPT-2 are names.\n"
        "<!-- 99 is a comment --> It has {@ l6.qwen_ffn_coeff @} and \\(d^2 + 2d + 1\\), not \\(37d\\).\n"
        "It was three seeds, twice.\n\n## Lessons and labs\n\nEight lessons; see Lab B.\n\n"
        '```python exec="on"\nx = 41\nprint(figure_html(fig, alt=f"{x:.1f} and 43", caption="7 bars"))\n```\n',
        encoding="utf-8")
    assert [n.text for n in page_numbers(fake)] == ["37", "three", "twice", "Eight", "43", "7"]


def test_scan_reads_the_captions_of_the_generators_a_page_calls(tmp_path):
    """A one-line fence calls a generator function: a number typed in its caption is found, reported
    at the line of the page that calls it and named by the module's line; one it does not call is not read."""
    generators = tmp_path / "generators"
    generators.mkdir()
    (generators / "page.py").write_text(
        'def drawn():\n    return figure_html(fig, alt=f"{n} runs over 41 steps", caption=_said())\n\n\n'
        'def _said():\n    return say("43 runs", ru="43 запуска")\n\n\n'
        'def other():\n    return figure_html(fig, alt="47 bars", caption="")\n', encoding="utf-8")
    fake = tmp_path / "page.md"
    fake.write_text('# 3. Title\n\n```python exec="on"\nfrom mlp_ref.course.generators import page\n\n'
                    'print(page.drawn())\n```\n', encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("prose.structure.GENERATORS", generators)
        found = page_numbers(fake)
    assert [(n.line, n.text, n.context.split(":")[:2]) for n in found] == [(6, "41", ["page.py", "2"])]


if __name__ == "__main__":  # list the undeclared numbers of the pages named, or of all pages
    for path in [Path(a).resolve() for a in sys.argv[1:]] or PAGES:
        for number in undeclared(path):
            print(f"{path.relative_to(ROOT)}:{number}")
