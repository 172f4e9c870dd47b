"""Material's search entries of each page, reused while nothing they are made from has changed.

Material's search plugin cuts every page's HTML into sections with Python's ``html.parser`` on
every build, live-preview rebuilds included. For this site that is the largest fixed cost of a
rebuild (seconds: the math's markup is most of a page's tags), and after an edit of one sentence
every other page gives the same entries again. A page's entries are a function of its HTML, its
URL, title, table of contents and metadata, and of the plugin's settings and version; this step
wraps the plugin's indexing of one page, stores the entries it appended under a key of all
of those (cache.py), and reuses them when the key matches.

The site's address (different for each test run's server) is kept out of the key and the
stored entries with a placeholder, as render_cache.py does.
"""

from __future__ import annotations

import json
from importlib import metadata

from material.plugins.search.plugin import SearchPlugin

from . import cache
from .render_cache import SITE

SITE_IN_JSON = json.dumps(SITE)[1:-1]  # the placeholder as it stands inside a stored JSON string


def _toc(toc) -> list:
    return [[link.level, link.id, link.title, link.url, _toc(link.children)] for link in toc]


def search_key(page, settings: dict, site_url: str) -> str:
    """The key of everything Material's ``add_entry_from_context`` reads from ``page`` and its settings."""
    made_from = {
        "content": page.content, "url": page.url, "title": str(page.title), "toc": _toc(page.toc),
        "meta": page.meta, "settings": settings, "material": metadata.version("mkdocs-material"),
    }
    text = json.dumps(made_from, sort_keys=True, default=str)
    return cache.key("search", text.replace(site_url, SITE) if site_url else text)


def cached_indexing(index, settings: dict, site_url: str):
    """``index.add_entry_from_context``, wrapped to reuse a page's stored entries."""
    index_page = index.add_entry_from_context

    def add_entry_from_context(page) -> None:
        key = search_key(page, settings, site_url)
        stored = cache.load("build", key)
        if stored is not None:
            index.entries.extend(json.loads(stored.replace(SITE_IN_JSON, site_url)))
            return
        before = len(index.entries)
        index_page(page)
        text = json.dumps(index.entries[before:])
        cache.save("build", key, text.replace(site_url, SITE_IN_JSON) if site_url else text)

    return add_entry_from_context


def on_pre_build(config):
    """Wrap the search plugin's index, which its ``on_config`` made for this build."""
    for plugin in config.plugins.values():
        if isinstance(plugin, SearchPlugin) and plugin.config.enabled:
            index = plugin.search_index
            # Material's search plugin has no setting for a cache of its entries: its index's method is wrapped.
            index.add_entry_from_context = cached_indexing(index, dict(plugin.config), config.site_url or "")
