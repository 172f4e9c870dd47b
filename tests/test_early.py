"""tests/early.py: which runs start the site build before collection."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests import early

ARGS, TESTPATHS = pytest.Config.ArgsSource.ARGS, pytest.Config.ArgsSource.TESTPATHS


def config(source=TESTPATHS, **options):
    option = SimpleNamespace(**{"keyword": "", "markexpr": "", "lf": False, "failedfirst": False,
                                "collectonly": False, **options})
    return SimpleNamespace(args_source=source, option=option)


def test_only_a_run_of_the_whole_suite_starts_jobs_before_collection():
    assert early.whole_suite(config())  # make test: pytest with no arguments
    assert not early.whole_suite(config(ARGS))  # pytest tests/test_network.py
    assert not early.whole_suite(config(keyword="network"))
    assert not early.whole_suite(config(markexpr="slow"))
    assert not early.whole_suite(config(lf=True))
    assert not early.whole_suite(config(collectonly=True))


def test_the_site_build_is_the_job_that_starts_with_the_session():
    assert [name for name, job in early.JOBS.items() if job.at_start] == ["site"]
