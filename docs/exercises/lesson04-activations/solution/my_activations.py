"""Lesson 4 exercise, reference solution: an activation and its derivative.

Every function takes the pre-activation ``z`` (a number or an array of any shape, for
example ``(B, d)``) and returns a float array of the same shape.
"""

import numpy as np


def sigmoid(z):
    """Logistic sigmoid ``1 / (1 + exp(-z))``, without overflow for any finite ``z``.

    Parameters
    ----------
    z : array_like, any shape

    Returns
    -------
    numpy.ndarray, same shape as ``z``, values in [0, 1]
    """
    z = np.asarray(z, dtype=float)
    e = np.exp(-np.abs(z))                     # in (0, 1]: cannot overflow
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def sigmoid_grad(z):
    """Derivative of :func:`sigmoid`: ``s (1 - s)`` with ``s = sigmoid(z)``."""
    s = sigmoid(z)
    return s * (1.0 - s)


def silu(z):
    """Sigmoid linear unit (also called swish): ``z * sigmoid(z)``."""
    return np.asarray(z, dtype=float) * sigmoid(z)


def silu_grad(z):
    """Derivative of :func:`silu`: ``s + z s (1 - s)`` with ``s = sigmoid(z)``."""
    s = sigmoid(z)
    return s * (1.0 + np.asarray(z, dtype=float) * (1.0 - s))
