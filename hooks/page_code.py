"""A page's runnable code, as the build and the tests see it: each block's code, the output it shows, its chain.

Not a hook itself: hooks/verification.py (which runs the blocks when the site is built, the one
run of them), hooks/lesson_notebooks.py (which makes a lesson's notebook), the tests and the
maintainer's tools (tests/pagekit.py, tests/update_outputs.py, tests/page_outputs.py) import it.
The fences come from hooks/reader_blocks.py's parser, the only one, so everything numbers and
chains the blocks as the page's labels do.

A block marked ``<!--pytest-codeblocks:cont-->`` continues the runnable block before it, so a
page's blocks fall into *segments*: runs of blocks each continuing the one before. Running a
segment's blocks in order in one namespace (hooks/block_runner.py) gives every block the state
the blocks it continues leave.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from reader_blocks import Fence, parse_fences

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
SNIPPET_LINE = re.compile(r"^(?P<indent>\s*)-+8<-+\s+\"(?P<name>[^\"]+)\"\s*$")
IMPORTORSKIP = re.compile(r"importorskip\((?P<module>.+)\)")


@dataclass
class Block:
    """One runnable ``python`` block of a page."""

    number: int  # 1-based among the page's runnable blocks (its anchor is #block-N)
    fence: Fence
    code: str  # dedented, snippet lines expanded
    expected: str | None = None  # the output the page shows after it, or None when it shows none
    needs: str | None = None  # a module it needs that a reader may lack (importorskip), else None
    continues: "Block | None" = None  # the runnable block before it, which it continues
    snippets: list[str] = field(default_factory=list)  # names of the snippet files it embeds
    output_fence: Fence | None = None  # the fence that shows its output

    @property
    def lineno(self) -> int:
        """The line of the opening fence, 1-based."""
        return self.fence.lineno

    def chain(self) -> list["Block"]:
        """Every block whose state this one builds on, oldest first, then itself."""
        blocks, block = [], self
        while block is not None:
            blocks.append(block)
            block = block.continues
        return blocks[::-1]


def expand_snippets(code: str, where: str) -> tuple[str, list[str]]:
    """Each ``--8<-- "name"`` line replaced by the file ``snippets/name``, as pymdownx.snippets does.

    Returns the expanded code and the names of the snippets it embeds (tests/pagekit.py uses it too).
    """
    used, out = [], []
    for line in code.splitlines():
        match = SNIPPET_LINE.match(line)
        if not match:
            out.append(line)
            continue
        path = SNIPPETS / match["name"]
        if not path.is_file():
            raise FileNotFoundError(f"{where}: snippet {match['name']!r} not found in {SNIPPETS}")
        used.append(match["name"])
        out.extend(match["indent"] + text for text in path.read_text(encoding="utf-8").splitlines())
    return "\n".join(out) + "\n", used


def page_blocks(markdown: str, where: str) -> list[Block]:
    """The runnable blocks of a page's Markdown source, each with the output shown after it."""
    blocks: list[Block] = []
    for fence in parse_fences(markdown.split("\n"), where):
        if fence.is_output:
            if not blocks or blocks[-1].output_fence is not None:
                raise ValueError(f"{fence.where}: an expected-output block with no python block before it")
            blocks[-1].expected, blocks[-1].output_fence = fence.code, fence
        elif fence.is_runnable:
            code, used = expand_snippets(fence.code, fence.where)
            block = Block(len(blocks) + 1, fence, code, snippets=used)
            for keyword in fence.markers:
                if keyword == "cont":
                    if not blocks:
                        raise ValueError(f"{fence.where}: pytest-codeblocks:cont marker with no "
                                         "python block before it to continue")
                    block.continues = blocks[-1]
                elif match := IMPORTORSKIP.fullmatch(keyword):
                    block.needs = match["module"].strip("'\" ")
                else:
                    raise ValueError(f"{fence.where}: unknown marker pytest-codeblocks:{keyword}; expected cont, "
                                     "expected-output or importorskip(module)")
            blocks.append(block)
    return blocks


def segments(blocks: list[Block]) -> list[list[Block]]:
    """The blocks grouped into runs in which each block continues the one before."""
    groups: list[list[Block]] = []
    for block in blocks:
        if block.continues is not None and groups:
            groups[-1].append(block)
        else:
            groups.append([block])
    return groups
