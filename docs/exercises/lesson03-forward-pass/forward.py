"""Exercise (lesson 3): the forward pass of a two-layer network, with its cache.

Fill in the three functions, then run the tests next to this file:

    pytest test_forward.py

Conventions (as on the site): a batch X has shape (B, d_in), one example per row; a
layer's weights W have shape (d_in, d_out) and its bias b shape (d_out,). Use NumPy only.
"""

from __future__ import annotations

import numpy as np


def relu(z: np.ndarray) -> np.ndarray:
    """ReLU, elementwise: max(0, z).

    Parameters
    ----------
    z : numpy.ndarray, any shape

    Returns
    -------
    numpy.ndarray, same shape as z
    """
    raise NotImplementedError("relu: write me (hint: np.maximum)")


def sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic sigmoid 1 / (1 + exp(-z)), elementwise, without overflow.

    Parameters
    ----------
    z : numpy.ndarray, any shape
        May hold large values such as -1000 or 1000: the result must then be 0 or 1
        with no overflow warning. (Hint: for z < 0 use exp(z) / (1 + exp(z)), which only
        ever takes exp of a non-positive number.)

    Returns
    -------
    numpy.ndarray, same shape as z, values in [0, 1]
    """
    raise NotImplementedError("sigmoid: write me")


def forward(X: np.ndarray, W1: np.ndarray, b1: np.ndarray,
            W2: np.ndarray, b2: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Forward pass of a d_in -> h -> 1 network: ReLU hidden layer, sigmoid output.

    Parameters
    ----------
    X : numpy.ndarray, shape (B, d_in)
        A batch. A 1-D array is refused: raise ValueError with a message that names X
        and says that a single example must have shape (1, d_in).
    W1 : numpy.ndarray, shape (d_in, h)
    b1 : numpy.ndarray, shape (h,)
    W2 : numpy.ndarray, shape (h, 1)
    b2 : numpy.ndarray, shape (1,)

    Returns
    -------
    Y : numpy.ndarray, shape (B, 1)
        The probability of class 1 for each row.
    cache : dict of str -> numpy.ndarray
        The intermediates the backward pass needs, under these keys:
        "X" (B, d_in), "Z1" = X W1 + b1 (B, h), "A1" = relu(Z1) (B, h),
        "Z2" = A1 W2 + b2 (B, 1), "Y" = sigmoid(Z2) (B, 1).
        Do not modify the caller's arrays.
    """
    raise NotImplementedError("forward: write me")
