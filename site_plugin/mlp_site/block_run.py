"""The pages' code blocks, run beside the build and judged: the executor's side of the plugin.

:class:`BlockRun` starts block_runner.py (a process of its own, so the pages' code cannot change the
build's state) with every block the build must run, and reads its results as each segment ends,
so that a page is judged (:func:`judge`, once, here) as soon as its last block has run, while the
other pages still render. :func:`blocks_key` is the key a page's results are kept under in the
one cache (cache.py): what the run reads, and nothing else.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from mkdocs.exceptions import PluginError

from . import ROOT
from .page_code import segments
from .render_cache import ENVIRONMENT, PACKAGE, cache_key, code_files

RUNNER = Path(__file__).resolve().parent / "block_runner.py"
RUNNER_DROPS = ("MLP_SITE_BUILD", "MLP_LANG")  # the blocks run as a reader's code: no build marker, English


class BlockRun:
    """block_runner.py running every page's blocks in a process of its own; ``ended(src, pairs)`` is
    called (from a thread of its own) as soon as the last block of page ``src`` has run."""

    def __init__(self, pages: dict[str, list[list]], ended=None):
        self.pages = pages  # src_uri -> segments of page_code.Block
        self.done: dict[str, list[tuple]] = {}  # src_uri -> [(block, result)], in the order the pages ended
        self.process, self.error = None, None
        if not pages:
            return
        self.folder = Path(tempfile.mkdtemp(prefix="mlp-blocks-"))
        payload = [[{"code": block.code, "needs": block.needs, "where": block.fence.where} for block in segment]
                   for groups in pages.values() for segment in groups]
        (self.folder / "in.json").write_text(json.dumps(payload), encoding="utf-8")
        # a reader's run: no build marker, and English (reader code prints the same on either edition)
        env = {key: value for key, value in os.environ.items() if key not in RUNNER_DROPS}
        with open(self.folder / "stderr.txt", "w", encoding="utf-8") as stderr:  # a file: no pipe to drain
            self.process = subprocess.Popen([sys.executable, str(RUNNER), str(self.folder / "in.json")], cwd=ROOT,
                                            env=env, stdout=subprocess.PIPE, stderr=stderr, text=True)
        self.reader = threading.Thread(target=self._read, args=(ended,), name="mlp-blocks", daemon=True)
        self.reader.start()

    def _read(self, ended) -> None:
        """Pair each line of results with its segment; a page whose segments have all come back has ended."""
        left = {src: len(groups) for src, groups in self.pages.items()}
        pairs: dict[str, list[tuple]] = {src: [] for src in self.pages}
        order = [(src, segment) for src, groups in self.pages.items() for segment in groups]
        try:
            for (src, segment), line in zip(order, self.process.stdout):
                pairs[src] += zip(segment, json.loads(line), strict=True)
                left[src] -= 1
                if not left[src]:
                    self.done[src] = pairs[src]
                    if ended is not None:
                        ended(src, pairs[src])
        except BaseException as error:  # said by results(), in the build's own thread
            self.error = error

    def results(self) -> dict[str, list[tuple]]:
        """src_uri -> [(block, result)] once the runner is done."""
        if self.process is None:
            return {}
        self.reader.join(timeout=1800)
        self.process.wait(timeout=60)
        if self.process.returncode != 0 or len(self.done) != len(self.pages):
            stderr = (self.folder / "stderr.txt").read_text(encoding="utf-8", errors="replace")
            raise PluginError(f"block_runner.py failed (exit {self.process.returncode}):\n{stderr[-5000:]}")
        if self.error is not None:
            raise self.error
        return self.done


def judge(block, result: dict) -> tuple[str, str, str]:
    """The verdict on one block's run, decided here once: (verdict, why in words, detail).

    The verdict is "matched", "not run", "raised", "differs" or "wrote to stderr"; the detail is the
    traceback, the diff of the page's output against the printed one, or what went to stderr. The
    tests report it as it is (tests/page_blocks.py)."""
    expected = block.expected or ""
    if result["skipped"]:
        return "not run", result["skipped"], ""
    if result["error"]:
        return "raised", "raised an error", result["error"]
    if result["output"] != expected:
        why = ("printed output differs from the page" if block.expected is not None else
               "prints output but the page shows none (add an expected-output block after it)")
        return "differs", why, "".join(difflib.unified_diff(
            expected.splitlines(True), result["output"].splitlines(True), "shown on the page", "printed by the code"))
    if result["stderr"]:  # a reader's terminal or notebook shows it beside what the page shows
        return "wrote to stderr", "wrote to stderr, which the page does not show", result["stderr"]
    return "matched", "printed exactly what the page shows", ""


def runs_text(blocks: list) -> str:
    """What the block runner runs for a page: each block's code (snippets expanded) and the module
    it needs, in their runs; then the code again as plain lines, from which the key reads the
    modules of mlp_ref it imports. The prose and the shown outputs are not in it."""
    runs = json.dumps([[[block.code, block.needs] for block in segment] for segment in segments(blocks)])
    return runs + "\n" + "\n".join(block.code for block in blocks)


def blocks_key(blocks: list) -> str:
    """The key of a page's block results: an edit of its prose, or of an output the page shows,
    runs nothing again (the outputs are compared with the page on every build all the same).
    The edition is not in it: the runner takes MLP_LANG and MLP_SITE_BUILD away (BlockRun), so a
    Russian twin, whose code is its English page's, has its English page's key."""
    # Whether each optional module is installed decides which blocks run: part of the key.
    installed = {block.needs: importlib.util.find_spec(block.needs) is not None for block in blocks if block.needs}
    return cache_key(runs_text(blocks), {"run": "code blocks", "installed": installed},
                     environment=tuple(name for name in ENVIRONMENT if name not in RUNNER_DROPS), kind="blocks",
                     code=BLOCK_CODE, files=BLOCK_FILES)


# What a run of the blocks reads: the modules of mlp_ref the code imports (followed through their
# imports) and mlp_ref's data files, the runner and the pins. Not the prose, the pages' outputs, the
# other steps of this plugin or mkdocs.yml: an edit of those runs no block again (the snippets the
# blocks embed are in their text already, expanded).
BLOCK_CODE = (PACKAGE,)
BLOCK_FILES = ("requirements.txt", RUNNER.relative_to(ROOT).as_posix())


def block_inputs(text: str) -> list[Path]:
    """The files whose content is part of the key of a run of the blocks in ``text`` (:func:`blocks_key`)."""
    return code_files(text, ROOT, BLOCK_CODE, BLOCK_FILES)
