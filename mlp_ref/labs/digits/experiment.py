"""Lab A's experiment: the lab's MLP, a width/depth study and the baselines on one split.

Every function here takes a :class:`mlp_ref.labs.digits.data.Splits` (train / validation /
test) and follows one protocol: train on the training part, choose (an epoch, a size) on the
validation part only, and evaluate the chosen model on the test part exactly once.

* :func:`train_mlp`: one ``mlp_ref.MLP`` trained by :func:`mlp_ref.fit` (mini-batch SGD,
  best-validation checkpoint restored), then one test evaluation.
* :func:`width_depth_study`: several layer sizes x several seeds under one budget;
  :func:`choose_by_validation` picks a size from validation accuracy alone.
* :func:`run_lab`: everything the lab page and ``python -m mlp_ref.labs.digits`` show, for
  one :class:`DigitsSettings`; :func:`run_mnist`: the lab's model on MNIST files you supply.

A run that did not train is not a result: :attr:`RunResult.problem` names one at chance or
whose training loss rose, :func:`choose_by_validation` never chooses its size, and
:attr:`DigitsReport.usable` says whether any model trained at all (a non-finite loss stops
:func:`train_mlp` with a message naming the model).

Seeds: ``seed`` fixes the train / validation / test split; model ``k`` (k = 0, 1, ...) of every
size is initialized and fed batches from ``seed + k``, and ``MLPClassifier`` gets
``random_state = seed + k``. The lab model's own run is model 0.

All fits of :func:`run_lab` run on one thread (threadpoolctl), so that the numbers do not
depend on how many threads BLAS or OpenMP pick, and the fit times of different models compare
like with like. Times are wall-clock seconds and vary from run to run; nothing else here is
random once the seeds are fixed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from mlp_ref.labs.cli import setting
from mlp_ref.labs.digits.baselines import (BaselineResult, fit_hist_gradient_boosting,
                                           fit_logistic_regression, fit_mlp_classifier)
from mlp_ref.labs.digits.data import Splits, digits_splits, mnist_splits
from mlp_ref.labs.progress import Ticker
from mlp_ref.losses import cross_entropy
from mlp_ref.network import MLP
from mlp_ref.training import History, fit
from mlp_ref.validation import check_int, check_layer_sizes, check_real


#: The largest gap (in accuracy, 0.02 = 2 points) between the mean test accuracies of
#: mlp_ref and of MLPClassifier with the same configuration that the lab accepts.
PARITY_TOLERANCE = 0.02
#: Lab A says a run was "still improving" when its chosen (best validation) epoch lies within
#: the last LATE_EPOCHS epochs of the budget.
LATE_EPOCHS = 5
#: A run "trained at chance" when its validation accuracy is below CHANCE_FACTOR times chance
#: (1 / the number of classes: 15 % for the ten digits). A model that learned the digits at
#: all is far above that; one below it is not a result to choose or to compare, and the
#: margin keeps a lucky guesser (a few points above 10 %) from passing for one.
CHANCE_FACTOR = 1.5

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

    @property
    def problem(self) -> str | None:
        """Why this run is not a usable model, or None when it is.

        ``"chance"``: its validation accuracy is below ``CHANCE_FACTOR / n_classes`` (the
        number of classes is the output width ``sizes[-1]``); ``"rising"``: its training loss
        ended above where it began (the last epoch's mean above the first's). A non-finite loss
        never reaches a ``RunResult``: :func:`train_mlp` stops on it (see there).
        """
        losses = self.history.train_loss
        if self.val_accuracy < CHANCE_FACTOR / self.sizes[-1]:
            return "chance"
        if losses and losses[-1] > losses[0]:
            return "rising"
        return None


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

    Raises
    ------
    ValueError
        The loss became non-finite (a far too large ``lr``), naming the model and seed.
    """
    sizes = tuple(check_layer_sizes(sizes))
    seed = check_int("seed", seed, 0)
    net = MLP(list(sizes), activation="relu", output="softmax", init="he", seed=seed)
    start = time.perf_counter()
    try:  # fit checks every epoch's loss; NumPy's overflow warnings on the way would only repeat it
        with np.errstate(over="ignore", invalid="ignore"):
            history = fit(net, data.X_train, data.y_train, data.X_val, data.y_val, epochs=epochs,
                          batch_size=batch_size, lr=lr, seed=seed, progress=progress, engine="fast")
    except FloatingPointError as error:  # fit's message says the loss, the epoch and the learning rate
        raise ValueError(f"model {list(sizes)}, seed {seed}: the loss is not finite, so this run cannot "
                         f"be reported ({error})") from None
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

    def per_seed(self, quantity: str) -> np.ndarray:
        """The ``quantity`` (a :class:`RunResult` attribute) of every run, shape (n_seeds,)."""
        return np.array([getattr(r, quantity) for r in self.runs])

    # Each of shape (n_seeds,); the chosen epochs count from 1.
    val_accuracy = property(lambda self: self.per_seed("val_accuracy"))
    test_accuracy = property(lambda self: self.per_seed("test_accuracy"))
    seconds_per_epoch = property(lambda self: self.per_seed("seconds_per_epoch"))
    chosen_epochs = property(lambda self: self.per_seed("chosen_epoch"))

    @property
    def failed(self) -> list[RunResult]:
        """The runs that are not usable models (:attr:`RunResult.problem`), in seed order."""
        return [r for r in self.runs if r.problem is not None]


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


def choose_by_validation(results: list[SizeResult]) -> int | None:
    """Index of the size with the highest mean validation accuracy, among the sizes whose every
    run is a usable model (:attr:`SizeResult.failed` empty); None when no size is.

    Ties go to the smaller network (fewer parameters), then to the earlier entry. The
    test accuracy is not looked at: choosing on it would make the test estimate optimistic.
    """
    if not results:
        raise ValueError("results: expected at least one SizeResult, received none")
    usable = [i for i, result in enumerate(results) if not result.failed]
    if not usable:
        return None
    return min(usable, key=lambda i: (-float(results[i].val_accuracy.mean()), results[i].n_params, i))


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

# --------------------------------------------------------------------------- the lab

@dataclass(frozen=True)
class DigitsSettings:
    """Every setting of one run of the lab (see the module doc for how seeds are used).

    The defaults are the lab page's settings, chosen so that the whole notebook runs in well
    under a minute on a 2-core machine.
    """

    epochs: int = setting(25, "passes over the training rows")
    seed: int = setting(0, "split seed; models use seed, seed+1, ...")
    n_seeds: int = setting(5, "models per size", flag="--seeds")
    batch_size: int = setting(64, "rows per SGD step")
    lr: float = setting(0.1, "learning rate")
    sizes: tuple[int, ...] = setting((64, 32, 16, 10), "the lab model's layer widths")
    study: tuple[tuple[int, ...], ...] = setting(((64, 32, 10), (64, 32, 16, 10), (64, 128, 64, 10), (64, 512, 256, 10)),
                                                 "layer widths of the width/depth study, with --sizes added "
                                                 "if missing")
    hgb_rounds: int = setting(100, "boosting rounds of HistGradientBoostingClassifier")
    mnist_sizes: tuple[int, ...] = setting((784, 128, 64, 10), "layer widths for MNIST (with --mnist)")
    mnist_val: int = setting(10_000, "validation rows taken from MNIST's training part (with --mnist)")

    def __post_init__(self) -> None:
        for name in ("epochs", "n_seeds", "batch_size", "hgb_rounds", "mnist_val"):
            check_int(name, getattr(self, name), 1)
        check_int("seed", self.seed, 0)
        check_real("lr", self.lr, low=0)
        object.__setattr__(self, "sizes", _digits_sizes(self.sizes, "sizes"))
        object.__setattr__(self, "study", tuple(_digits_sizes(s, f"study[{i}]") for i, s in enumerate(self.study)))
        if not self.study:
            raise ValueError("study: expected at least one list of layer sizes, received none")
        if len(set(self.study)) != len(self.study):
            raise ValueError(f"study: expected distinct size lists, received {[list(x) for x in self.study]}")
        if len(self.sizes) < 3:
            raise ValueError(f"sizes: expected at least one hidden layer (MLPClassifier is given the same "
                             f"hidden layers), received {list(self.sizes)}")
        mnist = tuple(check_layer_sizes(self.mnist_sizes, "mnist_sizes"))
        if mnist[0] != 784 or mnist[-1] != 10:
            raise ValueError(f"mnist_sizes: expected 784 inputs and 10 outputs, received {list(mnist)}")
        object.__setattr__(self, "mnist_sizes", mnist)

    @property
    def seeds(self) -> tuple[int, ...]:
        return tuple(range(self.seed, self.seed + self.n_seeds))

    @property
    def budget(self) -> dict:
        """What every fit of the run gets: ``epochs``, ``batch_size`` and ``lr``."""
        return dict(epochs=self.epochs, batch_size=self.batch_size, lr=self.lr)

    @property
    def study_sizes(self) -> tuple[tuple[int, ...], ...]:
        """The sizes the width/depth study compares: ``study``, and the lab's ``sizes`` last if
        ``study`` does not list them (the lab trains them anyway, so the study shows them too)."""
        return self.study if self.sizes in self.study else (*self.study, self.sizes)


def _digits_sizes(sizes, name: str) -> tuple[int, ...]:
    sizes = tuple(check_layer_sizes(sizes, name))
    if sizes[0] != 64 or sizes[-1] != 10:
        raise ValueError(f"{name}: expected 64 inputs (8x8 pixels) and 10 outputs (digits), received {list(sizes)}")
    return sizes


@dataclass
class DigitsReport:
    """Everything :func:`run_lab` computed.

    Attributes
    ----------
    settings : DigitsSettings
    splits : Splits
    lab_runs : list of RunResult
        The lab's own sizes, one run per seed; ``lab_runs[0]`` is the run the page shows.
    study : list of SizeResult
        One entry per size list of ``settings.study_sizes`` (``study``, and ``sizes`` if it
        does not list them).
    chosen : int or None
        Index into ``study`` of the size chosen by mean validation accuracy; None when no size
        trained usable models (see :func:`choose_by_validation`).
    mlp_classifier : BaselineResult
        scikit-learn's ``MLPClassifier``, same sizes and settings as ``lab_runs``, same seeds.
    mlp_classifier_epochs : numpy.ndarray of int, shape (n_seeds,)
        Its chosen epochs (from 1).
    baselines : list of BaselineResult
        Logistic regression and gradient-boosted trees, fitted once each.
    """

    settings: DigitsSettings
    splits: Splits
    lab_runs: list[RunResult]
    study: list[SizeResult]
    chosen: int | None
    mlp_classifier: BaselineResult
    mlp_classifier_epochs: np.ndarray
    baselines: list[BaselineResult]

    @classmethod
    def collect(cls, settings: DigitsSettings, splits: Splits, study: list[SizeResult], mlp_classifiers,
                baselines: list[BaselineResult]) -> "DigitsReport":
        """The report of one run from its fits: ``study``, one :class:`SizeResult` per entry of
        ``settings.study_sizes``; ``mlp_classifiers``, what :func:`fit_mlp_classifier` returned for
        each seed; ``baselines``, the two fitted once. Chooses the size by validation
        (:func:`choose_by_validation`)."""
        lab = next(result for result in study if result.sizes == settings.sizes)
        val, test, seconds, epochs = (np.array(column) for column in zip(*mlp_classifiers))
        classifier = BaselineResult("scikit-learn MLPClassifier", settings.seeds, val, test, seconds)
        return cls(settings, splits, lab.runs, list(study), choose_by_validation(list(study)), classifier,
                   epochs, list(baselines))

    @property
    def main(self) -> RunResult:
        return self.lab_runs[0]

    @property
    def usable(self) -> bool:
        """Whether any model of the run trained (one run of the study without a problem; the
        study holds the lab's own runs too)."""
        return any(len(result.failed) < len(result.runs) for result in self.study)

    @property
    def mlp_ref(self) -> BaselineResult:
        """The lab's runs in the layout of a baseline (for the comparison table)."""
        runs = self.lab_runs
        return BaselineResult("mlp_ref MLP", tuple(r.seed for r in runs),
                              np.array([r.val_accuracy for r in runs]), np.array([r.test_accuracy for r in runs]),
                              np.array([r.fit_seconds for r in runs]))

    @property
    def parity_differences(self) -> np.ndarray:
        """Per seed, test accuracy of mlp_ref minus MLPClassifier's, shape (n_seeds,)."""
        return self.mlp_ref.test_accuracy - self.mlp_classifier.test_accuracy


def _single_thread():
    from threadpoolctl import threadpool_limits  # a dependency of scikit-learn
    return threadpool_limits(limits=1)


def run_lab(settings: DigitsSettings = DigitsSettings(), progress=False) -> DigitsReport:
    """Split the digits, train the lab's MLP and the study's sizes, fit the baselines.

    Lab A's notebook runs these same lines in its cells (section 4), so that a reader sees the
    experiment; ``tests/labs/test_notebook.py`` holds the two to the same calls in the same order.

    Parameters
    ----------
    settings : DigitsSettings
    progress : bool or callable
        ``True``: a tqdm bar on stderr over the MLP fits; a callable: a tqdm-like factory called
        as ``progress(total=..., desc=..., unit=...)`` (the notebook passes
        :class:`NotebookProgress`); ``False``: silent.

    Returns
    -------
    DigitsReport
    """
    splits = digits_splits(settings.seed)
    budget = settings.budget
    tick = Ticker(progress, total=len(settings.study_sizes) * settings.n_seeds)
    try:
        with _single_thread():
            study = width_depth_study(settings.study_sizes, splits, seeds=settings.seeds, tick=tick, **budget)
            mlpc = [fit_mlp_classifier(settings.sizes[1:-1], splits, seed=seed, **budget)
                    for seed in settings.seeds]
            baselines = [fit_logistic_regression(splits),
                         fit_hist_gradient_boosting(splits, max_iter=settings.hgb_rounds)]
    finally:
        tick.close()
    return DigitsReport.collect(settings, splits, study, mlpc, baselines)


def run_mnist(directory, settings: DigitsSettings = DigitsSettings(), progress: bool = False
              ) -> tuple[Splits, str, RunResult]:
    """Train ``settings.mnist_sizes`` on MNIST files in ``directory`` with the lab's settings.

    Returns
    -------
    (splits, source, run)
        The splits (validation rows from the official training part), the files read, and the
        run of seed ``settings.seed``.
    """
    splits, source = mnist_splits(directory, val_size=settings.mnist_val, seed=settings.seed)
    with _single_thread():
        run = train_mlp(settings.mnist_sizes, splits, epochs=settings.epochs, batch_size=settings.batch_size,
                        lr=settings.lr, seed=settings.seed, progress=progress)
    return splits, source, run
