"""Notebooks run as a student runs them, by a kernel of the reader's environment, and kept.

Shared by the tests that run the labs' and the lessons' downloaded notebooks: a client for a
kernel of the reader's environment (:func:`client_for`), runs side by side
(:func:`execute_all`), and a cache of completed runs under a key of everything a run depends
on (:func:`run_key`, :func:`from_cache`, :func:`store`). ``MLP_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from mlp_site import render_cache
from nbclient import NotebookClient

from tests import pagekit

BUILD_CACHE = render_cache
CACHE_SWITCH = BUILD_CACHE.SWITCH  # one switch for the site build's pages and the students' runs
# What a cell reads from the environment, but for the two that a student's run removes.
ENVIRONMENT = tuple(name for name in BUILD_CACHE.ENVIRONMENT if name not in ("MLP_SITE_BUILD", "MPLBACKEND"))


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


CACHE = pagekit.ROOT / ".cache" / "reader-notebooks"


def run_key(notebook, reader_python: Path, workdir: Path) -> str:
    """A digest of everything a student's run depends on; the same key gives the same run.

    It covers the code cells (the Markdown cells execute nothing), the reader's environment
    (the requirements it installed, which pin mlp_ref's wheel by SHA-256), the Python, the files
    put beside the notebook, the environment variables a cell reads, and this module (how the notebook is run).
    """
    digest = hashlib.sha256()
    for cell in notebook.cells:
        if cell.cell_type == "code":
            digest.update(cell.source.encode() + b"\0")
    # The requirements the environment last installed: the pins and mlp_ref's wheel by SHA-256.
    digest.update((reader_python.parent.parent / ".complete").read_bytes() + platform.python_version().encode())
    for path in sorted(workdir.iterdir()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(json.dumps({name: os.environ.get(name) for name in ENVIRONMENT}, sort_keys=True).encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:24]


def from_cache(entry: Path, notebook) -> Run | None:
    """The run stored in ``entry``, its outputs put into ``notebook`` (the fresh download)."""
    if os.environ.get(CACHE_SWITCH, "1") == "0" or not entry.is_file():
        return None
    stored = json.loads(entry.read_text(encoding="utf-8"))
    ran = nbformat.reads(json.dumps(stored["notebook"]), as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for cell, done in zip(code, (c for c in ran.cells if c.cell_type == "code"), strict=True):
        cell.outputs = done.outputs
    return Run(notebook, seconds=stored["seconds"], cached=True)


def store(entry: Path, run: Run) -> None:
    """Keep a completed run (a failed one is never kept: it runs again next time)."""
    if run.error is None and os.environ.get(CACHE_SWITCH, "1") != "0":
        for old in entry.parent.glob(entry.name.rsplit("-", 1)[0] + "-*.json"):  # this run's old keys
            old.unlink()
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_text(json.dumps({"notebook": run.notebook, "seconds": run.seconds}), encoding="utf-8")


def run_or_reuse(reader_python: Path, jobs: dict) -> dict:
    """Run each notebook as a student does, or reuse its stored run: {key: Run}.

    ``jobs`` maps a key to ``(notebook, workdir, entry)``: the downloaded notebook, its folder
    (with any files beside it already written) and its cache entry (named with :func:`run_key`).
    The runs not in the cache run two at a time (one per core), outside the site build, and the
    completed ones are stored; every kernel is shut down afterwards.
    """
    import pytest

    runs, clients = {}, {}
    for key, (notebook, workdir, entry) in jobs.items():
        runs[key] = from_cache(entry, notebook)
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
