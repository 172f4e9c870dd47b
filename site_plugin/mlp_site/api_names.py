"""Which objects of ``mlp_ref`` a page's Python code names, as the paths of their reference entries.

Not a step itself: api_reference.py (the reference pages, ordered by the lesson that
first uses each module), api_links.py (the links from a page's code and prose to the
reference) and api_griffe.py (the links in the docstrings) import it.

A reference entry is the *canonical* path of an object, where it is defined
(``mlp_ref.network.MLP.from_arrays``), even when a page reaches it through a re-export
(``mlp_ref.MLP.from_arrays``): that is the anchor mkdocstrings gives the entry. The package is
read by griffe, the library mkdocstrings reads it with, so both agree on what a name means and
on what is public. Nothing here imports ``mlp_ref``.

A page's :class:`Scope` knows the names its code binds to ``mlp_ref``:

- imports: ``import mlp_ref``, ``from mlp_ref import fit``,
  ``from mlp_ref.course.figures import figure_html as fh``;
- instances: ``net = mlp_ref.MLP(...)`` or ``net = mlp_ref.MLP.from_arrays(...)`` (a call of
  a class, or of a function whose return annotation is a class of ``mlp_ref``), so that
  ``net.forward`` names ``MLP.forward``.

A name the page also binds in any other way (``fit = 3``, a loop variable, an argument) is
left out: the scope claims a name only when every binding of it on the page agrees.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import griffe
from prose.structure import generator_modules

from . import ROOT
from .page_code import blocks_of, parse_fences

PACKAGE = "mlp_ref"

_loaded: dict = {}  # the package as last read, under the size and time of each of its files


def load_package(root: Path = ROOT) -> griffe.Module:
    """``mlp_ref`` read from its source by griffe (no import), aliases resolved; read again
    only when one of its files changed (``make serve`` rebuilds after every edit)."""
    stamp = tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size)
                  for path in sorted((root / PACKAGE).rglob("*.py")))
    if _loaded.get("stamp") != stamp:
        _loaded.update(stamp=stamp, package=griffe.load(PACKAGE, search_paths=[str(root)], resolve_aliases=True))
        _scopes.clear()
    return _loaded["package"]


_scopes: dict = {}  # a page's code -> its scope and the entries it uses, for the package as last read


def page_scope(package, codes: list[str]) -> tuple[Scope, set[str]]:
    """The :class:`Scope` of a page's code and the entries the code uses, worked out once per
    code (both steps ask for every page, and ``make serve`` rebuilds after every edit).

    The entries used include those of the generator modules the code imports (the page calls
    them with one line each, :func:`generator_modules`), each read in its own names: a local
    variable of a generator does not change what a name of the page's code stands for."""
    key = tuple(codes)
    if key not in _scopes:
        scope = Scope.of(package, codes)
        used = set().union(*(scope.uses(code) for code in codes))
        for path in dict.fromkeys(path for code in codes for path in generator_modules(code)):
            source = path.read_text(encoding="utf-8")
            used |= Scope.of(package, [source]).uses(source)
        _scopes[key] = scope, used
    return _scopes[key]


def _target(obj):
    """The object an alias stands for, or ``obj`` itself; None when the alias leads nowhere."""
    try:
        return obj.final_target if obj.is_alias else obj
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def entry(obj) -> str | None:
    """The reference entry of ``obj`` (a griffe object): its canonical path, or None when the
    reference does not document it (a module, a private or unexported name, an import from
    outside ``mlp_ref``)."""
    target = _target(obj)
    if target is None or target.is_module or not target.path.startswith(f"{PACKAGE}."):
        return None
    node = target
    while node.parent is not None:  # each step of the path is public, up to the package
        if node.name.startswith("_") or not (node.is_module or node.is_public):
            return None
        node = node.parent
    return target.path


def member(obj, name: str):
    """The member ``name`` of a griffe module or class, or None."""
    target = _target(obj)
    if target is None or name not in target.members:
        return None
    found = target.members[name]
    imported = target.imports.get(name) if target.is_module else None
    if found.is_module and imported and imported != found.path:
        # ``from mlp_ref.ffn import ffn`` in the package: as in Python, the name is then the
        # function, not the submodule that griffe keeps under it.
        try:
            return target.modules_collection[imported]
        except KeyError:
            return None
    return found


def lookup(package, path: str):
    """The griffe object whose path is ``path`` (an entry, ``mlp_ref.ffn.ffn``), or None."""
    try:
        return package.modules_collection[path]
    except (KeyError, griffe.AliasResolutionError):
        return None


def reach(package, path: str):
    """The griffe object that ``path`` reaches attribute by attribute, as Python would
    (``mlp_ref.ffn`` is the function the package imports, not the submodule), or None."""
    first, *rest = path.split(".")
    obj = package if first == package.name else None
    for part in rest:
        if obj is None:
            return None
        obj = member(obj, part)
    return obj


def returned_class(obj) -> str | None:
    """The path of the ``mlp_ref`` class that calling ``obj`` makes: the class itself, or the
    class named by a function's return annotation."""
    target = _target(obj)
    if target is None:
        return None
    if target.is_class:
        return target.path
    annotation = getattr(target, "returns", None) if target.is_function else None
    if isinstance(annotation, str):  # a quoted annotation, "MLP": resolved where the function is
        try:
            path = target.resolve(annotation.strip("'\""))
        except (griffe.NameResolutionError, ValueError):
            path = None
    else:
        path = getattr(annotation, "canonical_path", None)  # an ExprName; a subscript or union has none
    found = lookup(target.package, path) if path and path.startswith(f"{PACKAGE}.") else None
    found = _target(found) if found is not None else None
    return found.path if found is not None and found.is_class else None


def chain(node: ast.AST) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``; None for anything that is not a plain dotted name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def parse(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except SyntaxError:  # a cell with IPython syntax, say: it binds and names nothing here
        return None


@dataclass
class Scope:
    """The names a page's code binds to objects of ``mlp_ref``."""

    package: object  # the griffe module of mlp_ref
    names: dict[str, str] = field(default_factory=dict)  # bound by an import -> dotted path
    instances: dict[str, str] = field(default_factory=dict)  # bound to an instance -> class path

    @classmethod
    def of(cls, package, codes: list[str]) -> Scope:
        """The scope of a page whose Python code is ``codes`` (its blocks or cells, in order)."""
        trees = [tree for tree in map(parse, codes) if tree is not None]
        scope = cls(package)
        bindings: dict[str, set] = {}  # name -> every binding seen (a path, or None for "other")
        for tree in trees:
            for node in ast.walk(tree):
                for name, bound in scope._imports(node):
                    bindings.setdefault(name, set()).add(bound)
        scope.names = {name: next(iter(b)) for name, b in bindings.items() if len(b) == 1 and None not in b}
        for tree in trees:
            single = {id(node.targets[0]) for node in ast.walk(tree) if _single_target(node)}
            for node in ast.walk(tree):
                if id(node) not in single:  # bound with its Assign's value, below
                    for name, bound in scope._other_bindings(node):
                        bindings.setdefault(name, set()).add(bound)
        scope.names = {name: path for name, path in scope.names.items() if bindings[name] == {path}}
        scope.instances = {name: next(iter(b))[1] for name, b in bindings.items()
                           if len(b) == 1 and isinstance(next(iter(b)), tuple)}
        return scope

    def _imports(self, node: ast.AST):
        """(name, path) for each name an import binds: a path under mlp_ref, else None."""
        if isinstance(node, ast.Import):
            for alias in node.names:
                inside = alias.name.split(".")[0] == PACKAGE
                if alias.asname:
                    yield alias.asname, alias.name if inside else None
                else:
                    yield alias.name.split(".")[0], PACKAGE if inside else None
        elif isinstance(node, ast.ImportFrom):
            inside = node.level == 0 and (node.module or "").split(".")[0] == PACKAGE
            for alias in node.names:
                yield alias.asname or alias.name, f"{node.module}.{alias.name}" if inside else None

    def _other_bindings(self, node: ast.AST):
        """(name, binding) for each name bound otherwise than by an import: ``("instance",
        class path)`` for ``name = <call that makes an mlp_ref class>``, else None."""
        if _single_target(node):
            made = None
            if isinstance(node.value, ast.Call) and (parts := chain(node.value.func)):
                called = self.resolve(parts)
                made = returned_class(called) if called is not None else None
            yield node.targets[0].id, ("instance", made) if made else None
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            yield node.id, None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, None
        elif isinstance(node, ast.arg):
            yield node.arg, None
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name, None
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                yield name, None

    def resolve(self, parts: list[str]):
        """The griffe object that the dotted name ``parts`` reaches through the imports, or None."""
        head, *rest = parts
        if head not in self.names:
            return None
        obj = reach(self.package, self.names[head])
        for part in rest:
            if obj is None:
                return None
            obj = member(obj, part)
        return obj

    def entries(self, parts: list[str]) -> list[str | None]:
        """For each part of the dotted name ``parts``, the reference entry it names, or None."""
        head, *rest = parts
        if head in self.names:
            obj = reach(self.package, self.names[head])
            found = [entry(obj) if obj is not None else None]
        elif head in self.instances:
            obj, found = lookup(self.package, self.instances[head]), [None]  # the variable itself
        else:
            return [None] * len(parts)
        for part in rest:
            obj = member(obj, part) if obj is not None else None
            found.append(entry(obj) if obj is not None else None)
        return found

    def uses(self, code: str) -> set[str]:
        """The reference entries that ``code`` names: in its imports, calls and attributes."""
        tree = parse(code)
        if tree is None:
            return set()
        used = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                for alias in node.names:
                    used.update(self.entries([alias.asname or alias.name]))
            elif isinstance(node, (ast.Name, ast.Attribute)) and (parts := chain(node)):
                used.update(self.entries(parts))
        used.discard(None)
        return used


def _single_target(node: ast.AST) -> bool:
    """Whether ``node`` is ``name = value``: one target, a plain name."""
    return isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)


# --- a page's Python code -------------------------------------------------------------------
LAB_CELL = "# %%"


def page_codes(src_uri: str, text: str, *, build_time: bool = True) -> list[str]:
    """The Python code of a page, block by block: a lesson's runnable ``python`` blocks (their
    snippets expanded) and, with ``build_time``, its markdown-exec blocks, whose code the
    reader does not see (:func:`page_scope` reads the generator modules they import); a
    lab's code cells (all of which the reader sees)."""
    if src_uri.endswith(".py"):
        cells = text.split(f"\n{LAB_CELL}")
        return [cell.split("\n", 1)[-1] for cell in cells[1:] if not cell.startswith(" [markdown]")]
    fences = parse_fences(text.split("\n"), src_uri)
    codes = [block.code for block in blocks_of(fences)]
    if build_time:
        codes += [fence.code for fence in fences if fence.runs_at_build]
    return codes
