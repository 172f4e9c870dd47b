"""Links from the pages' code and prose to the API reference (api_reference.py).

After a page is rendered (its render may come from render_cache.py: the links are added
to the cached HTML on every build), its HTML is read for the names of ``mlp_ref`` that its
code binds (api_names.py reads the page's Python, shown blocks and build-time blocks):

- **code**: in every highlighted Python block or cell, each part of a dotted name that names
  a documented object becomes a link to its entry: in ``mlp_ref.MLP.from_arrays(...)``,
  ``MLP`` and ``from_arrays``; in ``from mlp_ref import fit``, ``fit``; in ``net.forward(X)``
  when ``net = mlp_ref.MLP(...)``, ``forward``;
- **prose**: the first inline code of each object, ``mlp_ref.MLP``, ``trace()``,
  ``net.forward``, or a bare ``forward`` when exactly one object the page's code uses has
  that name.

Headings and existing links are left alone. Each link is written as mkdocs-autorefs's
``<autoref>`` element with the entry's canonical path; autorefs turns it into a link once
every page is rendered and warns on an identifier that has no entry, so ``mkdocs build
--strict`` fails on a broken reference. The links carry the class ``mlp-api`` (underlined
in code, so that they do not differ by colour alone).

Once linked, the code's name and whitespace spans are taken out (:func:`plain_code`): Material
draws a name in the code's own colour and whitespace not at all, so the page looks the same with
a third fewer elements in its code (a lesson's code is half its DOM; a phone lays out every one).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from .api_names import Scope, load_package, lookup, page_codes, page_scope
from .lab_files import is_lab

LINK_CLASS = "mlp-api"
NAME = r'<span class="n">[A-Za-z_]\w*</span>'
DOT = r'<span class="o">\.</span>'
# A dotted name of the highlighted code, not itself the attribute of something else (``f().x``).
CHAIN = re.compile(rf"(?<!{DOT})(?:{NAME})(?:{DOT}{NAME})*")
PART = re.compile(r'<span class="n">(?P<name>[A-Za-z_]\w*)</span>')
# Left as they are: code blocks (handled apart), links, headings, scripts and styles.
REGION = re.compile(r"(?P<pre><pre\b.*?</pre>)|<a\b.*?</a>|<h(?P<level>[1-6])\b.*?</h(?P=level)>"
                    r"|<script\b.*?</script>|<style\b.*?</style>", re.DOTALL)
INLINE = re.compile(r"<code>(?P<name>[A-Za-z_][\w.]*)(?P<call>\(\))?</code>")
# Pygments' spans that draw as plain text in Material's theme: a name (.n: --md-code-hl-name-color
# is --md-code-fg-color, the code's own colour) and whitespace (.w: no rule).
PLAIN = re.compile(r'<span class="[nw]">([^<]*)</span>')
PRE = re.compile(r"<pre\b.*?</pre>", re.DOTALL)


def autoref(identifier: str, inner: str) -> str:
    return f'<autoref identifier="{html.escape(identifier)}" class="{LINK_CLASS}">{inner}</autoref>'


def link_code(block: str, scope: Scope) -> str:
    """A highlighted code block with its names of mlp_ref linked."""

    def replace(match: re.Match) -> str:
        spans = PART.findall(match.group(0))
        entries = scope.entries(spans)
        if not any(entries):
            return match.group(0)
        parts = [autoref(entry, f'<span class="n">{name}</span>') if entry else f'<span class="n">{name}</span>'
                 for name, entry in zip(spans, entries)]
        return f'<span class="o">.</span>'.join(parts)

    return CHAIN.sub(replace, block)


def callables_by_name(scope: Scope, used: set[str]) -> dict[str, set[str]]:
    """The functions and classes among ``used`` (entries), by their own name."""
    by_name: dict[str, set[str]] = {}
    for identifier in used:
        obj = lookup(scope.package, identifier)
        if obj is not None and (obj.is_function or obj.is_class):
            by_name.setdefault(identifier.rsplit(".", 1)[-1], set()).add(identifier)
    return by_name


def link_prose(text: str, scope: Scope, by_name: dict[str, set[str]], linked: set[str]) -> str:
    """Prose with the first inline-code mention of each object linked (``linked`` grows)."""

    def replace(match: re.Match) -> str:
        parts = match["name"].split(".")
        identifier = scope.entries(parts)[-1]
        if identifier is None and len(parts) == 1 and len(by_name.get(parts[0], ())) == 1:
            identifier = next(iter(by_name[parts[0]]))  # clearly the function or class the page uses
        if identifier is None or identifier in linked:
            return match.group(0)
        linked.add(identifier)
        return autoref(identifier, match.group(0))

    return INLINE.sub(replace, text)


def link_page(content: str, scope: Scope, used: set[str]) -> str:
    """A page's HTML with its code and the first prose mention of each object linked."""
    by_name = callables_by_name(scope, used)
    out, linked, start = [], set(), 0
    for match in REGION.finditer(content):
        out.append(link_prose(content[start:match.start()], scope, by_name, linked))
        out.append(link_code(match.group(0), scope) if match["pre"] else match.group(0))
        start = match.end()
    out.append(link_prose(content[start:], scope, by_name, linked))
    return "".join(out)


def plain_code(content: str) -> str:
    """``content`` with the name and whitespace spans of its code blocks replaced by their text."""
    return PRE.sub(lambda block: PLAIN.sub(r"\1", block.group(0)), content)


def on_page_content(content: str, page, config, files) -> str:
    if page.file.generated_by is None and page.file.abs_src_path:  # not a reference page itself
        text = Path(page.file.abs_src_path).read_text(encoding="utf-8")
        codes = page_codes(page.file.src_uri, text)
        if codes:
            scope, used = page_scope(load_package(), codes)
            content = link_page(content, scope, used)
    # A lab's cells are drawn in Jupyter's colours, not Material's: their spans stay.
    return content if is_lab(page.file.src_uri) else plain_code(content)
