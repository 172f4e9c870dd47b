"""Each coding exercise's tests pass on the reference solution and fail on the starter.

An exercise lives in ``docs/exercises/<name>/`` (so the site serves its files for
download): the starter ``<module>.py`` the reader edits, the reader's tests
``test_<module>.py``, and ``solution/<module>.py``. Each test file runs here twice, in a
fresh folder, as the page tells the reader to run it (``pytest test_<module>.py``): next to
the solution it must pass; next to the untouched starter it must fail, which proves the
tests test something.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests import pagekit

EXERCISES = sorted((pagekit.DOCS / "exercises").glob("*/test_*.py"))


def run_reader_tests(test_file, module_source, tmp_path) -> subprocess.CompletedProcess:
    module_name = test_file.name.removeprefix("test_")
    shutil.copy(test_file, tmp_path / test_file.name)
    shutil.copy(module_source, tmp_path / module_name)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test_file.name],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("test_file", EXERCISES, ids=[p.parent.name for p in EXERCISES])
def test_solution_passes(test_file, tmp_path):
    solution = test_file.parent / "solution" / test_file.name.removeprefix("test_")
    assert solution.is_file(), f"no reference solution at {solution}"
    result = run_reader_tests(test_file, solution, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("test_file", EXERCISES, ids=[p.parent.name for p in EXERCISES])
def test_untouched_starter_fails(test_file, tmp_path):
    starter = test_file.parent / test_file.name.removeprefix("test_")
    assert starter.is_file(), f"no starter file at {starter}"
    result = run_reader_tests(test_file, starter, tmp_path)
    # Exit code 1 means tests ran and failed; 2-5 would mean they could not even run.
    assert result.returncode == 1, result.stdout + result.stderr
