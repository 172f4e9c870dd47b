"""The built pages' scroll boxes and search dialog, as hooks/accessibility.py should leave them.

Read with an HTML parser (not the hook's patterns), every page of the built site: each box
that can scroll sideways — a highlighted code block's ``pre > code`` (or its ``pre`` when it
has no ``code``, as in a lab's Markdown), a display equation, a lab's code cell, a table —
has ``tabindex="0"`` and a name no other box on the page has (a figure: its caption's); each
box but a table or a figure has ``role="region"`` (a table keeps its own role); Material's search dialog has a name. The
browser test then checks with axe-core that the boxes that really scroll are reachable.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest

from tests import pagekit

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
    return {source: scroll_boxes(pagekit.built_page(built_site, source).read_text(encoding="utf-8"))
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
    assert failures == [], "\n".join(failures)
    kinds = Counter(kind for page in pages.values() for kind, _ in page.boxes)
    assert set(kinds) == {"code", "equation", "figure", "lab code cell", "table"}, f"scroll boxes found, by kind: {kinds}"


def test_search_dialog_is_named(pages):
    unnamed = [source for source, page in pages.items() if page.dialog is None or not page.dialog.get("aria-label")]
    assert unnamed == [], f"pages whose search dialog has no name: {unnamed}"
