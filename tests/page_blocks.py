"""pytest plugin: the test run's one strict build of the site, and one item per page block from its record.

The build (:func:`_build_and_serve`, the ``built_site`` and ``server`` fixtures) starts in the
background as soon as the tests are collected (tests/early.py) and is then served on 127.0.0.1. It
is built for the address it is served at (``SITE_URL``), because the reader's install line on its
pages names the site's own ``downloads/`` by absolute URL. This is a plugin of the root conftest.py,
not of tests/conftest.py, so that ``pytest docs/lessons/x.md`` has the build too.

The build is the one executor of the pages' code (mlp_site.verification): it runs each block once,
compares what it printed with the page, and writes every block's result into ``_execution.json`` at
the root of the site (both editions). Each block's item reads its entry (page and line) from that
record, even when the strict build failed (the record is written before the build stops), and runs
nothing itself. An item fails, naming the page and line, when its block raised (with the traceback)
or printed something else than the page shows (with the diff, computed here from the record's output
and the page as this test reads it); it is skipped when its block needs a module this environment
lacks (failed when ``MLP_REQUIRE_OPTIONAL`` is set).
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from mlp_site.verification import RECORD

from tests import early, pagekit

STATS: Counter = Counter()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class ReusableServer(http.server.ThreadingHTTPServer):
    allow_reuse_address = True


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Build:
    """What the test run's strict build made and said."""

    site: Path
    port: int | None  # where it is served; None when no whole site was written
    failure: str | None  # None when the strict build passed; else its exit and what it said, whole
    warnings: list[str] = field(default_factory=list)  # every warning and error the build logged, whole

    def of_page(self, source: str) -> list[str]:
        """The warnings that name page ``source`` (``docs/lessons/x.md``; mlp_site.page_warnings puts it first)."""
        return [w for w in self.warnings if page_of(w) == source]


ANSI = re.compile(r"\x1b\[[0-9;]*m")
LOG_RECORD = re.compile(r"^(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL)\s*-\s+(?P<message>.*)$")
NAMED_PAGE = re.compile(r"^(?P<page>docs/\S+?\.(?:md|py))(?::(?P<line>\d+))?: ")
EXCEPTION_LINE = re.compile(r"^\s*[\w.]*(?:Error|Exception|Failed|Abort)\b[^\n]*$")
PLACE_LINE = re.compile(r'^\s*File "([^"]+)", line (\d+)')  # a traceback's frame: the last one is where it raised


def page_of(warning: str) -> str | None:
    match = NAMED_PAGE.match(warning)
    return match["page"] if match else None


def headline(warning: str) -> str:
    """A warning in a few lines, for the terminal: its first line, the exception it ends in, a diff's lines."""
    lines = warning.splitlines()
    said = [lines[0]]
    raised = [line.strip() for line in lines[1:] if EXCEPTION_LINE.match(line)]
    said += [f"at {place[1]}:{place[2]}" for place in list(map(PLACE_LINE.match, lines[1:])) if place][-1:]
    said += raised[-1:]
    said += [line for line in lines[1:] if line.startswith(("+", "-", "@")) and not line.startswith(("---", "+++"))][:12]
    return "\n    ".join(said)


def _build_and_serve(config: pytest.Config) -> Build:
    """Build the site with ``mkdocs build --strict`` (labs executed) and serve it on a free port.

    Runs in the background from the end of collection (tests/early.py). Each warning the build logs
    is said on the terminal as soon as the build logs it (early.tell), naming its page. A strict
    build that only warned has still written every page and the record: the site is served, and each
    page's items pass or fail on their own (the page's ``build`` item fails with its warnings). A build
    that stopped before writing the site is reported once, by tests/test_site_build.py; the tests
    that need the site say so in one line (:func:`site_and_port`). The server lives until the end of
    the session, in a daemon thread.
    """
    port = _free_port()
    site = early.new_folder(config, "site-")
    env = dict(os.environ, SITE_URL=f"http://127.0.0.1:{port}/")
    # A global MPLBACKEND=Agg would silently drop every notebook figure.
    env.pop("MPLBACKEND", None)
    env.setdefault("NO_MKDOCS_2_WARNING", "1")
    env["COLUMNS"] = "0"  # MkDocs wraps its messages to a terminal's width: none, so that a message stays as logged
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-d", str(site)],
        cwd=pagekit.ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines, warnings, current = [], [], None

    def said(record: list[str] | None) -> None:  # a warning is whole: kept, and told at once
        if record is not None:
            warnings.append("\n".join(record))
            early.tell(f"site build: {headline(warnings[-1])}")

    for line in process.stdout:
        line = ANSI.sub("", line)  # MkDocs colours the level, terminal or not
        lines.append(line)
        record = LOG_RECORD.match(line.rstrip("\n"))
        if record:  # a new record: the one before is whole (a record's message may run over many lines)
            said(current)
            current = [record["message"]] if record["level"] in ("WARNING", "ERROR", "CRITICAL") else None
        elif current is not None:
            current.append(line.rstrip("\n"))
    said(current)
    returncode = process.wait(timeout=1800)
    failure = None if returncode == 0 else f"mkdocs build --strict failed (exit {returncode}):\n{''.join(lines)[-20000:]}"
    if failure and not ((site / "index.html").is_file() and (site / RECORD).is_file()):
        return Build(site, None, failure, warnings)  # it stopped before the site was whole
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = ReusableServer(("127.0.0.1", port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return Build(site, port, failure, warnings)


early.register("site", fixture="site_build", stage="site build", work=_build_and_serve, at_start=True)

BUILD_REPORT = "tests/test_site_build.py::test_the_strict_build_passed"


def site_and_port(config: pytest.Config) -> tuple[Path, int]:
    """The built and served site's folder and port.

    A check of the whole site (its links, search, browser visits, the reader's side) runs only on a
    site whose strict build passed: on a build that failed, a page that failed has an error in place of
    its content, and every such check would fail again on it. The failure is reported once, by
    :data:`BUILD_REPORT` and by the failed pages' own items; the checks of the whole site are skipped,
    in one line, until it builds (and fail in one line if no site was written at all)."""
    build = early.result("site", config)
    if build.port is None:
        pytest.fail(f"no site to test: the strict build stopped before it wrote every page (see {BUILD_REPORT})",
                    pytrace=False)
    if build.failure is not None:
        pytest.skip(f"no whole site: the strict build failed ({BUILD_REPORT} says why, once)")
    return build.site, build.port


@pytest.fixture(scope="session")
def site_build(pytestconfig) -> Build:
    """What the test run's strict build made and said, whether it passed or not (tests/early.py runs it)."""
    return early.result("site", pytestconfig)


@pytest.fixture(scope="session")
def built_site(pytestconfig, site_build) -> Path:
    """The folder of the strictly built site (built in the background: tests/early.py)."""
    return site_and_port(pytestconfig)[0]


@pytest.fixture(scope="session")
def server(pytestconfig, site_build) -> str:
    """The built site served on 127.0.0.1 at the address it was built for: its base URL."""
    return f"http://127.0.0.1:{site_and_port(pytestconfig)[1]}"


def pytest_collect_file(file_path, parent):
    lab = file_path.suffix == ".py" and file_path.parent == pagekit.DOCS / "labs"
    if (file_path.suffix == ".md" and pagekit.DOCS in file_path.parents) or lab:
        return PageFile.from_parent(parent, path=file_path)
    return None


class PageFile(pytest.File):
    """A page of docs/ (a lab's notebook too): its build's item, then one item per code block."""

    def collect(self):
        yield PageBuild.from_parent(self, name="build")
        if self.path.suffix != ".md":
            return
        page_blocks = pagekit.blocks(self.path)
        if page_blocks:
            STATS["pages with code"] += 1
        for block in page_blocks:
            item = PageBlock.from_parent(self, name=f"line {block.fence.lineno}", block=block)
            for mark in block.fence.marks:
                item.add_marker(eval(mark, {"pytest": pytest, "sys": sys, "os": os}))
            yield item


_RECORD = pytest.StashKey[dict]()


def build_record(config: pytest.Config) -> dict:
    """The test run's site build's record:
    ``{"entries": {(page, line): entry}, "failure": what a failed build said, or None}``."""
    if _RECORD not in config.stash:
        build = early.result("site", config)  # _build_and_serve, above
        path = build.site / RECORD
        entries = {(entry["page"], entry["line"]): entry
                   for entry in json.loads(path.read_text(encoding="utf-8"))["blocks"]} if path.is_file() else {}
        pointer = None if path.is_file() else f"the strict build stopped before it wrote its record (see {BUILD_REPORT})"
        config.stash[_RECORD] = {"entries": entries, "failure": pointer, "build": build}
    return config.stash[_RECORD]


class PageBuild(pytest.Item):
    """Fails when the build warned about this page: a generator, a value, a claim or a lab's cell that failed
    (mlp_site.page_warnings names the page in each warning). A block's own verdict is its item's (PageBlock)."""

    fixturenames = ("site_build",)  # tests/early.py orders the items by the background work they wait for

    def setup(self):
        self.record = build_record(self.config)

    def runtest(self):
        build = self.record["build"]
        if build.port is None:
            raise BlockFailure(self.source, "not built", f"the strict build stopped before it wrote every page "
                               f"(see {BUILD_REPORT})")
        said = [w for w in build.of_page(self.source) if not NAMED_PAGE.match(w)["line"]]
        if said:
            raise BlockFailure(self.source, f"the build said {len(said)} warning(s) about this page",
                               "\n\n".join(said))

    @property
    def source(self) -> str:
        return self.path.relative_to(pagekit.ROOT).as_posix()

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, BlockFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, "the page's build"


class PageBlock(pytest.Item):
    # Needs the site build (tests/early.py orders the items by the background work they wait for).
    fixturenames = ("site_build",)

    def __init__(self, *, block: pagekit.Block, **kwargs):
        super().__init__(**kwargs)
        self.block = block

    def setup(self):
        self.record = build_record(self.config)  # in setup: tests/timing.py counts the wait as waiting

    def runtest(self):
        where = self.block.fence.where
        entries, failure = self.record["entries"], self.record["failure"]
        check(self.block, entries.get((where.rsplit(":", 1)[0], self.block.lineno)), failure)
        STATS["code blocks"] += 1
        STATS["snippets embedded"] += len(self.block.snippets)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, BlockFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.block.fence.lineno - 1, f"page block {self.name}"


def check(block: pagekit.Block, entry: dict | None, failure: str | None = None) -> None:
    """Report the build's verdict on ``block`` (its ``entry``, decided once by mlp_site.block_run.judge):
    pass when it matched, skip it when it did not run for want of an optional module, else fail naming
    the page and line with the reason and the detail (diff, traceback) the build recorded."""
    where = block.fence.where
    if entry is None:
        raise BlockFailure(where, "the site build's record (_execution.json) has no entry for this block",
                           failure or "")
    if entry["code_sha256"] != hashlib.sha256(block.code.encode()).hexdigest() or entry["expected"] != block.expected:
        raise BlockFailure(where, "the build ran other code at this line, or compared another output "
                           "(was the page edited since?)", "")
    if entry["verdict"] == "matched":
        return
    if entry["verdict"] == "not run":
        if not any(earlier.needs for earlier in block.chain()):
            raise BlockFailure(where, "the block did not run", entry["skipped"])
        if os.environ.get("MLP_REQUIRE_OPTIONAL"):
            pytest.fail(f"{where}: {entry['skipped']}, and MLP_REQUIRE_OPTIONAL is set", pytrace=False)
        pytest.skip(f"{entry['skipped']}; CI installs it and runs this block")
    raise BlockFailure(where, entry["why"], entry["detail"])


class BlockFailure(Exception):
    def __init__(self, where: str, what: str, detail: str):
        super().__init__(f"{where}: {what}\n{detail}")


def pytest_sessionfinish(session):
    """An xdist worker hands its counts to the controller, which prints them (below)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["mlp_stats"] = dict(STATS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """The controller adds up its workers' counts; each worker collects every page, so a count made at
    collection is each worker's, not their sum."""
    for key, count in getattr(node, "workeroutput", {}).get("mlp_stats", {}).items():
        STATS[key] = max(STATS[key], count) if key == "pages with code" else STATS[key] + count


def pytest_terminal_summary(terminalreporter):
    if not STATS:
        return
    terminalreporter.section("what the pages made us run")
    for key in ("pages with code", "code blocks", "snippets embedded", "snippet scripts",
                "pages built", "figures generated", "tables generated", "notebooks executed",
                "pages checked in the browser", "page visits reused", "axe audits run", "axe audits reused",
                "widget settings compared"):
        terminalreporter.write_line(f"{key:>28}: {STATS.get(key, 0)}")
