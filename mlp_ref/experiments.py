"""Experiments of Lab A: train and evaluate MLPs and scikit-learn baselines on fixed splits.

Every function here takes a :class:`mlp_ref.data.Splits` (train / validation / test) and
follows one protocol: train on the training part, choose (an epoch, a size) on the
validation part only, and evaluate the chosen model on the test part exactly once.

* :func:`train_mlp`: one ``mlp_ref.MLP`` trained by :func:`mlp_ref.fit` (mini-batch SGD,
  best-validation checkpoint restored), then one test evaluation.
* :func:`width_depth_study`: several layer sizes x several seeds under one budget;
  :func:`choose_by_validation` picks a size from validation accuracy alone.
* :func:`fit_mlp_classifier`, :func:`fit_logistic_regression`,
  :func:`fit_hist_gradient_boosting`: scikit-learn baselines on the same splits.
* :func:`mnist_splits`: MNIST from files you supply (IDX or ``.npz``), with the validation
  part cut from the official training part; the official test part stays the test part.

scikit-learn is imported inside the functions that need it: it is a lab dependency, not a
dependency of the rest of ``mlp_ref``. Times are wall-clock seconds of ``time.perf_counter``
and vary from run to run; nothing else here is random once the seeds are fixed.
"""

from __future__ import annotations

import copy
import os
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mlp_ref.data import Splits, check_partition, part_size, load_mnist, load_mnist_npz
from mlp_ref.losses import cross_entropy
from mlp_ref.network import MLP
from mlp_ref.training import History, fit
from mlp_ref.validation import as_generator, check_int, check_layer_sizes

__all__ = ["RunResult", "SizeResult", "BaselineResult", "train_mlp", "width_depth_study",
           "choose_by_validation", "fit_mlp_classifier", "fit_logistic_regression",
           "fit_hist_gradient_boosting", "confusion_matrix", "mnist_splits", "MNIST_IDX_FILES"]


# --------------------------------------------------------------------------- one MLP run

@dataclass
class RunResult:
    """One trained ``mlp_ref.MLP`` and its numbers.

    Attributes
    ----------
    sizes : tuple of int
        Layer widths ``(d_0, ..., d_L)``.
    seed : int
        Seed of the initialization and of the batch order.
    net : MLP
        The network with its best-validation weights restored.
    history : History
        Per-epoch training and validation loss and accuracy (``best_epoch`` is 0-based).
    val_loss, val_accuracy : float
        On the validation part, at the chosen epoch.
    test_loss, test_accuracy : float
        On the test part, measured once, after the checkpoint was restored.
    test_predictions : numpy.ndarray of int, shape (n_test,)
    fit_seconds : float
        Wall-clock time of :func:`mlp_ref.fit` (includes the per-epoch validation pass).
    """

    sizes: tuple[int, ...]
    seed: int
    net: MLP = field(repr=False)
    history: History = field(repr=False)
    val_loss: float
    val_accuracy: float
    test_loss: float
    test_accuracy: float
    test_predictions: np.ndarray = field(repr=False)
    fit_seconds: float

    @property
    def epochs(self) -> int:
        return len(self.history.val_loss)

    @property
    def chosen_epoch(self) -> int:
        """The restored epoch, counted from 1."""
        return self.history.best_epoch + 1

    @property
    def seconds_per_epoch(self) -> float:
        return self.fit_seconds / self.epochs


def train_mlp(sizes, data: Splits, *, epochs: int, batch_size: int, lr: float, seed: int,
              progress: bool = False) -> RunResult:
    """Train ``MLP(sizes)`` (ReLU, softmax head, He initialization) and test it once.

    Parameters
    ----------
    sizes : sequence of int
        ``[d_0, ..., d_L]`` with ``d_0`` the width of ``data.X_train`` and ``d_L`` the number
        of classes.
    data : Splits
        ``X_*`` of shape ``(n_part, d_0)``, ``y_*`` of shape ``(n_part,)``.
    epochs, batch_size : int
    lr : float
        As for :func:`mlp_ref.fit` (plain SGD, gradient averaged over each batch's own size).
    seed : int
        Seeds both the initialization (``MLP(seed=seed)``) and the batch order
        (``fit(seed=seed)``).
    progress : bool
        A tqdm bar over the epochs (see :func:`mlp_ref.fit`).

    Returns
    -------
    RunResult
    """
    sizes = tuple(check_layer_sizes(sizes))
    seed = check_int("seed", seed, 0)
    net = MLP(list(sizes), activation="relu", output="softmax", init="he", seed=seed)
    start = time.perf_counter()
    history = fit(net, data.X_train, data.y_train, data.X_val, data.y_val, epochs=epochs,
                  batch_size=batch_size, lr=lr, seed=seed, progress=progress, engine="fast")
    seconds = time.perf_counter() - start
    best = history.best_epoch
    logits = net.logits(data.X_test)                          # the one test evaluation, (n_test, d_L)
    predictions = logits.argmax(axis=1)
    return RunResult(sizes, seed, net, history, history.val_loss[best], history.val_accuracy[best],
                     cross_entropy(logits, data.y_test), float(np.mean(predictions == data.y_test)),
                     predictions, seconds)


# --------------------------------------------------------------------------- width and depth

@dataclass
class SizeResult:
    """All seeds of one layer-size list in a study.

    Attributes
    ----------
    sizes : tuple of int
    runs : list of RunResult
        One per seed, in seed order.
    """

    sizes: tuple[int, ...]
    runs: list[RunResult] = field(repr=False)

    @property
    def n_params(self) -> int:
        return self.runs[0].net.n_params

    @property
    def val_accuracy(self) -> np.ndarray:
        """Shape (n_seeds,)."""
        return np.array([r.val_accuracy for r in self.runs])

    @property
    def test_accuracy(self) -> np.ndarray:
        """Shape (n_seeds,)."""
        return np.array([r.test_accuracy for r in self.runs])

    @property
    def seconds_per_epoch(self) -> np.ndarray:
        """Shape (n_seeds,)."""
        return np.array([r.seconds_per_epoch for r in self.runs])

    @property
    def chosen_epochs(self) -> np.ndarray:
        """Shape (n_seeds,), counted from 1."""
        return np.array([r.chosen_epoch for r in self.runs])


def _check_seeds(seeds) -> tuple[int, ...]:
    seeds = tuple(check_int("seeds", s, 0) for s in seeds)
    if not seeds:
        raise ValueError("seeds: expected at least one seed, received none")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds: expected distinct seeds, received {list(seeds)}")
    return seeds


def width_depth_study(size_lists, data: Splits, *, seeds, epochs: int, batch_size: int, lr: float,
                      tick=None) -> list[SizeResult]:
    """Train every size list with every seed under the same budget.

    The budget is the same for every size: ``epochs`` passes of SGD with ``batch_size`` and
    ``lr``. That is equal in epochs, not in arithmetic: a larger network does more work per
    epoch (see ``SizeResult.seconds_per_epoch``).

    Parameters
    ----------
    size_lists : sequence of sequences of int
        For example ``[[64, 32, 10], [64, 128, 64, 10]]``.
    data : Splits
    seeds : sequence of int
        Distinct, non-negative; each run uses one for initialization and batch order.
    epochs, batch_size, lr
        As for :func:`train_mlp`.
    tick : callable, optional
        Called with a short label after each run (used to advance a progress bar).

    Returns
    -------
    list of SizeResult
        In the order of ``size_lists``.
    """
    seeds = _check_seeds(seeds)
    size_lists = [tuple(check_layer_sizes(s, name=f"size_lists[{i}]")) for i, s in enumerate(size_lists)]
    if not size_lists:
        raise ValueError("size_lists: expected at least one list of layer sizes, received none")
    results = []
    for sizes in size_lists:
        runs = []
        for seed in seeds:
            runs.append(train_mlp(sizes, data, epochs=epochs, batch_size=batch_size, lr=lr, seed=seed))
            if tick is not None:
                tick(f"{list(sizes)} seed {seed}")
        results.append(SizeResult(sizes, runs))
    return results


def choose_by_validation(results: list[SizeResult]) -> int:
    """Index of the size with the highest mean validation accuracy.

    Ties go to the smaller network (fewer parameters), then to the earlier entry. The
    test accuracy is not looked at: choosing on it would make the test estimate optimistic.
    """
    if not results:
        raise ValueError("results: expected at least one SizeResult, received none")
    return min(range(len(results)), key=lambda i: (-float(results[i].val_accuracy.mean()),
                                                   results[i].n_params, i))


# --------------------------------------------------------------------------- baselines

@dataclass
class BaselineResult:
    """A model fitted once per seed (or once, if it is deterministic given the data).

    Attributes
    ----------
    name : str
    seeds : tuple of int
        Empty for a deterministic model fitted once.
    val_accuracy, test_accuracy, fit_seconds : numpy.ndarray, shape (n_fits,)
    """

    name: str
    seeds: tuple[int, ...]
    val_accuracy: np.ndarray
    test_accuracy: np.ndarray
    fit_seconds: np.ndarray


def _accuracy(model, X, y) -> float:
    return float(np.mean(model.predict(X) == y))


def fit_mlp_classifier(hidden_sizes, data: Splits, *, epochs: int, batch_size: int, lr: float,
                       seed: int) -> tuple[float, float, float, int]:
    """scikit-learn's ``MLPClassifier`` with the settings of :func:`train_mlp`.

    ReLU, plain SGD (``momentum=0``), no weight penalty (``alpha=0``), constant learning
    rate, the same batch size, one epoch per ``partial_fit`` call (each call reshuffles the
    rows). After every epoch the validation log loss is measured and the best epoch's weights
    are kept, then restored before the one test evaluation: the protocol of :func:`train_mlp`.
    What still differs: scikit-learn initializes with Glorot-uniform weights and random biases
    (He-normal weights and zero biases in ``mlp_ref``), and draws its own batch order.

    Parameters
    ----------
    hidden_sizes : sequence of int
        Widths of the hidden layers only, e.g. ``(32, 16)`` for ``[64, 32, 16, 10]``.
    data : Splits
    epochs, batch_size : int
    lr : float
    seed : int
        ``random_state`` of the classifier.

    Returns
    -------
    (val_accuracy, test_accuracy, fit_seconds, chosen_epoch)
        ``chosen_epoch`` counted from 1; ``fit_seconds`` includes the validation passes.
    """
    from sklearn.metrics import log_loss
    from sklearn.neural_network import MLPClassifier

    seed = check_int("seed", seed, 0)
    classes = np.unique(np.concatenate([data.y_train, data.y_val, data.y_test]))
    model = MLPClassifier(hidden_layer_sizes=tuple(hidden_sizes), activation="relu", solver="sgd",
                          alpha=0.0, batch_size=batch_size, learning_rate="constant",
                          learning_rate_init=lr, momentum=0.0, nesterovs_momentum=False,
                          shuffle=True, random_state=seed, n_iter_no_change=epochs + 1, tol=0.0)
    best_loss, best_state, best_epoch = np.inf, None, -1
    start = time.perf_counter()
    for epoch in range(epochs):
        model.partial_fit(data.X_train, data.y_train, classes=classes)
        val_loss = log_loss(data.y_val, model.predict_proba(data.X_val), labels=classes)
        if val_loss < best_loss:
            best_loss, best_epoch = val_loss, epoch
            best_state = (copy.deepcopy(model.coefs_), copy.deepcopy(model.intercepts_))
    model.coefs_, model.intercepts_ = best_state
    seconds = time.perf_counter() - start
    return (_accuracy(model, data.X_val, data.y_val), _accuracy(model, data.X_test, data.y_test),
            seconds, best_epoch + 1)


def _fit_once(name: str, model, data: Splits) -> BaselineResult:
    start = time.perf_counter()
    model.fit(data.X_train, data.y_train)
    seconds = time.perf_counter() - start
    return BaselineResult(name, (), np.array([_accuracy(model, data.X_val, data.y_val)]),
                          np.array([_accuracy(model, data.X_test, data.y_test)]), np.array([seconds]))


def fit_logistic_regression(data: Splits, max_iter: int = 2000) -> BaselineResult:
    """Multinomial logistic regression (scikit-learn defaults: L2 penalty with C = 1, lbfgs).

    Deterministic given the data, so it is fitted once. ``max_iter`` is raised from the
    default so that lbfgs converges on these inputs; a ConvergenceWarning is an error here.
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        return _fit_once("LogisticRegression", LogisticRegression(max_iter=max_iter), data)


def fit_hist_gradient_boosting(data: Splits, max_iter: int = 100) -> BaselineResult:
    """Gradient-boosted trees (``HistGradientBoostingClassifier``, scikit-learn defaults).

    Early stopping is off (``early_stopping=False``; scikit-learn's ``"auto"`` would also turn
    it off below 10,000 rows) and no rows or features are subsampled, so the model is
    deterministic given the data and fitted once.
    ``max_iter`` is the number of boosting rounds (one tree per class per round).
    """
    from sklearn.ensemble import HistGradientBoostingClassifier

    return _fit_once("HistGradientBoostingClassifier",
                     HistGradientBoostingClassifier(max_iter=max_iter, early_stopping=False, random_state=0),
                     data)


def confusion_matrix(y_true, y_pred, n_classes: int) -> np.ndarray:
    """Counts ``C[i, j]`` of examples of true class ``i`` predicted as ``j``.

    Parameters
    ----------
    y_true, y_pred : array_like of int, shape (N,)
    n_classes : int

    Returns
    -------
    numpy.ndarray of int, shape (n_classes, n_classes)
        Rows sum to the class counts of ``y_true``; the trace is the number correct.
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.shape != y_pred.shape or y_true.ndim != 1:
        raise ValueError(f"y_true, y_pred: expected two 1-D arrays of the same length, "
                         f"received shapes {y_true.shape} and {y_pred.shape}")
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        if y.size and (not np.issubdtype(y.dtype, np.integer) or y.min() < 0 or y.max() >= n_classes):
            raise ValueError(f"{name}: expected integer classes in 0..{n_classes - 1}")
    counts = np.zeros((n_classes, n_classes), dtype=np.int64)
    np.add.at(counts, (y_true, y_pred), 1)
    return counts


# --------------------------------------------------------------------------- MNIST

#: The original file names (each may also end in ``.gz``): train images, train labels,
#: test images, test labels.
MNIST_IDX_FILES = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                   "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")


def _find(directory: Path, name: str) -> Path | None:
    for candidate in (directory / name, directory / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    return None


def _load_mnist_dir(directory) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str]:
    """The official train and test parts from ``mnist.npz`` or the four IDX files."""
    directory = Path(os.fspath(directory))
    if not directory.is_dir():
        raise FileNotFoundError(f"directory: expected a folder holding MNIST, received {str(directory)!r}, "
                                "which is not a folder")
    npz = directory / "mnist.npz"
    if npz.is_file():
        X_train, y_train = load_mnist_npz(npz, "x_train", "y_train")
        X_test, y_test = load_mnist_npz(npz, "x_test", "y_test")
        return X_train, y_train, X_test, y_test, str(npz)
    paths = [_find(directory, name) for name in MNIST_IDX_FILES]
    if any(p is None for p in paths):
        missing = [name for name, p in zip(MNIST_IDX_FILES, paths) if p is None]
        raise FileNotFoundError(f"directory {str(directory)!r}: expected mnist.npz or the four IDX files "
                                f"{', '.join(MNIST_IDX_FILES)} (each optionally .gz); missing {', '.join(missing)}")
    X_train, y_train = load_mnist(paths[0], paths[1])
    X_test, y_test = load_mnist(paths[2], paths[3])
    return X_train, y_train, X_test, y_test, ", ".join(p.name for p in paths)


def mnist_splits(directory, val_size: int | float = 10_000, seed=0) -> tuple[Splits, str]:
    """MNIST from files you supply, split into train / validation / test.

    The validation part is a seeded random subset of the official *training* part; the
    official test part is the test part, untouched (mixing it into training would make the
    test estimate meaningless).

    Parameters
    ----------
    directory : str or os.PathLike
        A folder holding ``mnist.npz`` (Keras' layout: ``x_train``, ``y_train``, ``x_test``,
        ``y_test``) or the four original IDX files (see :data:`MNIST_IDX_FILES`).
    val_size : int or float
        Validation rows taken from the official training part: a count, or a fraction in (0, 1).
    seed : int or numpy.random.Generator
        Chooses the validation rows.

    Returns
    -------
    splits : Splits
        ``X_*`` of shape ``(n_part, 784)`` in [0, 1]; index arrays count the official training
        rows first, then the test rows (``test_idx = n_train_official + arange(n_test)``), and
        are checked to be disjoint and to cover all rows.
    source : str
        The file or files that were read.
    """
    X_full, y_full, X_test, y_test, source = _load_mnist_dir(directory)
    n = X_full.shape[0]
    n_val = part_size(val_size, "val_size", n)
    if not 1 <= n_val < n:
        raise ValueError(f"val_size: expected between 1 and {n - 1} validation rows (the official training "
                         f"part has {n}), received {val_size!r}")
    order = as_generator(seed).permutation(n)
    val_idx, train_idx = np.sort(order[:n_val]), np.sort(order[n_val:])
    test_idx = n + np.arange(X_test.shape[0])
    check_partition(train_idx, val_idx, test_idx, n + X_test.shape[0])
    return Splits(X_full[train_idx], y_full[train_idx], X_full[val_idx], y_full[val_idx], X_test, y_test,
                  train_idx, val_idx, test_idx), source
