"""pytest plugin: slow shared work starts in the background as soon as the tests are collected.

The strict site build (which also runs the pages' code blocks, mlp_site.verification) and the
coding exercises' runs are processes that need no test to run first. Started at the end of
collection (the site build, in a run of the whole suite, as the session starts:
:func:`whole_suite`), they run on the second core while
the unit tests run on the first, and the fixture that needs one waits only for what is left of it
(:func:`result`). A job may start ``after`` others: the browser's visits of every page start as
soon as the site is served, and the reader's environment once the site is served and its
third-party pins are installed (which runs beside the build). Each job starts only if some selected test uses the fixture it serves, so
``pytest tests/test_network.py`` starts nothing. A job's own run time is reported by
``tests/timing.py`` as a background stage; the time a test waited for it is not charged twice.

With pytest-xdist (``make test`` runs ``-n auto``), the controller, which runs no test, runs every job
of the whole suite as its session starts, and writes each result to a file of a folder it gives the
workers (:func:`pytest_configure_node`); a worker's :func:`result` waits for that file. So the build and
the browser's visits run once, in the one process that lives to the end of the run, while the tests
run on every core. A run with ``-n`` of a part of the suite does the same (every job starts).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import pickle
import queue
import tempfile
import threading
import time
import traceback
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as StillRunning
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from tests import timing


@dataclass
class Job:
    fixture: str  # the fixture whose value the job computes; the job starts if a test uses it
    stage: str  # the stage of tests/timing.py its run time belongs to
    work: Callable[[pytest.Config], object]
    after: tuple[str, ...] = ()  # jobs whose results this one needs first; its own time starts then
    at_start: bool = False  # in a run of the whole suite, start when the session starts (before collection)


JOBS: dict[str, Job] = {}
_futures: dict[str, Future] = {}
# The site build and the exercises beside the unit tests in the main thread; the reader's
# environment and the browser's visits, which wait for the served site.
_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="early")  # one per job: none queues behind another


def new_folder(config: pytest.Config, prefix: str) -> Path:
    """A new folder under pytest's temporary folder of this run, for a job's files."""
    # A job starts from a hook, where no fixture (tmp_path_factory) is available; pytest offers hooks no
    # public way to the session's TempPathFactory, whose folder it keeps for inspection and then cleans.
    return Path(tempfile.mkdtemp(prefix=prefix, dir=config._tmp_path_factory.getbasetemp()))


def register(name: str, fixture: str, stage: str, work: Callable[[pytest.Config], object] | str,
             after: tuple[str, ...] = (), at_start: bool = False) -> None:
    """Declare background work ``name``, computing what ``fixture`` returns from the config, once
    the jobs ``after`` are done. With ``at_start``, a run of the whole suite starts it as the
    session starts, before the few seconds of collection, instead of at the end of collection."""
    if name in JOBS:
        raise ValueError(f"background job {name!r} is registered twice")
    if isinstance(work, str):  # "module:function", imported when the job starts (a test module's)
        work = functools.partial(_imported, work)
    JOBS[name] = Job(fixture, stage, work, after, at_start)


def _imported(where: str, config: pytest.Config):
    module, function = where.split(":")
    return getattr(importlib.import_module(module), function)(config)


def whole_suite(config: pytest.Config) -> bool:
    """Whether this run is the whole suite (``make test``): no paths, no -k, -m or last-failed
    selection, no --collect-only. Every job serves some test of the whole suite."""
    option = config.option
    return (config.args_source != pytest.Config.ArgsSource.ARGS and not option.keyword and not option.markexpr
            and not getattr(option, "lf", False) and not getattr(option, "failedfirst", False)
            and not option.collectonly)


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    _session[:] = [session]
    config = session.config
    if _results_folder(config) is not None:  # an xdist worker: the controller runs the jobs
        return
    if _controls_workers(config):
        for name in JOBS:
            _start(name, config).add_done_callback(functools.partial(_publish, name, _published_folder(config)))
    elif whole_suite(config):
        for name, job in JOBS.items():
            if job.at_start:
                _start(name, config)


# --- pytest-xdist: the controller runs the jobs, the workers read their results -----------------
_FOLDER = "mlp_early_results"  # the workers' input naming the folder of the jobs' results


def _controls_workers(config: pytest.Config) -> bool:
    """Whether this process is pytest-xdist's controller (``-n``), which runs no test itself."""
    return config.pluginmanager.has_plugin("dsession")


def _results_folder(config: pytest.Config) -> Path | None:
    """In an xdist worker, the folder where the controller writes each job's result; else None."""
    folder = getattr(config, "workerinput", {}).get(_FOLDER)
    return Path(folder) if folder else None


@functools.cache
def _published_folder(config: pytest.Config) -> Path:
    return new_folder(config, "jobs-")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """The controller tells each worker it starts where the jobs' results will be."""
    node.workerinput[_FOLDER] = str(_published_folder(node.config))


def _publish(name: str, folder: Path, future: Future) -> None:
    """Write job ``name``'s value, or what it raised, where the workers wait for it (whole or not at all)."""
    try:
        outcome = ("value", future.result())
    except pytest.skip.Exception as skip:  # pytest's outcomes do not pickle: their kind and message
        outcome = ("skip", skip.msg)
    except pytest.fail.Exception as failure:
        outcome = ("fail", failure.msg)
    except BaseException as error:
        outcome = ("error", error)
    try:
        data = pickle.dumps(outcome)
    except Exception:  # an error that does not pickle: its text
        text = "".join(traceback.format_exception(outcome[1])) if outcome[0] == "error" else repr(outcome[1])
        data = pickle.dumps(("error", RuntimeError(f"background job {name!r}:\n{text}")))
    partial = folder / f".{name}.{os.getpid()}"
    partial.write_bytes(data)
    os.replace(partial, folder / f"{name}.pickle")


def _read_published(name: str, folder: Path):
    """Job ``name``'s value as the controller wrote it, waiting until it has (its error re-raises)."""
    path = folder / f"{name}.pickle"
    while not path.is_file():
        time.sleep(0.2)
    kind, value = pickle.loads(path.read_bytes())
    if kind == "skip":  # a skip or a failure of the job is the waiting test's own
        pytest.skip(value)
    if kind == "fail":
        pytest.fail(value, pytrace=False)
    if kind == "error":
        raise value
    return value


def _timed(job: Job, config: pytest.Config):
    for first in [_start(name, config) for name in job.after]:
        first.result()  # its errors are this job's too
    start = time.perf_counter()
    try:
        return job.work(config)
    finally:
        timing.background(job.stage, time.perf_counter() - start)


_starting = threading.Lock()  # jobs start jobs they need (``after``): each must start once


def _start(name: str, config: pytest.Config) -> Future:
    with _starting:
        if name not in _futures:
            _futures[name] = _pool.submit(_timed, JOBS[name], config)
        return _futures[name]


# The jobs in the order they are expected to finish (a job that starts ``after`` another, or takes
# longer, later); a job missing here finishes last.
FINISH_ORDER = ("exercises", "site", "public-resolve", "reader-pins", "reader-env", "site-visits")


def _waits_for(item) -> int:
    """0 for a test that needs no job, else the place in FINISH_ORDER of the last job it needs (from 1)."""
    names = set(getattr(item, "fixturenames", ()))
    needed = [FINISH_ORDER.index(name) + 1 if name in FINISH_ORDER else len(FINISH_ORDER) + 1
              for name, job in JOBS.items() if job.fixture in names]
    return max(needed, default=0)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """Run the tests that need no job first, then those that need one in the order the jobs finish,
    so the jobs run beside the tests instead of keeping a test waiting (the order within each group
    is the collection's: a stable sort)."""
    items[:] = sorted(items, key=_waits_for)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    if session.config.option.collectonly or _results_folder(session.config) is not None:
        return
    used = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    for name, job in JOBS.items():
        if job.fixture in used:
            _start(name, session.config)


# What a job found and must say at once (a page the build failed), said on the terminal by the main thread.
_news: "queue.SimpleQueue[str]" = queue.SimpleQueue()


def tell(line: str) -> None:
    """Say ``line`` on the terminal as soon as the main thread can: between two tests, or while a test
    waits for a job (:func:`result`); a job runs in a thread of its own, which must not write there."""
    _news.put(line)


def say_news(config: pytest.Config) -> None:
    """Write what the jobs told since the last call (main thread only), past pytest's output capture."""
    if threading.current_thread() is not threading.main_thread() or _news.empty():
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        if reporter is not None:
            reporter.ensure_newline()
        while not _news.empty():
            line = _news.get()
            reporter.write_line(line) if reporter is not None else print(line)


_session: list = []  # this run's session (pytest_sessionstart): the hook below is given no config


@pytest.hookimpl(trylast=True)
def pytest_runtest_logfinish(nodeid, location):
    """Between two tests, once the one before is reported."""
    if _session:
        say_news(_session[0].config)


def result(name: str, config: pytest.Config):
    """The value of job ``name`` (started now if collection did not start it); its errors re-raise here.
    While it waits, what the jobs tell reaches the terminal."""
    start = time.perf_counter()
    try:
        folder = _results_folder(config)
        if folder is not None:  # an xdist worker: the controller runs it (and says its news)
            return _read_published(name, folder)
        future = _start(name, config)
        while True:
            try:
                return future.result(timeout=0.5)
            except StillRunning:
                say_news(config)
    finally:
        if threading.current_thread() is threading.main_thread():  # a job waiting for another is no test
            timing.waited(time.perf_counter() - start, name)


def pytest_sessionfinish(session):
    say_news(session.config)
    # An interrupted run (-x, Ctrl-C) must not wait for a build nobody reads.
    _pool.shutdown(wait=False, cancel_futures=True)
