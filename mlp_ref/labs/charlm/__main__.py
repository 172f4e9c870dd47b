"""Lab B from the command line: a character-level language model on a list of words.

Run it as::

    python -m mlp_ref.labs.charlm                                  # US census first names, the page's settings
    python -m mlp_ref.labs.charlm --words my_words.txt --build-vocab

It prints the data table, the results table and sampled words of
:func:`mlp_ref.labs.charlm.experiment.run_experiment`, as the lab page does.
"""

from __future__ import annotations

import argparse

from mlp_ref.labs.charlm.data import load_word_list
from mlp_ref.labs.charlm.experiment import LabSettings, run_experiment
from mlp_ref.labs.charlm.report import format_report

def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m mlp_ref.labs.charlm", description=__doc__.split("\n\n")[0])
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
