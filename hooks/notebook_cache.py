"""Executed lab notebooks, cached under a key that covers everything their output depends on.

mkdocs-jupyter's own cache is keyed on the notebook alone, so it would hand back the output
of old code after ``mlp_ref`` changed; it stays off. This hook wraps the page's render (which
mkdocs-jupyter replaced in its ``on_pre_page``; hooks run after plugins) and keys the rendered
page on:

- the notebook's source;
- every file of ``mlp_ref`` (the code the cells import);
- ``requirements.txt`` (the versions of NumPy, scikit-learn, the census names, ...) and the
  Python version;
- the mkdocs-jupyter settings, and the environment variables a cell reads
  (:data:`ENVIRONMENT`).

A change to any of them gives a new key, so the notebook is executed again; nothing else
does. The cache lives in ``.cache/notebooks/`` (one entry per page: a new entry replaces
the page's old one). ``MLP_NOTEBOOK_CACHE=0`` turns it off; a fresh clone (CI) has none.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from pathlib import Path

from lab_files import is_lab
from mkdocs.structure.toc import get_toc

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "notebooks"
SWITCH = "MLP_NOTEBOOK_CACHE"
# Environment variables that a lab cell reads or that change what it prints.
ENVIRONMENT = ("MLP_SITE_BUILD", "MNIST_DIR", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MPLBACKEND")


def dependencies(notebook: Path, root: Path = ROOT) -> list[Path]:
    """The files whose content the executed notebook depends on (besides the environment)."""
    package = sorted(p for p in (root / "mlp_ref").rglob("*.py") if "__pycache__" not in p.parts)
    return [notebook, *package, root / "requirements.txt"]


def cache_key(notebook: Path, settings: dict, root: Path = ROOT) -> str:
    """A digest of everything the executed ``notebook`` depends on (see the module doc)."""
    digest = hashlib.sha256()
    for path in dependencies(notebook, root):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(platform.python_version().encode())
    digest.update(json.dumps(settings, sort_keys=True, default=str).encode())
    digest.update(json.dumps({name: os.environ.get(name) for name in ENVIRONMENT}, sort_keys=True).encode())
    return digest.hexdigest()[:24]


def _toc_tokens(toc) -> list[dict]:
    return [{"level": link.level, "id": link.id, "name": link.title, "children": _toc_tokens(link.children)}
            for link in toc]


def _enabled() -> bool:
    return os.environ.get(SWITCH, "1") != "0"


def on_pre_page(page, config, files):
    """Wrap a lab's render: from the cache when its key matches, else executed and stored.

    Either way the page gets ``notebook_seconds``, how long executing the notebook took (in
    the run that made a cached entry), which hooks/reader_downloads.py states on the page.
    """
    if not is_lab(page.file.src_uri):
        return page
    jupyter = config.plugins.get("mkdocs-jupyter")
    settings = dict(jupyter.config) if jupyter is not None else {}
    source = Path(page.file.abs_src_path)
    entry = CACHE / f"{page.file.src_uri.replace('/', '_')}-{cache_key(source, settings)}.json"
    execute = page.render  # mkdocs-jupyter's render: converts and executes the notebook

    def render(config, files):
        if _enabled() and entry.is_file():
            cached = json.loads(entry.read_text(encoding="utf-8"))
            page.content, page.title = cached["content"], cached["title"]
            page.toc = get_toc(cached["toc"])
            page.notebook_seconds = cached["seconds"]  # how long the run that made it took
            return
        start = time.perf_counter()
        execute(config, files)
        page.notebook_seconds = time.perf_counter() - start
        if not _enabled():
            return
        CACHE.mkdir(parents=True, exist_ok=True)
        for old in CACHE.glob(f"{page.file.src_uri.replace('/', '_')}-*.json"):
            old.unlink()
        entry.write_text(json.dumps({"content": page.content, "title": page.title, "toc": _toc_tokens(page.toc),
                                     "seconds": page.notebook_seconds}), encoding="utf-8")

    page.render = render
    return page
