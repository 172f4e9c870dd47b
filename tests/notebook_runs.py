"""Notebooks run as a student runs them, by a kernel of the reader's environment, and kept.

For the runs of the labs' downloaded notebooks (tests/test_reader_notebooks.py; a lesson's notebook
is checked against the build's record instead): a client for a kernel of the reader's environment
(:func:`client_for`), runs side by side (:func:`execute_all`), and completed runs kept
(mlp_site/cache.py) under a key of everything a run depends on (:func:`run_key`, :func:`from_cache`,
:func:`store`).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from mlp_site import render_cache
from nbclient import NotebookClient

from mlp_site import cache
from tests import pagekit

# What a cell reads from the environment, but for the two that a student's run removes.
ENVIRONMENT = tuple(name for name in render_cache.ENVIRONMENT
                    if name not in ("MLP_SITE_BUILD", "MPLBACKEND"))


def client_for(notebook, python, workdir) -> NotebookClient:
    """A client that runs ``notebook`` with a kernel of ``python``'s environment in ``workdir``."""
    kernels = workdir.parent / f"{workdir.name}-kernels"
    spec_dir = kernels / "reader"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "reader", "language": "python"}))
    manager = KernelManager(kernel_name="reader", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))
    return NotebookClient(notebook, km=manager, timeout=900, allow_errors=False,
                          resources={"metadata": {"path": str(workdir)}})


@dataclass
class Run:
    notebook: nbformat.NotebookNode
    seconds: float = 0.0
    error: BaseException | None = None
    cached: bool = False  # the outputs of an earlier run with the same key (see run_key)


async def execute_all(clients: dict, runs: dict, parallel: int) -> None:
    gate = asyncio.Semaphore(parallel)

    async def one(key):
        async with gate:
            start = time.perf_counter()
            try:
                await clients[key].async_execute()
            except Exception as error:  # reported by the test that reads this run
                runs[key].error = error
            runs[key].seconds = time.perf_counter() - start

    await asyncio.gather(*(one(key) for key in clients))


def run_key(notebook, reader_python: Path, workdir: Path) -> str:
    """The key (mlp_site/cache.py) of everything a student's run depends on; the same key gives the same run.

    It covers the code cells (the Markdown cells execute nothing), the reader's environment
    (the requirements it installed, which pin mlp_ref's wheel by SHA-256), the Python, the files
    put beside the notebook, the environment variables a cell reads, and this module (how the notebook is run).
    """
    return cache.key("notebook", [cell.source for cell in notebook.cells if cell.cell_type == "code"],
                     reader_python.parent.parent / ".complete",  # the pins and mlp_ref's wheel by SHA-256
                     *cache.files(sorted(workdir.iterdir()), workdir),
                     {name: os.environ.get(name) for name in ENVIRONMENT}, Path(__file__))


def from_cache(key: str, notebook) -> Run | None:
    """The run kept under ``key``, its outputs put into ``notebook`` (the fresh download)."""
    stored = cache.load("reader", key)
    if stored is None:
        return None
    ran = nbformat.reads(json.dumps(stored["notebook"]), as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for cell, done in zip(code, (c for c in ran.cells if c.cell_type == "code"), strict=True):
        cell.outputs = done.outputs
    return Run(notebook, seconds=stored["seconds"], cached=True)


def store(key: str, run: Run) -> None:
    """Keep a completed run (a failed one is never kept: it runs again next time)."""
    if run.error is None:
        cache.save("reader", key, {"notebook": run.notebook, "seconds": run.seconds})


def run_or_reuse(reader_python: Path, jobs: dict) -> dict:
    """Run each notebook as a student does, or reuse its stored run: {key: Run}.

    ``jobs`` maps a name to ``(notebook, workdir, key)``: the downloaded notebook, its folder
    (with any files beside it already written) and its :func:`run_key`.
    The runs not in the cache run two at a time (one per core), outside the site build, and the
    completed ones are stored; every kernel is shut down afterwards.
    """
    import pytest

    runs, clients = {}, {}
    for key, (notebook, workdir, kept) in jobs.items():
        runs[key] = from_cache(kept, notebook)
        if runs[key] is None:
            clients[key] = client_for(notebook, reader_python, workdir)
            runs[key] = Run(notebook)
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("MLP_SITE_BUILD", raising=False)  # a student's run, not the site build
        patch.delenv("MPLBACKEND", raising=False)
        asyncio.run(execute_all(clients, runs, parallel=max(1, min(2, os.cpu_count() or 1))))
    for key, client in clients.items():
        store(jobs[key][2], runs[key])
        if client.km.is_alive():  # nbclient leaves running a kernel it was given
            client.km.shutdown_kernel(now=True)
    return runs
