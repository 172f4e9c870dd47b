"""Rewrite a page's expected-output blocks with what its code prints now.

A maintainer's tool, run by hand after a deliberate change, never by the tests:

    .venv/bin/python -m tests.update_outputs docs/lessons/01-neuron-and-layer.md

Write a new block's output fence empty (an ``expected-output`` marker, then an empty
```` ```text ```` fence) and let this fill it. Review the diff before committing: the tests
compare the page with the code, so whatever this writes is what readers will be promised.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests import pagekit
from tests.page_blocks import run_block


def updated_lines(page: Path) -> list[str]:
    lines = page.read_text(encoding="utf-8").splitlines()
    replacements = []
    for block in pagekit.blocks(page):
        if block.expected_fence is None:
            continue
        output = run_block(block)
        fence = block.expected_fence
        first = fence.lineno  # 0-based index of the first line inside the fence
        count = len(fence.code.splitlines())
        indent = " " * fence.indent
        replacements.append((first, first + count, [indent + line if line else "" for line in output.splitlines()]))
    for start, stop, new in sorted(replacements, reverse=True):
        lines[start:stop] = new
    return lines


def main(paths: list[str]) -> None:
    for path in paths:
        page = Path(path).resolve()
        new = "\n".join(updated_lines(page)) + "\n"
        if new != page.read_text(encoding="utf-8"):
            page.write_text(new, encoding="utf-8")
            print(f"updated {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
