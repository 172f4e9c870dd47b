"""Every Python-looking fence on every page is run by something, or says why not.

The build's runner, like pytest-codeblocks, runs only fences whose info string is exactly
``python``; ```` ```python title="x.py" ````, ``py`` or ``pycon`` would be skipped without a
word. This scan fails on any such fence that neither the build's runner (``python``) nor
markdown-exec (``exec="on"``) executes, unless a ``<!-- norun: reason -->`` line stands
right before it. It also fails on hand-typed tables of values, and on a marker under its old
name, ``<!--pytest-codeblocks:...-->`` (the markers are ``<!--mlp:...-->``: our runner, not
pytest-codeblocks, reads them, and they mean what it says).
"""

from __future__ import annotations

import re

import pytest

from tests import pagekit

PYTHON_LANGUAGES = {"python", "py", "python3", "py3", "pycon", "ipython", "ipython3", "pyi", "numpy"}
OLD_NAME = "pytest-codeblocks:"  # the markers' old name, whose meaning was pytest-codeblocks' own
TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")

PAGES = pagekit.pages()


def unexecuted_python_fences(page) -> list[str]:
    problems = []
    for fence in pagekit.parse_fences(page):
        if fence.is_output:
            continue
        if fence.language not in PYTHON_LANGUAGES:
            continue
        if fence.is_runnable or fence.runs_at_build:
            continue
        if fence.norun:
            continue
        problems.append(f"{fence.where}: ```{fence.info} is never executed")
    for fence in pagekit.parse_fences(page):
        for mark in fence.marks:
            if "skip" in mark and "reason=" not in mark:
                problems.append(f"{fence.where}: {mark} gives no reason")
    return problems


def hand_typed_tables(page) -> list[str]:
    """Pipe tables outside fences: values must come from code, so none may be typed."""
    lines = page.read_text(encoding="utf-8").splitlines()
    inside_fence, problems = False, []
    for number, line in enumerate(lines[:-1], start=1):
        if pagekit.FENCE_OPEN.match(line):
            inside_fence = not inside_fence
            continue
        if inside_fence:
            continue
        if TABLE_ROW.match(line) and TABLE_RULE.match(lines[number]):
            allowed = number >= 2 and "prose-table" in lines[number - 2]
            if not allowed:
                problems.append(f"{page.relative_to(pagekit.ROOT)}:{number}: hand-typed table "
                                "(generate it with code, or mark a table of words with <!-- prose-table -->)")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(pagekit.DOCS)) for p in PAGES])
def test_every_python_fence_is_executed(page):
    assert unexecuted_python_fences(page) == []


def old_markers(page) -> list[str]:
    """Lines, fences included, that still say the markers' old name."""
    lines = page.read_text(encoding="utf-8").splitlines()
    return [f"{page.relative_to(pagekit.ROOT)}:{number}: {line.strip()} uses the old name; "
            f"the markers are <!--mlp:...-->" for number, line in enumerate(lines, start=1) if OLD_NAME in line]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(pagekit.DOCS)) for p in PAGES])
def test_no_marker_under_its_old_name(page):
    assert old_markers(page) == []


def test_parser_refuses_a_marker_under_its_old_name():
    page = "```python\nprint(1)\n```\n\n!!! note\n    <!--pytest-codeblocks:expected-output-->\n\n    ```\n    1\n    ```\n"
    with pytest.raises(ValueError, match=r"^docs/made-up\.md:6: the marker pytest-codeblocks:expected-output "
                                         r"is the old name; write <!--mlp:expected-output-->$"):
        pagekit.page_code.parse_fences(page.split("\n"), "docs/made-up.md")


def test_parser_refuses_an_unknown_marker_before_any_fence():
    # Before a plain output fence (not a runnable one), where nothing else would look at it.
    page = "```python\nprint(1)\n```\n\n<!--mlp:expected-outptu-->\n\n```\n1\n```\n"
    with pytest.raises(ValueError, match=r"^docs/made-up\.md:5: unknown marker mlp:expected-outptu; expected cont"):
        pagekit.page_code.parse_fences(page.split("\n"), "docs/made-up.md")


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(pagekit.DOCS)) for p in PAGES])
def test_no_hand_typed_tables(page):
    assert hand_typed_tables(page) == []


def test_scan_catches_the_known_traps(tmp_path):
    page = tmp_path / "trap.md"
    page.write_text(
        '```python title="x.py"\nassert False\n```\n\n'
        "```py\nprint(1)\n```\n\n"
        "!!! note\n    ```pycon\n    >>> 1\n    ```\n\n"
        '=== "Tab"\n\n    ```python3\n    x = 1\n    ```\n\n'
        "<!-- norun: shows a traceback on purpose -->\n```pycon\n>>> 1/0\n```\n\n"
        "```python\nprint(2)\n```\n\n"
        '```python exec="on"\nprint(3)\n```\n\n'
        "| a | b |\n|---|---|\n| 1 | 2 |\n",
        encoding="utf-8",
    )
    pagekit.ROOT, saved = tmp_path, pagekit.ROOT
    try:
        problems = unexecuted_python_fences(page)
        tables = hand_typed_tables(page)
    finally:
        pagekit.ROOT = saved
    assert [p.split(":")[1] for p in problems] == ["1", "5", "10", "16"]
    assert len(tables) == 1
