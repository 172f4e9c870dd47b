"""Make the structure of a page's code visible to a reader who copies it.

Pages mark their code with pytest-codeblocks' HTML comments, which a reader never sees:
``<!--pytest-codeblocks:cont-->`` before a block that needs the state of the block before
it, ``<!--pytest-codeblocks:expected-output-->`` before the block that shows what the code
prints. This hook, working on the Markdown of each page before it is rendered (the files
on disk, which the tests read, are never changed):

* gives every runnable ``python`` block an anchor, ``#block-N`` (N counts the page's
  runnable blocks from 1, in the order the tests run them);
* puts a label above each continued block, "Continues the block above" (or "an earlier
  block" when other code stands between them), linked to the anchor of the block it
  continues: the previous runnable block, the same one ``tests/pagekit.py`` chains it to;
* labels each expected-output block "Output" (real text, so a screen reader says it) and
  gives it the classes ``mlp-output`` (styled in ``stylesheets/extra.css``) and
  ``no-copy`` (Material adds no copy button inside an element with that class).

The labels are said in the language of the edition being built (hooks/words.py): "Вывод",
«Продолжение блока выше» on a Russian page.

The fence parser here (:func:`parse_fences`) is the only one: hooks/page_code.py builds a page's
runnable blocks on it, and the tests and tools read the pages through it (tests/pagekit.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from words import say

MARKER = re.compile(r"^<!--\s*pytest-codeblocks:(?P<keyword>.*?)\s*-->$")
MARK = re.compile(r"^<!--\s*(?P<mark>pytest\.mark\..*?)\s*-->$")  # a pytest mark for the block's test item
NORUN = re.compile(r"^<!--\s*norun:\s*(?P<reason>.*?)\s*-->$")  # why a Python-looking fence is not run
FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,}|~{3,})(?P<info>.*)$")
RUNS_AT_BUILD = re.compile(r'\bexec\s*=\s*"(on|true|1)"')

OUTPUT_CLASSES = ".no-copy .mlp-output"


def output_label() -> str:
    """The label above an expected-output block."""
    return say("Output", ru="Вывод")


def continues_label(block: "RunnableBlock") -> str:
    """The label above a continued block: which block it continues (a link to it), and what to run first."""
    link = f"#{block.continues.anchor}"
    if block.next_to_continued:
        target = say(f"[the block above]({link})", ru=f"[блока выше]({link})")
    else:
        target = say(f"[an earlier block]({link})", ru=f"[одного из блоков выше]({link})")
    if block.continues.continues is None:
        return say(f"Continues {target}: run that one first.", ru=f"Продолжение {target}: сначала выполните его.")
    return say(f"Continues {target}, which continues an earlier one: run them all first.",
               ru=f"Продолжение {target}, который сам продолжает более ранний: сначала выполните их все по порядку.")


@dataclass
class Fence:
    start: int  # index of the opening line, 0-based
    end: int  # index of the closing line
    indent: str
    ticks: str
    info: str
    markers: list[str] = field(default_factory=list)  # pytest-codeblocks keywords
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
        # tests/pagekit.py runs a fence whose info string is exactly "python", unless it
        # shows the output of the block before it.
        return self.info.strip() == "python" and not self.is_output

    @property
    def runs_at_build(self) -> bool:
        """Whether markdown-exec runs it while the page is rendered (it then shows no code)."""
        return bool(RUNS_AT_BUILD.search(self.info))


@dataclass
class RunnableBlock:
    number: int  # 1-based among the page's runnable blocks
    fence: Fence
    continues: "RunnableBlock | None" = None
    next_to_continued: bool = False  # no other code block between it and the block it continues

    @property
    def anchor(self) -> str:
        return f"block-{self.number}"


def parse_fences(lines: list[str], where: str = "page") -> list[Fence]:
    """Every fence of a page (indented ones in admonitions and tabs too), with the markers, pytest
    marks and ``norun`` reason that stood before it."""
    fences: list[Fence] = []
    markers: list[str] = []
    marks: list[str] = []
    norun: str | None = None
    index = 0
    while index < len(lines):
        stripped = lines[index].strip()
        opening = FENCE_OPEN.match(lines[index])
        if match := MARKER.match(stripped):
            markers.append(match["keyword"].strip())
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


def runnable_blocks(fences: list[Fence], where: str = "page") -> list[RunnableBlock]:
    """The runnable blocks, each linked to the block it continues (as tests/pagekit.py does)."""
    blocks: list[RunnableBlock] = []
    since_last: list[Fence] = []  # code shown on the page since the last runnable block
    for fence in fences:
        if not fence.is_runnable:
            if not fence.runs_at_build:
                since_last.append(fence)
            continue
        block = RunnableBlock(len(blocks) + 1, fence)
        if "cont" in fence.markers:
            if not blocks:
                raise ValueError(f"{where}:{fence.lineno}: pytest-codeblocks:cont marker with no "
                                 "python block before it to continue")
            block.continues = blocks[-1]
            block.next_to_continued = all(other.is_output for other in since_last)
        blocks.append(block)
        since_last = []
    return blocks


def _output_info(fence: Fence, where: str) -> str:
    info = fence.info
    if re.fullmatch(r"[\w+-]*", info):
        return f"{{ .{info or 'text'} {OUTPUT_CLASSES} }}"
    if info.startswith("{") and info.endswith("}"):
        first = re.match(r"\{\s*\.[\w+-]+", info)
        if first:
            return f"{first[0]} {OUTPUT_CLASSES}{info[first.end():]}"
    raise ValueError(f"{where}:{fence.lineno}: an expected-output block needs a plain info string "
                     f"such as 'text' (or '{{ .text ... }}') so that it can be labelled; got {info!r}")


def _label(indent: str, text: str, css_class: str) -> list[str]:
    """A paragraph of its own (attr_list gives it the class), then a blank line."""
    return [f"{indent}{text}", f"{indent}{{ .{css_class} }}", ""]


def decorate(markdown: str, where: str = "page") -> str:
    """The page's Markdown with anchors, continuation labels and output labels added."""
    lines = markdown.split("\n")
    fences = parse_fences(lines, where)
    blocks = {block.fence.start: block for block in runnable_blocks(fences, where)}
    out: list[str] = []
    cursor = 0
    for fence in fences:
        before: list[str] = []
        if fence.is_output:
            before = _label(fence.indent, output_label(), "mlp-output-label")
            opening = f"{fence.indent}{fence.ticks}{_output_info(fence, where)}"
        elif fence.start in blocks:
            block = blocks[fence.start]
            if block.continues is not None:
                before = _label(fence.indent, continues_label(block), "mlp-continues")
            opening = f"{fence.indent}{fence.ticks}python {{ #{block.anchor} }}"
        else:
            continue
        out.extend(lines[cursor:fence.start])
        if out and out[-1].strip() and before:
            out.append("")
        out.extend(before)
        out.append(opening)
        cursor = fence.start + 1
    out.extend(lines[cursor:])
    return "\n".join(out)


def on_page_markdown(markdown: str, page, config, files) -> str:
    if not page.file.src_uri.endswith(".md"):
        return markdown
    return decorate(markdown, page.file.src_uri)


# A code block's id is written by pymdownx.superfences into HTML that MkDocs' anchor check
# never parses, so a "Continues" link to it would be reported as broken. Tell the check
# about the anchors the rendered page really holds (a missing one stays an error).
RENDERED_ANCHOR = re.compile(r'<div id="(?P<id>block-\d+)" class="[^"]*\bhighlight\b')


def on_page_content(html: str, page, config, files) -> str:
    if page.present_anchor_ids is not None:
        page.present_anchor_ids |= {match["id"] for match in RENDERED_ANCHOR.finditer(html)}
    return html
