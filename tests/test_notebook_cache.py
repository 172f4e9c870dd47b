"""The executed-notebook cache never hands back the output of old code.

Its key (hooks/notebook_cache.py) must change when anything the notebook's output depends
on changes — one line of ``mlp_ref``, the pins, the notebook itself, the environment a cell
reads — and must not change for an edit elsewhere (a lesson's prose), which is what makes
the cache worth having.
"""

from __future__ import annotations

import shutil

import pytest

from tests import pagekit

notebook_cache = pagekit.load_hook("notebook_cache")

SETTINGS = {"execute": True, "allow_errors": False}


@pytest.fixture
def tree(tmp_path):
    """A copy of what a lab depends on, plus a lesson, to edit."""
    for name in ("mlp_ref", "docs/labs", "docs/lessons"):
        shutil.copytree(pagekit.ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(pagekit.ROOT / "requirements.txt", tmp_path / "requirements.txt")
    return tmp_path


def key(tree, settings=SETTINGS):
    return notebook_cache.cache_key(tree / "docs" / "labs" / "digits.py", settings, root=tree)


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


@pytest.mark.parametrize("edit", ["notebook", "pins", "settings", "environment"])
def test_every_other_dependency_changes_the_key(tree, edit, monkeypatch):
    before = key(tree)
    settings = SETTINGS
    if edit == "notebook":
        append(tree / "docs" / "labs" / "digits.py", "\n# %%\nprint(1)\n")
    elif edit == "pins":
        path = tree / "requirements.txt"
        path.write_text(path.read_text().replace("numpy==", "numpy==0.0.0.dev0+"), encoding="utf-8")
    elif edit == "settings":
        settings = {**SETTINGS, "allow_errors": True}
    else:
        monkeypatch.setenv("MNIST_DIR", "/somewhere/mnist")
    assert key(tree, settings) != before


def test_an_edit_of_a_lesson_keeps_the_key(tree):
    before = key(tree)
    append(tree / "docs" / "lessons" / "01-neuron-and-layer.md", "\nOne more sentence.\n")
    assert key(tree) == before


def test_the_build_filled_the_cache_for_every_lab(built_site, monkeypatch):
    """After the strict build, each lab has exactly one entry, under today's key."""
    if not notebook_cache._enabled():
        pytest.skip(f"the notebook cache is off ({notebook_cache.SWITCH}=0)")
    monkeypatch.setenv("MLP_SITE_BUILD", "1")  # as the build sets it (hooks/reader_downloads.py)
    jupyter_settings = _jupyter_settings()
    for lab in sorted((pagekit.DOCS / "labs").glob("*.py")):
        entries = sorted(notebook_cache.CACHE.glob(f"labs_{lab.name}-*.json"))
        expected = notebook_cache.CACHE / f"labs_{lab.name}-{notebook_cache.cache_key(lab, jupyter_settings)}.json"
        assert entries == [expected]


def _jupyter_settings() -> dict:
    from mkdocs.config import load_config

    config = load_config(str(pagekit.ROOT / "mkdocs.yml"))
    return dict(config.plugins["mkdocs-jupyter"].config)
