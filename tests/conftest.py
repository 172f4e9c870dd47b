"""Shared fixtures: one strict build of the whole site per test run, served on 127.0.0.1.

The build starts in the background as soon as the tests are collected (tests/early.py).

The site is built for the address it is served at (``SITE_URL``), because the reader's
install line on its pages names the site's own ``downloads/`` by absolute URL.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests import early, pagekit, timing


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class ReusableServer(http.server.ThreadingHTTPServer):
    allow_reuse_address = True


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _build_and_serve(config: pytest.Config) -> tuple[Path, int]:
    """Build the site with ``mkdocs build --strict`` (labs executed) and serve it on a free port.

    Runs in the background from the end of collection (tests/early.py). The server lives until
    the end of the session, in a daemon thread. Returns (site folder, port).
    """
    port = _free_port()
    # pytest's temporary folder of this run (its fixtures are not available in a background job)
    site = Path(tempfile.mkdtemp(prefix="site-", dir=config._tmp_path_factory.getbasetemp()))
    env = dict(os.environ, SITE_URL=f"http://127.0.0.1:{port}/")
    # A global MPLBACKEND=Agg would silently drop every notebook figure.
    env.pop("MPLBACKEND", None)
    env.setdefault("NO_MKDOCS_2_WARNING", "1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-d", str(site)],
        cwd=pagekit.ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed (exit {result.returncode}):\n{result.stdout}\n{result.stderr[-20000:]}",
                    pytrace=False)
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = ReusableServer(("127.0.0.1", port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return site, port


early.register("site", fixture="built_site", stage="site build", work=_build_and_serve)


@pytest.fixture(scope="session")
def built_site(pytestconfig) -> Path:
    """The folder of the strictly built site (built in the background: tests/early.py)."""
    return early.result("site", pytestconfig)[0]


@pytest.fixture(scope="session")
def server(pytestconfig) -> str:
    """The built site served on 127.0.0.1 at the address it was built for: its base URL."""
    return f"http://127.0.0.1:{early.result('site', pytestconfig)[1]}"


@pytest.fixture(scope="session")
def reader_env(server, tmp_path_factory):
    """A fresh virtual environment holding only what the pages' "Before you start" box installs.

    It runs the box's own line, ``pip install -r <site>/downloads/requirements-reader.txt``, with
    pip's defaults (``--isolated``: none of this machine's pip configuration), so mlp_ref comes
    from the served site and everything else from the public index. Yields the environment's
    Python. The environment is kept in ``.cache/reader-env/`` under a key of the requirements
    file's content (which holds the wheel's SHA-256), so a later run with the same pins and the
    same mlp_ref reuses it and any change installs afresh.
    """
    from tests import readerkit

    url = f"{server}/downloads/requirements-reader.txt"
    with urllib.request.urlopen(url) as response:
        text = response.read().decode()
    key = readerkit.digest(text.replace(server, "SITE"))
    home = pagekit.ROOT / ".cache" / "reader-env" / key
    python = home / "bin" / "python"
    stamp = home / ".complete"
    start = time.perf_counter()
    if not stamp.is_file():
        for old in home.parent.glob("*"):  # environments of earlier pins or an earlier mlp_ref
            if old != home:
                shutil.rmtree(old, ignore_errors=True)
        python = readerkit.new_venv(home)
        result = readerkit.public_pip(python, "install", "--quiet", "-r", url)
        if result.returncode != 0:
            reason = f"pip install -r {url} failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}"
            if readerkit.index_unreachable(result) and not os.environ.get(readerkit.INDEX_ENV):
                pytest.skip(f"no package index reachable ({readerkit.INDEX_ENV} unset): {reason}")
            pytest.fail(reason, pytrace=False)
        stamp.write_text(text, encoding="utf-8")
    timing.charge("reader's environment", time.perf_counter() - start)
    return python
