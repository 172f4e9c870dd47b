"""Gradient descent on one parameter: the update rule before there is a network.

The smallest learning problem: fit ``y ≈ w x`` to a few points by the mean squared error

    L(w) = mean_i (w x_i - y_i)^2,        L'(w) = 2 mean_i x_i (w x_i - y_i),

a parabola in ``w`` with curvature ``L'' = 2 mean_i x_i^2``. Gradient descent repeats
``w <- w - lr L'(w)``. On a parabola the distance to the minimum is multiplied by
``1 - lr L''`` at every step, so the iterates converge exactly when ``0 < lr < 2 / L''``
(:attr:`LineFit.critical_lr`): below it they creep (small ``lr``) or zig-zag in (``lr``
above ``1 / L''``), above it every step overshoots further and the loss grows without bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mlp_ref.validation import as_float_array, check_int, check_real

__all__ = ["LineFit", "descend"]


@dataclass(frozen=True)
class LineFit:
    """The one-parameter model ``y ≈ w x`` on fixed points, and its mean squared error.

    Parameters
    ----------
    x, y : numpy.ndarray, shape (N,)
        The points; ``x`` not all zero. Use :meth:`of` to build one from lists (checked).
    """

    x: np.ndarray
    y: np.ndarray

    @classmethod
    def of(cls, x, y) -> "LineFit":
        """A checked :class:`LineFit`: ``x`` and ``y`` finite 1-D arrays of one length N >= 1."""
        x = as_float_array(x, "x", ndim=1)
        y = as_float_array(y, "y", ndim=1)
        if x.shape != y.shape or x.size == 0:
            raise ValueError(f"x, y: expected two 1-D arrays of the same positive length, "
                             f"received shapes {x.shape} and {y.shape}")
        if not np.any(x):
            raise ValueError("x: expected at least one nonzero value (otherwise the loss does not depend on w), "
                             "received all zeros")
        return cls(x, y)

    def loss(self, w) -> np.ndarray:
        """``L(w) = mean_i (w x_i - y_i)^2`` for a number or an array of ``w`` (same shape)."""
        w = np.asarray(w, dtype=float)
        return np.mean((w[..., None] * self.x - self.y) ** 2, axis=-1)

    def grad(self, w) -> np.ndarray:
        """``L'(w) = 2 mean_i x_i (w x_i - y_i)``, same shape as ``w``."""
        w = np.asarray(w, dtype=float)
        return 2.0 * np.mean(self.x * (w[..., None] * self.x - self.y), axis=-1)

    @property
    def curvature(self) -> float:
        """``L''(w) = 2 mean_i x_i^2`` (the same for every ``w``: L is a parabola)."""
        return float(2.0 * np.mean(self.x ** 2))

    @property
    def best(self) -> float:
        """The minimizer ``w* = sum x_i y_i / sum x_i^2``."""
        return float(self.x @ self.y / (self.x @ self.x))

    @property
    def critical_lr(self) -> float:
        """``2 / L''``: gradient descent converges for ``0 < lr`` below it and diverges above."""
        return 2.0 / self.curvature


def descend(grad, w0: float, lr: float, steps: int) -> np.ndarray:
    """Run ``steps`` steps of gradient descent on one parameter: ``w <- w - lr grad(w)``.

    Parameters
    ----------
    grad : callable
        ``grad(w)``, the derivative of the loss at the number ``w``.
    w0 : float
        Starting value.
    lr : float
        Learning rate, > 0.
    steps : int
        Number of updates, >= 0.

    Returns
    -------
    numpy.ndarray, shape (steps + 1,)
        ``w_0, w_1, ..., w_steps`` (a diverging run grows without bound; no error is raised,
        so that it can be shown).
    """
    w = check_real("w0", w0)
    lr = check_real("lr", lr, low=0)
    steps = check_int("steps", steps, minimum=0)
    path = [w]
    for _ in range(steps):
        w = w - lr * float(grad(w))
        path.append(w)
    return np.array(path)
