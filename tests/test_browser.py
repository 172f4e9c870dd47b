"""The built site in headless Chromium, as a reader sees it, with the network unplugged.

Every page loads with no console error, no failed request and no request to any host but
127.0.0.1; math is typeset; every image has loaded; a collapsible answer opens on click;
search finds a word that only lesson 1 contains; nothing is wider than a phone's screen.

Chromium is Debian's (``/usr/bin/chromium``) or the one named by ``CHROMIUM_PATH``;
Playwright never downloads a browser. Without one the test skips with the reason, unless
``MLP_REQUIRE_BROWSER`` is set (``.ci/run`` sets it), which makes that a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests import pagekit
from tests.page_blocks import STATS

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", "/usr/bin/chromium-browser",
                      shutil.which("chromium"), shutil.which("google-chrome")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


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
    """(source file, URL of its built page) for every page in the nav."""
    urls = []
    for source in pagekit.nav_sources():
        folder = pagekit.built_page(Path("."), source).parent.as_posix()  # "." for the home page
        urls.append((source, f"{server}/" if folder == "." else f"{server}/{folder}/"))
    return urls


MATH_STATS = """() => ({
    sources: document.querySelectorAll('.arithmatex').length
             + document.querySelectorAll('.jp-RenderedMarkdown').length,
    typeset: document.querySelectorAll('mjx-container').length,
    errors: document.querySelectorAll('mjx-merror').length,
    raw: [...document.querySelectorAll('.arithmatex')].filter(e => !e.querySelector('mjx-container')).length,
    // Notebook Markdown keeps $...$: any left in the text (outside code) was not typeset.
    raw_notebook: [...document.querySelectorAll('.jp-RenderedMarkdown')].filter(e => {
        const copy = e.cloneNode(true);
        copy.querySelectorAll('code, pre, mjx-container').forEach(c => c.remove());
        return /\\$[^$\\n]+\\$/.test(copy.textContent);
    }).length,
})"""

IMAGES = """async () => {
    const imgs = [...document.images];
    await Promise.all(imgs.map(i => i.decode().catch(() => null)));
    return imgs.map(i => ({src: i.src.slice(0, 80), ok: i.complete && i.naturalWidth > 0,
                           alt: i.getAttribute('alt')}));
}"""

PHONE_LAYOUT = """() => ({
    width: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    // Display math once shrank to a 1 px SVG on phones (Material's min-content width).
    shrunk: [...document.querySelectorAll('div.arithmatex mjx-container > svg')]
        .filter(svg => svg.getClientRects().length > 0)  // hidden in a closed answer or tab: not shown
        .filter(svg => svg.getBoundingClientRect().width < 10).length,
})"""


VIEWPORTS = {
    "desktop": ({"math": MATH_STATS, "images": IMAGES}, {}),
    "phone": ({"layout": PHONE_LAYOUT}, {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}),
}


def observe(browser, server) -> dict[str, dict[str, dict]]:
    """Open every page once per viewport (MathJax finished) and run that viewport's evaluations.

    Returns {viewport: {source: results}}; each page's results hold ``problems`` (console errors,
    failed or foreign requests) and one entry per evaluation, so that the checks below share one
    visit per page and viewport. One page per core is in flight: while this process reads one,
    the next ones load and typeset in the browser, desktop and phone visits in one stream.
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
        visit.page.wait_for_function("() => !window.MathJax || (MathJax.startup && MathJax.startup.promise)")
        visit.page.evaluate("() => window.MathJax && MathJax.startup.promise")
        results = {name: visit.page.evaluate(script) for name, script in VIEWPORTS[viewport][0].items()}
        observed[viewport][source] = {**results, "problems": list(visit.problems)}
        visit.close()
    return observed


@pytest.fixture(scope="module")
def visits(browser, server):
    return observe(browser, server)


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
        if math["raw"] or math["errors"] or math["raw_notebook"]:
            problems.append(f"math not typeset: {math}")
        for image in seen["images"]:
            if not image["ok"]:
                problems.append(f"image did not load: {image['src']}")
            if not image["alt"]:
                problems.append(f"image without alt text: {image['src']}")
        if problems:
            failures[source] = problems
    assert failures == {}, json.dumps(failures, indent=2)


def test_lesson_pages_typeset_math(desktop):
    lessons = {source: seen["math"]["typeset"] for source, seen in desktop.items() if source.startswith("lessons/")}
    assert lessons and all(count > 0 for count in lessons.values()), f"typeset equations per lesson: {lessons}"


def test_collapsible_answer_opens_on_click(browser, server):
    url = dict(page_urls(server))["lessons/01-neuron-and-layer.md"]
    visit = PageVisit(browser, url)
    details = visit.page.locator("details").first
    assert details.get_attribute("open") is None
    details.locator("summary").click()
    visit.page.wait_for_function("() => document.querySelector('details').open")
    assert visit.problems == []
    visit.close()


def word_only_in_lesson_one(built_site) -> str:
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    words_by_page: dict[str, set[str]] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#")[0]
        text = re.sub(r"<[^>]+>", " ", doc["title"] + " " + doc["text"]).lower()
        words_by_page.setdefault(page, set()).update(re.findall(r"[a-z]{8,}", text))
    lesson = "lessons/01-neuron-and-layer/"
    elsewhere = set().union(*(words for page, words in words_by_page.items() if page != lesson))
    candidates = sorted(words_by_page[lesson] - elsewhere)
    assert candidates, "lesson 1 has no word of its own to search for"
    counts = Counter(re.findall(r"[a-z]{8,}", " ".join(d["text"].lower() for d in index["docs"]
                                                        if d["location"].startswith(lesson))))
    return max(candidates, key=lambda w: (counts[w], w))


def test_search_finds_a_word_only_lesson_one_has(browser, server, built_site):
    word = word_only_in_lesson_one(built_site)
    visit = PageVisit(browser, server + "/")
    box = visit.page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(word, delay=30)  # Material searches on key events, not on fill()
    result = visit.page.locator(".md-search-result__item a").first
    result.wait_for(timeout=15000)
    assert "lessons/01-neuron-and-layer/" in result.get_attribute("href"), word
    assert visit.problems == []
    visit.close()


def test_pages_fit_a_phone_screen(phone):
    failures = []
    for source, seen in phone.items():
        width, shrunk = seen["layout"]["width"], seen["layout"]["shrunk"]
        if width[0] > width[1] + 1:
            failures.append(f"{source}: page is {width[0]}px wide on a {width[1]}px screen")
        if shrunk:
            failures.append(f"{source}: {shrunk} display equations are shrunk to nothing on a phone")
        failures += [f"{source} on a phone: {problem}" for problem in seen["problems"]]
    assert failures == []
