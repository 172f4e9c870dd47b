"""pytest plugin: every ``python`` block of every page runs, and prints what the page shows.

Each block is one test item. A block marked ``<!--pytest-codeblocks:cont-->`` first re-runs,
silently, the blocks it continues, in a fresh namespace, so state carries between blocks
while each block is compared with its own expected output. Blocks run as a reader's
script would: ``__name__ == "__main__"``, warnings raised as errors, working directory the
repository root.
"""

from __future__ import annotations

import contextlib
import difflib
import importlib
import io
import os
import sys
import warnings
from collections import Counter

import pytest

from tests import pagekit

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


def _missing_module_reason(module: str) -> str | None:
    try:
        importlib.import_module(module)
    except ImportError:
        if os.environ.get("MLP_REQUIRE_OPTIONAL"):
            pytest.fail(f"{module} is required in this run (MLP_REQUIRE_OPTIONAL is set) but cannot be imported")
        return f"optional dependency {module!r} is not installed; CI installs it and runs this block"
    return None


class PageBlock(pytest.Item):
    def __init__(self, *, block: pagekit.Block, **kwargs):
        super().__init__(**kwargs)
        self.block = block

    def runtest(self):
        for block in self.block.chain():
            if block.importorskip and (reason := _missing_module_reason(block.importorskip)):
                pytest.skip(reason)
        output = run_block(self.block)
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


def run_block(block: pagekit.Block) -> str:
    """What ``block`` prints, after silently running the blocks it continues (fresh namespace)."""
    namespace = {"__name__": "__main__"}
    chain = block.chain()
    for earlier in chain[:-1]:
        _run(earlier, namespace)
    return _run(block, namespace)


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


def pytest_terminal_summary(terminalreporter):
    if not STATS:
        return
    terminalreporter.section("what the pages made us run")
    for key in ("pages with code", "code blocks", "snippets embedded", "snippet scripts",
                "pages built", "figures generated", "tables generated", "notebooks executed",
                "pages checked in the browser", "axe audits run", "axe audits reused",
                "widget settings compared"):
        terminalreporter.write_line(f"{key:>28}: {STATS.get(key, 0)}")
