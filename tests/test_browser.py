"""The built site in headless Chromium, as a reader sees it, with the network unplugged.

Every page loads with no console error, no failed request and no request to any host but
127.0.0.1; its math came rendered in the HTML (no raw TeX anywhere in its text, MathML alone,
drawn with the site's math font, no math script) and is drawn at full size on a phone; every image has loaded;
at 1280 px no equation, table or code block is wider than its box; a page weighs less than
its budget; a collapsible answer opens on click; search finds a word that only lesson 1
contains; nothing is wider than a phone's screen;
axe finds no serious or critical violation, light or dark, on a desktop or a phone
(tests/axe_audit.py).

The pages checked are read from the built site: every page it has, in every edition (the pages
made from ``docs/``, the execution report and the API reference). Each
is opened once per viewport, and that one visit gathers everything the checks below need
(tests/browser_visits.py), in a process of its own that starts in the background as soon as the
site is served (tests/conftest.py ``site_visits``). The tests that click and type (an answer
opened, a search) use the session's ``browser`` fixture.

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
from mlp_site import verification

from mlp_site import cache
from tests import axe_audit, browser_visits, editions, pagekit
from tests.browser_visits import PageVisit, is_under, page_url, site_path
from tests.page_blocks import STATS


def skip_or_fail(reason: str):
    if os.environ.get("MLP_REQUIRE_BROWSER"):
        pytest.fail(f"browser test required (MLP_REQUIRE_BROWSER is set) but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def visits(site_visits):
    """{viewport: {site path: what its visit saw}}; the numbers of audits run and reused go to the run's summary."""
    reused = [seen["axe"]["reused"] for pages in site_visits.values() for seen in pages.values()]
    STATS["axe audits run"], STATS["axe audits reused"] = reused.count(False), reused.count(True)
    STATS["pages checked in the browser"] = len(site_visits["desktop"])
    STATS["page visits reused"] = sum(seen["reused"] for pages in site_visits.values() for seen in pages.values())
    return site_visits


@pytest.fixture(scope="module")
def desktop(visits):
    return visits["desktop"]


@pytest.fixture(scope="module")
def phone(visits):
    return visits["phone"]


def test_every_page_is_checked(desktop, phone):
    """The pages read from the built site hold every page of the nav, the execution report and the
    API reference's overview and page of each module of mlp_ref, in both editions (a Russian twin
    "lessons/x.ru.md" is built at ru/lessons/x/), on a desktop and on a phone."""
    from tests.test_api_reference import REFERENCE, top_modules

    english = [*pagekit.nav_sources(), verification.REPORT]
    expected = {site_path(pagekit.built_page(Path("."), source))
                for source in english + [editions.twin_source(source) for source in english]}
    reference = [f"{REFERENCE}/"] + [f"{REFERENCE}/{module.split('.')[1]}/" for module in top_modules()]
    expected |= {edition + page for edition in ("", "ru/") for page in reference}
    assert expected - set(desktop) == set() and set(phone) == set(desktop), sorted(expected - set(desktop))


def test_every_page_loads_cleanly(desktop):
    failures = {}
    for source, seen in desktop.items():
        problems = list(seen["problems"])
        math = seen["math"]
        if math["raw"] or math["errors"]:
            problems.append(f"math not rendered (raw TeX in the text, or a math error): {math}")
        if math["outside_math"] or math["drawn_in_html"]:
            problems.append(f"math not as MathML alone (a display box without <math>, or a drawing in HTML): {math}")
        if not math["font"]:
            problems.append(f"the math font did not load; MathML drawn with a text font: {math}")
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
    lessons = {path: seen["math"]["rendered"] for path, seen in desktop.items() if is_under(path, "lessons")}
    assert lessons and all(count > 0 for count in lessons.values()), f"rendered equations per lesson: {lessons}"


def test_nothing_is_cut_at_laptop_width(desktop):
    """At 1280 px no display equation, table or code block is wider than its box."""
    cut = {source: {kind: seen["boxes"][kind] for kind in ("equations", "tables", "code") if seen["boxes"][kind]}
           for source, seen in desktop.items()}
    cut = {source: boxes for source, boxes in cut.items() if boxes}
    assert cut == {}, json.dumps(cut, indent=2)


# Compressed (gzip) weight of everything a page loads, in KB; the labs carry their outputs.
WEIGHT_BUDGET_KB = {"labs": 900, "": 600}


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
        budget = next(kb for section, kb in WEIGHT_BUDGET_KB.items() if not section or is_under(source, section))
        if packed > budget:
            heavy[source] = f"{packed:.0f} KB compressed ({raw:.0f} KB uncompressed), budget {budget} KB"
    assert heavy == {}, json.dumps(heavy, indent=2)


def test_collapsible_answer_opens_on_click(browser, server):
    url = page_url(server, "lessons/01-neuron-and-layer.md")
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
    edition (each edition searches its own pages: mlp_site.edition)."""
    word = word_only_in_lesson_one(built_site, edition)
    visit = PageVisit(browser, f"{server}/{edition}")
    box = visit.page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(word, delay=30)  # Material searches on key events, not on fill()
    # Playwright types a letter that is not on a US keyboard (Cyrillic) as inserted text, with no key
    # events, which a reader's Russian keyboard sends; one real key after the word sends them.
    box.press("End")
    result = visit.page.locator(".md-search-result__item a").first
    result.wait_for(timeout=15000)
    href = visit.page.evaluate("a => a.href", result.element_handle())
    assert href.startswith(f"{server}/{edition}lessons/01-neuron-and-layer/"), (word, href)
    assert visit.problems == []
    visit.close()


def search_results(browser, url: str, word: str) -> list[str]:
    """The addresses Material's search lists, in its order, for ``word`` typed on the page at ``url``."""
    visit = PageVisit(browser, url)
    box = visit.page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(word, delay=30)
    visit.page.locator(".md-search-result__item a").first.wait_for(timeout=15000)
    hrefs = visit.page.evaluate("() => [...document.querySelectorAll('.md-search-result__item a')].map(a => a.href)")
    visit.close()
    return hrefs


def test_search_lists_the_lesson_before_the_reference(browser, server, built_site):
    """"GELU" is explained in lesson 4 and documented in the reference (mlp_ref.activations): a
    reader searching it is sent to the lesson first (mlp_site.api_reference lowers the reference).
    The Russian edition's search index holds no reference page (the reference is in English), so
    the question arises in the English edition only."""
    edition = ""
    index = json.loads((built_site / edition / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert any(d["location"].startswith("reference/") and "gelu" in d["text"].lower() for d in index["docs"])
    hrefs = search_results(browser, f"{server}/{edition}", "GELU")  # both in the index...
    assert hrefs[0].startswith(f"{server}/{edition}lessons/"), hrefs  # ...the lesson listed first


def test_an_english_search_offers_no_russian_page(browser, server):
    """A word both editions use (a name from the code) finds only English pages on an English page."""
    hrefs = search_results(browser, f"{server}/lessons/03-forward-pass/", "softmax")
    assert hrefs and not [h for h in hrefs if "/ru/" in h], hrefs


def test_back_to_top_waits_at_the_bottom_of_a_phone(browser, server):
    """Scrolling back up a long page shows "Back to top": on a phone it sits in the bottom quarter
    of the screen, not over the lines under the header (where it hid table headers)."""
    visit = PageVisit(browser, f"{server}/lessons/06-counting-parameters/", viewport={"width": 390, "height": 844})
    visit.page.mouse.wheel(0, 4000)
    visit.page.wait_for_timeout(300)
    visit.page.mouse.wheel(0, -300)  # Material shows the button when the reader scrolls up
    button = visit.page.locator(".md-top")
    button.wait_for(state="visible", timeout=5000)
    visit.page.wait_for_timeout(300)  # its transition
    box = button.bounding_box()
    assert box and box["y"] > 0.75 * 844 and box["y"] + box["height"] <= 844, box
    assert visit.problems == []
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


def test_the_audit_key_leaves_out_only_the_figures_of_the_verification_line(tmp_path):
    """A new date, commit or run time on the line keeps a page's axe result; any other change audits again."""
    site = tmp_path / "site"
    (site / "lessons" / "x").mkdir(parents=True)
    (site / "extra.css").write_text("small { color: #444; }\n", encoding="utf-8")
    page = site / "lessons" / "x" / "index.html"

    def key(line: str, body: str = "<h1>Layers</h1><p>A layer of 3 neurons.</p>", port: int = 8000) -> str:
        page.write_text(f'<a href="http://127.0.0.1:{port}/">home</a><article>{body}<hr>\n'
                        f'<p class="mlp-verification"><small>{line}</small></p></article>', encoding="utf-8")
        return axe_audit.audit_key(site, page, {"viewport": {"width": 390, "height": 844}}, "140.0")

    line = ("Checked when this page was built on {date}: its 12 code blocks ran on {date} {time} UTC and each "
            "printed exactly the output shown. mlp_ref 0.4.0 (commit {commit}), NumPy 2.3.4, Python 3.11.7. "
            '<a href="../../execution-report/">Execution report</a>.')
    first = key(line.format(date="2026-11-30", time="16:51", commit="54cdf67abc12"))
    assert key(line.format(date="2026-12-01", time="09:05", commit="0a1b2c3d4e5f"), port=40123) == first
    assert key(line.format(date="2026-11-30", time="16:51", commit="54cdf67abc12").replace("each printed", "all printed")) != first
    assert key(line.format(date="2026-11-30", time="16:51", commit="54cdf67abc12"),
               body="<h1>Layers</h1><p>A layer of 4 neurons.</p>") != first
    assert key(line.format(date="2026-11-30", time="16:51", commit="54cdf67abc12").replace('<a href', '<a class="x" href')) != first
    facts = '<p class="mlp-build-facts">With mlp_ref 0.1.0 (commit {commit}). This build took {seconds} s.</p>'
    report = key(line.format(date="2026-11-30", time="16:51", commit="54cdf67abc12"),
                 body=facts.format(commit="41fd2e7908f6", seconds="8.5") + "<table><tr><td>3.1</td></tr></table>")
    assert key(line.format(date="2026-11-30", time="16:51", commit="54cdf67abc12"),
               body=facts.format(commit="51564408195c", seconds="12.3") + "<table><tr><td>3.1</td></tr></table>") == report
    assert key(line.format(date="2026-11-30", time="16:51", commit="54cdf67abc12"),
               body=facts.format(commit="51564408195c", seconds="12.3") + "<table><tr><td>3.2</td></tr></table>") != report


def test_a_visit_is_kept_while_nothing_it_depends_on_changes(tmp_path, monkeypatch):
    """The visit key (tests/browser_visits.py) stays with a new port and new figures on the verification
    line, and changes with the page, a style sheet, a lost file, the viewport or the browser; a kept
    visit comes back with this run's address, and none is kept or reused with MLP_CACHE=0."""
    site = tmp_path / "site"
    (site / "lessons" / "x").mkdir(parents=True)
    (site / "extra.css").write_text("small { color: #444; }\n", encoding="utf-8")
    (site / "search").mkdir()
    (site / "search" / "search_index.json").write_text("{}", encoding="utf-8")
    page = site / "lessons" / "x" / "index.html"

    def key(body: str = "<p>A layer of 3 neurons.</p>", port: int = 8000, date: str = "2026-11-30",
            viewport: str = "phone", browser: str = "140.0") -> str:
        browser_visits.file_names.cache_clear()
        axe_audit.assets_digest.cache_clear()
        page.write_text(f'<a href="http://127.0.0.1:{port}/">home</a><article>{body}\n'
                        f'<p class="mlp-verification">Checked on {date}.</p></article>', encoding="utf-8")
        return browser_visits.visit_key(site, "lessons/x/", viewport, browser)

    first = key()
    assert key(port=40123, date="2026-12-01") == first
    assert key(body="<p>A layer of 4 neurons.</p>") != first
    assert key(viewport="desktop") != first and key(browser="141.0") != first
    (site / "extra.css").write_text("small { color: #555; }\n", encoding="utf-8")
    assert key() != first
    changed_css = key()
    (site / "search" / "search_index.json").write_text('{"docs": []}', encoding="utf-8")
    assert key() == changed_css  # another file's content: a visit does not read it
    (site / "search" / "search_index.json").unlink()
    assert key() != changed_css  # but a request for a file the site lost fails

    monkeypatch.setattr(cache, "FOLDER", tmp_path / "cache")
    monkeypatch.setenv(cache.SWITCH, "1")
    seen = {"requested": ["http://127.0.0.1:8000/extra.css"], "problems": [], "axe": {"light": {}, "reused": False}}
    browser_visits.KeptVisits(site, "http://127.0.0.1:8000", "140.0").put("phone", "lessons/x/", seen)
    again = browser_visits.KeptVisits(site, "http://127.0.0.1:40123", "140.0").get("phone", "lessons/x/")
    assert again["requested"] == ["http://127.0.0.1:40123/extra.css"]
    assert again["reused"] and again["axe"]["reused"]
    assert browser_visits.KeptVisits(site, "http://127.0.0.1:8000", "141.0").get("phone", "lessons/x/") is None
    monkeypatch.setenv(cache.SWITCH, "0")
    assert browser_visits.KeptVisits(site, "http://127.0.0.1:8000", "140.0").get("phone", "lessons/x/") is None
