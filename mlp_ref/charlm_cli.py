"""The Lab B experiment, shared by the command line and the lab page.

Run it as::

    python -m mlp_ref.charlm_cli                                  # US census first names, the page's settings
    python -m mlp_ref.charlm_cli --words my_words.txt --build-vocab

It trains a count bigram model and four MLP variants (naive initialization or the
initialization fixes, each with and without batch normalization) on the same split, for
several seeds, and prints the data table, the results table and sampled words. The lab page
calls :func:`run_experiment` and the same formatting functions, so for the same settings
its tables are the command's output.

Seeds: ``seed`` splits the words; model ``k`` (k = 0, 1, ...) of every variant is
initialized and fed batches from ``seed + k``; the samples are drawn with ``seed``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from dataclasses import dataclass, field

import numpy as np

from mlp_ref.charlm import (
    Bigram,
    CharMLP,
    CharMLPConfig,
    bigram_loss,
    evaluate,
    fit_bigram,
    init_char_mlp,
    sample_words,
    train,
)
from mlp_ref.charlm_data import (
    Vocabulary,
    build_windows,
    check_words,
    load_census_names,
    load_words,
    split_words,
    unique_words,
)
from mlp_ref.tables import format_count, format_number, markdown_table
from mlp_ref.validation import check_int, check_real

#: The MLP variants of the results table: (label, init, batch_norm).
VARIANTS = (
    ("MLP, naive init", "naive", False),
    ("MLP, init fixes", "kaiming", False),
    ("MLP + batch norm, naive init", "naive", True),
    ("MLP + batch norm, init fixes", "kaiming", True),
)


@dataclass(frozen=True)
class LabSettings:
    """Every setting of one experiment (see the module doc for how the seeds are used).

    The defaults are the lab page's settings, chosen so that the page executes in well under
    30 s on a 2-core machine (4 variants x 3 seeds x 4000 steps).
    """

    steps: int = 4000
    seed: int = 0
    n_seeds: int = 3
    context: int = 3
    emb_dim: int = 10
    hidden: int = 100
    batch_size: int = 32
    lr: float = 0.1
    momentum: float = 0.01
    alpha: float = 1.0
    n_samples: int = 20

    def __post_init__(self) -> None:
        for name in ("steps", "n_seeds", "context", "emb_dim", "hidden", "batch_size", "n_samples"):
            check_int(name, getattr(self, name), 1)
        check_real("lr", self.lr, low=0)
        check_real("momentum", self.momentum, 0, 1, high_closed=True)
        check_real("alpha", self.alpha, low=0)
        if self.batch_size < 2:
            raise ValueError(f"batch_size: batch normalization needs at least 2 windows per batch, received {self.batch_size}")

    def config(self, vocab_size: int, init: str, batch_norm: bool) -> CharMLPConfig:
        """The model configuration of one variant."""
        return CharMLPConfig(vocab_size, self.context, self.emb_dim, self.hidden,
                             batch_norm=batch_norm, momentum=self.momentum, init=init)


@dataclass
class VariantResult:
    """One MLP variant over the seeds: per-seed losses (n_seeds,), curves (n_seeds, steps)."""

    label: str
    config: CharMLPConfig
    train_loss: np.ndarray
    val_loss: np.ndarray
    test_loss: np.ndarray
    curves: np.ndarray
    models: list[CharMLP] = field(repr=False)


@dataclass
class LabReport:
    """Everything :func:`run_experiment` computed."""

    settings: LabSettings
    vocabulary: Vocabulary
    n_duplicates: int
    splits: dict[str, list[str]]
    windows: dict[str, tuple[np.ndarray, np.ndarray]]
    bigram: Bigram
    bigram_loss: dict[str, float]
    variants: list[VariantResult]
    chosen: int
    samples: list[str]

    @property
    def chosen_variant(self) -> VariantResult:
        return self.variants[self.chosen]

    @property
    def n_novel(self) -> int:
        """How many samples are not words of the training split."""
        train_set = set(self.splits["train"])
        return sum(word not in train_set for word in self.samples)


def load_word_list(words_file=None, build_vocab: bool = False) -> tuple[list[str], Vocabulary]:
    """The words of one experiment and their vocabulary: what ``--words`` and ``--build-vocab`` select.

    Parameters
    ----------
    words_file : str or path-like, optional
        A UTF-8 text file with one word per line (read by
        :func:`mlp_ref.charlm_data.load_words`). None: the US census first names of the
        ``names`` package (:func:`mlp_ref.charlm_data.load_census_names`).
    build_vocab : bool
        Take the vocabulary from the file's characters instead of the letters a-z.

    Returns
    -------
    words : list of str
    vocabulary : Vocabulary

    Raises
    ------
    ValueError
        ``build_vocab`` without a file; an empty file; a character outside the vocabulary.
    OSError
        A file that cannot be read.
    """
    if words_file is None:
        if build_vocab:
            raise ValueError("build_vocab: the census names use the letters a-z; a vocabulary can be built "
                             "only from a word file")
        return load_census_names(), Vocabulary.letters()
    return load_words(words_file, build_vocabulary=build_vocab)


def prepare_data(words: list[str], settings: LabSettings, vocabulary: Vocabulary
                 ) -> tuple[dict[str, list[str]], dict[str, tuple[np.ndarray, np.ndarray]]]:
    """Drop repeated words, split by ``settings.seed`` and build the context windows.

    Returns
    -------
    splits : dict
        ``"train"``, ``"val"``, ``"test"`` -> list of words.
    windows : dict
        The same keys -> ``(X, Y)`` with X (N, context) and Y (N,) token indices.
    """
    unique = unique_words(words)
    check_words(unique, vocabulary)
    train_w, val_w, test_w = split_words(unique, settings.seed)
    splits = {"train": train_w, "val": val_w, "test": test_w}
    return splits, {name: build_windows(part, vocabulary, settings.context) for name, part in splits.items()}


def run_experiment(words: list[str], settings: LabSettings, vocabulary: Vocabulary | None = None,
                   *, progress: bool = False) -> LabReport:
    """Split ``words``, fit the bigram baseline, train every variant for every seed, sample.

    Parameters
    ----------
    words : list of str
        The word list; repeats are dropped (first occurrence kept) before splitting.
    settings : LabSettings
    vocabulary : Vocabulary, optional
        Default :meth:`Vocabulary.letters`.
    progress : bool
        Show a tqdm progress bar on stderr.

    Returns
    -------
    LabReport
    """
    vocabulary = Vocabulary.letters() if vocabulary is None else vocabulary
    splits, windows = prepare_data(words, settings, vocabulary)
    bigram = fit_bigram(*windows["train"], vocabulary.size, alpha=settings.alpha)
    bigram_losses = {name: bigram_loss(bigram, *xy) for name, xy in windows.items()}

    bar = None
    if progress:
        from tqdm import tqdm  # optional "labs" dependency, only for the command line

        bar = tqdm(total=len(VARIANTS) * settings.n_seeds * settings.steps, file=sys.stderr, unit="step")
    results = []
    for label, init, batch_norm in VARIANTS:
        config = settings.config(vocabulary.size, init, batch_norm)
        losses, curves, models = [], [], []
        for k in range(settings.n_seeds):
            model = init_char_mlp(config, settings.seed + k)
            curves.append(train(model, *windows["train"], steps=settings.steps, batch_size=settings.batch_size,
                                seed=settings.seed + k, base_lr=settings.lr,
                                progress=None if bar is None else bar.update))
            losses.append([evaluate(model, *windows[name]) for name in ("train", "val", "test")])
            models.append(model)
        losses = np.array(losses)
        results.append(VariantResult(label, config, losses[:, 0], losses[:, 1], losses[:, 2], np.array(curves), models))
    if bar is not None:
        bar.close()
    chosen = int(np.argmin([r.val_loss.mean() for r in results]))
    samples = sample_words(results[chosen].models[0], vocabulary, settings.n_samples, settings.seed)
    n_duplicates = len(words) - sum(len(part) for part in splits.values())
    return LabReport(settings, vocabulary, n_duplicates, splits, windows, bigram,
                     bigram_losses, results, chosen, samples)


def _mean_sd(values: np.ndarray, precision: int = 3) -> str:
    if values.size == 1:
        return format_number(values[0], precision)
    return f"{format_number(values.mean(), precision)} ± {format_number(values.std(ddof=1), precision)}"


def data_table(splits: dict[str, list[str]], windows: dict[str, tuple[np.ndarray, np.ndarray]]) -> str:
    """Markdown table: words, windows and word lengths of each split (from :func:`prepare_data`)."""
    rows = []
    for name, words in splits.items():
        lengths = np.array([len(w) for w in words])
        rows.append([name, format_count(len(words)), format_count(len(windows[name][1])),
                     format_number(lengths.mean(), 2), format_count(int(lengths.min())),
                     format_count(int(lengths.max()))])
    return markdown_table(["split", "words", "windows", "mean length", "shortest", "longest"], rows, "lrrrrr")


def results_table(report: LabReport) -> str:
    """Markdown table: parameters and train / validation loss of every model, test loss of the chosen one."""
    rows = [["bigram counts", format_count(report.vocabulary.size ** 2),
             format_number(report.bigram_loss["train"], 3), format_number(report.bigram_loss["val"], 3), "—"]]
    for index, result in enumerate(report.variants):
        chosen = index == report.chosen
        rows.append([result.label + (" (chosen)" if chosen else ""), format_count(result.models[0].n_parameters()),
                     _mean_sd(result.train_loss), _mean_sd(result.val_loss),
                     _mean_sd(result.test_loss) if chosen else "—"])
    return markdown_table(["model", "parameters", "train loss", "validation loss", "test loss"], rows, "lrrrr")


def command_line(settings: LabSettings, words_file=None, build_vocab: bool = False) -> str:
    """The command that prints the report of ``settings``.

    Parameters
    ----------
    settings : LabSettings
    words_file : str or path-like, optional
        The word file (``--words``); None: the census names, and no ``--words`` option.
    build_vocab : bool
        Add ``--build-vocab`` (only with a word file).
    """
    s = settings
    words = "" if words_file is None else f"--words {shlex.quote(os.fspath(words_file))} "
    words += "--build-vocab " if build_vocab else ""
    return (f"python -m mlp_ref.charlm_cli {words}--steps {s.steps} --seed {s.seed} --seeds {s.n_seeds} "
            f"--context {s.context} --emb {s.emb_dim} --hidden {s.hidden} --batch {s.batch_size} "
            f"--lr {s.lr} --momentum {s.momentum} --alpha {s.alpha} --samples {s.n_samples}")


def settings_line(report: LabReport) -> str:
    """One line naming the settings, with the command that reproduces them."""
    s = report.settings
    return (f"{s.steps} SGD steps of batch {s.batch_size}, learning rate {s.lr} then {s.lr * 0.1:g} after step "
            f"{s.steps // 2}; context {s.context}, embedding {s.emb_dim}, hidden {s.hidden}, batch-norm momentum "
            f"{s.momentum}; {s.n_seeds} seeds from {s.seed}. Loss: mean cross entropy per character (nats), "
            f"mean ± standard deviation over seeds.")


def samples_line(report: LabReport) -> str:
    """The sampled words and how many are new."""
    return (f"{len(report.samples)} words sampled from '{report.chosen_variant.label}' (seed {report.settings.seed}), "
            f"{report.n_novel} not in the training split: " + ", ".join(report.samples))


def format_report(report: LabReport) -> str:
    """The command's whole output: settings, data table, results table, samples."""
    dropped = f" ({format_count(report.n_duplicates)} repeated words dropped)" if report.n_duplicates else ""
    return "\n\n".join([
        settings_line(report),
        f"Data: {format_count(sum(len(w) for w in report.splits.values()))} unique words{dropped}, "
        f"vocabulary of {report.vocabulary.size} tokens.\n" + data_table(report.splits, report.windows),
        "Results:\n" + results_table(report),
        samples_line(report),
    ])


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m mlp_ref.charlm_cli", description=__doc__.split("\n\n")[0])
    defaults = LabSettings()
    parser.add_argument("--words", help="text file, one word per line (default: US census first names)")
    parser.add_argument("--build-vocab", action="store_true", help="take the vocabulary from the file's characters")
    parser.add_argument("--steps", type=int, default=defaults.steps, help="SGD steps per model")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="splits the words; models use seed, seed+1, ...")
    parser.add_argument("--seeds", type=int, default=defaults.n_seeds, help="models per variant")
    parser.add_argument("--context", type=int, default=defaults.context, help="previous characters seen")
    parser.add_argument("--emb", type=int, default=defaults.emb_dim, help="embedding width per character")
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="tanh layer width")
    parser.add_argument("--batch", type=int, default=defaults.batch_size, help="windows per SGD step")
    parser.add_argument("--lr", type=float, default=defaults.lr, help="learning rate, divided by 10 halfway")
    parser.add_argument("--momentum", type=float, default=defaults.momentum, help="batch-norm running-statistics momentum")
    parser.add_argument("--alpha", type=float, default=defaults.alpha, help="bigram pseudo-count")
    parser.add_argument("--samples", type=int, default=defaults.n_samples, help="words to sample")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def settings_from_args(args: argparse.Namespace) -> LabSettings:
    """The :class:`LabSettings` named by parsed command-line arguments."""
    return LabSettings(steps=args.steps, seed=args.seed, n_seeds=args.seeds, context=args.context,
                       emb_dim=args.emb, hidden=args.hidden, batch_size=args.batch, lr=args.lr,
                       momentum=args.momentum, alpha=args.alpha, n_samples=args.samples)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.words is None and args.build_vocab:
        raise SystemExit("--build-vocab needs --words FILE")
    try:
        words, vocabulary = load_word_list(args.words, build_vocab=args.build_vocab)
    except (OSError, ValueError) as error:
        raise SystemExit(f"--words: {error}") from None
    try:
        settings = settings_from_args(args)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    try:
        report = run_experiment(words, settings, vocabulary, progress=not args.no_progress)
    except ValueError as error:
        raise SystemExit(f"--words: {error}") from None
    print(format_report(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
