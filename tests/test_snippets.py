"""Every file in snippets/ runs on its own as a script, and every one is used by a page."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests import pagekit
from tests.page_blocks import STATS

SNIPPETS = sorted(pagekit.SNIPPETS.glob("*.py"))


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[p.name for p in SNIPPETS])
def test_snippet_runs_as_a_script(snippet):
    result = subprocess.run([sys.executable, str(snippet)], cwd=pagekit.ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, f"{snippet.name} failed:\n{result.stdout}\n{result.stderr}"
    STATS["snippet scripts"] += 1


def test_every_snippet_is_embedded_by_a_page():
    used = set()
    for page in pagekit.pages():
        for fence in pagekit.parse_fences(page):
            used.update(pagekit.expand_snippets(fence.code, str(page))[1])
    unused = sorted(p.name for p in SNIPPETS if p.name not in used)
    assert unused == [], f"snippets no page embeds: {unused}"
