"""Reading the course pages: fences, markers and embedded snippets.

The pages follow pytest-codeblocks' marker syntax (``<!--pytest-codeblocks:expected-output-->``,
``<!--pytest-codeblocks:cont-->``, ``<!--pytest-codeblocks:importorskip(mod)-->``,
``<!--pytest.mark.skip(reason="...")-->``), read here by a parser of our own so that a
continued block can show its own output (pytest-codeblocks merges a continuation into the
block before it, so only the last block of a chain could show what it prints) and so that
``--8<--`` snippet lines are expanded before a block runs.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HOOKS = ROOT / "hooks"


def load_hook(name: str) -> ModuleType:
    """``hooks/<name>.py`` loaded as MkDocs loads a hook: its folder on ``sys.path`` meanwhile
    (so it can import ``lab_files``), and registered under its name (dataclasses need that)."""
    spec = importlib.util.spec_from_file_location(name, HOOKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(HOOKS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(HOOKS))
    return module
SNIPPETS = ROOT / "snippets"

MARKER = re.compile(r"^<!--\s*pytest-codeblocks:(?P<keyword>.*?)\s*-->$")
MARK = re.compile(r"^<!--\s*(?P<mark>pytest\.mark\..*?)\s*-->$")
NORUN = re.compile(r"^<!--\s*norun:\s*(?P<reason>.*?)\s*-->$")
FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,}|~{3,})(?P<info>.*)$")


@dataclass
class Fence:
    """One fenced block of a page, with the markers that stood right before it."""

    page: Path
    lineno: int  # line of the opening fence, 1-based
    indent: int
    info: str
    code: str
    markers: list[str] = field(default_factory=list)  # pytest-codeblocks keywords
    marks: list[str] = field(default_factory=list)  # pytest.mark.* expressions
    norun_reason: str | None = None

    @property
    def where(self) -> str:
        """``page:line`` for messages, the page relative to the repository root."""
        return f"{self.page.relative_to(ROOT)}:{self.lineno}"

    @property
    def language(self) -> str:
        first = self.info.strip().split(" ", 1)[0] if self.info.strip() else ""
        return first.strip("{}.").lower()

    @property
    def runs_in_tests(self) -> bool:
        return self.info.strip() == "python"

    @property
    def runs_at_build(self) -> bool:
        return bool(re.search(r'\bexec\s*=\s*"(on|true|1)"', self.info))


@dataclass
class Block:
    """A runnable ``python`` fence: its code (snippets expanded) and what it must print."""

    fence: Fence
    code: str
    expected_output: str | None = None
    continues: "Block | None" = None
    importorskip: str | None = None
    snippets: list[str] = field(default_factory=list)  # names of the embedded snippet files
    expected_fence: Fence | None = None  # the fence that shows the output on the page

    def chain(self) -> list["Block"]:
        """Every block whose state this one builds on, oldest first, then itself."""
        blocks, block = [], self
        while block is not None:
            blocks.append(block)
            block = block.continues
        return blocks[::-1]


def pages() -> list[Path]:
    """Every Markdown page under docs/, sorted."""
    return sorted(DOCS.rglob("*.md"))


def parse_fences(page: Path) -> list[Fence]:
    """Every fence of a page (indented ones inside admonitions and tabs included)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    fences: list[Fence] = []
    markers: list[str] = []
    marks: list[str] = []
    norun: str | None = None
    index = 0
    while index < len(lines):
        stripped = lines[index].strip()
        opening = FENCE_OPEN.match(lines[index])
        if match := MARKER.match(stripped):
            markers.append(match["keyword"].strip())
        elif match := MARK.match(stripped):
            marks.append(match["mark"])
        elif match := NORUN.match(stripped):
            norun = match["reason"]
        elif opening:
            ticks = opening["ticks"]
            lineno = index + 1
            body = []
            index += 1
            while index < len(lines) and not lines[index].strip().startswith(ticks):
                body.append(lines[index])
                index += 1
            if index == len(lines):
                raise ValueError(f"{page}:{lineno}: fence opened and never closed")
            indent = len(opening["indent"])
            code = "\n".join(line[min(indent, len(line) - len(line.lstrip())):] for line in body)
            fences.append(Fence(page, lineno, indent, opening["info"].strip(),
                                code + "\n" if body else "", markers, marks, norun))
            markers, marks, norun = [], [], None
        index += 1
    return fences


def expand_snippets(code: str, where: str) -> tuple[str, list[str]]:
    """Replace each ``--8<-- "name"`` line by the snippet file it names, as MkDocs does; also the names."""
    return _page_code().expand_snippets(code, where)  # the build's own, so both expand alike


@functools.cache
def _page_code() -> ModuleType:
    return load_hook("page_code")


def blocks(page: Path) -> list[Block]:
    """The runnable blocks of a page, with expected outputs and continuations attached."""
    result: list[Block] = []
    for fence in parse_fences(page):
        where = fence.where
        if "expected-output" in fence.markers:
            if not result or result[-1].expected_output is not None:
                raise ValueError(f"{where}: expected-output marker with no python block before it to attach to")
            result[-1].expected_output = fence.code
            result[-1].expected_fence = fence
            continue
        if not fence.runs_in_tests:
            continue
        code, used = expand_snippets(fence.code, where)
        block = Block(fence, code, snippets=used)
        for keyword in fence.markers:
            if keyword == "cont":
                if not result:
                    raise ValueError(f"{where}: cont marker with no block before it")
                block.continues = result[-1]
            elif match := re.fullmatch(r"importorskip\((.+)\)", keyword):
                block.importorskip = match[1].strip("'\" ")
            else:
                raise ValueError(f"{where}: unknown marker pytest-codeblocks:{keyword}")
        result.append(block)
    return result


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
