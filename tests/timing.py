"""pytest plugin: at the end of the run, the time each stage of ``make test`` took.

Every test item's setup, call and teardown time is charged to its stage, chosen by where the
item lives (:func:`stage_of`). The expensive shared fixtures — the reader's fresh environment
— are charged to stages of their own with :func:`charge`: their time is taken out of the item
whose setup happened to run them. Work that runs in the background beside the tests (the site
build, the exercises: tests/early.py) reports its own run time with :func:`background`, and
the time a test waited for it is taken out of that test (:func:`waited`), so the stages may
add up to more than the whole run. A timing report, never a timed assertion: nothing fails
for being slow.
"""

from __future__ import annotations

import time
from collections import defaultdict

import pytest

STAGES = ("unit tests", "page blocks", "exercises", "site build", "site checks", "browser visits", "browser",
          "reader's environment", "public index", "reader's side")
_seconds: dict[str, float] = defaultdict(float)
_charged_during: dict[str, float] = defaultdict(float)  # nodeid -> fixture seconds charged in its setup
_background: dict[str, float] = defaultdict(float)  # stage -> seconds run beside the tests
_waited: dict[str, float] = defaultdict(float)  # job -> seconds the tests spent waiting for it
_current: list[str] = [""]
_start: list[float] = [0.0]


def stage_of(nodeid: str) -> str:
    """The stage of a test item, from its node id (``path::name``)."""
    path = nodeid.split("::", 1)[0]
    if path.startswith("docs/"):
        return "page blocks"
    name = path.rsplit("/", 1)[-1]
    if name == "test_exercises.py":
        return "exercises"
    if name in ("test_browser.py", "test_widgets.py"):
        return "browser"
    if name in ("test_site_build.py", "test_reader_blocks.py"):
        return "site checks"
    if name.startswith("test_reader_"):
        return "reader's side"
    return "unit tests"


def charge(stage: str, seconds: float) -> None:
    """Charge a shared fixture's ``seconds`` to ``stage`` instead of the item that set it up."""
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; expected one of {STAGES}")
    _seconds[stage] += seconds
    _charged_during[_current[0]] += seconds


def background(stage: str, seconds: float) -> None:
    """Record the run time of background work of ``stage`` (tests/early.py), beside the tests."""
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; expected one of {STAGES}")
    _background[stage] += seconds


def waited(seconds: float, job: str) -> None:
    """Take the time a test's setup spent waiting for background ``job`` out of that test's stage."""
    _charged_during[_current[0]] += seconds
    _waited[job] += seconds


def pytest_sessionstart(session):
    _start[0] = time.perf_counter()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    _current[0] = item.nodeid
    try:
        return (yield)
    finally:
        _current[0] = ""


def pytest_runtest_logreport(report):
    seconds = report.duration
    if report.when == "setup":
        seconds -= _charged_during.pop(report.nodeid, 0.0)
    _seconds[stage_of(report.nodeid)] += max(seconds, 0.0)


@pytest.hookimpl(trylast=True)  # the last section of the report
def pytest_terminal_summary(terminalreporter):
    if not _seconds:
        return
    terminalreporter.section("time by stage")
    for stage in STAGES:
        if stage in _seconds or stage in _background:
            line = f"{stage:>28}: {_seconds.get(stage, 0.0) + _background.get(stage, 0.0):6.1f} s"
            if stage in _background:
                line += "  (in the background, beside the tests)"
            terminalreporter.write_line(line)
    waits = ", ".join(f"{job} {seconds:.1f} s" for job, seconds in sorted(_waited.items(), key=lambda w: -w[1])
                      if seconds >= 0.05)
    terminalreporter.write_line(f"{'tests waiting for those':>28}: {sum(_waited.values()):6.1f} s"
                                + (f"  (for: {waits})" if waits else ""))
    terminalreporter.write_line(f"{'whole run':>28}: {time.perf_counter() - _start[0]:6.1f} s")
