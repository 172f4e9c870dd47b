"""The colour scheme and the header's switch (issue 34), in headless Chromium.

The site sets its colour scheme itself (overrides/partials/mlp-scheme.html), in place of Material's
palette component: before the page is first drawn, from the reader's stored choice or else from
the system's ``prefers-color-scheme``, with Material's attributes (``data-md-color-scheme``,
``-primary``, ``-accent``) on ``<html>`` and ``<body>``; and the header's switch
(overrides/partials/palette.html) flips it and keeps the choice for the next page. Checked here:

* the page's first frame is drawn in the system's scheme, light and dark, and the scheme is never
  set again while the page loads (a page drawn light and then repainted dark would flash);
* the switch is a button reached with Tab, works from the keyboard, flips the scheme and stores
  it; a second page, of the other edition too, opens in the stored scheme, even against the
  system's; without a stored choice the page follows the system when its setting changes;
* the switch's accessible name, in each edition, is the name mkdocs.yml gives the scheme it
  switches to (theme.palette, and the Russian edition's theme block);
* no element ever gets Material's ``data-md-color-switching`` (its palette script, which
  measured the header at load, is not on the page).

The axe audit in both schemes (tests/axe_audit.py) clicks the same switch.
"""

from __future__ import annotations

import contextlib

import pytest

from tests import pagekit
from tests.browser_visits import page_url

PAGE = "lessons/01-neuron-and-layer.md"
PAGE_RU = "lessons/02-depth-and-xor.ru.md"

# Installed before any script of the page: records each setting of a scheme attribute (the element,
# the value, how many paints had happened), what <html> and <body> held in the first animation
# frame (its callbacks run before that frame is drawn), and whether data-md-color-switching appeared.
RECORD = """
window.mlpSeen = {settings: [], firstFrame: null, switching: []};
new MutationObserver(records => {
    for (const r of records) {
        if (r.attributeName === 'data-md-color-switching') mlpSeen.switching.push(r.target.tagName);
        else mlpSeen.settings.push({element: r.target.tagName, value: r.target.getAttribute(r.attributeName),
                                    paints: performance.getEntriesByType('paint').length});
    }
}).observe(document, {subtree: true, attributes: true,
                      attributeFilter: ['data-md-color-scheme', 'data-md-color-switching']});
requestAnimationFrame(() => {
    const read = e => e && ['scheme', 'primary', 'accent'].map(name => e.getAttribute('data-md-color-' + name));
    mlpSeen.firstFrame = {html: read(document.documentElement), body: read(document.body),
                          paints: performance.getEntriesByType('paint').length};
});
"""
SEEN = "() => mlpSeen"
SCHEME = "() => document.body.getAttribute('data-md-color-scheme')"


def site_config() -> dict:
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # !ENV and the like
    return yaml.load((pagekit.ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def palette() -> list[dict]:
    """mkdocs.yml's theme.palette: the schemes in the switch's order."""
    return site_config()["theme"]["palette"]


def switch_names() -> dict[str, list[str]]:
    """{edition: the switch's name in each scheme}: theme.palette's toggle names, and the Russian
    edition's, from the i18n plugin's theme block for ``ru``."""
    config = site_config()
    i18n = next(plugin["i18n"] for plugin in config["plugins"] if isinstance(plugin, dict) and "i18n" in plugin)
    ru = next(language for language in i18n["languages"] if language["locale"] == "ru")
    return {"en": [option["toggle"]["name"] for option in config["theme"]["palette"]],
            "ru": [option["toggle"]["name"] for option in ru["theme"]["palette"]]}


def attributes(option: dict) -> list[str]:
    return [option["scheme"], option["primary"], option["accent"]]


@contextlib.contextmanager
def recorded_context(browser, system: str):
    """A fresh browser context (no stored choice) whose system setting is ``system``, recording every
    page; closed when the ``with`` block ends."""
    context = browser.new_context(color_scheme=system, viewport={"width": 390, "height": 844})
    try:
        context.add_init_script(RECORD)
        context.route("**/*", lambda route: route.continue_() if "127.0.0.1" in route.request.url else route.abort())
        yield context
    finally:
        context.close()


def frames(page, n: int = 2) -> None:
    page.evaluate("n => new Promise(done => { const step = k => k ? requestAnimationFrame(() => step(k - 1)) : done(); step(n); })", n)


def drawn_in(seen: dict, option: dict) -> list[str]:
    """What is wrong with a page's load as :data:`RECORD` saw it, against the scheme ``option``."""
    wrong = []
    first = seen["firstFrame"]
    if first is None:
        return ["no animation frame was recorded"]
    for element in ("html", "body"):
        if first[element] != attributes(option):
            wrong.append(f"first frame: <{element}> had {first[element]}, not {attributes(option)}")
    if first["paints"]:
        wrong.append(f"{first['paints']} paint(s) before the first animation frame was recorded")
    late = [s for s in seen["settings"] if s["paints"] or s["value"] != option["scheme"]]
    if late:
        wrong.append(f"scheme set again after the first paint or to another scheme: {late}")
    if seen["switching"]:
        wrong.append(f"data-md-color-switching appeared on {seen['switching']}")
    return wrong


@pytest.mark.parametrize("system", ["light", "dark"])
def test_the_page_is_first_drawn_in_the_system_scheme(browser, server, system):
    option = next(o for o in palette() if o["media"] == f"(prefers-color-scheme: {system})")
    with recorded_context(browser, system) as context:
        page = context.new_page()
        page.goto(page_url(server, PAGE), wait_until="load")
        frames(page)
        assert drawn_in(page.evaluate(SEEN), option) == []


def test_the_switch_flips_and_keeps_the_scheme(browser, server):
    light, dark = palette()
    names = switch_names()
    with recorded_context(browser, "light") as context:
        page = context.new_page()
        page.goto(page_url(server, PAGE), wait_until="load")
        assert page.evaluate(SCHEME) == light["scheme"]
        # reached with Tab, like any other control of the header
        for _ in range(12):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.matches('[data-mlp-scheme-switch]')"):
                break
        else:
            pytest.fail("12 presses of Tab did not reach the colour scheme switch")
        page.keyboard.press("Enter")
        frames(page)
        assert page.evaluate(SCHEME) == dark["scheme"]
        assert page.evaluate("() => localStorage.getItem('mlp.scheme')") == dark["scheme"]
        switch = page.get_by_role("button", name=names["en"][1], exact=True)
        assert switch.count() == 1 and page.evaluate("() => document.activeElement.matches('[data-mlp-scheme-switch]')")
        seen = page.evaluate(SEEN)
        assert seen["switching"] == [], f"data-md-color-switching appeared on {seen['switching']}"

        # the next page, of the other edition, opens in the stored scheme, though the system is light
        second = context.new_page()
        second.goto(page_url(server, PAGE_RU), wait_until="load")
        frames(second)
        assert drawn_in(second.evaluate(SEEN), dark) == []
        second.emulate_media(color_scheme="dark")
        second.emulate_media(color_scheme="light")  # a change of the system's setting: the choice holds
        frames(second, 4)
        assert second.evaluate(SCHEME) == dark["scheme"]
        # and the switch, clicked there, stores the other scheme for the next page
        second.get_by_role("button", name=names["ru"][1], exact=True).click()
        frames(second)
        third = context.new_page()
        third.goto(page_url(server, PAGE), wait_until="load")
        frames(third)
        assert drawn_in(third.evaluate(SEEN), light) == []


def test_without_a_choice_the_page_follows_the_system(browser, server):
    light, dark = palette()
    with recorded_context(browser, "light") as context:
        page = context.new_page()
        page.goto(page_url(server, PAGE), wait_until="load")
        page.emulate_media(color_scheme="dark")
        page.wait_for_function(f"() => document.body.getAttribute('data-md-color-scheme') === '{dark['scheme']}'",
                               timeout=5000)
        page.emulate_media(color_scheme="light")
        page.wait_for_function(f"() => document.body.getAttribute('data-md-color-scheme') === '{light['scheme']}'",
                               timeout=5000)
        assert page.evaluate("() => document.documentElement.getAttribute('data-md-color-scheme')") == light["scheme"]


@pytest.mark.parametrize("edition", ["en", "ru"])
def test_the_switch_is_named_in_each_edition(browser, server, edition):
    """Its accessible name is the name of the scheme it switches to, as mkdocs.yml gives it for the edition."""
    names = switch_names()[edition]
    assert len(set(names)) == len(names) == len(palette()), names
    with recorded_context(browser, "light") as context:
        page = context.new_page()
        page.goto(page_url(server, PAGE if edition == "en" else PAGE_RU), wait_until="load")
        for index, name in enumerate(names):
            switch = page.get_by_role("button", name=name, exact=True)
            assert switch.count() == 1, f"{edition}: no button named {name!r} in the scheme {palette()[index]['scheme']}"
            others = [other for other in names if other != name]
            assert all(page.get_by_role("button", name=other, exact=True).count() == 0 for other in others)
            switch.click()
            frames(page)
