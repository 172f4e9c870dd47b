"""Reading the course pages for the tests: the build's own fence parser, and paths of the built site.

The pages mark their blocks with the project's own markers (``<!--mlp:expected-output-->``,
``<!--mlp:cont-->``, ``<!--mlp:importorskip(mod)-->``), read by
mlp_site.page_code's parser and blocks, the ones the build runs: a
continued block shows its own output, and ``--8<--`` snippet lines are expanded before a block runs.
"""

from __future__ import annotations

from pathlib import Path

from mlp_site import page_code

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
Fence, Block = page_code.Fence, page_code.Block
FENCE_OPEN = page_code.FENCE_OPEN


def pages() -> list[Path]:
    """Every Markdown page under docs/, sorted."""
    return sorted(DOCS.rglob("*.md"))


def _where(page: Path) -> str:
    return str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else str(page)


def parse_fences(page: Path) -> list[Fence]:
    """Every fence of a page (indented ones inside admonitions and tabs included)."""
    return page_code.parse_fences(page.read_text(encoding="utf-8").split("\n"), _where(page))


def expand_snippets(code: str, where: str) -> tuple[str, list[str]]:
    """Replace each ``--8<-- "name"`` line by the snippet file it names, as MkDocs does; also the names."""
    return page_code.expand_snippets(code, where)


def blocks(page: Path) -> list[Block]:
    """The runnable blocks of a page, with expected outputs and continuations attached."""
    return page_code.page_blocks(page.read_text(encoding="utf-8"), _where(page))


# --------------------------------------------------------------------------- the built site and the labs

def nav_sources() -> list[str]:
    """The pages of mkdocs.yml's nav, as paths under docs/, in nav order."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml may hold !ENV and python tags; they are irrelevant to the nav.
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)

    def walk(entry):
        if isinstance(entry, str):
            yield entry
        elif isinstance(entry, dict):
            for value in entry.values():
                yield from walk(value)
        elif isinstance(entry, list):
            for value in entry:
                yield from walk(value)

    return list(walk(config["nav"]))


def built_page(site: Path, source: str) -> Path:
    """The HTML file the build makes from the page ``source`` (a path under docs/).

    A Russian twin's source (``lessons/x.ru.md``) and its path in the edition (``ru/lessons/x.md``)
    both give ``ru/lessons/x/index.html``.
    """
    path = Path(source)
    if path.suffixes[-2:-1] == [".ru"]:
        path = Path("ru") / path.with_name(path.name.replace(".ru.", "."))
    stem = path.with_suffix("")
    return site / (stem.parent / "index.html" if stem.name == "index" else stem / "index.html")


def first_code_cell(notebook: Path) -> dict:
    """The settings cell of a lab: plain assignments of literals, which a student may edit."""
    import ast

    cells = notebook.read_text(encoding="utf-8").split("\n# %%")
    code = next(cell for cell in cells[1:] if not cell.startswith(" [markdown]"))
    values = {}
    for statement in ast.parse(code).body:
        assert isinstance(statement, ast.Assign) and len(statement.targets) == 1, ast.unparse(statement)
        values[statement.targets[0].id] = ast.literal_eval(statement.value)
    return values
