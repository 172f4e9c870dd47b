"""pytest plugin: every ``python`` block of every page runs, and prints what the page shows.

The blocks run in a process of their own, started in the background as soon as the tests are
collected (tests/early.py; ``python -m tests.page_blocks OUT PAGE...``), beside the unit tests:
each block's item reads what its block printed, or the traceback it raised, from that run and
compares it with the page. The process runs nothing but the pages' blocks, in page order, as a
reader's session would.

Each block is one test item. A block marked ``<!--pytest-codeblocks:cont-->`` runs in the state
the blocks it continues left, so state carries between blocks while each block is compared with
its own expected output: when the block it continues was the one run just before it (the usual
order of a run), in that block's namespace; otherwise (a run of selected tests, or after a
failure) it first re-runs them, silently, in a fresh namespace. Blocks run as a reader's
script would: ``__name__ == "__main__"``, warnings raised as errors, working directory the
repository root.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import io
import json
import os
import subprocess
import sys
import tempfile
import traceback
import warnings
from collections import Counter
from pathlib import Path

import pytest

from tests import early, pagekit

STATS: Counter = Counter()


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


def _importable(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def _missing_module_reason(module: str) -> str | None:
    if _importable(module):
        return None
    if os.environ.get("MLP_REQUIRE_OPTIONAL"):
        pytest.fail(f"{module} is required in this run (MLP_REQUIRE_OPTIONAL is set) but cannot be imported")
    return f"optional dependency {module!r} is not installed; CI installs it and runs this block"


class PageBlock(pytest.Item):
    # What tests/early.py reads to start the background run (and to order the items after the
    # tests that need no background work).
    fixturenames = ("page_block_runs",)

    def __init__(self, *, block: pagekit.Block, **kwargs):
        super().__init__(**kwargs)
        self.block = block

    def setup(self):
        self.runs = early.result("page-blocks", self.config)

    def runtest(self):
        for block in self.block.chain():
            if block.importorskip and (reason := _missing_module_reason(block.importorskip)):
                pytest.skip(reason)
        where = self.block.fence.where
        run = self.runs.get(where)
        if run is None or "skipped" in run:
            raise BlockFailure(where, "the background run of the page blocks did not run this block",
                               json.dumps(run))
        if "raised" in run:
            raise BlockFailure(where, "the block raised an exception", run["raised"])
        output = run["output"]
        STATS["code blocks"] += 1
        STATS["snippets embedded"] += len(self.block.snippets)
        expected = self.block.expected_output
        if expected is None:
            if output:
                raise BlockFailure(self.block.fence.where, "the block prints output but the page shows none "
                                   "(add an expected-output block after it)", output)
            return
        if output != expected:
            diff = "".join(difflib.unified_diff(expected.splitlines(True), output.splitlines(True),
                                                "shown on the page", "printed by the code"))
            raise BlockFailure(self.block.fence.where, "printed output differs from the page", diff)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, BlockFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.block.fence.lineno - 1, f"page block {self.name}"


class BlockFailure(Exception):
    def __init__(self, where: str, what: str, detail: str):
        super().__init__(f"{where}: {what}\n{detail}")


# The block that ran last without raising, and the namespace it left. A chain's blocks are items in
# page order, so a block usually continues the one run just before it: re-running the whole chain
# for each block instead made a page's run quadratic in its chain's length.
_last: dict = {"block": None, "namespace": None}


def run_block(block: pagekit.Block) -> str:
    """What ``block`` prints, run in the state the blocks it continues leave.

    That state is the namespace the last block run left if ``block`` continues it, else a fresh
    one in which the blocks it continues run first, silently."""
    if block.continues is not None and _last["block"] is block.continues:
        namespace = _last["namespace"]
    else:
        namespace = {"__name__": "__main__"}
        for earlier in block.chain()[:-1]:
            _run(earlier, namespace)
    _last["block"] = None  # a block that raises leaves a namespace half run
    output = _run(block, namespace)
    _last.update(block=block, namespace=namespace)
    return output


def _run(block: pagekit.Block, namespace: dict) -> str:
    code = compile(block.code, block.fence.where, "exec")
    buffer = io.StringIO()
    old_cwd = os.getcwd()
    os.chdir(pagekit.ROOT)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(buffer):
            warnings.simplefilter("error")
            exec(code, namespace)
    finally:
        os.chdir(old_cwd)
    return buffer.getvalue()


def run_pages(pages: list[Path]) -> dict[str, dict]:
    """Run every block of ``pages``, in page order, as the test items run them.

    Returns ``{block's "page:line": result}``, the result ``{"output": what it printed}``,
    ``{"raised": the traceback}`` or ``{"skipped": why}`` (a block needing a module that is
    not installed, or continuing one that does)."""
    results: dict[str, dict] = {}
    for page in pages:
        for block in pagekit.blocks(page):
            missing = [b.importorskip for b in block.chain() if b.importorskip and not _importable(b.importorskip)]
            if missing:
                results[block.fence.where] = {"skipped": f"not installed: {', '.join(missing)}"}
                continue
            try:
                results[block.fence.where] = {"output": run_block(block)}
            except KeyboardInterrupt:
                raise
            except BaseException:  # SystemExit too: a block that exits has failed
                results[block.fence.where] = {"raised": traceback.format_exc()}
    return results


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected
def pytest_collection_modifyitems(config, items):
    """Keep the pages of the selected blocks: the background run runs those pages only."""
    config.stash[_PAGES] = sorted({item.path for item in items if isinstance(item, PageBlock)})


_PAGES = pytest.StashKey[list]()


def _run_in_background(config: pytest.Config) -> dict[str, dict]:
    """:func:`run_pages` of the selected blocks' pages, in a process of its own (tests/early.py)."""
    folder = Path(tempfile.mkdtemp(prefix="page-blocks-", dir=config._tmp_path_factory.getbasetemp()))
    out = folder / "runs.json"
    pages = [str(page) for page in config.stash.get(_PAGES, [])]
    # At a lower priority than the site build beside it, which the tests wait for first (FINISH_ORDER).
    result = subprocess.run([sys.executable, "-m", "tests.page_blocks", str(out), *pages],
                            cwd=pagekit.ROOT, capture_output=True, text=True, timeout=1800,
                            preexec_fn=(lambda: os.nice(5)) if hasattr(os, "nice") else None)
    if result.returncode != 0:
        pytest.fail(f"the run of the page blocks failed (exit {result.returncode}):\n{result.stderr[-8000:]}",
                    pytrace=False)
    return json.loads(out.read_text(encoding="utf-8"))


early.register("page-blocks", fixture="page_block_runs", stage="page blocks", work=_run_in_background)


def main(argv: list[str]) -> int:
    """``python -m tests.page_blocks OUT PAGE...``: :func:`run_pages` of the PAGEs, written to OUT as JSON."""
    out, pages = Path(argv[0]), [Path(page) for page in argv[1:]]
    out.write_text(json.dumps(run_pages(pages)), encoding="utf-8")
    return 0


def pytest_terminal_summary(terminalreporter):
    if not STATS:
        return
    terminalreporter.section("what the pages made us run")
    for key in ("pages with code", "code blocks", "snippets embedded", "snippet scripts",
                "pages built", "figures generated", "tables generated", "notebooks executed",
                "pages checked in the browser", "page visits reused", "axe audits run", "axe audits reused",
                "widget settings compared"):
        terminalreporter.write_line(f"{key:>28}: {STATS.get(key, 0)}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
