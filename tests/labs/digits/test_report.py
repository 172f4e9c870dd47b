"""Tests of mlp_ref.labs.digits.report: the formatting helpers by hand, the tables from the raw labels, the
words for models that did not train."""

from __future__ import annotations

import numpy as np
import pytest

from mlp_ref import History, MLP
from mlp_ref.labs.digits.data import digits_splits
from mlp_ref.labs.digits.experiment import RunResult, SizeResult
from mlp_ref.labs.digits.report import (chosen_size_lines, check_study, failed_run_line, format_report, late_epochs_line,
                                        mean_spread,
                                        milliseconds, mnist_report, percent, problem_lines, size_problem_line, sizes_label,
                                        split_table, study_table)


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


@pytest.fixture(scope="module")
def untrained():
    """A small run at learning rate 50 (the teacher's typo for 0.5): every model ends at chance."""
    from mlp_ref.labs.digits.experiment import DigitsSettings, run_lab

    return run_lab(DigitsSettings(epochs=3, n_seeds=2, lr=50, study=((64, 8, 10),), hgb_rounds=1))


def test_a_run_in_which_no_model_trained_says_so_and_chooses_nothing(untrained):
    assert not untrained.usable and untrained.chosen is None
    line = problem_lines(untrained)   # what the notebook prints under its training cell
    assert line.startswith("no model trained: every one ended at chance") and "\n" not in line
    assert "chance is 10.0 %" in line and "this run's: 50; the page's: 0.1" in line
    assert chosen_size_lines(untrained).startswith("no size chosen")
    table = study_table(untrained)
    assert "(chosen)" not in table and table.count("(failed)") == 2          # [64, 8, 10] and SIZES
    assert "chosen by mean validation" not in format_report(untrained)
    with pytest.warns(UserWarning) as caught:                                # a reader's run: the claims warn
        check_study(untrained)
    assert any("yours found no size chosen" in str(w.message) for w in caught), [str(w.message) for w in caught]


def _size(sizes, val_accuracies, train_loss=(2.0, 1.0)):
    history = History(train_loss=list(train_loss), val_loss=[1.0] * len(train_loss), best_epoch=0)
    runs = [RunResult(tuple(sizes), k, MLP(list(sizes)), history, 1.0, v, 1.0, v, np.array([]), 1.0)
            for k, v in enumerate(val_accuracies)]
    return SizeResult(tuple(sizes), runs)


def test_each_failed_model_is_said_in_words():
    at_chance = _size((64, 8, 10), [0.95, 0.102])
    assert size_problem_line(at_chance, 50) == (
        "[64, 8, 10]: 1 of 2 models failed to train, so this size cannot be chosen; model [64, 8, 10], seed 1, "
        "trained at chance: 10.2 % on validation (chance is 10.0 %); check the learning rate first "
        "(this run's: 50; the page's: 0.1)")
    rising = _size((64, 8, 10), [0.97], train_loss=(2.2805, 0.5, 2.3068))
    assert failed_run_line(rising.runs[0]) == ("model [64, 8, 10], seed 0: its training loss rose, "
                                                "from 2.2805 in epoch 1 to 2.3068 in epoch 3")


def test_the_report_names_the_models_that_failed_and_chooses_another():
    """At learning rate 1 the lab's size trains for one seed and diverges for the other (its loss rises)."""
    from mlp_ref.labs.digits.experiment import DigitsSettings, run_lab

    settings = DigitsSettings(epochs=25, n_seeds=2, lr=1, study=((64, 32, 10),), hgb_rounds=1)
    report = run_lab(settings)
    assert [r.problem for r in report.lab_runs] == ["rising", None]
    text = format_report(report)
    assert "[64, 32, 16, 10]: 1 of 2 models failed to train, so this size cannot be chosen" in text
    assert "[64, 32, 16, 10] (failed)" in text and "chosen by mean validation accuracy: [64, 32, 10]" in text


def _stopped(sizes, chosen_epochs, epochs=25):
    """A size whose seeds chose ``chosen_epochs`` (from 1) of ``epochs``."""
    runs = []
    for k, chosen in enumerate(chosen_epochs):
        history = History(train_loss=[2.0 - 0.01 * e for e in range(epochs)], val_loss=[1.0] * epochs,
                          best_epoch=chosen - 1)
        runs.append(RunResult(tuple(sizes), k, MLP(list(sizes)), history, 1.0, 0.9 + 0.01 * len(sizes), 1.0, 0.9,
                              np.array([]), 1.0))
    return SizeResult(tuple(sizes), runs)


def test_every_size_still_improving_is_counted_and_a_size_that_stopped_early_is_named():
    """Section 6 says every size of the study chose one of the last LATE_EPOCHS epochs for every seed."""
    from mlp_ref.labs.digits.experiment import DigitsReport, DigitsSettings

    settings = DigitsSettings(n_seeds=2, study=((64, 32, 10), (64, 128, 64, 10)))
    late = [_stopped((64, 32, 10), [25, 24]), _stopped((64, 32, 16, 10), [23, 25]),
            _stopped((64, 128, 64, 10), [21, 22])]
    report = DigitsReport(settings, None, late[1].runs, late, 2, None, None, [])
    assert late_epochs_line(report) == "sizes whose every seed chose one of the last 5 of 25 epochs: 3 of 3", \
        f"Lab A, section 6: expected 3 of 3 sizes late, found {late_epochs_line(report)!r}"
    check_study(report)  # every statement holds: no warning
    report.study[2] = _stopped((64, 128, 64, 10), [25, 12])   # the largest stopped improving at epoch 12
    assert late_epochs_line(report).endswith(": 2 of 3"), late_epochs_line(report)
    with pytest.warns(UserWarning) as caught:
        check_study(report)
    messages = [str(w.message) for w in caught]
    assert any("every size of the study chose an epoch within the last 5" in m
               and "[64, 128, 64, 10] chose epoch 12 for one seed" in m for m in messages), \
        f"Lab A, section 6: expected the size that stopped early named in a warning, found {messages}"


def test_the_study_table_shows_the_test_accuracy_of_the_chosen_size_only(untrained):
    """Lab A chooses the size on validation: the table must not show a test column to choose from."""
    from mlp_ref.labs.digits.experiment import DigitsReport, DigitsSettings

    settings = DigitsSettings(n_seeds=2, study=((64, 32, 10), (64, 128, 64, 10)))
    study = [_stopped((64, 32, 10), [25, 24]), _stopped((64, 32, 16, 10), [23, 25]),
             _stopped((64, 128, 64, 10), [21, 22])]
    for chosen in (0, 2):
        report = DigitsReport(settings, None, study[1].runs, study, chosen, None, None, [])
        rows = [[c.strip() for c in line.split("|")[1:-1]] for line in study_table(report).splitlines()[2:]]
        shown = [row[0] for row in rows if row[2] != "—"]
        assert shown == [f"{sizes_label(study[chosen].sizes)} (chosen)"], \
            f"Lab A, section 6: expected a test accuracy for the chosen size only, found it for {shown}"
    rows = study_table(untrained).splitlines()[2:]                    # no size chosen: no test accuracy at all
    assert all(line.split("|")[3].strip() == "—" for line in rows), \
        f"Lab A, section 6: expected no test accuracy without a chosen size, found {rows}"
