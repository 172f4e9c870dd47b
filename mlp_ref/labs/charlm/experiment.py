"""Lab B's experiment, shared by the command line and the lab page.

It trains a count bigram model and four MLP variants (naive initialization or the
initialization fixes, each with and without batch normalization) on the same split, for
several seeds (:func:`run_lab`). ``python -m mlp_ref.labs.charlm`` and the lab page
print its report (:mod:`mlp_ref.labs.charlm.report`), so for the same settings the page's
tables are the command's output.

Seeds: ``seed`` splits the words; model ``k`` (k = 0, 1, ...) of every variant is
initialized and fed batches from ``seed + k``; the samples are drawn with ``seed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mlp_ref.labs.charlm.data import Vocabulary, build_windows, check_words, split_words, unique_words
from mlp_ref.labs.charlm.model import (Bigram, CharMLP, CharMLPConfig, bigram_loss, evaluate, fit_bigram,
                                       init_char_mlp, sample_words, train)
from mlp_ref.labs.cli import setting
from mlp_ref.labs.progress import Ticker
from mlp_ref.validation import check_int, check_real


#: The MLP variants of the results table: (label, init, batch_norm).
VARIANTS = (
    ("MLP, naive init", "naive", False),
    ("MLP, init fixes", "kaiming", False),
    ("MLP + batch norm, naive init", "naive", True),
    ("MLP + batch norm, init fixes", "kaiming", True),
)


@dataclass(frozen=True)
class CharLMSettings:
    """Every setting of one experiment (see the module doc for how the seeds are used).

    The defaults are the lab page's settings, chosen so that the page executes in well under
    30 s on a 2-core machine (4 variants x 3 seeds x 4000 steps).
    """

    steps: int = setting(4000, "SGD steps per model (the learning rate drops halfway)")
    seed: int = setting(0, "splits the words; models use seed, seed+1, ...")
    n_seeds: int = setting(3, "models per variant", flag="--seeds")
    context: int = setting(3, "previous characters seen")
    emb_dim: int = setting(10, "embedding width per character")
    hidden: int = setting(100, "tanh layer width")
    batch_size: int = setting(32, "windows per SGD step")
    lr: float = setting(0.1, "learning rate before the drop")
    momentum: float = setting(0.01, "batch-norm running-statistics momentum")
    alpha: float = setting(1.0, "bigram pseudo-count")
    n_samples: int = setting(20, "words to sample", flag="--samples")

    def __post_init__(self) -> None:
        for name in ("steps", "n_seeds", "context", "emb_dim", "hidden", "n_samples"):
            check_int(name, getattr(self, name), 1)
        check_int("seed", self.seed, 0)
        check_int("batch_size", self.batch_size, 2, note=" (batch normalization needs two windows per batch)")
        check_real("lr", self.lr, low=0)
        check_real("momentum", self.momentum, 0, 1, high_closed=True)
        check_real("alpha", self.alpha, low=0)

    @property
    def seeds(self) -> tuple[int, ...]:
        """The seeds of each variant's models: ``seed``, ``seed + 1``, ..."""
        return tuple(range(self.seed, self.seed + self.n_seeds))

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

    @classmethod
    def evaluated(cls, label: str, config: CharMLPConfig, models, curves, windows) -> "VariantResult":
        """The variant's trained ``models`` (one per seed), each evaluated on the train, validation and
        test windows (``windows["train"]`` etc., as :func:`prepare_data` returns them)."""
        losses = np.array([[evaluate(model, *windows[name]) for name in ("train", "val", "test")]
                           for model in models])
        return cls(label, config, losses[:, 0], losses[:, 1], losses[:, 2], np.array(curves), list(models))


@dataclass
class CharLMReport:
    """Everything :func:`run_lab` computed."""

    settings: CharLMSettings
    vocabulary: Vocabulary
    n_duplicates: int
    splits: dict[str, list[str]]
    windows: dict[str, tuple[np.ndarray, np.ndarray]]
    bigram: Bigram
    bigram_loss: dict[str, float]
    variants: list[VariantResult]
    chosen: int
    samples: list[str]

    @classmethod
    def collect(cls, settings: CharLMSettings, words: list[str], vocabulary: Vocabulary, splits, windows,
                bigram: Bigram, variants: list[VariantResult]) -> "CharLMReport":
        """The report of one run: the bigram's losses, the variant chosen by mean validation loss, and
        ``settings.n_samples`` words sampled from its first model with ``settings.seed``."""
        bigram_losses = {name: bigram_loss(bigram, *xy) for name, xy in windows.items()}
        chosen = int(np.argmin([r.val_loss.mean() for r in variants]))
        samples = sample_words(variants[chosen].models[0], vocabulary, settings.n_samples, settings.seed)
        n_duplicates = len(words) - sum(len(part) for part in splits.values())
        return cls(settings, vocabulary, n_duplicates, splits, windows, bigram, bigram_losses, list(variants),
                   chosen, samples)

    @property
    def chosen_variant(self) -> VariantResult:
        return self.variants[self.chosen]

    @property
    def n_novel(self) -> int:
        """How many samples are not words of the training split."""
        train_set = set(self.splits["train"])
        return sum(word not in train_set for word in self.samples)


def prepare_data(words: list[str], settings: CharLMSettings, vocabulary: Vocabulary
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


def run_lab(settings: CharLMSettings, words: list[str], vocabulary: Vocabulary | None = None,
            *, progress=False) -> CharLMReport:
    """Split ``words``, fit the bigram baseline, train every variant for every seed, sample.

    Parameters
    ----------
    settings : CharLMSettings
    words : list of str
        The word list; repeats are dropped (first occurrence kept) before splitting.
    vocabulary : Vocabulary, optional
        Default :meth:`Vocabulary.letters`.
    progress : bool or callable
        As for :class:`mlp_ref.labs.progress.Ticker`: ``True`` for a tqdm bar on stderr, a
        tqdm-like factory (a notebook's :class:`~mlp_ref.labs.progress.NotebookProgress`), or
        ``False``.

    Returns
    -------
    CharLMReport

    Lab B's notebook runs these same lines in its cell of section 5 (without the progress bar);
    ``tests/labs/test_notebook.py`` holds the two to the same calls in the same order.
    """
    vocabulary = Vocabulary.letters() if vocabulary is None else vocabulary
    splits, windows = prepare_data(words, settings, vocabulary)
    tick = Ticker(progress, total=len(VARIANTS) * settings.n_seeds * settings.steps, unit="step")
    bigram = fit_bigram(*windows["train"], vocabulary.size, alpha=settings.alpha)
    variants = []
    for label, init, batch_norm in VARIANTS:
        config = settings.config(vocabulary.size, init, batch_norm)
        models = [init_char_mlp(config, seed) for seed in settings.seeds]
        curves = [train(model, *windows["train"], steps=settings.steps, seed=seed,
                        batch_size=settings.batch_size, base_lr=settings.lr,
                        progress=lambda _, label=label: tick(label))
                  for model, seed in zip(models, settings.seeds)]
        variants.append(VariantResult.evaluated(label, config, models, curves, windows))
    tick.close()
    return CharLMReport.collect(settings, words, vocabulary, splits, windows, bigram, variants)
