"""Lesson 4 exercise: write an activation and its derivative.

Fill in the four functions below with NumPy, then run the tests in this folder:

    pytest test_my_activations.py

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

    Hint: ``exp(-|z|)`` is never larger than 1. Use it in both halves of ``np.where``.
    """
    raise NotImplementedError("write sigmoid")


def sigmoid_grad(z):
    """Derivative of :func:`sigmoid`: ``s (1 - s)`` with ``s = sigmoid(z)``.

    ``z``: any shape; returns the same shape, values in [0, 1/4].
    """
    raise NotImplementedError("write sigmoid_grad")


def silu(z):
    """Sigmoid linear unit (also called swish): ``z * sigmoid(z)``.

    ``z``: any shape; returns the same shape.
    """
    raise NotImplementedError("write silu")


def silu_grad(z):
    """Derivative of :func:`silu`, by the product rule: ``s + z s (1 - s)``, ``s = sigmoid(z)``.

    ``z``: any shape; returns the same shape.
    """
    raise NotImplementedError("write silu_grad")
