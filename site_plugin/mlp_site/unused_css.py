"""A style sheet without the rules that no element of the given pages can match.

Not a step itself: notebook_downloads.py uses it on the Jupyter CSS that nbconvert
puts into the lab pages (about 575 KB, for JupyterLab's whole interface). A selector is
kept when every class it requires (outside ``:not(...)``) occurs on some element of the pages; a rule is kept when one
of its selectors is. Selectors without a class (``pre``, ``:root`` with its variables,
``[data-jp-theme-light]``) are kept, and so are at-rules other than ``@media`` and
``@supports`` (whose rules are pruned in turn), so the pruning can only drop what cannot
apply: a class that no element has.
"""

from __future__ import annotations

import re

import tinycss2

CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)")
# An element matches ``:not(.a)`` by lacking the class: those classes are not required.
NEGATION = re.compile(r":not\([^()]*\)")
CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
NESTED = {"media", "supports"}


def classes_in(html: str) -> set[str]:
    """Every class name on an element of ``html``."""
    return {name for value in CLASS_ATTRIBUTE.findall(html) for name in value.split()}


def _split_selectors(prelude: str) -> list[str]:
    # Commas inside :is(...)/:not(...) do not separate selectors.
    parts, depth, start = [], 0, 0
    for i, char in enumerate(prelude):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    return [part.strip() for part in parts + [prelude[start:]] if part.strip()]


def _prune_rules(rules, classes: set[str]) -> list[str]:
    out = []
    for rule in rules:
        if rule.type == "qualified-rule":
            kept = [s for s in _split_selectors(tinycss2.serialize(rule.prelude))
                    if set(CLASS.findall(NEGATION.sub("", s))) <= classes]
            if kept:
                out.append(f"{','.join(kept)}{{{tinycss2.serialize(rule.content).strip()}}}")
        elif rule.type == "at-rule" and rule.lower_at_keyword in NESTED and rule.content is not None:
            inner = _prune_rules(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True),
                                 classes)
            if inner:
                out.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{''.join(inner)}}}")
        elif rule.type == "at-rule":
            out.append(tinycss2.serialize([rule]).strip())
    return out


def prune(css: str, classes: set[str]) -> str:
    """``css`` keeping only the rules that can match an element whose classes are among ``classes``."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    return "\n".join(_prune_rules(rules, classes)) + "\n"
