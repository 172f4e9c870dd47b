"""Tests of mlp_ref.labs.digits.report: the formatting helpers by hand, the tables from the raw labels."""

from __future__ import annotations

import numpy as np
import pytest

from mlp_ref.labs.digits.data import digits_splits
from mlp_ref.labs.digits.report import mean_spread, milliseconds, mnist_report, percent, split_table


@pytest.fixture(scope="module")
def splits():
    return digits_splits(0)


def test_formatting_helpers_by_hand():
    assert percent(0.9537) == "95.4"
    # mean 92.5; sample sd = sqrt((2.5^2 + 2.5^2) / 1) = 3.5355...
    assert mean_spread([0.9, 0.95]) == "92.5 ± 3.5"
    assert mean_spread([0.5]) == "50.0"
    assert milliseconds(0.01234) == "12.3 ms"


def test_split_table_counts_come_from_the_raw_labels(splits):
    from sklearn.datasets import load_digits

    target = load_digits().target
    lines = split_table(splits).splitlines()
    cells = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]] for line in lines[2:]}
    for d in range(10):
        expected = [np.sum(target[idx] == d) for idx in (splits.train_idx, splits.val_idx, splits.test_idx)]
        assert cells[str(d)] == [str(n) for n in expected] + [str(np.sum(target == d))]
    assert cells["all"][-1] == "1,797"


def test_mnist_report_without_a_folder_claims_no_run():
    for unset in (None, ""):
        text = mnist_report(unset)
        assert "no MNIST run was made" in text and "%" not in text
