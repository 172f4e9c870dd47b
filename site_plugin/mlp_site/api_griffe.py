"""What the API reference shows of mlp_ref's docstrings: a griffe extension.

Not a step of the plugin: mkdocstrings loads it (mkdocs.yml, ``extensions`` of the Python handler). Two things:

- Special methods (``__repr__``, ``__post_init__``) are left out of the reference: they are
  public to Python but not part of what a reader calls.
- Sphinx cross-reference roles become reference links. The docstrings name other objects the Sphinx way, ``:func:`fit```, ``:class:`MLP```,
``:meth:`MLP.backward```, ``:mod:`mlp_ref.losses```, which Markdown would show as
``:func:`` followed by code. Each role becomes a Markdown cross-reference to the object's
entry (``[`fit`][mlp_ref.training.fit]``), resolved as Python would resolve the name where the
docstring stands, so mkdocs-autorefs links it (and a strict build fails if that entry does not
exist). A name outside mlp_ref (``numpy.random.Generator``), or one the reference does not
document (a private helper), stays code, without the role.
"""

from __future__ import annotations

import re

import griffe

from .api_names import entry, lookup

ROLE = re.compile(r":(?:py:)?(?P<role>mod|func|class|meth|attr|data|obj|exc|const):`(?P<short>~?)(?P<name>[\w.]+)(?:\(\))?`")


def target(name: str, where, package) -> str | None:
    """The reference entry that ``name``, written in the docstring of ``where``, stands for."""
    first, *rest = name.split(".")
    try:
        base = where.resolve(first)
    except griffe.NameResolutionError:
        base = first  # a full path, mlp_ref.losses
    obj = lookup(package, ".".join([base, *rest])) if base.split(".")[0] == package.name else None
    if obj is None:
        return None
    real = obj.final_target if obj.is_alias else obj
    if real.is_module:  # a module's page or section has its path as the anchor; the package's page has none
        return real.path if real.parent is not None and not any(p.startswith("_") for p in real.path.split(".")) else None
    return entry(obj)


def linked(text: str, where, package) -> str:
    """``text`` (a docstring) with each role replaced by a cross-reference, or by code."""

    def replace(match: re.Match) -> str:
        name = match["name"]
        title = name.rsplit(".", 1)[-1] if match["short"] else name
        if match["role"] in {"func", "meth"}:
            title += "()"
        found = target(name, where, package)
        return f"[`{title}`][{found}]" if found else f"`{title}`"

    return ROLE.sub(replace, text)


class ReferenceDocstrings(griffe.Extension):
    """Once a package is loaded: its special methods hidden, the roles of its docstrings linked."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        stack = [pkg]
        while stack:
            obj = stack.pop()
            if obj.is_function and obj.parent.is_class and obj.name.startswith("__"):
                obj.public = False  # griffe's is_public (the "public" filter) reads this first
            if obj.docstring is not None:
                obj.docstring.value = linked(obj.docstring.value, obj, pkg)
            stack.extend(member for member in obj.members.values() if not member.is_alias)
