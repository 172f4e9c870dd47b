"""Reference solution (lesson 3): the forward pass of a two-layer network, with its cache.

Conventions (as on the site): a batch X has shape (B, d_in), one example per row; a
layer's weights W have shape (d_in, d_out) and its bias b shape (d_out,).
"""

from __future__ import annotations

import numpy as np


def relu(z: np.ndarray) -> np.ndarray:
    """ReLU, elementwise: max(0, z). Same shape as ``z``."""
    return np.maximum(z, 0.0)


def sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic sigmoid 1 / (1 + exp(-z)), elementwise, without overflow.

    exp is only ever taken of -|z| <= 0, so it cannot overflow; for z >= 0 this is
    1 / (1 + e^{-z}) and for z < 0 the equal e^{z} / (1 + e^{z}).
    """
    z = np.asarray(z, dtype=float)
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def forward(X: np.ndarray, W1: np.ndarray, b1: np.ndarray,
            W2: np.ndarray, b2: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Forward pass of a d_in -> h -> 1 network: ReLU hidden layer, sigmoid output.

    X (B, d_in), W1 (d_in, h), b1 (h,), W2 (h, 1), b2 (1,). Returns Y (B, 1) and the cache
    {"X", "Z1", "A1", "Z2", "Y"} with shapes (B, d_in), (B, h), (B, h), (B, 1), (B, 1).
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X: expected a 2-D array (B, d_in), received shape {X.shape}; "
                         "a single example must have shape (1, d_in)")
    Z1 = X @ W1 + b1          # (B, h)
    A1 = relu(Z1)             # (B, h)
    Z2 = A1 @ W2 + b2         # (B, 1)
    Y = sigmoid(Z2)           # (B, 1)
    return Y, {"X": X, "Z1": Z1, "A1": A1, "Z2": Z2, "Y": Y}
