"""The two editions of a page, side by side: what must be the same in both, and a preview.

A Russian page is the twin of an English one: ``docs/lessons/03-forward-pass.ru.md`` next to
``docs/lessons/03-forward-pass.md``, ``docs/labs/digits.ru.py`` next to ``docs/labs/digits.py``.
Its prose is its own; its code is not. This module reads from both twins what must not
differ (``tests/test_editions.py`` holds it):

* every fenced block (its info string and its text) and every ``<!--mlp:...-->`` marker, in
  order: the same code, the same shown output;
* in a lab, every code cell, but for its comments and one line: a code cell's comments are
  prose, each edition's own (the settings cell's comments document the settings), and the
  first line of code of the first code cell sets the notebook's language, ``LANGUAGE = "en"``
  in the English lab and ``LANGUAGE = "ru"`` in its Russian twin (a reader's run of the
  Russian notebook is Russian: ``mlp_ref.labs.notebook.begin``);
* every heading's anchor, in order, so that a link to ``page.md#the-math`` lands on the same
  section in both editions (a Russian heading keeps its English anchor as ``{#the-math}``).

Run as a script, it previews what a page's generators and values will say, and compares a
Russian page with its English twin::

    python -m tests.editions docs/lessons/03-forward-pass.ru.md
"""

from __future__ import annotations

import contextlib
import functools
import io
import tokenize
import os
import re
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_MARKER = re.compile(r"^[ \t]*(?P<marker><!--\s*mlp:.*?-->)\s*$")
_HEADING = re.compile(r"^(?P<level>#{2,6})\s+(?P<text>.+?)\s*$")
_EXPLICIT_ID = re.compile(r"\{[^}]*#(?P<id>[\w-]+)[^}]*\}\s*$")
_CELL = re.compile(r"^# %%(?P<header>.*)$")
_VALUE = re.compile(r"\{@(?P<expr>.*?)@\}", re.DOTALL)


def twin_of(path: Path) -> Path:
    """The Russian twin's path of an English page (``a.md`` → ``a.ru.md``)."""
    return path.with_name(f"{path.stem}.ru{path.suffix}")


def twin_source(source: str) -> str:
    """:func:`twin_of` for a page's path under docs/ as text (``"labs/digits.py"``)."""
    return twin_of(PurePosixPath(source)).as_posix()


def english_of(path: Path) -> Path:
    """The English page of a page: itself, or the page a Russian twin translates."""
    return path.with_name(path.name.replace(".ru.", "."))


def english_pages(docs: Path = DOCS) -> list[Path]:
    """Every page of the English edition: the Markdown pages and the labs' notebooks."""
    pages = sorted(docs.rglob("*.md")) + sorted((docs / "labs").glob("*.py"))
    return [p for p in pages if ".ru." not in p.name and "exercises" not in p.parts]


def fences(text: str) -> list[tuple[str, str]]:
    """The fenced blocks and ``<!--mlp:...-->`` markers of a Markdown text, in order.

    Returns
    -------
    list of (str, str)
        ``("marker", comment)`` for a marker, ``(info, body)`` for a fence, the body without
        the fence's indentation (a fence inside an admonition is the same code).
    """
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        marker, opened = _MARKER.match(lines[i]), _FENCE_OPEN.match(lines[i])
        if marker:
            out.append(("marker", re.sub(r"\s+", " ", marker["marker"])))
        elif opened:
            indent, fence = opened["indent"], opened["fence"]
            closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
            body, i = [], i + 1
            while i < len(lines) and not closing.match(lines[i]):
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
                i += 1
            out.append((opened["info"].strip(), "\n".join(body).rstrip()))
        i += 1
    return out


def _outside_fences(text: str) -> list[str]:
    lines, keep, fence = text.splitlines(), [], None
    for line in lines:
        opened = _FENCE_OPEN.match(line)
        if fence is None and opened:
            fence = opened["fence"]
        elif fence is not None and line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            fence = None
        elif fence is None:
            keep.append(line)
    return keep


def anchors(text: str) -> list[str]:
    """The anchors of a Markdown text's headings (level 2 and below), in order.

    An explicit ``{#id}`` wins; otherwise the id Python-Markdown's ``toc`` makes of the text,
    after the build put its values in (``{@ l3.steps @}`` → ``four``, in English).
    """
    from markdown.extensions.toc import slugify

    out = []
    for line in _outside_fences(text):
        heading = _HEADING.match(line)
        if heading:
            explicit = _EXPLICIT_ID.search(heading["text"])
            out.append(explicit["id"] if explicit else slugify(_with_values(heading["text"], "en"), "-"))
    return out


def _with_values(text: str, language: str) -> str:
    """``text`` with each ``{@ … @}`` replaced by what the build of ``language`` says there."""
    if "{@" not in text:
        return text
    before = os.environ.get("MLP_LANG")
    os.environ["MLP_LANG"] = language
    try:
        said = dict(values(text))
    finally:
        if before is None:
            os.environ.pop("MLP_LANG", None)
        else:
            os.environ["MLP_LANG"] = before
    return _VALUE.sub(lambda m: said[m["expr"]], text)


def cells(text: str) -> list[tuple[str, str]]:
    """The cells of a jupytext percent-format notebook: ``(header, text)`` in order."""
    out, header, body = [], None, []
    for line in text.splitlines():
        cell = _CELL.match(line)
        if cell:
            if header is not None:
                out.append((header, "\n".join(body).strip("\n")))
            header, body = cell["header"].strip(), []
        elif header is not None:
            body.append(line)
    if header is not None:
        out.append((header, "\n".join(body).strip("\n")))
    return out


def code_cells(text: str) -> list[tuple[str, str]]:
    """A lab's code cells, in order (its Markdown cells are the edition's own)."""
    return [(h, t) for h, t in cells(text) if not h.startswith("[markdown]")]


#: The first line of code of a lab's first code cell: the notebook's language.
LANGUAGE_LINE = re.compile(r'\ALANGUAGE = "(?P<language>[a-z]{2})"(?=\n|\Z)')


def without_comments(code: str) -> str:
    """Python code without its comments (and without the lines that held only a comment)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code + "\n").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    lines = code.splitlines()
    for token in reversed([t for t in tokens if t.type == tokenize.COMMENT]):
        row, column = token.start
        lines[row - 1] = lines[row - 1][:column].rstrip()
    comment_only = {t.start[0] for t in tokens if t.type == tokenize.COMMENT and not lines[t.start[0] - 1].strip()}
    return "\n".join(line for number, line in enumerate(lines, 1) if number not in comment_only).strip("\n")


def lab_code(text: str) -> list[tuple[str, str]]:
    """What a lab shares with its twin: its code cells without comments, the first one's
    ``LANGUAGE = "…"`` line written ``LANGUAGE = <edition>``."""
    out = [(h, without_comments(t)) for h, t in code_cells(text)]
    if out:
        out[0] = (out[0][0], LANGUAGE_LINE.sub("LANGUAGE = <edition>", out[0][1]))
    return out


def lab_language(text: str) -> str | None:
    """The language a lab's first code cell sets (``LANGUAGE = "ru"``), or None."""
    cells_ = code_cells(text)
    found = LANGUAGE_LINE.match(without_comments(cells_[0][1])) if cells_ else None
    return found["language"] if found else None


def lab_markdown(text: str) -> str:
    """A lab's Markdown cells as Markdown (the ``# `` comment prefix removed)."""
    parts = [t for h, t in cells(text) if h.startswith("[markdown]")]
    return "\n\n".join(re.sub(r"^# ?", "", t, flags=re.MULTILINE) for t in parts)


def shared(path: Path) -> dict[str, list]:
    """What must be the same in a page and its twin: its code and its anchors."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return {"code cells": lab_code(text), "anchors": anchors(lab_markdown(text))}
    return {"fences": fences(text), "anchors": anchors(text)}


def differences(english: Path, russian: Path) -> list[str]:
    """Where the twins differ in what they share; empty when they agree."""
    problems = []
    for path, language in ((english, "en"), (russian, "ru")):
        if path.suffix == ".py" and lab_language(path.read_text(encoding="utf-8")) != language:
            problems.append(f'{path.name}: its first code cell must say LANGUAGE = "{language}", as its first line of code')
    a, b = shared(english), shared(russian)
    for kind in a:
        left, right = a[kind], b[kind]
        for k, (x, y) in enumerate(zip(left, right)):
            if x != y:
                problems.append(f"{kind} #{k + 1} differs:\n  {english.name}: {x!r:.300}\n"
                                f"  {russian.name}: {y!r:.300}")
                break
        if len(left) != len(right):
            problems.append(f"{kind}: {english.name} has {len(left)}, {russian.name} has {len(right)}")
    return problems


# --- preview -------------------------------------------------------------------------------

_EXEC = re.compile(r'\bexec="(?:on|true|1)"')
_SESSION = re.compile(r'\bsession="(?P<name>[^"]+)"')


def _short(output: str) -> str:
    return re.sub(r"(data:image/[a-z+]+;base64,)[A-Za-z0-9+/=]+", r"\1…", output)


def preview(path: Path) -> str:
    """What a page's generator blocks print and what its ``{@ … @}`` values say, in its language.

    A ``.ru.`` page is previewed in Russian, any other in English (to compare an English page's
    generated content before and after an edit of its generators).
    """
    os.environ["MLP_LANG"] = "ru" if ".ru." in path.name else "en"
    sys.path.insert(0, str(ROOT))
    text = path.read_text(encoding="utf-8")
    report, sessions = [], {}
    blocks = code_cells(text) if path.suffix == ".py" else fences(text)
    for k, (info, body) in enumerate(blocks, 1):
        if path.suffix != ".py" and not _EXEC.search(info):
            continue
        session = _SESSION.search(info)
        scope = sessions.setdefault(session["name"], {}) if session else {}
        scope.setdefault("__name__", "__main__")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(body, f"{path.name} block {k}", "exec"), scope)
        report.append(f"=== block {k} ({info}) ===\n{_short(out.getvalue())}")
    report.append("=== values ===")
    report.extend(f"{{@{expr}@}} -> {value!r}" for expr, value in values(text))
    return "\n".join(report)


@functools.cache
def _namespaces(language: str | None) -> dict:
    """prose.values' namespaces for one language (MLP_LANG), each page's ``values()`` computed once per
    process: a values() is a function of the code and the language, and some take a second."""
    from prose import values as prose_values

    return prose_values.namespaces()


def values(text: str) -> list[tuple[str, str]]:
    """Every ``{@ … @}`` expression of a text and what it says in the current language."""
    import jinja2

    from prose import values as prose_values

    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    env.filters.update(prose_values.FILTERS)
    scope = _namespaces(os.environ.get("MLP_LANG"))
    return [(m["expr"], env.from_string("{{" + m["expr"] + "}}").render(scope))
            for m in _VALUE.finditer(text)]


if __name__ == "__main__":
    for name in sys.argv[1:]:
        page = Path(name).resolve()
        print(preview(page))
        english = english_of(page)
        if english != page and english.exists():
            print("\n".join(differences(english, page)) or f"{page.name}: code and anchors match {english.name}")
