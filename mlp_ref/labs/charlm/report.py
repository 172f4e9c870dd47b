"""Lab B's report: the tables and lines that the lab page and the command line print."""

from __future__ import annotations

import os
import shlex

import numpy as np

from dataclasses import dataclass

from mlp_ref.course.claims import claim
from mlp_ref.course.i18n import ru_plural, say
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


def command_line(settings: CharLMSettings, words_file=None, build_vocab: bool = False, lowercase: bool = False) -> str:
    """The command that prints the report of ``settings`` (``--steps`` and ``--seed`` always shown).

    Parameters
    ----------
    settings : CharLMSettings
    words_file : str or path-like, optional
        The word file (``--words``); None: the census names, and no ``--words`` option.
    build_vocab : bool
        Add ``--build-vocab`` (only with a word file).
    lowercase : bool
        Add ``--lowercase`` (only with a word file).
    """
    extra = () if words_file is None else ("--words", shlex.quote(os.fspath(words_file)))
    return cli.command_line(PROG, settings, always=("steps", "seed"),
                            extra=extra + (("--build-vocab",) if build_vocab else ()) + (("--lowercase",) if lowercase else ()))


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
                ru=f"Сгенерировано слов: {n}, модель «{variant_label(label)}» (зерно {seed}); "
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


# --------------------------------------------------------------------------- the page's statements
# Each checks what the page's text says about its run, on this run (mlp_ref.course.claims.claim): in
# the site build a statement that does not hold fails the build; in a reader's run it warns, saying
# what the page's run found and what this run found instead.

def check_step0(below: dict[str, int], n_seeds: int) -> None:
    """Section 4: with each scaled initialization, some seeds start below ln V and some above.

    Parameters
    ----------
    below : dict of str to int
        For each initialization, how many of ``n_seeds`` seeds start below ln V.
    n_seeds : int
    """
    counts = ", ".join(f"{init} {n}" for init, n in below.items())
    claim(min(below.values()) > 0 and max(below.values()) < n_seeds,
          say("with the scaled inits, some seeds started slightly below ln V and some above",
              ru="при уменьшенных инициализациях с одними зёрнами потери на шаге 0 чуть ниже ln V, с другими выше"),
          say(f"these counts of {n_seeds} seeds below ln V: {counts}",
              ru=f"число зёрен из {n_seeds}, при которых потери на шаге 0 ниже ln V: {counts}"), stacklevel=2)


def _loss(values: np.ndarray) -> str:
    return format_number(float(np.mean(values)), 3)


def check_findings(report: CharLMReport) -> None:
    """Section 6: the five statements the page makes about the variants' validation losses."""
    val = {r.label: r.val_loss for r in report.variants}  # each (n_seeds,)
    naive, fixed = val["MLP, naive init"], val["MLP, init fixes"]
    bn_naive, bn_fixed = val["MLP + batch norm, naive init"], val["MLP + batch norm, init fixes"]
    bigram = report.bigram_loss["val"]
    claim(fixed.max() < bigram,
          say("the MLP with the initialization fixes beat the bigram on validation, for every seed",
              ru="MLP с исправленной инициализацией лучше биграмм на валидации при каждом зерне"),
          say(f"a worst seed at {format_number(fixed.max(), 3)} against the bigram's {format_number(bigram, 3)}",
              ru=f"худшее зерно: потери {format_number(fixed.max(), 3)} против {format_number(bigram, 3)} у биграмм"),
          stacklevel=2)
    claim(naive.min() > bigram,
          say("with the naive initialization, the MLP did not beat the bigram: every seed ended above it on "
              "validation", ru="с наивной инициализацией MLP не обошёл биграммы: при каждом зерне его потери на "
              "валидации в конце выше, чем у биграмм"),
          say(f"a best seed at {format_number(naive.min(), 3)}, below the bigram's {format_number(bigram, 3)}",
              ru=f"лучшее зерно: потери {format_number(naive.min(), 3)}, ниже, чем {format_number(bigram, 3)} у биграмм"),
          stacklevel=2)
    claim(fixed.mean() < naive.mean() and naive.std() > fixed.std(),
          say("the initialization fixes mattered: a mean validation loss below the naive initialization's, with a "
              "smaller spread over seeds", ru="исправленная инициализация важна: средние потери на валидации ниже, "
              "чем при наивной, а разброс по зёрнам меньше"),
          say(f"a mean of {_loss(fixed)} (sd {format_number(fixed.std(), 3)}) with the fixes and {_loss(naive)} "
              f"(sd {format_number(naive.std(), 3)}) without",
              ru=f"среднее {_loss(fixed)} (ст. откл. {format_number(fixed.std(), 3)}) с исправлениями и "
              f"{_loss(naive)} (ст. откл. {format_number(naive.std(), 3)}) без них"), stacklevel=2)
    claim(fixed.mean() < bn_naive.mean() < naive.mean(),
          say("batch normalization rescued part of the naive initialization: its mean validation loss lay between "
              "the naive initialization's and the initialization fixes'",
              ru="батч-нормализация отчасти спасает наивную инициализацию: её средние потери на валидации лежат "
              "между потерями наивной и исправленной инициализации"),
          say(f"{_loss(bn_naive)} with batch normalization and the naive initialization, {_loss(naive)} without "
              f"batch normalization, {_loss(fixed)} with the fixes",
              ru=f"{_loss(bn_naive)} с батч-нормализацией и наивной инициализацией, {_loss(naive)} без "
              f"батч-нормализации, {_loss(fixed)} с исправлениями"), stacklevel=2)
    claim(bn_fixed.mean() > fixed.mean(),
          say("on top of the initialization fixes, batch normalization did not help: its mean validation loss "
              "was higher", ru="поверх исправленной инициализации батч-нормализация не помогла: её средние потери "
              "на валидации выше"),
          say(f"{_loss(bn_fixed)} with batch normalization against {_loss(fixed)} without",
              ru=f"{_loss(bn_fixed)} с батч-нормализацией против {_loss(fixed)} без неё"), stacklevel=2)


def check_running_statistics(report: CharLMReport, running: float, own: float) -> None:
    """Section 6: with the fixes and batch normalization, the training loss with running statistics
    (``running``) and with the split's own (``own``) differ by less than a tenth of the gap between
    the two "init fixes" rows."""
    val = {r.label: r.val_loss for r in report.variants}
    gap = abs(val["MLP + batch norm, init fixes"].mean() - val["MLP, init fixes"].mean())
    claim(abs(running - own) < 0.1 * gap,
          say("with the initialization fixes and batch normalization, the training loss with running statistics "
              "and with the split's own statistics differed by less than a tenth of the gap between the two "
              "'init fixes' rows", ru="с исправленной инициализацией и батч-нормализацией потери на обучающей "
              "выборке со скользящими статистиками и со статистиками самой выборки различаются меньше чем на "
              "десятую часть разрыва между двумя строками «исправленная инициализация»"),
          say(f"a difference of {format_number(abs(running - own), 4)} against a gap of {format_number(gap, 4)}",
              ru=f"разницу {format_number(abs(running - own), 4)} при разрыве {format_number(gap, 4)}"),
          stacklevel=2)


# --------------------------------------------------------------------------- the cells' printed lines
# What the lab page's cells print, in the notebook's language; each takes the numbers its cell computed.

def data_line(n_unique: int, words_file, vocab) -> str:
    """Section 1: how many unique words, from where, and the vocabulary.

    Parameters
    ----------
    n_unique : int
        The words of the three splits.
    words_file : str or path-like or None
        The notebook's ``WORDS_FILE``; None: the census names.
    vocab : Vocabulary
    """
    n, tokens = format_count(n_unique), repr("".join(vocab.chars))
    if words_file is None:
        return say(f"{n} unique US census first names; vocabulary of V = {vocab.size} tokens: {tokens}",
                   ru=f"уникальных имён из переписи США: {n}; словарь из V = {vocab.size} токенов: {tokens}")
    return say(f"{n} unique words of {words_file}; vocabulary of V = {vocab.size} tokens: {tokens}",
               ru=f"уникальных слов из {words_file}: {n}; словарь из V = {vocab.size} токенов: {tokens}")


def lookup_lines(lookup_shape, scatter_shape) -> str:
    """Section 2, after its assertions: the lookup is a one-hot product, its gradient a scatter-add."""
    return say(f"C[X] and onehot(X) @ C: both {lookup_shape}, equal: True\n"
               f"scatter-add into C and onehot(X)^T @ Delta: both {scatter_shape}, equal: True",
               ru=f"C[X] и onehot(X) @ C: обе формы {lookup_shape}, равны: да\n"
               f"scatter-add в C и onehot(X)^T @ Delta: обе формы {scatter_shape}, равны: да")


def parameters_line(batch_norm: bool, n_parameters: int, shapes: str) -> str:
    """Section 2: one model's parameter count and its arrays' shapes, with or without batch norm."""
    n = format_count(n_parameters)
    return say(f"batch norm {batch_norm!s:5}: {n} parameters — {shapes}",
               ru=f"{'с батч-нормализацией:' if batch_norm else 'без батч-нормализации:':22} {n} "
               f"{ru_plural(n_parameters, 'параметр', 'параметра', 'параметров')} — {shapes}")


#: What section 4's lines call each initialization in Russian (the English lines say its name in the code).
INIT_LABELS_RU = {"naive": "наивная", "scaled_output": "уменьшенный выход", "kaiming": "масштаб He"}


def below_ln_v_line(init: str, n_below: int, n_seeds: int, lowest: float, highest: float) -> str:
    """Section 4: how many seeds of an initialization start below ln V, and the extremes of the gap."""
    if init not in INIT_LABELS_RU:
        raise ValueError(f"init: expected one of {', '.join(INIT_LABELS_RU)}, received {init!r}")
    lowest, highest = format_number(lowest, 3), format_number(highest, 3)
    width = max(map(len, INIT_LABELS_RU.values()))
    return say(f"{init:13s}: {n_below:2d} of {n_seeds} seeds start below ln V, "
               f"lowest by {lowest}, highest above by {highest}",
               ru=f"{INIT_LABELS_RU[init]:{width}s}: при {n_below:2d} из {n_seeds} зёрен потери на шаге 0 ниже ln V; "
               f"самые низкие — на {lowest} ниже, самые высокие — на {highest} выше")


def expected_std_line(fan_in: int, normal: float, kaiming: float) -> str:
    """Section 5: the spread of x W1 expected with N(0, 1) weights (``normal``) and the Kaiming scale."""
    return say(f"expected std of x W1 over the draw of the weights: √{fan_in} = {normal:.2f} "
               f"with N(0, 1) weights, 5/3 = {kaiming:.2f} with the Kaiming scale",
               ru=f"ожидаемое ст. откл. x W1 по розыгрышу весов: √{fan_in} = {normal:.2f} "
               f"при весах N(0, 1), 5/3 = {kaiming:.2f} при масштабе He")


def trained_line(n_models: int, seconds: float) -> str:
    """Section 6: how many models were trained, and how long it took (varies from run to run)."""
    return say(f"trained {n_models} models in {seconds:.1f} s",
               ru=f"{ru_plural(n_models, 'обучена', 'обучено', 'обучено')} {n_models} "
               f"{ru_plural(n_models, 'модель', 'модели', 'моделей')} за {seconds:.1f} с")


#: The comparisons of section 6's paired differences, in Russian.
_DIFFERENCES_RU = {
    "init fixes vs naive init, no batch norm": "исправленная инициализация против наивной, без BN",
    "batch norm vs none, naive init": "BN против без BN, наивная инициализация",
    "batch norm vs none, with init fixes": "BN против без BN, исправленная инициализация",
    "best MLP vs bigram": "лучший MLP против биграмм",
}


def differences_lines(differences: dict, best_vs_bigram: float) -> str:
    """Section 6: paired validation-loss differences, each its mean and the range over seeds.

    Parameters
    ----------
    differences : dict of str to ndarray
        Keyed by the comparisons of :data:`_DIFFERENCES_RU`: per seed, one variant's loss minus the other's.
    best_vs_bigram : float
        The best variant's mean validation loss minus the bigram's.
    """
    unknown = set(differences) - set(_DIFFERENCES_RU)
    if unknown:
        raise ValueError(f"differences: expected comparisons among {sorted(_DIFFERENCES_RU)}, received {sorted(unknown)}")
    rows = [(label, say(f"{format_number(d.mean(), 3)} (per seed from {format_number(d.min(), 3)} to "
                        f"{format_number(d.max(), 3)})",
                        ru=f"{format_number(d.mean(), 3)} (по зёрнам от {format_number(d.min(), 3)} до "
                        f"{format_number(d.max(), 3)})")) for label, d in differences.items()]
    rows.append(("best MLP vs bigram", format_number(best_vs_bigram, 3)))
    labels = [say(label, ru=_DIFFERENCES_RU[label]) + ":" for label, _ in rows]
    width = max(len(label) for label in labels) + 2
    head = say("validation loss differences (negative = better), same seeds paired:",
               ru="разности потерь на валидации (отрицательная — лучше), в парах с одним и тем же зерном:")
    return "\n".join([head] + [f"  {label:<{width}} {value}" for label, (_, value) in zip(labels, rows)])


def running_statistics_line(running: float, own: float) -> str:
    """Section 6: the first seed's training loss with batch norm's running statistics and with the split's own."""
    a, b, difference = format_number(running, 4), format_number(own, 4), format_number(running - own, 4)
    return say(f"first seed, training split: loss with running statistics {a}, "
               f"with the split's own statistics {b}, difference {difference}",
               ru=f"первое зерно, обучающая выборка: потери со скользящими статистиками {a}, "
               f"со статистиками самой выборки {b}, разница {difference}")


def pca_share_line(share: float) -> str:
    """Section 7: the share of the embeddings' variance the first two principal components keep."""
    share = format_number(100 * share, 1)
    return say(f"the first two principal components keep {share} % of the variance of C",
               ru=f"первые две главные компоненты сохраняют {share} % дисперсии C")


def no_torch_line() -> str:
    """Section 8 without PyTorch: no ratio measured, and how to measure it."""
    return say("PyTorch is not installed in this environment: no speed ratio measured. "
               "To measure it, install PyTorch (CPU build: see pytorch.org) and run this cell again.",
               ru="PyTorch в этом окружении не установлен: отношение скоростей не измерено. Чтобы измерить его, "
               "установите PyTorch (сборку для CPU: см. pytorch.org) и запустите эту ячейку снова.")


def speed_line(numpy_seconds: float, torch_seconds: float, version: str, repeats: int, steps: int) -> str:
    """Section 8: median time per training step of each implementation, and their ratio."""
    mine, theirs, ratio = numpy_seconds * 1e6, torch_seconds * 1e6, numpy_seconds / torch_seconds
    return say(f"median time per step: NumPy {mine:.0f} µs, PyTorch {theirs:.0f} µs; "
               f"ratio {ratio:.2f} (torch {version}, median of {repeats} alternating runs of {steps} steps)",
               ru=f"медианное время шага: NumPy {mine:.0f} мкс, PyTorch {theirs:.0f} мкс; "
               f"отношение {ratio:.2f} (torch {version}, медиана {repeats} чередующихся прогонов по {steps} шагов)")


def speed_ratio_line(ratio) -> str:
    """The closing note: the speed ratio of section 8, or that it was not measured (``ratio`` None)."""
    value = say("not measured", ru="не измерено") if ratio is None else f"{ratio:.2f}"
    return say(f"speed ratio NumPy / PyTorch, one training step: {value}",
               ru=f"отношение скоростей NumPy / PyTorch, один шаг обучения: {value}")


# --------------------------------------------------------------------------- the page's small tables

def windows_table(rows: list[tuple[str, str]], context: int) -> str:
    """Markdown table of one word's windows (:func:`mlp_ref.labs.charlm.data.window_rows`)."""
    return markdown_table([say(f"context (previous {context})", ru=f"контекст (предыдущие {context})"),
                           say("→ next", ru="→ следующий")], [list(row) for row in rows], "lc")


def step0_table(losses: dict[str, float], n_tokens: int) -> str:
    """Markdown table: the training loss at step 0 of each initialization, and ln V.

    Parameters
    ----------
    losses : dict of str to float
        ``{"naive": loss, "scaled_output": loss}`` (the inits of :class:`CharMLPConfig`).
    n_tokens : int
        The vocabulary's size V.
    """
    labels = {"naive": say("naive: all weights N(0, 1)", ru="наивная: все веса N(0, 1)"),
              "scaled_output": say("output layer scaled: W2 x 0.01, b2 = 0", ru="выходной слой уменьшен: W2 x 0.01, b2 = 0")}
    rows = [[labels[init], format_number(loss, 3)] for init, loss in losses.items()]
    rows.append([say("ln V (uniform prediction)", ru="ln V (равномерное предсказание)"),
                 format_number(float(np.log(n_tokens)), 3)])
    return markdown_table([say("initialization", ru="инициализация"),
                           say("loss on the training split at step 0", ru="потери на обучающей выборке на шаге 0")],
                          rows, "lr")


def hidden_weights_label(init: str, batch_norm: bool, fan_in: int) -> str:
    """How the hidden layer's weights were drawn, as the saturation table and its figure name it."""
    if batch_norm:
        return say("W1 ~ N(0, 1), then batch norm", ru="W1 ~ N(0, 1), затем батч-нормализация")
    return f"W1 ~ N(0, 1) × (5/3)/√{fan_in}, b1 × 0.01" if init == "kaiming" else "W1 ~ N(0, 1)"


def saturation_table(rows: list[tuple[str, bool, float, float]], fan_in: int) -> str:
    """Markdown table: per initialization, the fraction of saturated hidden outputs and the spread of x W1.

    Parameters
    ----------
    rows : list of (init, batch_norm, fraction of |h| > 0.97, std of x W1)
    fan_in : int
        The width of x (context x embedding).
    """
    return markdown_table([say("hidden weights", ru="веса скрытого слоя"), say("fraction of |h| > 0.97", ru="доля |h| > 0.97"),
                           say("std of x W1", ru="ст. откл. x W1")],
                          [[hidden_weights_label(init, batch_norm, fan_in), format_number(fraction, 3),
                            format_number(spread, 2)] for init, batch_norm, fraction, spread in rows], "lrr")


def samples_table(samples: list[str], train_words) -> str:
    """Markdown table: each sampled word and whether it is a word of the training split."""
    known = set(train_words)
    return markdown_table(["#", say("sampled word", ru="сгенерированное слово"),
                           say("in the training split?", ru="есть в обучающей выборке?")],
                          [[str(i + 1), name or say("(empty)", ru="(пусто)"),
                            say("yes", ru="да") if name in known else say("no", ru="нет")]
                           for i, name in enumerate(samples)], "rlc")


# --------------------------------------------------------------------------- the embeddings (section 8)

#: The letters section 8's figure colours as vowels (and y).
VOWELS = "aeiouy"


def nearest_neighbours(points: np.ndarray) -> np.ndarray:
    """For each row of ``points`` (shape (V, k)), the index of the nearest other row (Euclidean), shape (V,)."""
    points = np.asarray(points, dtype=float)
    d = ((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=-1)  # (V, V)
    np.fill_diagonal(d, np.inf)
    return d.argmin(axis=1)


def principal_plane(C: np.ndarray) -> tuple[np.ndarray, float]:
    """The rows of ``C`` (V, d), centred, projected on their first two principal components: the (V, 2)
    points and the share of the variance they keep."""
    centred = C - C.mean(axis=0)
    _, S, Vt = np.linalg.svd(centred, full_matrices=False)
    return centred @ Vt[:2].T, float((S[:2] ** 2).sum() / (S ** 2).sum())


@dataclass
class Neighbours:
    """Section 8's counts for each seed's embedding table ``C`` (V, d) of one variant, each of shape (n_seeds,).

    ``same_in_plane``: characters whose nearest point in the 2-D projection is their nearest row of ``C``;
    ``vowel_next_to_vowel``: vowels (:data:`VOWELS`) whose nearest row of ``C`` is a vowel.
    """

    n_chars: int
    n_vowels: int
    dim: int
    same_in_plane: np.ndarray
    vowel_next_to_vowel: np.ndarray


def embedding_neighbours(models, chars) -> Neighbours:
    """Nearest neighbours in each model's embedding table ``params["C"]`` and in its 2-D projection."""
    vowel = np.array([c in VOWELS for c in chars])
    same, vowels = [], []
    for model in models:
        C = model.params["C"]
        in_space, in_plane = nearest_neighbours(C), nearest_neighbours(principal_plane(C)[0])
        same.append(int(np.sum(in_space == in_plane)))
        vowels.append(int(np.sum(vowel[in_space[vowel]])))
    dim = models[0].params["C"].shape[1]
    return Neighbours(len(chars), int(vowel.sum()), dim, np.array(same), np.array(vowels))


def neighbours_lines(n: Neighbours) -> str:
    """Section 8: the two counts of :class:`Neighbours`, seed by seed."""
    same, vowels = ", ".join(map(str, n.same_in_plane)), ", ".join(map(str, n.vowel_next_to_vowel))
    return say(f"characters whose nearest point in the picture is their nearest in {n.dim}-D, per seed: "
               f"{same} of {n.n_chars}\n"
               f"vowels (and y) whose nearest neighbour in {n.dim}-D is a vowel, per seed: {vowels} of {n.n_vowels}",
               ru=f"символов, чья ближайшая точка на рисунке — ближайшая и в {n.dim}-мерном пространстве, по зёрнам: "
               f"{same} из {n.n_chars}\n"
               f"гласных (и y), чей ближайший сосед в {n.dim}-мерном пространстве — гласная, по зёрнам: "
               f"{vowels} из {n.n_vowels}")


def check_embeddings(n: Neighbours) -> None:
    """Section 8: on every seed, fewer than half of the characters have the same nearest neighbour in the
    picture as in the embedding; and the vowels' count differs from seed to seed."""
    same = ", ".join(map(str, n.same_in_plane))
    claim(bool(n.same_in_plane.max() < n.n_chars / 2),
          say(f"on every seed, fewer than half of the {n.n_chars} characters had the same nearest neighbour in the "
              f"2-D picture as in the {n.dim}-D embedding",
              ru=f"при каждом зерне меньше половины из {n.n_chars} символов имеют на рисунке того же ближайшего "
              f"соседа, что и в {n.dim}-мерном эмбеддинге"),
          say(f"counts of {same}", ru=f"числа {same}"), stacklevel=2)
    vowels = ", ".join(map(str, n.vowel_next_to_vowel))
    claim(bool(n.vowel_next_to_vowel.min() < n.vowel_next_to_vowel.max()),
          say(f"the number of vowels whose nearest neighbour in {n.dim}-D is a vowel differed from seed to seed",
              ru=f"число гласных, чей ближайший сосед в {n.dim}-мерном пространстве — гласная, от зерна к зерну "
              "разное"),
          say(f"the same count on every seed ({vowels})", ru=f"одно и то же число при каждом зерне ({vowels})"),
          stacklevel=2)
