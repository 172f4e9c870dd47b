"""Exercise (lesson 5): the backward pass of an MLP.

Fill in `backward`, then run the tests next to this file (they build the cache with their
own forward pass, in the format described below):

    pytest -ra test_backward.py

Conventions (as on the site): a batch X has shape (B, d_0), one example per row; layer l
has weights W_l of shape (d_{l-1}, d_l) and a bias b_l of shape (d_l,); the hidden layers
use ReLU and the last layer gives the logits (no activation). Use NumPy only.

The cache of a forward pass on a batch of B rows, for L layers, is a dict:
    "A": [A_0 = X, A_1, ..., A_{L-1}], the input of each layer, A_l of shape (B, d_l);
    "Z": [Z_1, ..., Z_L], the pre-activations Z_l = A_{l-1} W_l + b_l, of shape (B, d_l);
    "W": [W_1, ..., W_L], the weights.
"""

from __future__ import annotations

import numpy as np


def backward(cache: dict, delta: np.ndarray) -> tuple[list, list]:
    """Gradients of the loss with respect to every weight and bias.

    Parameters
    ----------
    cache : dict
        The forward pass's cache for a batch of B rows (see the top of this file).
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
    raise NotImplementedError("backward: write me")
