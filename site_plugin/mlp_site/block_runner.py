"""Run pages' code blocks as a reader's script runs them, and report what each printed.

A script, not a step of the plugin: ``python block_runner.py IN.json``. block_run.py runs it
beside the site build (its own process, so the pages' code cannot change the build's state);
tests/readerkit.py runs a copy with the Python of a reader's fresh environment. Standard
library only, for that reason.

``IN.json`` is a list of segments, each a list of blocks ``{"code": str, "needs": str | null}``
(and ``"where"``, the page and line its traceback names):
a segment's blocks run in order in one fresh namespace (``__name__ == "__main__"``), each one
continuing the state of the one before, with warnings raised as errors, from the current
directory. As each segment ends, one line of JSON on stdout gives its results, one per block:
``{"output": str, "stderr": str, "seconds": float, "error": str | null, "skipped": str | null}``
(a line per segment, at once: the build judges a page as soon as its last segment ran).
(``stderr``: what it wrote there, which a reader's terminal or notebook shows too). A block
whose ``needs`` module is missing, and every later block of its segment, is skipped with the
reason; after a block raises, the rest of its segment is skipped too.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import sys
import time
import traceback
import warnings


def _missing(module: str | None) -> str | None:
    if module and importlib.util.find_spec(module) is None:
        return f"needs {module}, which is not installed"
    return None


def run_segment(segment: list[dict]) -> list[dict]:
    """Run one segment's blocks in a fresh namespace; one result per block."""
    namespace = {"__name__": "__main__"}
    results, stop = [], None
    for index, block in enumerate(segment):
        stop = stop or _missing(block.get("needs"))
        if stop:
            results.append({"output": "", "stderr": "", "seconds": 0.0, "error": None, "skipped": stop})
            continue
        buffer, stderr = io.StringIO(), io.StringIO()
        start = time.perf_counter()
        error, where = None, block.get("where", f"<block {index + 1} of its segment>")
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(stderr):
                warnings.simplefilter("error")
                exec(compile(block["code"], where, "exec"), namespace)
        except Exception as exc:  # the traceback from the block's own line down: this runner's frame is not the reader's
            error = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__.tb_next))
            stop = "an earlier block of its chain raised an error"
        results.append({"output": buffer.getvalue(), "stderr": stderr.getvalue(),
                        "seconds": time.perf_counter() - start, "error": error, "skipped": None})
    return results


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python block_runner.py IN.json  (one line of JSON per segment on stdout)", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as file:
        segments = json.load(file)
    # The results keep file descriptor 1 to themselves: what reaches it from below Python (a child
    # process of a block, C code) goes to stderr instead, so it cannot break a line of results.
    results = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    for segment in segments:
        results.write(json.dumps(run_segment(segment)) + "\n")
        results.flush()
    results.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
