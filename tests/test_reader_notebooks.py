"""The lab notebooks run as a student runs them: downloaded from the site, in the reader's environment.

Each lab's ``.ipynb`` is fetched from the served site and executed with nbclient by a kernel
of the fresh environment that the "Before you start" line installs (see the ``reader_env``
fixture), in an empty folder, outside the site build (``MLP_SITE_BUILD`` unset). It runs once
as downloaded and once with its settings changed in the first code cell, as a student would
change them; both runs must complete. With the page's settings no statement of the page may
warn; with changed settings the notebook says that the run is not the page's.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

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
        cell.source, count = re.subn(rf"^{name} = [^#\n]*?(\s*#|$)", rf"{name} = {value}\1", cell.source,
                                     flags=re.MULTILINE)
        assert count == 1, f"the first code cell has no single '{name} = ...' line to edit"


def execute(notebook, python, workdir, monkeypatch) -> float:
    """Run every cell with a kernel of ``python``'s environment in ``workdir``; returns the seconds."""
    kernels = workdir.parent / f"{workdir.name}-kernels"
    spec_dir = kernels / "reader"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "reader", "language": "python"}))
    monkeypatch.delenv("MLP_SITE_BUILD", raising=False)  # a student's run, not the site build
    monkeypatch.delenv("MPLBACKEND", raising=False)
    manager = KernelManager(kernel_name="reader", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))
    client = NotebookClient(notebook, km=manager, timeout=900, allow_errors=False,
                            resources={"metadata": {"path": str(workdir)}})
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start


def outputs_text(notebook) -> str:
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.extend(str(value) for value in output.get("data", {}).values())
    return "\n".join(parts)


def download(server: str, lab: str):
    with urllib.request.urlopen(f"{server}/labs/{lab}.ipynb") as response:
        return nbformat.reads(response.read().decode(), as_version=4)


@pytest.mark.parametrize("lab", sorted(EDITS))
def test_downloaded_notebook_runs_as_downloaded(lab, server, reader_env, tmp_path, monkeypatch):
    notebook = download(server, lab)
    assert "Before you start" in "".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    workdir = tmp_path / "student"
    workdir.mkdir()
    seconds = execute(notebook, reader_env, workdir, monkeypatch)
    text = outputs_text(notebook)
    assert CLAIM_WARNING not in text, f"{lab}: a statement of the page warned in a run with its own settings"
    print(f"{lab}: ran as downloaded in {seconds:.0f} s")


@pytest.mark.parametrize("lab", sorted(EDITS))
def test_downloaded_notebook_runs_with_changed_settings(lab, server, reader_env, tmp_path, monkeypatch):
    notebook = download(server, lab)
    edit_settings(notebook, EDITS[lab])
    workdir = tmp_path / "student"
    workdir.mkdir()
    (workdir / "my_words.txt").write_text("\n".join(MY_WORDS) + "\n", encoding="utf-8")
    seconds = execute(notebook, reader_env, workdir, monkeypatch)
    text = outputs_text(notebook)
    # The first code cell's settings reached the run: the reproducing command shows them.
    assert re.search(r"--epochs 3\b" if lab == "digits" else r"--steps 300\b", text), text[:2000]
    if lab == "charlm":
        assert "my_words.txt" in text
    print(f"{lab}: ran with changed settings in {seconds:.0f} s")
