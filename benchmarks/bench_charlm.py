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
import time

import numpy as np

from mlp_ref.charlm import CharMLPConfig, init_char_mlp, train_step

STEPS = 200
REPEATS = 9
TARGET = 0.6


def numpy_runner(config: CharMLPConfig, X: np.ndarray, Y: np.ndarray):
    model = init_char_mlp(config, 0)

    def run(steps: int) -> None:
        for step in range(steps):
            rows = slice((step % 8) * 32, (step % 8) * 32 + 32)
            train_step(model, X[rows], Y[rows], 0.01)
    return run


def torch_runner(torch, config: CharMLPConfig, X: np.ndarray, Y: np.ndarray):
    F = torch.nn.functional
    dtype = getattr(torch, config.dtype)
    start = init_char_mlp(config, 0)
    p = {k: torch.tensor(v, dtype=dtype, requires_grad=True) for k, v in start.params.items()}
    b = {k: torch.tensor(v, dtype=dtype) for k, v in start.buffers.items()}
    Xt, Yt = torch.tensor(X), torch.tensor(Y)

    def step(xb, yb) -> None:
        a = F.embedding(xb, p["C"]).view(xb.shape[0], -1) @ p["W1"]
        if config.batch_norm:
            a = F.batch_norm(a, b["bn_mean"], b["bn_var"], p["bn_gain"], p["bn_bias"], training=True,
                             momentum=config.momentum, eps=config.eps)
        else:
            a = a + p["b1"]
        loss = F.cross_entropy(torch.tanh(a) @ p["W2"] + p["b2"], yb)
        loss.backward()
        with torch.no_grad():
            for value in p.values():
                value -= 0.01 * value.grad
                value.grad = None

    def run(steps: int) -> None:
        for s in range(steps):
            rows = slice((s % 8) * 32, (s % 8) * 32 + 32)
            step(Xt[rows], Yt[rows])
    return run


def median_step_times(runners, steps: int = STEPS, repeats: int = REPEATS) -> list[float]:
    """Median seconds per step of each runner, timed in ``repeats`` alternating runs of ``steps`` steps.

    Runs with one thread for NumPy's BLAS and for PyTorch (restored afterwards).
    """
    from threadpoolctl import threadpool_limits

    try:
        import torch
    except ModuleNotFoundError:
        torch = None
    torch_threads = torch.get_num_threads() if torch is not None else None
    times = [[] for _ in runners]
    with threadpool_limits(limits=1):
        if torch is not None:
            torch.set_num_threads(1)
        try:
            for run in runners:  # warm-up
                run(steps)
            for _ in range(repeats):
                for index, run in enumerate(runners):
                    start = time.perf_counter()
                    run(steps)
                    times[index].append((time.perf_counter() - start) / steps)
        finally:
            if torch is not None:
                torch.set_num_threads(torch_threads)
    return [float(np.median(t)) for t in times]


def main() -> int:
    try:
        import torch
    except ModuleNotFoundError:
        print("bench_charlm: skipped, torch is not installed (pip install torch to compare against PyTorch autograd)")
        return 0
    rng = np.random.default_rng(0)
    X, Y = rng.integers(0, 27, (256, 3)), rng.integers(0, 27, 256)
    print(f"one training step, context 3, embedding 10, hidden 200, batch 32; median of {REPEATS} alternating "
          f"runs of {STEPS} steps; one thread each; torch {torch.__version__}, numpy {np.__version__}")
    print(f"{'dtype':8} {'batch norm':10} {'numpy us':>9} {'torch us':>9} {'ratio':>6}")
    headline = None
    for dtype in ("float64", "float32"):
        for batch_norm in (False, True):
            config = CharMLPConfig(27, 3, 10, 200, batch_norm=batch_norm, dtype=dtype)
            mine, theirs = median_step_times([numpy_runner(config, X, Y), torch_runner(torch, config, X, Y)])
            ratio = mine / theirs
            if dtype == "float64" and not batch_norm:
                headline = ratio
            print(f"{dtype:8} {str(batch_norm):10} {mine * 1e6:9.1f} {theirs * 1e6:9.1f} {ratio:6.2f}")
    verdict = "meets" if headline <= TARGET else "MISSES"
    print(f"headline ratio (float64, no batch norm) {headline:.2f} {verdict} the target <= {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
