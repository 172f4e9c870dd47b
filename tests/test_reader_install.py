"""A reader can install and run the verified code: from the public index and from the site itself.

- ``requirements.txt`` pins only releases that the public index serves, and it resolves there
  with pip's defaults (no configuration file, no PIP_* variable) in a throw-away environment.
- The site serves the wheel of this checkout's ``mlp_ref`` and a ``requirements-reader.txt``;
  the home page, the labs and the coding exercises give the one ``pip install`` line, in a
  "Before you start" box that speaks the page's language («Прежде чем начать» under ``ru/``).
- A copy of the built site served at another address (a class server, a mirror) gives, in the
  browser, the line for that address, and that line installs the wheel from the copy, hash-checked.
- That line, run in a fresh environment, gives an environment in which the code blocks of
  two lessons print exactly what their pages show.

Tests that need the package index skip when none answers, unless ``MLP_REQUIRE_INDEX`` is set
(``.ci/run`` sets it), which makes that a failure.
"""

from __future__ import annotations

import json
import hashlib
import os
import re
import subprocess
import sys
import time
import types
from html import unescape
import urllib.request
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from mlp_site import reader_downloads
from packaging.version import Version

from mlp_site import cache
from tests import early, editions, pagekit, readerkit
from tests.wording import english_words

REQUIREMENTS = pagekit.ROOT / "requirements.txt"


# Two lessons whose blocks the reader's environment runs (every block but the PyTorch tabs).
LESSONS = ["01-neuron-and-layer.md", "03-forward-pass.md"]


def skip_or_fail_offline(result, what: str):
    if readerkit.index_unreachable(result) and not os.environ.get(readerkit.INDEX_ENV):
        pytest.skip(f"no package index reachable for {what} ({readerkit.INDEX_ENV} unset)")


# --- requirements.txt -------------------------------------------------------------------

def test_requirements_pin_only_public_releases():
    assert readerkit.requirement_problems(REQUIREMENTS.read_text(encoding="utf-8")) == []


def test_the_pin_check_catches_what_a_reader_cannot_install():
    text = REQUIREMENTS.read_text(encoding="utf-8")
    cases = {
        "torch==2.13.0+cpu": ["local version label '+cpu'", "torch is optional"],
        "numpy==2.4.6+mkl": ["local version label '+mkl'"],
        "--find-links /opt/wheels": ["a pip option"],
        "scipy>=1.11": ["not an exact pin"],
        "mlp_ref @ file:///tmp/mlp_ref.whl": ["a direct URL"],
        "numpy==2.4.6": ["no --hash"],
        "numpy==2.4.6 --hash=md5:0123": ["an option other than --hash=sha256"],
    }
    for line, expected in cases.items():
        problems = readerkit.requirement_problems(text + line + "\n")
        assert problems, line
        assert all(problem.startswith(f"line {len(text.splitlines()) + 1}: {line}:") for problem in problems)
        assert all(any(part in problem for problem in problems) for part in expected), (line, problems)
    unchecked_wheel = "mlp_ref @ https://example.org/mlp_ref-0.1.0-py3-none-any.whl"
    assert readerkit.requirement_problems(unchecked_wheel, direct_url_ok=frozenset({"mlp-ref"})) == [
        f"line 1: {unchecked_wheel}: a direct URL without #sha256=; pip's hash-checking mode needs it"]


def test_every_pin_has_the_hashes_of_the_public_indexs_files():
    """Each pin's --hash options are exactly the SHA-256 of the files the public index serves for
    that release: whichever file a reader's pip picks, on any platform, passes hash-checking mode."""
    text = REQUIREMENTS.read_text(encoding="utf-8")
    try:
        assert readerkit.public_hash_problems(text) == []
        # ...and the check can fail: one pin with a hash of the index's files changed.
        (pin,) = reader_downloads.locked(text)["tqdm"]
        wrong = reader_downloads.Pin(pin.version, None, (pin.hashes[0][:-1] + ("0" if pin.hashes[0][-1] != "0" else "1"),
                                             *pin.hashes[1:]))
        assert readerkit.public_hash_problems("\n".join(wrong.lines("tqdm"))) == [
            f"tqdm=={pin.version}: hashes of 1 files the index does not serve, none for 1 files it serves "
            "(run make lock)"]
    except OSError as error:  # no index answered
        if os.environ.get(readerkit.INDEX_ENV):
            raise
        pytest.skip(f"no package index reachable ({readerkit.INDEX_ENV} unset): {error}")


def test_the_readers_pins_are_what_every_platform_needs(tmp_path):
    """The reader's packages, resolved by uv (pinned in requirements.txt) for every platform and Python
    at once, with requirements.txt's versions as constraints: exactly the packages of the reader's file
    (the build reads them from the packages installed here, a Linux; colorama, appnope and the rest
    that only another platform needs must be there too)."""
    roots = tmp_path / "reader.in"
    roots.write_text("\n".join(reader_downloads.READER_PACKAGES) + "\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PIP_", "UV_"))}
    result = subprocess.run([str(Path(sys.executable).parent / "uv"), "pip", "compile", "--quiet", "--universal",
                             "--python-version", reader_downloads.lowest_python(), "--no-config", "--no-header", "--no-annotate",
                             "--default-index", "https://pypi.org/simple", "--constraint", str(REQUIREMENTS),
                             str(roots)], capture_output=True, text=True, env=env, timeout=600)
    if (result.returncode != 0 and re.search(r"Failed to fetch|dns error|error sending request", result.stderr)
            and not os.environ.get(readerkit.INDEX_ENV)):
        pytest.skip(f"no package index reachable for uv ({readerkit.INDEX_ENV} unset)")
    assert result.returncode == 0, result.stderr[-3000:]
    resolved = reader_downloads.locked(result.stdout)
    assert sorted(resolved) == reader_downloads.reader_closure()
    locked = reader_downloads.locked(REQUIREMENTS.read_text(encoding="utf-8"))
    assert {name: {pin.version for pin in entries} for name, entries in resolved.items()} == \
        {name: {pin.version for pin in locked[name]} for name in resolved}


def _resolved_key() -> str:
    return cache.key("resolved", REQUIREMENTS)


def _resolve_publicly(config: pytest.Config):
    """pip with its defaults, in a throw-away venv, resolves requirements.txt (a dry run): in the
    background from the end of collection (tests/early.py), since it mostly waits for the index.
    Returns (pip's result, its report file), or None when this exact file resolved before here."""
    if cache.load("reader", _resolved_key()):
        return None
    folder = early.new_folder(config, "public-resolve-")
    python = readerkit.new_venv(folder / "venv")
    report = folder / "report.json"
    return readerkit.public_pip(python, "install", "--dry-run", "--ignore-installed", "--quiet",
                                "--report", str(report), "-r", str(REQUIREMENTS)), report


@pytest.fixture
def public_resolution(pytestconfig):
    return early.result("public-resolve", pytestconfig)


def test_requirements_resolve_from_the_public_index(public_resolution):
    """pip with its defaults, in a throw-away venv, installs exactly the pinned set (dry run)."""
    if public_resolution is None:
        return  # this exact file resolved before on this machine
    text = REQUIREMENTS.read_text(encoding="utf-8")
    result, report = public_resolution
    if result.returncode != 0:
        skip_or_fail_offline(result, "requirements.txt")
    assert result.returncode == 0, result.stderr[-5000:]
    import json

    resolved = {canonicalize_name(item["metadata"]["name"]): item["metadata"]["version"]
                for item in json.loads(report.read_text())["install"]}
    # The pins whose markers hold here (appnope is for macOS only, cffi for PyPy).
    pinned = {name: pin.version for name, entries in reader_downloads.locked(text).items() for pin in entries
              if pin.marker is None or Marker(pin.marker).evaluate()}
    # Every pin is what pip installs, and pip needs nothing that is not pinned.
    assert resolved == pinned
    cache.save("reader", _resolved_key(), True)


def test_requirements_pin_exactly_what_requirements_in_needs():
    """No pin for a package nothing needs (a frozen optional extra leaves its dependencies behind)."""
    tops = [line.split("#", 1)[0].strip() for line in (pagekit.ROOT / "requirements.in").read_text().splitlines()]
    needed = set(reader_downloads.reader_closure([top for top in tops if top]))
    pinned = set(reader_downloads.pins_of(REQUIREMENTS.read_text(encoding="utf-8")))
    assert sorted(pinned - needed) == [], "pinned, but nothing in requirements.in needs it"
    assert sorted(needed - pinned) == [], "needed by requirements.in, but not pinned"


def test_public_pip_cannot_see_this_machines_wheel_folder():
    """The guard of the test above: a local build resolves for this machine's pip, never for a reader's."""
    # This environment's pip, with pip's defaults only; a dry run with --ignore-installed asks the
    # index even where that build is installed, and changes nothing.
    result = readerkit.public_pip(sys.executable, "install", "--dry-run", "--ignore-installed", "--no-deps",
                                  "--quiet", "torch==2.13.0+cpu")
    if result.returncode != 0:
        skip_or_fail_offline(result, "torch")
    assert result.returncode != 0
    assert "No matching distribution found for torch==2.13.0+cpu" in result.stderr


def pins_rejecting(python: Version, names) -> dict[str, str]:
    """Installed packages among ``names`` whose Requires-Python rejects ``python``."""
    rejecting = {}
    for name in filter(_installed, names):  # a pin for another platform only (appnope) is not installed here
        needs = metadata.metadata(name).get("Requires-Python")
        if needs and python not in SpecifierSet(needs):
            rejecting[name] = needs
    return rejecting


def test_the_python_on_the_pages_is_what_every_reader_pin_supports():
    """mlp_ref's requires-python (stated in the boxes) admits no Python that a reader pin rejects.

    A package locked with one release per range of Pythons (soupsieve) has only this machine's
    installed: uv's resolution for the lowest Python checks those (test_the_readers_pins_are_what_...)."""
    entries = reader_downloads.pinned_requirements()
    closure = [name for name in reader_downloads.reader_closure() if len(entries[name]) == 1]
    assert pins_rejecting(Version(reader_downloads.lowest_python()), closure) == {}
    # ...and the check can fail: Python 3.10 is too old for the pinned NumPy.
    assert "numpy" in pins_rejecting(Version("3.10"), closure)


def test_the_readme_states_the_python_the_maintainer_pins_need():
    stated = re.search(r"You need Python (\d+\.\d+(?:\.\d+)?) or newer", (pagekit.ROOT / "README.md").read_text())
    assert stated, "README.md no longer says which Python it needs"
    pins = reader_downloads.pins_of(REQUIREMENTS.read_text(encoding="utf-8"))
    installed = [name for name in pins if _installed(name)]
    assert pins_rejecting(Version(stated[1]), installed) == {}


def _installed(name: str) -> bool:
    try:
        metadata.version(name)
    except metadata.PackageNotFoundError:
        return False
    return True


# --- the wheel on its own ----------------------------------------------------------------

# What only a checkout can run: the pages' generators import prose/ and read docs/ (pyproject.toml
# excludes them from the wheel).
CHECKOUT_ONLY = "mlp_ref/course/generators/"
# The lab whose first code cells run where only the wheel and its labs extra are installed: its
# settings, its imports (matplotlib, IPython, every lab module) and the split of the data.
FIRST_CELLS_LAB, FIRST_CELLS = "digits.py", 3


def shipped_sources() -> dict[str, bytes]:
    """The checkout's files that the wheel ships, by their path in it: mlp_ref's sources, less the checkout's own."""
    return {str(p.relative_to(pagekit.ROOT)): p.read_bytes() for p in sorted((pagekit.ROOT / "mlp_ref").rglob("*.py"))
            if not str(p.relative_to(pagekit.ROOT)).startswith(CHECKOUT_ONLY)}


def wheel_modules(wheel: Path) -> list[str]:
    """The import names of every module a wheel ships (``mlp_ref.labs.cli``; a package by its own name)."""
    with zipfile.ZipFile(wheel) as archive:
        files = [name for name in archive.namelist() if name.endswith(".py")]
    return sorted(name.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for name in files)


# Run by the fresh environment's Python: import each module named on the command line (one per
# line of output: "ok" or the error), then the lab's first cells, from standard input, as one namespace.
_IMPORT_AND_RUN = """
import importlib, sys
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
        print(name, "ok")
    except Exception as error:
        print(name, f"{type(error).__name__}: {error}")
import mlp_ref
print("mlp_ref from", mlp_ref.__file__)
exec(compile(sys.stdin.read(), "first cells", "exec"), {"__name__": "__main__"})
"""


def _wheel_alone(config: pytest.Config):
    """This checkout's wheel, as the site builds it, installed with ``[labs]`` by pip with its defaults
    (the public index) into a fresh environment (no system site packages, no checkout on the path),
    which then imports every module the wheel ships and runs the lab's first code cells. In the
    background from the end of collection (tests/early.py): it mostly waits for the index.
    Returns (the wheel, pip's result, the run's result or None, the environment's folder)."""
    wheel = reader_downloads._pip_wheel()
    # The environment is kept (mlp_site/cache.py) under a key of the wheel's bytes (built with a fixed
    # SOURCE_DATE_EPOCH: the same sources, the same bytes) and of the day: pip resolves the extra's
    # ranges against the index anew each day, and whenever the wheel changed. The modules and the
    # lab's cells run in it on every run.
    folder = cache.folder("reader", cache.key("wheel-alone", wheel, time.strftime("%Y-%m-%d", time.gmtime())))
    python, installed = folder / "venv" / "bin" / "python", folder / ".installed"
    if installed.is_file():
        pip = subprocess.CompletedProcess(["pip", "install", f"{wheel.name}[labs]"], 0, installed.read_text(), "")
    else:
        python = readerkit.new_venv(folder / "venv")
        pip = readerkit.public_pip(python, "install", "--quiet", f"{wheel}[labs]")
        if pip.returncode != 0:
            return wheel, pip, None, folder
        installed.write_text(f"installed {wheel.name}[labs] on an earlier run\n{pip.stdout}", encoding="utf-8")
    cells = [code for _, code in editions.code_cells((pagekit.DOCS / "labs" / FIRST_CELLS_LAB).read_text(encoding="utf-8"))]
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", reader_downloads.SITE_BUILD_ENV)}
    env["MPLBACKEND"] = "Agg"  # no display here; a notebook's kernel uses its inline backend
    run = subprocess.run([str(python), "-c", _IMPORT_AND_RUN, *wheel_modules(wheel)], cwd=folder,
                         input="\n\n".join(cells[:FIRST_CELLS]), capture_output=True, text=True, env=env, timeout=600)
    return wheel, pip, run, folder


@pytest.fixture
def wheel_alone(pytestconfig):
    return early.result("wheel-alone", pytestconfig)


def test_the_wheel_ships_only_what_runs_from_the_wheel(wheel_alone):
    """Everything the wheel ships imports where only it and its labs extra are installed, and a lab's
    first cells run there: the extra brings all that a lab notebook imports (matplotlib, IPython)."""
    wheel, pip, run, folder = wheel_alone
    if pip.returncode != 0:
        skip_or_fail_offline(pip, "the wheel's labs extra")
    assert pip.returncode == 0, f"pip install {wheel.name}[labs] into a fresh environment failed:\n{pip.stderr[-5000:]}"
    with zipfile.ZipFile(wheel) as archive:
        shipped = [name for name in archive.namelist() if name.startswith("mlp_ref/")]
    assert [name for name in shipped if name.startswith(CHECKOUT_ONLY)] == [], (
        f"{wheel.name} ships {CHECKOUT_ONLY}, which imports prose/ and reads docs/: only a checkout has them")
    assert sorted(shipped) == sorted(shipped_sources()), f"{wheel.name}: not the checkout's mlp_ref less {CHECKOUT_ONLY}"
    modules = wheel_modules(wheel)
    imported = run.stdout.splitlines()[:len(modules)]  # "<module> ok" or "<module> <error>", in order
    assert [line for line in imported if not line.endswith(" ok")] == [], (
        f"modules of {wheel.name} that do not import where only it and its labs extra are installed")
    assert len(imported) == len(modules), f"the fresh environment stopped importing at {modules[len(imported)]}"
    assert f"mlp_ref from {folder / 'venv'}" in run.stdout, "the mlp_ref that ran is not the installed wheel's"
    assert run.returncode == 0, (f"docs/labs/{FIRST_CELLS_LAB}: its first {FIRST_CELLS} code cells failed where "
                                 f"only {wheel.name}[labs] is installed:\n{run.stderr[-5000:]}")
    assert "X_train (" in run.stdout, f"docs/labs/{FIRST_CELLS_LAB}: the split's shapes not printed:\n{run.stdout[-3000:]}"


def test_the_labs_extra_admits_the_versions_the_pages_were_built_with():
    """Each requirement of the labs extra holds for requirements.txt's pin (the extra and the lock agree)."""
    import tomllib
    from packaging.requirements import Requirement

    extra = tomllib.loads((pagekit.ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = reader_downloads.pins_of(REQUIREMENTS.read_text(encoding="utf-8"))
    requirements = [Requirement(text) for text in extra["optional-dependencies"]["labs"]]
    assert [f"{r} (requirements.txt: {pins.get(canonicalize_name(r.name))})" for r in requirements
            if pins.get(canonicalize_name(r.name)) not in r.specifier] == []
    assert {"matplotlib", "ipykernel"} - {canonicalize_name(r.name) for r in requirements} == set(), (
        "pyproject.toml: the labs extra lacks what every lab notebook imports (matplotlib; IPython, with its kernel)")


# --- what the site serves ----------------------------------------------------------------

def served(server: str, path: str) -> bytes:
    with urllib.request.urlopen(f"{server}/{path}") as response:
        return response.read()


def test_the_site_serves_the_wheel_of_this_checkout(built_site, server):
    (wheel,) = (built_site / "downloads").glob("mlp_ref-*-py3-none-any.whl")
    data = served(server, f"downloads/{wheel.name}")
    assert data == wheel.read_bytes()
    with zipfile.ZipFile(wheel) as archive:
        packaged = {name: archive.read(name) for name in archive.namelist() if name.startswith("mlp_ref/")}
    assert packaged == shipped_sources()


def test_the_wheel_names_the_repository_when_the_build_knows_it():
    """``pip show mlp_ref`` lists the repository and its issues for a wheel built with REPO_URL (as
    the publishing workflow builds it); a build without one names no address it does not know."""
    urls = reader_downloads.project_urls("https://github.com/o/r/")
    with zipfile.ZipFile(reader_downloads._pip_wheel(urls)) as archive:
        (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        lines = archive.read(meta).decode().splitlines()
    assert [line for line in lines if line.startswith("Project-URL:")] == [
        "Project-URL: Source, https://github.com/o/r", "Project-URL: Issues, https://github.com/o/r/issues"]
    assert reader_downloads.project_urls(None) == "" and reader_downloads._wheel_key(urls) != reader_downloads._wheel_key("")


def test_reader_requirements_pin_what_requirements_txt_pins(built_site, server):
    text = served(server, "downloads/requirements-reader.txt").decode()
    assert readerkit.requirement_problems(text, direct_url_ok=frozenset({"mlp-ref"})) == []
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    # No address: a copy of the site served elsewhere serves a file that works there (the line names the wheel).
    assert [line for line in lines if "://" in line or line.startswith("mlp_ref")] == [], (
        "requirements-reader.txt: expected third-party pins only, found an address or mlp_ref")
    reader_pins = reader_downloads.locked("\n".join(lines))
    locked = reader_downloads.locked(REQUIREMENTS.read_text(encoding="utf-8"))
    # Each entry as requirements.txt locks it: its version, its marker and every hash.
    assert {name: [(pin.version, pin.marker, pin.hashes) for pin in entries] for name, entries in reader_pins.items()} \
        == {name: [(pin.version, pin.marker, pin.hashes) for pin in locked[name]] for name in reader_pins}
    assert all(pin.hashes for entries in reader_pins.values() for pin in entries)
    for needed in ("numpy", "scipy", "scikit-learn", "matplotlib", "names", "tqdm", "ipykernel", "jupyterlab", "pytest"):
        assert needed in reader_pins


BOX_PAGES = ["index.html", "labs/digits/index.html", "labs/charlm/index.html"]


def exercise_pages() -> list[str]:
    """Built pages of the lessons that link a coding exercise's starter file (a Russian one's under ru/)."""
    return [f"ru/lessons/{page.stem.removesuffix('.ru')}/index.html" if page.stem.endswith(".ru")
            else f"lessons/{page.stem}/index.html"
            for page in sorted((pagekit.DOCS / "lessons").glob("*.md"))
            if "../exercises/" in page.read_text(encoding="utf-8")]


EXERCISE_FILE_LINK = re.compile(r'<a [^>]*href="[^"]*\bexercises/[^"]+"[^>]*>')


@pytest.mark.parametrize("page", exercise_pages())
def test_exercise_files_download_instead_of_opening_as_text(built_site, page):
    """Every link to an exercise's starter, tests or solution carries ``download``."""
    links = EXERCISE_FILE_LINK.findall((built_site / page).read_text(encoding="utf-8"))
    assert links, f"{page}: no link to an exercise's file"
    assert [link for link in links if not re.search(r"\sdownload[\s=>]", link)] == []


# What the box says in each edition: its title, its first sentence, and a lab's time.
BOX_WORDS = {
    "en": ("Before you start", "You need Python {python} or newer.",
           r"On the machine that made this page, the whole notebook with the page's settings took \d+ s: "
           r"starting its kernel, running every cell and turning it into this page\."),
    "ru": ("Прежде чем начать", "Нужен Python {python} или новее.",
           r"На машине, которая собрала эту страницу, весь ноутбук с её настройками занял \d+\u00a0с: "
           r"запуск ядра, выполнение всех ячеек и превращение в эту страницу\."),
}


@pytest.mark.parametrize("page", BOX_PAGES + [f"ru/{page}" for page in BOX_PAGES] + exercise_pages())
def test_before_you_start_box_gives_the_install_line(built_site, server, page):
    html = (built_site / page).read_text(encoding="utf-8")
    text = unescape(re.sub(r"<[^>]+>", "", html))  # what a reader reads (code is split into spans)
    language = "ru" if page.startswith("ru/") else "en"
    title, first, lab_time = BOX_WORDS[language]
    assert title in text, f"{page}: no '{title}' box"
    (wheel,) = (built_site / "downloads").glob("mlp_ref-*-py3-none-any.whl")
    command = reader_downloads.install_command(f"{server}/", wheel.name, hashlib.sha256(wheel.read_bytes()).hexdigest())
    assert command in text, f"{page}: expected the install line {command!r}"
    assert "before-you-start:" not in html, f"{page}: a marker was left unreplaced"
    assert first.format(python=reader_downloads.lowest_python()) in text
    assert all(line in text for line in reader_downloads.VENV_POSIX + reader_downloads.VENV_WINDOWS), f"{page}: no way to activate it"
    if "/labs/" in f"/{page}":
        assert re.search(lab_time, text), f"{page}: no time of the lab's run"
    other_title, other_first, _ = BOX_WORDS["en" if language == "ru" else "ru"]
    assert other_title not in text and other_first.format(python=reader_downloads.lowest_python()) not in text, (
        f"{page}: the box speaks the other edition's language")


@pytest.mark.parametrize("language", sorted(BOX_WORDS))
@pytest.mark.parametrize("kind", reader_downloads.KINDS)
def test_the_box_says_its_words_in_the_language_being_built(monkeypatch, language, kind):
    """Every kind of box, as the site shows it and as a downloaded notebook quotes it: in English
    as the English edition says it, in Russian with no English word left (names and code aside)."""
    monkeypatch.setenv("MLP_LANG", language)  # as mlp_site.edition sets it for the edition's build
    downloads = types.SimpleNamespace(python=reader_downloads.lowest_python(), version="0.1.0", sha256="0123456789abcdef" * 4,
                                      wheel_bytes=bytes(43_210), command="pip install -r http://127.0.0.1:8000/r.txt w",
                                      wheel_url="http://127.0.0.1:8000/mlp_ref-0.1.0-py3-none-any.whl")
    title, first, lab_time = BOX_WORDS[language]
    for args in ((), ("../digits.ipynb", 83.4)):
        lines = reader_downloads.box_lines(kind, downloads, *args)
        site, notebook = reader_downloads.admonition(lines), reader_downloads.blockquote(lines)
        assert site.startswith(f'!!! info "{title}"\n') and notebook.startswith(f"> **{title}.**\n")
        assert first.format(python=reader_downloads.lowest_python()) in site
        assert "pip install -r http://127.0.0.1:8000/r.txt w" in site and "pip install -r http://127.0.0.1:8000/r.txt w" in notebook
        assert "{.bash" not in notebook, notebook  # Jupyter reads no fence classes
        assert "`jupyter lab`" in site  # what opens a notebook, installed by that line
        # How to make and activate the environment, on macOS and Linux and on Windows.
        assert all(f"    {line}\n" in site for line in reader_downloads.VENV_POSIX + reader_downloads.VENV_WINDOWS), site
        if kind == "lab" and args:
            assert re.search(lab_time.replace(r"\d+", "83"), site)
        if language == "ru":
            assert english_words(site) == [] and english_words(notebook) == [], site


def test_the_boxs_macos_and_linux_lines_make_and_activate_an_environment(tmp_path):
    """The box's two lines, run as they are by a shell in an empty folder: then ``python`` and ``pip`` are the
    new environment's (the Windows lines are the same commands, spelled for Windows)."""
    script = "\n".join([*reader_downloads.VENV_POSIX, 'python -c "import sys; print(sys.prefix)"', "command -v pip"])
    result = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(tmp_path / ".venv"), str(tmp_path / ".venv" / "bin" / "pip")]


# --- a copy of the site, served elsewhere --------------------------------------------------

def _serve_elsewhere(folder: Path, requests: list[str]):
    """Serve ``folder`` on 127.0.0.1 at a free port, noting each request's path in ``requests``."""
    import functools
    import http.server
    import threading

    class Noting(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            requests.append(self.path)

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            # headless Chromium's --dump-dom leaves as soon as the page is read, often in the middle of a
            # file it was sent: a client that went away is no error of the copy (any other error is printed)
            if not isinstance(sys.exc_info()[1], ConnectionError):
                super().handle_error(request, client_address)

    httpd = Server(("127.0.0.1", 0), functools.partial(Noting, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def browser_install_line(url: str) -> str:
    """The install line of the page at ``url`` as headless Chromium shows it, after the page's scripts ran."""
    result = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                             "--dump-dom", url], capture_output=True, text=True, timeout=120)
    if result.returncode != 0 and not os.environ.get("MLP_REQUIRE_BROWSER"):
        pytest.skip(f"no headless Chromium: {result.stderr[-500:]}")
    blocks = [unescape(re.sub(r"<[^>]+>", "", block)).strip()
              for block in re.findall(r"<pre[^>]*>.*?<code[^>]*>(.*?)</code>", result.stdout, re.S)]
    lines = [block for block in blocks if block.startswith("pip install -r ")]
    assert lines, f"{url}: expected a code block with the install line (pip install -r ...), found none"
    return lines[0]


@pytest.mark.parametrize("page", ["", "ru/labs/digits/"])
def test_a_copy_served_elsewhere_gives_the_line_for_its_own_address(built_site, page):
    """A teacher serves the built folder at another address: the page, in the browser, gives the line
    for that address (every page gives the same line: the one pip runs in the test below)."""
    httpd = _serve_elsewhere(built_site, [])
    copy = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        line = browser_install_line(f"{copy}/{page}")
    finally:
        httpd.shutdown()
    (wheel,) = (built_site / "downloads").glob("mlp_ref-*-py3-none-any.whl")
    expected = reader_downloads.install_command(f"{copy}/", wheel.name, hashlib.sha256(wheel.read_bytes()).hexdigest())
    assert line == expected, f"{page or 'home'} served at {copy}: expected the line {expected!r}, found {line!r}"


def test_a_copy_served_elsewhere_installs_from_itself(built_site, reader_env, tmp_path):
    """pip runs the line of a copy served at another address (the line its pages show in the browser:
    the test above) and takes the requirements and the wheel from the copy, the wheel checked by its
    SHA-256. The third-party pins are the bytes the reader's environment installed from the public
    index with the same line at the test's own address (tests/conftest.py ``_reader_env``): the line
    of the copy runs there as a dry run, where pip must find every pin already satisfied and would
    install only the copy's wheel; then the wheel step installs it, in an environment of its own."""
    import shlex

    requests: list[str] = []
    httpd = _serve_elsewhere(built_site, requests)
    copy = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        (wheel,) = (built_site / "downloads").glob("mlp_ref-*-py3-none-any.whl")
        line = reader_downloads.install_command(f"{copy}/", wheel.name, hashlib.sha256(wheel.read_bytes()).hexdigest())
        pip, install, *args = shlex.split(line)
        installed = (reader_env.parent.parent / ".complete").read_text(encoding="utf-8")
        served = (built_site / "downloads" / "requirements-reader.txt").read_text(encoding="utf-8")
        assert installed.startswith(served), (
            "the copy serves other third-party pins than the reader's environment installed from the index: "
            f"expected {installed[:300]!r}..., found {served[:300]!r}...")
        report = tmp_path / "report.json"
        result = readerkit.public_pip(reader_env, install, "--dry-run", "--quiet", "--report", str(report), *args)
        assert result.returncode == 0, f"the line of the copy at {copy} failed:\n{result.stderr[-3000:]}"
        would = sorted(item["metadata"]["name"] for item in json.loads(report.read_text())["install"])
        # mlp_ref of the same version is there already (from the test's own address): pip may keep it.
        assert set(would) <= {"mlp_ref"}, (f"the line of the copy at {copy}, beside the reader's pins: expected pip "
                                           f"to find every pin installed, it would install {would}")
        python = readerkit.new_venv(tmp_path / "venv")
        result = readerkit.public_pip(python, install, "--no-deps", "--quiet", args[-1])
        assert result.returncode == 0, f"the wheel step from {copy} failed:\n{result.stderr[-3000:]}"
        where = subprocess.run([str(python), "-c", "import importlib.metadata as m; print(m.version('mlp_ref'))"],
                               capture_output=True, text=True, timeout=60)
        assert where.stdout.strip() == wheel.name.split("-")[1], where.stderr
    finally:
        httpd.shutdown()
    assert f"/downloads/{wheel.name}" in requests and "/downloads/requirements-reader.txt" in requests, (
        f"expected pip to fetch the wheel and the requirements from the copy at {copy}; it fetched {requests}")


# --- the reader's environment ------------------------------------------------------------

@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_blocks_run_in_the_readers_environment(reader_env, tmp_path, lesson):
    blocks = [block for block in pagekit.blocks(pagekit.DOCS / "lessons" / lesson)
              if not any(earlier.needs for earlier in block.chain())]
    assert len(blocks) >= 5
    result = readerkit.run_chains(reader_env, [[b.code for b in block.chain()] for block in blocks], tmp_path)
    # The mlp_ref that ran is the installed wheel, not this checkout.
    assert Path(result["mlp_ref"]).is_relative_to(reader_env.parent.parent)
    mismatches = [f"{block.fence.where}:\n--- shown\n{block.expected}--- printed\n{output}"
                  for block, output in zip(blocks, result["outputs"])
                  if output != (block.expected or "")]
    assert mismatches == []


def test_the_readers_environment_opens_a_notebook(reader_env, tmp_path):
    """The box says `jupyter lab` opens the notebooks: in the environment its line installs, JupyterLab
    (the pinned release) starts in an empty folder and serves a notebook's page."""
    import socket
    import time

    jupyter = reader_env.parent / "jupyter"
    version = subprocess.run([str(jupyter), "lab", "--version"], capture_output=True, text=True, timeout=120)
    assert version.returncode == 0, version.stderr[-3000:]
    assert version.stdout.strip() == reader_downloads.pins_of(REQUIREMENTS.read_text(encoding="utf-8"))["jupyterlab"]
    (tmp_path / "lesson.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n')
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # A reader is not root; this test may run as root, which JupyterLab refuses without --allow-root.
    as_root = ["--allow-root"] if os.geteuid() == 0 else []
    log = tmp_path / "jupyter.log"
    server = subprocess.Popen([str(jupyter), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                               "--IdentityProvider.token=reader", f"--ServerApp.root_dir={tmp_path}", *as_root],
                              cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=log.open("w"),
                              env={**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / ".jupyter"),
                                   "JUPYTER_DATA_DIR": str(tmp_path / ".jupyter-data"),
                                   "JUPYTER_RUNTIME_DIR": str(tmp_path / ".jupyter-runtime")})
    try:
        deadline, page = time.monotonic() + 120, None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab/tree/lesson.ipynb?token=reader",
                                            timeout=10) as response:
                    page = response.read().decode()
                break
            except OSError:
                time.sleep(0.5)
        assert page is not None, f"jupyter lab did not serve the notebook:\n{log.read_text()[-3000:]}"
        assert "JupyterLab" in page
    finally:
        server.terminate()
        server.wait(timeout=30)
