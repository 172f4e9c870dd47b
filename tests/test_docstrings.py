"""Every public name of ``mlp_ref`` has a NumPy-style docstring the API reference can render.

For each function of ``mlp_ref.__all__``: a docstring; a ``Parameters`` section naming every
parameter of its signature (``d_in, d_out : int`` names two); a ``Returns`` (or ``Yields``)
section when its code returns a value; and for each parameter or result that is an array, its
shape (``shape (B, K)``, ``any shape``, ``same shape as z``). Each class of ``__all__`` has a
docstring. The sections are read here with a small parser of the NumPy format's layout
(a title underlined with dashes, then ``name : type`` lines with indented descriptions).
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap

import pytest

import mlp_ref

UNDERLINE = re.compile(r"^-{3,}$")
ARRAY = re.compile(r"\barray(_like)?\b|\bndarray\b")
SHAPE = re.compile(r"\bshapes?\b|\b0-d\b")  # a 0-d array is a scalar


def sections(doc: str) -> dict[str, list[tuple[str, str]]]:
    """``{title: [(item line, its description), ...]}`` of a NumPy-style docstring."""
    lines = doc.splitlines()
    found: dict[str, list[tuple[str, str]]] = {}
    current = None
    for index, line in enumerate(lines):
        if index + 1 < len(lines) and UNDERLINE.match(lines[index + 1].strip()) and line.strip():
            current = found.setdefault(line.strip(), [])
        elif current is not None and line and not line[0].isspace() and not UNDERLINE.match(line.strip()):
            current.append((line, ""))
        elif current is not None and current and line.strip():
            current[-1] = (current[-1][0], current[-1][1] + " " + line.strip())
    return found


def item_names(item: str) -> list[str]:
    """``"d_in, d_out : int"`` -> ``["d_in", "d_out"]``."""
    return [name.strip().lstrip("*") for name in item.split(" : ")[0].split(",")]


def returns_value(function) -> bool:
    """Whether the function's own code returns something other than None, or yields."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    todo = list(tree.body[0].body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # a nested function's returns are its own
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def problems_of(function) -> list[str]:
    doc = inspect.getdoc(function)
    if not doc:
        return ["no docstring"]
    parts = sections(doc)
    found = []
    parameters = [name for name in inspect.signature(function).parameters if name not in {"self", "cls"}]
    documented = {name for item, _ in parts.get("Parameters", []) for name in item_names(item)}
    if parameters and "Parameters" not in parts:
        found.append("no Parameters section")
    elif missing := [name for name in parameters if name not in documented]:
        found.append(f"parameters not documented: {missing}")
    if returns_value(function) and not ({"Returns", "Yields"} & parts.keys()):
        found.append("no Returns section")
    for title in ("Parameters", "Returns", "Yields"):
        for item, description in parts.get(title, []):
            if ARRAY.search(item) and not SHAPE.search(item + description):
                found.append(f"{title}: {item.strip()!r} is an array without its shape")
    return found


FUNCTIONS = [name for name in mlp_ref.__all__ if inspect.isfunction(getattr(mlp_ref, name))]
CLASSES = [name for name in mlp_ref.__all__ if inspect.isclass(getattr(mlp_ref, name))]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_docstring_has_its_sections_and_shapes(name):
    assert problems_of(getattr(mlp_ref, name)) == []


@pytest.mark.parametrize("name", CLASSES)
def test_class_has_a_docstring(name):
    assert inspect.getdoc(getattr(mlp_ref, name))


def test_the_reader_of_sections_finds_what_is_missing():
    def documented(z, slope):
        """Leaky ReLU.

        Parameters
        ----------
        z : array_like
            Pre-activation.

        Returns
        -------
        numpy.ndarray, same shape as ``z``
        """
        return z

    assert problems_of(documented) == ["parameters not documented: ['slope']",
                                       "Parameters: 'z : array_like' is an array without its shape"]
    assert len(FUNCTIONS) > 80 and len(CLASSES) > 10
