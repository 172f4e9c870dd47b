"""Lab B's report: the tables and lines that the lab page and the command line print."""

from __future__ import annotations

import os
import shlex

import numpy as np

from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.labs import cli
from mlp_ref.labs.charlm.experiment import CharLMReport, CharLMSettings
from mlp_ref.labs.charlm.model import lr_drops, step_decay


PROG = "python -m mlp_ref.labs.charlm"

#: The labels of the MLP variants (:data:`mlp_ref.labs.charlm.experiment.VARIANTS`) in Russian.
_VARIANTS_RU = {
    "MLP, naive init": "MLP, наивная инициализация",
    "MLP, init fixes": "MLP, исправленная инициализация",
    "MLP + batch norm, naive init": "MLP + BN, наивная инициализация",  # BN: батч-нормализация
    "MLP + batch norm, init fixes": "MLP + BN, исправленная инициализация",
}
#: The splits' names (:func:`mlp_ref.labs.charlm.experiment.prepare_data`) in Russian.
_SPLITS_RU = {"train": "обучающая", "val": "валидационная", "test": "тестовая"}


def variant_label(label: str) -> str:
    """A variant's label (``"MLP, init fixes"``) as the page being built says it."""
    return say(label, ru=_VARIANTS_RU.get(label, label))


def _mean_sd(values: np.ndarray, precision: int = 3) -> str:
    if values.size == 1:
        return format_number(values[0], precision)
    return f"{format_number(values.mean(), precision)} ± {format_number(values.std(ddof=1), precision)}"


def data_table(splits: dict[str, list[str]], windows: dict[str, tuple[np.ndarray, np.ndarray]]) -> str:
    """Markdown table: words, windows and word lengths of each split (from :func:`prepare_data`)."""
    rows = []
    for name, words in splits.items():
        lengths = np.array([len(w) for w in words])
        rows.append([say(name, ru=_SPLITS_RU.get(name, name)), format_count(len(words)),
                     format_count(len(windows[name][1])),
                     format_number(lengths.mean(), 2), format_count(int(lengths.min())),
                     format_count(int(lengths.max()))])
    return markdown_table([say("split", ru="выборка"), say("words", ru="слов"), say("windows", ru="окон"),
                           say("mean length", ru="средняя длина"), say("shortest", ru="мин. длина"),
                           say("longest", ru="макс. длина")], rows, "lrrrrr")


def results_table(report: CharLMReport) -> str:
    """Markdown table: parameters and train / validation loss of every model, test loss of the chosen one."""
    rows = [[say("bigram counts", ru="счётчики биграмм"), format_count(report.vocabulary.size ** 2),
             format_number(report.bigram_loss["train"], 3), format_number(report.bigram_loss["val"], 3), "—"]]
    for index, result in enumerate(report.variants):
        chosen = index == report.chosen
        rows.append([variant_label(result.label) + (say(" (chosen)", ru=" (выбрана)") if chosen else ""),
                     format_count(result.models[0].n_parameters()),
                     _mean_sd(result.train_loss), _mean_sd(result.val_loss),
                     _mean_sd(result.test_loss) if chosen else "—"])
    return markdown_table([say("model", ru="модель"), say("parameters", ru="параметров"),
                           say("train loss", ru="потери (обуч.)"), say("validation loss", ru="потери (вал.)"),
                           say("test loss", ru="потери (тест)")], rows, "lrrrr")


def command_line(settings: CharLMSettings, words_file=None, build_vocab: bool = False) -> str:
    """The command that prints the report of ``settings`` (``--steps`` and ``--seed`` always shown).

    Parameters
    ----------
    settings : CharLMSettings
    words_file : str or path-like, optional
        The word file (``--words``); None: the census names, and no ``--words`` option.
    build_vocab : bool
        Add ``--build-vocab`` (only with a word file).
    """
    extra = () if words_file is None else ("--words", shlex.quote(os.fspath(words_file)))
    return cli.command_line(PROG, settings, always=("steps", "seed"),
                            extra=extra + (("--build-vocab",) if build_vocab else ()))


def settings_line(report: CharLMReport) -> str:
    """One line naming the settings: steps, the learning-rate schedule, sizes, seeds."""
    s = report.settings
    drop = lr_drops(s.steps)[0]
    return (f"{s.steps} SGD steps of batch {s.batch_size}, learning rate {s.lr} then "
            f"{step_decay(drop, s.lr, (drop,)):g} after step {drop}; context {s.context}, embedding {s.emb_dim}, "
            f"hidden {s.hidden}, batch-norm momentum {s.momentum}; {s.n_seeds} seeds from {s.seed}. Loss: mean "
            f"cross entropy per character (nats), mean ± standard deviation over seeds.")


def samples_line(report: CharLMReport) -> str:
    """The sampled words and how many are new."""
    n, label, seed, novel = len(report.samples), report.chosen_variant.label, report.settings.seed, report.n_novel
    return (say(f"{n} words sampled from '{label}' (seed {seed}), {novel} not in the training split: ",
                ru=f"Сгенерировано слов: {n}, модель «{variant_label(label)}» (сид {seed}); "
                f"нет в обучающей выборке: {novel}. Слова: ")
            + ", ".join(report.samples))


def format_report(report: CharLMReport) -> str:
    """The command's whole output: settings, data table, results table, samples."""
    dropped = f" ({format_count(report.n_duplicates)} repeated words dropped)" if report.n_duplicates else ""
    return "\n\n".join([
        settings_line(report),
        f"Data: {format_count(sum(len(w) for w in report.splits.values()))} unique words{dropped}, "
        f"vocabulary of {report.vocabulary.size} tokens.\n" + data_table(report.splits, report.windows),
        "Results:\n" + results_table(report),
        samples_line(report),
    ])
