"""Unchecked kernels of the losses: the arithmetic on arrays already checked.

Every function here trusts its arguments: finite float arrays of the right shapes, labels
in range. The public functions of :mod:`mlp_ref.losses` and :class:`mlp_ref.MLP` check their
input once and then call these, so an inner loop (a training step, a finite-difference
check) never pays for the checks twice. Anything that reads input from a user should call
the checked functions instead. (The activations' formulas sit in :mod:`mlp_ref.activations`,
each under its name; their unchecked forms are its ``ACTIVATION_KERNELS``.)

``cross_entropy``, ``binary_cross_entropy`` and ``mse`` return ``(loss, dloss/dfirst_argument)``,
the loss a Python float and the gradient in the first argument's shape; see
:mod:`mlp_ref.losses` for the reduction (mean over the batch, or a weighted mean with
per-example ``weights``). Numerical stability: the losses work on logits, with the row
maximum subtracted before ``exp`` (``log_softmax``) and ``exp(-|z|)``, which never overflows.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from mlp_ref.activations import identity, log_softmax, sigmoid, softmax


# --------------------------------------------------------------------------- losses

def reduce(per_example: np.ndarray, weights: np.ndarray | None) -> tuple[float, np.ndarray | float]:
    """Mean (or weighted mean) of per-example losses ``(B,)``, and ``d mean / d loss_i``:
    the number ``1 / B`` without weights, the array ``w / sum(w)`` of shape (B,) with them."""
    if weights is None:
        n = per_example.shape[0]
        return float(per_example.sum() / n), 1.0 / n
    total = weights.sum()
    return float((weights * per_example).sum() / total), weights / total


def _per_row(scale, ndim: int):
    """``scale`` from :func:`reduce`, shaped to multiply an array of ``ndim`` dimensions row by row."""
    return scale if np.ndim(scale) == 0 else scale.reshape((-1,) + (1,) * (ndim - 1))


def cross_entropy(logits: np.ndarray, y: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    """Softmax cross entropy of labels ``y`` (B,) given ``logits`` (B, K), and its gradient.

    ``loss_i = -log_softmax(z_i)[y_i]``; the gradient is ``(softmax(z) - onehot(y))`` times
    ``1 / B`` (or ``w_i / sum(w)``), shape (B, K).
    """
    rows = np.arange(logits.shape[0])
    log_probs = log_softmax.kernel(logits)
    loss, scale = reduce(-log_probs[rows, y], weights)
    grad = np.exp(log_probs)                              # softmax, (B, K)
    grad[rows, y] -= 1.0                                  # p - onehot(y)
    if weights is None:
        grad /= logits.shape[0]
    else:
        grad *= scale[:, None]
    return loss, grad


def binary_cross_entropy(logits: np.ndarray, y: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    """Binary cross entropy of targets ``y`` in [0, 1] given logits (B,) or (B, 1), and its
    gradient ``(sigmoid(z) - y)`` times ``1 / B`` (or ``w_i / sum(w)``), the logits' shape."""
    per = np.maximum(logits, 0) - logits * y + np.log1p(np.exp(-np.abs(logits)))
    loss, scale = reduce(per.reshape(per.shape[0]), weights)
    return loss, (sigmoid.kernel(logits) - y) * _per_row(scale, logits.ndim)


def mse(pred: np.ndarray, target: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    """Mean squared error over the ``K`` outputs of each row, averaged over the rows, and its
    gradient ``2 (pred - target) / K`` times ``1 / B`` (or ``w_i / sum(w)``), ``pred``'s shape."""
    diff = pred - target
    k = 1 if diff.ndim == 1 else diff.shape[1]
    loss, scale = reduce((diff * diff).reshape(diff.shape[0], k).mean(axis=1), weights)
    return loss, (2.0 / k) * diff * _per_row(scale, diff.ndim)


#: MLP output head -> (the head's function, the loss it is trained with, from the logits).
MLP_OUTPUTS: dict[str, tuple[Callable, Callable]] = {
    "identity": (identity.kernel, mse),
    "sigmoid": (sigmoid.kernel, binary_cross_entropy),
    "softmax": (softmax.kernel, cross_entropy),
}
