"""Reference solution of the lesson 9 exercise (one possible solution)."""

from __future__ import annotations

import numpy as np


def ffn(X: np.ndarray, W1: np.ndarray, b1: np.ndarray, W2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """Position-wise feed-forward block relu(X W1 + b1) W2 + b2; X (B, T, d) -> (B, T, d)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 3:
        raise ValueError(f"X: expected shape (B, T, d), received shape {X.shape}")
    if X.shape[-1] != W1.shape[0]:
        raise ValueError(f"X: expected width {W1.shape[0]} on the last axis to match W1 {W1.shape}, "
                         f"received shape {X.shape}")
    # matmul treats the leading axes (B, T) as a batch: every position gets the same MLP.
    return np.maximum(0.0, X @ W1 + b1) @ W2 + b2


def route_top_k(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-k experts per token (ties to the lower index) and a softmax over the chosen k."""
    scores = np.asarray(scores, dtype=float)
    if not 1 <= k <= scores.shape[1]:
        raise ValueError(f"k: expected 1 <= k <= {scores.shape[1]}, received {k}")
    experts = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    chosen = np.take_along_axis(scores, experts, axis=1)
    # subtract the row maximum so exp never overflows
    e = np.exp(chosen - chosen.max(axis=1, keepdims=True))
    return experts, e / e.sum(axis=1, keepdims=True)
