"""The render cache never hands back a page made by old code.

Its key (hooks/render_cache.py) must change when anything a page's render depends on changes
— one line of ``mlp_ref``, ``prose`` or a hook, the pins, the page itself, the environment a
cell reads — and must not change for an edit of another page, which is what makes the cache
worth having. Files under ``docs/`` that a render reads (the home page reads every lesson's
Prerequisites) are recorded while it runs and checked by content before an entry is used.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tests import pagekit

render_cache = pagekit.load_hook("render_cache")

TEXT = "# A lesson\n\n```python exec=\"on\"\nprint(1)\n```\n"
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


def test_a_new_module_of_mlp_ref_changes_the_key(tree):
    before = key(tree)
    (tree / "mlp_ref" / "new_module.py").write_text("X = 1\n", encoding="utf-8")
    assert key(tree) != before


@pytest.mark.parametrize("edit", ["page", "prose", "hook", "snippet", "exercise", "pins", "config",
                                  "settings", "environment"])
def test_every_other_dependency_changes_the_key(tree, edit, monkeypatch):
    before = key(tree)
    text, settings = TEXT, SETTINGS
    files = {"prose": "prose/values.py", "hook": "hooks/reader_blocks.py", "snippet": "snippets/lesson01_mnist_layer.py",
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
    finally:
        reads = render_cache._reads.pop()
    assert reads == {"docs/lessons/01-neuron-and-layer.md"}


def test_an_entry_is_used_only_while_the_files_it_read_are_unchanged(tree):
    name = "docs/lessons/01-neuron-and-layer.md"
    reads = {name: render_cache.file_digest(tree / name)}
    assert render_cache.reads_unchanged(reads, root=tree)
    append(tree / name, "\n## Prerequisites changed\n")
    assert not render_cache.reads_unchanged(reads, root=tree)


def test_the_build_left_one_entry_per_page(built_site, monkeypatch):
    """After the strict build, every page has exactly one entry; a lab's is under today's key;
    the home page's records every lesson it read for its map."""
    if not render_cache.enabled():
        pytest.skip(f"the render cache is off ({render_cache.SWITCH}=0)")
    monkeypatch.setenv("MLP_SITE_BUILD", "1")  # as the build sets it (hooks/reader_downloads.py)
    for source in pagekit.nav_sources():
        entries = sorted(render_cache.CACHE.glob(f"{source.replace('/', '_')}-*.json"))
        assert len(entries) == 1, f"{source}: {len(entries)} cache entries"
    jupyter_settings = _jupyter_settings()
    for lab in sorted((pagekit.DOCS / "labs").glob("*.py")):
        text = lab.read_text(encoding="utf-8")
        expected = render_cache.CACHE / f"labs_{lab.name}-{render_cache.cache_key(text, jupyter_settings)}.json"
        assert expected.is_file(), f"{lab.name}: no entry under today's key"
    (home,) = render_cache.CACHE.glob("index.md-*.json")
    reads = json.loads(home.read_text(encoding="utf-8"))["reads"]
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
