"""The home page's course map and its "builds on" column say what the pages' Prerequisites say.

Structure is typed once: what a page repeats from another page is made from that page, never typed
again (CONTRIBUTING.md). Each lesson's ``## Prerequisites`` section and each lab's
``**Prerequisites.**`` paragraph link the lessons it uses. This test reads those links itself
(a plain reading, independent of ``prose/structure.py`` which the home page draws with), runs
the home page's build-time blocks as the build does, and compares: every page's row of the
table must list exactly its prerequisites, and the map must draw exactly the arrows of those
links that no longer path implies, with every prerequisite reachable along the arrows.
"""

from __future__ import annotations

import contextlib
import io
import os
import re

import pytest

from tests import pagekit

INDEX = pagekit.DOCS / "index.md"


def _own_reading(language: str = "en") -> dict[str, set[str]]:
    """{page key: keys of the lessons its Prerequisites link to}, read straight from the files
    of one edition (a Russian page's section is "## Что нужно знать {#prerequisites}")."""
    suffix = ".ru" if language == "ru" else ""
    section, paragraph = (("{#prerequisites}", "**Что нужно знать.**") if language == "ru"
                          else ("## Prerequisites", "**Prerequisites.**"))
    result = {}
    for path in [p for p in sorted((pagekit.DOCS / "lessons").glob("*.md")) if (".ru." in p.name) == bool(suffix)]:
        text = path.read_text(encoding="utf-8")
        key = re.search(r"^# (\d+)\. ", text, re.MULTILINE)[1]
        body = text.split(section, 1)[1].split("\n## ", 1)[0]
        result[key] = {str(int(n)) for n in re.findall(r"\]\((?:\.\./)*(?:lessons/)?(\d\d)-[^)]*\)", body)}
    for path in [p for p in sorted((pagekit.DOCS / "labs").glob("*.py")) if (".ru." in p.name) == bool(suffix)]:
        text = path.read_text(encoding="utf-8")
        key = re.search(r"^# # (?:Lab|Лабораторная) ([A-Z]):", text, re.MULTILINE)[1]
        body = text.split(paragraph, 1)[1].split("\n#\n", 1)[0]
        result[key] = {str(int(n)) for n in re.findall(r"\]\((?:\.\./)*lessons/(\d\d)-[^)]*\)", body)}
    return result


def test_the_russian_edition_has_the_same_prerequisites():
    """The map is drawn once per edition from its own pages: they must link the same lessons."""
    russian, english = _own_reading("ru"), _own_reading("en")
    assert russian == {key: english[key] for key in russian}  # every page has a twin: tests/test_editions.py


def _built_home_page() -> tuple[str, dict]:
    """index.md with each build-time block replaced by what it prints, and the namespace."""
    text = INDEX.read_text(encoding="utf-8")
    namespace = {"__name__": "__main__"}
    pieces, last = [], 0
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    old = os.getcwd()
    os.chdir(pagekit.ROOT)
    try:
        for fence in pagekit.parse_fences(INDEX):
            if not fence.runs_at_build:
                continue
            start = offsets[fence.lineno - 1]
            end = offsets[fence.lineno + len(fence.code.splitlines()) + 1]
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                exec(compile(fence.code, fence.where, "exec"), namespace)
            pieces += [text[last:start], buffer.getvalue()]
            last = end
    finally:
        os.chdir(old)
    return "".join(pieces) + text[last:], namespace


def _reduction(prereqs: dict[str, set[str]]) -> set[tuple[str, str]]:
    def below(key):
        seen, todo = set(), list(prereqs[key])
        while todo:
            k = todo.pop()
            if k not in seen:
                seen.add(k)
                todo += prereqs[k]
        return seen
    return {(a, b) for b, direct in prereqs.items() for a in direct
            if not any(a in below(c) for c in direct - {a})}


@pytest.fixture(scope="module")
def home():
    return _built_home_page()


def test_every_page_has_prerequisites_except_the_first():
    prereqs = _own_reading()
    assert set(prereqs) == {str(n) for n in range(1, 10)} | {"A", "B"}
    assert prereqs["1"] == set()
    assert all(prereqs[k] for k in prereqs if k != "1"), prereqs


def test_table_builds_on_column_is_each_pages_prerequisites(home):
    markdown, _ = home
    prereqs = _own_reading()
    rows = {}
    for line in markdown.splitlines():
        match = re.match(r"^\|\s*\[(?:Lab (?P<lab>[A-Z])|(?P<n>\d+))\.[^\]]*\]\([^)]*\)\s*\|[^|]*\|(?P<on>[^|]*)\|\s*$", line)
        if match:
            key = match["lab"] or match["n"]
            cell = match["on"].strip()
            rows[key] = set() if cell == "—" else {c.strip().removeprefix("Lab ") for c in cell.split(",")}
    assert set(rows) == set(prereqs), "the table must have one row per lesson and lab"
    wrong = {k: (rows[k], prereqs[k]) for k in prereqs if rows[k] != prereqs[k]}
    assert not wrong, f"'builds on' (table, Prerequisites) disagree: {wrong}"


def test_map_draws_the_prerequisites_without_implied_links(home):
    from prose.structure import pages

    _, namespace = home
    prereqs = _own_reading()
    nodes, edges = namespace["home"].map_layout(pages(language="en"))  # what the page's map draws
    drawn = set(edges)
    assert set(nodes) == set(prereqs), "the map must have one box per lesson and lab"
    expected = _reduction(prereqs)
    assert drawn == expected, f"map arrows missing {sorted(expected - drawn)}, extra {sorted(drawn - expected)}"


def test_home_page_describes_every_widget_once_with_a_link_to_its_section(home):
    """Each widget of mlp_ref.course.widgets.WIDGETS sits on one lesson, and the home page's list
    links it there, read here from the lessons' own text (its heading and the widget_html call, on
    the page or in the generator function the page calls there)."""
    from mlp_ref.course.widgets import WIDGETS
    from prose.structure import generator_calls

    markdown, _ = home
    on_pages = {}
    for path in sorted((pagekit.DOCS / "lessons").glob("*.md")):
        if ".ru." in path.name:  # the English home page lists the English lessons
            continue
        text = path.read_text(encoding="utf-8")
        places = [(match.start(), match[1]) for match in re.finditer(r'widget_html\(\s*"([a-z-]+)"', text)]
        places += [(call.offset, match[1]) for call in generator_calls(text)
                   for match in re.finditer(r'widget_html\(\s*"([a-z-]+)"', call.source)]
        for offset, name in places:
            heading = re.findall(r"^### (.+)$", text[:offset], re.MULTILINE)[-1]
            anchor = re.sub(r"\s+", "-", re.sub(r"[^\w\s-]", "", heading).lower())
            on_pages.setdefault(name, []).append(f"lessons/{path.stem}/#{anchor}")  # the served address
    assert set(on_pages) == set(WIDGETS) and all(len(v) == 1 for v in on_pages.values()), on_pages
    listed = re.findall(r"^- \*\*\[(?P<title>[^\]]+)\]\((?P<link>[^)]+)\)\*\* \(lesson \d+\): (?P<sentence>.+)\.$",
                        markdown, re.MULTILINE)
    assert sorted((title, link) for title, link, _ in listed) == sorted(
        (WIDGETS[name].title, links[0]) for name, links in on_pages.items())
    assert {sentence for _, _, sentence in listed} == {w.sentence for w in WIDGETS.values()}
