"""mlp_ref.course.claims: a page's statement fails the site build, and only warns in a reader's run."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

from mlp_ref.course.claims import SITE_BUILD_ENV, ClaimWarning, claim, site_build

STATEMENT = "the MLP with the initialization fixes beats the bigram on validation"


@pytest.fixture
def building(monkeypatch):
    monkeypatch.setenv(SITE_BUILD_ENV, "1")


@pytest.fixture
def reader(monkeypatch):
    monkeypatch.delenv(SITE_BUILD_ENV, raising=False)


def test_the_variable_is_the_one_the_build_sets():
    assert SITE_BUILD_ENV == "MLP_SITE_BUILD"


@pytest.mark.parametrize("value, expected", [(None, False), ("", False), ("0", False), ("1", True)])
def test_site_build_reads_the_variable(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv(SITE_BUILD_ENV, raising=False)
    else:
        monkeypatch.setenv(SITE_BUILD_ENV, value)
    assert site_build() is expected


@pytest.mark.parametrize("value", ["true", "yes", " 1", "2"])
def test_site_build_rejects_other_values_by_name(monkeypatch, value):
    monkeypatch.setenv(SITE_BUILD_ENV, value)
    with pytest.raises(ValueError, match=rf"{SITE_BUILD_ENV}: expected '1'.*received {value!r}"):
        site_build()


def test_a_false_claim_fails_the_site_build(building):
    with pytest.raises(AssertionError, match=rf"the page states that {STATEMENT}, but its own run contradicts it"):
        claim(False, STATEMENT)


def test_a_false_claim_warns_in_a_readers_run_and_returns_false(reader):
    with pytest.warns(ClaimWarning) as record:
        assert claim(np.float64(1.0) > 2.0, STATEMENT) is False
    message = str(record[0].message)
    # the page's statement is the page's finding, not a description of the reader's run
    assert message.startswith(f"The page's run found that {STATEMENT}; yours found otherwise.")
    assert "other settings or other data" in message and "The notebook continues." in message
    assert issubclass(ClaimWarning, UserWarning)
    assert record[0].filename == __file__  # points at the caller's line, not at claims.py


def test_the_warning_says_what_the_readers_run_found(reader, monkeypatch):
    monkeypatch.delenv("MLP_LANG", raising=False)
    with pytest.warns(ClaimWarning) as record:
        claim(False, STATEMENT, "a mean validation loss of 2.31 against the bigram's 2.25")
    assert str(record[0].message).startswith(
        f"The page's run found that {STATEMENT}; yours found a mean validation loss of 2.31 against the bigram's 2.25.")


def test_the_warning_is_in_the_editions_language(reader, monkeypatch):
    monkeypatch.setenv("MLP_LANG", "ru")
    with pytest.warns(ClaimWarning) as record:
        claim(False, "сеть победила биграммы", "потери 2.31 против 2.25")
    message = str(record[0].message)
    assert message.startswith("Запуск страницы показал: сеть победила биграммы; ваш запуск показал потери 2.31 "
                              "против 2.25.")
    assert "Ноутбук продолжает работу." in message


def helper_that_checks(condition):
    """A lab's helper: its warning points at the line that called it."""
    return claim(condition, STATEMENT, stacklevel=2)


def test_a_helpers_warning_points_at_its_caller(reader):
    with pytest.warns(ClaimWarning) as record:
        helper_that_checks(False); line = sys._getframe().f_lineno  # noqa: E702 (the call's own line)
    assert record[0].filename == __file__ and record[0].lineno == line


def test_the_build_error_says_what_the_run_found(building):
    with pytest.raises(AssertionError, match=r"contradicts it: it found a loss of 2.31"):
        claim(False, STATEMENT, "a loss of 2.31")


def test_the_warning_is_shown_again_on_a_second_run(reader):
    """Python shows a warning once per line by default; a notebook cell run twice must warn twice."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("default")
        for _ in range(2):
            claim(False, STATEMENT)
    assert len(record) == 2


@pytest.mark.parametrize("mode", ["building", "reader"])
def test_a_true_claim_is_silent_in_both_modes(request, mode):
    request.getfixturevalue(mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert claim(True, STATEMENT) is True
        assert claim(np.array([1, 2]).max() == 2, STATEMENT) is True


@pytest.mark.parametrize("condition", [np.array([True, False]), 1, "yes", None])
def test_a_condition_that_is_not_a_boolean_is_refused(reader, condition):
    with pytest.raises(TypeError, match="condition: expected a boolean"):
        claim(condition, STATEMENT)


@pytest.mark.parametrize("statement", ["", "  ", None])
def test_a_claim_needs_a_statement(reader, statement):
    with pytest.raises(TypeError, match="statement: expected a non-empty string"):
        claim(True, statement)
