"""One numbering convention on every page: rows, positions, tokens and experts count from 1.

Lesson 3 numbers the rows of a batch from 1 (row 1 is ``X[0]``), and lesson 9 its positions,
tokens and experts the same way; code indexes from 0 and says ``+ 1`` where it prints a number.
A sentence or a printed output that names "row 0", "position 0", "token 0" or "expert 0" mixes
the two conventions, so it fails here (code itself, where ``X[:, 0]`` is normal, is not read).
"""

from __future__ import annotations

import re

import pytest

from tests import pagekit

ZERO_BASED = re.compile(r"\b(?:rows?|positions?|tokens?|experts?)\s+0\b(?!\.\d)", re.IGNORECASE)


def _prose_and_outputs(page):
    """The page's lines outside code fences, plus the lines of its expected-output blocks."""
    lines = page.read_text(encoding="utf-8").splitlines()
    code_lines = set()
    for fence in pagekit.parse_fences(page):
        if "expected-output" in fence.markers:
            continue
        code_lines.update(range(fence.lineno, fence.lineno + len(fence.code.splitlines()) + 2))
    return [(n, line) for n, line in enumerate(lines, 1) if n not in code_lines]


@pytest.mark.parametrize("page", pagekit.pages(), ids=lambda p: str(p.relative_to(pagekit.DOCS)))
def test_no_zero_based_numbering_in_prose_or_outputs(page):
    hits = [f"{page.relative_to(pagekit.ROOT)}:{n}: {line.strip()}"
            for n, line in _prose_and_outputs(page) if ZERO_BASED.search(line)]
    assert not hits, "numbered from 0 where the site numbers from 1:\n" + "\n".join(hits)
