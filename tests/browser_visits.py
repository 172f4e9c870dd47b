"""Every page of the built site opened in headless Chromium, once per viewport, and read.

The pages are read from the built site (:func:`site_pages`): every page it has, in every edition
(the pages made from ``docs/``, the execution report, the API reference). One visit per page and viewport gathers
everything the browser checks (tests/test_browser.py) need: console errors, failed and foreign
requests, the requests made, the math, the images, the boxes' widths, the page's width on a
phone, and axe's audit in light and dark (tests/axe_audit.py). :func:`observe` does it.

``python -m tests.browser_visits SITE SERVER OUT`` runs it in a process of its own: the tests
start it in the background as soon as the site is served (tests/conftest.py), so the visits
run beside the unit tests instead of after them.

What a visit sees is decided by the page's HTML, the site's style sheets, scripts, fonts and
images, which files the site has (a request for a missing one fails), the viewport, the browser
and the code that visits. A visit's results are kept (mlp_site/cache.py) under a key of all of
those (:func:`visit_key`), so a page that did not change since the last run is not opened again:
after an edit of one page, or of ``mlp_ref`` code that one page shows, only the pages whose HTML
changed are visited.
"""

from __future__ import annotations

import functools
import json
import os
import posixpath
import re
import sys
from pathlib import Path
from urllib.parse import urlparse

from audit.chromium import LAUNCH_ARGS, chromium_path
from mlp_site import cache
from tests import axe_audit, pagekit


class NoBrowser(Exception):
    """No Chromium, or no Playwright, to drive it: the reason."""


def launched_browser():
    """Headless Chromium driven by Playwright (a generator: the browser, then closed).

    Raises :class:`NoBrowser` when there is none to drive."""
    path = chromium_path()
    if path is None:
        raise NoBrowser("no Chromium found (install Debian's chromium or set CHROMIUM_PATH)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise NoBrowser("playwright for Python is not installed") from None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


class PageVisit:
    """A page opened with every console error, failed request and foreign request recorded."""

    def __init__(self, browser, url: str, background: bool = False, **context_options):
        """Open ``url``; with ``background``, return once it starts loading (then call :meth:`settle`)."""
        self.context = browser.new_context(**context_options)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.requested: list[str] = []
        self.page.on("request", lambda r: self.requested.append(r.url))
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed request: {r.url} ({r.failure})"))
        self.page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        self.page.route("**/*", self._only_local)
        self.page.goto(url, wait_until="commit" if background else "load")
        if not background:
            self.settle()

    def settle(self):
        """Wait until the page has loaded and the network is idle (after a background start)."""
        self.page.wait_for_load_state("load")
        self.page.wait_for_load_state("networkidle")

    def _only_local(self, route):
        url = urlparse(route.request.url)
        if url.scheme in {"data", "blob"} or url.hostname == "127.0.0.1":
            route.continue_()
        else:
            self.problems.append(f"request to another host: {route.request.url}")
            route.abort()

    def close(self):
        self.context.close()


def page_url(server: str, source: str) -> str:
    """The URL of the page the build makes from ``source`` (a path under docs/)."""
    return f"{server}/{site_path(pagekit.built_page(Path('.'), source))}"


def site_path(html: Path) -> str:
    """The path under the site's root of a built page's ``index.html``: ``""`` for the home page,
    else its folder with a trailing slash (``"lessons/01-neuron-and-layer/"``)."""
    folder = html.parent.as_posix()
    return "" if folder == "." else f"{folder}/"


LINE = re.compile(r'<p class="mlp-verification">.*?</p>', re.DOTALL)  # mlp_site.verification
REPORT_LINK = re.compile(r'<a href="([^"]+)">(?:Execution report|Отчёт о выполнении)</a>')  # either edition's line


def site_pages(built_site: Path) -> list[str]:
    """The paths under the site (:func:`site_path`) of every page to check in the browser, read from
    the built site: every page it has (each ``index.html``), in every edition: the pages made from
    docs/, the execution report and the API reference's pages, made from mlp_ref's docstrings.
    A page that ends with a verification line (mlp_site.verification ends every page made from
    docs/ with one) must link it to an execution report the site has."""
    pages = {site_path(html.relative_to(built_site)) for html in built_site.rglob("index.html")}
    for html in built_site.rglob("index.html"):
        line = LINE.search(html.read_text(encoding="utf-8"))
        if line is None:
            continue
        path = site_path(html.relative_to(built_site))
        report = REPORT_LINK.search(line[0])
        if report is None:
            raise AssertionError(f"{path or 'home page'}: its verification line links no execution report: {line[0]}")
        pages.add(posixpath.normpath(posixpath.join(path or ".", report[1])).strip("/") + "/")
    return sorted(pages)


def is_under(path: str, section: str) -> bool:
    """Whether a page's site path lies in ``section`` (``"lessons"``, ``"labs"``) of any edition."""
    return section in path.split("/")[:-1]


# Math is rendered when the site is built (mlp_site.build_math): MathML, which the browser draws
# with the site's math font and a screen reader reads; nothing else draws it.
MATH_STATS = r"""() => {
    const rendered = [...document.querySelectorAll('math')];
    // Raw TeX anywhere in the page's text, folded answers and closed tabs included (outside
    // code and the rendered math).
    const raw = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
        if (node.parentElement.closest('pre, code, script, style, math')) continue;
        const text = node.textContent;
        const notebook = node.parentElement.closest('.jp-RenderedMarkdown');
        if (/\\\(|\\\[|\$\$|\\begin\{/.test(text) || (notebook && /\$[^$\n]+\$/.test(text)))
            raw.push(text.trim().slice(0, 80));
    }
    // The math font (mlp_site/build_math.py FONT_FAMILY) loaded, when the page has math: without it
    // the browser draws MathML with a text font, which has no stretchy delimiters.
    const font = [...document.fonts].filter(f => f.family.replace(/["']/g, '') === 'Latin Modern Math Subset');
    return {
        rendered: rendered.length,
        errors: document.querySelectorAll('merror, .temml-error, .katex-error').length,
        outside_math: [...document.querySelectorAll('.mlp-math')].filter(box => box.querySelector(':scope > math') === null).length,
        drawn_in_html: document.querySelectorAll('.katex, .katex-html, mjx-container').length,
        font: rendered.length === 0 || font.some(f => f.status === 'loaded'),
        scripts: [...document.scripts].filter(s => /mathjax|katex|temml/i.test(s.src + s.textContent)).length,
        raw,
    };
}"""

IMAGES = """async () => {
    const imgs = [...document.images];
    await Promise.all(imgs.map(i => i.decode().catch(() => null)));
    return imgs.map(i => ({src: i.src.slice(0, 80), ok: i.complete && i.naturalWidth > 0,
                           alt: i.getAttribute('alt')}));
}"""

PHONE_LAYOUT = """() => ({
    width: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
})"""

# Boxes whose content is wider than they are; boxes that scroll sideways without showing it
# (the shadow at an edge with more behind it, docs/stylesheets/extra.css); and the drawn
# width of each display equation and figure (null when hidden in a closed answer or tab),
# to compare a phone with a laptop.
BOXES = """() => {
    const shown = e => e.getClientRects().length > 0;
    const wider = box => box.scrollWidth > box.clientWidth + 1;
    const scroller = e => {
        for (let box = e; box && box !== document.body; box = box.parentElement)
            if (/auto|scroll/.test(getComputedStyle(box).overflowX)) return box;
        return null;
    };
    const scrolling = [...new Set([...document.querySelectorAll('pre > code, pre, table, .mlp-math, .mlp-figure')]
        .filter(shown).map(scroller))].filter(box => box && wider(box));
    const equations = [...document.querySelectorAll('.mlp-math')];
    const start = e => e.textContent.trim().slice(0, 60);
    return {
        equations: equations.filter(shown).filter(wider).map(start),
        tables: [...document.querySelectorAll('table')].filter(shown).filter(t => {
            const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
            return wider(box) || t.getBoundingClientRect().width > box.clientWidth + 1;
        }).map(start),
        code: [...document.querySelectorAll('pre > code, .jp-Cell pre')].filter(shown).filter(wider).map(start),
        scrolling_unmarked: scrolling.filter(box => !getComputedStyle(box).backgroundImage.includes('gradient')).map(start),
        // A display <math> is as wide as its line; what it draws is its children, end to end.
        equation_widths: equations.map(e => {
            const rects = [...e.querySelectorAll(':scope > math > *')].map(b => b.getBoundingClientRect());
            return shown(e) && rects.length ? Math.max(...rects.map(r => r.right)) - Math.min(...rects.map(r => r.left)) : null;
        }),
        figure_widths: [...document.querySelectorAll('.mlp-figure img')].map(i => shown(i) ? i.getBoundingClientRect().width : null),
    };
}"""


# The evaluations of each viewport, and its browser context's options. axe starts after them
# (it leaves the page in the dark scheme). The desktop is as tall as Lighthouse's (940 px): axe's
# target-size rule checks only the links that the sidebars show, and at Playwright's default 720 px
# the ones too close together were scrolled out of the sidebar's view.
VIEWPORTS = {
    "desktop": ({"math": MATH_STATS, "images": IMAGES, "boxes": BOXES}, {"viewport": {"width": 1280, "height": 940}}),
    "phone": ({"layout": PHONE_LAYOUT, "boxes": BOXES},
              {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}),
}
def observe(browser, server: str, built_site: Path) -> dict[str, dict[str, dict]]:
    """Open every page of :func:`site_pages` once per viewport and run that viewport's evaluations.

    Returns ``{viewport: {site path: results}}``; each page's results hold ``problems`` (console
    errors, failed or foreign requests), the URLs it ``requested``, one entry per evaluation and
    ``axe`` (tests/axe_audit.py; kept in the cache while the page and the site's assets are
    unchanged), so that the checks share one visit per page and viewport. Pages go through in one
    stream, desktop and phone visits alike, with as many in flight as the machine has cores: each
    visit loads, is read and starts its audit, and is collected and closed only once the pages
    after it have started theirs, so that the audits of two pages (each in its own renderer
    process) run at the same time, beside the loads of the next ones.
    """
    pages: dict[str, dict[str, dict]] = {viewport: {} for viewport in VIEWPORTS}
    kept = KeptVisits(built_site, server, browser.version)
    queue = []
    for viewport in VIEWPORTS:
        for path in site_pages(built_site):
            seen = kept.get(viewport, path)
            if seen is None:
                queue.append((viewport, path))
            else:
                pages[viewport][path] = seen
    in_flight: list[dict] = []  # each: viewport, path, visit; once read: results, audit
    window = max(1, os.cpu_count() or 1)
    while queue or in_flight:
        while queue and len(in_flight) < window:
            viewport, path = queue.pop(0)
            visit = PageVisit(browser, f"{server}/{path}", background=True, **VIEWPORTS[viewport][1])
            in_flight.append({"viewport": viewport, "path": path, "visit": visit})
        for item in in_flight:  # read each loaded page and start its audit
            if "audit" not in item:
                visit, options = item["visit"], VIEWPORTS[item["viewport"]]
                visit.settle()
                item["results"] = {name: visit.page.evaluate(script) for name, script in options[0].items()}
                html = built_site / item["path"] / "index.html"
                item["audit"] = axe_audit.Audit(visit.page, built_site, html, options[1])
        item = in_flight.pop(0)
        visit = item["visit"]
        seen = {**item["results"], "axe": item["audit"].result(),
                "problems": list(visit.problems), "requested": list(visit.requested)}
        pages[item["viewport"]][item["path"]] = {**seen, "reused": False}
        kept.put(item["viewport"], item["path"], seen)
        visit.close()
    return pages


SERVER_MARK = "http://SERVER"  # the served address in a kept visit: the port changes from run to run


def visit_key(site: Path, path: str, viewport: str, browser_version: str) -> str:
    """The key (mlp_site/cache.py) of everything one visit of the page at ``path`` depends on; the same key, the same results.

    It covers the page's HTML (as axe's key reads it: :func:`tests.axe_audit._for_key` leaves out
    the served port and the verification line's figures, the time and commit of a build), the
    site's style sheets, scripts, fonts and images (:func:`tests.axe_audit.assets_digest`), the
    names of all the site's files (a page that requests a file the site lost must fail again),
    the viewport and its context options, the browser's version, axe's script and the code of
    this module and of tests/axe_audit.py. The content of the site's other pages and data files
    (the search index, the sitemap) is not in it: a visit never reads them, except the search
    index, which Material's search loads in a worker, and which the search tests
    (tests/test_browser.py) query on every run.
    """
    return cache.key("visit", [viewport, VIEWPORTS[viewport][1], browser_version, axe_audit.assets_digest(site),
                               file_names(site)], Path(__file__), Path(axe_audit.__file__), axe_audit.axe_source(),
                     axe_audit._for_key((site / path / "index.html").read_bytes()))


@functools.cache
def file_names(site: Path) -> tuple[str, ...]:
    """The paths of all the built site's files, under its root, sorted."""
    return tuple(sorted(file.relative_to(site).as_posix() for file in site.rglob("*") if file.is_file()))


class KeptVisits:
    """The visits kept in the cache from earlier runs, by :func:`visit_key`."""

    def __init__(self, site: Path, server: str, browser_version: str):
        self.site, self.server, self.browser_version = site, server, browser_version

    def get(self, viewport: str, path: str) -> dict | None:
        """What an earlier visit of the same page saw, with this run's address; None if there is none."""
        kept = cache.load("browser", visit_key(self.site, path, viewport, self.browser_version))
        if kept is None:
            return None
        seen = json.loads(kept.replace(SERVER_MARK, self.server))
        return {**seen, "axe": {**seen["axe"], "reused": True}, "reused": True}

    def put(self, viewport: str, path: str, seen: dict) -> None:
        """Keep what a visit saw, with the served address replaced by :data:`SERVER_MARK`."""
        cache.save("browser", visit_key(self.site, path, viewport, self.browser_version),
                   json.dumps(seen).replace(self.server, SERVER_MARK))


def main(argv: list[str]) -> int:
    """``python -m tests.browser_visits SITE SERVER OUT``: :func:`observe` the site served at
    SERVER from the folder SITE, and write the results to OUT as JSON. Exit status 3, with the
    reason on standard output, when there is no browser to drive."""
    site, server, out = Path(argv[0]), argv[1], Path(argv[2])
    try:
        browsers = launched_browser()
        browser = next(browsers)
    except NoBrowser as reason:
        print(reason)
        return 3
    try:
        out.write_text(json.dumps(observe(browser, server, site)), encoding="utf-8")
    finally:
        browsers.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
