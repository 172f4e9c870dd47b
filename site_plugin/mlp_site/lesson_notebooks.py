"""Every lesson downloadable as a Jupyter notebook, as the labs are: its prose and its code, in order.

For each lesson with runnable blocks, the build makes ``lessons/<name>.ipynb`` from the page's
Markdown source and links it below the page's title. Its code cells are the page's runnable
``python`` blocks, in order, snippets expanded (page_code.py); a continued block's cell
follows the cell of the block it continues, so running the cells in order gives each block the
state the page's tests give it. The notebook holds no outputs: run it, and each cell prints what
the page shows (tests/test_reader_lesson_notebooks.py checks its cells against the build's record).

The prose between the blocks becomes Markdown cells that Jupyter can render: the page's
admonitions and tabs become bold titles, folded answers stay folded (``<details>``, and
their code cells folded too), ``\\(...\\)`` and ``\\[...\\]`` become
``$...$`` and ``$$...$$``, links to other pages become links to them on the site, and each table
or figure made at build time becomes a link to the page. A block that needs a module the
reader's environment does not install (PyTorch) stays as text, with a note. Computed values
(``{@ ... @}``) and the "Before you start" box are filled in by prose_notebooks.py and
reader_downloads.py, which run after this step (plugin.py).

A Russian page (``lessons/<name>.ru.md``, built at ``ru/lessons/<name>/``) gets its notebook
beside it, ``ru/lessons/<name>.ru.ipynb``: its prose is the page's, and what the build adds to it
(the first cell, the notes, the download link) is said in Russian (words.py).
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import nbformat
from mkdocs.structure.files import File, Files

from .page_code import blocks_of, page_blocks, parse_fences, segments
from .edition import edition_folder
from .words import say

LESSONS = "lessons/"
CONTAINER = re.compile(r'^(?P<indent>\s*)(?:\?\?\?\+?|!!!|===)\s*(?P<kind>[\w-]*)\s*(?:"(?P<title>[^"]*)")?\s*$')
DROPPED_COMMENT = re.compile(r"^\s*<!--\s*(?:pytest|norun)[^>]*-->\s*$")
ATTR_LINE = re.compile(r"^\s*\{\s*[.#:][^}]*\}\s*$")
HEADING_ATTRS = re.compile(r"\s*\{\s*#[^}]*\}\s*$")
INLINE_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
# \( \) \[ \], but not the end of a TeX line break "\\" followed by a bracket.
MATH_DELIMITER = re.compile(r"(?<!\\)\\([()\[\]])")
LINK_DEFINITION = re.compile(r"^(?P<head>\s*\[[^\]]+\]:\s*)(?P<target>\S+)")


#: The words of the link each lesson page with code puts under its title, in English and in Russian
#: (prose/glossary.py reads them as part of the page: a reader meets "notebook" there first).
DOWNLOAD_WORDS = ("Download this lesson as a Jupyter notebook", "Скачать этот урок как ноутбук Jupyter")


def notebook_name(src_uri: str) -> str:
    """``lessons/03-forward-pass.md`` -> ``lessons/03-forward-pass.ipynb``."""
    return str(PurePosixPath(src_uri).with_suffix(".ipynb"))


def _flatten_containers(lines: list[str]) -> tuple[list[str], list[tuple["Fold", ...]]]:
    """Admonitions and tabs as a bold title, their bodies moved out by one level; folded answers
    (``???``) likewise, their title line left blank: :class:`Folds` writes them as ``<details>``.

    Returns one element per source line, and for each line the folds whose bodies hold it, outermost first.
    """
    out, bodies, folds = [], [], []  # bodies: (indentation at which an open container's body starts, its fold)
    for line in lines:
        if not line.strip():
            out.append("")
            folds.append(tuple(fold for _, fold in bodies if fold))
            continue
        indent = len(line) - len(line.lstrip())
        while bodies and indent < bodies[-1][0]:
            bodies.pop()
        text = line[4 * len(bodies):]
        folds.append(tuple(fold for _, fold in bodies if fold))
        if match := CONTAINER.match(text):
            title = match["title"] or match["kind"].capitalize()
            fold = Fold(match["indent"], title, text.lstrip().startswith("???+")) if text.lstrip().startswith("???") \
                else None
            out.append(f"{match['indent']}**{title}**\n" if title and not fold else "")  # one element per source line
            bodies.append((indent + 4, fold))
        else:
            out.append(text)
    return out, folds


@dataclass(frozen=True, eq=False)  # each fold is its own, even with the same title
class Fold:
    """A folded answer (``??? kind "title"``) of a page."""

    indent: str
    title: str
    open: bool  # ``???+``: unfolded at first


class Folds:
    """Writes ``<details>`` around the prose of folded answers, as the page folds them.

    A code cell cannot stand inside a Markdown cell's ``<details>``: before one, every open fold is
    closed, the cell itself is folded (Jupyter's ``source_hidden`` and ``outputs_hidden``), and the
    prose after it, still in the answer, opens the fold again under the same title.
    """

    def __init__(self, folds: list[tuple[Fold, ...]]):
        self.folds, self.open = folds, ()

    def move_to(self, index: int, prose: list[str]) -> None:
        """Close and open folds in ``prose`` so that what follows stands in the folds of line ``index``."""
        target = self.folds[index]
        keep = 0
        while keep < min(len(target), len(self.open)) and target[keep] is self.open[keep]:
            keep += 1
        self.close(prose, keep)
        if target[keep:]:
            while len(prose) > 1 and not prose[-1].strip() and not prose[-2].strip():
                prose.pop()  # one blank line before the fold is enough
        prose += [line for fold in target[keep:] for line in (self._opening(fold), "")]
        self.open = target

    def close(self, prose: list[str], keep: int = 0) -> None:
        """Close the open folds but the outer ``keep``; a fold that holds nothing yet is left out."""
        for fold in reversed(self.open[keep:]):
            while prose and not prose[-1].strip():
                prose.pop()
            if prose and prose[-1] == self._opening(fold):
                prose.pop()
            else:
                prose += ["", f"{fold.indent}</details>", ""]
        self.open = self.open[:keep]

    @staticmethod
    def _opening(fold: Fold) -> str:
        return f"{fold.indent}<details{' open' if fold.open else ''}><summary>{fold.title}</summary>"

    def hidden(self, index: int) -> dict:
        """A code cell's metadata at line ``index``: folded when an answer holds it."""
        return {"jupyter": {"source_hidden": True, "outputs_hidden": True}} if self.folds[index] else {}


class Links:
    """Relative links of a page's prose made absolute, to the pages and files of the site."""

    def __init__(self, src_uri: str, files: Files, site_url: str):
        self.src_uri, self.files = src_uri, files
        self.base = site_url if site_url.endswith("/") else site_url + "/"
        self.page_url = self.base + files.get_file_from_path(src_uri).url

    def absolute(self, target: str) -> str:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            return target
        path, _, anchor = target.partition("#")
        if not path:
            return f"{self.page_url}#{anchor}"
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(self.src_uri), path))
        file = self.files.get_file_from_path(resolved)
        url = self.base + (file.url if file is not None else resolved)
        return f"{url}#{anchor}" if anchor else url

    def rewrite(self, line: str) -> str:
        line = INLINE_LINK.sub(lambda m: f"]({self.absolute(m['target'])})", line)
        return LINK_DEFINITION.sub(lambda m: m["head"] + self.absolute(m["target"]), line)


def _math(line: str) -> str:
    """Arithmatex's ``\\(...\\)`` and ``\\[...\\]`` as the ``$``-delimited math Jupyter renders."""
    return MATH_DELIMITER.sub(lambda m: "$" if m[1] in "()" else "$$", line)


def _prose(lines: list[str], links: Links) -> str:
    """A Markdown cell's text: page-only markup dropped, math and links rewritten, shown code untouched."""
    out, in_fence = [], False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence:
            if DROPPED_COMMENT.match(line) or ATTR_LINE.match(line):
                continue
            line = links.rewrite(_math(HEADING_ATTRS.sub("", line) if line.startswith("#") else line))
        out.append(line)
    text = "\n".join(out).strip("\n")
    # A cell that starts inside a list item (after a code cell) would render as indented code.
    head = re.match(r"(?:[ \t]+\S[^\n]*\n?|[ \t]*\n)*", text)[0]
    return _dedent(head) + text[len(head):] if head.strip() else text


def _dedent(text: str) -> str:
    widths = [len(line) - len(line.lstrip()) for line in text.splitlines() if line.strip()]
    return "\n".join(line[min(widths):] for line in text.splitlines()) + ("\n" if text.endswith("\n") else "")


def lesson_cells(source: str, where: str, links: Links) -> list[nbformat.NotebookNode]:
    """The notebook cells of a lesson's Markdown source (see the module doc)."""
    lines = source.split("\n")
    flat, folds = _flatten_containers(lines)
    folded = Folds(folds)
    fences = parse_fences(lines, where)
    blocks = {block.lineno: block for block in blocks_of(fences)}
    # A block that needs an optional module, and every block continuing it, stays as text.
    as_text = {block.lineno for segment in segments(list(blocks.values()))
               for index, block in enumerate(segment) if any(b.needs for b in segment[:index + 1])}
    cells, prose, cursor = [], [], 0

    def extend(end: int):  # the prose of the lines from the cursor to ``end``, in their folds
        for index in range(cursor, end):
            if DROPPED_COMMENT.match(flat[index]) or ATTR_LINE.match(flat[index]):
                continue  # page-only markup: no cell shows it, so it opens no fold
            if flat[index].strip():
                folded.move_to(index, prose)
            prose.append(flat[index])
        if end < len(flat):  # a fence's line: what the loop adds next stands in its folds
            folded.move_to(end, prose)

    def flush():
        folded.close(prose)
        if (text := _prose(prose, links)).strip():
            cells.append(nbformat.v4.new_markdown_cell(text))
        prose.clear()

    for fence in fences:
        extend(fence.start)
        cursor = fence.end + 1
        indent = fence.indent[:len(fence.indent) - (len(lines[fence.start]) - len(flat[fence.start]))]
        block = blocks.get(fence.lineno)
        if fence.is_output:
            continue  # the notebook prints it
        if block is not None and block.lineno not in as_text:
            flush()
            cells.append(nbformat.v4.new_code_cell(block.code.rstrip("\n"), metadata={
                "mlp": {"page_line": block.lineno}, **folded.hidden(fence.start)}))
        elif block is not None:
            prose += [indent + say(f"*This block needs `{block.needs}`, which the reader's requirements do not "
                                   "install: install it, then paste the block into a cell of its own.*",
                                   ru=f"*Этому блоку нужен `{block.needs}`, которого нет среди пакетов, "
                                      "устанавливаемых для читателя: установите его, затем вставьте блок в "
                                      "отдельную ячейку.*"),
                      "", f"{indent}```python",
                      *(indent + line if line else "" for line in block.code.rstrip("\n").split("\n")), f"{indent}```"]
        elif fence.runs_at_build:
            prose.append(indent + say(f"*On [the page]({links.page_url}), a table or figure computed when the site "
                                      "is built stands here.*",
                                      ru=f"*Здесь на [странице урока]({links.page_url}) — таблица или "
                                         "рисунок, вычисленные при сборке сайта.*"))
        else:
            prose += [f"{indent}{fence.ticks}{fence.info}",
                      *(indent + line if line else "" for line in fence.code.rstrip("\n").split("\n")),
                      f"{indent}{fence.ticks}"]
    extend(len(flat))
    flush()
    return cells


def lesson_notebook(source: str, where: str, links: Links) -> str:
    """The lesson's notebook as JSON text, with stable cell ids (the same page gives the same bytes)."""
    intro = nbformat.v4.new_markdown_cell(say(
        f"*This notebook is made from [a lesson of this course]({links.page_url}) when the site is built. Its "
        "code cells are the page's code blocks, in order: run them from the top, and each prints what the page "
        "shows.*",
        ru=f"*Этот ноутбук сделан из [урока этого курса]({links.page_url}) при сборке сайта. Его ячейки кода — "
           "блоки кода страницы, в том же порядке: выполняйте их сверху вниз, и каждая напечатает то, что "
           "показано на странице.*") + "\n\n<!-- before-you-start: lesson -->")
    notebook = nbformat.v4.new_notebook(cells=[intro, *lesson_cells(source, where, links)], metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}})
    for number, cell in enumerate(notebook.cells, start=1):
        cell.id = f"cell-{number}"
    nbformat.validate(notebook)
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def _has_blocks(file: File) -> bool:
    return file.src_uri.startswith(LESSONS) and file.src_uri.endswith(".md") and bool(
        page_blocks(Path(file.abs_src_path).read_text(encoding="utf-8"), file.src_uri))


def on_files(files: Files, config) -> Files:
    for file in [f for f in files.documentation_pages() if _has_blocks(f)]:
        links = Links(file.src_uri, files, config.site_url or "http://127.0.0.1:8000/")
        content = lesson_notebook(Path(file.abs_src_path).read_text(encoding="utf-8"), file.src_uri, links)
        notebook = File.generated(config, notebook_name(file.src_uri), content=content)
        # Beside the lesson's page, which the i18n plugin put in the edition's folder: the page's
        # link "../<name>.ipynb" finds it there.
        notebook.dest_uri = edition_folder(config) + notebook.dest_uri
        files.append(notebook)
    return files


def on_page_content(html: str, page, config, files) -> str:
    if files.get_file_from_path(notebook_name(page.file.src_uri)) is None or not page.file.src_uri.endswith(".md"):
        return html
    name = PurePosixPath(notebook_name(page.file.src_uri)).name
    # Lesson pages live at lessons/<name>/, so the notebook is one folder up.
    text = say(f"{DOWNLOAD_WORDS[0]} ({name})", ru=f"{DOWNLOAD_WORDS[1]} ({name})")
    link = f'<p class="lab-download"><a href="../{name}" download>{text}</a></p>\n'
    heading_end = html.find("</h1>")
    return html + link if heading_end < 0 else html[:heading_end + 5] + "\n" + link + html[heading_end + 5:]
