"""Shared fixtures: the reader's environment and the browser (the site build: tests/page_blocks.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from mlp_site import reader_downloads

from mlp_site import cache
from tests import early, pagekit
from tests.page_blocks import site_and_port


def _reader_home(pins: str) -> Path:
    """The folder (mlp_site/cache.py) of the reader's environment with the third-party ``pins``."""
    return cache.folder("reader", cache.key("reader-env", pins))


def _reader_pins() -> str:
    """The reader's third-party pins, made by the build's own step from requirements.txt: what the
    site's requirements-reader.txt will say (mlp_ref is not in it: the install line names the wheel)."""
    return "\n".join(reader_downloads.reader_requirements_text().splitlines())


def _install(python: Path, *args: str) -> None:
    """``pip install --quiet ARGS`` with pip's defaults, in the environment of ``python``; a failure
    fails the test that needs it (or skips it when no package index answers and none is required)."""
    from tests import readerkit

    result = readerkit.public_pip(python, "install", "--quiet", *args)
    if result.returncode != 0:
        reason = f"pip install {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}"
        if readerkit.index_unreachable(result) and not os.environ.get(readerkit.INDEX_ENV):
            pytest.skip(f"no package index reachable ({readerkit.INDEX_ENV} unset): {reason}")
        pytest.fail(reason, pytrace=False)


def _has_pins(home: Path, pins: str) -> bool:
    """Whether the environment ``home`` was made by :func:`_reader_pins_env` for exactly ``pins``."""
    stamp = home / ".pins"
    return stamp.is_file() and stamp.read_text(encoding="utf-8") == pins


def _reader_pins_env(config: pytest.Config) -> Path:
    """A fresh environment with the reader's third-party pins, installed while the site builds.

    It lives in the cache under a key of the pins (:func:`_reader_pins`); its ``.pins`` file holds
    the pins it installed. An environment that already has them is kept. :func:`_reader_env` then
    runs the box's own line in it.
    """
    from tests import readerkit

    pins = _reader_pins()
    home = _reader_home(pins)
    if (home / ".complete").is_file() or _has_pins(home, pins):
        return home
    python = readerkit.new_venv(home)
    listed = home / "pins.txt"
    listed.write_text(pins + "\n", encoding="utf-8")
    _install(python, "-r", str(listed))
    (home / ".pins").write_text(pins, encoding="utf-8")
    return home


early.register("reader-pins", fixture="reader_env", stage="reader's environment", work=_reader_pins_env)


def _reader_env(config: pytest.Config) -> Path:
    """The reader's environment: what the pages' "Before you start" box installs. Returns its Python.

    It runs the box's own line (reader_downloads.install_command: the served requirements and wheel), with
    pip's defaults (none of this machine's pip configuration), so mlp_ref comes from the served
    site and everything else from the public index. The line runs in the environment of the
    reader's third-party pins (:func:`_reader_pins_env`, installed while the site was built),
    where it finds them installed and adds the wheel (then put in place of any earlier wheel of
    the same version); when the served pins are not those (they should be), it runs in a fresh
    environment instead.

    The environment is kept in the cache under a key of the third-party pins, and
    its ``.complete`` file holds the full requirements it last installed. With the same pins and
    a new mlp_ref wheel (its line names the wheel's SHA-256), the box's line runs again in that
    environment and the new wheel replaces the old one. Runs in the background once the site is
    served (tests/early.py).
    """
    from tests import readerkit

    import hashlib
    import shlex

    site, port = site_and_port(config)
    server = f"http://127.0.0.1:{port}"
    (wheel,) = (site / reader_downloads.DOWNLOADS).glob("mlp_ref-*.whl")
    command = reader_downloads.install_command(f"{server}/", wheel.name, hashlib.sha256(wheel.read_bytes()).hexdigest())
    _, _, requirements, wheel_line = shlex.split(command)[1:]  # install -r URL "mlp_ref[labs] @ URL#sha256=..."
    with urllib.request.urlopen(requirements) as response:
        text = response.read().decode()
    pins = "\n".join(text.splitlines())
    home = _reader_home(pins)
    python, stamp = home / "bin" / "python", home / ".complete"
    installed = (text + command).replace(server, "SITE")
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == installed:
        return python
    if not stamp.is_file() and not _has_pins(home, pins):  # the served pins are not the ones installed beside the build
        python = readerkit.new_venv(home)
    stamp.unlink(missing_ok=True)  # until the box's line and the wheel are in
    _install(python, "-r", requirements, wheel_line)  # the box's line
    # An environment may hold an earlier mlp_ref wheel of the same version, which pip would keep:
    # this build's wheel in its place.
    _install(python, "--force-reinstall", "--no-deps", wheel_line)
    stamp.write_text(installed, encoding="utf-8")
    return python


early.register("reader-env", fixture="reader_env", stage="reader's environment", work=_reader_env,
               after=("site", "reader-pins"))


@pytest.fixture(scope="session")
def reader_env(pytestconfig) -> Path:
    """The reader's environment's Python (see :func:`_reader_env`)."""
    return early.result("reader-env", pytestconfig)



# --------------------------------------------------------------------------- the browser

# Per module: Playwright's sync API keeps an event loop running in this thread while a browser is
# open, and the reader's notebook runs (asyncio.run) cannot start beside it.
@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for the browser tests that click and type (tests/browser_visits.py)."""
    from tests.browser_visits import NoBrowser, launched_browser
    from tests.test_browser import skip_or_fail

    browsers = launched_browser()
    try:
        browser = next(browsers)
    except NoBrowser as reason:
        skip_or_fail(str(reason))
    yield browser
    browsers.close()


def _visit_site(config: pytest.Config) -> dict:
    """Every page of the served site visited once per viewport (tests/browser_visits.py), in a
    process of its own with its own Chromium: it runs in the background from the moment the site
    is served (tests/early.py), beside the unit tests. Returns what the visits saw."""
    from tests.test_browser import skip_or_fail

    site, port = site_and_port(config)
    out = site.parent / f"{site.name}-visits.json"
    result = subprocess.run([sys.executable, "-m", "tests.browser_visits", str(site), f"http://127.0.0.1:{port}",
                             str(out)], cwd=pagekit.ROOT, capture_output=True, text=True, timeout=3600)
    if result.returncode == 3:  # no browser to drive
        skip_or_fail(result.stdout.strip())
    if result.returncode != 0:
        pytest.fail(f"the browser visits failed (exit {result.returncode}):\n{result.stderr[-8000:]}", pytrace=False)
    return json.loads(out.read_text(encoding="utf-8"))


early.register("site-visits", fixture="site_visits", stage="browser visits", work=_visit_site, after=("site",))

# The jobs whose work lives beside their tests, named here so that pytest-xdist's controller, which
# collects no test module, knows them too (tests/early.py).
early.register("exercises", fixture="runs", stage="exercises", work="tests.test_exercises:run_all")
early.register("public-resolve", fixture="public_resolution", stage="public index",
               work="tests.test_reader_install:_resolve_publicly")
early.register("wheel-alone", fixture="wheel_alone", stage="reader's side", work="tests.test_reader_install:_wheel_alone")


@pytest.fixture(scope="session")
def site_visits(pytestconfig) -> dict:
    """{viewport: {page's path under the site: what its visit saw}} (see :func:`_visit_site`)."""
    return early.result("site-visits", pytestconfig)
