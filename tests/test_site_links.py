"""Every link of the built site leads somewhere: each internal ``href`` and ``src`` of every page of
both editions names a file the site has (downloads included), and each ``#anchor`` an element of
that page. Generated Markdown is not passed through MkDocs' link rewriting, so a link a generator
prints is checked here, on the built pages, where a reader meets it.

Ours, not LinkChecker: LinkChecker 10.6 crawled the served site at about 0.7 s a URL on this
2-core machine (over ten minutes); reading the files from disk takes seconds.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class LinkParser(HTMLParser):
    """The ids of a page (what a ``#fragment`` may name) and every URL it links or loads."""

    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("id", "name") if tag == "a" else ("id",):
            if attrs.get(name):
                self.ids.add(attrs[name])
        for name in ("href", "src"):
            if attrs.get(name) and not (tag == "link" and attrs.get("rel") in {"canonical", "alternate"}):
                self.urls.append(attrs[name])


def _target(site: Path, page: Path, url: str, base: str) -> tuple[Path, str] | None:
    """The file a page's ``url`` names and its fragment; None for a URL of another host or scheme."""
    if url.startswith(base):  # the site's own absolute address (the reader's install line uses it)
        url = "/" + url[len(base):]
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    here = "/" + page.parent.relative_to(site).as_posix() + "/"
    path = posixpath.normpath(posixpath.join(here, unquote(parts.path))) if parts.path else "/" + page.relative_to(site).as_posix()
    if parts.path.endswith("/") or (site / path.lstrip("/")).is_dir():
        path = path.rstrip("/") + "/index.html"
    return site / path.lstrip("/"), parts.fragment


def broken_links(site: Path, base: str) -> list[str]:
    """``page: url (what is wrong)`` for every link of the built ``site`` that leads nowhere."""
    pages = {page: LinkParser() for page in sorted(site.rglob("*.html"))}
    for page, parser in pages.items():
        parser.feed(page.read_text(encoding="utf-8"))
    broken = []
    for page, parser in pages.items():
        for url in dict.fromkeys(parser.urls):
            target = _target(site, page, url, base)
            if target is None:
                continue
            file, fragment = target
            where = f"{page.relative_to(site).as_posix()}: {url}"
            if not file.resolve().is_relative_to(site.resolve()) or not file.is_file():
                broken.append(f"{where} (no such file)")
            elif fragment and file in pages and unquote(fragment) not in pages[file].ids:
                broken.append(f"{where} (no element with id {fragment!r})")
    return broken


def test_every_link_and_anchor_resolves(built_site, server):
    broken = broken_links(built_site, server + "/")
    by_page = Counter(line.split(":", 1)[0] for line in broken)
    assert broken == [], f"{len(broken)} broken links on {len(by_page)} pages: {dict(by_page)}"


def test_a_broken_link_is_found(tmp_path):
    """The crawl itself: a missing page, a missing anchor and a link to Markdown are each reported."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h2 id="here">x</h2><a href="#here">ok</a><a href="#gone">x</a>'
                                               '<a href="../b/">ok</a><a href="../b.md">x</a><img src="/a/">'
                                               '<a href="https://example.org/x">other host</a>'
                                               '<a href="http://site/c/">x</a>')
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text('<a href="../a/#here">ok</a><a href="../a/#nowhere">x</a>')
    assert broken_links(tmp_path, "http://site/") == [
        "a/index.html: #gone (no element with id 'gone')",
        "a/index.html: ../b.md (no such file)",
        "a/index.html: http://site/c/ (no such file)",
        "b/index.html: ../a/#nowhere (no element with id 'nowhere')",
    ]
