"""mlp_ref.course.claims: a page's statement fails the site build, and only warns in a reader's run."""

from __future__ import annotations

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
    assert f"In your run, the page's statement does not hold: {STATEMENT}." in message
    assert "other settings or other data" in message and "The notebook continues." in message
    assert issubclass(ClaimWarning, UserWarning)
    assert record[0].filename == __file__  # points at the caller's line, not at claims.py


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
