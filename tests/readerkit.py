"""The reader's side of the install: what a reader's pip sees, and a reader's fresh environment.

A reader's machine has pip with its defaults: the public package index and nothing else.
This machine's pip is configured with a local wheel folder and local indexes, which can
hide a pin the public index does not serve. ``pip --isolated`` is not enough to see past
them: it ignores the user's configuration and ``PIP_*`` variables but still reads the
global files (here a constraints file). :func:`public_pip` runs pip with no ``PIP_*``
variable and ``PIP_CONFIG_FILE`` set to the null device, which makes pip read no
configuration file at all: pip's defaults, what a reader's pip sees.

Also a command for ``make lock``: ``python -m tests.readerkit check requirements.txt``
exits non-zero, naming each line, if a pin could not come from the public index.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from mlp_site import block_runner, reader_downloads

ROOT = Path(__file__).resolve().parent.parent
# Optional dependencies that CI installs in separate, documented steps: never in a reader's pins.
OPTIONAL = {"torch"}
INDEX_ENV = "MLP_REQUIRE_INDEX"  # set by .ci/run: no package index reachable is a failure there


def requirement_problems(text: str, *, direct_url_ok: frozenset[str] = frozenset()) -> list[str]:
    """Every entry of a locked requirements file that a reader's pip could not install as locked.

    Parameters
    ----------
    text : str
        The file's content: entries ``name==version ; marker``, each with ``--hash=sha256:...``
        options (on lines continued with a backslash, as ``make lock`` writes them).
    direct_url_ok : frozenset of str
        Canonical names that may come from a direct URL (``name @ https://...#sha256=...``) instead of a pin.

    Returns
    -------
    list of str
        ``"line N: <entry>: why"`` for each bad entry (N: its first line); empty when every entry is an
        exact pin of a public release with its SHA-256 hashes, which pip's hash-checking mode needs.
    """
    problems = []
    for number, line in reader_downloads.logical_lines(text):
        where = f"line {number}: {line}"
        if line.startswith("-"):
            problems.append(f"{where}: a pip option; the reader's pip must use its defaults")
            continue
        requirement_text, options = reader_downloads.requirement_and_options(line)
        hashes = [option for option in options if re.fullmatch(r"--hash=sha256:[0-9a-f]{64}", option)]
        if len(hashes) != len(options):
            problems.append(f"{where}: an option other than --hash=sha256:<64 hex digits>")
        try:
            requirement = Requirement(requirement_text)
        except InvalidRequirement as error:
            problems.append(f"{where}: not a requirement ({error})")
            continue
        name = canonicalize_name(requirement.name)
        if name in OPTIONAL:
            problems.append(f"{where}: {name} is optional; CI installs it in its own step")
        if requirement.url:
            if name not in direct_url_ok:
                problems.append(f"{where}: a direct URL; pin a release of the public index instead")
            elif not re.search(r"#sha256=[0-9a-f]{64}$", requirement.url):
                problems.append(f"{where}: a direct URL without #sha256=; pip's hash-checking mode needs it")
            continue
        if not hashes:
            problems.append(f"{where}: no --hash; pip's hash-checking mode needs the SHA-256 of every pin "
                            "(make lock writes them)")
        specs = list(requirement.specifier)
        if len(specs) != 1 or specs[0].operator != "==" or "*" in specs[0].version:
            problems.append(f"{where}: not an exact pin (name==version)")
            continue
        version = Version(specs[0].version)
        if version.local:
            problems.append(f"{where}: local version label '+{version.local}', a build the public "
                            "index does not serve (it came from a machine's own wheel folder)")
    return problems




PUBLIC_INDEX = "https://pypi.org"


def public_hash_problems(text: str, workers: int = 8) -> list[str]:
    """Every pin whose ``--hash`` options are not exactly the SHA-256 of the files the public index
    serves for that release (its simple API, PEP 691's JSON form, which is what pip reads), so that a
    reader's pip, in hash-checking mode, accepts whichever file it picks on any platform. Raises
    ``OSError`` when the index does not answer."""
    import urllib.error
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    from packaging.utils import InvalidSdistFilename, InvalidWheelFilename, parse_sdist_filename, \
        parse_wheel_filename

    def version_of(filename: str) -> Version | None:
        try:
            if filename.endswith(".whl"):
                return parse_wheel_filename(filename)[1]
            return parse_sdist_filename(filename)[1]
        except (InvalidSdistFilename, InvalidWheelFilename):
            return None  # an old installer or egg: no pip picks it

    def check(item) -> str | None:
        name, pin = item
        request = urllib.request.Request(f"{PUBLIC_INDEX}/simple/{name}/",
                                         headers={"Accept": "application/vnd.pypi.simple.v1+json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            files = json.load(response)["files"]
        served = {f"sha256:{file['hashes']['sha256']}" for file in files
                  if version_of(file["filename"]) == Version(pin.version)}
        if not served:
            return f"{name}=={pin.version}: the public index serves no file of this release"
        if served != set(pin.hashes):
            return (f"{name}=={pin.version}: hashes of {len(set(pin.hashes) - served)} files the index does not "
                    f"serve, none for {len(served - set(pin.hashes))} files it serves (run make lock)")
        return None

    with ThreadPoolExecutor(workers) as pool:
        entries = [(name, pin) for name, pins in sorted(reader_downloads.locked(text).items()) for pin in pins]
        return [problem for problem in pool.map(check, entries) if problem]


def public_pip(python: Path | str, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    """Run ``python -m pip ...`` with pip's defaults only: no configuration file, no PIP_* variable."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull  # pip then reads no configuration file at all
    return subprocess.run([str(python), "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, env=env, timeout=timeout)


def index_unreachable(result: subprocess.CompletedProcess) -> bool:
    """Whether a failed pip run failed because no package index answered (not because of a pin)."""
    text = result.stdout + result.stderr
    return bool(re.search(r"NewConnectionError|Failed to establish a new connection|Temporary failure in "
                          r"name resolution|Network is unreachable|ConnectTimeout|Max retries exceeded", text))


def new_venv(path: Path) -> Path:
    """A fresh virtual environment with pip (nothing else); returns its Python."""
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin" / "python"


# The build's block runner (standard library only), run here by the reader's Python.
BLOCK_RUNNER = Path(block_runner.__file__)


def run_chains(python: Path, chains: list[list[str]], workdir: Path) -> dict:
    """Run each chain of code blocks with ``python`` in ``workdir``, as the site build runs them (mlp_site.verification).

    Returns ``{"outputs": [what the last block of each chain printed], "mlp_ref": the file of the
    mlp_ref that ran}``.
    """
    where = "import mlp_ref\nprint(mlp_ref.__file__, end='')\n"
    segments = [[{"code": code, "needs": None} for code in chain] for chain in chains]
    (workdir / "in.json").write_text(json.dumps(segments + [[{"code": where, "needs": None}]]), encoding="utf-8")
    result = subprocess.run([str(python), str(BLOCK_RUNNER), "in.json"], cwd=workdir,
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise AssertionError(f"the block runner failed in the reader's environment:\n{result.stderr[-5000:]}")
    *results, (located,) = [json.loads(line) for line in result.stdout.splitlines()]
    errors = [block["error"] for segment in results for block in segment if block["error"]]
    if errors:
        raise AssertionError("the page's blocks failed in the reader's environment:\n" + "\n".join(errors)[-5000:])
    return {"outputs": [segment[-1]["output"] for segment in results], "mlp_ref": located["output"]}


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "check":
        print("usage: python -m tests.readerkit check REQUIREMENTS_FILE", file=sys.stderr)
        return 2
    problems = requirement_problems(Path(argv[1]).read_text(encoding="utf-8"))
    for problem in problems:
        print(f"{argv[1]}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
