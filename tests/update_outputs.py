"""Rewrite a page's expected-output blocks with what its code prints now.

A maintainer's tool, run by hand after a deliberate change, never by the tests:

    .venv/bin/python -m tests.update_outputs docs/lessons/01-neuron-and-layer.md

Write a new block's output fence empty (an ``expected-output`` marker, then an empty
```` ```text ```` fence) and let this fill it. Review the diff before committing: the build
compares the page with the code, so whatever this writes is what readers will be promised. The
blocks are read and run as the build reads and runs them (mlp_site.page_code's blocks,
mlp_site.block_run's runner: mlp_site.block_runner in a process of its own).
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests import pagekit

from mlp_site import block_run


def updated_lines(page: Path) -> list[str]:
    lines = page.read_text(encoding="utf-8").split("\n")
    blocks = pagekit.blocks(page)
    replacements = []
    for block, result in block_run.BlockRun({"page": pagekit.page_code.segments(blocks)}).results().get("page", []):
        fence = block.output_fence
        if result["error"]:
            raise SystemExit(f"{block.fence.where}: the block raised, so there is no output to write:\n"
                             f"{result['error']}")
        if result["skipped"]:
            print(f"{block.fence.where}: left as it is: {result['skipped']}")
        elif fence is not None:
            replacements.append((fence.start + 1, fence.end,
                                 [fence.indent + line if line else "" for line in result["output"].splitlines()]))
    for start, stop, new in sorted(replacements, reverse=True):
        lines[start:stop] = new
    return lines


def main(paths: list[str]) -> None:
    for path in paths:
        page = Path(path).resolve()
        new = "\n".join(updated_lines(page))
        if new != page.read_text(encoding="utf-8"):
            page.write_text(new, encoding="utf-8")
            print(f"updated {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
