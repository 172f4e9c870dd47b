"""Reference solution of the lesson 5 exercise (one possible solution): the backward pass.

Conventions (as on the site): a batch X has shape (B, d_0), one example per row; layer l
has weights W_l of shape (d_{l-1}, d_l) and a bias b_l of shape (d_l,); the hidden layers
use ReLU and the last layer gives the logits (no activation). Use NumPy only.
"""

from __future__ import annotations

import numpy as np


def forward(X: np.ndarray, weights: list, biases: list) -> tuple[np.ndarray, dict]:
    """Forward pass, keeping what the backward pass needs.

    Parameters
    ----------
    X : numpy.ndarray, shape (B, d_0)
    weights : list of numpy.ndarray, shapes (d_{l-1}, d_l), l = 1..L
    biases : list of numpy.ndarray, shapes (d_l,)

    Returns
    -------
    logits : numpy.ndarray, shape (B, d_L)
    cache : dict
        "A": [A_0 = X, A_1, ..., A_{L-1}], the input of each layer, A_l of shape (B, d_l);
        "Z": [Z_1, ..., Z_L], the pre-activations, Z_l of shape (B, d_l);
        "W": the weights, as passed.
    """
    A, activations, pre_activations = X, [X], []
    for l, (W, b) in enumerate(zip(weights, biases), start=1):
        Z = A @ W + b
        pre_activations.append(Z)
        if l < len(weights):
            A = np.maximum(Z, 0.0)
            activations.append(A)
    return Z, {"A": activations, "Z": pre_activations, "W": list(weights)}


def softmax_cross_entropy(logits: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross entropy of integer labels (B,) and its gradient dL/dlogits, (B, K)."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    B = len(labels)
    loss = -log_p[np.arange(B), labels].mean()
    delta = np.exp(log_p)
    delta[np.arange(B), labels] -= 1.0
    return float(loss), delta / B


def backward(cache: dict, delta: np.ndarray) -> tuple[list, list]:
    """Gradients of the loss with respect to every weight and bias.

    Parameters
    ----------
    cache : dict
        As returned by `forward` for a batch of B rows.
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
