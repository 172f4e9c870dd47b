"""One training step of the character-level MLP LM: mlp_ref (NumPy) against PyTorch autograd on CPU.

Model: context 3, embedding 10, hidden 200, vocabulary 27, batch 32; one step is forward,
cross entropy, backward and the SGD update (plus the running statistics with batch norm).
The two implementations are timed in alternating runs of STEPS steps each, REPEATS times;
the report is the median time per step and the ratio NumPy / PyTorch (below 1: NumPy is
faster). Target ratio: <= 0.6 in float64 without batch norm. Without torch the benchmark
prints why and exits 0.

Both sides run on one thread (``torch.set_num_threads(1)``, and OpenBLAS limited through
threadpoolctl): at these sizes a second thread does not help either library, and on a
shared 2-core machine spinning worker threads make the timings depend on the load
(PyTorch's by more than an order of magnitude) rather than on the code.

Run: ``python benchmarks/bench_charlm.py`` from the repository root (``make bench``).
"""

from __future__ import annotations

import sys

import numpy as np

# The timing routine lives in the package, so that Lab B's page (and a downloaded copy of its
# notebook) runs the very same measurement.
from mlp_ref.labs.charlm.speed import (STEP_BATCH, median_step_times, numpy_runner, speed_config,
                                       speed_windows, torch_runner)

STEPS = 200
REPEATS = 9
TARGET = 0.6


def main() -> int:
    try:
        import torch
    except ModuleNotFoundError:
        print("bench_charlm: skipped, torch is not installed (pip install torch to compare against PyTorch autograd)")
        return 0
    X, Y = speed_windows(0)
    c = speed_config()
    print(f"one training step, context {c.context}, embedding {c.emb_dim}, hidden {c.hidden}, "
          f"vocabulary {c.vocab_size}, batch {STEP_BATCH}; median of {REPEATS} alternating "
          f"runs of {STEPS} steps; one thread each; torch {torch.__version__}, numpy {np.__version__}")
    print(f"{'dtype':8} {'batch norm':10} {'numpy us':>9} {'torch us':>9} {'ratio':>6}")
    headline = None
    for dtype in ("float64", "float32"):
        for batch_norm in (False, True):
            config = speed_config(batch_norm=batch_norm, dtype=dtype)
            mine, theirs = median_step_times([numpy_runner(config, X, Y), torch_runner(torch, config, X, Y)],
                                              STEPS, REPEATS)
            ratio = mine / theirs
            if dtype == "float64" and not batch_norm:
                headline = ratio
            print(f"{dtype:8} {str(batch_norm):10} {mine * 1e6:9.1f} {theirs * 1e6:9.1f} {ratio:6.2f}")
    verdict = "meets" if headline <= TARGET else "MISSES"
    print(f"headline ratio (float64, no batch norm) {headline:.2f} {verdict} the target <= {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
