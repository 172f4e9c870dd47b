"""axe-core in the browser test: a page's accessibility violations, in light and dark mode.

axe-core is the copy that the pinned PyPI package ``axe-playwright-python`` ships
(``requirements.txt``); its script is evaluated in the page, so no request leaves it. One visit
checks both colour schemes: axe runs on the page as it loaded (light, Material's ``default``
scheme), then the page's own palette toggle is clicked, which sets ``data-md-color-scheme``
(and the primary and accent colours) on ``<body>``, and axe runs again. The result says which
scheme each run saw, so a toggle that stopped switching fails the test instead of checking
the light page twice. In dark mode only the rules that depend on colour run again (contrast,
links told from text by more than colour): every other rule sees the same page as in light mode.
"""

from __future__ import annotations

import functools
from pathlib import Path

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

# Each violated rule: its id, impact, node count and the first few nodes (selector and why).
# Argument: the rules to run, or null for all of them.
RUN_AXE = """async (rules) => {
    const options = {resultTypes: ['violations']};
    if (rules) options.runOnly = {type: 'rule', values: rules};
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

# Click the header's palette toggle (the label of the scheme it switches to) and wait until
# Material has applied it: it marks <body> data-md-color-switching while it changes colours.
TOGGLE_SCHEME = """async () => {
    const before = document.body.getAttribute('data-md-color-scheme');
    const toggle = document.querySelector('form[data-md-component="palette"] label:not([hidden])');
    if (!toggle) return {before, after: null};
    toggle.click();
    for (let frame = 0; frame < 120; frame++) {
        await new Promise(resolve => requestAnimationFrame(resolve));
        const now = document.body.getAttribute('data-md-color-scheme');
        if (now !== before && !document.body.hasAttribute('data-md-color-switching')) break;
    }
    await new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return {before, after: document.body.getAttribute('data-md-color-scheme')};
}"""


def audit(page) -> dict:
    """axe's violations of the open page before and after the palette toggle.

    Returns ``{"light": run, "dark": run}`` (every rule in light mode, ``COLOUR_RULES`` in dark);
    each run holds the ``scheme`` that ``<body>`` had while axe ran, axe's ``version`` and the
    ``violations`` (every impact).
    """
    page.evaluate(axe_source())
    light = page.evaluate(RUN_AXE, None)
    page.evaluate(TOGGLE_SCHEME)
    dark = page.evaluate(RUN_AXE, COLOUR_RULES)  # every rule again would double the cost for nothing
    return {"light": light, "dark": dark}


def blocking(run: dict) -> list[dict]:
    """The serious and critical violations of one axe run."""
    return [violation for violation in run["violations"] if violation["impact"] in BLOCKING]
