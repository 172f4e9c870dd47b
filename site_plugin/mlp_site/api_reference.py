"""The API reference of ``mlp_ref``, generated from the package: one page per module.

The pages are made when the site is built, never written into ``docs/`` (so ``make serve``
does not rebuild forever) and never typed: a new module of ``mlp_ref`` gets a page and a
removed one loses it. Each page is one mkdocstrings directive (``::: mlp_ref.network``) that
renders the module's public names from their NumPy-style docstrings (the options are in
mkdocs.yml), then a generated list of the course pages whose code uses the module.

- ``reference/index.md``: the package's own docstring (its conventions) and a table of the
  modules, each with the first line of its docstring and the page that first uses it;
- ``reference/<module>.md`` for each module at the top of the package (``_``-prefixed ones
  are private), in the order the course first uses them (the nav's lessons, then the labs,
  each page's code read by api_names.py); modules no page uses come after, by name;
- ``reference/course.md`` and ``reference/labs.md``: the subpackages, with their modules.

The nav gets a "Reference" section before "Sources". api_links.py links the lessons'
code and prose to these pages' entries.

Rendering the pages (mkdocstrings reads the package with griffe and fills its templates) is
the reference's cost on every build, so a rendered page is kept (cache.py)
under a key of its text, every file of ``mlp_ref``, and what render_cache.py keys every
page on (the plugin, the pins, mkdocs.yml, Python; render_cache.py leaves these pages
to this module). mkdocstrings tells mkdocs-autorefs where each entry is while it renders a page;
those calls are recorded with the page and made again when the page comes from the cache, so
the links to its entries resolve (and ``--strict`` still fails on a missing one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, get_navigation

from . import ROOT, cache
from .api_names import PACKAGE, load_package, lookup, page_codes, page_scope
from .render_cache import _restore, _saved, cache_key

FOLDER = "reference"
SECTION = "Reference"
BEFORE = "Sources"  # the nav entry the section goes before (at the end if there is none)


# Material's search ranks a page's matches by this factor: a reader who searches "GELU" wants the
# lesson that explains it first, and the reference entry after it.
SEARCH_BOOST = "---\nsearch:\n  boost: 0.3\n---\n\n"


@dataclass
class ReferencePage:
    """One generated page: the module it documents, and the course pages that use it."""

    module: str  # mlp_ref.network
    src_uri: str  # reference/network.md
    summary: str  # the first line of the module's docstring
    package: bool  # a subpackage (mlp_ref.course): its modules are shown too
    used_by: list[tuple[str, str]] = field(default_factory=list)  # (title, src_uri) in nav order

    @property
    def title(self) -> str:
        return self.module

    def markdown(self) -> str:
        options = "\n    options:\n      show_submodules: true" if self.package else ""
        used = "".join(f"\n- [{title}](../{src})" for title, src in self.used_by) or (
            "\nNo lesson or lab calls it directly.")
        return (f"{SEARCH_BOOST}::: {self.module}{options}\n\n## Where the course uses it\n\n"
                f"The pages whose code uses `{self.module}`:\n{used}\n")


def nav_pages(nav) -> list[tuple[str, str]]:
    """(title, src_uri) of every page in the nav config, in order."""
    found = []
    for item in nav or []:
        if isinstance(item, str):
            found.append((item, item))
        elif isinstance(item, dict):
            for title, value in item.items():
                found += nav_pages(value) if isinstance(value, list) else [(title, value)]
    return found


def module_of(package, path: str) -> str:
    """The module of the object at ``path``, or, inside a subpackage, the subpackage."""
    obj = lookup(package, path)
    target = obj.final_target if obj.is_alias else obj
    parts = target.module.path.split(".")
    return ".".join(parts[:2])


def reference_pages(package, course: list[tuple[str, str, str]]) -> list[ReferencePage]:
    """The reference pages, in the order the course first uses their modules.

    ``course`` holds (title, src_uri, text) of the lessons and labs in nav order.
    """
    pages = {}
    for name, module in package.modules.items():
        if name.startswith("_"):
            continue
        summary = module.docstring.value.split("\n", 1)[0] if module.docstring else ""
        pages[module.path] = ReferencePage(module.path, f"{FOLDER}/{name}.md", summary, module.is_subpackage)
    first_use = {}
    for rank, (title, src_uri, text) in enumerate(course):
        _, used = page_scope(package, page_codes(src_uri, text))
        modules = {module_of(package, path) for path in used}
        for module in sorted(modules & pages.keys()):
            pages[module].used_by.append((title, src_uri))
            first_use.setdefault(module, rank)
    return sorted(pages.values(), key=lambda page: (first_use.get(page.module, len(course)), page.package, page.module))


def index_markdown(pages: list[ReferencePage]) -> str:
    """The Reference's first page: the package's docstring, then a table of the modules."""
    rows = "".join(f"| [`{page.module}`]({Path(page.src_uri).name}) | {page.summary} | "
                   f"{f'[{page.used_by[0][0]}](../{page.used_by[0][1]})' if page.used_by else '—'} |\n"
                   for page in pages)
    return (SEARCH_BOOST + "# Reference\n\n"
            "Every public function, class and constant of `mlp_ref`, made from the docstrings of the "
            "package that the pages run, with the shape of every array. The code blocks of the lessons "
            "and labs link each name they use to its entry here.\n\n"
            "## The package\n\n"
            "::: mlp_ref\n    options:\n      members: false\n      show_root_heading: false\n\n"
            "## The modules\n\n"
            "In the order the course first uses them:\n\n"
            "| module | what it holds | first used in |\n| :--- | :--- | :--- |\n" + rows)


# ---------------------------------------------------------------------------------------
# MkDocs events
# ---------------------------------------------------------------------------------------

_state: dict = {}


def on_config(config):
    package = load_package()
    docs = Path(config.docs_dir)
    course = [(title, src, (docs / src).read_text(encoding="utf-8")) for title, src in nav_pages(config.nav)
              if src.startswith(("lessons/", "labs/"))]
    _state["pages"] = reference_pages(package, course)
    return config


def navigation(files: Files, config) -> Navigation:
    """The site's navigation with the "Reference" section, made again once its pages are among ``files``.

    MkDocs makes the navigation right after the plugins' on_files, where the i18n plugin (the last
    of them) drops every generated page (mkdocs-static-i18n#263): the reference pages join the
    edition's files after it, and the navigation is made again from mkdocs.yml's ``nav`` with the
    section inserted (into a copy: the next edition's build reads the same configuration)."""
    section = {SECTION: [f"{FOLDER}/index.md"] + [{page.title: page.src_uri} for page in _state["pages"]]}
    titles = [next(iter(item)) if isinstance(item, dict) else item for item in config.nav]
    written = config.nav
    config.nav = [*written]
    config.nav.insert(titles.index(BEFORE) if BEFORE in titles else len(written), section)
    try:
        return get_navigation(files, config)
    finally:
        config.nav = written


def on_files(files: Files, config) -> Files:
    _state["digest"] = package_digest()
    _state["sources"] = {f"{FOLDER}/index.md"} | {page.src_uri for page in _state["pages"]}
    files.append(File.generated(config, f"{FOLDER}/index.md", content=index_markdown(_state["pages"])))
    for page in _state["pages"]:
        files.append(File.generated(config, page.src_uri, content=page.markdown()))
    return files


def package_digest(root: Path = ROOT) -> str:
    """A digest of every file of mlp_ref: what a reference page documents."""
    return cache.key("package", *cache.files(sorted((root / PACKAGE).rglob("*.py")), root))


def on_pre_page(page, config, files):
    """Wrap a reference page's render: from the cache when its key matches, else rendered,
    with mkdocstrings's registrations of its entries recorded, and stored."""
    if page.file.src_uri not in _state["sources"]:
        return page
    render, autorefs = page.render, config.plugins["autorefs"]

    def cached_render(config, files):
        key = cache_key(page.markdown, {"reference": _state["digest"], "page": page.file.src_uri}, kind="reference")
        stored = cache.load("build", key)
        if stored is not None:
            _restore(page, stored["page"], files)
            for call in stored["anchors"]:
                autorefs.register_anchor(page, call["identifier"], call["anchor"], title=call["title"],
                                         primary=call["primary"])
            return
        calls = []
        register = autorefs.register_anchor

        def recording(on_page, identifier, anchor=None, *, title=None, primary=True):
            if on_page is page:
                calls.append({"identifier": identifier, "anchor": anchor, "title": title, "primary": primary})
            return register(on_page, identifier, anchor, title=title, primary=primary)

        # mkdocs-autorefs has no API that lists the anchors a page registered: the calls mkdocstrings
        # makes while it renders the page are recorded, on this plugin object only, for the render.
        autorefs.register_anchor = recording
        try:
            render(config, files)
        finally:
            del autorefs.register_anchor  # the plugin's own method again
        cache.save("build", key, {"page": _saved(page), "anchors": calls})

    page.render = cached_render  # as render_cache.py wraps the other pages' (mkdocs/mkdocs#2384)
    return page
