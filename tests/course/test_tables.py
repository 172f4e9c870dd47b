"""Tests of mlp_ref.course.tables: number formatting and Markdown pipe tables."""

import numpy as np
import pytest

from mlp_ref.course.tables import format_count, format_number, markdown_table


@pytest.mark.parametrize("x, precision, expected", [
    (0.77903, 3, "0.779"),
    (1.26, 4, "1.2600"),
    (2, 2, "2.00"),
    (-1.5, 1, "-1.5"),
    (np.float32(0.5), 2, "0.50"),
    (np.array(3.14159), 2, "3.14"),
    (1234567.891, 1, "1234567.9"),
    (7.6, 0, "8"),
])
def test_format_number_fixed_decimals(x, precision, expected):
    assert format_number(x, precision) == expected


@pytest.mark.parametrize("x", [-0.0, -1e-9, -0.0004, np.float64(-0.0)])
def test_format_number_has_no_negative_zero(x):
    assert format_number(x, 3) == "0.000"


def test_format_number_keeps_sign_of_values_that_do_not_round_to_zero():
    assert format_number(-0.0006, 3) == "-0.001"


def test_format_number_special_values():
    assert [format_number(v, 2) for v in (np.nan, np.inf, -np.inf)] == ["nan", "inf", "-inf"]


@pytest.mark.parametrize("bad", [True, "1.0", 1 + 2j, np.array([1.0, 2.0]), None])
def test_format_number_rejects_non_real(bad):
    with pytest.raises((TypeError, ValueError), match="x"):
        format_number(bad, 2)


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_format_number_rejects_bad_precision(bad):
    with pytest.raises(ValueError, match="precision"):
        format_number(1.0, bad)


@pytest.mark.parametrize("n, expected", [
    (101770, "101,770"), (0, "0"), (999, "999"), (1000, "1,000"),
    (124439808, "124,439,808"), (np.int64(-2500), "-2,500"),
])
def test_format_count(n, expected):
    assert format_count(n) == expected


@pytest.mark.parametrize("bad", [1000.0, True, "1000"])
def test_format_count_rejects_non_integers(bad):
    with pytest.raises(TypeError, match="n: expected an integer"):
        format_count(bad)


def test_markdown_table_layout_and_alignment():
    text = markdown_table(["name", "value", "mid"], [["a", "1.00", "x"], ["bb", "-2.50", "y"]], align="lrc")
    assert text.splitlines() == [
        "| name | value | mid   |",
        "| :--- | ----: | :---: |",
        "| a    | 1.00  | x     |",
        "| bb   | -2.50 | y     |",
    ]


def test_markdown_table_default_alignment_and_list_align():
    plain = markdown_table(["a"], [["1"]])
    assert plain.splitlines()[1] == "| --- |"
    assert markdown_table(["a", "b"], [["1", "2"]], align=["r", None]).splitlines()[1] == "| ---: | --- |"


def test_markdown_table_escapes_pipes_and_newlines():
    text = markdown_table(["h|1"], [["a|b"], ["line1\nline2"]])
    lines = text.splitlines()
    assert lines[0] == "| h\\|1" + " " * 10 + " |"
    assert lines[2].startswith("| a\\|b ")
    assert lines[3] == "| line1<br>line2 |"
    # Every row has the same number of unescaped separators.
    assert all(line.replace("\\|", "").count("|") == 2 for line in lines)


def test_markdown_table_rejects_unformatted_numbers():
    with pytest.raises(TypeError, match=r"rows\[0\]\[1\].*format_number"):
        markdown_table(["a", "b"], [["x", 1.5]])


def test_markdown_table_rejects_ragged_rows():
    with pytest.raises(ValueError, match=r"rows\[1\]: expected 2 cells.*received 3"):
        markdown_table(["a", "b"], [["1", "2"], ["1", "2", "3"]])


def test_markdown_table_rejects_bad_align():
    with pytest.raises(ValueError, match="align: expected 2"):
        markdown_table(["a", "b"], [], align="l")
    with pytest.raises(ValueError, match=r"align\[1\]"):
        markdown_table(["a", "b"], [], align=["l", "x"])
