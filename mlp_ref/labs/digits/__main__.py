"""Lab A from the command line: train an MLP on handwritten digits, shared with the lab page.

Run it as::

    python -m mlp_ref.labs.digits --epochs 25 --seed 0      # the page's settings
    python -m mlp_ref.labs.digits --mnist /path/to/mnist     # MNIST files you supply

For the 8x8 digits bundled with scikit-learn it prints the split table, the lab model's run,
the width/depth study and the comparison with scikit-learn baselines (see
:mod:`mlp_ref.labs.digits.experiment` for how the seeds are used).
"""

from __future__ import annotations

import argparse
import sys

from mlp_ref.labs.digits.experiment import DigitsSettings, run_lab
from mlp_ref.labs.digits.report import format_report, mnist_report

# --------------------------------------------------------------------------- command line

def _sizes_arg(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated layer widths such as 64,32,16,10, "
                                         f"received {text!r}") from None


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m mlp_ref.labs.digits",
        description="Train mlp_ref's MLP on scikit-learn's 8x8 digits (Lab A), with a width/depth study and "
                    "scikit-learn baselines; or on MNIST files you supply (--mnist).")
    d = DigitsSettings()
    parser.add_argument("--epochs", type=int, default=d.epochs, help="passes over the training rows (%(default)s)")
    parser.add_argument("--seed", type=int, default=d.seed,
                        help="split seed; models use seed, seed+1, ... (%(default)s)")
    parser.add_argument("--seeds", type=int, default=d.n_seeds, help="models per size (%(default)s)")
    parser.add_argument("--batch-size", type=int, default=d.batch_size, help="rows per SGD step (%(default)s)")
    parser.add_argument("--lr", type=float, default=d.lr, help="learning rate (%(default)s)")
    parser.add_argument("--sizes", type=_sizes_arg, default=d.sizes,
                        help="the lab model's layer widths (default %s)" % ",".join(map(str, d.sizes)))
    parser.add_argument("--study", type=_sizes_arg, nargs="+", default=d.study,
                        help="layer widths for the width/depth study (default %s)"
                             % " ".join(",".join(map(str, s)) for s in d.study))
    parser.add_argument("--hgb-rounds", type=int, default=d.hgb_rounds,
                        help="boosting rounds of HistGradientBoostingClassifier (%(default)s)")
    parser.add_argument("--mnist", metavar="DIR", default=None,
                        help="train on MNIST in DIR (mnist.npz or the four IDX files) instead of the digits")
    parser.add_argument("--mnist-sizes", type=_sizes_arg, default=d.mnist_sizes,
                        help="layer widths for MNIST (default %s)" % ",".join(map(str, d.mnist_sizes)))
    parser.add_argument("--mnist-val", type=int, default=d.mnist_val,
                        help="validation rows taken from MNIST's training part (%(default)s)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser.parse_args(argv)


def settings_from_args(args: argparse.Namespace) -> DigitsSettings:
    return DigitsSettings(epochs=args.epochs, seed=args.seed, n_seeds=args.seeds, batch_size=args.batch_size,
                          lr=args.lr, sizes=args.sizes, study=tuple(args.study), hgb_rounds=args.hgb_rounds,
                          mnist_sizes=args.mnist_sizes, mnist_val=args.mnist_val)

def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        settings = settings_from_args(args)
        if args.mnist is not None:
            print(mnist_report(args.mnist, settings, progress=not args.no_progress))
        else:
            print(format_report(run_lab(settings, progress=not args.no_progress)))
    except (ValueError, OSError, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
