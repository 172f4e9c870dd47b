"""Each lesson's notebook, downloaded from the site and run in a reader's environment, prints what the page shows.

The notebook (made by hooks/lesson_notebooks.py) is fetched from the served site and executed
with nbclient by a kernel of the fresh environment that the "Before you start" line installs
(the ``reader_env`` fixture), in an empty folder, two kernels at a time. Its code cells must be
the page's runnable blocks, in the page's order, as tests/pagekit.py reads them (those that need
an optional module left out), and each cell must print exactly what the page shows after its
block, as tests/page_blocks.py compares them, and nothing else: no warning, no value echoed.

A run's outputs are kept in ``.cache/lesson-notebooks/`` under a key of everything they depend
on: the notebook's text, the reader's environment (its key holds every pin and the SHA-256 of
mlp_ref's wheel), Python and the environment variables the code reads. A later run with the same
key compares the kept outputs with the page (which may have changed) instead of running again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import platform
import urllib.request

import nbformat
import pytest

from tests import pagekit
from tests.test_reader_notebooks import Run, _execute_all, client_for

LESSONS = sorted(page.stem for page in (pagekit.DOCS / "lessons").glob("*.md") if pagekit.blocks(page))
CACHE = pagekit.ROOT / ".cache" / "lesson-notebooks"
ENVIRONMENT = pagekit.load_hook("notebook_cache").ENVIRONMENT  # the variables a cell may read


def run_key(text: str, reader_env) -> str:
    """A digest of everything a lesson notebook's outputs depend on."""
    digest = hashlib.sha256(text.encode())
    digest.update(reader_env.parent.parent.name.encode())  # the reader's environment: its requirements' digest
    digest.update(platform.python_version().encode())  # the Python its venv was made from
    digest.update(json.dumps({name: os.environ.get(name) for name in ENVIRONMENT}, sort_keys=True).encode())
    return digest.hexdigest()[:24]


def cell_outputs(notebook) -> list[dict]:
    """``{"page_line": N, "outputs": [...]}`` for each code cell of an executed notebook."""
    return [{"page_line": cell.metadata["mlp"]["page_line"], "source": cell.source, "outputs": cell.outputs}
            for cell in notebook.cells if cell.cell_type == "code"]


@pytest.fixture(scope="module")
def lesson_runs(server, reader_env, tmp_path_factory) -> dict[str, list[dict]]:
    """Each lesson notebook's code cells with their outputs: run now, or kept from a run with the same key."""
    results, clients, runs, entries = {}, {}, {}, {}
    for lesson in LESSONS:
        with urllib.request.urlopen(f"{server}/lessons/{lesson}.ipynb") as response:
            text = response.read().decode()
        # The site's own address is in the links (its port changes from run to run).
        entries[lesson] = entry = CACHE / f"{lesson}-{run_key(text.replace(server, 'SITE'), reader_env)}.json"
        if entry.is_file():
            results[lesson] = json.loads(entry.read_text(encoding="utf-8"))
            continue
        notebook = nbformat.reads(text, as_version=4)
        clients[lesson] = client_for(notebook, reader_env, tmp_path_factory.mktemp(f"{lesson}-reader"))
        runs[lesson] = Run(notebook)
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("MLP_SITE_BUILD", raising=False)  # a reader's run, not the site build
        patch.delenv("MPLBACKEND", raising=False)
        asyncio.run(_execute_all(clients, runs, parallel=max(1, min(2, os.cpu_count() or 1))))
    for lesson, run in runs.items():
        if run.error is not None:
            results[lesson] = {"error": str(run.error)}
            continue
        results[lesson] = {"cells": cell_outputs(run.notebook), "seconds": run.seconds}
        CACHE.mkdir(parents=True, exist_ok=True)
        for old in CACHE.glob(f"{lesson}-*.json"):
            old.unlink()
        entries[lesson].write_text(json.dumps(results[lesson]), encoding="utf-8")
    return results


def printed(cell: dict) -> str:
    """What a cell printed; anything else it output (stderr, an error, an echoed value) fails the test."""
    others = [output for output in cell["outputs"]
              if not (output["output_type"] == "stream" and output["name"] == "stdout")]
    assert others == [], f"page line {cell['page_line']}: the cell output more than it printed: {others}"
    return "".join(output["text"] for output in cell["outputs"])


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_notebook_prints_what_the_page_shows(lesson, lesson_runs):
    result = lesson_runs[lesson]
    assert "error" not in result, f"{lesson}.ipynb did not run to the end in the reader's environment: {result}"
    blocks = [block for block in pagekit.blocks(pagekit.DOCS / "lessons" / f"{lesson}.md")
              if not any(earlier.importorskip for earlier in block.chain())]
    cells = result["cells"]
    # The notebook's code is the page's code, block for block.
    assert [(cell["page_line"], cell["source"]) for cell in cells] == \
        [(block.fence.lineno, block.code.rstrip("\n")) for block in blocks]
    mismatches = [f"page line {cell['page_line']}:\n--- shown\n{block.expected_output or ''}--- printed\n{printed(cell)}"
                  for cell, block in zip(cells, blocks) if printed(cell) != (block.expected_output or "")]
    assert mismatches == []
