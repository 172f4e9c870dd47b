"""Passing rows through a layer in batches of a chosen size, timed: why batching is faster.

A layer's work on ``N`` rows is the same whether it gets them one at a time or all at once:
``N · d_in · d_out`` multiply-adds. What changes with the batch size is everything around
that work. Each call pays a fixed price (the Python call, NumPy's dispatch, allocating the
result, starting the BLAS routine), and one row at a time pays it ``N`` times. A wide matrix
product also lets BLAS reuse each block of ``W`` it loads into cache for many rows, where a
single row reads all of ``W`` for one use of each weight.

:func:`run_in_batches` measures that: the rows per second of one layer at a given batch size.
The absolute numbers belong to one machine at one moment; compare batch sizes with each other,
measured in the same run, never against another machine. The passes run on one BLAS thread
(threadpoolctl), so that the comparison shows batching, not how many cores a large product
happened to get on a shared machine.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from mlp_ref.validation import as_float_array, check_int

__all__ = ["run_in_batches"]


def run_in_batches(layer: Callable[[np.ndarray], np.ndarray], X, batch_size: int, *,
                   repeats: int = 3) -> tuple[float, np.ndarray]:
    """Pass all rows of ``X`` through ``layer`` in consecutive batches of ``batch_size`` rows.

    Parameters
    ----------
    layer : callable
        Maps a batch of shape (b, d_in) to an array of shape (b, d_out), for any b >= 1.
    X : array_like, shape (N, d_in)
        The rows. The last batch holds the ``N mod batch_size`` rows left over, if any.
    batch_size : int
        Rows per call, from 1 to N.
    repeats : int
        The pass is timed this many times (>= 1), on one BLAS thread, and the fastest is kept:
        slower passes measure whatever else the machine was doing.

    Returns
    -------
    rows_per_second : float
        ``N`` divided by the fastest pass's wall-clock seconds.
    Y : numpy.ndarray, shape (N, d_out)
        The outputs of the last pass, the batches stacked in order: the same array (up to
        rounding) for every batch size, which shows the work done was the same.
    """
    if not callable(layer):
        raise TypeError(f"layer: expected a callable from (b, d_in) to (b, d_out), received {type(layer).__name__}")
    X = as_float_array(X, "X", ndim=2)
    batch_size = check_int("batch_size", batch_size, minimum=1, maximum=X.shape[0],
                           note=" (N, the rows of X)")
    repeats = check_int("repeats", repeats, minimum=1)
    from threadpoolctl import threadpool_limits  # a dependency of scikit-learn

    starts = range(0, X.shape[0], batch_size)
    best = float("inf")
    with threadpool_limits(limits=1):
        for _ in range(repeats):
            begin = time.perf_counter()
            outputs = [layer(X[i:i + batch_size]) for i in starts]
            best = min(best, time.perf_counter() - begin)
    return X.shape[0] / best, np.concatenate(outputs, axis=0)
