"""Exercise (lesson 9): the transformer's feed-forward block and top-k routing.

Fill in the two functions, then run the tests next to this file:

    pytest test_my_ffn.py

Conventions (as on the site): a batch of sequences X has shape (B, T, d), the model width
d on the last axis; weights have shape (d_in, d_out), biases (d_out,). Use NumPy only.
"""

from __future__ import annotations

import numpy as np


def ffn(X: np.ndarray, W1: np.ndarray, b1: np.ndarray, W2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """Position-wise feed-forward block relu(X W1 + b1) W2 + b2.

    Parameters
    ----------
    X : numpy.ndarray, shape (B, T, d)
        B sequences of T positions of width d.
    W1 : numpy.ndarray, shape (d, d_ff)
    b1 : numpy.ndarray, shape (d_ff,)
    W2 : numpy.ndarray, shape (d_ff, d)
    b2 : numpy.ndarray, shape (d,)

    Returns
    -------
    numpy.ndarray, shape (B, T, d)
        Row [b, t] must depend on X[b, t] only.

    Raises
    ------
    ValueError
        If X is not 3-D, or its last axis is not W1's first (say which shapes you got).
    """
    raise NotImplementedError("ffn: write me (hint: @ acts on the last axis)")


def route_top_k(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """For every token, the k experts with the largest scores, and a softmax over those k.

    Parameters
    ----------
    scores : numpy.ndarray, shape (N, E)
        Router scores of E experts for N tokens.
    k : int
        Experts per token, 1 <= k <= E.

    Returns
    -------
    experts : numpy.ndarray of int, shape (N, k)
        Indices of the chosen experts, largest score first; on a tie the lower index first.
    weights : numpy.ndarray, shape (N, k)
        exp(score) of each chosen expert divided by the sum over the k chosen; rows sum to 1.
        Must not overflow for scores such as 1000.
    """
    raise NotImplementedError("route_top_k: write me (hint: np.argsort with kind='stable')")
