"""The core of mlp_ref (the modules at its top, mlp_ref/*.py) is the library only.

It imports nothing of page rendering or of the editions' words (``mlp_ref.course``), nothing of
the labs, and no site tool: a reader's ``import mlp_ref`` loads NumPy and SciPy, not the
machinery that builds the site.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests import pagekit

CORE = sorted((pagekit.ROOT / "mlp_ref").glob("*.py"))
SUBPACKAGES = ("mlp_ref.course", "mlp_ref.labs")
# the site's tools: markdown-exec, Jupyter, MkDocs and Markdown; matplotlib draws the course's figures
TOOLS = ("markdown_exec", "jupyter", "jupyter_core", "jupyter_client", "nbformat", "nbconvert", "mkdocs",
         "markdown", "pymdownx", "matplotlib")


def imported_modules(tree: ast.Module) -> list[str]:
    """Every module an ``import`` or ``from ... import`` names, in any function too, made absolute;
    ``from mlp_ref import course`` names ``mlp_ref.course``."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = ("mlp_ref." * (node.level > 0)) + (node.module or "")
            names += [module.rstrip(".")] + [f"{module.rstrip('.')}.{alias.name}" for alias in node.names]
    return names


def forbidden(name: str) -> bool:
    return (any(name == p or name.startswith(p + ".") for p in SUBPACKAGES)
            or name.split(".")[0] in TOOLS or name.split(".")[0].startswith(("jupyter", "mkdocs")))


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_a_core_module_imports_no_page_code(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert [name for name in imported_modules(tree) if forbidden(name)] == []


def test_import_mlp_ref_loads_no_page_code_and_no_site_tool():
    code = "import sys, mlp_ref; print('\\n'.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=pagekit.ROOT).stdout.split()
    assert "mlp_ref.network" in loaded and "numpy" in loaded  # the list is really the modules loaded
    assert [name for name in loaded if forbidden(name)] == []
