"""Shared fixtures: one strict build of the whole site per test run."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests import pagekit


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """Build the site with ``mkdocs build --strict`` (labs executed) into a temporary folder."""
    site = tmp_path_factory.mktemp("site")
    env = dict(os.environ)
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
    return site
