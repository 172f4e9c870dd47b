"""Lab A from the command line: train an MLP on handwritten digits, shared with the lab page.

Run it as::

    python -m mlp_ref.labs.digits --epochs 25 --seed 0      # the page's settings
    python -m mlp_ref.labs.digits --mnist /path/to/mnist     # MNIST files you supply

For the 8x8 digits bundled with scikit-learn it prints the split table, the lab model's run,
the width/depth study and the comparison with scikit-learn baselines (see
:mod:`mlp_ref.labs.digits.experiment` for how the seeds are used).
"""

from __future__ import annotations

import sys

from mlp_ref.labs import cli
from mlp_ref.labs.digits.experiment import DigitsSettings, run_lab
from mlp_ref.labs.digits.report import PROG, format_report, mnist_report


def parser() -> cli.Parser:
    """``--mnist``, one flag per :class:`DigitsSettings` field, ``--no-progress``."""
    return cli.lab_parser(PROG, "Train mlp_ref's MLP on scikit-learn's 8x8 digits (Lab A), with a width/depth study "
                          "and scikit-learn baselines; or on MNIST files you supply (--mnist).", DigitsSettings,
                          {"--mnist": dict(metavar="DIR", help="train on MNIST in DIR (mnist.npz or the four IDX "
                                                               "files) instead of the digits")})


def main(argv=None) -> int:
    """Run the command; return its exit status (2 for bad input, see :mod:`mlp_ref.labs.cli`)."""
    args = parser().parse_args(argv)

    def body() -> None:
        settings = cli.settings_from_args(DigitsSettings, args)
        if args.mnist is not None:
            print(mnist_report(args.mnist, settings, progress=not args.no_progress))
        else:
            print(format_report(run_lab(settings, progress=not args.no_progress)))
    return cli.guarded(PROG, body)


if __name__ == "__main__":
    sys.exit(main())
