"""Rendered pages, cached under a key of everything their output depends on.

Rendering a page runs code: a lesson's markdown-exec blocks make its tables, traces and
figures with ``mlp_ref``; a lab is a notebook executed by mkdocs-jupyter. Most edits change
none of that code's inputs — a sentence of one lesson leaves every other page as it was — so
this step wraps each page's render (once the plugins have put in their own: see plugin.py) and keys
the result on:

- the page's text at render time (a lesson's Markdown after the macros and the steps that run
  before the render; a lab's notebook source);
- every file of the code a render may run: of ``mlp_ref``, the modules the page's code
  imports, followed through their own imports (:func:`imported`: an edit of Lab B's code
  leaves the lessons and Lab A alone), and all of ``prose``, ``snippets``, ``site_plugin`` and the
  exercises (:data:`CODE`), ``requirements.txt`` and ``mkdocs.yml``; the Python
  version, the environment variables a cell reads (:data:`ENVIRONMENT`), and the render's
  settings (the site's list of pages; mkdocs-jupyter's options for a lab). The site's address
  is left out: it enters a page only as text, which the entry stores with a placeholder
  (:data:`SITE`), so a build for another port (each test run has its own) finds the entry;
- the files under ``docs/`` and the generator modules that the render read (the home page's map
  reads every lesson's Prerequisites, its list of widgets the generators that place them):
  recorded while it runs, and checked again, by content, before an entry is used.

A change to any of them renders the page again; nothing else does, so a cached page is the
page that the same code would make now. (MkDocs's own ``serve`` keeps imported modules; the
cache and :func:`on_pre_build` make sure an edit of ``mlp_ref`` during ``make serve`` re-imports
it and renders again every page whose code imports the module edited.) Entries are kept by
mlp_site/cache.py (namespace ``build``) beside those of other runs; a fresh clone (CI) has none.
Every page gets ``render_seconds``:
how long its render took, in the run that made it, and ``rendered_at``: None when this build
rendered it, else when the render it reuses ran.
"""

from __future__ import annotations

import ast
import datetime
import functools
import hashlib
import html
import importlib
import logging
import os
import re
import sys
import threading
import time
from pathlib import Path

from mkdocs.structure.toc import get_toc

from . import ROOT, cache
from .lab_files import is_lab

DOCS = ROOT / "docs"
GENERATORS = ROOT / "mlp_ref" / "course" / "generators"
# Folders of code that a page's render may run; every file in them is part of every key, but
# for the modules of mlp_ref, of which a key holds only those the page imports (see imported).
CODE = ("mlp_ref", "prose", "snippets", "site_plugin", "docs/exercises")
FILES = ("requirements.txt", "mkdocs.yml")
PACKAGE = "mlp_ref"
# Environment variables that a cell reads or that change what it prints.
ENVIRONMENT = ("MLP_SITE_BUILD", "MLP_LANG", "MNIST_DIR", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MPLBACKEND")
# Packages of this checkout that a render imports: dropped before each build (see on_pre_build).
OWN_PACKAGES = ("mlp_ref", "prose")


def code_files(text: str, root: Path = ROOT, code: tuple[str, ...] = CODE, files: tuple[str, ...] = FILES) -> list[Path]:
    """The files of the folders ``code`` and the ``files`` a render of ``text`` may run, in a fixed order:
    all of them, but for mlp_ref's modules, of which only those ``text`` imports (:func:`imported`)."""
    found = [path for folder in code for path in (root / folder).rglob("*")
             if path.is_file() and "__pycache__" not in path.parts]
    package = root / PACKAGE
    needed = imported(text, root)
    found = [path for path in found if not (path.suffix == ".py" and path.is_relative_to(package))
             or path in needed]
    return sorted(found) + [root / name for name in files]


# --- the modules of mlp_ref a page imports, followed through mlp_ref's own imports ------------
FOLLOWED = (PACKAGE, "prose")  # prose's modules import mlp_ref too (the home page's map)
# An import statement of one of them, with its parenthesised names over several lines.
IMPORT_STATEMENT = re.compile(r"^[ \t]*(?:from[ \t]+(?:mlp_ref|prose)\b[\w.]*[ \t]+import[ \t]*(?:\([^)]*\)|[^\n]*)"
                              r"|import[ \t]+(?:mlp_ref|prose)\b[^\n]*)", re.MULTILINE)
SNIPPET_LINE = re.compile(r"^[ \t]*-+8<-+[ \t]+[\"']?(?P<name>[^\"'\s]+)", re.MULTILINE)


@functools.lru_cache(maxsize=4096)  # for one build: every page follows the same names
def _module_files(name: str, root: Path) -> list[Path]:
    """The files that importing module ``name`` (``a.b.c``) runs: each package's __init__, the module."""
    files, folder = [], root
    for part in name.split("."):
        folder = folder / part
        for candidate in (folder / "__init__.py", folder.with_suffix(".py")):
            if candidate.is_file():
                files.append(candidate)
                break
    return files


def _imports_of(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Module names under mlp_ref that the statements of ``tree`` (anywhere in it) import."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative to the importing module's package
                parts = module.split(".") if is_package else module.split(".")[:-1]
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)  # a submodule, if it is one
    return {name for name in names if name.split(".")[0] in FOLLOWED}


def imported(text: str, root: Path = ROOT) -> set[Path]:
    """The module files of mlp_ref that running the code in ``text`` can import.

    ``text`` is a page or a notebook: its import lines of mlp_ref, and those of the snippets it
    embeds, are followed through every import statement of each module reached (including
    imports inside functions), so the set holds every module whose code the page's code can
    run. mlp_ref imports nothing by computed name (tests/test_render_cache.py holds that).
    """
    texts = [text]
    for match in SNIPPET_LINE.finditer(text):
        snippet = root / "snippets" / match["name"]
        if snippet.is_file():
            texts.append(snippet.read_text(encoding="utf-8"))
    todo = set()
    for statement in (m.group(0) for t in texts for m in IMPORT_STATEMENT.finditer(t)):
        try:
            todo |= _imports_of(ast.parse(statement.strip()), "", False)
        except SyntaxError:  # e.g. a backslash continuation: take no chance, the whole package
            return {path for path in (root / PACKAGE).rglob("*.py") if "__pycache__" not in path.parts}
    seen_modules, files = set(), set()
    while todo:
        name = todo.pop()
        if name in seen_modules:
            continue
        seen_modules.add(name)
        for path in _module_files(name, root):
            if path in files:
                continue
            files.add(path)
            module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
            todo |= _module_imports(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
    return files


@functools.lru_cache(maxsize=1024)
def _module_imports(source: str, module: str, is_package: bool) -> frozenset[str]:
    """:func:`_imports_of` a module's source, parsed once per build for all pages (keyed on the text)."""
    return frozenset(_imports_of(ast.parse(source), module, is_package))


def cache_key(text: str, settings: dict, root: Path = ROOT, environment: tuple[str, ...] = ENVIRONMENT,
              kind: str = "render", code: tuple[str, ...] = CODE, files: tuple[str, ...] = FILES) -> str:
    """The key (mlp_site/cache.py) of a page's ``text``, ``settings``, the code it may run (:func:`code_files`
    of ``code`` and ``files``) and the ``environment`` variables."""
    return cache.key(kind, text, settings, {name: os.environ.get(name) for name in environment},
                     *cache.files(code_files(text, root, code, files), root))


def now_utc() -> str:
    """The time of day a render or a run happened, as the pages state it."""
    return f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC"


def file_digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


# --- the files under docs/ a render reads, seen through Python's audit events ----------------
_reads: list[set[str]] = []  # while a render runs: the files it opened


def _audit(event: str, args: tuple) -> None:
    if event == "open" and _reads and isinstance(args[0], (str, os.PathLike)):
        path = Path(os.path.abspath(args[0]))
        # the pages, and the generator modules whose text a page reads (the home page's list of
        # widgets finds them in the generators the lessons call: prose/structure.py)
        if path.is_relative_to(DOCS) or (path.is_relative_to(GENERATORS) and path.suffix == ".py"):
            _reads[-1].add(path.relative_to(ROOT).as_posix())


sys.addaudithook(_audit)  # an audit hook cannot be removed; it records only inside a render


def reads_unchanged(reads: dict[str, str | None], root: Path = ROOT) -> bool:
    """Whether every file a cached render read still has the content it had then."""
    return all(file_digest(root / name) == digest for name, digest in reads.items())


# --- what a render leaves on the page, stored and restored --------------------------------
def _toc_tokens(toc) -> list[dict]:
    return [{"level": link.level, "id": link.id, "name": link.title, "children": _toc_tokens(link.children)}
            for link in toc]


def _saved(page) -> dict:
    # the title as the page now resolves it (from the nav, the page's metadata or its rendered h1)
    state = {"content": page.content, "toc": _toc_tokens(page.toc), "title": page.title}
    if not is_lab(page.file.src_uri):  # what MkDocs's Page.render leaves for the anchor validation
        state["anchor_ids"] = sorted(page.present_anchor_ids)
        links = getattr(page, "links_to_anchors", None)
        state["links"] = None if links is None else [[target.src_uri, anchors] for target, anchors in links.items()]
    return state


def _restore(page, state: dict, files) -> None:
    page.content, page.toc, page.title = state["content"], get_toc(state["toc"]), state["title"]
    if "anchor_ids" not in state:  # a lab's: mkdocs-jupyter's render leaves no anchors to validate
        return
    page.present_anchor_ids = set(state["anchor_ids"])
    if state["links"] is not None:
        page.links_to_anchors = {files.get_file_from_path(src): anchors for src, anchors in state["links"]}


def _settings(page, config, files) -> dict:
    if is_lab(page.file.src_uri):
        jupyter = config.plugins.get("mkdocs-jupyter")
        return dict(jupyter.config) if jupyter is not None else {}
    return {"pages": sorted(f.src_uri for f in files.documentation_pages())}


# The site's address enters a page only as text (the install line names the site's downloads by
# URL), and the tests build for a new port each run: keys and entries hold this instead.
SITE = "\x00site_url\x00"


def _without_site(text: str, config) -> str:
    return text.replace(config.site_url, SITE) if config.site_url else text


# The third-party modules a page's render imports; seconds to import (matplotlib most of them).
WARM_UP = ("numpy", "scipy.special", "cycler", "matplotlib.figure", "matplotlib.backends.backend_svg")


def _warm_up() -> None:
    for name in WARM_UP:
        importlib.import_module(name)


def on_serve(server, config, builder):
    """``mkdocs serve``: import :data:`WARM_UP` while the server waits for the first edit.

    The first build renders nothing when the cache holds every page, so without this the first
    edit after ``make serve`` would pay for those imports (they stay imported after that; only
    this checkout's packages are dropped before each build, see :func:`on_pre_build`).
    """
    threading.Thread(target=_warm_up, name="import-warm-up", daemon=True).start()
    return server


def forget() -> None:
    """Start a site's build: the module files found for an earlier one (make serve) may have changed."""
    _module_files.cache_clear()


def on_pre_build(config):
    """Forget this checkout's modules, so that a rebuild in ``mkdocs serve`` runs today's code."""
    for name in [n for n in sys.modules if n.split(".")[0] in OWN_PACKAGES]:
        del sys.modules[name]


class _Warnings(logging.Handler):
    """Counts what MkDocs and its plugins log at WARNING or above while one page renders. A page
    whose render warned (a generator that raised: markdown-exec logs it and prints the traceback
    into the page) is not kept, so that the next build renders it again and --strict fails again,
    instead of serving the broken page from the cache in silence."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        self.count += 1


def _failed(page, error: Exception) -> None:
    """Say that ``page``'s render raised (mlp_site.page_warnings names the page) and leave a page that says so."""
    what = f"{type(error).__name__}: {error}".strip()
    logging.getLogger(f"mkdocs.plugins.{__name__}").error(f"the page's render raised {what}")
    page.content = f"<p><strong>This page failed to build</strong>: {html.escape(what[:2000])}</p>"


def on_pre_page(page, config, files):
    """Wrap the page's render: from the cache when its key matches, else rendered and stored."""
    if page.file.generated_by is not None:  # the API reference's pages: api_reference.py caches them
        return page
    render = page.render  # MkDocs's, or mkdocs-jupyter's for a lab

    def cached_render(config, files):
        text = Path(page.file.abs_src_path).read_text(encoding="utf-8") if is_lab(page.file.src_uri) else page.markdown
        key = cache_key(_without_site(text, config), {"page": page.file.src_uri, **_settings(page, config, files)})
        stored = cache.load("build", key)
        if stored is not None:
            if reads_unchanged(stored["reads"]):
                stored["page"]["content"] = stored["page"]["content"].replace(SITE, config.site_url or "")
                _restore(page, stored["page"], files)
                page.render_seconds = stored["seconds"]  # how long the render that made it took
                page.rendered_at = stored["ran_at"]  # when (verification.py says it)
                return
        _reads.append(set())
        warned = _Warnings()
        logging.getLogger("mkdocs").addHandler(warned)  # MkDocs's logger: its plugins' records end there
        start = time.perf_counter()
        try:
            render(config, files)
        except Exception as error:  # a lab's cell or claim that failed, a page that does not convert
            _failed(page, error)  # this page fails (logged: --strict fails the build); the others still render
        finally:
            reads = _reads.pop()
            logging.getLogger("mkdocs").removeHandler(warned)
        page.render_seconds = time.perf_counter() - start
        page.rendered_at = None  # in this build
        if not warned.count:
            state = _saved(page)
            state["content"] = _without_site(state["content"], config)
            reads = {name: file_digest(ROOT / name) for name in sorted(reads)}
            cache.save("build", key, {"src_uri": page.file.src_uri, "page": state, "seconds": page.render_seconds,
                                      "ran_at": now_utc(), "reads": reads})

    # No MkDocs event can stand in for a page's render (every build renders every page: mkdocs/mkdocs#2384),
    # so the page's render method is wrapped, as mkdocs-jupyter's on_pre_page replaces it for a lab.
    page.render = cached_render
    return page
