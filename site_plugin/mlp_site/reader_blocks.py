"""Make the structure of a page's code visible to a reader who copies it.

Pages mark their code with HTML comments of the project's own (page_code.py), which a reader never sees:
``<!--mlp:cont-->`` before a block that needs the state of the block before
it, ``<!--mlp:expected-output-->`` before the block that shows what the code
prints. This step, working on the Markdown of each page before it is rendered (the files
on disk, which the tests read, are never changed):

* gives every runnable ``python`` block an anchor, ``#block-N`` (N counts the page's
  runnable blocks from 1, in the order the build runs them);
* puts a label above each continued block, "Continues the block above" (or "an earlier
  block" when other code stands between them), linked to the anchor of the block it
  continues: the previous runnable block, the one the build runs it after;
* labels each expected-output block "Output" (real text, so a screen reader says it) and
  gives it the classes ``mlp-output`` (styled in ``stylesheets/extra.css``) and
  ``no-copy`` (Material adds no copy button inside an element with that class).

The labels are said in the language of the edition being built (words.py): "Вывод",
«Продолжение блока выше» on a Russian page.

The fences and blocks are page_code.py's, which the build runs: the labels chain the blocks
as the runs do.
"""

from __future__ import annotations

import re

from .page_code import Block, Fence, blocks_of, parse_fences
from .words import say

OUTPUT_CLASSES = ".no-copy .mlp-output"


def output_label() -> str:
    """The label above an expected-output block."""
    return say("Output", ru="Вывод")


def continues_label(block: Block, next_to_continued: bool) -> str:
    """The label above a continued block: which block it continues (a link to it), and what to run
    first; ``next_to_continued`` when no other code stands between them."""
    link = f"#{block.continues.anchor}"
    if next_to_continued:
        target = say(f"[the block above]({link})", ru=f"[блока выше]({link})")
    else:
        target = say(f"[an earlier block]({link})", ru=f"[одного из блоков выше]({link})")
    if block.continues.continues is None:
        return say(f"Continues {target}: run that one first.", ru=f"Продолжение {target}: сначала выполните его.")
    return say(f"Continues {target}, which continues an earlier one: run them all first.",
               ru=f"Продолжение {target}, который сам продолжает более ранний: сначала выполните их все по порядку.")


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
    blocks = {block.fence.start: block for block in blocks_of(fences)}
    out: list[str] = []
    cursor = 0
    since_last: list[Fence] = []  # code shown on the page since the last runnable block
    for fence in fences:
        before: list[str] = []
        if fence.is_output:
            before = _label(fence.indent, output_label(), "mlp-output-label")
            opening = f"{fence.indent}{fence.ticks}{_output_info(fence, where)}"
        elif fence.start in blocks:
            block = blocks[fence.start]
            if block.continues is not None:
                next_to_continued = all(other.is_output for other in since_last)
                before = _label(fence.indent, continues_label(block, next_to_continued), "mlp-continues")
            opening = f"{fence.indent}{fence.ticks}python {{ #{block.anchor} }}"
        if not fence.runs_at_build:
            since_last = [] if fence.start in blocks else since_last + [fence]
        if not fence.is_output and fence.start not in blocks:
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
