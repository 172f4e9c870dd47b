"""A lesson's runnable code, as the build sees it: each block's code, the output it shows, and its chain.

Not a hook itself: hooks/verification.py (which runs the blocks when the site is built) and
hooks/lesson_notebooks.py (which makes a lesson's notebook) import it. The fences and the
``cont`` chains come from hooks/reader_blocks.py's parser, so the build numbers and chains the
blocks as the page's labels do; ``tests/pagekit.py`` reads the same pages with a parser of its
own, and the tests compare what each of them finds.

A block marked ``<!--pytest-codeblocks:cont-->`` continues the runnable block before it, so a
page's blocks fall into *segments*: runs of blocks each continuing the one before. Running a
segment's blocks in order in one namespace gives every block the state that
tests/page_blocks.py gives it by re-running its chain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from reader_blocks import Fence, parse_fences, runnable_blocks

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "snippets"
SNIPPET_LINE = re.compile(r"^(?P<indent>\s*)-+8<-+\s+\"(?P<name>[^\"]+)\"\s*$")
IMPORTORSKIP = re.compile(r"importorskip\((?P<module>.+)\)")


@dataclass
class Block:
    """One runnable ``python`` block of a page."""

    number: int  # 1-based among the page's runnable blocks (its anchor is #block-N)
    lineno: int  # line of the opening fence, 1-based
    code: str  # dedented, snippet lines expanded
    expected: str | None  # the output the page shows after it, or None when it shows none
    needs: str | None  # a module it needs that a reader may lack (importorskip), else None
    continues: bool  # whether it continues the runnable block before it


def fence_body(lines: list[str], fence: Fence) -> str:
    """The text between a fence's opening and closing lines, without the fence's indentation."""
    width = len(fence.indent)
    body = [line[min(width, len(line) - len(line.lstrip())):] for line in lines[fence.start + 1:fence.end]]
    return "\n".join(body) + "\n" if body else ""


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
    lines = markdown.split("\n")
    fences = parse_fences(lines, where)
    runnable = {block.fence.start: block for block in runnable_blocks(fences, where)}
    blocks: list[Block] = []
    for fence in fences:
        if fence.is_output:
            if not blocks or blocks[-1].expected is not None:
                raise ValueError(f"{where}:{fence.lineno}: an expected-output block with no python block before it")
            blocks[-1].expected = fence_body(lines, fence)
        elif fence.start in runnable:
            needs = next((IMPORTORSKIP.fullmatch(m)["module"].strip("'\" ") for m in fence.markers
                          if IMPORTORSKIP.fullmatch(m)), None)
            blocks.append(Block(runnable[fence.start].number, fence.lineno,
                                expand_snippets(fence_body(lines, fence), f"{where}:{fence.lineno}")[0],
                                None, needs, runnable[fence.start].continues is not None))
    return blocks


def segments(blocks: list[Block]) -> list[list[Block]]:
    """The blocks grouped into runs in which each block continues the one before."""
    groups: list[list[Block]] = []
    for block in blocks:
        if block.continues and groups:
            groups[-1].append(block)
        else:
            groups.append([block])
    return groups
