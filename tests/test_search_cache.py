"""Material's search entries reused from the cache are the entries Material would make now.

mlp_site.search_cache stores each page's entries under a key of what Material's indexing
reads. A reused entry must equal a fresh indexing of the same page, for any site address, and
any change of the page (its HTML, its address, its metadata) must index it again.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from material.plugins.search.plugin import SearchIndex, SearchPlugin
from mkdocs.structure.toc import get_toc

from mlp_site import cache

from mlp_site import search_cache

SITE = "http://127.0.0.1:8000/"
HTML = (f'<h1 id="the-neuron">The neuron</h1><p>Install from <a href="{SITE}downloads/x.whl">{SITE}'
        'downloads/x.whl</a>.</p><h2 id="the-math">The math</h2><p>z = w·x + b, shape (B, d_out).</p>'
        '<h2 id="code">Code</h2><pre><code>print(1)</code></pre>')


def page(content=HTML, url="lessons/01-neuron/", site=SITE, meta=None):
    toc = get_toc([{"level": 1, "id": "the-neuron", "name": "The neuron", "children": [
        {"level": 2, "id": "the-math", "name": "The math", "children": []},
        {"level": 2, "id": "code", "name": "Code", "children": []}]}])
    return SimpleNamespace(content=content.replace(SITE, site), url=url, title="The neuron", toc=toc, meta=meta or {})


@pytest.fixture(autouse=True)
def kept(tmp_path, monkeypatch):
    """The cache's entries, in a folder of this test."""
    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    monkeypatch.setenv(cache.SWITCH, "1")
    return tmp_path / "build"


@pytest.fixture
def settings():
    plugin = SearchPlugin()
    plugin.load_config({})
    return dict(plugin.config)


def fresh(settings, a_page):
    index = SearchIndex(**settings)
    index.add_entry_from_context(a_page)
    return index.entries


def through_cache(settings, a_page, site=SITE):
    index = SearchIndex(**settings)
    search_cache.cached_indexing(index, settings, site)(a_page)
    return index.entries


def test_a_reused_entry_is_the_fresh_indexing_for_any_site_address(settings, kept):
    expected = fresh(settings, page())
    assert len(expected) == 3 and SITE in expected[0]["text"]  # three sections; the address is in the text
    assert through_cache(settings, page()) == expected  # stored
    assert len(list(kept.glob("*.json"))) == 1
    stored = next(kept.glob("*.json")).read_text(encoding="utf-8")
    assert SITE not in stored  # kept with a placeholder
    assert through_cache(settings, page()) == expected  # reused
    other = "http://127.0.0.1:40123/"
    assert through_cache(settings, page(site=other), site=other) == fresh(settings, page(site=other))
    assert len(list(kept.glob("*.json"))) == 1  # the same entry served both addresses


@pytest.mark.parametrize("change", [
    {"content": HTML.replace("shape (B, d_out)", "shape (B, d_in)")},
    {"url": "lessons/02-depth/"},
    {"meta": {"search": {"boost": 2}}},
])
def test_any_change_of_the_page_indexes_it_again(settings, kept, change):
    through_cache(settings, page())
    changed = page(**change)
    assert through_cache(settings, changed) == fresh(settings, changed) != fresh(settings, page())
    assert len(list(kept.glob("*.json"))) == 2  # kept by key: the page's old entry beside the new one
    assert through_cache(settings, page()) == fresh(settings, page())  # and found again
