"""Tests of Lab A: mlp_ref.labs.digits.experiment and the command line mlp_ref.labs.digits.

Expected values come from peers (scikit-learn's metrics, a fresh MLPClassifier re-run, a
direct MLP + fit), from the raw data (class counts of load_digits), from hand arithmetic
(the formatting helpers) or from files the tests write themselves (MNIST in IDX and .npz).
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mlp_ref import MLP, History, fit
from mlp_ref.labs.digits.data import digits_splits
from mlp_ref.labs.digits.data import MNIST_IDX_FILES, mnist_splits
from mlp_ref.labs.digits.experiment import (RunResult, SizeResult, choose_by_validation, confusion_matrix,
                                            train_mlp)
from mlp_ref.labs.digits.baselines import fit_mlp_classifier
from mlp_ref.labs.digits.experiment import DigitsSettings, run_lab, run_mnist
from mlp_ref.labs.progress import NotebookProgress
from mlp_ref.labs.digits.report import (command_line, format_report, mean_spread, milliseconds,
                                        mnist_report, percent, split_table)
from mlp_ref.labs.digits.__main__ import parse_args, settings_from_args
from tests import pagekit

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def splits():
    return digits_splits(0)


# --- formatting ---------------------------------------------------------------------

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


# --- one run, baselines, selection ----------------------------------------------------

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


def test_mlp_classifier_restores_its_best_epoch(splits):
    """Re-train from the same random_state for exactly the chosen number of epochs: the
    accuracies must be those reported after the restore."""
    from sklearn.neural_network import MLPClassifier

    # A learning rate too large for this net: the validation loss is lowest early, then worse.
    val, test, _, chosen = fit_mlp_classifier((16,), splits, epochs=8, batch_size=64, lr=1.5, seed=0)
    assert chosen < 8  # otherwise the restore would not be tested
    fresh = MLPClassifier(hidden_layer_sizes=(16,), solver="sgd", alpha=0.0, batch_size=64,
                          learning_rate="constant", learning_rate_init=1.5, momentum=0.0, random_state=0,
                          n_iter_no_change=100, tol=0.0)
    for _ in range(chosen):
        fresh.partial_fit(splits.X_train, splits.y_train, classes=np.arange(10))
    # Both sides are scikit-learn's own partial_fit and predict, the same calls in the same
    # process: exact equality is the claim (and accuracies are ratios of counts).
    assert val == fresh.score(splits.X_val, splits.y_val)
    assert test == fresh.score(splits.X_test, splits.y_test)


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


# --- settings and the command line --------------------------------------------------

def test_defaults_are_the_page_and_the_command_round_trips():
    assert settings_from_args(parse_args([])) == DigitsSettings()
    assert command_line(DigitsSettings()) == "python -m mlp_ref.labs.digits --epochs 25 --seed 0"
    custom = DigitsSettings(epochs=7, seed=4, n_seeds=2, lr=0.05, study=((64, 16, 10),), hgb_rounds=9)
    argv = command_line(custom).split()[3:]
    assert settings_from_args(parse_args(argv)) == custom


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


TIME = re.compile(r"\d+\.\d ms")


def _without_timings(text: str) -> str:
    """Fit times differ between two runs; so does the padding of the columns they widen."""
    text = TIME.sub("T ms", text)
    return "\n".join(re.sub(r"-{3,}", "---", re.sub(r" +", " ", line)) for line in text.splitlines())


def test_cli_prints_the_shared_report():
    settings = DigitsSettings(epochs=3, seed=2, n_seeds=2, study=((64, 16, 10), (64, 32, 16, 10)), hgb_rounds=3)
    expected = format_report(run_lab(settings))
    run = subprocess.run(
        [sys.executable, "-m", "mlp_ref.labs.digits", "--epochs", "3", "--seed", "2", "--seeds", "2",
         "--study", "64,16,10", "64,32,16,10", "--hgb-rounds", "3", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    assert TIME.search(run.stdout)  # the masking below has something to mask
    assert _without_timings(run.stdout) == _without_timings(expected + "\n")
    assert "[64, 32, 16, 10]" in run.stdout and "MLPClassifier" in run.stdout and run.stderr == ""


def test_notebook_progress_ends_at_the_total(monkeypatch):
    import IPython.display

    drawn = []

    class Handle:
        def update(self, obj):
            drawn.append(obj.data)

    monkeypatch.setattr(IPython.display, "display", lambda obj, display_id=None: drawn.append(obj.data) or Handle())
    bar = NotebookProgress(total=3, desc="fits", unit="fit", interval=0.0)
    for k in range(3):
        bar.set_postfix_str(f"fit {k}")
        bar.update(1)
    bar.close()
    assert drawn[0].startswith("fits:   0%") and "0/3" in drawn[0]
    assert "fit 2" in drawn[-2] and "3/3" in drawn[-2]       # the last update names the last fit
    assert drawn[-1].startswith("fits: 100%") and "3/3" in drawn[-1] and "fit 2" not in drawn[-1]


# --- MNIST from files the tests write -------------------------------------------------

def _idx_bytes(array: np.ndarray) -> bytes:
    """IDX: two zero bytes, 0x08 (unsigned byte), the number of dimensions, big-endian sizes, data."""
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    return header + array.astype(np.uint8).tobytes()


def _synthetic_mnist(n_train: int, n_test: int, seed: int = 0):
    """Digit k lights rows 2k+4 and 2k+5 of a 28x28 image, plus noise: easy to learn."""
    rng = np.random.default_rng(seed)

    def make(n):
        y = np.arange(n) % 10
        rng.shuffle(y)
        X = rng.integers(0, 40, (n, 28, 28)).astype(np.uint8)
        for i, k in enumerate(y):
            X[i, 2 * k + 4: 2 * k + 6, 4:24] = 255
        return X, y.astype(np.uint8)

    return make(n_train), make(n_test)


def _write_idx(folder: Path, n_train=200, n_test=60, gz=(True, False, True, False)):
    (X, y), (Xt, yt) = _synthetic_mnist(n_train, n_test)
    for name, array, zipped in zip(MNIST_IDX_FILES, (X, y, Xt, yt), gz):
        data = _idx_bytes(array)
        if zipped:
            (folder / f"{name}.gz").write_bytes(gzip.compress(data))
        else:
            (folder / name).write_bytes(data)
    return X, y, Xt, yt


def test_mnist_splits_from_idx_files(tmp_path):
    X, y, Xt, yt = _write_idx(tmp_path)
    splits, source = mnist_splits(tmp_path, val_size=50, seed=0)
    assert "t10k-images-idx3-ubyte.gz" in source and "train-labels-idx1-ubyte" in source
    assert splits.X_train.shape == (150, 784) and splits.X_val.shape == (50, 784) and splits.X_test.shape == (60, 784)
    # The official test part, untouched and in order: pixels / 255.
    assert np.array_equal(splits.X_test, Xt.reshape(60, 784) / 255.0) and np.array_equal(splits.y_test, yt)
    # Train and validation rows are the official training rows their indices name.
    assert np.array_equal(splits.X_val, X.reshape(200, 784)[splits.val_idx] / 255.0)
    assert np.array_equal(splits.y_train, y[splits.train_idx])
    assert set(splits.train_idx).isdisjoint(splits.val_idx)
    assert set(splits.train_idx) | set(splits.val_idx) == set(range(200))
    assert np.array_equal(splits.test_idx, 200 + np.arange(60))


def test_mnist_npz_gives_the_same_splits_as_idx(tmp_path):
    idx_dir, npz_dir = tmp_path / "idx", tmp_path / "npz"
    idx_dir.mkdir()
    npz_dir.mkdir()
    X, y, Xt, yt = _write_idx(idx_dir)
    np.savez(npz_dir / "mnist.npz", x_train=X, y_train=y, x_test=Xt, y_test=yt)
    a, _ = mnist_splits(idx_dir, val_size=0.25, seed=5)
    b, source = mnist_splits(npz_dir, val_size=0.25, seed=5)
    assert source.endswith("mnist.npz") and a.y_val.size == 50
    for name in ("X_train", "y_train", "X_val", "y_val", "X_test", "y_test", "train_idx", "val_idx"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_mnist_missing_files_and_bad_val_size(tmp_path):
    _write_idx(tmp_path)
    (tmp_path / "t10k-labels-idx1-ubyte").unlink()
    with pytest.raises(FileNotFoundError, match="missing t10k-labels-idx1-ubyte"):
        mnist_splits(tmp_path)
    with pytest.raises(FileNotFoundError, match="not a folder"):
        mnist_splits(tmp_path / "nowhere")
    full = tmp_path / "full"
    full.mkdir()
    _write_idx(full)
    with pytest.raises(ValueError, match="val_size: expected between 1 and 199"):
        mnist_splits(full, val_size=200)
    with pytest.raises(ValueError, match=r"val_size: expected a number in \(0, 1\) \(a fraction\) or a row count"):
        mnist_splits(full, val_size=1.5)


def test_mnist_run_learns_the_synthetic_digits(tmp_path):
    _write_idx(tmp_path, n_train=300, n_test=100)
    settings = DigitsSettings(epochs=8, seed=1, mnist_val=60)
    splits, _, run = run_mnist(tmp_path, settings)
    assert run.sizes == (784, 128, 64, 10) and run.net.n_params == 784 * 128 + 128 + 128 * 64 + 64 + 64 * 10 + 10
    assert splits.y_val.size == 60 and run.test_predictions.shape == (100,)
    assert run.val_accuracy > 0.9 and run.test_accuracy > 0.9  # the task is easy by construction


def test_mnist_report_without_a_folder_claims_no_run():
    for unset in (None, ""):
        text = mnist_report(unset)
        assert "no MNIST run was made" in text and "%" not in text


def test_cli_mnist_prints_the_shared_report(tmp_path):
    _write_idx(tmp_path)
    settings = DigitsSettings(epochs=2, seed=0, mnist_val=40, mnist_sizes=(784, 16, 10))
    expected = mnist_report(str(tmp_path), settings)
    run = subprocess.run(
        [sys.executable, "-m", "mlp_ref.labs.digits", "--mnist", str(tmp_path), "--epochs", "2", "--seed", "0",
         "--mnist-val", "40", "--mnist-sizes", "784,16,10", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert run.stdout == expected + "\n"
    assert "MNIST run on" in run.stdout and "[784, 16, 10]" in run.stdout


def test_cli_reports_a_missing_mnist_folder(tmp_path):
    run = subprocess.run([sys.executable, "-m", "mlp_ref.labs.digits", "--mnist", str(tmp_path / "none"),
                          "--no-progress"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "not a folder" in run.stderr and run.stdout == ""


def test_boosting_is_deterministic_so_one_fit_is_enough(splits):
    """The page fits HistGradientBoosting once and says why: the seed does not matter."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from mlp_ref.labs.digits.baselines import fit_hist_gradient_boosting

    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):  # OpenMP threads on a busy machine only slow this down
        probabilities = [HistGradientBoostingClassifier(max_iter=3, early_stopping=False, random_state=seed)
                         .fit(splits.X_train, splits.y_train).predict_proba(splits.X_test) for seed in (0, 7)]
        result = fit_hist_gradient_boosting(splits, max_iter=3)
    assert np.array_equal(*probabilities)  # same calls, one thread: only the seed differs, so exact
    assert result.test_accuracy[0] == np.mean(probabilities[0].argmax(axis=1) == splits.y_test)


def test_lab_a_settings_cell_is_plain_assignments_of_the_defaults():
    """The build checks this too (MLP_SITE_BUILD); this test says it without building the site."""
    values = pagekit.first_code_cell(ROOT / "docs" / "labs" / "digits.py")
    settings = DigitsSettings(epochs=values["EPOCHS"], seed=values["SEED"], n_seeds=values["SEEDS"],
                              batch_size=values["BATCH_SIZE"], lr=values["LEARNING_RATE"], sizes=values["SIZES"],
                              study=values["STUDY"], hgb_rounds=values["HGB_ROUNDS"],
                              mnist_sizes=values["MNIST_SIZES"], mnist_val=values["MNIST_VAL"])
    assert settings == DigitsSettings() and values["MNIST_DIR"] is None
    assert len(values) == 11  # every setting above, and nothing else
