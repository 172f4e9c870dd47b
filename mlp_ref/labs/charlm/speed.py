"""Time one training step of the character-level MLP: mlp_ref (NumPy) against PyTorch autograd.

One step is forward, cross entropy, backward and the SGD update (plus the running statistics
with batch normalization). :func:`median_step_times` times several runners in alternating
runs, so that a burst of load on a shared machine hits every side alike.

Both sides run on one thread (``torch.set_num_threads(1)``, and the BLAS under NumPy limited
through threadpoolctl): at the sizes of the lab a second thread does not help either library,
and on a shared machine spinning worker threads make the timings depend on the load rather
than on the code.

PyTorch is optional: this module never imports it at module level; :func:`torch_runner` takes
the ``torch`` module as an argument. Used by Lab B's page and by ``benchmarks/bench_charlm.py``.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from mlp_ref.labs.charlm.data import Vocabulary
from mlp_ref.labs.charlm.model import CharMLPConfig, init_char_mlp, train_step
from mlp_ref.validation import check_int


#: Windows per timed step; each runner cycles through the first 8 batches of its data.
STEP_BATCH = 32
_BATCHES = 8
#: The timed model's sizes, fixed whatever the lab's settings: the vocabulary of the letters a-z
#: and '.', context 3, embedding 10, hidden 200 (Lab B's page and ``benchmarks/bench_charlm.py``).
SPEED_VOCAB = Vocabulary.letters().size
SPEED_CONTEXT = 3
SPEED_EMB = 10
SPEED_HIDDEN = 200


def speed_config(batch_norm: bool = False, dtype: str = "float64") -> CharMLPConfig:
    """The configuration of the timed model."""
    return CharMLPConfig(SPEED_VOCAB, SPEED_CONTEXT, SPEED_EMB, SPEED_HIDDEN, batch_norm=batch_norm, dtype=dtype)


def speed_windows(seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Random windows for the timed model: X (N, SPEED_CONTEXT) and Y (N,), N = STEP_BATCH x the batches a runner cycles through."""
    rng = np.random.default_rng(seed)
    n = STEP_BATCH * _BATCHES
    return rng.integers(0, SPEED_VOCAB, (n, SPEED_CONTEXT)), rng.integers(0, SPEED_VOCAB, n)

Runner = Callable[[int], None]


def _check_data(X: np.ndarray, Y: np.ndarray) -> None:
    needed = STEP_BATCH * _BATCHES
    if X.ndim != 2 or Y.ndim != 1 or X.shape[0] != Y.shape[0] or X.shape[0] < needed:
        raise ValueError(f"X, Y: expected shapes (N, context) and (N,) with N >= {needed}, "
                         f"received {X.shape} and {Y.shape}")


def numpy_runner(config: CharMLPConfig, X: np.ndarray, Y: np.ndarray) -> Runner:
    """A function ``run(steps)`` that takes ``steps`` SGD steps of mlp_ref's model.

    Parameters
    ----------
    config : CharMLPConfig
    X : numpy.ndarray of int, shape (N, context), N >= 256
        Context windows; step ``s`` uses rows ``32 * (s % 8)`` to ``32 * (s % 8) + 32``.
    Y : numpy.ndarray of int, shape (N,)
        Next-character indices.
    """
    _check_data(X, Y)
    model = init_char_mlp(config, 0)

    def run(steps: int) -> None:
        for step in range(steps):
            rows = slice((step % _BATCHES) * STEP_BATCH, (step % _BATCHES) * STEP_BATCH + STEP_BATCH)
            train_step(model, X[rows], Y[rows], 0.01)
    return run


def torch_runner(torch, config: CharMLPConfig, X: np.ndarray, Y: np.ndarray) -> Runner:
    """The same model and steps as :func:`numpy_runner`, in PyTorch with autograd on the CPU.

    Parameters
    ----------
    torch : module
        The imported ``torch`` package.
    config, X, Y
        As for :func:`numpy_runner`; the model starts from the same weights.
    """
    _check_data(X, Y)
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
            rows = slice((s % _BATCHES) * STEP_BATCH, (s % _BATCHES) * STEP_BATCH + STEP_BATCH)
            step(Xt[rows], Yt[rows])
    return run


def median_step_times(runners: list[Runner], steps: int, repeats: int) -> list[float]:
    """Median seconds per step of each runner, timed in ``repeats`` alternating runs of ``steps`` steps.

    Every runner first runs ``steps`` steps untimed (warm-up). Runs with one thread for
    NumPy's BLAS and, when PyTorch is installed, for PyTorch (its setting is restored
    afterwards).

    Parameters
    ----------
    runners : list of callables
        From :func:`numpy_runner` and :func:`torch_runner`.
    steps, repeats : int
        Positive.

    Returns
    -------
    list of float
        One median time per step, in seconds, per runner, in the order of ``runners``.
    """
    steps, repeats = check_int("steps", steps, 1), check_int("repeats", repeats, 1)
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
