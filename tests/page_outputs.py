"""Dump what every block of every page prints, to compare machines, BLAS kernels or thread counts.

A maintainer's tool, run by hand, never by the tests:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python -m tests.page_outputs /tmp/t1.txt
    OPENBLAS_NUM_THREADS=2 .venv/bin/python -m tests.page_outputs /tmp/t2.txt
    OPENBLAS_CORETYPE=Sandybridge .venv/bin/python -m tests.page_outputs /tmp/snb.txt  # no FMA
    diff /tmp/t1.txt /tmp/t2.txt

Both kinds of block are run: the reader's ``python`` blocks (as the build runs them:
mlp_site.block_run's runner, continued blocks after the ones they continue) and the build-time
markdown-exec blocks (each session's
blocks in order, in one namespace). A line longer than 400 characters (an inlined SVG figure)
is replaced by its length and SHA-256. The pages must not change while the dumps are made.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import sys
import traceback

from tests import pagekit

from mlp_site import block_run


def _short(text: str) -> str:
    return "".join(line if len(line) < 400 else
                   f"<{len(line)} chars, sha256 {hashlib.sha256(line.encode()).hexdigest()[:16]}>\n"
                   for line in text.splitlines(True))


def dump(out) -> tuple[int, int]:
    """Write every block's output to ``out``; return (reader blocks, build-time blocks) run."""
    n_reader = n_build = 0
    run = block_run.BlockRun({page: pagekit.page_code.segments(pagekit.blocks(page)) for page in pagekit.pages()})
    for pairs in run.results().values():
        for block, result in pairs:
            if result["skipped"]:
                out.write(f"=== {block.fence.where} skipped: {result['skipped']}\n")
                continue
            out.write(f"=== {block.fence.where}\n")
            out.write(_short(result["output"]) + ("ERROR\n" + result["error"] if result["error"] else ""))
            n_reader += 1
    old = os.getcwd()
    os.chdir(pagekit.ROOT)
    try:
        for page in pagekit.pages():
            sessions: dict = {}
            for fence in pagekit.parse_fences(page):
                if not fence.runs_at_build:
                    continue
                session = re.search(r'session="([^"]+)"', fence.info)
                namespace = sessions.setdefault(session[1] if session else id(fence), {"__name__": "__main__"})
                buffer = io.StringIO()
                out.write(f"=== build {fence.where}\n")
                try:
                    with contextlib.redirect_stdout(buffer):
                        exec(compile(fence.code, fence.where, "exec"), namespace)
                    out.write(_short(buffer.getvalue()) + "\n")
                except Exception:
                    out.write("ERROR\n" + traceback.format_exc(limit=1))
                n_build += 1
    finally:
        os.chdir(old)
    return n_reader, n_build


if __name__ == "__main__":
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        reader, build = dump(handle)
    print(f"{reader} reader blocks and {build} build-time blocks written to {sys.argv[1]}")
