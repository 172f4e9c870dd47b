"""tests/early.py: which runs start the site build before collection."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests import early, pagekit

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


def test_a_worker_reads_each_jobs_result_as_the_controller_wrote_it(tmp_path):
    """pytest-xdist: the controller writes what a job returned or raised; a worker's wait gives it back,
    a skip as a skip (no browser here: the test skips, it does not fail) and any other error as an error."""
    from concurrent.futures import Future

    def done(value=None, error=None) -> Future:
        future = Future()
        future.set_exception(error) if error is not None else future.set_result(value)
        return future

    early._publish("site", tmp_path, done({"port": 8123, "site": tmp_path}))
    assert early._read_published("site", tmp_path) == {"port": 8123, "site": tmp_path}
    with pytest.raises(pytest.skip.Exception, match="no Chromium"):
        early._publish("visits", tmp_path, done(error=pytest.skip.Exception("no Chromium found")))
        early._read_published("visits", tmp_path)

    class Unpicklable(Exception):  # defined in a function: pickle cannot name it
        pass

    early._publish("exercises", tmp_path, done(error=Unpicklable("the runner broke")))
    with pytest.raises(RuntimeError, match="(?s)background job 'exercises'.*the runner broke"):
        early._read_published("exercises", tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["exercises.pickle", "site.pickle", "visits.pickle"]


def test_every_job_is_registered_where_xdists_controller_sees_it():
    """The controller collects no test module: a job registered in one (not in a conftest.py or a plugin it
    names) would never start there, and a worker's test would wait for it for ever. A fresh process loads
    what the controller loads and lists the jobs."""
    import subprocess
    import sys

    loads = "import importlib, conftest; [importlib.import_module(p) for p in conftest.pytest_plugins]; " \
            "import tests.conftest; from tests import early; print(sorted(early.JOBS))"
    listed = subprocess.run([sys.executable, "-c", loads], cwd=pagekit.ROOT, capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr[-3000:]
    assert listed.stdout.split("\n")[-2] == str(sorted(early.JOBS)), (
        f"jobs the controller knows: {listed.stdout.strip()}; jobs a run that collected every test knows: "
        f"{sorted(early.JOBS)}")
