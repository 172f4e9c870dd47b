"""The built site in headless Chromium, as a reader sees it, with the network unplugged.

Every page loads with no console error, no failed request and no request to any host but
127.0.0.1; its math came rendered in the HTML (no raw TeX anywhere in its text, MathML for a
screen reader, no math script) and is drawn at full size on a phone; every image has loaded;
at 1280 px no equation, table or code block is wider than its box; a page weighs less than
its budget; a collapsible answer opens on click; search finds a word that only lesson 1
contains; nothing is wider than a phone's screen;
axe finds no serious or critical violation, light or dark, on a desktop or a phone
(tests/axe_audit.py).

Chromium is Debian's (``/usr/bin/chromium``) or the one named by ``CHROMIUM_PATH`` (audit/chromium.py);
Playwright never downloads a browser. Without one the test skips with the reason, unless
``MLP_REQUIRE_BROWSER`` is set (``.ci/run`` sets it), which makes that a failure.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from audit.chromium import LAUNCH_ARGS, chromium_path
from tests import axe_audit, pagekit
from tests.page_blocks import STATS


def skip_or_fail(reason: str):
    if os.environ.get("MLP_REQUIRE_BROWSER"):
        pytest.fail(f"browser test required (MLP_REQUIRE_BROWSER is set) but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    if path is None:
        skip_or_fail("no Chromium found (install Debian's chromium or set CHROMIUM_PATH)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright for Python is not installed")
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


def page_urls(server) -> list[tuple[str, str]]:
    """(source file, URL of its built page) for every page in the nav and the execution report
    (a page the build writes, outside the nav)."""
    urls = []
    for english in [*pagekit.nav_sources(), pagekit.load_hook("verification").REPORT]:
        # and its Russian twin, "lessons/x.ru.md", built at ru/lessons/x/ (tests/test_editions.py)
        for source in (english, re.sub(r"\.(md|py)$", r".ru.\1", english)):
            folder = pagekit.built_page(Path("."), source).parent.as_posix()  # "." for the home page
            urls.append((source, f"{server}/" if folder == "." else f"{server}/{folder}/"))
    return urls


# Math is rendered when the site is built (hooks/build_math.py): KaTeX's HTML draws it, the
# MathML beside it (with the TeX as annotation) is what a screen reader reads.
MATH_STATS = r"""() => {
    const rendered = [...document.querySelectorAll('.katex')];
    // Raw TeX anywhere in the page's text, folded answers and closed tabs included (outside
    // code and the rendered math, whose MathML carries the TeX as an annotation).
    const raw = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
        if (node.parentElement.closest('pre, code, script, style, .katex')) continue;
        const text = node.textContent;
        const notebook = node.parentElement.closest('.jp-RenderedMarkdown');
        if (/\\\(|\\\[|\$\$|\\begin\{/.test(text) || (notebook && /\$[^$\n]+\$/.test(text)))
            raw.push(text.trim().slice(0, 80));
    }
    return {
        rendered: rendered.length,
        errors: document.querySelectorAll('.katex-error').length,
        without_mathml: rendered.filter(k => !k.querySelector('.katex-mathml math annotation')).length,
        drawing_not_hidden: rendered.filter(k => k.querySelector('.katex-html[aria-hidden="true"]') === null).length,
        scripts: [...document.scripts].filter(s => /mathjax|katex/i.test(s.src + s.textContent)).length,
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
        equations: equations.filter(shown).filter(wider).map(e => e.querySelector('annotation').textContent.slice(0, 60)),
        tables: [...document.querySelectorAll('table')].filter(shown).filter(t => {
            const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
            return wider(box) || t.getBoundingClientRect().width > box.clientWidth + 1;
        }).map(start),
        code: [...document.querySelectorAll('pre > code, .jp-Cell pre')].filter(shown).filter(wider).map(start),
        scrolling_unmarked: scrolling.filter(box => !getComputedStyle(box).backgroundImage.includes('gradient')).map(start),
        // An equation's drawing is a row of .katex-base boxes: its width is theirs, end to end.
        equation_widths: equations.map(e => {
            const rects = [...e.querySelectorAll('.katex-html > .katex-base')].map(b => b.getBoundingClientRect());
            return shown(e) && rects.length ? Math.max(...rects.map(r => r.right)) - Math.min(...rects.map(r => r.left)) : null;
        }),
        figure_widths: [...document.querySelectorAll('.mlp-figure img')].map(i => shown(i) ? i.getBoundingClientRect().width : null),
    };
}"""


# The evaluations of each viewport, and its browser context's options. axe runs after them
# (it leaves the page in the dark scheme).
VIEWPORTS = {
    "desktop": ({"math": MATH_STATS, "images": IMAGES, "boxes": BOXES}, {}),
    "phone": ({"layout": PHONE_LAYOUT, "boxes": BOXES},
              {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}),
}


def observe(browser, server, built_site) -> dict[str, dict[str, dict]]:
    """Open every page once per viewport and run that viewport's evaluations.

    Returns {viewport: {source: results}}; each page's results hold ``problems`` (console errors,
    failed or foreign requests), the URLs it ``requested``, one entry per evaluation and ``axe``
    (tests/axe_audit.py; kept in .cache/axe/ while the page and the site's assets are unchanged), so that
    the checks below share one visit per page and viewport. One page per core is in flight: while
    this process reads one, the next ones load in the browser, desktop and phone visits in one stream.
    """
    queue = [(viewport, source, url) for viewport in VIEWPORTS for source, url in page_urls(server)]
    observed: dict[str, dict[str, dict]] = {viewport: {} for viewport in VIEWPORTS}
    in_flight: list[tuple[str, str, PageVisit]] = []
    window = max(1, os.cpu_count() or 1)
    while queue or in_flight:
        while queue and len(in_flight) < window:
            viewport, source, url = queue.pop(0)
            in_flight.append((viewport, source, PageVisit(browser, url, background=True, **VIEWPORTS[viewport][1])))
        viewport, source, visit = in_flight.pop(0)
        visit.settle()
        results = {name: visit.page.evaluate(script) for name, script in VIEWPORTS[viewport][0].items()}
        results["axe"] = axe_audit.cached_audit(visit.page, built_site, pagekit.built_page(built_site, source),
                                                VIEWPORTS[viewport][1])
        observed[viewport][source] = {**results, "problems": list(visit.problems), "requested": list(visit.requested)}
        visit.close()
    return observed


@pytest.fixture(scope="module")
def visits(browser, server, built_site):
    observed = observe(browser, server, built_site)
    reused = [seen["axe"]["reused"] for pages in observed.values() for seen in pages.values()]
    STATS["axe audits run"], STATS["axe audits reused"] = reused.count(False), reused.count(True)
    return observed


@pytest.fixture(scope="module")
def desktop(visits):
    STATS["pages checked in the browser"] = len(visits["desktop"])
    return visits["desktop"]


@pytest.fixture(scope="module")
def phone(visits):
    return visits["phone"]


def test_every_page_loads_cleanly(desktop):
    failures = {}
    for source, seen in desktop.items():
        problems = list(seen["problems"])
        math = seen["math"]
        if math["raw"] or math["errors"]:
            problems.append(f"math not rendered (raw TeX in the text, or a KaTeX error): {math}")
        if math["without_mathml"] or math["drawing_not_hidden"]:
            problems.append(f"math a screen reader cannot read (no MathML) or reads twice: {math}")
        if math["scripts"]:
            problems.append(f"the page loads a math script; its math is rendered at build time: {math}")
        for image in seen["images"]:
            if not image["ok"]:
                problems.append(f"image did not load: {image['src']}")
            if not image["alt"]:
                problems.append(f"image without alt text: {image['src']}")
        if problems:
            failures[source] = problems
    assert failures == {}, json.dumps(failures, indent=2)


def test_lesson_pages_have_rendered_math(desktop):
    lessons = {source: seen["math"]["rendered"] for source, seen in desktop.items() if source.startswith("lessons/")}
    assert lessons and all(count > 0 for count in lessons.values()), f"rendered equations per lesson: {lessons}"


def test_nothing_is_cut_at_laptop_width(desktop):
    """At 1280 px no display equation, table or code block is wider than its box."""
    cut = {source: {kind: seen["boxes"][kind] for kind in ("equations", "tables", "code") if seen["boxes"][kind]}
           for source, seen in desktop.items()}
    cut = {source: boxes for source, boxes in cut.items() if boxes}
    assert cut == {}, json.dumps(cut, indent=2)


# Compressed (gzip) weight of everything a page loads, in KB; the labs carry their outputs.
WEIGHT_BUDGET_KB = {"labs/": 900, "": 600}


def page_weight_kb(built_site: Path, urls: list[str]) -> tuple[float, float]:
    """(uncompressed, gzip-compressed) KB of the site's files behind ``urls``, each counted once."""
    raw = packed = 0
    for path in sorted({unquote(urlparse(url).path) for url in urls if urlparse(url).hostname == "127.0.0.1"}):
        file = built_site / path.lstrip("/")
        if file.is_dir():
            file = file / "index.html"
        if file.is_file():
            data = file.read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, compresslevel=6))
    return raw / 1024, packed / 1024


def test_pages_stay_within_their_weight(desktop, built_site):
    heavy = {}
    for source, seen in desktop.items():
        raw, packed = page_weight_kb(built_site, seen["requested"])
        budget = next(kb for prefix, kb in WEIGHT_BUDGET_KB.items() if source.startswith(prefix))
        if packed > budget:
            heavy[source] = f"{packed:.0f} KB compressed ({raw:.0f} KB uncompressed), budget {budget} KB"
    assert heavy == {}, json.dumps(heavy, indent=2)


def test_collapsible_answer_opens_on_click(browser, server):
    url = dict(page_urls(server))["lessons/01-neuron-and-layer.md"]
    visit = PageVisit(browser, url)
    details = visit.page.locator("details").first
    assert details.get_attribute("open") is None
    details.locator("summary").click()
    visit.page.wait_for_function("() => document.querySelector('details').open")
    assert visit.problems == []
    visit.close()


WORD = {"": r"[a-z]{8,}", "ru/": r"[а-яё]{8,}"}


def word_only_in_lesson_one(built_site, edition: str = "") -> str:
    """A long word of lesson 1 that no other page of the edition (``""`` or ``"ru/"``) has."""
    index = json.loads((built_site / edition / "search" / "search_index.json").read_text(encoding="utf-8"))
    words_by_page: dict[str, set[str]] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#")[0]
        text = re.sub(r"<[^>]+>", " ", doc["title"] + " " + doc["text"]).lower()
        words_by_page.setdefault(page, set()).update(re.findall(WORD[edition], text))
    lesson = "lessons/01-neuron-and-layer/"
    elsewhere = set().union(*(words for page, words in words_by_page.items() if page != lesson))
    # Search stems words ("программа" finds "программное"): no other page may have a word that
    # begins as this one does.
    stem = lambda word: word[:max(5, len(word) - 3)]  # noqa: E731
    taken = {stem(word) for word in elsewhere} | {word[:n] for word in elsewhere for n in range(5, len(word))}
    candidates = sorted(w for w in words_by_page[lesson] - elsewhere if stem(w) not in taken)
    assert candidates, "lesson 1 has no word of its own to search for"
    counts = Counter(re.findall(WORD[edition], " ".join(d["text"].lower() for d in index["docs"]
                                                        if d["location"].startswith(lesson))))
    return max(candidates, key=lambda w: (counts[w], w))


@pytest.mark.parametrize("edition", ["", "ru/"])
def test_search_finds_a_word_only_lesson_one_has(browser, server, built_site, edition):
    """In each edition, on its home page: a word of its lesson 1 finds that lesson, in that
    edition (each edition searches its own pages: hooks/edition.py)."""
    word = word_only_in_lesson_one(built_site, edition)
    visit = PageVisit(browser, f"{server}/{edition}")
    box = visit.page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(word, delay=30)  # Material searches on key events, not on fill()
    result = visit.page.locator(".md-search-result__item a").first
    result.wait_for(timeout=15000)
    href = visit.page.evaluate("a => a.href", result.element_handle())
    assert href.startswith(f"{server}/{edition}lessons/01-neuron-and-layer/"), (word, href)
    assert visit.problems == []
    visit.close()


def test_an_english_search_offers_no_russian_page(browser, server):
    """A word both editions use (a name from the code) finds only English pages on an English page."""
    visit = PageVisit(browser, f"{server}/lessons/03-forward-pass/")
    box = visit.page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("softmax", delay=30)
    visit.page.locator(".md-search-result__item a").first.wait_for(timeout=15000)
    hrefs = visit.page.evaluate("() => [...document.querySelectorAll('.md-search-result__item a')].map(a => a.href)")
    assert hrefs and not [h for h in hrefs if "/ru/" in h], hrefs
    visit.close()


def test_pages_fit_a_phone_screen(phone, desktop):
    failures = []
    for source, seen in phone.items():
        width = seen["layout"]["width"]
        if width[0] > width[1] + 1:
            failures.append(f"{source}: page is {width[0]}px wide on a {width[1]}px screen")
        # Display equations and figures keep their size (a wide one scrolls in its box): drawn
        # at least as wide as at 1280 px, where a figure may be scaled down to the column.
        for kind in ("equation", "figure"):
            pairs = zip(desktop[source]["boxes"][f"{kind}_widths"], seen["boxes"][f"{kind}_widths"], strict=True)
            shrunk = [f"{laptop:.0f} px -> {phone_width:.0f} px" for laptop, phone_width in pairs
                      if laptop is not None and phone_width is not None and phone_width < laptop - 1]
            if shrunk:
                failures.append(f"{source}: {kind}s drawn smaller on a phone: {shrunk}")
        if seen["boxes"]["scrolling_unmarked"]:
            failures.append(f"{source}: boxes that scroll sideways without showing it: {seen['boxes']['scrolling_unmarked']}")
        failures += [f"{source} on a phone: {problem}" for problem in seen["problems"]]
    assert failures == [], "\n".join(failures)


def test_no_serious_accessibility_violation(visits):
    """axe: no serious or critical violation on any page, light and dark, at 1280 and 390 px."""
    failures = []
    for viewport, pages in visits.items():
        for source, seen in pages.items():
            for expected, run in zip(("default", "slate"), (seen["axe"]["light"], seen["axe"]["dark"])):
                where = f"{source} ({viewport}, {expected})"
                if run["scheme"] != expected:
                    failures.append(f"{where}: axe ran with data-md-color-scheme={run['scheme']!r}")
                failures += [f"{where}: {v['id']} ({v['impact']}) on {v['count']} nodes, e.g. {v['nodes']}"
                             for v in axe_audit.blocking(run)]
    assert failures == [], "\n".join(failures)
