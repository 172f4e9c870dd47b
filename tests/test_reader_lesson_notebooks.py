"""Each lesson's notebook, downloaded from the site and run in a reader's environment, prints what the page shows.

The notebook (made by hooks/lesson_notebooks.py) is fetched from the served site and executed
with nbclient by a kernel of the fresh environment that the "Before you start" line installs
(the ``reader_env`` fixture), in an empty folder, two kernels at a time. Its code cells must be
the page's runnable blocks, in the page's order, as tests/pagekit.py reads them (those that need
an optional module left out), and each cell must print exactly what the page shows after its
block, as tests/page_blocks.py compares them, and nothing else: no warning, no value echoed.

A run is kept, and not repeated, as the labs' runs are (tests/test_reader_notebooks.py: in
``.cache/reader-notebooks/`` under a key of the code cells, the reader's environment, Python and
the environment variables a cell reads); the check then compares its outputs with the page,
which may have changed since. ``MLP_CACHE=0`` runs them all.
"""

from __future__ import annotations

import urllib.request

import nbformat
import pytest

from tests import pagekit
from tests.notebook_runs import CACHE, Run, run_key, run_or_reuse

LESSONS = sorted(page.stem for page in (pagekit.DOCS / "lessons").glob("*.md") if pagekit.blocks(page))


@pytest.fixture(scope="module")
def lesson_runs(server, reader_env, tmp_path_factory) -> dict[str, Run]:
    """Each lesson's notebook, downloaded and run (or its earlier run with the same key)."""
    jobs = {}
    for lesson in LESSONS:
        with urllib.request.urlopen(f"{server}/lessons/{lesson}.ipynb") as response:
            notebook = nbformat.reads(response.read().decode(), as_version=4)
        workdir = tmp_path_factory.mktemp(f"{lesson}-reader")
        jobs[lesson] = (notebook, workdir, CACHE / f"lesson-{lesson}-{run_key(notebook, reader_env, workdir)}.json")
    return run_or_reuse(reader_env, jobs)


def code_cells(run: Run) -> list[dict]:
    """``{"page_line", "source", "outputs"}`` of each code cell of a run."""
    return [{"page_line": cell.metadata["mlp"]["page_line"], "source": cell.source, "outputs": cell.outputs}
            for cell in run.notebook.cells if cell.cell_type == "code"]


def printed(cell: dict) -> str:
    """What a cell printed; anything else it output (stderr, an error, an echoed value) fails the test."""
    others = [output for output in cell["outputs"]
              if not (output["output_type"] == "stream" and output["name"] == "stdout")]
    assert others == [], f"page line {cell['page_line']}: the cell output more than it printed: {others}"
    return "".join(output["text"] for output in cell["outputs"])


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_notebook_prints_what_the_page_shows(lesson, lesson_runs):
    run = lesson_runs[lesson]
    assert run.error is None, f"{lesson}.ipynb did not run to the end in the reader's environment: {run.error}"
    blocks = [block for block in pagekit.blocks(pagekit.DOCS / "lessons" / f"{lesson}.md")
              if not any(earlier.importorskip for earlier in block.chain())]
    cells = code_cells(run)
    # The notebook's code is the page's code, block for block.
    assert [(cell["page_line"], cell["source"]) for cell in cells] == \
        [(block.fence.lineno, block.code.rstrip("\n")) for block in blocks]
    mismatches = [f"page line {cell['page_line']}:\n--- shown\n{block.expected_output or ''}--- printed\n{printed(cell)}"
                  for cell, block in zip(cells, blocks) if printed(cell) != (block.expected_output or "")]
    assert mismatches == []
