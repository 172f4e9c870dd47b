"""A page's runnable code, as the build and the tests see it: each block's code, the output it shows, its chain.

Not a step itself: verification.py (which runs the blocks when the site is built, the one
run of them), reader_blocks.py (the blocks' labels), lesson_notebooks.py (a lesson's
notebook), the tests and the maintainer's tools (tests/pagekit.py, tests/update_outputs.py,
tests/page_outputs.py) import it. :func:`parse_fences` is the only fence parser, so they all
number and chain the blocks alike.

Markers are HTML comments on a line of their own before a fence, a reader never sees them:
``<!--mlp:expected-output-->`` before the fence that shows what the block before it prints,
``<!--mlp:importorskip(module)-->`` before a block that needs a module a reader may lack, and
``<!--mlp:cont-->`` before a block that continues the runnable block before it. They carry the
project's name, not pytest-codeblocks' (whose ``cont`` merges a block into the one before it):
our runner reads them. A marker under its old name, ``<!--pytest-codeblocks:...-->``, is an
error, never ignored (an ignored expected-output marker would leave a block's output unchecked).

Through ``cont`` a page's blocks fall into *segments*: runs of blocks each continuing the one
before. Running a segment's blocks in order in one namespace (block_runner.py) gives every
block the state the blocks it continues leave.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import ROOT

SNIPPETS = ROOT / "snippets"
SNIPPET_LINE = re.compile(r"^(?P<indent>\s*)-+8<-+\s+\"(?P<name>[^\"]+)\"\s*$")
IMPORTORSKIP = re.compile(r"importorskip\((?P<module>.+)\)")
MARKER = re.compile(r"^<!--\s*mlp:(?P<keyword>.*?)\s*-->$")
OLD_MARKER = re.compile(r"<!--\s*pytest-codeblocks:(?P<keyword>.*?)\s*-->")  # anywhere outside a fence
MARK = re.compile(r"^<!--\s*(?P<mark>pytest\.mark\..*?)\s*-->$")  # a pytest mark for the block's test item
NORUN = re.compile(r"^<!--\s*norun:\s*(?P<reason>.*?)\s*-->$")  # why a Python-looking fence is not run
FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,}|~{3,})(?P<info>.*)$")
RUNS_AT_BUILD = re.compile(r'\bexec\s*=\s*"(on|true|1)"')


@dataclass
class Fence:
    start: int  # index of the opening line, 0-based
    end: int  # index of the closing line
    indent: str
    ticks: str
    info: str
    markers: list[str] = field(default_factory=list)  # the keywords of its <!--mlp:...--> markers
    code: str = ""  # the text between the fence's lines, without the fence's indentation
    source: str = "page"  # the page, for messages
    marks: list[str] = field(default_factory=list)  # pytest.mark.* expressions
    norun: str | None = None  # the reason a "<!-- norun: ... -->" line gives

    @property
    def lineno(self) -> int:
        return self.start + 1

    @property
    def where(self) -> str:
        """``page:line`` for messages."""
        return f"{self.source}:{self.lineno}"

    @property
    def language(self) -> str:
        first = self.info.split(" ", 1)[0] if self.info else ""
        return first.strip("{}.").lower()

    @property
    def is_output(self) -> bool:
        return "expected-output" in self.markers

    @property
    def is_runnable(self) -> bool:
        # A fence whose info string is exactly "python", unless it shows the output of the block before it.
        return self.info.strip() == "python" and not self.is_output

    @property
    def runs_at_build(self) -> bool:
        """Whether markdown-exec runs it while the page is rendered (it then shows no code)."""
        return bool(RUNS_AT_BUILD.search(self.info))


def parse_fences(lines: list[str], where: str = "page") -> list[Fence]:
    """Every fence of a page (indented ones in admonitions and tabs too), with the markers, pytest
    marks and ``norun`` reason that stood before it.

    Raises ValueError, naming ``where:line``, on a marker under its old name (pytest-codeblocks:)
    or with a keyword other than cont, expected-output, importorskip(module).
    """
    fences: list[Fence] = []
    markers: list[str] = []
    marks: list[str] = []
    norun: str | None = None
    index = 0
    while index < len(lines):
        stripped = lines[index].strip()
        opening = FENCE_OPEN.match(lines[index])
        if match := MARKER.match(stripped):
            keyword = match["keyword"].strip()
            # Checked here, on every marker: one misspelt before a non-python fence would be dropped unseen.
            if keyword not in ("cont", "expected-output") and not IMPORTORSKIP.fullmatch(keyword):
                raise ValueError(f"{where}:{index + 1}: unknown marker mlp:{keyword}; expected cont, "
                                 "expected-output or importorskip(module)")
            markers.append(keyword)
        elif match := OLD_MARKER.search(stripped):
            keyword = match["keyword"].strip()
            raise ValueError(f"{where}:{index + 1}: the marker pytest-codeblocks:{keyword} is the old name; "
                             f"write <!--mlp:{keyword}-->")
        elif match := MARK.match(stripped):
            marks.append(match["mark"])
        elif match := NORUN.match(stripped):
            norun = match["reason"]
        elif opening:
            start, ticks = index, opening["ticks"]
            index += 1
            while index < len(lines) and not lines[index].strip().startswith(ticks):
                index += 1
            if index == len(lines):
                raise ValueError(f"{where}:{start + 1}: fence opened and never closed")
            width = len(opening["indent"])
            body = [line[min(width, len(line) - len(line.lstrip())):] for line in lines[start + 1:index]]
            fences.append(Fence(start, index, opening["indent"], ticks, opening["info"].strip(), markers,
                                "\n".join(body) + "\n" if body else "", where, marks, norun))
            markers, marks, norun = [], [], None
        index += 1
    return fences


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

    @property
    def anchor(self) -> str:
        return f"block-{self.number}"

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
    return blocks_of(parse_fences(markdown.split("\n"), where))


def blocks_of(fences: list[Fence]) -> list[Block]:
    """The runnable blocks among a page's ``fences`` (:func:`parse_fences`), each with the output shown after it."""
    blocks: list[Block] = []
    for fence in fences:
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
                        raise ValueError(f"{fence.where}: mlp:cont marker with no "
                                         "python block before it to continue")
                    block.continues = blocks[-1]
                elif match := IMPORTORSKIP.fullmatch(keyword):  # parse_fences allows no other keyword
                    block.needs = match["module"].strip("'\" ")
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
