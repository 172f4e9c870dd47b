"""Lab A's report: the tables and lines that the lab page and the command line print.

For the same settings the page's tables are ``python -m mlp_ref.labs.digits``'s output (the
fit times excepted: they are measured anew on every run and vary from run to run).
"""

from __future__ import annotations

import numpy as np

from mlp_ref.course.claims import claim
from mlp_ref.course.i18n import ru_plural, say
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.labs import cli
from mlp_ref.labs.digits.data import Splits
from mlp_ref.labs.digits.experiment import (LATE_EPOCHS, DigitsReport, DigitsSettings, PARITY_TOLERANCE,
                                            RunResult, SizeResult, run_mnist)


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


def layer_table(net) -> str:
    """Each layer's weight and bias shapes and its parameters, counted from ``net``'s arrays, and the total.

    Parameters
    ----------
    net : mlp_ref.MLP
    """
    rows = [[str(l + 1), str(W.shape), str(b.shape), format_count(W.size + b.size)]
            for l, (W, b) in enumerate(zip(net.weights, net.biases))]
    rows.append([say("all", ru="всего"), "", "", format_count(sum(a.size for a in net.weights + net.biases))])
    return markdown_table([say("layer", ru="слой"), say("W shape", ru="форма W"), say("b shape", ru="форма b"),
                           say("parameters", ru="параметров")], rows, "crrr")


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
        [say("seed (initialization and batch order)", ru="зерно (инициализация и порядок батчей)"), str(run.seed)],
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


#: What the study table shows in the test column of a size that was not chosen.
NOT_SHOWN = "—"


def study_table(report: DigitsReport) -> str:
    """Mean ± sd over the seeds of every size in the width/depth study.

    The test accuracy is shown for the chosen size only (:data:`NOT_SHOWN` in the other rows): the
    size is chosen on validation, and a test column of every size would invite choosing on it.
    """
    rows = []
    for i, result in enumerate(report.study):
        label = sizes_label(result.sizes) + (say(" (chosen)", ru=" (выбрана)") if i == report.chosen else
                                             say(" (failed)", ru=" (не обучилась)") if result.failed else "")
        epochs = result.chosen_epochs
        test = mean_spread(result.test_accuracy) if i == report.chosen else NOT_SHOWN
        rows.append([label, mean_spread(result.val_accuracy), test,
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
    return markdown_table([say("seed", ru="зерно"), say("mlp_ref test %", ru="mlp_ref, тест, %"),
                           say("MLPClassifier test %", ru="MLPClassifier, тест, %"),
                           say("difference, points", ru="разница, п. п.")], rows, "rrrr")


def parity_verdict(report: DigitsReport) -> str:
    """Two lines: the mean difference of test accuracy in points, and whether it is within tolerance."""
    diff = float(report.parity_differences.mean())
    within = abs(diff) <= PARITY_TOLERANCE
    n, points, tolerance = report.settings.n_seeds, format_number(100 * diff, 2), format_number(100 * PARITY_TOLERANCE, 0)
    return say(f"mlp_ref minus MLPClassifier, mean test accuracy over {n} seeds: {points} points\n"
               f"within {tolerance} points: {'yes' if within else 'NO'}",
               ru=f"mlp_ref минус MLPClassifier, средняя точность на тесте по {n} {ru_plural(n, 'зерну', 'зёрнам', 'зёрнам')}: {points} п. п.\n"
               f"в пределах {tolerance} п. п.: {'да' if within else 'НЕТ'}")


# --------------------------------------------------------------------------- the cells' printed lines
# What the lab page's cells print, in the notebook's language; each takes the numbers its cell computed.

def partition_line(n_rows: int) -> str:
    """Section 1: the three parts were checked disjoint and covering every row."""
    n = format_count(n_rows)
    return say(f"disjoint parts covering all {n} rows",
               ru=f"части не пересекаются и вместе покрывают все {n} {ru_plural(n_rows, 'строку', 'строки', 'строк')}")


def pixel_range_line(low, high) -> str:
    """Section 1: the smallest and largest pixel after dividing by 16."""
    return say(f"pixels after / 16: from {low} to {high}", ru=f"пиксели после деления на 16: от {low} до {high}")


def batches_line(n_train: int, batch_size: int) -> str:
    """Section 2: how the training rows divide into batches (the last one smaller)."""
    n, full, rest = format_count(n_train), n_train // batch_size, n_train % batch_size
    return say(f"{n} training rows = {full} batches of {batch_size} + one batch of {rest}",
               ru=f"{n} {ru_plural(n_train, 'обучающая строка', 'обучающие строки', 'обучающих строк')} = {full} "
               f"{ru_plural(full, 'батч', 'батча', 'батчей')} по {batch_size} + один батч из {rest}")


def probe_lines(i: int, j: int, backprop: float, numeric: float) -> str:
    """Section 3: one weight's derivative ``dW1[i, j]`` by backpropagation and by a central difference.

    Eight decimals: the difference quotient's rounding error is about 1e-16 / eps = 1e-10, so a
    10th decimal would differ from one CPU or BLAS kernel to another.
    """
    head = say(f"dL/dW1[{i}, {j}]: pixel ({i // 8}, {i % 8}) -> hidden unit {j}",
               ru=f"dL/dW1[{i}, {j}]: пиксель ({i // 8}, {i % 8}) -> скрытый нейрон {j}")
    names = [say("backprop", ru="обратный проход"), say("finite difference", ru="конечная разность")]
    width = max(len(name) for name in names)
    return "\n".join([head] + [f"  {name:<{width}} {value:.8f}" for name, value in zip(names, (backprop, numeric))])


def zero_gradient_lines(blank_pixels: int, zero_entries: int, n_entries: int) -> str:
    """Section 3: why many entries of dW1 are exactly 0 on 8 rows."""
    return say(f"pixels blank in all 8 rows: {blank_pixels} of 64\n"
               f"entries of dW1 exactly 0: {zero_entries} of {n_entries}",
               ru=f"пикселей, пустых во всех 8 строках: {blank_pixels} из 64\n"
               f"элементов dW1, равных точно 0: {zero_entries} из {n_entries}")


def gradient_check_line(n_params: int, error: float) -> str:
    """Section 3: grad_check's largest relative error over all parameters."""
    n = format_count(n_params)
    return say(f"largest relative error over all {n} parameters: {error:.1e}",
               ru=f"наибольшая относительная ошибка по всем {n} параметрам: {error:.1e}")


def chosen_epoch_line(epoch: int, epochs: int) -> str:
    """Section 4: the restored epoch, 1-based, of ``epochs``."""
    return say(f"chosen epoch: {epoch} of {epochs}", ru=f"выбранная эпоха: {epoch} из {epochs}")


def validation_line(loss: float, accuracy: float) -> str:
    """Section 4: the chosen epoch's validation loss and accuracy."""
    loss, accuracy = format_number(loss, 4), percent(accuracy)
    return say(f"validation loss {loss}, accuracy {accuracy} %",
               ru=f"потери на валидации {loss}, точность {accuracy} %")


def accuracy_on_test_line(accuracy: float) -> str:
    """Section 4: the one evaluation on the test split."""
    return say(f"test accuracy {percent(accuracy)} %", ru=f"точность на тесте {percent(accuracy)} %")


def chosen_epochs_line(n_seeds: int, epochs) -> str:
    """Section 4: the chosen epoch of every seed of the lab's size."""
    return say(f"chosen epochs of this size, {n_seeds} seeds: {epochs}",
               ru=f"выбранные эпохи этого размера, {n_seeds} {ru_plural(n_seeds, 'зерно', 'зерна', 'зёрен')}: {epochs}")


def errors_line(n_errors: int, n_pairs: int, largest: int) -> str:
    """Section 4: the off-diagonal of the confusion matrix in one line."""
    return say(f"{n_errors} test errors in {n_pairs} different (true, predicted) pairs; largest count of one pair: "
               f"{largest}", ru=f"ошибок на тесте: {n_errors}, различных пар (истинная, предсказанная): {n_pairs}; "
               f"больше всего на одну пару: {largest}")


def image_worth_lines(overall: float, digit_low: float, digit_high: float) -> str:
    """Section 4: how many points of accuracy one test image is worth, overall and for one digit."""
    overall, low, high = format_number(overall, 2), format_number(digit_low, 1), format_number(digit_high, 1)
    return say(f"one test image is worth {overall} points of the overall accuracy,\n"
               f"and {low} to {high} points of one digit's",
               ru=f"одно тестовое изображение стоит {overall} п. п. общей точности\n"
               f"и от {low} до {high} п. п. точности по одной цифре")


def late_epochs_line(report: DigitsReport) -> str:
    """Section 6: how many sizes of the study chose one of the last LATE_EPOCHS epochs for every seed."""
    n, late, epochs = len(report.study), len(report.study) - len(_not_late(report)), report.settings.epochs
    return say(f"sizes whose every seed chose one of the last {LATE_EPOCHS} of {epochs} epochs: {late} of {n}",
               ru=f"размеров, у которых каждое зерно выбрало одну из последних {LATE_EPOCHS} эпох из {epochs}: "
               f"{late} из {n}")


def loops_gap_line(gap: float) -> str:
    """Section 5: the largest difference between the readable loop's and fit's parameters."""
    return say(f"largest difference between the two loops' parameters: {gap:.1e}",
               ru=f"наибольшая разница между параметрами двух циклов: {gap:.1e}")


def chosen_size_lines(report: DigitsReport) -> str:
    """Section 6: the size chosen on validation and its mean test accuracy, or why none was chosen."""
    if report.chosen is None:
        return say("no size chosen: every size had a model that failed to train (see the lines under the "
                   "training cell of section 4)",
                   ru="размер не выбран: у каждого размера есть модель, которая не обучилась (см. строки под "
                   "ячейкой обучения в разделе 4)")
    best, n_seeds = report.study[report.chosen], report.settings.n_seeds
    sizes, test_accuracy = list(best.sizes), percent(best.test_accuracy.mean())
    return say(f"chosen by validation: {sizes}\n"
               f"its test accuracy: {test_accuracy} % (mean over {n_seeds} seeds)",
               ru=f"выбрана по валидации: {sizes}\n"
               f"её точность на тесте: {test_accuracy} % (среднее по {n_seeds} "
               f"{ru_plural(n_seeds, 'зерну', 'зёрнам', 'зёрнам')})")


def _learning_rate_hint(lr: float) -> str:
    """The usual cause of a model that does not train, with this run's and the page's learning rate."""
    page = DigitsSettings().lr
    return say(f"check the learning rate first (this run's: {lr:g}; the page's: {page:g})",
               ru=f"сначала проверьте скорость обучения (в этом запуске: {lr:g}; на странице: {page:g})")


def failed_run_line(run: RunResult) -> str:
    """One unusable run in words: what went wrong (:attr:`RunResult.problem`), with its numbers."""
    label, seed, h = sizes_label(run.sizes), run.seed, run.history
    if run.problem == "chance":
        accuracy, chance = percent(run.val_accuracy), percent(1 / run.sizes[-1])
        return say(f"model {label}, seed {seed}, trained at chance: {accuracy} % on validation (chance is {chance} %)",
                   ru=f"модель {label}, зерно {seed}, осталась на уровне угадывания: {accuracy} % на валидации "
                   f"(угадывание даёт {chance} %)")
    first, last, n = format_number(h.train_loss[0], 4), format_number(h.train_loss[-1], 4), len(h.train_loss)
    return say(f"model {label}, seed {seed}: its training loss rose, from {first} in epoch 1 to {last} in epoch {n}",
               ru=f"модель {label}, зерно {seed}: потери на обучающей выборке выросли, с {first} в эпохе 1 "
               f"до {last} в эпохе {n}")


def size_problem_line(result: SizeResult, lr: float) -> str:
    """One size of the study whose models failed: how many, the first one in words, the likely cause."""
    failed, n, label = result.failed, len(result.runs), sizes_label(result.sizes)
    return say(f"{label}: {len(failed)} of {n} models failed to train, so this size cannot be chosen; "
               f"{failed_run_line(failed[0])}; {_learning_rate_hint(lr)}",
               ru=f"{label}: не обучились {len(failed)} из {n} моделей, поэтому этот размер не может быть выбран; "
               f"{failed_run_line(failed[0])}; {_learning_rate_hint(lr)}")


def no_model_line(report: DigitsReport) -> str:
    """The one line of a run in which no model trained (``not report.usable``)."""
    best = max(float(result.val_accuracy.max()) for result in report.study)
    n_classes = report.settings.sizes[-1]
    return say(f"no model trained: every one ended at chance or with a rising loss (at best {percent(best)} % on "
               f"validation; chance is {percent(1 / n_classes)} %), so there is nothing to choose or compare; "
               f"{_learning_rate_hint(report.settings.lr)}",
               ru=f"ни одна модель не обучилась: все остались на уровне угадывания или с растущими потерями (в лучшем "
               f"случае {percent(best)} % на валидации; угадывание даёт {percent(1 / n_classes)} %), так что выбирать "
               f"и сравнивать нечего; {_learning_rate_hint(report.settings.lr)}")


def problem_lines(report: DigitsReport) -> str:
    """The models of the run that failed to train, one line per size of the study; "" when every model trained.

    When none trained at all, the one line of :func:`no_model_line` instead.
    """
    if not report.usable:
        return no_model_line(report)
    return "\n".join(size_problem_line(result, report.settings.lr) for result in report.study if result.failed)


def format_report(report: DigitsReport) -> str:
    """Everything the command prints for the digits, as Markdown text."""
    s = report.settings
    if report.chosen is None:
        chosen = "no size chosen: every size had a model that failed to train (see the lines after the split)"
    else:
        best = report.study[report.chosen]
        chosen = (f"chosen by mean validation accuracy: {sizes_label(best.sizes)}, "
                  f"test accuracy {mean_spread(best.test_accuracy)} %")
    problems = problem_lines(report)
    sections = [
        "Split of the 1,797 digits (seed {}):".format(s.seed), split_table(report.splits),
        *([problems] if problems else []),
        f"The lab's model, seed {s.seed}:", run_table(report.main),
        f"Width/depth study: {s.epochs} epochs each, {s.n_seeds} seeds ({s.seeds[0]}..{s.seeds[-1]}), "
        "mean ± sample sd:", study_table(report), chosen,
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


def mnist_status(directory) -> str:
    """One line for the closing note: whether section 8 made an MNIST run (``directory`` set)."""
    return say("MNIST: run above" if directory else f"MNIST: no run ({MNIST_ENV} unset)",
               ru="MNIST: обучение выше" if directory else f"MNIST: обучения не было ({MNIST_ENV} не задан)")


def command_line(settings: DigitsSettings) -> str:
    """The command that reproduces ``settings`` (``--epochs`` and ``--seed`` always shown)."""
    return cli.command_line(PROG, settings, always=("epochs", "seed"))


# --------------------------------------------------------------------------- the page's statements
# Each checks what the page's text says about its run, on this run (mlp_ref.course.claims.claim): in
# the site build a statement that does not hold fails the build; in a reader's run it warns, saying
# what the page's run found and what this run found instead.

def check_gradient(error: float) -> None:
    """Section 3: the gradient check's largest relative error is below 1e-6."""
    claim(error < 1e-6, say("the gradient check's largest relative error was below 1e-6",
                            ru="наибольшая относительная ошибка проверки градиента меньше 1e-6"),
          say(f"an error of {error:.1e}", ru=f"ошибку {error:.1e}"), stacklevel=2)


def check_chosen_epochs(report: DigitsReport) -> None:
    """Section 4: for every seed of the lab's size, the chosen epoch is one of the last LATE_EPOCHS."""
    epochs, last = sorted(run.chosen_epoch for run in report.lab_runs), report.settings.epochs
    claim(epochs[0] > last - LATE_EPOCHS,
          say(f"for every seed, the chosen epoch lay within the last {LATE_EPOCHS} epochs (validation loss still "
              "falling)", ru=f"при каждом зерне выбранная эпоха — одна из последних {LATE_EPOCHS} (потери на "
              "валидации ещё падали)"),
          say(f"chosen epochs {epochs} of {last}", ru=f"выбранные эпохи {epochs} из {last}"), stacklevel=2)


def check_loops(best_epoch: int, gap: float) -> None:
    """Section 5: ``fit`` kept its third epoch (0-based ``best_epoch`` 2), and the two loops' parameters differ
    by less than 1e-9 (``gap``, the largest absolute difference)."""
    claim(best_epoch == 2,
          say("fit's third epoch had the lowest validation loss of the three, so it kept the last epoch's weights, "
              "as the readable loop does", ru="у третьей эпохи fit наименьшие потери на валидации из трёх, "
              "поэтому fit сохранил веса последней эпохи, как и читаемый цикл"),
          say(f"the lowest at epoch {best_epoch + 1}", ru=f"наименьшие потери на эпохе {best_epoch + 1}"),
          stacklevel=2)
    claim(gap < 1e-9, say("the two loops' parameters differed by rounding error only (less than 1e-9)",
                          ru="параметры двух циклов различаются лишь ошибкой округления (меньше 1e-9)"),
          say(f"a largest difference of {gap:.1e}", ru=f"наибольшую разницу {gap:.1e}"), stacklevel=2)


def _not_late(report: DigitsReport) -> list[SizeResult]:
    """The sizes of the study with a seed whose chosen epoch is not one of the last LATE_EPOCHS."""
    late = report.settings.epochs - LATE_EPOCHS
    return [r for r in report.study if r.chosen_epochs.min() <= late]


def check_study(report: DigitsReport) -> None:
    """Section 6: the largest network was chosen and beat the smallest; every size was still improving
    (for every seed, the chosen epoch is one of the last LATE_EPOCHS)."""
    by_params = sorted(report.study, key=lambda r: r.n_params)
    largest, smallest = by_params[-1], by_params[0]
    chosen = report.study[report.chosen] if report.chosen is not None else None
    claim(chosen is not None and chosen.sizes == largest.sizes,
          say("the largest network of the study reached the highest mean validation accuracy and was chosen",
              ru="самая большая сеть исследования достигла наибольшей средней точности на валидации и была выбрана"),
          say(f"the highest for {sizes_label(chosen.sizes)}, which was chosen",
              ru=f"наибольшую у {sizes_label(chosen.sizes)}, она и выбрана") if chosen is not None else
          say("no size chosen: every size had a model that failed to train",
              ru="ни один размер не выбран: у каждого есть модель, которая не обучилась"), stacklevel=2)
    claim(largest.val_accuracy.mean() > smallest.val_accuracy.mean(),
          say("the largest network's mean validation accuracy was above the smallest's",
              ru="средняя точность самой большой сети на валидации выше, чем у самой маленькой"),
          say(f"{percent(largest.val_accuracy.mean())} % for {sizes_label(largest.sizes)} and "
              f"{percent(smallest.val_accuracy.mean())} % for {sizes_label(smallest.sizes)}",
              ru=f"{percent(largest.val_accuracy.mean())} % у {sizes_label(largest.sizes)} и "
              f"{percent(smallest.val_accuracy.mean())} % у {sizes_label(smallest.sizes)}"), stacklevel=2)
    early = _not_late(report)
    claim(not early,
          say(f"every size of the study chose an epoch within the last {LATE_EPOCHS} for every seed (still improving "
              "when the budget ran out)", ru=f"каждый размер исследования при каждом зерне выбрал эпоху из последних "
              f"{LATE_EPOCHS} (к концу бюджета ещё улучшался)"),
          "; ".join(say(f"{sizes_label(r.sizes)} chose epoch {r.chosen_epochs.min()} for one seed",
                        ru=f"{sizes_label(r.sizes)} при одном из зёрен выбрал эпоху {r.chosen_epochs.min()}")
                    for r in early) or None, stacklevel=2)


def check_parity(report: DigitsReport) -> None:
    """Section 7: the mean test accuracies of mlp_ref and MLPClassifier differ by at most PARITY_TOLERANCE."""
    diff = float(report.parity_differences.mean())
    tolerance = format_number(100 * PARITY_TOLERANCE, 0)
    claim(abs(diff) <= PARITY_TOLERANCE,
          say(f"the mean test accuracies of mlp_ref and MLPClassifier differed by at most {tolerance} points",
              ru=f"средние точности mlp_ref и MLPClassifier на тесте различаются не больше чем на {tolerance} п. п."),
          say(f"a difference of {format_number(100 * diff, 2)} points",
              ru=f"разницу {format_number(100 * diff, 2)} п. п."), stacklevel=2)
