"""axe-core in the browser test: a page's accessibility violations, in light and dark mode.

axe-core is the copy that the pinned PyPI package ``axe-playwright-python`` ships
(``requirements.txt``); its script is evaluated in the page, so no request leaves it. One visit
checks both colour schemes: axe runs on the page as it loaded (light, Material's ``default``
scheme), then the header's colour scheme switch is clicked (overrides/partials/palette.html), which
sets ``data-md-color-scheme`` (and the primary and accent colours) on ``<html>`` and ``<body>``, and
once the colour transitions that started have ended, axe runs again. The result says which
scheme each run saw, so a toggle that stopped switching fails the test instead of checking
the light page twice. In dark mode only the rules that depend on colour run again (contrast,
links told from text by more than colour): every other rule sees the same page as in light mode.

axe costs seconds per page (lesson 3: about 9 s of its 9.5 s is the contrast check, over the
page's 9,000 elements), so an audit runs in the page without the test waiting for it
(:func:`start`, then :func:`collect`): the test starts the next page's audit meanwhile, and
two pages are audited at once, each in its own renderer process. A result is kept
(mlp_site/cache.py) under a key of everything that decides it (:func:`audit_key`): the page's HTML,
the site's style sheets, scripts, fonts and images, the viewport, the browser's version, axe's
script and this module. A page whose files did not change is not audited again.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

from mlp_site import cache

BLOCKING = ("serious", "critical")  # the impacts that issue 14 allows none of


@functools.cache
def axe_source() -> str:
    """The text of axe.min.js from the pinned axe-playwright-python package."""
    import axe_playwright_python

    script = Path(axe_playwright_python.__file__).parent / "axe.min.js"
    if not script.is_file():
        raise FileNotFoundError(f"axe.min.js not found at {script}; reinstall the pinned axe-playwright-python")
    return script.read_text(encoding="utf-8")


# The rules whose result can change with the colour scheme; the rest see the same page in both.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

# Rules that axe-core ships turned off, run here too: target-size (WCAG 2.2, 2.5.8: a link or
# control at least 24 by 24 px, or far enough from the next one).
EXTRA_RULES = ["target-size"]

# Each violated rule: its id, impact, node count and the first few nodes (selector and why).
# Arguments: the rules to run, or null for all of them and EXTRA_RULES; EXTRA_RULES.
RUN_AXE = """async (rules, extra) => {
    const options = {resultTypes: ['violations']};
    if (rules) options.runOnly = {type: 'rule', values: rules};
    else options.rules = Object.fromEntries(extra.map(id => [id, {enabled: true}]));
    const result = await axe.run(document, options);
    return {
        scheme: document.body.getAttribute('data-md-color-scheme'),
        version: axe.version,
        violations: result.violations.map(v => ({
            id: v.id, impact: v.impact, count: v.nodes.length,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '')
                                                 .replace(/\\s+/g, ' ').slice(0, 200)),
        })),
    };
}"""

# Click the header's colour scheme switch (overrides/partials/palette.html) and wait until the
# colours it changed are the new scheme's: the frame after the switch has started each element's
# colour transition (Material's: 125-250 ms), and axe must not read a colour half-way. One
# transition can start another (a link that inherits its colour from a tab's label starts its own
# when the label's ends), so the wait ends at a frame with none running.
TOGGLE_SCHEME = """async () => {
    const frames = n => new Promise(resolve => {
        const step = left => left ? requestAnimationFrame(() => step(left - 1)) : resolve();
        step(n);
    });
    const before = document.body.getAttribute('data-md-color-scheme');
    const toggle = document.querySelector('button[data-mlp-scheme-switch]');
    if (!toggle) return {before, after: null};
    toggle.click();
    for (let round = 0; round < 20; round++) {
        await frames(2);
        const running = document.getAnimations().filter(a => a instanceof CSSTransition);
        if (!running.length) break;
        await Promise.all(running.map(a => a.finished.catch(() => null)));
    }
    return {before, after: document.body.getAttribute('data-md-color-scheme')};
}"""


# The same audit, started in the page and left running there (window.mlpAudit holds its promise):
# every rule in the light scheme, the colour scheme switch, the colour rules in the dark scheme.
START = f"""([colourRules, extra]) => {{
    const run = {RUN_AXE};
    const toggle = {TOGGLE_SCHEME};
    window.mlpAudit = (async () => {{
        const light = await run(null, extra);
        await toggle();
        return {{light, dark: await run(colourRules, extra)}};
    }})();
}}"""

# The test run's site is built for the address it is served at, a free port that changes from
# run to run; the port is not part of what axe sees.
SERVED_PORT = re.compile(rb"127\.0\.0\.1:\d+")
# The verification line at a page's end (mlp_site.verification) states the build's date, the
# commit and when each run was: figures that change from build to build and commit to commit,
# in one short line of text whose elements, styles and links stay the same. axe's rules look
# at those (contrast, names, roles, links told from text), not at which digits a text holds,
# so the key reads the line with every figure (a run of digits, or a commit's hex digits)
# replaced by one "0". Any other change to the line, or to anything else, audits the page again.
# The execution report's first paragraph (mlp_site.verification FACTS_CLASS), with the build's commit
# and its length in seconds, is read the same way.
VERIFICATION_LINE = re.compile(rb'<p class="(?:mlp-verification|mlp-build-facts)">.*?</p>', re.DOTALL)
FIGURE = re.compile(rb"\b[0-9a-f]*[0-9][0-9a-f]*\b")


def _for_key(html: bytes) -> bytes:
    """The page's HTML as the audit key reads it: the port, the verification line's figures and the execution report's build facts left out."""
    html = SERVED_PORT.sub(b"127.0.0.1:PORT", html)
    return VERIFICATION_LINE.sub(lambda line: FIGURE.sub(b"0", line[0]), html)


# What a page's look depends on besides its HTML: the site's style sheets, scripts, fonts and images.
ASSET_SUFFIXES = {".css", ".js", ".woff", ".woff2", ".ttf", ".svg", ".png", ".jpg", ".gif", ".webp", ".ico"}


@functools.cache
def assets_digest(site: Path) -> str:
    """A digest of every style sheet, script, font and image of the built site."""
    digest = hashlib.sha256()
    for file in sorted(site.rglob("*")):
        if file.suffix in ASSET_SUFFIXES and file.is_file():
            digest.update(f"\0{file.relative_to(site).as_posix()}\0".encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def audit_key(site: Path, page_html: Path, viewport: dict, browser_version: str) -> str:
    """The key (mlp_site/cache.py) of everything an audit depends on; the same key gives the same result.

    It covers the page's HTML (with the served port and the verification line's figures left out:
    :func:`_for_key`), the site's assets
    (:func:`assets_digest`), the viewport (the browser context's options: size, touch, mobile),
    the browser's version, axe's script and this module.
    """
    return cache.key("axe", viewport, browser_version, assets_digest(site), Path(__file__), axe_source(),
                     _for_key(page_html.read_bytes()))


class Audit:
    """The audit of one open page (``page_html`` of the built ``site``): the result kept under the
    same :func:`audit_key`, or an audit started in the page now and collected by :meth:`result`.
    """

    def __init__(self, page, site: Path, page_html: Path, viewport: dict):
        self.page = page
        self.key = audit_key(site, page_html, viewport, page.context.browser.version)
        self.kept = cache.load("browser", self.key)
        if self.kept is None:
            start(page)

    def result(self) -> dict:
        """The audit's result (waiting for it if it runs); it says whether it was ``reused``."""
        if self.kept is not None:
            return {**self.kept, "reused": True}
        result = collect(self.page)
        cache.save("browser", self.key, result)
        return {**result, "reused": False}


def start(page) -> None:
    """Start axe on the open page, before and after the colour scheme switch, without waiting for it."""
    page.evaluate(axe_source())
    page.evaluate(START, [COLOUR_RULES, EXTRA_RULES])  # every rule again in dark mode would double the cost for nothing


def collect(page) -> dict:
    """The result of the audit :func:`start` began in ``page``, once it is done.

    Returns ``{"light": run, "dark": run}`` (every rule in light mode, ``COLOUR_RULES`` in dark);
    each run holds the ``scheme`` that ``<body>`` had while axe ran, axe's ``version`` and the
    ``violations`` (every impact).
    """
    return page.evaluate("() => window.mlpAudit")


def blocking(run: dict) -> list[dict]:
    """The serious and critical violations of one axe run."""
    return [violation for violation in run["violations"] if violation["impact"] in BLOCKING]
