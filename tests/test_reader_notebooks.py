"""The lab notebooks run as a student runs them: downloaded from the site, in the reader's environment.

Each lab's ``.ipynb`` is fetched from the served site and executed with nbclient by a kernel
of the fresh environment that the "Before you start" line installs (see the ``reader_env``
fixture), in an empty folder, outside the site build (``MLP_SITE_BUILD`` unset). It runs once
as downloaded and once with its settings changed in the first code cell, as a student would
change them; both runs must complete. With the page's settings no statement of the page may
warn; with changed settings the notebook says that the run is not the page's.

A run is not repeated when an earlier one completed with the same key (:func:`run_key`: the
code cells, the reader's environment, which pins mlp_ref's wheel by SHA-256, the files beside
the notebook, the environment variables a cell reads): the checks then read that run's
outputs (mlp_site/cache.py).
"""

from __future__ import annotations

import re
import urllib.request

import nbformat
import pytest

from tests.notebook_runs import Run, run_key, run_or_reuse

CLAIM_WARNING = "ClaimWarning"
# (lab, {setting: new value}) for the edited run: a shorter run, as a student might try first.
EDITS = {
    "digits": {"EPOCHS": "3", "SEEDS": "2", "STUDY": "[[64, 32, 10], [64, 32, 16, 10]]"},
    "charlm": {"STEPS": "300", "SEEDS": "2", "WORDS_FILE": "'my_words.txt'"},
}
# A student's own word list for Lab B's edited run (WORDS_FILE): 192 made-up words.
SYLLABLES = ["ka", "lo", "mi", "ra", "ne", "to", "su", "vi"]
MY_WORDS = [a + b for a in SYLLABLES for b in SYLLABLES] + [a + b + "n" for a in SYLLABLES for b in SYLLABLES] \
    + [a + "l" + b for a in SYLLABLES for b in SYLLABLES]


def first_code_cell(notebook) -> nbformat.NotebookNode:
    return next(cell for cell in notebook.cells if cell.cell_type == "code")


def edit_settings(notebook, edits: dict[str, str]) -> None:
    """Change ``NAME = value`` lines of the first code cell, as a student edits them."""
    cell = first_code_cell(notebook)
    for name, value in edits.items():
        # the value may go on over indented lines (a long list); a comment after it stays
        cell.source, count = re.subn(rf"^{name} = [^#\n]*?(?:\n[ \t]+[^#\n]*?)*(\s*#|$)", rf"{name} = {value}\1",
                                     cell.source, flags=re.MULTILINE)
        assert count == 1, f"the first code cell has no single '{name} = ...' line to edit"


@pytest.fixture(scope="module")
def student_runs(server, reader_env, tmp_path_factory):
    """Each lab downloaded and run as it is, and run with its settings edited: {(lab, kind): Run}.

    The four runs are separate kernels, so they run two at a time (one per core of this machine).
    A run whose key (:func:`run_key`) matches a completed run kept in the cache is not
    repeated: it would execute the same code in the same environment.
    """
    jobs = {}
    for lab in sorted(EDITS):
        for kind in ("as downloaded", "edited"):
            notebook = download(server, lab)
            workdir = tmp_path_factory.mktemp(f"{lab}-student")
            if kind == "edited":
                edit_settings(notebook, EDITS[lab])
                (workdir / "my_words.txt").write_text("\n".join(MY_WORDS) + "\n", encoding="utf-8")
            jobs[lab, kind] = (notebook, workdir, run_key(notebook, reader_env, workdir))
    return run_or_reuse(reader_env, jobs)


def finished(run: Run, what: str) -> str:
    """The outputs of a run that completed (else the test fails with the cell's error)."""
    if run.error is not None:
        pytest.fail(f"{what} did not complete: {run.error}", pytrace=False)
    return outputs_text(run.notebook)


def outputs_text(notebook) -> str:
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.extend(str(value) for value in output.get("data", {}).values())
    return "\n".join(parts)


def download(server: str, lab: str, language: str = "en"):
    """The lab's notebook as the page of ``language`` offers it (``ru/labs/<lab>.ru.ipynb`` in Russian)."""
    url = f"{server}/labs/{lab}.ipynb" if language == "en" else f"{server}/{language}/labs/{lab}.{language}.ipynb"
    with urllib.request.urlopen(url) as response:
        return nbformat.reads(response.read().decode(), as_version=4)


# A last cell for the Russian notebook's first cells: what the notebook's own words are now.
PROBE = "from mlp_ref.course.i18n import say\nprint(say('the notebook speaks English', ru='ноутбук говорит по-русски'))"


@pytest.fixture(scope="module")
def russian_first_cells(server, reader_env, tmp_path_factory):
    """Each Russian lab, downloaded from its Russian page, its first two code cells (the settings,
    then the imports and ``begin``) and :data:`PROBE` run as a student runs them: nothing set from
    outside, no ``MLP_LANG``. {lab: Run}."""
    jobs = {}
    for lab in sorted(EDITS):
        notebook = download(server, lab, "ru")
        code = [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
        notebook.cells = notebook.cells[:code[1] + 1] + [nbformat.v4.new_code_cell(PROBE)]
        workdir = tmp_path_factory.mktemp(f"{lab}-ru-student")
        jobs[lab] = (notebook, workdir, run_key(notebook, reader_env, workdir))
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("MLP_LANG", raising=False)  # a reader's machine: the notebook alone decides
        return run_or_reuse(reader_env, jobs)


@pytest.mark.parametrize("lab", sorted(EDITS))
def test_the_russian_notebook_as_downloaded_speaks_russian(lab, russian_first_cells):
    """Issue 28: the downloaded Russian notebook printed English tables unless MLP_LANG=ru was set."""
    run = russian_first_cells[lab]
    assert 'LANGUAGE = "ru"' in first_code_cell(run.notebook).source
    text = finished(run, f"{lab}, Russian, first cells,")
    assert "тот же запуск из командной строки:" in text and "ноутбук говорит по-русски" in text, text[:2000]


@pytest.mark.parametrize("lab", sorted(EDITS))
def test_downloaded_notebook_runs_as_downloaded(lab, student_runs):
    run = student_runs[lab, "as downloaded"]
    assert "Before you start" in "".join(c.source for c in run.notebook.cells if c.cell_type == "markdown")
    text = finished(run, f"{lab}, as downloaded,")
    assert CLAIM_WARNING not in text, f"{lab}: a statement of the page warned in a run with its own settings"
    print(f"{lab}: ran as downloaded in {run.seconds:.0f} s" + (" (an earlier run with the same key)" if run.cached else ""))


@pytest.mark.parametrize("lab", sorted(EDITS))
def test_downloaded_notebook_runs_with_changed_settings(lab, student_runs):
    run = student_runs[lab, "edited"]
    text = finished(run, f"{lab}, with changed settings,")
    # The first code cell's settings reached the run: the reproducing command shows them.
    assert re.search(r"--epochs 3\b" if lab == "digits" else r"--steps 300\b", text), text[:2000]
    if lab == "charlm":
        assert "my_words.txt" in text
    print(f"{lab}: ran with changed settings in {run.seconds:.0f} s" + (" (an earlier run with the same key)" if run.cached else ""))


def test_the_run_key_changes_with_everything_a_run_depends_on(tmp_path, monkeypatch):
    """Same code, environment and files: same key; any one of them changed: a new key."""
    def reader_env(installed):
        home = tmp_path / "reader-env" / installed
        home.mkdir(parents=True)
        (home / ".complete").write_text(f"numpy==2.3.4\nmlp_ref[labs] @ SITE/downloads/mlp_ref.whl#sha256={installed}\n")
        return home / "bin" / "python"

    env = reader_env("abc")
    work = tmp_path / "work"
    work.mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Lab"),
                                               nbformat.v4.new_code_cell("EPOCHS = 25")])
    key = run_key(notebook, env, work)
    notebook.cells[0].source = "# Lab, reworded"  # prose executes nothing
    assert run_key(notebook, env, work) == key
    changed_code = nbformat.from_dict(notebook)
    changed_code.cells[1].source = "EPOCHS = 3"
    other_env = reader_env("abd")  # another mlp_ref wheel
    assert len({key, run_key(changed_code, env, work), run_key(notebook, other_env, work)}) == 3
    (work / "my_words.txt").write_text("kalo\n", encoding="utf-8")
    with_file = run_key(notebook, env, work)
    (work / "my_words.txt").write_text("kalon\n", encoding="utf-8")
    assert len({key, with_file, run_key(notebook, env, work)}) == 3
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "7")
    assert run_key(notebook, env, work) not in {key, with_file}
