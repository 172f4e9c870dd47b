"""The API reference documents every public name of mlp_ref, and the pages link the names they use.

Checked on the built site against the package itself, read here another way than the build
reads it (mlp_site.api_names reads the source with griffe; here the package is imported and
its objects are asked where they were defined):

- one reference page per module at the top of ``mlp_ref`` (and per subpackage), no other;
- an entry (an element with the object's canonical path as id) for every name of
  ``mlp_ref.__all__`` and every public function and class of ``mlp_ref.course`` and
  ``mlp_ref.labs``;
- on every lesson and lab, every object of mlp_ref that the code a reader sees names through
  an import (``mlp_ref.MLP.from_arrays``, ``from mlp_ref import fit``) is linked to its entry,
  and every link to the reference leads to an entry that exists;
- a reference page weighs no more than a lesson may (600 KB compressed, what it loads included);
- a link to an entry that the reference does not render fails ``mkdocs build --strict`` (a
  tiny site with the site's reference settings and mlp_site.api_links).
"""

from __future__ import annotations

import ast
import gzip
import importlib
import inspect
import os
import pkgutil
import posixpath
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
import yaml

import mlp_ref
from tests import pagekit
from tests.test_site_build import ResourceParser

PACKAGE = pagekit.ROOT / "mlp_ref"
REFERENCE = "reference"
WEIGHT_BUDGET_KB = 600


def reference_page(site: Path, module: str) -> Path:
    """The built page of ``mlp_ref.<name>`` (a module at the top, or a subpackage)."""
    return site / REFERENCE / module.split(".")[1] / "index.html"


def top_modules() -> list[str]:
    """The modules and subpackages at the top of mlp_ref, private ones (``_fast``) left out."""
    return sorted(f"mlp_ref.{info.name}" for info in pkgutil.iter_modules([str(PACKAGE)]) if not info.name.startswith("_"))


def exported_from() -> dict[str, str]:
    """Each name of ``mlp_ref.__all__`` -> the module it is imported from in mlp_ref/__init__.py."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    return {alias.asname or alias.name: node.module for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) for alias in node.names}


def canonical(obj, module: str, name: str) -> str:
    """The id of an object's entry: where a function or class was defined; a constant's module."""
    if inspect.isclass(obj) or inspect.isroutine(obj):
        return f"{obj.__module__}.{obj.__qualname__}"
    return f"{module}.{name}"


def ids_of(path: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8")))


# --- the pages and their entries ---------------------------------------------------------------

def test_one_reference_page_per_module(built_site):
    built = sorted(f"mlp_ref.{p.parent.name}" for p in (built_site / REFERENCE).glob("*/index.html"))
    assert built == top_modules()
    assert (built_site / REFERENCE / "index.html").is_file()
    index = (built_site / REFERENCE / "index.html").read_text(encoding="utf-8")
    for module in top_modules():  # the overview's table links every page
        assert f'href="{module.split(".")[1]}/"' in index, module


def test_every_exported_name_has_an_entry(built_site):
    modules = exported_from()
    missing = []
    for name in mlp_ref.__all__:
        entry = canonical(getattr(mlp_ref, name), modules[name], name)
        if entry not in ids_of(reference_page(built_site, entry)):
            missing.append(entry)
    assert missing == []
    assert len(mlp_ref.__all__) > 100  # the names are really there to check


def subpackage_names(package: str) -> list[tuple[str, object]]:
    """(module, object) for every public function and class defined in the modules of ``package``."""
    found = []
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        public = getattr(module, "__all__", None)
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) or inspect.isfunction(obj)) and obj.__module__ == info.name and (
                    name in public if public is not None else not name.startswith("_")):
                found.append((info.name, obj))
    return found


@pytest.mark.parametrize("package", ["mlp_ref.course", "mlp_ref.labs"])
def test_every_public_function_of_the_subpackages_has_an_entry(built_site, package):
    names = subpackage_names(package)
    ids = ids_of(reference_page(built_site, package))
    missing = [f"{obj.__module__}.{obj.__qualname__}" for _, obj in names if f"{obj.__module__}.{obj.__qualname__}" not in ids]
    assert missing == []
    assert len(names) > 10


# --- the links from the lessons and labs -------------------------------------------------------

class Links(HTMLParser):
    """The href of every link of class ``mlp-api`` (mlp_site.api_links) on a page."""

    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "mlp-api" in (attrs.get("class") or "").split():
            self.hrefs.append(attrs.get("href") or "")


def shown_code(built_site: Path, source: str) -> list[str]:
    """The Python a reader sees on a page: a lesson's runnable blocks, a lab's code cells."""
    if source.endswith(".py"):
        notebook = nbformat.read(built_site / source.replace(".py", ".ipynb"), as_version=4)
        return [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    return [block.code for block in pagekit.blocks(pagekit.DOCS / source)]


def named_objects(codes: list[str]) -> set[str]:
    """The entries of the objects of mlp_ref that ``codes`` names through its imports.

    Imports bind names to modules and objects of mlp_ref (imported here for real); a dotted
    name is followed attribute by attribute from such a name, and each function, class or
    constant reached counts (not a module, not a name with a leading underscore).
    """
    modules = exported_from()
    trees = [ast.parse(code) for code in codes]
    bound = {}
    for node in (node for tree in trees for node in ast.walk(tree)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mlp_ref":
                    bound[alias.asname or "mlp_ref"] = ("module", alias.name if alias.asname else "mlp_ref")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mlp_ref":
            for alias in node.names:
                bound[alias.asname or alias.name] = ("from", node.module, alias.name)
    found = set()

    def reach(parent_module: str, holder, name: str):
        obj = getattr(holder, name, None)
        if obj is None or name.startswith("_") or inspect.ismodule(obj):
            return obj
        home = modules.get(name, parent_module) if parent_module == "mlp_ref" else parent_module
        found.add(canonical(obj, home, name))
        return obj

    for node in (node for tree in trees for node in ast.walk(tree)):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in bound:
            continue
        parts.reverse()
        kind, *where = bound[node.id]
        if kind == "module":
            holder, module = importlib.import_module(where[0]), where[0]
        else:
            holder = reach(where[0], importlib.import_module(where[0]), where[1])
            module = holder.__name__ if inspect.ismodule(holder) else where[0]
        for part in parts:
            if holder is None:
                break
            if inspect.ismodule(holder):
                module = holder.__name__
                holder = reach(module, holder, part)
            elif inspect.isclass(holder):
                holder = reach(module, holder, part)
            else:
                break  # an attribute of a constant's value: not an object of the reference
    return found


def link_targets(built_site: Path, source: str) -> set[tuple[str, str]]:
    """(page path under the site, anchor) of every reference link on page ``source``."""
    page = pagekit.built_page(built_site, source)
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    folder = page.parent.relative_to(built_site).as_posix()
    targets = set()
    for href in parser.hrefs:
        path, _, anchor = href.partition("#")
        targets.add((posixpath.normpath(posixpath.join(folder, path)), anchor))
    return targets


COURSE = [source for source in pagekit.nav_sources() if source.startswith(("lessons/", "labs/"))]


@pytest.mark.parametrize("source", COURSE)
def test_every_name_the_code_uses_links_to_its_entry(built_site, source):
    used = named_objects(shown_code(built_site, source))
    targets = link_targets(built_site, source)
    linked = {anchor for _, anchor in targets}
    assert sorted(used - linked) == []
    broken = sorted(f"{path}#{anchor}" for path, anchor in targets
                    if not (built_site / path / "index.html").is_file() or anchor not in ids_of(built_site / path / "index.html"))
    assert broken == []
    assert used, "the page's code names no object of mlp_ref: is the reading of its code broken?"


def test_the_generator_module_a_page_imports_is_part_of_its_code():
    """A page's blocks call their generators with one line (``print(lesson09.batch_rate_table())``);
    what those use (mlp_ref.batching's run_in_batches) is used by the page, for the reference's
    "Where the course uses it" and the links of the page's prose."""
    from mlp_site import api_names

    package = api_names.load_package()

    def scope_of(source):
        return api_names.page_scope(package, api_names.page_codes(source, (pagekit.DOCS / source).read_text(encoding="utf-8")))

    _, used = scope_of("lessons/09-mlp-in-transformers.md")
    assert "mlp_ref.batching.run_in_batches" in used
    # the generator's own names stay its own: the reader's qwen = mlp_ref.qwen3_0_6b() keeps its
    # link, although lesson06.qwen_comparison has a qwen of its own
    scope, _ = scope_of("lessons/06-counting-parameters.md")
    assert scope.instances.get("qwen") == "mlp_ref.transformer_counts.Breakdown"


# --- the weight of a reference page --------------------------------------------------------------

def test_reference_pages_stay_within_a_lesson_weight(built_site):
    heavy = {}
    for page in sorted((built_site / REFERENCE).rglob("index.html")):
        parser = ResourceParser()  # the style sheets, scripts and images it loads
        html = page.read_text(encoding="utf-8")
        parser.feed(html)
        files = {(page.parent / url.split("?")[0].split("#")[0]).resolve() for url in parser.urls
                 if not re.match(r"^([a-z]+:)?//|^data:", url)}
        packed = len(gzip.compress(html.encode(), 6)) + sum(len(gzip.compress(f.read_bytes(), 6)) for f in files if f.is_file())
        if packed / 1024 > WEIGHT_BUDGET_KB:
            heavy[page.parent.name] = f"{packed / 1024:.0f} KB"
    assert heavy == {}


# --- a broken reference fails the strict build -------------------------------------------------

def test_a_link_to_a_missing_entry_fails_the_strict_build(tmp_path):
    """A tiny site with the site's reference settings: its page's code calls mlp_ref.descend,
    whose entry (mlp_ref.descent) the reference does not render, so the link has no target."""
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    site_config = yaml.load((pagekit.ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    reference = next(p for p in site_config["plugins"] if isinstance(p, dict) and "mkdocstrings" in p)
    reference["mkdocstrings"]["handlers"]["python"]["paths"] = [str(pagekit.ROOT)]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Page\n\n```python\nimport mlp_ref\n\nprint(mlp_ref.descend)\n```\n", encoding="utf-8")
    (docs / "reference.md").write_text("::: mlp_ref.perceptron\n", encoding="utf-8")
    config = {"site_name": "t", "docs_dir": str(docs), "site_dir": str(tmp_path / "site"),
              "markdown_extensions": ["pymdownx.highlight", "pymdownx.superfences"],
              "plugins": [reference], "hooks": [str(tmp_path / "links.py")]}
    # The site plugin's step that links a page's code to the reference, alone, as a hook.
    (tmp_path / "links.py").write_text("from mlp_site.api_links import on_page_content  # noqa: F401\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(tmp_path / "mkdocs.yml")],
                            cwd=pagekit.ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode != 0
    assert "Could not find cross-reference target 'mlp_ref.descent.descend'" in result.stderr


# --- the code's plain spans (mlp_site.api_links.plain_code) ------------------------------------

def test_a_code_blocks_name_and_whitespace_spans_become_text_and_nothing_else_does():
    from mlp_site.api_links import plain_code

    block = ('<pre><code><span class="n">net</span><span class="o">.</span><a class="mlp-api">'
             '<span class="n">forward</span></a><span class="p">(</span><span class="w"> </span>'
             '<span class="mi">1</span><span class="p">)</span></code></pre>')
    prose = '<p><span class="n">kept</span></p>'
    assert plain_code(prose + block) == prose + (
        '<pre><code>net<span class="o">.</span><a class="mlp-api">forward</a><span class="p">(</span> '
        '<span class="mi">1</span><span class="p">)</span></code></pre>')


def test_the_theme_draws_a_name_in_the_codes_own_colour_and_whitespace_not_at_all(built_site):
    """What makes plain_code invisible: in Material's style sheet a name span (.n) has the code's
    colour and a whitespace span (.w) no rule; were either to change, the spans must stay."""
    css = "\n".join(path.read_text(encoding="utf-8") for path in (built_site / "assets" / "stylesheets").glob("main.*.css"))
    rules = re.findall(r"([^{}]*)\{([^}]*)\}", css)
    names = [body for selectors, body in rules if ".highlight .n" in selectors.split(",")]
    assert names == ["color:var(--md-code-hl-name-color)"]
    assert set(re.findall(r"--md-code-hl-name-color:([^;}]+)", css)) == {"var(--md-code-fg-color)"}
    assert [selectors for selectors, _ in rules if ".highlight .w" in selectors.split(",")] == []
