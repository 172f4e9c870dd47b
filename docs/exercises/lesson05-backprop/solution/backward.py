"""Reference solution of the lesson 5 exercise (one possible solution): the backward pass.

Conventions (as on the site): a batch X has shape (B, d_0), one example per row; layer l
has weights W_l of shape (d_{l-1}, d_l) and a bias b_l of shape (d_l,); the hidden layers
use ReLU and the last layer gives the logits (no activation). Use NumPy only.
"""

from __future__ import annotations

import numpy as np


def backward(cache: dict, delta: np.ndarray) -> tuple[list, list]:
    """Gradients of the loss with respect to every weight and bias.

    Parameters
    ----------
    cache : dict
        The forward pass's cache for a batch of B rows: "A" [A_0 = X, ..., A_{L-1}],
        "Z" [Z_1, ..., Z_L], "W" [W_1, ..., W_L].
    delta : numpy.ndarray, shape (B, d_L)
        dL/dZ_L, the gradient of the loss with respect to the logits (it already holds the
        batch mean's 1/B). A delta of another shape is refused: raise ValueError with a
        message that names delta and gives the expected and the received shape.

    Returns
    -------
    grad_weights : list of numpy.ndarray
        dL/dW_l, the same shapes as cache["W"], in the same order (layer 1 first).
    grad_biases : list of numpy.ndarray
        dL/db_l, shapes (d_l,).

    Going down from the last layer: dW_l = A_{l-1}^T Delta_l, db_l = the column sums of
    Delta_l, and Delta_{l-1} = (Delta_l W_l^T) * relu'(Z_{l-1}), with relu'(z) = 1 where
    z > 0 and 0 elsewhere. Do not modify the arrays in the cache.
    """
    Z_L = cache["Z"][-1]
    if np.shape(delta) != Z_L.shape:
        raise ValueError(f"delta: expected shape {Z_L.shape} (the logits' shape, (B, d_L)), "
                         f"received shape {np.shape(delta)}")
    A, Z, weights = cache["A"], cache["Z"], cache["W"]
    grad_weights, grad_biases = [None] * len(weights), [None] * len(weights)
    for l in range(len(weights) - 1, -1, -1):          # l = L-1 .. 0, layer l + 1 of the text
        grad_weights[l] = A[l].T @ delta                # (d_{l}, B) @ (B, d_{l+1})
        grad_biases[l] = delta.sum(axis=0)              # (d_{l+1},)
        if l > 0:                                       # the input X needs no gradient
            delta = (delta @ weights[l].T) * (Z[l - 1] > 0.0)
    return grad_weights, grad_biases
