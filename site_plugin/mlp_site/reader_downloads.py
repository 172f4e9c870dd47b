"""What a reader needs to run the pages' code at home, built and served by the site itself.

Every build makes, from this checkout:

- ``downloads/mlp_ref-<version>-py3-none-any.whl``: the wheel of the exact ``mlp_ref`` the
  pages were verified with (built offline, reproducibly: fixed zip timestamps);
- ``downloads/requirements-reader.txt``: exact pins with their hashes, taken from
  ``requirements.txt``, of what the lessons, labs and exercises import (and everything those pull
  in, on any platform). It names no address: a copy of the site served elsewhere (a class server,
  a mirror) serves a file that still works there.

One line installs both, every file checked (pip's hash-checking mode): ``pip install -r
<site>/downloads/requirements-reader.txt "mlp_ref[labs] @ <site>/downloads/<wheel>#sha256=<hex>"``
(:func:`install_command`). pip reads a requirement's URL in a requirements file as it is, and a
relative path against the current folder, never against the file's URL; so the wheel's address is
in the command, not the file. The page gives it for ``site_url``, and docs/javascripts/install-line.js
writes it again, in the reader's browser, for the address the page was actually served from.

It fills each ``<!-- before-you-start: KIND -->`` marker (``home``, ``lab``, ``exercise``) with
a "Before you start" box that gives that install line, the Python the pins need and, on a
lab, how long running every cell took (timed by render_cache.py). It also tells the notebooks
executed during the build that the site is being built (``MLP_SITE_BUILD=1``), so the
checks that guard the labs' sentences fail the build there and only warn in a reader's run.
A box says its words in the language of the edition being built (words.py); the downloads
are the same files for both editions. A link to an exercise's file (starter, tests,
solution) gets ``download``, so the browser saves it as the box says instead of showing it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path, PurePosixPath

import markdown as markdown_lib
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from packaging.markers import Marker, default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from . import ROOT, cache
from .lab_files import edit_markdown_cells, is_download_notebook, is_lab
from .words import say

DOWNLOADS = "downloads"
READER_REQUIREMENTS = "requirements-reader.txt"
SITE_BUILD_ENV = "MLP_SITE_BUILD"  # read by mlp_ref.course.claims
# What the pages, labs and exercises import beyond mlp_ref itself; everything they pull in
# comes along, pinned as in requirements.txt.
READER_PACKAGES = ("numpy", "scipy", "scikit-learn", "matplotlib", "tqdm", "names", "threadpoolctl",
                   "ipykernel", "jupyterlab", "pytest")
# Zip timestamps of the wheel (1980-01-01, the earliest a zip can hold): the same source gives
# the same bytes, so the SHA-256 on the pages changes only when mlp_ref does.
SOURCE_DATE_EPOCH = "315532800"
MARKER = re.compile(r"^(?P<indent>[ \t]*)<!--\s*before-you-start:\s*(?P<kind>[a-z]+)\s*-->[ \t]*$", re.MULTILINE)
KINDS = ("home", "lab", "exercise", "lesson")
INSTALL_CLASS = "mlp-install"  # the install line's block: rewritten for the page's address, wrapped on a phone


# ---------------------------------------------------------------------------------------
# The wheel and the pinned requirements
# ---------------------------------------------------------------------------------------

def _wheel_sources() -> list[Path]:
    sources = [ROOT / "pyproject.toml", ROOT / "README.md"]
    sources += sorted(p for p in (ROOT / "mlp_ref").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return sources


def project_urls(repo_url: str | None) -> str:
    """The ``[project.urls]`` table the wheel's metadata gets (``pip show`` lists them): the
    repository and its issues, when the build knows the repository's address (REPO_URL); else none."""
    if not repo_url:
        return ""
    repo = repo_url.rstrip("/")
    return f'\n[project.urls]\nSource = "{repo}"\nIssues = "{repo}/issues"\n'


def _wheel_key(urls: str = "") -> str:
    return cache.key("wheel", urls, metadata.version("setuptools"), *cache.files(_wheel_sources(), ROOT))


@functools.cache
def _build_wheel(key: str, urls: str = "") -> Path:
    """The wheel of this checkout's mlp_ref, kept (mlp_site/cache.py) under ``key`` (its sources, with
    the Python and setuptools that build it): built (offline, no build isolation) only when that
    changed, not on every live-preview rebuild."""
    kept = cache.folder("reader", key)
    wheels = list(kept.glob("mlp_ref-*.whl"))
    if len(wheels) == 1:
        return wheels[0]
    wheel = _pip_wheel(urls)
    partial = kept / f".{wheel.name}.{os.getpid()}"  # a build beside this one never reads half a file
    shutil.copy2(wheel, partial)
    os.replace(partial, kept / wheel.name)
    return kept / wheel.name


def _pip_wheel(urls: str = "") -> Path:
    """Build the wheel from a copy of the sources, its ``pyproject.toml`` ending with ``urls``."""
    out = Path(tempfile.mkdtemp(prefix="mlp-ref-wheel-"))
    work = out / "src"
    for path in _wheel_sources():
        target = work / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    with open(work / "pyproject.toml", "a", encoding="utf-8") as pyproject:
        pyproject.write(urls)
    env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", str(out / "dist"), str(work)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    wheels = list((out / "dist").glob("mlp_ref-*.whl"))
    if result.returncode != 0 or len(wheels) != 1:
        raise RuntimeError(f"building the mlp_ref wheel failed (exit {result.returncode}):\n"
                           f"{result.stdout}\n{result.stderr}")
    return wheels[0]


@dataclass(frozen=True)
class Pin:
    """One package of a locked requirements file: its version, the marker of the platforms that
    install it (or None: all of them), and the SHA-256 of every file the public index serves for it."""

    version: str
    marker: str | None
    hashes: tuple[str, ...]  # "sha256:<hex>"
    via: frozenset[str] = frozenset()  # the packages that need it, as the lock's "# via" comments say

    def lines(self, name: str) -> list[str]:
        """The pin as ``make lock`` writes it: ``name==version ; marker``, then one ``--hash`` a line."""
        head = f"{name}=={self.version}" + (f" ; {self.marker}" if self.marker else "")
        return [head + " \\", *(f"    --hash={h} \\" for h in self.hashes[:-1]), f"    --hash={self.hashes[-1]}"]


def logical_lines(text: str) -> list[tuple[int, str]]:
    """A requirements file's logical lines, as pip reads them: a line ending in a backslash joined
    with the next, comments dropped. Returns (number of the first physical line, text)."""
    joined, first, out = [], 0, []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(" #", 1)[0] if not raw.lstrip().startswith("#") else ""
        if not joined:
            first = number
        if line.rstrip().endswith("\\"):
            joined.append(line.rstrip()[:-1].strip())
            continue
        joined.append(line.strip())
        if entry := " ".join(part for part in joined if part):
            out.append((first, entry))
        joined = []
    return out


def requirement_and_options(line: str) -> tuple[str, list[str]]:
    """A logical line's requirement and its options (``--hash=...``), as pip splits them."""
    requirement, *options = re.split(r"\s+(?=--)", line)
    return requirement, options


def locked(text: str) -> dict[str, tuple[Pin, ...]]:
    """A locked requirements file (``name==version ; marker --hash=... ...`` entries) as {canonical name:
    its entries}. A package has one entry, or one per range of Pythons where the releases it can use
    differ (soupsieve 2.10 below Python 3.11.5, 4.1.3 from there on), each with its marker."""
    via = _via(text)
    pins: dict[str, tuple[Pin, ...]] = {}
    for _, line in logical_lines(text):
        requirement_text, options = requirement_and_options(line)
        requirement = Requirement(requirement_text)
        (spec,) = requirement.specifier
        name = canonicalize_name(requirement.name)
        pins[name] = (*pins.get(name, ()), Pin(
            spec.version, str(requirement.marker) if requirement.marker else None,
            tuple(option.removeprefix("--hash=") for option in options if option.startswith("--hash=")),
            frozenset(via.get(name, ()))))
    return pins


def here(entries: tuple[Pin, ...]) -> Pin:
    """The entry pip installs on this machine (the first, when none is for this machine)."""
    return next((pin for pin in entries if pin.marker is None or Marker(pin.marker).evaluate()), entries[0])


def _via(text: str) -> dict[str, set[str]]:
    """Who needs each entry, from the comments ``make lock`` writes under it: ``# via a`` or ``# via``
    followed by ``#   a`` lines (``-r requirements.in`` is left out)."""
    via: dict[str, set[str]] = {}
    name, listing = None, False
    for line in text.splitlines():
        if match := re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*==", line):
            name, listing = canonicalize_name(match[1]), False
        elif name and (match := re.match(r"^\s*# via\b\s*(.*)$", line)):
            listing = True
            via.setdefault(name, set()).update([match[1]] if match[1] else [])
        elif name and listing and (match := re.match(r"^\s*#\s+(\S.*)$", line)):
            via[name].add(match[1])
        else:
            listing = False
    return {key: {canonicalize_name(who.split("[")[0]) for who in whos if not who.startswith("-")}
            for key, whos in via.items()}


def pinned_requirements(path: Path = ROOT / "requirements.txt") -> dict[str, tuple[Pin, ...]]:
    """``requirements.txt`` as {canonical name: its entries} (see :func:`locked`)."""
    return locked(path.read_text(encoding="utf-8"))


def pins_of(text: str) -> dict[str, str]:
    """The exact pins of a requirements file's text as {canonical name: version}, the version this
    machine installs where the Pythons' releases differ."""
    return {name: here(entries).version for name, entries in locked(text).items()}


# The platforms and Pythons a reader may have. A package that any of them needs goes into the reader's
# file, with the marker the lock gives it, so pip installs it only where it is needed: in hash-checking
# mode pip refuses to install anything the file does not pin (colorama, which tqdm needs on Windows).
PLATFORMS = ({"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"},
             {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"},
             {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"})
IMPLEMENTATIONS = ({"implementation_name": "cpython", "platform_python_implementation": "CPython"},
                   {"implementation_name": "pypy", "platform_python_implementation": "PyPy"})
PYTHONS = ("3.11", "3.12", "3.13", "3.14")


def _environments() -> list[dict[str, str]]:
    base = default_environment()
    return [{**base, **platform, **implementation, "python_version": python, "python_full_version": f"{python}.0"}
            for platform in PLATFORMS for implementation in IMPLEMENTATIONS for python in PYTHONS]


def reader_closure(roots=READER_PACKAGES) -> list[str]:
    """Canonical names of ``roots`` and everything they require on any reader's platform, sorted.

    ``roots`` are requirement strings (``"bleach[css]"`` brings the ``css`` extra's packages). The
    requirements are read from the packages installed here; a marker counts when it holds on any of
    :data:`PLATFORMS`, :data:`IMPLEMENTATIONS` and :data:`PYTHONS`. A package not installed here (one
    only another platform needs, such as appnope on macOS) brings what ``requirements.txt`` says it needs
    (its ``# via`` comments); tests/test_reader_install.py checks the result against uv's resolution
    for every platform.
    """
    environments = _environments()
    pins = pinned_requirements()
    seen: set[tuple[str, str]] = set()
    todo = [(canonicalize_name(r.name), extra) for r in map(Requirement, roots) for extra in ("", *r.extras)]
    while todo:
        name, extra = todo.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:  # needed on another platform only: what the lock says it needs
            todo += [(other, "") for other, entries in pins.items() if any(name in pin.via for pin in entries)]
            continue
        for text in requires:
            requirement = Requirement(text)
            if requirement.marker is None or any(requirement.marker.evaluate({**environment, "extra": extra})
                                                 for environment in environments):
                todo += [(canonicalize_name(requirement.name), e) for e in ("", *requirement.extras)]
    return sorted({name for name, _ in seen})


def requires_python() -> SpecifierSet:
    """The Python that mlp_ref declares (pyproject.toml's requires-python)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return SpecifierSet(project["requires-python"])


def lowest_python() -> str:
    """The lowest Python that mlp_ref declares: the version in ``requires-python``'s ``>=``."""
    (lowest,) = [spec.version for spec in requires_python() if spec.operator == ">="]
    return lowest


def reader_requirements_text() -> str:
    """The reader's third-party requirements: each package they need as ``requirements.txt`` locks it
    (version, marker, hashes). No address: the wheel comes from the command (:func:`install_command`)."""
    pins = pinned_requirements()
    names = reader_closure()
    missing = [name for name in names if name not in pins]
    if missing:
        raise RuntimeError(f"requirements.txt pins none of {missing}, which the reader's packages need")
    unhashed = [name for name in names if not all(pin.hashes for pin in pins[name])]
    if unhashed:
        raise RuntimeError(f"requirements.txt gives no --hash for {unhashed}: run make lock")
    lines = [
        "# What the lessons, labs and exercises of this site need, pinned exactly as the site was",
        "# verified with, each with the SHA-256 of its files on the public index (pip checks them).",
        "# Generated from requirements.txt when the site was built; do not edit.",
        f"# Needs Python {requires_python()} (mlp_ref's requires-python).",
        "# mlp_ref itself is not here: the install line on the site's pages names its wheel, by the",
        "# address you got this file from, with its SHA-256.",
        *(line for name in names for pin in pins[name] for line in pin.lines(name)),
    ]
    return "\n".join(lines) + "\n"


def install_command(base: str, wheel_name: str, sha256: str) -> str:
    """The reader's one install line for the site served at ``base`` (ending in ``/``): the pinned
    third-party requirements, and the wheel by its URL with its SHA-256 (a requirement on pip's command
    line takes no ``--hash``; the URL's ``#sha256=`` is checked the same way, and pip's hash-checking
    mode, which the file's hashes turn on, refuses the wheel without it). docs/javascripts/install-line.js
    rewrites ``base`` in the browser: keep the two in step."""
    downloads = f"{base}{DOWNLOADS}/"
    return f'pip install -r {downloads}{READER_REQUIREMENTS} "mlp_ref[labs] @ {downloads}{wheel_name}#sha256={sha256}"'


class ReaderDownloads:
    """The wheel and requirements file of one build, and the facts the boxes state."""

    def __init__(self, site_url: str, repo_url: str | None = None):
        urls = project_urls(repo_url)
        self.wheel = _build_wheel(_wheel_key(urls), urls)
        self.wheel_bytes = self.wheel.read_bytes()
        self.sha256 = hashlib.sha256(self.wheel_bytes).hexdigest()
        base = site_url if site_url.endswith("/") else site_url + "/"
        self.wheel_url = f"{base}{DOWNLOADS}/{self.wheel.name}"
        self.command = install_command(base, self.wheel.name, self.sha256)
        self.requirements = reader_requirements_text()
        self.version = self.wheel.name.split("-")[1]
        self.python = lowest_python()  # the lowest version: "3.11 or newer" is said in the box


# ---------------------------------------------------------------------------------------
# The "Before you start" boxes
# ---------------------------------------------------------------------------------------

# The box's commands that make and activate the environment: on macOS and Linux (run as they are by
# tests/test_reader_install.py), and on Windows.
VENV_POSIX = ("python3 -m venv .venv", "source .venv/bin/activate")
VENV_WINDOWS = ("py -m venv .venv", ".venv\\Scripts\\activate")


def _kilobytes(n: int) -> str:
    return f"{n / 1000:.0f} " + say("kB", ru="кБ")


def title() -> str:
    """The box's title."""
    return say("Before you start", ru="Прежде чем начать")


def box_lines(kind: str, downloads: ReaderDownloads, notebook_link: str | None = None,
              lab_seconds: float | None = None) -> list[str]:
    """The box's content for one page, as Markdown lines."""
    if kind not in KINDS:
        raise ValueError(f"unknown before-you-start kind {kind!r}; expected one of {KINDS}")
    size = _kilobytes(len(downloads.wheel_bytes))
    lines = [
        say(f"You need Python {downloads.python} or newer. Make a fresh virtual environment in a folder of "
            "your own and activate it. On macOS and Linux:",
            ru=f"Нужен Python {downloads.python} или новее. Создайте новое виртуальное окружение в своей "
               "папке и активируйте его. В macOS и Linux:"),
        "",
        "```bash",
        *VENV_POSIX,
        "```",
        "",
        say("On Windows, in the Command Prompt (in PowerShell, the second line is `.venv\\Scripts\\Activate.ps1`):",
            ru="В Windows, в командной строке (в PowerShell вторая строка — `.venv\\Scripts\\Activate.ps1`):"),
        "",
        "```bat",
        *VENV_WINDOWS,
        "```",
        "",
        say("In the activated environment, `python` and `pip` are its own. There one line installs everything "
            "this site's code uses, pinned to the versions the pages were checked with:",
            ru="В активированном окружении `python` и `pip` — его собственные. Там одна строка устанавливает "
               "всё, что использует код этого сайта, в тех самых версиях, с которыми проверялись страницы:"),
        "",
        f"```{{.bash .{INSTALL_CLASS}}}",  # the class: docs/javascripts/install-line.js, extra.css
        downloads.command,
        "```",
        "",
        say(f"It installs [`mlp_ref` {downloads.version}]({downloads.wheel_url}), the very package these "
            f"pages were built and tested with ({size}, SHA-256 "
            f"`{downloads.sha256[:16]}…`, checked by pip), with NumPy, SciPy, scikit-learn, "
            "matplotlib, tqdm, `names`, pytest and JupyterLab with its Python kernel: `jupyter lab` opens the "
            "notebooks. pip checks every other file it installs the same way, against the hashes the "
            "requirements list. `mlp_ref` is not on "
            "the Python package index: install it from this site, never with a bare `pip install mlp_ref`.",
            ru=f"Она устанавливает [`mlp_ref` {downloads.version}]({downloads.wheel_url}) — тот самый пакет, "
               f"с которым эти страницы собраны и проверены ({size}, SHA-256 `{downloads.sha256[:16]}…`; "
               "pip сверяет хеш при установке), — а с ним NumPy, SciPy, scikit-learn, matplotlib, tqdm, `names`, pytest "
               "и JupyterLab с ядром Python: ноутбуки открывает команда `jupyter lab`. Так же pip сверяет и "
               "каждый другой устанавливаемый файл — с хешами из списка. Пакета `mlp_ref` нет в каталоге "
               "пакетов Python (PyPI): "
               "устанавливайте его с этого сайта и никогда — командой `pip install mlp_ref` без адреса."),
    ]
    if kind == "lab":
        if notebook_link:
            where = say(f"[the notebook]({notebook_link})", ru=f"[ноутбук]({notebook_link})")
        else:
            where = say("this notebook", ru="этот ноутбук")
        lines += [
            "",
            say(f"Then open {where}: run `jupyter lab` in the folder you saved it to (or open it in VS Code "
                "with that environment's kernel). The settings are plain assignments in the first code cell: "
                "change them and run all cells.",
                ru=f"Затем откройте {where}: выполните `jupyter lab` в папке, куда вы его сохранили (или "
                   "откройте его в VS Code с ядром этого окружения). Настройки — обычные присваивания в первой "
                   "ячейке кода: измените их и выполните все ячейки."),
        ]
        if lab_seconds is not None:
            lines[-1] += say(f" On the machine that made this page, the whole notebook with the page's settings "
                             f"took {lab_seconds:.0f} s: starting its kernel, running every cell and turning it into "
                             "this page.",
                             ru=f" На машине, которая собрала эту страницу, весь ноутбук с её настройками занял "
                                f"{lab_seconds:.0f} с: запуск ядра, выполнение всех ячеек и превращение в эту страницу.")
    elif kind == "lesson":
        lines += [
            "",
            say("Then open this notebook: run `jupyter lab` in the folder you saved it to (or open it in VS Code "
                "with that environment's kernel), and run its cells in order.",
                ru="Затем откройте этот ноутбук: выполните `jupyter lab` в папке, куда вы его сохранили (или "
                   "откройте его в VS Code с ядром этого окружения), и выполните его ячейки по порядку."),
        ]
    elif kind == "exercise":
        lines += [
            "",
            say("Download the starter file and its tests into one folder, then run the tests there with "
                "`pytest -ra`: `-ra` lists any test that was skipped, and why.",
                ru="Скачайте файл-заготовку и его тесты в одну папку и запустите там тесты командой "
                   "`pytest -ra`: флаг `-ra` перечисляет пропущенные тесты и причину пропуска."),
        ]
    return lines


def admonition(lines: list[str]) -> str:
    """The box as a Material admonition (on the site)."""
    return f'!!! info "{title()}"\n\n' + "\n".join(("    " + line) if line else "" for line in lines) + "\n"


def blockquote(lines: list[str]) -> str:
    """The box as a quoted paragraph (in a downloaded notebook, where admonitions do not render, nor
    a fence's classes; a notebook has no address of its own, so its line names the build's site)."""
    lines = [line.replace(f"```{{.bash .{INSTALL_CLASS}}}", "```bash") for line in lines]
    return "\n".join([f"> **{title()}.**", ">"] + [("> " + line) if line else ">" for line in lines]) + "\n"


def _indent(text: str, indent: str) -> str:
    return "\n".join((indent + line) if line else "" for line in text.splitlines())


# ---------------------------------------------------------------------------------------
# MkDocs events
# ---------------------------------------------------------------------------------------

_state: dict = {}


def on_config(config):
    os.environ[SITE_BUILD_ENV] = "1"
    _state["downloads"] = ReaderDownloads(config.site_url or "http://127.0.0.1:8000/", config.repo_url)
    return config


def _notebook_box(source: str) -> str:
    """A downloaded lab notebook's Markdown cell with its marker replaced by the quoted box."""
    return MARKER.sub(lambda m: _indent(blockquote(box_lines(m["kind"], _state["downloads"])), m["indent"]), source)


def on_files(files: Files, config) -> Files:
    downloads: ReaderDownloads = _state["downloads"]
    for file in files:
        # The notebooks made by notebook_downloads.py and lesson_notebooks.py (which run before this step: plugin.py).
        if is_download_notebook(file.src_uri):
            file.content_string = edit_markdown_cells(file.content_string, _notebook_box)
    files.append(File.generated(config, f"{DOWNLOADS}/{downloads.wheel.name}", content=downloads.wheel_bytes))
    files.append(File.generated(config, f"{DOWNLOADS}/{READER_REQUIREMENTS}", content=downloads.requirements))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    if is_lab(page.file.src_uri):  # rendered from the notebook: see on_page_content
        return markdown
    downloads = _state["downloads"]
    return MARKER.sub(lambda m: _indent(admonition(box_lines(m["kind"], downloads)), m["indent"]), markdown)


# nbconvert keeps a Markdown cell's HTML comment in the page, escaped or not.
RENDERED_MARKER = re.compile(r"(?:<!--|&lt;!--)\s*before-you-start:\s*(?P<kind>[a-z]+)\s*(?:-->|--&gt;)")


# A link to an exercise's file (starter, tests, solution), as Python-Markdown writes it.
EXERCISE_LINK = re.compile(r'<a href="(?P<href>(?:\.\./)*exercises/[^"]+\.py)"')


def download_exercise_links(html: str) -> str:
    """Every link to an exercise's ``.py`` file gets ``download``: the browser saves the file, as the
    box tells the reader to, instead of showing it as text."""
    return EXERCISE_LINK.sub(lambda m: f'<a href="{m["href"]}" download', html)


def on_page_content(html: str, page, config, files) -> str:
    if not is_lab(page.file.src_uri):
        return download_exercise_links(html)
    # Timed by render_cache.py: the run that executed the notebook (perhaps an earlier build's).
    seconds = getattr(page, "render_seconds", None)
    if seconds is None:
        raise PluginError(f"{page.file.src_uri}: no render_seconds; render_cache.py must be in mkdocs.yml")
    notebook = "../" + PurePosixPath(page.file.src_uri).with_suffix(".ipynb").name

    def box(match: re.Match) -> str:
        lines = box_lines(match["kind"], _state["downloads"], notebook, seconds)
        return markdown_lib.markdown(admonition(lines), extensions=config.markdown_extensions,
                                     extension_configs=config.mdx_configs)

    return RENDERED_MARKER.sub(box, html)
