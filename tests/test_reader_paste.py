"""Every code block of every page pastes into the plain ``python`` prompt, as a terminal feeds it.

The "Before you start" box sends a reader to a plain ``python``. Its classic prompt (Python 3.11
and 3.12; ``python -i``) reads a pasted block line by line: a blank line ends an indented block,
and a statement at the left margin right after an indented block, with no blank line between
them, is a syntax error. A block that runs as a script can still fail there.

:class:`code.InteractiveConsole` reads lines exactly as that prompt does. Each block (its
``--8<--`` lines expanded, as the site shows it; the build's own parser, mlp_site.page_code)
is pushed into one line by line, then one empty line, as a reader presses Enter at the end.
Nothing runs: the console only compiles each statement as the prompt completes it (the build
runs every block already), so the whole check takes well under a second.
"""

from __future__ import annotations

import code
import sys

import pytest

from tests import pagekit

from mlp_site import page_code

PAGES = [page for page in sorted(pagekit.DOCS.rglob("*.md"))
         if page_code.page_blocks(page.read_text(encoding="utf-8"), str(page))]


class Prompt(code.InteractiveConsole):
    """The classic ``>>>`` prompt, compiling what it is fed and running nothing."""

    def __init__(self):
        super().__init__()
        self.line = 0
        self.errors: list[str] = []

    def runcode(self, compiled):  # the build runs the blocks; here only the prompt's reading matters
        pass

    def showsyntaxerror(self, *args, **kwargs):
        error = sys.exc_info()[1]
        self.errors.append(f"line {self.line}: {type(error).__name__}: {error.msg}")


def paste_errors(source: str) -> list[str]:
    """What the classic prompt rejects when ``source`` is pasted into it, one entry per rejection."""
    prompt = Prompt()
    for prompt.line, text in enumerate(source.splitlines() + [""], start=1):
        prompt.push(text)
    return prompt.errors


def test_the_check_rejects_what_the_prompt_rejects():
    """The two shapes the classic prompt refuses, and their pasteable forms."""
    after_loop = "for i in range(2):\n    x = i\nprint(x)\n"
    assert paste_errors(after_loop) == ["line 3: SyntaxError: invalid syntax"]
    assert paste_errors(after_loop.replace("\nprint", "\n\nprint")) == []
    blank_inside = "def f():\n    a = 1\n\n    return a\n"
    assert paste_errors(blank_inside) == ["line 4: IndentationError: unexpected indent"]
    assert paste_errors(blank_inside.replace("\n\n", "\n")) == []
    assert paste_errors("def f():\n    a = 1\n    # a comment keeps the block open\n    return a\n") == []


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(pagekit.DOCS)) for page in PAGES])
def test_every_block_pastes_into_the_python_prompt(page):
    where = str(page.relative_to(pagekit.DOCS))
    rejected = [f"{where}:{block.lineno} (#block-{block.number}), {error}"
                for block in page_code.page_blocks(page.read_text(encoding="utf-8"), where)
                for error in paste_errors(block.code)]
    assert rejected == [], ("the plain python prompt rejects these lines when the block is pasted: put a "
                            "blank line after an indented block, and none inside one")
