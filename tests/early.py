"""pytest plugin: slow shared work starts in the background as soon as the tests are collected.

The strict site build and the coding exercises' runs are processes that need no test to run
first. Started at the end of collection, they run on the second core while the unit tests
run on the first, and the fixture that needs one waits only for what is left of it
(:func:`result`). The reader's environment follows the build in the same way: it installs
from the served site as soon as there is one. Each job starts only if some selected test uses the fixture it serves, so
``pytest tests/test_network.py`` starts nothing. A job's own run time is reported by
``tests/timing.py`` as a background stage; the time a test waited for it is not charged twice.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

import pytest

from tests import timing


@dataclass
class Job:
    fixture: str  # the fixture whose value the job computes; the job starts if a test uses it
    stage: str  # the stage of tests/timing.py its run time belongs to
    work: Callable[[pytest.Config], object]


JOBS: dict[str, Job] = {}
_futures: dict[str, Future] = {}
# The site build and the exercises beside the unit tests in the main thread, and the reader's
# environment, which waits for the served site.
_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="early")  # one per job: none queues behind another


def register(name: str, fixture: str, stage: str, work: Callable[[pytest.Config], object]) -> None:
    """Declare background work ``name``, computing what ``fixture`` returns from the config."""
    if name in JOBS:
        raise ValueError(f"background job {name!r} is registered twice")
    JOBS[name] = Job(fixture, stage, work)


def _timed(job: Job, config: pytest.Config):
    start = time.perf_counter()
    try:
        return job.work(config)
    finally:
        timing.background(job.stage, time.perf_counter() - start)


def _start(name: str, config: pytest.Config) -> Future:
    if name not in _futures:
        _futures[name] = _pool.submit(_timed, JOBS[name], config)
    return _futures[name]


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    used = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    for name, job in JOBS.items():
        if job.fixture in used:
            _start(name, session.config)


def result(name: str, config: pytest.Config):
    """The value of job ``name`` (started now if collection did not start it); its errors re-raise here."""
    start = time.perf_counter()
    try:
        return _start(name, config).result()
    finally:
        timing.waited(time.perf_counter() - start)


def pytest_sessionfinish(session):
    # An interrupted run (-x, Ctrl-C) must not wait for a build nobody reads.
    _pool.shutdown(wait=False, cancel_futures=True)
