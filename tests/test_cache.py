"""The one cache (mlp_site/cache.py): entries kept by key, side by side, the least recently used trimmed.

``make serve``, ``make site`` and ``make test`` build in different environments (the site's
address, the BLAS threads, ...), so their keys for the same page differ: each run must find its
own entry afterwards, whichever ran in between. A change of anything a key covers must miss;
the trim keeps the newest entries within the bound.
"""

from __future__ import annotations

import os
import platform
import time
import types
from pathlib import Path

import pytest

from mlp_site import cache, render_cache
from tests import pagekit



@pytest.fixture
def kept(tmp_path, monkeypatch) -> Path:
    """The cache's folder, for this test only, switched on."""
    monkeypatch.setattr(cache, "FOLDER", tmp_path / "cache")
    monkeypatch.setenv(cache.SWITCH, "1")
    return tmp_path / "cache"


def render_in(config: dict, text: str, monkeypatch) -> tuple[int, str]:
    """Lesson 1's render through mlp_site/render_cache.py in a run of ``config`` (its site address and
    environment): how many times the page was rendered (0: the cache answered), and its content."""
    for name in ("OPENBLAS_NUM_THREADS", "MLP_SITE_BUILD"):
        monkeypatch.delenv(name, raising=False)
    for name, value in config["environment"].items():
        monkeypatch.setenv(name, value)
    rendered = []

    def render(config, files):
        rendered.append(page.markdown)
        page.content = f'<p>{page.markdown}<a href="{site.site_url}x.whl">wheel</a></p>'
        page.toc, page.title, page.present_anchor_ids = [], "x", set()

    page = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="lessons/01.md", generated_by=None),
                                 markdown=text, render=render)
    site = types.SimpleNamespace(site_url=config["site_url"])
    files = types.SimpleNamespace(documentation_pages=lambda: [])
    render_cache.on_pre_page(page, site, files).render(site, files)
    return len(rendered), page.content


SITE = {"site_url": "http://127.0.0.1:8000/", "environment": {}}  # make site / make serve
TEST = {"site_url": "http://127.0.0.1:41234/", "environment": {"OPENBLAS_NUM_THREADS": "1"}}  # make test


def test_a_site_run_and_a_test_run_keep_their_entries_side_by_side(kept, monkeypatch):
    text = "# Lesson 1\n\nA neuron.\n"
    assert render_in(SITE, text, monkeypatch)[0] == 1
    assert render_in(TEST, text, monkeypatch)[0] == 1  # another key: its own entry
    assert len(list(kept.glob("build/render-*.json"))) == 2
    for config in (SITE, TEST, SITE):  # both hit afterwards, whichever ran last
        renders, content = render_in(config, text, monkeypatch)
        assert renders == 0 and config["site_url"] in content
    assert render_in(SITE, text + "One more sentence.\n", monkeypatch)[0] == 1  # a key input changed: a miss
    assert len(list(kept.glob("build/render-*.json"))) == 3


@pytest.mark.parametrize("change", ["kind", "text", "json", "file", "missing file", "python"])
def test_a_change_of_any_part_of_a_key_changes_it(tmp_path, monkeypatch, change):
    code = tmp_path / "code.py"
    code.write_text("X = 1\n", encoding="utf-8")

    def key(kind="page", text="a", value=None, path=code):
        return cache.key(kind, text, value or {"a": 1, "b": [1, 2]}, path)

    before = key()
    assert key(value={"b": [1, 2], "a": 1}) == before  # the same value, its keys in another order
    if change == "kind":
        assert key(kind="search") != before
    elif change == "text":
        assert key(text="b") != before and cache.key("page", "ab") != cache.key("page", "a", "b")
    elif change == "json":
        assert key(value={"a": 1, "b": [2, 1]}) != before
    elif change == "file":
        code.write_text("X = 2\n", encoding="utf-8")
        assert key() != before
    elif change == "missing file":
        assert key(path=tmp_path / "gone.py") != before
    else:
        monkeypatch.setattr(platform, "python_version", lambda: "3.99.0")
        assert key() != before


def test_an_entry_is_read_back_and_nothing_is_kept_or_read_with_the_cache_off(kept, monkeypatch):
    cache.save("build", "page-1", {"html": "<p>x</p>"})
    assert cache.load("build", "page-1") == {"html": "<p>x</p>"}
    assert cache.load("build", "page-2") is None
    monkeypatch.setenv(cache.SWITCH, "0")
    assert cache.load("build", "page-1") is None
    cache.save("build", "page-3", [1])
    assert not (kept / "build" / "page-3.json").exists()
    assert not cache.folder("reader", "env-1").is_relative_to(kept)


def test_the_trim_keeps_the_newest_entries_within_the_bound(kept):
    now = time.time() - 1000
    for age, name in enumerate(["newest", "new", "old", "oldest"]):
        cache.save("build", name, "x" * 990)  # about 1,000 bytes each
        os.utime(kept / "build" / f"{name}.json", (now - age, now - age))
    env = cache.folder("reader", "env")  # a folder entry: its files count
    (env / "python").write_bytes(b"\0" * 1000)
    os.utime(env, (now - 10, now - 10))  # the least recently used
    (kept / "visits").mkdir()  # a namespace of an older layout
    assert cache.load("build", "old") is not None  # a hit: now the most recently used
    cache.trim(limit=2100)  # room for two
    assert sorted(path.stem for path in (kept / "build").iterdir()) == ["newest", "old"]
    assert not env.exists() and not (kept / "visits").exists()
    assert sorted(path.name for path in kept.iterdir()) == ["build", "reader"]


def test_no_other_code_reads_the_switch_or_makes_a_cache_folder():
    """One cache module: mlp_site/cache.py is the only code that reads MLP_CACHE or names .cache/."""
    offenders = []
    for folder in ("site_plugin", "tests", "prose", "audit"):
        for path in sorted((pagekit.ROOT / folder).rglob("*.py")):
            code = path.read_text(encoding="utf-8")
            if path.name not in ("cache.py", "test_cache.py") and ('"MLP_CACHE"' in code or '".cache"' in code):
                offenders.append(str(path.relative_to(pagekit.ROOT)))
    assert offenders == []
