"""The render cache never hands back a page made by old code.

Its key (mlp_site.render_cache) must change when anything a page's render depends on changes
— one line of ``mlp_ref``, ``prose`` or the site plugin, the pins, the page itself, the environment a
cell reads — and must not change for an edit of another page, which is what makes the cache
worth having. Files under ``docs/`` that a render reads (the home page reads every lesson's
Prerequisites) are recorded while it runs and checked by content before an entry is used.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from mlp_site import cache
from tests import editions, pagekit

from mlp_site import render_cache

TEXT = "# A lesson\n\n```python exec=\"on\"\nimport mlp_ref\nprint(mlp_ref.__name__)\n```\n"
SETTINGS = {"site_url": "http://127.0.0.1:8000/", "pages": ["index.md", "lessons/01.md"]}


@pytest.fixture
def tree(tmp_path):
    """A copy of the code a render may run, the pins, the configuration and the pages, to edit."""
    for name in (*render_cache.CODE, "docs/labs", "docs/lessons"):
        shutil.copytree(pagekit.ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"),
                        dirs_exist_ok=True)
    for name in render_cache.FILES:
        shutil.copy(pagekit.ROOT / name, tmp_path / name)
    return tmp_path


def key(tree, text=TEXT, settings=SETTINGS):
    return render_cache.cache_key(text, settings, root=tree)


def append(path, text):
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_one_line_of_mlp_ref_changes_the_key(tree):
    before = key(tree)
    append(tree / "mlp_ref" / "activations.py", "\n# one more line\n")
    assert key(tree) != before


def test_a_new_module_changes_the_key_once_the_page_can_import_it(tree):
    before = key(tree)
    (tree / "mlp_ref" / "new_module.py").write_text("X = 1\n", encoding="utf-8")
    assert key(tree) == before  # nothing the page runs imports it
    append(tree / "mlp_ref" / "__init__.py", "\nfrom mlp_ref import new_module\n")
    with_import = key(tree)
    (tree / "mlp_ref" / "new_module.py").write_text("X = 2\n", encoding="utf-8")
    assert len({before, with_import, key(tree)}) == 3


@pytest.mark.parametrize("edit", ["page", "prose", "plugin", "snippet", "exercise", "pins", "config",
                                  "settings", "environment"])
def test_every_other_dependency_changes_the_key(tree, edit, monkeypatch):
    before = key(tree)
    text, settings = TEXT, SETTINGS
    files = {"prose": "prose/values.py", "plugin": "site_plugin/mlp_site/reader_blocks.py", "snippet": "snippets/lesson01_mnist_layer.py",
             "exercise": "docs/exercises/lesson03-forward-pass/forward.py", "config": "mkdocs.yml"}
    if edit == "page":
        text = TEXT + "\nOne more sentence.\n"
    elif edit in files:
        append(tree / files[edit], "\n# edited\n")
    elif edit == "pins":
        path = tree / "requirements.txt"
        path.write_text(path.read_text().replace("numpy==", "numpy==0.0.0.dev0+"), encoding="utf-8")
    elif edit == "settings":
        settings = {**SETTINGS, "pages": [*SETTINGS["pages"], "lessons/02.md"]}
    else:
        monkeypatch.setenv("MNIST_DIR", "/somewhere/mnist")
    assert key(tree, text, settings) != before


def test_a_page_that_imports_no_mlp_ref_keeps_its_key_when_mlp_ref_changes(tree):
    text = "# Sources\n\n```python exec=\"on\"\nprint(1)\n```\n"
    before = key(tree, text)
    append(tree / "mlp_ref" / "activations.py", "\n# one more line\n")
    assert key(tree, text) == before


@pytest.fixture
def package(tmp_path):
    """A small mlp_ref: __init__ -> a -> b; sub/d imports c inside a function; sub/e imports d."""
    files = {
        "mlp_ref/__init__.py": "from .a import f\n",
        "mlp_ref/a.py": "from mlp_ref.b import g\n\ndef f():\n    return g()\n",
        "mlp_ref/b.py": "def g():\n    return 1\n",
        "mlp_ref/c.py": "import numpy\n\ndef k():\n    return 2\n",
        "mlp_ref/sub/__init__.py": "",
        "mlp_ref/sub/d.py": "def h():\n    from ..c import k\n    return k()\n",
        "mlp_ref/sub/e.py": "from . import d\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("code", "expected"), [
    ("from mlp_ref.sub import d", {"__init__", "a", "b", "c", "sub/__init__", "sub/d"}),
    ("import mlp_ref.sub.e as e", {"__init__", "a", "b", "c", "sub/__init__", "sub/d", "sub/e"}),
    ("from mlp_ref.sub import (\n    d,\n    e,\n)", {"__init__", "a", "b", "c", "sub/__init__", "sub/d", "sub/e"}),
    ("import mlp_ref", {"__init__", "a", "b"}),
    ("import numpy", set()),
])
def test_the_modules_a_page_imports_are_followed_through_their_imports(package, code, expected):
    text = f"Some prose.\n\n```python exec=\"on\"\n{code}\n```\n"
    found = {path.relative_to(package / "mlp_ref").with_suffix("").as_posix()
             for path in render_cache.imported(text, root=package)}
    assert found == expected


def test_mlp_ref_imports_nothing_by_computed_name():
    """What render_cache.imported cannot follow: an import whose module name is computed."""
    offenders = [f"{path.relative_to(pagekit.ROOT)}: {word}"
                 for path in sorted((pagekit.ROOT / "mlp_ref").rglob("*.py"))
                 for word in ("importlib", "__import__", "import_module")
                 if word in path.read_text(encoding="utf-8")]
    assert offenders == []


def test_each_markdown_exec_session_belongs_to_one_page():
    """A session shared by two pages would make one page's output depend on another's code. A page
    and its Russian twin share theirs: the same code, never in the same build (one per edition)."""
    pages_of = {}
    for page in sorted(pagekit.DOCS.rglob("*.md")):
        for name in set(re.findall(r'session="([^"]+)"', page.read_text(encoding="utf-8"))):
            pages_of.setdefault(name, set()).add(page.relative_to(pagekit.DOCS).as_posix().replace(".ru.", "."))
    assert {name: pages for name, pages in pages_of.items() if len(pages) > 1} == {}


def test_an_edit_of_another_page_keeps_the_key(tree):
    before = key(tree)
    append(tree / "docs" / "lessons" / "01-neuron-and-layer.md", "\nOne more sentence.\n")
    append(tree / "docs" / "labs" / "digits.py", "\n# %%\nprint(1)\n")
    assert key(tree) == before


def test_a_render_records_the_files_under_docs_it_reads(tree):
    render_cache._reads.append(set())
    try:
        (pagekit.DOCS / "lessons" / "01-neuron-and-layer.md").read_text(encoding="utf-8")
        (pagekit.ROOT / "README.md").read_text(encoding="utf-8")  # not under docs/: the key covers the code
        # a generator module read as text (the home page's list of widgets), not only imported
        (render_cache.GENERATORS / "lesson06.py").read_text(encoding="utf-8")
    finally:
        reads = render_cache._reads.pop()
    assert reads == {"docs/lessons/01-neuron-and-layer.md", "mlp_ref/course/generators/lesson06.py"}


def test_an_entry_is_used_only_while_the_files_it_read_are_unchanged(tree):
    name = "docs/lessons/01-neuron-and-layer.md"
    reads = {name: render_cache.file_digest(tree / name)}
    assert render_cache.reads_unchanged(reads, root=tree)
    append(tree / name, "\n## Prerequisites changed\n")
    assert not render_cache.reads_unchanged(reads, root=tree)


def test_the_build_left_an_entry_for_every_page(built_site, monkeypatch):
    """After the strict build, every page has an entry; a lab's is under today's key; the home
    page's newest records every lesson it read for its map."""
    if not cache.enabled():
        pytest.skip(f"the cache is off ({cache.SWITCH}=0)")
    monkeypatch.setenv("MLP_SITE_BUILD", "1")  # as the build sets it (mlp_site.reader_downloads)
    monkeypatch.setenv("MLP_LANG", "en")  # as mlp_site.edition sets it for the English edition
    entries = sorted((cache.FOLDER / "build").glob("render-*.json"), key=lambda path: path.stat().st_mtime)
    pages = {}
    for entry in entries:  # oldest first: each page's newest entry last
        pages[json.loads(entry.read_text(encoding="utf-8"))["src_uri"]] = entry
    for source in pagekit.nav_sources():
        for page in (source, editions.twin_source(source)):
            assert page in pages, f"{page}: no cache entry"
    jupyter_settings = _jupyter_settings()
    for lab in sorted((pagekit.DOCS / "labs").glob("*.py")):
        monkeypatch.setenv("MLP_LANG", "ru" if ".ru." in lab.name else "en")  # the edition it was built in
        settings = {"page": f"labs/{lab.name}", **jupyter_settings}
        expected = cache.FOLDER / "build" / f"{render_cache.cache_key(lab.read_text(encoding='utf-8'), settings)}.json"
        assert expected.is_file(), f"{lab.name}: no entry under today's key"
    reads = json.loads(pages["index.md"].read_text(encoding="utf-8"))["reads"]
    lessons = {f"docs/{source}" for source in pagekit.nav_sources() if source.startswith("lessons/")}
    assert lessons <= set(reads), f"the home page's map read {sorted(reads)}"


def _jupyter_settings() -> dict:
    from mkdocs.config import load_config

    config = load_config(str(pagekit.ROOT / "mkdocs.yml"))
    return dict(config.plugins["mkdocs-jupyter"].config)


def test_a_build_for_another_address_finds_the_same_entry():
    """Each test run builds for its own port: the address must not be part of the key."""
    class Config:
        def __init__(self, port):
            self.site_url = f"http://127.0.0.1:{port}/"

    def page_text(config):
        return f"pip install -r {config.site_url}downloads/requirements-reader.txt\n"

    keys = {render_cache.cache_key(render_cache._without_site(page_text(c), c), SETTINGS)
            for c in (Config(8000), Config(41234))}
    assert len(keys) == 1


@pytest.mark.parametrize("warns", [False, True])
def test_a_render_that_warned_is_not_kept(tmp_path, monkeypatch, warns):
    """A page whose render logged a warning (markdown-exec's "exited with errors") is rendered
    again by the next build, which warns again: never served from the cache in silence."""
    import logging
    import types

    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    monkeypatch.setenv(cache.SWITCH, "1")

    def render(config, files):
        if warns:
            logging.getLogger("mkdocs.plugins.markdown_exec").warning("Execution of python code block exited with errors")
        page.content, page.toc, page.title, page.present_anchor_ids = "<p>x</p>", [], "x", set()

    page = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="lessons/01.md", generated_by=None),
                                 markdown="# x\n", render=render)
    config = types.SimpleNamespace(site_url="http://127.0.0.1:8000/")
    files = types.SimpleNamespace(documentation_pages=lambda: [])
    render_cache.on_pre_page(page, config, files).render(config, files)
    assert len(list(tmp_path.glob("build/render-*.json"))) == (0 if warns else 1)
