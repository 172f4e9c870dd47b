"""The course's structure, read from the pages themselves: which page builds on which.

Each lesson lists the earlier lessons it uses in its ``## Prerequisites`` section, each lab in
its ``**Prerequisites.**`` paragraph, as links. That is the one place where the structure is
typed. The home page's map and its "builds on" column are drawn from what this module reads
there, so they cannot disagree with the pages (``tests/test_course_map.py``).

A page's key is its number (``"1"`` … ``"9"``) or its lab letter (``"A"``, ``"B"``), read from
its title (``# 3. The forward pass …``, ``# # Lab A: …`` in a lab's notebook).
"""

from __future__ import annotations

import ast
import functools
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from mlp_ref.course import i18n

DOCS = Path(__file__).resolve().parent.parent / "docs"
GENERATORS = DOCS.parent / "mlp_ref" / "course" / "generators"

_LESSON_TITLE = re.compile(r"^# (?P<key>\d+)\. (?P<title>.+)$", re.MULTILINE)
_LAB_TITLE = re.compile(r"^# # (?:Lab|Лабораторная) (?P<key>[A-Z]): (?P<title>.+)$", re.MULTILINE)
# A Russian page's section keeps the English anchor: "## Что нужно знать {#prerequisites}".
_SECTION = re.compile(r"^## (?:Prerequisites|.*\{#prerequisites\})\s*$(?P<body>.*?)(?=^## )", re.MULTILINE | re.DOTALL)
_LAB_PARAGRAPH = re.compile(r"^# \*\*(?:Prerequisites|Что нужно знать)\.\*\*(?P<body>.*?)^#\s*$",
                            re.MULTILINE | re.DOTALL)
_LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?:#[^)]*)?\)")
_PAGE_NAME = re.compile(r"(?P<name>\d\d-[a-z0-9-]+)(?:\.md|/)?$")


@dataclass(frozen=True)
class Page:
    key: str          # "1" … "9", "A", "B"
    title: str        # as the page's own heading says it
    path: str         # relative to docs/, as a link from the home page
    builds_on: tuple  # keys of the pages its Prerequisites link to, in course order

    def href(self, from_source: str) -> str:
        """The link to this page from the page whose source is ``from_source`` (relative to docs/).

        Markdown that a generator prints is not passed through MkDocs' link rewriting, so a link to
        ``lessons/01-x.md`` would stay a link to a Markdown file: this is the address the built site
        serves instead (``use_directory_urls``), relative, so that each edition's page links its own
        edition's page (``/ru/`` pages to ``/ru/`` pages) and a site published under a sub-path works.
        """
        return posixpath.relpath(served_folder(self.path), served_folder(from_source)) + "/"


def served_folder(source: str) -> str:
    """The folder the built site serves a page from: ``lessons/01-x.md`` -> ``lessons/01-x``,
    ``labs/digits.py`` -> ``labs/digits``, ``index.md`` -> ``.`` (``use_directory_urls``)."""
    stem = posixpath.splitext(source)[0]
    if posixpath.basename(stem) == "index":
        stem = posixpath.dirname(stem)
    return stem or "."


def _order(key: str) -> tuple:
    return (1, key) if key.isalpha() else (0, int(key))


def twin(path: Path, language: str) -> Path:
    """The page of ``language``'s edition beside an English page: ``a.md`` -> ``a.ru.md``,
    ``labs/b.py`` -> ``labs/b.ru.py`` (whether or not it exists)."""
    return path.with_name(f"{path.stem}.{language}{path.suffix}")


def edition(paths, language: str) -> list[Path]:
    """Of a folder's pages (both editions: ``a.md``, ``a.ru.md``), those of ``language``'s edition:
    a page's Russian twin where it has one, else the English page."""
    english = [p for p in sorted(paths) if not re.search(r"\.[a-z]{2}\.[a-z]+$", p.name)]
    if language == "en":
        return english
    return [other if (other := twin(p, language)).exists() else p for p in english]


def pages(docs: Path = DOCS, language: str | None = None) -> list[Page]:
    """Every lesson and lab, in course order, with the pages its Prerequisites link to.

    ``language`` picks the edition whose titles are read (default: the one being built); the
    links are the English pages' paths, which each edition's build resolves to its own page.
    """
    language = language or i18n.language()
    lessons = {}
    raw = []
    kinds = (("lessons", "*.md", _LESSON_TITLE, _SECTION, "a '# N. Title' heading and a '## Prerequisites' section"),
             ("labs", "*.py", _LAB_TITLE, _LAB_PARAGRAPH, "a '# # Lab X: title' heading and a '**Prerequisites.**' paragraph"))
    for folder, pattern, title_pattern, body_pattern, expected in kinds:
        for path in edition((docs / folder).glob(pattern), language):
            text = path.read_text(encoding="utf-8")
            title, body = title_pattern.search(text), body_pattern.search(text)
            if not title or not body:
                raise ValueError(f"{path}: expected {expected}")
            name = path.name.replace(f".{language}.", ".")  # the English page's name, which links use
            if folder == "lessons":
                lessons[Path(name).stem] = title["key"]
            raw.append((title["key"], title["title"], f"{folder}/{name}", body["body"], path))
    result = []
    for key, title, link, body, path in raw:
        keys = set()
        for match in _LINK.finditer(body):
            name = _PAGE_NAME.search(match["target"].rstrip("/").split("/")[-1] + "")
            if not name or name["name"] not in lessons:
                raise ValueError(f"{path}: Prerequisites link {match['target']!r} names no lesson")
            keys.add(lessons[name["name"]])
        result.append(Page(key, title, link, tuple(sorted(keys, key=_order))))
    return sorted(result, key=lambda page: _order(page.key))


def map_edges(course: list[Page]) -> list[tuple[str, str]]:
    """Arrows of the course map: (a, b) when b builds on a, leaving out the links implied by
    a longer path (the transitive reduction)."""
    direct = {page.key: set(page.builds_on) for page in course}

    def reachable(key, seen=None):
        seen = set() if seen is None else seen
        for earlier in direct[key]:
            if earlier not in seen:
                seen.add(earlier)
                reachable(earlier, seen)
        return seen

    edges = []
    for page in course:
        for a in page.builds_on:
            if not any(a in reachable(b) for b in page.builds_on if b != a):
                edges.append((a, page.key))
    return edges


def depths(course: list[Page]) -> dict[str, int]:
    """Length of the longest chain of prerequisites below each page (its column on the map)."""
    direct = {page.key: page.builds_on for page in course}
    memo: dict[str, int] = {}

    def depth(key):
        if key not in memo:
            memo[key] = 1 + max((depth(k) for k in direct[key]), default=-1)
        return memo[key]

    return {page.key: depth(page.key) for page in course}


def builds_on_text(page: Page) -> str:
    """The home table's cell: ``1, 3, 4`` (labs as ``Lab A``), or a dash."""
    lab = i18n.say("Lab", ru="Лаб.")
    return ", ".join(f"{lab} {k}" if k.isalpha() else k for k in page.builds_on) or "—"


_WIDGET_CALL = re.compile(r'widget_html\(\s*"(?P<name>[a-z-]+)"')
_SUBHEADING = re.compile(r"^#{2,4} (?P<title>.+?)(?:\s*\{#(?P<id>[\w-]+)\})?\s*$", re.MULTILINE)


def _slug(title: str) -> str:
    """The anchor Python-Markdown's toc gives a heading: lower case, words joined by hyphens."""
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", title).strip().lower())


def widgets(course: list[Page], docs: Path = DOCS) -> list[tuple[Page, str, str]]:
    """(page, widget name, anchor of the section that holds it) for every interactive widget,
    in course order: read from the ``widget_html("name", ...)`` calls of the pages' code, the one
    place where a widget is put on a page (on the page itself, or in a generator it calls there)."""
    found = []
    for page in course:
        text = (docs / page.path).read_text(encoding="utf-8")  # the English page: anchors are the same in both
        places = [(call.start(), call["name"]) for call in _WIDGET_CALL.finditer(text)]
        places += [(call.offset, match["name"]) for call in generator_calls(text)
                   for match in _WIDGET_CALL.finditer(call.source)]
        for offset, name in sorted(places):
            headings = [h["id"] or _slug(h["title"]) for h in _SUBHEADING.finditer(text, 0, offset)]
            found.append((page, name, headings[-1] if headings else ""))
    return found


# --- the generator functions a page calls ----------------------------------------------------
# A page imports its generators by name ("from mlp_ref.course.generators import lesson05") and
# calls one per table or figure ("print(lesson05.loss_table())").
_GENERATOR_IMPORT = re.compile(r"^[ \t]*from[ \t]+mlp_ref\.course\.generators[ \t]+import[ \t]+"
                               r"(?P<names>\w+(?:[ \t]*,[ \t]*\w+)*)[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class GeneratorCall:
    offset: int       # where the call stands in the page's text
    path: Path        # the generator module
    parts: tuple      # ((line in path, source), ...): the function called, then each function of
                      # the module it calls, in turn (a table's check may sit in a helper)

    @property
    def source(self) -> str:
        return "\n\n".join(source for _, source in self.parts)


def _module_functions(path: Path) -> dict[str, tuple[int, str, set[str]]]:
    """A module's top-level functions: name -> (line of its def, its source, the names it uses)."""
    return _functions(path.read_text(encoding="utf-8"), str(path))


@functools.lru_cache(maxsize=64)
def _functions(text: str, filename: str) -> dict[str, tuple[int, str, set[str]]]:
    # Kept by the module's text: a page's scan asks for the same few modules hundreds of times.
    # Each source is cut from the lines split once (ast.get_source_segment splits the whole text
    # again for every function: 63 of the 88 s of tests/test_prose_numbers.py went there).
    lines, tree = text.splitlines(keepends=True), ast.parse(text, filename=filename)
    return {node.name: (node.lineno, _segment(lines, node), {n.id for n in ast.walk(node) if isinstance(n, ast.Name)})
            for node in tree.body if isinstance(node, ast.FunctionDef)}


def _segment(lines: list[str], node: ast.stmt) -> str:
    """What ``ast.get_source_segment(text, node, padded=True)`` returns for a top-level ``node``
    (its columns are UTF-8 byte offsets)."""
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first].encode()[node.col_offset:node.end_col_offset].decode()
    head = " " * node.col_offset + lines[first].encode()[node.col_offset:].decode()
    return head + "".join(lines[first + 1:last]) + lines[last].encode()[:node.end_col_offset].decode()


def generator_modules(text: str, generators: Path | None = None) -> list[Path]:
    """The generator modules a page's text imports (``from mlp_ref.course.generators import lesson05``)."""
    names = sorted({name.strip() for match in _GENERATOR_IMPORT.finditer(text) for name in match["names"].split(",")})
    return [(generators or GENERATORS) / f"{name}.py" for name in names]


def generator_calls(text: str, generators: Path | None = None) -> list[GeneratorCall]:
    """Every call of a generator function in a page's text (``lesson05.loss_table(``), in order;
    the modules are read in ``generators`` (default :data:`GENERATORS`).

    Raises
    ------
    ValueError
        A call names a function its module does not have.
    """
    modules = [path.stem for path in generator_modules(text)]
    if not modules:
        return []
    found, generators = [], generators or GENERATORS
    for call in re.finditer(rf"\b(?P<module>{'|'.join(modules)})\.(?P<function>\w+)\(", text):
        path = generators / f"{call['module']}.py"
        functions = _module_functions(path)
        if call["function"] not in functions:
            raise ValueError(f"{path.name}: expected a function {call['function']!r}, called by the page; "
                             f"it has {', '.join(sorted(functions))}")
        parts, todo, seen = [], [call["function"]], set()
        while todo:
            name = todo.pop(0)
            if name in seen:
                continue
            seen.add(name)
            line, source, uses = functions[name]
            parts.append((line, source))
            todo += sorted(uses & functions.keys())
        found.append(GeneratorCall(call.start(), path, tuple(parts)))
    return found
