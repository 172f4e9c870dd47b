"""Lab A's report: the tables and lines that the lab page and the command line print.

For the same settings the page's tables are ``python -m mlp_ref.labs.digits``'s output (the
fit times excepted: they are measured anew on every run and vary from run to run).
"""

from __future__ import annotations

import numpy as np

from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.labs import cli
from mlp_ref.labs.digits.data import Splits
from mlp_ref.labs.digits.experiment import (DigitsReport, DigitsSettings, PARITY_TOLERANCE, RunResult,
                                            run_mnist)


PROG = "python -m mlp_ref.labs.digits"
MNIST_ENV = "MNIST_DIR"

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
    return f"{format_number(1000 * float(seconds), 1)} {say('ms', ru='мс')}"


def sizes_label(sizes) -> str:
    return "[" + ", ".join(str(d) for d in sizes) + "]"


def _val_acc() -> str:
    return say("val. acc. %", ru="точн. (вал.), %")


def _test_acc() -> str:
    return say("test acc. %", ru="точн. (тест), %")


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
    everything = say("all", ru="всего")
    rows.append([everything] + [format_count(t) for t in totals] + [format_count(sum(totals))])
    rows.append([say("share of all rows", ru="доля от всех строк")]
                + [f"{percent(t / sum(totals))} %" for t in totals] + ["100.0 %"])
    headers = [say("digit", ru="цифра"), say("train", ru="обучающая"), say("validation", ru="валидационная"),
               say("test", ru="тестовая"), everything]
    return markdown_table(headers, rows, "lrrrr")


def run_table(run: RunResult) -> str:
    """One run: its sizes, the chosen epoch and the validation and test numbers."""
    h = run.history
    rows = [
        [say("layer sizes", ru="размеры слоёв"), sizes_label(run.sizes)],
        [say("parameters", ru="число параметров"), format_count(run.net.n_params)],
        [say("seed (initialization and batch order)", ru="сид (инициализация и порядок батчей)"), str(run.seed)],
        [say("epochs trained", ru="эпох обучения"), str(run.epochs)],
        [say("chosen epoch (lowest validation loss)", ru="выбранная эпоха (наименьшие потери на валидации)"),
         str(run.chosen_epoch)],
        [say("training loss in the chosen epoch", ru="потери на обучающей выборке в выбранной эпохе"),
         format_number(h.train_loss[h.best_epoch], 4)],
        [say("validation loss", ru="потери на валидационной выборке"), format_number(run.val_loss, 4)],
        [say("validation accuracy", ru="точность на валидационной выборке"), f"{percent(run.val_accuracy)} %"],
        [say("test loss (one evaluation)", ru="потери на тестовой выборке (одна оценка)"),
         format_number(run.test_loss, 4)],
        [say("test accuracy (one evaluation)", ru="точность на тестовой выборке (одна оценка)"),
         f"{percent(run.test_accuracy)} %"],
    ]
    return markdown_table([say("quantity", ru="величина"), say("value", ru="значение")], rows, "lr")


def study_table(report: DigitsReport) -> str:
    """Mean ± sd over the seeds of every size in the width/depth study."""
    rows = []
    for i, result in enumerate(report.study):
        label = sizes_label(result.sizes) + (say(" (chosen)", ru=" (выбрана)") if i == report.chosen else "")
        epochs = result.chosen_epochs
        rows.append([label, mean_spread(result.val_accuracy), mean_spread(result.test_accuracy),
                     format_count(result.n_params), milliseconds(result.seconds_per_epoch.mean()),
                     f"{epochs.min()}–{epochs.max()}"])
    # Accuracy first: on a narrow page the later columns scroll.
    return markdown_table([say("layer sizes", ru="размеры слоёв"), _val_acc(), _test_acc(),
                           say("parameters", ru="параметров"), say("time / epoch", ru="время на эпоху"),
                           say("chosen epochs", ru="выбранные эпохи")], rows, "lrrrrc")


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
    return markdown_table([say("model", ru="модель"), _val_acc(), _test_acc(), say("fit time", ru="время обучения"),
                           say("fits", ru="обучений")], rows, "lrrrc")


def parity_table(report: DigitsReport) -> str:
    """Per seed and on average: mlp_ref's test accuracy minus MLPClassifier's, in points."""
    ours, theirs = report.mlp_ref.test_accuracy, report.mlp_classifier.test_accuracy
    rows = [[str(seed), percent(a), percent(b), format_number(100 * (a - b), 2)]
            for seed, a, b in zip(report.settings.seeds, ours, theirs)]
    diff = report.parity_differences.mean()
    rows.append([say("mean", ru="среднее"), percent(ours.mean()), percent(theirs.mean()),
                 format_number(100 * diff, 2)])
    return markdown_table([say("seed", ru="сид"), say("mlp_ref test %", ru="mlp_ref, тест, %"),
                           say("MLPClassifier test %", ru="MLPClassifier, тест, %"),
                           say("difference, points", ru="разница, п. п.")], rows, "rrrr")


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
        return say(f"{MNIST_ENV} is not set, so no MNIST run was made and no MNIST accuracy is claimed. "
                   "Set it to a folder with mnist.npz or the four IDX files (Lab A, section 8, says where "
                   "to get them) and run again.",
                   ru=f"{MNIST_ENV} не задан: обучения на MNIST не было, и никакая точность на MNIST не "
                   f"заявляется. Укажите в {MNIST_ENV} папку с mnist.npz или с четырьмя файлами IDX (где их "
                   "взять, сказано в разделе 8 лабораторной A) и запустите снова.")
    splits, source, run = run_mnist(directory, settings, progress)
    n_train, n_val, n_test = (format_count(y.size) for y in (splits.y_train, splits.y_val, splits.y_test))
    line = say(f"MNIST run on {source}: train {n_train}, validation {n_val} (from the official training part), "
               f"test {n_test} (the official test part)",
               ru=f"Обучение на MNIST ({source}): обучающая выборка {n_train}, валидационная {n_val} (из официальной "
               f"обучающей части), тестовая {n_test} (официальная тестовая часть)")
    return "\n\n".join([line, run_table(run)])


def command_line(settings: DigitsSettings) -> str:
    """The command that reproduces ``settings`` (``--epochs`` and ``--seed`` always shown)."""
    return cli.command_line(PROG, settings, always=("epochs", "seed"))
