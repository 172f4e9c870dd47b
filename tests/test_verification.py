"""The line at the end of every page and the execution report say what the build really did.

The figures on the line (mlp_site.verification) are checked against counts made here another
way: code blocks and build-time blocks from the Markdown source with tests/pagekit.py's parser
(not the build's), the blocks that cannot run from the modules this Python lacks, a lab's code
cells from its downloaded notebook, tables and figures from the built page parsed as HTML, the
versions from this environment and the commit from git.
"""

from __future__ import annotations

import datetime
import importlib.util
import json
import logging
import platform
import posixpath
import re
import subprocess
import tomllib
from html import unescape
from html.parser import HTMLParser
from importlib import metadata

import nbformat
import pytest
from mlp_site import block_run, page_code, render_cache, verification, verification_line

from tests import editions, pagekit

LINE = re.compile(r'<p class="mlp-verification">(?P<html>.*?)</p>', re.DOTALL)
KEYS = ("blocks", "matched", "not_run", "generators", "tables", "figures")
# When a run was, in the same words whether this build ran it or reused an earlier build's run
# (mlp_site.verification when(): a page must be the same bytes on a build that reuses its runs).
WHEN = r"on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC"


class ArticleCounter(HTMLParser):
    """Tables and figures inside a built page's ``<article>``: a figure is a picture the page draws (an
    ``<img>`` with a data: URL), counted once whatever wraps it (its ``<figure class="mlp-figure">``)."""

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.tables = self.figures = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.depth += 1
        if not self.depth:
            return
        self.tables += tag == "table"
        self.figures += tag == "img" and (attrs.get("src") or "").startswith("data:image/")

    def handle_endtag(self, tag):
        if tag == "article":
            self.depth -= 1


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def expected_counts(built_site, source: str) -> dict[str, int]:
    """What the line of page ``source`` must say, counted without the build's code."""
    counter = ArticleCounter()
    counter.feed(pagekit.built_page(built_site, source).read_text(encoding="utf-8"))
    counts = dict.fromkeys(KEYS, 0) | {"tables": counter.tables, "figures": counter.figures}
    if source.endswith(".py"):  # a lab: the code cells of its notebook
        notebook = nbformat.read(built_site / source.replace(".py", ".ipynb"), as_version=4)
        counts["generators"] = sum(cell.cell_type == "code" for cell in notebook.cells)
        return counts
    page = pagekit.DOCS / source
    blocks = pagekit.blocks(page)
    missing = [block for block in blocks if any(
        earlier.needs and importlib.util.find_spec(earlier.needs) is None for earlier in block.chain())]
    counts.update(blocks=len(blocks), matched=len(blocks) - len(missing), not_run=len(missing),
                  generators=sum(fence.runs_at_build for fence in pagekit.parse_fences(page)))
    return counts


def stated_counts(text: str) -> dict[str, int]:
    """The figures a page's line states (zero for what it does not mention)."""
    counts = dict.fromkeys(KEYS, 0)
    if match := re.search(rf"its (\d+) code blocks? ran {WHEN} and each printed exactly the output shown", text):
        counts["matched"] = ran = int(match[1])
    elif match := re.search(rf"its (\d+) code blocks? ran {WHEN}, and (\d+) printed exactly the output shown", text):
        ran, counts["matched"] = int(match[1]), int(match[2])
    else:
        ran = 0
    if match := re.search(r"\((\d+) more blocks? did not run", text):
        counts["not_run"] = int(match[1])
    counts["blocks"] = ran + counts["not_run"]
    made = (re.search(rf"(\d+) blocks? of code run {WHEN} made ([^;.]*)", text)
            or re.search(rf"its (\d+) code cells? ran without an error {WHEN} \(\d+ s\), made (.*?), and every "
                         "statement", text))
    if made:
        counts["generators"] = int(made[1])
        for key, word in (("tables", "table"), ("figures", "figure")):
            if number := re.search(rf"(\d+) {word}s?\b", made[2]):
                counts[key] = int(number[1])
    return counts


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=pagekit.ROOT, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture(scope="module")
def lines(built_site) -> dict[str, str]:
    """The text of each nav page's line (each page must have exactly one)."""
    found = {}
    for source in pagekit.nav_sources():
        matches = LINE.findall(pagekit.built_page(built_site, source).read_text(encoding="utf-8"))
        assert len(matches) == 1, f"{source}: {len(matches)} verification lines"
        found[source] = text_of(matches[0])
    return found


def test_every_line_states_what_was_counted_independently(built_site, lines):
    wrong = {source: (stated_counts(text), expected_counts(built_site, source)) for source, text in lines.items()
             if stated_counts(text) != expected_counts(built_site, source)}
    assert wrong == {}, "page: (the line says, counted here)"
    # The figures mean something: code blocks ran on the lessons, tables and figures were made.
    assert sum(stated_counts(text)["matched"] for text in lines.values()) > 50
    assert all(stated_counts(text)["tables"] + stated_counts(text)["figures"] > 0
               for source, text in lines.items() if source.startswith(("lessons/", "labs/")))


def test_every_line_states_the_versions_commit_and_date_of_this_build(lines):
    version = tomllib.loads((pagekit.ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    commit = git("rev-parse", "--short=12", "HEAD")
    dirty = ", with uncommitted changes to mlp_ref" if git("status", "--porcelain", "--", "mlp_ref") else ""
    stack = (f"mlp_ref {version} (commit {commit}{dirty}), NumPy {metadata.version('numpy')}, "
             f"Python {platform.python_version()}.")
    today = datetime.datetime.now(datetime.UTC).date()
    dates = {today.isoformat(), (today - datetime.timedelta(days=1)).isoformat()}  # a build across midnight
    for source, text in lines.items():
        assert stack in text, f"{source}: {text}"
        built = re.search(r"(?:Checked when this page was built|Built) on (\d{4}-\d{2}-\d{2})", text)
        assert built and built[1] in dates, f"{source}: {text}"
        # Each run's time is this build's or an earlier build's: never later than now.
        now = datetime.datetime.now(datetime.UTC)
        for stated in re.findall(r"\bon (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC", text):
            ran = datetime.datetime.strptime(stated, "%Y-%m-%d %H:%M").replace(tzinfo=datetime.UTC)
            assert ran <= now, f"{source}: a run dated {stated} UTC, after this test ran: {text}"


def test_a_run_is_always_dated():
    """The line says when a run was in the same words on a build that ran it and on one that reused it."""
    assert verification_line.when("2026-01-01 12:00 UTC") == "on 2026-01-01 12:00 UTC"
    with pytest.raises(ValueError, match="a run without its time"):
        verification_line.when("")


def report_rows(built_site) -> dict[str, list[str]]:
    """The execution report's rows: {page source: its cells' text}, the total row under ``"all"``."""
    html = (built_site / "execution-report" / "index.html").read_text(encoding="utf-8")
    by_url = {pagekit.built_page(built_site, source).parent.relative_to(built_site).as_posix(): source
              for source in pagekit.nav_sources()}
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", html, re.DOTALL)[1:]:
        cells = [text_of(cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)]
        link = re.search(r'href="([^"#]*)"', row)  # relative to execution-report/
        target = posixpath.normpath(posixpath.join("execution-report", link[1])) if link else "all"
        rows[by_url.get(target, target)] = cells
    return rows


def test_the_execution_report_lists_every_page_with_the_same_figures(built_site, lines):
    rows = report_rows(built_site)
    assert sorted(rows) == sorted([*lines, "all"])
    for source in lines:
        stated = dict(zip(KEYS, map(int, rows[source][1:7])))
        assert stated == expected_counts(built_site, source), source
        assert re.fullmatch(r"\d+\.\d", rows[source][7]) and re.match(r"\d+\.\d", rows[source][8])
    totals = [sum(int(rows[source][column]) for source in lines) for column in range(1, 7)]
    assert list(map(int, rows["all"][1:7])) == totals


@pytest.mark.parametrize("report", ["execution-report", "ru/execution-report"])
def test_the_reports_build_facts_are_the_paragraph_the_browser_caches_read_without_figures(built_site, report):
    """The paragraph with the build's commit and length is the one tests/axe_audit.py reads without its
    figures: a report that differs only there is not audited or visited again; its table is."""
    html = (built_site / report / "index.html").read_text(encoding="utf-8")
    facts = re.findall(r'<p class="mlp-build-facts">(.*?)</p>', html, re.DOTALL)
    assert len(facts) == 1 and re.search(r"\((commit|коммит) [0-9a-f]+|no git commit|без коммита", facts[0]), facts
    assert re.search(r"\d+\.\d[ \u00a0](s|с)\b", facts[0]), facts
    assert "<table" not in facts[0] and "<table" in html


# --- the build's own check, on a page made up here ------------------------------------------

PAGE = """\
```python
print(6 * 7)
```

<!--mlp:expected-output-->

```text
42
```

<!--mlp:cont-->

```python
print(6 * 8)
```

<!--mlp:expected-output-->

```text
42
```

```python
raise ValueError("no")
```

<!--mlp:importorskip(no_such_module_here)-->

```python
print("never")
```
"""


def test_the_build_says_when_a_block_prints_something_else(caplog, tmp_path):
    run = block_run.BlockRun({"made-up.md": page_code.segments(page_code.page_blocks(PAGE, "made-up.md"))})
    record = verification.PageRecord("made-up.md", source="docs/made-up.md")
    with caplog.at_level(logging.WARNING):
        verification.check_blocks(record, run.results()["made-up.md"])
    assert (record.blocks, record.matched, len(record.not_run)) == (4, 1, 1)
    assert record.failed == ["block 2 (line 13) printed output differs from the page",
                             "block 3 (line 23) raised an error"]
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 2  # --strict fails the build
    record.blocks_ran_at = "2026-01-01 12:00 UTC"
    line = verification_line.claims(record, "2026-01-01")
    assert "its 3 code blocks ran on 2026-01-01 12:00 UTC, and 1 printed exactly the output shown" in line
    assert "(1 more block did not run: it needs no_such_module_here, which was not installed where the build ran)" in line
    record.not_run *= 2  # the verb agrees with the count
    assert "(2 more blocks did not run: they need no_such_module_here, which" in verification_line.claims(record, "2026-01-01")
    record.not_run.append("an earlier block of its chain raised an error")
    assert ("(3 more blocks did not run: 1 because an earlier block of its chain raised an error; 2 because they "
            "need no_such_module_here") in verification_line.claims(record, "2026-01-01")
    assert ("(ещё три блока не выполнены: 1 — an earlier block of its chain raised an error; 2 — нужен модуль "
            "no_such_module_here") in verification_line.claims_ru(record, "2026-01-01")
    record.not_run = record.not_run[:1]
    assert stated_counts(line + ". mlp_ref") == dict(blocks=4, matched=1, not_run=1, generators=0, tables=0, figures=0)
    # The record the tests report from (tests/page_blocks.py): one entry per block, with its verdict.
    verification.Verification().write_record(tmp_path, [record])
    entries = json.loads((tmp_path / verification.RECORD).read_text(encoding="utf-8"))["blocks"]
    assert [(e["page"], e["line"], e["verdict"]) for e in entries] == [
        ("docs/made-up.md", 1, "matched"), ("docs/made-up.md", 13, "differs"), ("docs/made-up.md", 23, "raised"),
        ("docs/made-up.md", 29, "not run")]
    assert entries[1]["output"] == "48\n" and entries[1]["expected"] == "42\n" and "ValueError: no" in entries[2]["error"]


def test_block_results_are_kept_across_prose_edits_but_not_code_edits():
    """The block cache's key (mlp_site.block_run) covers what the runner runs, not the prose."""

    def key(text):
        return block_run.blocks_key(page_code.page_blocks(text, "made-up.md"))

    page = "Some prose.\n\n```python\nimport mlp_ref\nprint(mlp_ref.relu(-1.0))\n```\n"
    shown = "\n<!--mlp:expected-output-->\n\n```\n0.0\n```\n"
    assert key(page + shown) == key("A new sentence.\n\n" + page + shown.replace("0.0", "0"))
    assert key(page) != key(page.replace("-1.0", "-2.0"))
    chained = page + "\n<!--mlp:cont-->\n\n```python\nprint(1)\n```\n"
    assert key(chained) != key(chained.replace("<!--mlp:cont-->\n", ""))
    # The key follows the modules of mlp_ref the blocks import, as the render cache's does.
    modules = render_cache.imported(block_run.runs_text(page_code.page_blocks(page, "made-up.md")))
    assert pagekit.ROOT / "mlp_ref" / "activations.py" in modules


# --- the Russian edition's lines ---------------------------------------------------------------
# As in English: dated, whether this build ran it or reused it; in Russian words (i18n.ru_date): «2 декабря 2026 г. в 06:23 UTC».
WHEN_RU = r"\d{1,2}\u00a0[а-я]+ \d{4}\u00a0г\. в \d{2}:\d{2} UTC"


# The counts up to ten, as the Russian line says them (in words, agreeing with the noun), written out by
# hand here rather than taken from mlp_ref.course.i18n: «три блока кода», «одну таблицу», «два рисунка».
RU_NUMBERS = {"один": 1, "одна": 1, "одну": 1, "одно": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5,
              "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10}
N = r"(?<!\w)(\d+|" + "|".join(RU_NUMBERS) + ")"


def said(count: str) -> int:
    """A count of the Russian line as a number; a digit from 1 to 10 fails (the line says those in words)."""
    if count.isdigit():
        assert not 1 <= int(count) <= 10, f"the Russian line writes the count {count} as a digit, not a word"
        return int(count)
    return RU_NUMBERS[count]


def stated_counts_ru(text: str) -> dict[str, int]:
    """:func:`stated_counts` of a Russian page's line."""
    counts = dict.fromkeys(KEYS, 0)
    if match := re.search(rf"{N} блок\w* кода страницы выполнен\w* {WHEN_RU}, и каждый напечатал ровно тот "
                          "вывод, что показан", text):
        counts["matched"] = ran = said(match[1])
    elif match := re.search(rf"{N} блок\w* кода страницы выполнен\w* {WHEN_RU}, и {N} из них напечатал", text):
        ran, counts["matched"] = said(match[1]), said(match[2])
    else:
        ran = 0
    if match := re.search(rf"\(ещё {N} блок\w* не выполнен", text):
        counts["not_run"] = said(match[1])
    counts["blocks"] = ran + counts["not_run"]
    made = (re.search(rf"{N} блок\w* кода сборки, выполненн\w* {WHEN_RU}, создал\w* ([^;.]*)", text)
            or re.search(rf"{N} яче\w* кода выполнен\w* без ошибок {WHEN_RU} \(\d+[ \u00a0]с\) и создал\w* (.*?); каждое", text))
    if made:
        counts["generators"] = said(made[1])
        for key, word in (("tables", "таблиц"), ("figures", "рисун")):
            if number := re.search(rf"{N} {word}", made[2]):
                counts[key] = said(number[1])
    return counts


def test_the_russian_line_says_what_the_english_one_says():
    """The Russian sentence states the same figures (read back by stated_counts_ru) in each case."""
    at = "2026-11-30 10:00 UTC"
    records = [verification.PageRecord("a.md", blocks=12, matched=11, not_run=["needs torch, which is not installed"],
                                       generators=3, tables=21, figures=1, blocks_ran_at=at, rendered_at=at),
               verification.PageRecord("b.md", blocks=1, matched=1, generators=1, tables=0, figures=2,
                                       blocks_ran_at="2026-11-29 10:00 UTC", rendered_at=at),
               verification.PageRecord("labs/c.py", lab=True, generators=24, tables=5, figures=3, render_seconds=40.2,
                                       rendered_at=at)]
    for record in records:
        english, russian = verification_line.claims(record, "2026-11-30"), verification_line.claims_ru(record, "2026-11-30")
        assert stated_counts_ru(russian) == stated_counts(english), (english, russian)
        assert stated_counts(english)["generators"] == record.generators


@pytest.fixture(scope="module")
def russian_lines(built_site) -> dict[str, str]:
    """The text of each Russian page's line, by its twin's source (each must have exactly one)."""
    found = {}
    for source in pagekit.nav_sources():
        twin = editions.twin_source(source)
        matches = LINE.findall(pagekit.built_page(built_site, twin).read_text(encoding="utf-8"))
        assert len(matches) == 1, f"{twin}: {len(matches)} verification lines"
        found[twin] = text_of(matches[0])
    return found


def test_every_russian_line_states_what_was_counted_independently(built_site, russian_lines):
    def expected(twin: str) -> dict[str, int]:
        if not twin.endswith(".py"):
            return expected_counts(built_site, twin)
        counts = expected_counts(built_site, twin.replace(".ru.py", ".py"))  # the same code cells
        counter = ArticleCounter()
        counter.feed(pagekit.built_page(built_site, twin).read_text(encoding="utf-8"))
        return counts | {"tables": counter.tables, "figures": counter.figures}

    wrong = {twin: (stated_counts_ru(text), expected(twin)) for twin, text in russian_lines.items()
             if stated_counts_ru(text) != expected(twin)}
    assert wrong == {}, "page: (the line says, counted here)"
    assert all("Отчёт о выполнении" in text and "NumPy" in text for text in russian_lines.values())
