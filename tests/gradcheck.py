"""Central differences, the one numerical gradient the tests compare backward passes with."""

from __future__ import annotations

import numpy as np


def central_difference(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Gradient of the number ``f()`` with respect to every entry of the array ``x``.

    ``x`` is changed in place, one entry at a time, to ``x_i + eps`` and ``x_i - eps`` (and
    then restored), so ``f`` must read ``x`` itself: a parameter of a model, or an array
    closed over by ``f``. Each entry of the result is ``(f(x + eps e_i) - f(x - eps e_i)) /
    (2 eps)``, whose error is of order ``eps**2`` plus the rounding of ``f`` over ``eps``.
    """
    grad = np.zeros(x.shape)
    for index in np.ndindex(x.shape):
        saved = x[index]
        x[index] = saved + eps
        plus = f()
        x[index] = saved - eps
        minus = f()
        x[index] = saved
        grad[index] = (plus - minus) / (2 * eps)
    return grad
