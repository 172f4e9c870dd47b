"""The one cache of the build and the tests: entries kept by key, the least recently used trimmed.

An entry is ``.cache/<namespace>/<key>.json`` (or the folder ``.cache/<namespace>/<key>/`` for an
installed environment or a built wheel). Its key (:func:`key`) is a digest of everything the
entry depends on, so the entries of different runs (``make serve``, ``make site``, ``make test``,
each with its own environment, address and settings) sit side by side and each run finds its
own: nothing is replaced per page. A hit refreshes the entry's time; a process that stored
something ends with :func:`trim`, which removes the least recently used entries until the whole
cache fits in :data:`LIMIT` bytes. ``MLP_CACHE=0`` turns the cache off: nothing is read or kept.

Plain files, not diskcache: some entries are folders (a virtual environment; a wheel that pip
installs by its file name), which diskcache cannot hold, and for the site's 28 page entries it
was no faster (read 54 ms against 75 ms, write 173 ms against 94 ms, median of five).
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import json
import os
import platform
import shutil
import tempfile
from pathlib import Path

from . import ROOT

FOLDER = ROOT / ".cache"
# build: what the site build makes of a page (its render, search entries, math, pruned notebook
# CSS, code block runs); browser: what a visit of a built page saw (axe's audits included);
# reader: a reader's environment, the mlp_ref wheel it installs, and the runs made in it.
NAMESPACES = ("build", "browser", "reader")
LIMIT = 3 * 2**30  # bytes: a reader's environment is about 0.6 GB, a build's pages 0.02 GB
SWITCH = "MLP_CACHE"


def enabled() -> bool:
    return os.environ.get(SWITCH, "1") != "0"


def key(kind: str, *parts) -> str:
    """``kind-<digest>`` of ``parts`` and the Python version (every entry depends on it).

    A part is a file (a ``Path``: its content, or that it is missing), bytes, a string, or
    anything JSON can write (sorted keys); each is length-prefixed, so two lists of parts never
    give the same bytes.
    """
    digest = hashlib.sha256()
    for part in (kind, platform.python_version(), *parts):
        if isinstance(part, Path):
            part = part.read_bytes() if part.is_file() else b"\0missing"
        elif isinstance(part, str):
            part = part.encode()
        elif not isinstance(part, bytes):
            part = json.dumps(part, sort_keys=True, default=str).encode()
        digest.update(len(part).to_bytes(8, "big") + part)
    return f"{kind}-{digest.hexdigest()[:24]}"


def files(paths, root: Path) -> list:
    """Each file of ``paths`` as two parts of a key: its name under ``root`` and its content."""
    return [part for path in paths for part in (path.relative_to(root).as_posix(), path)]


def load(namespace: str, entry_key: str):
    """The JSON value kept under ``entry_key``, or None (no entry, or the cache is off)."""
    entry = FOLDER / namespace / f"{entry_key}.json"
    if not enabled():
        return None
    try:
        value = json.loads(entry.read_text(encoding="utf-8"))
    except FileNotFoundError:  # never kept, or trimmed by another process meanwhile
        return None
    _touch(entry)
    return value


def save(namespace: str, entry_key: str, value) -> None:
    """Keep ``value`` (JSON) under ``entry_key``; a reader in another process never sees half of it."""
    if not enabled():
        return
    entry = FOLDER / namespace / f"{entry_key}.json"
    entry.parent.mkdir(parents=True, exist_ok=True)
    partial = entry.with_name(f".{entry.name}.{os.getpid()}")
    partial.write_text(json.dumps(value), encoding="utf-8")
    os.replace(partial, entry)
    _trim_at_exit()


@functools.cache
def _scratch(entry_key: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"mlp-{entry_key}-"))


def folder(namespace: str, entry_key: str) -> Path:
    """The folder entry ``entry_key``, which the caller fills and checks (it is touched here:
    in use). With the cache off, a temporary folder of this process instead, empty at first."""
    if not enabled():
        return _scratch(entry_key)
    entry = FOLDER / namespace / entry_key
    entry.mkdir(parents=True, exist_ok=True)
    _touch(entry)
    _trim_at_exit()
    return entry


def _touch(entry: Path) -> None:
    try:
        os.utime(entry)
    except OSError:  # trimmed meanwhile: the value read is still whole
        pass


def _size(entry: Path) -> int:
    if entry.is_dir() and not entry.is_symlink():
        return sum(p.lstat().st_size for p in entry.rglob("*"))
    return entry.lstat().st_size


def trim(limit: int | None = None) -> None:
    """Remove the least recently used entries until the cache holds at most ``limit`` bytes
    (:data:`LIMIT`), and anything under it that is not one of :data:`NAMESPACES` (an older layout's)."""
    cache, limit = FOLDER, LIMIT if limit is None else limit
    if not cache.is_dir():
        return
    entries = []
    for place in cache.iterdir():
        if place.name not in NAMESPACES:
            _remove(place)
            continue
        for entry in place.iterdir():
            try:
                entries.append((entry.lstat().st_mtime, _size(entry), entry))
            except OSError:  # removed by another process meanwhile
                continue
    total = 0
    for _, size, entry in sorted(entries, key=lambda item: item[0], reverse=True):
        total += size
        if total > limit:
            _remove(entry)


def _remove(entry: Path) -> None:
    if entry.is_dir() and not entry.is_symlink():
        shutil.rmtree(entry, ignore_errors=True)
    else:
        entry.unlink(missing_ok=True)


@functools.cache  # once per process
def _trim_at_exit() -> None:
    atexit.register(trim)
