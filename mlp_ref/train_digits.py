"""Lab A from the command line: train an MLP on handwritten digits, shared with the lab page.

Run it as::

    python -m mlp_ref.train_digits --epochs 25 --seed 0      # the page's settings
    python -m mlp_ref.train_digits --mnist /path/to/mnist     # MNIST files you supply

For the 8x8 digits bundled with scikit-learn it prints the split table, the lab model's run,
the width/depth study and the comparison with scikit-learn baselines. The lab page calls
:func:`run_lab` and the same formatting functions, so for the same settings the page's
tables are this command's output (the fit times excepted: they are measured anew on every
run and vary from run to run).

Seeds: ``seed`` fixes the train / validation / test split; model ``k`` (k = 0, 1, ...) of every
size is initialized and fed batches from ``seed + k``, and ``MLPClassifier`` gets
``random_state = seed + k``. The lab model's own run is model 0.

All fits run on one thread (threadpoolctl), so that the numbers do not depend on how many
threads BLAS or OpenMP pick, and the fit times of different models compare like with like.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, fields

import numpy as np

from mlp_ref.data import Splits, digits_splits
from mlp_ref.experiments import (
    BaselineResult,
    RunResult,
    SizeResult,
    choose_by_validation,
    fit_hist_gradient_boosting,
    fit_logistic_regression,
    fit_mlp_classifier,
    mnist_splits,
    train_mlp,
    width_depth_study,
)
from mlp_ref.tables import format_count, format_number, markdown_table
from mlp_ref.validation import check_int, check_layer_sizes, check_real

#: The largest gap (in accuracy, 0.02 = 2 points) between the mean test accuracies of
#: mlp_ref and of MLPClassifier with the same configuration that the lab accepts.
PARITY_TOLERANCE = 0.02
#: Lab A says a run was "still improving" when its chosen (best validation) epoch lies within
#: the last LATE_EPOCHS epochs of the budget.
LATE_EPOCHS = 5
MNIST_ENV = "MNIST_DIR"


@dataclass(frozen=True)
class DigitsSettings:
    """Every setting of one run of the lab (see the module doc for how seeds are used).

    The defaults are the lab page's settings, chosen so that the whole notebook runs in well
    under a minute on a 2-core machine.
    """

    epochs: int = 25
    seed: int = 0
    n_seeds: int = 5
    batch_size: int = 64
    lr: float = 0.1
    sizes: tuple[int, ...] = (64, 32, 16, 10)
    study: tuple[tuple[int, ...], ...] = ((64, 32, 10), (64, 32, 16, 10), (64, 128, 64, 10), (64, 512, 256, 10))
    hgb_rounds: int = 100
    mnist_sizes: tuple[int, ...] = (784, 128, 64, 10)
    mnist_val: int = 10_000

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
        One entry per ``settings.study`` size list.
    chosen : int
        Index into ``study`` of the size chosen by mean validation accuracy.
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
    chosen: int
    mlp_classifier: BaselineResult
    mlp_classifier_epochs: np.ndarray
    baselines: list[BaselineResult]

    @property
    def main(self) -> RunResult:
        return self.lab_runs[0]

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


class _Ticker:
    """Advances a progress bar (or nothing) by one fit at a time."""

    def __init__(self, progress, total: int):
        self.bar = None
        if progress is True:
            from tqdm import tqdm  # imported lazily: an optional dependency
            self.bar = tqdm(total=total, desc="fits", unit="fit", file=sys.stderr)
        elif callable(progress):
            self.bar = progress(total=total, desc="fits", unit="fit")
        elif progress is not False and progress is not None:
            raise TypeError(f"progress: expected a bool or a tqdm-like factory, received {progress!r}")

    def __call__(self, label: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class NotebookProgress:
    """A progress bar for Jupyter that redraws one output in place, without ipywidgets.

    tqdm writes carriage returns to a stream; a notebook saved to HTML keeps every redraw as
    a separate line. This bar instead updates one display (``display_id``), so the saved
    notebook holds only its last state. It accepts what :func:`run_lab` passes to a
    progress factory: ``NotebookProgress(total=..., desc=..., unit=...)``, then
    ``set_postfix_str``, ``update`` and ``close``. Redraws at most every ``interval`` seconds.
    """

    def __init__(self, total: int, desc: str = "", unit: str = "it", interval: float = 0.5):
        from IPython.display import display  # imported lazily: only notebooks need it

        self.total, self.desc, self.unit, self.interval = int(total), desc, unit, float(interval)
        self.n, self.postfix = 0, ""
        self.start = self.last_draw = time.perf_counter()
        self.handle = display(self._pretty(), display_id=True)

    def text(self) -> str:
        """The bar as tqdm would print it now."""
        from tqdm import tqdm

        return tqdm.format_meter(self.n, self.total, time.perf_counter() - self.start, prefix=self.desc,
                                 unit=self.unit, postfix=self.postfix or None, ncols=72)

    def _pretty(self):
        from IPython.display import Pretty

        return Pretty(self.text())

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.postfix = text

    def update(self, n: int = 1) -> None:
        self.n += n
        if time.perf_counter() - self.last_draw >= self.interval:
            self.handle.update(self._pretty())
            self.last_draw = time.perf_counter()

    def close(self) -> None:
        self.postfix = ""  # the finished bar needs no label of the last fit
        self.handle.update(self._pretty())


def _single_thread():
    from threadpoolctl import threadpool_limits  # a dependency of scikit-learn
    return threadpool_limits(limits=1)


def run_lab(settings: DigitsSettings = DigitsSettings(), progress=False) -> DigitsReport:
    """Split the digits, train the lab's MLP and the study's sizes, fit the baselines.

    Parameters
    ----------
    settings : DigitsSettings
    progress : bool or callable
        ``True``: a tqdm bar on stderr over all fits; a callable: a tqdm-like factory called
        as ``progress(total=..., desc=..., unit=...)`` (the notebook passes
        :class:`NotebookProgress`); ``False``: silent.

    Returns
    -------
    DigitsReport
    """
    s = settings
    splits = digits_splits(s.seed)
    extra = [sizes for sizes in s.study if sizes != s.sizes]
    ticker = _Ticker(progress, total=s.n_seeds * (2 + len(extra)) + 2)
    train = dict(epochs=s.epochs, batch_size=s.batch_size, lr=s.lr)
    try:
        with _single_thread():
            lab = width_depth_study([s.sizes], splits, seeds=s.seeds, tick=ticker, **train)[0]
            others = width_depth_study(extra, splits, seeds=s.seeds, tick=ticker, **train) if extra else []
            by_sizes = {result.sizes: result for result in [lab, *others]}
            study = [by_sizes[sizes] for sizes in s.study]
            mlpc = []
            for seed in s.seeds:
                mlpc.append(fit_mlp_classifier(s.sizes[1:-1], splits, seed=seed, **train))
                ticker(f"MLPClassifier seed {seed}")
            baselines = [fit_logistic_regression(splits)]
            ticker("LogisticRegression")
            baselines.append(fit_hist_gradient_boosting(splits, max_iter=s.hgb_rounds))
            ticker("HistGradientBoostingClassifier")
    finally:
        ticker.close()
    val, test, seconds, epochs = (np.array(column) for column in zip(*mlpc))
    classifier = BaselineResult("scikit-learn MLPClassifier", s.seeds, val, test, seconds)
    return DigitsReport(s, splits, lab.runs, study, choose_by_validation(study), classifier, epochs, baselines)


# --------------------------------------------------------------------------- formatting

def percent(accuracy: float) -> str:
    """An accuracy in [0, 1] as a percentage with one decimal: ``0.9537 -> "95.4"``."""
    return format_number(100 * float(accuracy), 1)


def mean_spread(values) -> str:
    """``"mean ± sd"`` of accuracies in percent (sample standard deviation, ddof = 1);
    just the value for a single one."""
    values = 100 * np.asarray(values, dtype=float)
    if values.size == 1:
        return format_number(values[0], 1)
    return f"{format_number(values.mean(), 1)} ± {format_number(values.std(ddof=1), 1)}"


def milliseconds(seconds: float) -> str:
    """A duration as ``"12.3 ms"`` (the tests recognize times by this form)."""
    return f"{format_number(1000 * float(seconds), 1)} ms"


def sizes_label(sizes) -> str:
    return "[" + ", ".join(str(d) for d in sizes) + "]"


def split_table(splits: Splits) -> str:
    """Rows per digit in each part, and the totals.

    Returns
    -------
    str
        A Markdown table: one row per digit 0..9 and a total row.
    """
    parts = (splits.y_train, splits.y_val, splits.y_test)
    counts = [np.bincount(y, minlength=10) for y in parts]
    rows = [[str(d)] + [format_count(int(c[d])) for c in counts] + [format_count(int(sum(c[d] for c in counts)))]
            for d in range(10)]
    totals = [int(c.sum()) for c in counts]
    rows.append(["all"] + [format_count(t) for t in totals] + [format_count(sum(totals))])
    rows.append(["share of all rows"] + [f"{percent(t / sum(totals))} %" for t in totals] + ["100.0 %"])
    return markdown_table(["digit", "train", "validation", "test", "all"], rows, "lrrrr")


def run_table(run: RunResult) -> str:
    """One run: its sizes, the chosen epoch and the validation and test numbers."""
    h = run.history
    rows = [
        ["layer sizes", sizes_label(run.sizes)],
        ["parameters", format_count(run.net.n_params)],
        ["seed (initialization and batch order)", str(run.seed)],
        ["epochs trained", str(run.epochs)],
        ["chosen epoch (lowest validation loss)", str(run.chosen_epoch)],
        ["training loss in the chosen epoch", format_number(h.train_loss[h.best_epoch], 4)],
        ["validation loss", format_number(run.val_loss, 4)],
        ["validation accuracy", f"{percent(run.val_accuracy)} %"],
        ["test loss (one evaluation)", format_number(run.test_loss, 4)],
        ["test accuracy (one evaluation)", f"{percent(run.test_accuracy)} %"],
    ]
    return markdown_table(["quantity", "value"], rows, "lr")


def study_table(report: DigitsReport) -> str:
    """Mean ± sd over the seeds of every size in the width/depth study."""
    rows = []
    for i, result in enumerate(report.study):
        label = sizes_label(result.sizes) + (" (chosen)" if i == report.chosen else "")
        epochs = result.chosen_epochs
        rows.append([label, mean_spread(result.val_accuracy), mean_spread(result.test_accuracy),
                     format_count(result.n_params), milliseconds(result.seconds_per_epoch.mean()),
                     f"{epochs.min()}–{epochs.max()}"])
    # Accuracy first: on a narrow page the later columns scroll.
    return markdown_table(["layer sizes", "val. acc. %", "test acc. %", "parameters", "time / epoch",
                           "chosen epochs"], rows, "lrrrrc")


def comparison_setup(report: DigitsReport) -> str:
    """One line on how each model of :func:`comparison_table` was configured."""
    s = report.settings
    return (f"mlp_ref MLP and MLPClassifier: layer sizes {sizes_label(s.sizes)}, ReLU, SGD without momentum or "
            f"weight penalty, batch {s.batch_size}, learning rate {s.lr:g}, {s.epochs} epochs, best validation epoch "
            f"kept, seeds {s.seeds[0]}..{s.seeds[-1]}; LogisticRegression: defaults (C = 1); "
            f"HistGradientBoosting: defaults, {s.hgb_rounds} rounds; both fitted once (deterministic).")


def comparison_table(report: DigitsReport) -> str:
    """The lab's MLP against scikit-learn on the same split: accuracy and fit time."""
    short = {"scikit-learn MLPClassifier": "MLPClassifier", "HistGradientBoostingClassifier": "HistGradientBoosting"}
    models = [report.mlp_ref, report.mlp_classifier, *report.baselines]
    rows = [[short.get(b.name, b.name), mean_spread(b.val_accuracy), mean_spread(b.test_accuracy),
             milliseconds(b.fit_seconds.mean()), str(len(b.seeds)) if b.seeds else "1"] for b in models]
    return markdown_table(["model", "val. acc. %", "test acc. %", "fit time", "fits"], rows, "lrrrc")


def parity_table(report: DigitsReport) -> str:
    """Per seed and on average: mlp_ref's test accuracy minus MLPClassifier's, in points."""
    ours, theirs = report.mlp_ref.test_accuracy, report.mlp_classifier.test_accuracy
    rows = [[str(seed), percent(a), percent(b), format_number(100 * (a - b), 2)]
            for seed, a, b in zip(report.settings.seeds, ours, theirs)]
    diff = report.parity_differences.mean()
    rows.append(["mean", percent(ours.mean()), percent(theirs.mean()), format_number(100 * diff, 2)])
    return markdown_table(["seed", "mlp_ref test %", "MLPClassifier test %", "difference, points"], rows, "rrrr")


def parity_verdict(report: DigitsReport) -> str:
    diff = float(report.parity_differences.mean())
    within = abs(diff) <= PARITY_TOLERANCE
    return (f"mlp_ref minus MLPClassifier, mean test accuracy over {report.settings.n_seeds} seeds: "
            f"{format_number(100 * diff, 2)} points\n"
            f"within {format_number(100 * PARITY_TOLERANCE, 0)} points: {'yes' if within else 'NO'}")


def format_report(report: DigitsReport) -> str:
    """Everything the command prints for the digits, as Markdown text."""
    s = report.settings
    chosen = report.study[report.chosen]
    sections = [
        "Split of the 1,797 digits (seed {}):".format(s.seed), split_table(report.splits),
        f"The lab's model, seed {s.seed}:", run_table(report.main),
        f"Width/depth study: {s.epochs} epochs each, {s.n_seeds} seeds ({s.seeds[0]}..{s.seeds[-1]}), "
        "mean ± sample sd:", study_table(report),
        f"chosen by mean validation accuracy: {sizes_label(chosen.sizes)}, "
        f"test accuracy {mean_spread(chosen.test_accuracy)} %",
        "Comparison on the same split (fit time: mean per fit):", comparison_setup(report), comparison_table(report),
        "mlp_ref against MLPClassifier, same configuration, paired by seed:", parity_table(report),
        parity_verdict(report),
    ]
    return "\n\n".join(sections)


# --------------------------------------------------------------------------- MNIST

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


def mnist_report(directory, settings: DigitsSettings = DigitsSettings(), progress: bool = False) -> str:
    """The lab page's MNIST section: a run on the reader's files, or a plain statement that
    no run was made.

    Parameters
    ----------
    directory : str or None
        The folder of the notebook's ``MNIST_DIR`` setting or environment variable; ``None`` or
        ``""`` if unset.
    """
    if not directory:
        return (f"{MNIST_ENV} is not set, so no MNIST run was made and no MNIST accuracy is claimed. "
                "Set it to a folder with mnist.npz or the four IDX files (Lab A, section 8, says where "
                "to get them) and run again.")
    splits, source, run = run_mnist(directory, settings, progress)
    sizes = (f"train {format_count(splits.y_train.size)}, validation {format_count(splits.y_val.size)} "
             f"(from the official training part), test {format_count(splits.y_test.size)} (the official test part)")
    return "\n\n".join([f"MNIST run on {source}: {sizes}", run_table(run)])


# --------------------------------------------------------------------------- command line

def _sizes_arg(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated layer widths such as 64,32,16,10, "
                                         f"received {text!r}") from None


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m mlp_ref.train_digits",
        description="Train mlp_ref's MLP on scikit-learn's 8x8 digits (Lab A), with a width/depth study and "
                    "scikit-learn baselines; or on MNIST files you supply (--mnist).")
    d = DigitsSettings()
    parser.add_argument("--epochs", type=int, default=d.epochs, help="passes over the training rows (%(default)s)")
    parser.add_argument("--seed", type=int, default=d.seed,
                        help="split seed; models use seed, seed+1, ... (%(default)s)")
    parser.add_argument("--seeds", type=int, default=d.n_seeds, help="models per size (%(default)s)")
    parser.add_argument("--batch-size", type=int, default=d.batch_size, help="rows per SGD step (%(default)s)")
    parser.add_argument("--lr", type=float, default=d.lr, help="learning rate (%(default)s)")
    parser.add_argument("--sizes", type=_sizes_arg, default=d.sizes,
                        help="the lab model's layer widths (default %s)" % ",".join(map(str, d.sizes)))
    parser.add_argument("--study", type=_sizes_arg, nargs="+", default=d.study,
                        help="layer widths for the width/depth study (default %s)"
                             % " ".join(",".join(map(str, s)) for s in d.study))
    parser.add_argument("--hgb-rounds", type=int, default=d.hgb_rounds,
                        help="boosting rounds of HistGradientBoostingClassifier (%(default)s)")
    parser.add_argument("--mnist", metavar="DIR", default=None,
                        help="train on MNIST in DIR (mnist.npz or the four IDX files) instead of the digits")
    parser.add_argument("--mnist-sizes", type=_sizes_arg, default=d.mnist_sizes,
                        help="layer widths for MNIST (default %s)" % ",".join(map(str, d.mnist_sizes)))
    parser.add_argument("--mnist-val", type=int, default=d.mnist_val,
                        help="validation rows taken from MNIST's training part (%(default)s)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser.parse_args(argv)


def settings_from_args(args: argparse.Namespace) -> DigitsSettings:
    return DigitsSettings(epochs=args.epochs, seed=args.seed, n_seeds=args.seeds, batch_size=args.batch_size,
                          lr=args.lr, sizes=args.sizes, study=tuple(args.study), hgb_rounds=args.hgb_rounds,
                          mnist_sizes=args.mnist_sizes, mnist_val=args.mnist_val)


_FLAGS = {"epochs": "--epochs", "seed": "--seed", "n_seeds": "--seeds", "batch_size": "--batch-size",
          "lr": "--lr", "sizes": "--sizes", "study": "--study", "hgb_rounds": "--hgb-rounds",
          "mnist_sizes": "--mnist-sizes", "mnist_val": "--mnist-val"}


def command_line(settings: DigitsSettings) -> str:
    """The command that reproduces ``settings`` (``--epochs`` and ``--seed`` always shown)."""
    default = DigitsSettings()
    parts = ["python -m mlp_ref.train_digits"]
    for f in fields(DigitsSettings):
        value = getattr(settings, f.name)
        if f.name in ("epochs", "seed") or value != getattr(default, f.name):
            if f.name in ("sizes", "mnist_sizes"):
                text = ",".join(map(str, value))
            elif f.name == "study":
                text = " ".join(",".join(map(str, s)) for s in value)
            else:
                text = f"{value:g}" if isinstance(value, float) else str(value)
            parts.append(f"{_FLAGS[f.name]} {text}")
    return " ".join(parts)


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        settings = settings_from_args(args)
        if args.mnist is not None:
            print(mnist_report(args.mnist, settings, progress=not args.no_progress))
        else:
            print(format_report(run_lab(settings, progress=not args.no_progress)))
    except (ValueError, OSError, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
