"""Lab B from the command line: a character-level language model on a list of words.

Run it as::

    python -m mlp_ref.labs.charlm                                  # US census first names, the page's settings
    python -m mlp_ref.labs.charlm --words my_words.txt --build-vocab
    python -m mlp_ref.labs.charlm --words My_Names.txt --lowercase

It prints the data table, the results table and sampled words of
:func:`mlp_ref.labs.charlm.experiment.run_lab`, as the lab page does.
"""

from __future__ import annotations

import sys

from mlp_ref.labs import cli
from mlp_ref.labs.charlm.data import load_word_list
from mlp_ref.labs.charlm.experiment import CharLMSettings, run_lab
from mlp_ref.labs.charlm.report import PROG, format_report


def parser() -> cli.Parser:
    """``--words``, ``--build-vocab``, ``--lowercase``, one flag per :class:`CharLMSettings` field, ``--no-progress``."""
    return cli.lab_parser(PROG, "Train a character-level MLP language model (Lab B) on a list of words: a bigram "
                          "baseline and four MLP variants, then sample words.", CharLMSettings,
                          {"--words": dict(metavar="FILE", help="text file, one word per line (default: US census "
                                                                "first names)"),
                           "--build-vocab": dict(action="store_true", help="take the vocabulary from the file's "
                                                                          "characters"),
                           "--lowercase": dict(action="store_true", help="lower-case every word of the file")})


def main(argv=None) -> int:
    """Run the command; return its exit status (2 for bad input, see :mod:`mlp_ref.labs.cli`)."""
    args = parser().parse_args(argv)

    def body() -> None:
        settings = cli.settings_from_args(CharLMSettings, args)
        words, vocabulary = load_word_list(args.words, build_vocab=args.build_vocab, lowercase=args.lowercase,
                                           options="command line")
        print(format_report(run_lab(settings, words, vocabulary, progress=not args.no_progress)))
    return cli.guarded(PROG, body)


if __name__ == "__main__":
    sys.exit(main())
