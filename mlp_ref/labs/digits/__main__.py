"""Lab A from the command line: train an MLP on handwritten digits, shared with the lab page.

Run it as::

    python -m mlp_ref.labs.digits --epochs 25 --seed 0      # the page's settings
    python -m mlp_ref.labs.digits --mnist /path/to/mnist     # MNIST files you supply

For the 8x8 digits bundled with scikit-learn it prints the split table, the lab model's run,
the width/depth study and the comparison with scikit-learn baselines (see
:mod:`mlp_ref.labs.digits.experiment` for how the seeds are used). Models that failed to train
(at chance, or with a rising loss) are named after the split table and never chosen; when no
model trained at all, the command prints one line saying so and exits with status 2.
"""

from __future__ import annotations

import sys

from mlp_ref.labs import cli
from mlp_ref.labs.digits.experiment import DigitsSettings, run_lab
from mlp_ref.labs.digits.report import PROG, format_report, mnist_report, no_model_line


def parser() -> cli.Parser:
    """``--mnist``, one flag per :class:`DigitsSettings` field, ``--no-progress``."""
    return cli.lab_parser(PROG, "Train mlp_ref's MLP on scikit-learn's 8x8 digits (Lab A), with a width/depth study "
                          "and scikit-learn baselines; or on MNIST files you supply (--mnist).", DigitsSettings,
                          {"--mnist": dict(metavar="DIR", help="train on MNIST in DIR (mnist.npz or the four IDX "
                                                               "files) instead of the digits")})


def main(argv=None) -> int:
    """Run the command; return its exit status (2 for bad input, see :mod:`mlp_ref.labs.cli`, and for a
    run in which no model trained: every one at chance or with a rising or non-finite loss, which says
    the settings were bad, most often the learning rate)."""
    args = parser().parse_args(argv)

    def body() -> None:
        settings = cli.settings_from_args(DigitsSettings, args)
        if args.mnist is not None:
            print(mnist_report(args.mnist, settings, progress=not args.no_progress))
        else:
            report = run_lab(settings, progress=not args.no_progress)
            if not report.usable:  # nothing trained: the tables would only dress up chance
                raise ValueError(no_model_line(report))
            print(format_report(report))
    return cli.guarded(PROG, body)


if __name__ == "__main__":
    sys.exit(main())
