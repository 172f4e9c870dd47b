"""Each lesson's notebook, as built, holds its page's blocks, which the build ran and checked.

The notebook (mlp_site.lesson_notebooks) is checked against the build's record
(``_execution.json``), not run again: its code cells are the page's runnable blocks in order (but
those needing an optional module), a cell that is not its block's code fails, and each block's
entry must be a run of that code that printed what the page shows (tests/page_blocks.py's check).
What a notebook shows beyond a script's print is ruled out without a run: the build fails a block
that warns or writes to stderr, and no cell may end in a bare expression (Jupyter would show its
value; a ``print(...)`` returns None). The blocks' run in the reader's environment, from an empty
folder, is tests/test_reader_install.py's. A Russian notebook (``ru/lessons/<name>.ru.ipynb``, beside
its page) has the English code cells, and the Russian page's prose, values and build's notes.
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser

import nbformat
import pytest
from markdown_it import MarkdownIt

from tests import editions, pagekit
from tests.page_blocks import build_record, check
from tests.wording import english_words

# The English lessons with runnable blocks (a Russian twin's notebook has the same code cells).
LESSONS = sorted(page.stem for page in (pagekit.DOCS / "lessons").glob("*.md")
                 if ".ru." not in page.name and pagekit.blocks(page))


def echoed(code: str) -> str | None:
    """The last statement of ``code`` if it is a bare expression whose value Jupyter would show, else None."""
    body = ast.parse(code).body
    last = body[-1].value if body and isinstance(body[-1], ast.Expr) else None
    if last is None or (isinstance(last, ast.Call) and isinstance(last.func, ast.Name) and last.func.id == "print"):
        return None
    return ast.unparse(last)


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_notebook_holds_the_blocks_the_build_checked(lesson, built_site, pytestconfig):
    notebook = nbformat.read(built_site / "lessons" / f"{lesson}.ipynb", as_version=4)
    nbformat.validate(notebook)  # what Jupyter opens (test_reader_install.py: JupyterLab starts)
    blocks = [block for block in pagekit.blocks(pagekit.DOCS / "lessons" / f"{lesson}.md")
              if not any(earlier.needs for earlier in block.chain())]
    cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    # The notebook's code is the page's code, block for block.
    assert [(cell.metadata["mlp"]["page_line"], cell.source) for cell in cells] == \
        [(block.lineno, block.code.rstrip("\n")) for block in blocks]
    entries = build_record(pytestconfig)["entries"]
    for block in blocks:  # the build ran this code, and it printed what the page shows
        check(block, entries.get((block.fence.source, block.lineno)))
    echoes = [f"page line {block.lineno}: a notebook would show the value of `{expression}`"
              for block in blocks if (expression := echoed(block.code))]
    assert echoes == []


# --- each edition's notebook: where it is, what the build says in it ------------------------------

from mlp_site import lesson_notebooks
# (folder of the edition under the site's root, suffix of its pages' sources)
EDITIONS = {"en": ("", ""), "ru": ("ru/", ".ru")}
DOWNLOAD = {"en": "Download this lesson as a Jupyter notebook ({name})",
            "ru": "Скачать этот урок как ноутбук Jupyter ({name})"}
# Pieces of what the build adds to a notebook, in each language: none may be in the other's notebooks.
ADDED = {"en": ["This notebook is made from", "Before you start", "a table or figure computed when the site",
                "which the reader's requirements do not install"],
         "ru": ["Этот ноутбук сделан из", "Прежде чем начать", "таблица или рисунок, вычисленные при сборке",
                "которого нет среди пакетов, устанавливаемых для читателя"]}


def lesson_sources(language: str) -> list:
    """The lesson pages of an edition that have runnable blocks (so a notebook)."""
    suffix = EDITIONS[language][1]
    return [pagekit.DOCS / "lessons" / f"{lesson}{suffix}.md" for lesson in LESSONS
            if (pagekit.DOCS / "lessons" / f"{lesson}{suffix}.md").is_file()]


class PageLinks:
    """The links of a notebook's prose, kept as the page writes them (the built ones are compared without their targets)."""

    page_url = "page"

    def rewrite(self, line: str) -> str:
        return line


def without_targets(text: str) -> str:
    """Markdown with each link's target left out: the built notebook points at the site's address."""
    text = re.sub(r"\]\([^)\s]+\)", "]()", text)
    return re.sub(r"^(\s*\[[^\]]+\]:\s*)\S+", r"\1", text, flags=re.MULTILINE)


# A "Before you start" box as a notebook quotes it (mlp_site.reader_downloads), and the marker it replaced.
BOX = re.compile(r"^(?P<indent>[ \t]*)> \*\*(?:Before you start|Прежде чем начать)\.\*\*(?:\n(?P=indent)>.*)*",
                 re.MULTILINE)
BOX_MARKER = re.compile(r"^(?P<indent>[ \t]*)<!--\s*before-you-start:\s*[a-z]+\s*-->", re.MULTILINE)


def boxes_as_markers(text: str) -> str:
    """A notebook's Markdown with each box, or the marker it stands for, as one line (the box is tested above)."""
    return BOX_MARKER.sub(r"\g<indent>[box]", BOX.sub(r"\g<indent>[box]", text))


@pytest.mark.parametrize("language", sorted(EDITIONS))
def test_each_lesson_page_links_its_notebook_beside_it(built_site, language):
    folder, _ = EDITIONS[language]
    pages = lesson_sources(language)
    assert len(pages) == len(LESSONS), f"{language}: lessons without a page in this edition"
    for page in pages:
        name = f"{page.stem}.ipynb"
        html = pagekit.built_page(built_site / folder, f"lessons/{page.stem.removesuffix('.ru')}.md").read_text(
            encoding="utf-8")
        link = f'<a href="../{name}" download>{DOWNLOAD[language].format(name=name)}</a>'
        assert link in html, f"{folder}lessons/{page.stem}: no link {link}"
        assert (built_site / folder / "lessons" / name).is_file(), f"{folder}lessons/{name}: the link finds nothing"
        if folder:
            assert not (built_site / "lessons" / name).exists(), f"lessons/{name}: outside its edition's folder"


@pytest.mark.parametrize("language", sorted(EDITIONS))
def test_a_notebook_says_the_pages_prose_and_values_in_its_language(built_site, monkeypatch, language):
    """The built notebook's Markdown is its page's, each {@ … @} said as the edition's build says it,
    what the build adds to it in the edition's language; its code cells are the English notebook's."""
    folder, _ = EDITIONS[language]
    other = "en" if language == "ru" else "ru"
    for page in lesson_sources(language):
        built = nbformat.read(built_site / folder / "lessons" / f"{page.stem}.ipynb", as_version=4)
        english = nbformat.read(built_site / "lessons" / f"{page.stem.removesuffix('.ru')}.ipynb", as_version=4)
        assert [c.source for c in built.cells if c.cell_type == "code"] == \
            [c.source for c in english.cells if c.cell_type == "code"], f"{page.name}: not the English notebook's code"
        markdown = [c.source for c in built.cells if c.cell_type == "markdown"]
        text = "\n".join(markdown)
        assert "{@" not in text and "before-you-start:" not in text, f"{page.name}: a value or a box left unfilled"
        assert all(piece in text for piece in ADDED[language][:2]), f"{page.name}: no first cell or no box"
        assert not [piece for piece in ADDED[other] if piece in text], f"{page.name}: the {other} build's words"
        if language == "ru":
            box = markdown[0].split("\n\n", 1)[1]  # the first cell: a sentence, then the box
            assert english_words(markdown[0]) == [], f"{page.name}: English in the first cell and box: {box}"
        monkeypatch.setenv("MLP_LANG", language)
        expected = nbformat.reads(lesson_notebooks.lesson_notebook(page.read_text(encoding="utf-8"), page.name,
                                                                   PageLinks()), as_version=4)
        monkeypatch.delenv("MLP_LANG")
        prose = [editions._with_values(c.source, language) for c in expected.cells if c.cell_type == "markdown"]
        assert [without_targets(boxes_as_markers(t)) for t in markdown[1:]] == \
            [without_targets(boxes_as_markers(t)) for t in prose[1:]], (
            f"{page.name}: the notebook's prose is not the page's with the {language} build's values")


SYNTHETIC = """\
# A lesson

Prose before.

```python exec="on"
print("a table made when the site is built")
```

```python
x = 1
```

<!--mlp:importorskip(torch)-->

```python
import torch
```
"""
NOTES = {
    "en": ["*This notebook is made from [a lesson of this course](page) when the site is built. Its code cells are "
           "the page's code blocks, in order: run them from the top, and each prints what the page shows.*",
           "*On [the page](page), a table or figure computed when the site is built stands here.*",
           "*This block needs `torch`, which the reader's requirements do not install: install it, then paste the "
           "block into a cell of its own.*"],
    "ru": ["*Этот ноутбук сделан из [урока этого курса](page) при сборке сайта. Его ячейки кода — блоки кода "
           "страницы, в том же порядке: выполняйте их сверху вниз, и каждая напечатает то, что показано на "
           "странице.*",
           "*Здесь на [странице урока](page) — таблица или рисунок, вычисленные при сборке сайта.*",
           "*Этому блоку нужен `torch`, которого нет среди пакетов, устанавливаемых для читателя: установите его, "
           "затем вставьте блок в отдельную ячейку.*"],
}


@pytest.mark.parametrize("language", sorted(NOTES))
def test_the_notes_the_build_adds_are_in_the_language_being_built(monkeypatch, language):
    monkeypatch.setenv("MLP_LANG", language)  # as mlp_site.edition sets it for the edition's build
    notebook = nbformat.reads(lesson_notebooks.lesson_notebook(SYNTHETIC, "lesson.md", PageLinks()), as_version=4)
    markdown = [c.source for c in notebook.cells if c.cell_type == "markdown"]
    intro, note, needs = NOTES[language]
    assert markdown[0] == intro + "\n\n<!-- before-you-start: lesson -->"
    assert note in markdown[1] and needs in markdown[2]
    if language == "ru":
        assert english_words("\n".join(markdown)) == ["A", "lesson", "Prose", "before"]  # the page's own words


# --- answers stay folded, as on the page ----------------------------------------------------------

FOLDED = """\
# A lesson

```python
print("in sight")
```

1. A question, in sight?

    ??? success "Answer"
        The answer's first words.

        ```python
        print("the answer's code")
        ```

        <!--mlp:expected-output-->

        ```
        the answer's code
        ```

        The answer's last words.

2. Another question, in sight.

    ??? question "Answer"
        ```python
        print("an answer that is only code")
        ```

Prose after the answers, in sight.
"""


class Shown(HTMLParser):
    """The text of rendered Markdown, each piece with whether a closed ``<details>`` hides it."""

    def __init__(self):
        super().__init__()
        self.depth, self.in_summary, self.pieces = 0, False, []

    def handle_starttag(self, tag, attrs):
        if tag == "details":
            assert "open" not in dict(attrs), "an answer unfolded at first"
            self.depth += 1
        self.in_summary |= tag == "summary"

    def handle_endtag(self, tag):
        self.depth -= tag == "details"
        self.in_summary &= tag != "summary"

    def handle_data(self, data):
        if data.strip() and not self.in_summary:
            self.pieces.append((data.strip(), self.depth > 0))


def shown(markdown: str) -> list[tuple[str, bool]]:
    """(text, folded) of a Markdown cell as Jupyter renders it: CommonMark with its HTML (markdown-it)."""
    parser = Shown()
    parser.feed(MarkdownIt("commonmark").render(markdown))
    assert parser.depth == 0, f"a <details> left open in a cell:\n{markdown}"
    return parser.pieces


def test_an_answer_stays_folded_in_the_notebook():
    notebook = nbformat.reads(lesson_notebooks.lesson_notebook(FOLDED, "lesson.md", PageLinks()), as_version=4)
    pieces = [piece for cell in notebook.cells if cell.cell_type == "markdown" for piece in shown(cell.source)]
    folded = {text for text, hidden in pieces if hidden}
    in_sight = {text for text, hidden in pieces if not hidden}
    assert {"The answer's first words.", "The answer's last words."} <= folded
    assert {"A question, in sight?", "Another question, in sight.", "Prose after the answers, in sight."} <= in_sight
    assert not folded & in_sight and "the answer's code" not in folded | in_sight
    code = {cell.source: cell.metadata.get("jupyter", {}) for cell in notebook.cells if cell.cell_type == "code"}
    hidden = {"source_hidden": True, "outputs_hidden": True}
    assert code == {'print("in sight")': {}, 'print("the answer\'s code")': hidden,
                    'print("an answer that is only code")': hidden}
    # A fold that would hold nothing (the answer is all code) is left out: one fold per prose part.
    assert [cell.source.count("<details>") for cell in notebook.cells if cell.cell_type == "markdown"][1:] == [0, 1, 1, 0]


@pytest.mark.parametrize("page", lesson_sources("en") + lesson_sources("ru"), ids=lambda page: page.name)
def test_every_answer_of_a_lesson_stays_folded_in_its_notebook(page):
    """Every code cell the page folds into an answer is folded, and only those; every answer's prose
    is inside a ``<details>`` that each Markdown cell closes."""
    source = page.read_text(encoding="utf-8")
    notebook = nbformat.reads(lesson_notebooks.lesson_notebook(source, page.name, PageLinks()), as_version=4)
    lines = source.split("\n")
    _, folds = lesson_notebooks._flatten_containers(lines)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            in_answer = bool(folds[cell.metadata["mlp"]["page_line"] - 1])
            assert bool(cell.metadata.get("jupyter")) == in_answer, f"{page.name}:{cell.metadata['mlp']['page_line']}"
        else:
            shown(cell.source)  # every <details> closed within its cell
    answers = sum(1 for line in lines if line.lstrip().startswith("???"))
    summaries = sum(cell.source.count("<summary>") for cell in notebook.cells if cell.cell_type == "markdown")
    assert answers and summaries >= answers - sum(1 for c in notebook.cells if c.metadata.get("jupyter"))
