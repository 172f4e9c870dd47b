"""The built pages' scroll boxes and search dialog, as mlp_site.accessibility should leave them.

Read with an HTML parser (not the step's patterns), every page of the built site: each box
that can scroll sideways — a highlighted code block's ``pre > code`` (or its ``pre`` when it
has no ``code``, as in a lab's Markdown), a display equation, a lab's code cell, a table —
has ``tabindex="0"`` and a name no other box on the page has (a figure: its caption's); each
box but a table or a figure has ``role="region"`` (a table keeps its own role); Material's search dialog has a name. The
browser test then checks with axe-core that the boxes that really scroll are reachable. Both
editions: a Russian page (under ``ru/``) names its boxes in Russian («Формула 2»), an English one in English.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import re

import pytest

from tests import pagekit

from mlp_site import accessibility

# A box's name in each edition: its kind, then its number on the page; and the search dialog's name.
BOX_NAME = {"en": re.compile(r"(Code|Output|Equation|Code cell|Table) [1-9]\d*"),
            "ru": re.compile(r"(Код|Вывод|Формула|Ячейка кода|Таблица) [1-9]\d*")}
SEARCH = {"en": "Search", "ru": "Поиск"}

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class ScrollBoxes(HTMLParser):
    """Collects (kind, attributes) of a page's scroll boxes and the search dialog's attributes."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, dict]] = []
        self.code_pres: list[dict] = []  # {"pre": attrs, "code": attrs or None}
        self.boxes: list[tuple[str, dict]] = []
        self.dialog: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        parent_tag, parent = self.stack[-1] if self.stack else ("", {})
        parent_classes = (parent.get("class") or "").split()
        if tag == "pre" and parent_tag == "div" and "highlight" in parent_classes:
            self.code_pres.append({"pre": attrs, "code": None})
        elif tag == "code" and parent_tag == "pre" and self.code_pres and self.code_pres[-1]["pre"] is parent:
            self.code_pres[-1]["code"] = attrs
        elif tag == "div" and ("arithmatex" in classes or "mlp-math" in classes):
            self.boxes.append(("equation", attrs))
        elif tag == "figure" and "mlp-figure" in classes:
            self.boxes.append(("figure", attrs))
        elif tag == "div" and "highlight-ipynb" in classes:
            self.boxes.append(("lab code cell", attrs))
        elif tag == "table" and "class" not in attrs:  # the tables Material wraps in a scroll box
            self.boxes.append(("table", attrs))
        elif attrs.get("role") == "dialog":
            self.dialog = attrs
        if tag not in VOID:
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def close(self):
        super().close()
        self.boxes += [("code", found["code"] if found["code"] is not None else found["pre"])
                       for found in self.code_pres]


def scroll_boxes(html: str) -> ScrollBoxes:
    parser = ScrollBoxes()
    parser.feed(html)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def pages(built_site):
    """{(language, page source): its scroll boxes}, for every page of both editions."""
    return {(language, source): scroll_boxes(pagekit.built_page(root, source).read_text(encoding="utf-8"))
            for language, root in (("en", built_site), ("ru", built_site / "ru"))
            for source in pagekit.nav_sources()}


def test_every_scroll_box_is_focusable_and_named(pages):
    failures = []
    for source, page in pages.items():
        names = Counter(attrs.get("aria-label") for _, attrs in page.boxes)
        for kind, attrs in page.boxes:
            if kind == "figure":  # named by its caption, which an aria-label would override
                if attrs.get("tabindex") != "0" or "aria-label" in attrs:
                    failures.append(f"{source}: figure box {attrs}: needs tabindex=0 and no aria-label")
                continue
            name = attrs.get("aria-label")
            if attrs.get("tabindex") != "0":
                failures.append(f"{source}: {kind} box without tabindex=0: {attrs}")
            if not name or names[name] > 1:
                failures.append(f"{source}: {kind} box named {name!r}, a name {names[name]} boxes have")
            if kind != "table" and attrs.get("role") != "region":
                failures.append(f"{source}: {kind} box with role {attrs.get('role')!r}, not 'region'")
            if kind == "table" and "role" in attrs:
                failures.append(f"{source}: a table whose role was replaced by {attrs['role']!r}")
            if name and not BOX_NAME[source[0]].fullmatch(name):
                failures.append(f"{source}: {kind} box named {name!r}, not a name of the {source[0]} edition")
    assert failures == [], "\n".join(failures)
    kinds = Counter(kind for page in pages.values() for kind, _ in page.boxes)
    assert set(kinds) == {"code", "equation", "figure", "lab code cell", "table"}, f"scroll boxes found, by kind: {kinds}"


def test_search_dialog_is_named(pages):
    unnamed = [source for source, page in pages.items()
               if page.dialog is None or page.dialog.get("aria-label") != SEARCH[source[0]]]
    assert unnamed == [], f"pages whose search dialog has no name in their edition's language: {unnamed}"


# --- the step alone, in each edition's language ------------------------------------------------

PAGE = ('<div class="md-search" data-md-component="search" role="dialog">'
        '<div class="language-python highlight"><pre><span></span><code>x = 1</code></pre></div>'
        '<div class="language-text highlight mlp-output"><pre><span></span><code>1</code></pre></div>'
        '<div class="arithmatex">\\[x\\]</div><div class="highlight-ipynb hl-python"><pre>y</pre></div>'
        '<div class="language-python highlight"><pre><span></span><code>x = 2</code></pre></div>'
        '<table><tr><td>1</td></tr></table><figure class="mlp-figure"><figcaption>A figure</figcaption></figure>')
NAMES = {"en": ["Code 1", "Output 1", "Equation 1", "Code cell 1", "Code 2", "Table 1"],
         "ru": ["Код 1", "Вывод 1", "Формула 1", "Ячейка кода 1", "Код 2", "Таблица 1"]}


@pytest.mark.parametrize("language", sorted(NAMES))
def test_the_hook_names_boxes_in_the_language_being_built(monkeypatch, language):
    monkeypatch.setenv("MLP_LANG", language)  # as mlp_site.edition sets it for the edition's build
    page = scroll_boxes(accessibility.mark_scroll_boxes(accessibility.name_search_dialog(PAGE)))
    named = sorted(attrs["aria-label"] for kind, attrs in page.boxes if kind != "figure")
    assert named == sorted(NAMES[language])
    assert page.dialog["aria-label"] == SEARCH[language]
