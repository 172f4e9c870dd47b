"""Tests of mlp_ref.labs.digits.experiment: one MLP run, the width/depth study, the settings, the guards
against models that did not train.

Expected values come from peers (scikit-learn's metrics, a direct MLP + fit) or from
files the tests write themselves (MNIST in IDX).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mlp_ref import History, MLP, fit
from mlp_ref.labs.digits.data import digits_splits
from mlp_ref.labs.digits.experiment import (DigitsSettings, RunResult, SizeResult, choose_by_validation,
                                            confusion_matrix, run_lab, run_mnist, train_mlp)
from tests import pagekit
from tests.labs.digits.mnist_files import write_idx


ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def splits():
    return digits_splits(0)


def test_train_mlp_equals_a_direct_fit_and_sklearn_log_loss(splits):
    from sklearn.metrics import log_loss

    run = train_mlp([64, 16, 10], splits, epochs=4, batch_size=64, lr=0.1, seed=3)
    net = MLP([64, 16, 10], output="softmax", seed=3)
    history = fit(net, splits.X_train, splits.y_train, splits.X_val, splits.y_val, epochs=4, batch_size=64,
                  lr=0.1, seed=3, engine="fast")
    # train_mlp calls fit with these arguments: the same calls in the same process, so the
    # claim is bit-for-bit equality (a tolerance would hide a changed argument).
    assert run.history.val_loss == history.val_loss
    assert run.chosen_epoch == history.best_epoch + 1
    probabilities = net.predict_proba(splits.X_test)
    assert run.test_loss == pytest.approx(log_loss(splits.y_test, probabilities, labels=range(10)), rel=1e-10)
    assert run.test_accuracy == np.mean(probabilities.argmax(axis=1) == splits.y_test)
    assert np.array_equal(run.test_predictions, net.predict(splits.X_test))


def test_confusion_matrix_matches_sklearn():
    from sklearn.metrics import confusion_matrix as sk_confusion

    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(0, 10, 200), rng.integers(0, 10, 200)
    assert np.array_equal(confusion_matrix(y_true, y_pred, 10), sk_confusion(y_true, y_pred, labels=range(10)))
    with pytest.raises(ValueError, match="y_pred"):
        confusion_matrix([0, 1], [0, 10], 10)
    with pytest.raises(ValueError, match="same length"):
        confusion_matrix([0, 1], [0], 10)


def _fake_size(sizes, val_accuracies, test_accuracy=0.5):
    runs = [RunResult(tuple(sizes), k, MLP(list(sizes)), History(), 0.0, v, 0.0, test_accuracy, np.array([]), 1.0)
            for k, v in enumerate(val_accuracies)]
    return SizeResult(tuple(sizes), runs)


def test_choose_by_validation_ignores_test_and_breaks_ties_by_size():
    small = _fake_size([64, 8, 10], [0.90, 0.92], test_accuracy=0.99)
    large = _fake_size([64, 64, 10], [0.93, 0.93], test_accuracy=0.10)
    assert choose_by_validation([small, large]) == 1          # higher mean validation wins, whatever the test
    tie_large = _fake_size([64, 64, 10], [0.91, 0.91])
    assert choose_by_validation([tie_large, small]) == 1      # same mean (0.91): fewer parameters wins


@pytest.mark.parametrize("kwargs, match", [
    ({"sizes": (63, 10)}, r"sizes: expected 64 inputs"),
    ({"study": ((64, 32, 9),)}, r"study\[0\]: expected 64 inputs .* 10 outputs"),
    ({"epochs": 0}, r"epochs: expected a positive integer"),
    ({"lr": -0.1}, r"lr: expected a positive finite number"),
    ({"mnist_sizes": (64, 10)}, r"mnist_sizes: expected 784 inputs"),
    ({"sizes": (64, 10)}, r"sizes: expected at least one hidden layer"),
    ({"study": ((64, 16, 10), (64, 16, 10))}, r"study: expected distinct size lists"),
])
def test_bad_settings_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        DigitsSettings(**kwargs)


def test_mnist_run_learns_the_synthetic_digits(tmp_path):
    write_idx(tmp_path, n_train=300, n_test=100)
    settings = DigitsSettings(epochs=8, seed=1, mnist_val=60)
    splits, _, run = run_mnist(tmp_path, settings)
    assert run.sizes == (784, 128, 64, 10) and run.net.n_params == 784 * 128 + 128 + 128 * 64 + 64 + 64 * 10 + 10
    assert splits.y_val.size == 60 and run.test_predictions.shape == (100,)
    assert run.val_accuracy > 0.9 and run.test_accuracy > 0.9  # the task is easy by construction


def test_lab_a_settings_cell_is_plain_assignments_of_the_defaults():
    """The build checks this too (MLP_SITE_BUILD); this test says it without building the site."""
    values = pagekit.first_code_cell(ROOT / "docs" / "labs" / "digits.py")
    settings = DigitsSettings(epochs=values["EPOCHS"], seed=values["SEED"], n_seeds=values["SEEDS"],
                              batch_size=values["BATCH_SIZE"], lr=values["LEARNING_RATE"], sizes=values["SIZES"],
                              study=values["STUDY"], hgb_rounds=values["HGB_ROUNDS"],
                              mnist_sizes=values["MNIST_SIZES"], mnist_val=values["MNIST_VAL"])
    assert settings == DigitsSettings() and values["MNIST_DIR"] is None and values["LANGUAGE"] == "en"
    assert len(values) == 12  # every setting above, and nothing else


def _run(val_accuracy, train_loss=(2.0, 1.0), sizes=(64, 16, 10), seed=0):
    history = History(train_loss=list(train_loss), val_loss=[1.0] * len(train_loss),
                      val_accuracy=[val_accuracy] * len(train_loss), best_epoch=0)
    return RunResult(sizes, seed, MLP(list(sizes)), history, 1.0, val_accuracy, 1.0, val_accuracy, np.array([]), 1.0)


def test_a_run_at_chance_or_with_a_rising_loss_is_not_a_usable_model():
    # ten classes: chance is 10 %, "at chance" below 1.5 x 10 % = 15 %
    assert _run(0.149).problem == "chance" and _run(0.151).problem is None
    assert _run(0.95, train_loss=(2.28, 1.5, 2.31)).problem == "rising"   # ended above where it began
    assert _run(0.95, train_loss=(2.28, 2.5, 0.3)).problem is None        # rose on the way, ended below
    assert _run(0.45, sizes=(64, 16, 3)).problem == "chance"              # three classes: below 50 %


def test_choose_by_validation_never_chooses_a_size_with_a_failed_model():
    good = SizeResult((64, 8, 10), [_run(0.90), _run(0.92, seed=1)])
    best_but_one_failed = SizeResult((64, 64, 10), [_run(0.99, train_loss=(2.0, 2.5)), _run(0.99, seed=1)])
    assert best_but_one_failed.failed == best_but_one_failed.runs[:1]
    assert choose_by_validation([best_but_one_failed, good]) == 1
    assert choose_by_validation([SizeResult((64, 8, 10), [_run(0.1)])]) is None


def test_a_non_finite_loss_names_the_model(splits):
    with pytest.raises(ValueError, match=r"model \[64, 8, 10\], seed 2: the loss is not finite.*lr=1e\+150"):
        train_mlp([64, 8, 10], splits, epochs=1, batch_size=64, lr=1e150, seed=2)


def test_the_study_includes_the_lab_sizes_when_study_omits_them():
    settings = DigitsSettings(epochs=1, n_seeds=1, sizes=(64, 16, 10), study=((64, 8, 10),), hgb_rounds=1)
    assert settings.study_sizes == ((64, 8, 10), (64, 16, 10))
    assert DigitsSettings().study_sizes == DigitsSettings().study     # the page's STUDY lists SIZES
    report = run_lab(settings)
    assert [r.sizes for r in report.study] == [(64, 8, 10), (64, 16, 10)]
    assert report.study[1].runs == report.lab_runs                      # trained once, shown in both places


def test_the_lab_code_comments_do_not_quote_the_settings():
    """A comment like ``# [64, 32, 16, 10]`` or ``(64, 32), like W_1`` goes stale when a teacher
    changes SIZES; the settings cell itself (which assigns them) is the exception."""
    s = DigitsSettings()
    lists = [s.sizes, *s.study, s.mnist_sizes]
    quoted = {"[" + ", ".join(map(str, sizes)) + "]" for sizes in lists}
    quoted |= {f"({a}, {b})" for sizes in lists for a, b in zip(sizes, sizes[1:])}   # weight shapes
    for page in ("digits.py", "digits.ru.py"):
        cells = (ROOT / "docs" / "labs" / page).read_text(encoding="utf-8").split("\n# %%")
        code = [cell for cell in cells[1:] if not cell.startswith(" [markdown]")][1:]   # after the settings
        for line in "\n".join(code).splitlines():
            comment = line.partition("#")[2]
            found = sorted(q for q in quoted if q in comment)
            assert not found, f"docs/labs/{page}: expected no code comment quoting the settings, found {found} in {line!r}"
