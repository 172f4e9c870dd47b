"""Make every scroll box reachable by keyboard and named, and name the search dialog.

A box that scrolls sideways (a long code line, a wide table, a long display equation, a lab's
code cell) can only be scrolled with a mouse or a finger unless it can take keyboard focus.
This step edits each built page's HTML so that every such box has ``tabindex="0"`` (Tab
reaches it, then the arrow keys scroll it) and a name that a screen reader says, numbered
within the page so that no two are alike:

* code blocks (``pre > code``, or the ``pre`` in a lab's Markdown): ``role="region"``, "Code 3"
  or "Output 3";
* display equations (``div.mlp-math`` from build_math.py, or ``div.arithmatex``):
  ``role="region"``, "Equation 2";
* figures (``figure.mlp-figure``, which scrolls on a phone): focusable, named by their caption;
* a lab's code cells (``div.highlight-ipynb``): ``role="region"``, "Code cell 4";
* tables: Material wraps each table in a scrolling box in the browser, after this step; the
  table itself takes the focus (a focused element inside a box scrolls it) and its name,
  "Table 1", and keeps its role.

Every edited element is marked ``data-mlp-scroll`` (its focus ring is in
``stylesheets/a11y.css``). Material's search dialog (``role="dialog"``) gets its name, "Search".
The names are said in the language of the edition being built (words.py): "Формула 2",
"Ячейка кода 4", "Поиск" on a Russian page.

Material removes the ``tabindex`` of a code block on a screen without hover (a phone) and of
one that does not overflow; ``javascripts/scroll-boxes.js`` puts it back where the block
overflows. Everything else happens here, when the site is built. tests/test_site_scroll_boxes.py
reads the built pages; the browser test runs axe-core on them.
"""

from __future__ import annotations

import html
import re

from .words import say

SEARCH_DIALOG = re.compile(r'(<div class="md-search" data-md-component="search" role="dialog")(?![^>]*aria-label)')


def box_names() -> dict[str, str]:
    """The name of each kind of numbered box, before its number ("Equation" 2)."""
    return {
        "code": say("Code", ru="Код"),
        "output": say("Output", ru="Вывод"),
        "equation": say("Equation", ru="Формула"),
        "cell": say("Code cell", ru="Ячейка кода"),
        "table": say("Table", ru="Таблица"),
    }

# The opening tags of the scroll boxes, in page order. A code block's box is `pre > code` right
# after the `<pre>` of a highlighted block (pymdownx.highlight puts an empty span between them);
# in a lab's Markdown cells (rendered by nbconvert) it is the `pre` itself, with no `code`.
HIGHLIGHT = r'<div\b[^>]*\bclass="(?P<{group}>(?:[^"]*\s)?highlight(?:\s[^"]*)?)"[^>]*>\s*<pre'
BOX = re.compile(
    "(?P<code>" + HIGHLIGHT.format(group="code_class") + r"\b[^>]*>(?:<span></span>)?<code)(?=[\s>])"
    "|(?P<pre>" + HIGHLIGHT.format(group="pre_class") + r")(?=>(?!(?:<span></span>)?<code))"
    r'|(?P<math><div class="(?:arithmatex|mlp-math)")(?=[\s>])'
    r'|(?P<figure><figure class="mlp-figure")(?=[\s>])'
    r'|(?P<cell><div class="highlight-ipynb\b[^"]*")(?=[\s>])'
    r"|(?P<table><table)(?=>)"
)


def _attributes(name: str | None, role: str | None) -> str:
    role_attribute = f' role="{role}"' if role else ""
    name_attribute = f' aria-label="{html.escape(name)}"' if name else ""
    return f' tabindex="0"{role_attribute}{name_attribute} data-mlp-scroll'


def mark_scroll_boxes(page_html: str) -> str:
    """``page_html`` with every scroll box focusable and named (see the module's docstring)."""
    counts: dict[str, int] = {}
    names = box_names()

    def name(kind: str) -> str:
        """The kind's name and the box's number among the page's boxes of that kind: "Table 3"."""
        counts[kind] = counts.get(kind, 0) + 1
        return f"{names[kind]} {counts[kind]}"

    def replace(match: re.Match) -> str:
        if match["code"] or match["pre"]:
            classes = (match["code_class"] or match["pre_class"]).split()
            kind = "output" if "mlp-output" in classes else "code"
            return (match["code"] or match["pre"]) + _attributes(name(kind), "region")
        if match["math"]:
            return match["math"] + _attributes(name("equation"), "region")
        if match["figure"]:
            return match["figure"] + _attributes(None, None)  # named by its caption
        if match["cell"]:
            return match["cell"] + _attributes(name("cell"), "region")
        return match["table"] + _attributes(name("table"), None)

    return BOX.sub(replace, page_html)


def name_search_dialog(page_html: str) -> str:
    """``page_html`` with Material's search dialog named "Search"."""
    label = html.escape(say("Search", ru="Поиск"))
    return SEARCH_DIALOG.sub(lambda match: f'{match[1]} aria-label="{label}"', page_html, count=1)


def on_post_page(output: str, page, config) -> str:
    return mark_scroll_boxes(name_search_dialog(output))
