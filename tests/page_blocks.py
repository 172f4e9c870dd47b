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

import difflib
import functools
import hashlib
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
from collections import Counter
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


def _build_and_serve(config: pytest.Config) -> tuple[Path, int | None, str | None]:
    """Build the site with ``mkdocs build --strict`` (labs executed) and serve it on a free port.

    Runs in the background from the end of collection (tests/early.py). The server lives until
    the end of the session, in a daemon thread. Returns (site folder, port, None), or, when the
    strict build failed, (site folder, None, what it said): the tests that need the site fail with
    that (:func:`site_and_port`), and each page block's item reports its own block from the
    record the build wrote before it stopped (:func:`check`).
    """
    port = _free_port()
    site = early.new_folder(config, "site-")
    env = dict(os.environ, SITE_URL=f"http://127.0.0.1:{port}/")
    # A global MPLBACKEND=Agg would silently drop every notebook figure.
    env.pop("MPLBACKEND", None)
    env.setdefault("NO_MKDOCS_2_WARNING", "1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-d", str(site)],
        cwd=pagekit.ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )
    if result.returncode != 0:
        return site, None, (f"mkdocs build --strict failed (exit {result.returncode}):\n{result.stdout}\n"
                            f"{result.stderr[-20000:]}")
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = ReusableServer(("127.0.0.1", port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return site, port, None


early.register("site", fixture="built_site", stage="site build", work=_build_and_serve, at_start=True)


def site_and_port(config: pytest.Config) -> tuple[Path, int]:
    """The built and served site's folder and port; fails the test if the strict build failed."""
    site, port, failure = early.result("site", config)
    if failure:
        pytest.fail(failure, pytrace=False)
    return site, port


@pytest.fixture(scope="session")
def built_site(pytestconfig) -> Path:
    """The folder of the strictly built site (built in the background: tests/early.py)."""
    return site_and_port(pytestconfig)[0]


@pytest.fixture(scope="session")
def server(pytestconfig) -> str:
    """The built site served on 127.0.0.1 at the address it was built for: its base URL."""
    return f"http://127.0.0.1:{site_and_port(pytestconfig)[1]}"


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".md" and pagekit.DOCS in file_path.parents:
        return PageFile.from_parent(parent, path=file_path)
    return None


class PageFile(pytest.File):
    def collect(self):
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
        site, _, failure = early.result("site", config)  # _build_and_serve, above
        path = site / RECORD
        entries = {(entry["page"], entry["line"]): entry
                   for entry in json.loads(path.read_text(encoding="utf-8"))["blocks"]} if path.is_file() else {}
        config.stash[_RECORD] = {"entries": entries, "failure": failure}
    return config.stash[_RECORD]


class PageBlock(pytest.Item):
    # Needs the site build (tests/early.py orders the items by the background work they wait for).
    fixturenames = ("built_site",)

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
    """Fail (naming the page and line) unless the build's ``entry`` for ``block`` says it printed what
    the page shows; skip it if it did not run for want of an optional module."""
    where = block.fence.where
    if entry is None:
        raise BlockFailure(where, "the site build's record (_execution.json) has no entry for this block",
                           failure or "")
    if entry["code_sha256"] != hashlib.sha256(block.code.encode()).hexdigest():
        raise BlockFailure(where, "the build ran other code at this line (was the page edited since?)", "")
    if entry["skipped"] and not any(earlier.needs for earlier in block.chain()):
        raise BlockFailure(where, "the block did not run", entry["skipped"])
    if entry["skipped"]:
        if os.environ.get("MLP_REQUIRE_OPTIONAL"):
            pytest.fail(f"{where}: {entry['skipped']}, and MLP_REQUIRE_OPTIONAL is set", pytrace=False)
        pytest.skip(f"{entry['skipped']}; CI installs it and runs this block")
    if entry["error"]:
        raise BlockFailure(where, "the block raised an exception", entry["error"])
    output, expected = entry["output"], block.expected
    if expected is None and output:
        raise BlockFailure(where, "the block prints output but the page shows none "
                           "(add an expected-output block after it)", output)
    if expected is not None and output != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), output.splitlines(True),
                                            "shown on the page", "printed by the code"))
        raise BlockFailure(where, "printed output differs from the page", diff)
    assert entry["verdict"] == "matched", f"{where}: the build's verdict was {entry['verdict']!r}"


class BlockFailure(Exception):
    def __init__(self, where: str, what: str, detail: str):
        super().__init__(f"{where}: {what}\n{detail}")


def pytest_terminal_summary(terminalreporter):
    if not STATS:
        return
    terminalreporter.section("what the pages made us run")
    for key in ("pages with code", "code blocks", "snippets embedded", "snippet scripts",
                "pages built", "figures generated", "tables generated", "notebooks executed",
                "pages checked in the browser", "page visits reused", "axe audits run", "axe audits reused",
                "widget settings compared"):
        terminalreporter.write_line(f"{key:>28}: {STATS.get(key, 0)}")
