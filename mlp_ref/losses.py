"""Losses computed from logits, each with its gradient.

Style: every loss ``name(...)`` returns a Python float and has a companion
``name_grad(...)`` taking the same arguments and returning the gradient of that float with
respect to its first argument (the logits or the prediction), with the first argument's shape.

Reduction: the loss is the mean of per-example losses over the **actual** batch size ``B``
(the last, smaller batch of an epoch is divided by its own size). With per-example
``weights`` of shape ``(B,)`` (non-negative; a 0/1 mask is a special case) the loss is
``sum(w_i * loss_i) / sum(w)``, so a mask averages over the rows it keeps; a zero total
weight is an error rather than a division by zero.

The losses work on logits, never on probabilities, so they stay finite where
``log(softmax(z))`` or ``log(sigmoid(z))`` would give ``-inf``:

* ``cross_entropy``: ``-log_softmax(z)_y = logsumexp(z) - z_y``, the row maximum subtracted
  before ``exp``;
* ``binary_cross_entropy_with_logits``: ``max(z, 0) - z y + log1p(exp(-|z|))``.

Matched with their output activation the gradients are simple: softmax + cross entropy
and sigmoid + binary cross entropy both give ``(p - y) / B`` with respect to the logits,
and identity + MSE gives ``2 (y_hat - y) / (B K)``.

Each loss's formula sits just above it, in an unchecked function that computes the loss
and its gradient together (``cross_entropy_and_grad``, ``binary_cross_entropy_and_grad``,
``mse_and_grad``): the network's training step and the labs call those on arrays already
checked. The public functions check their arguments once and then call them.
"""

from __future__ import annotations

import numpy as np

from typing import Callable

from mlp_ref.activations import identity, log_softmax, sigmoid, softmax
from mlp_ref.validation import ShapeError, as_float_array, check_labels, check_weights, float_dtype

__all__ = [
    "cross_entropy", "cross_entropy_grad",
    "binary_cross_entropy_with_logits", "binary_cross_entropy_with_logits_grad",
    "mse", "mse_grad",
    "cross_entropy_and_grad", "binary_cross_entropy_and_grad", "mse_and_grad", "MLP_OUTPUTS",
]


# --------------------------------------------------------------------------- checks

def _check_binary_targets(y, logits: np.ndarray, name: str = "y") -> np.ndarray:
    """Targets in [0, 1] with one entry per logit, returned in the logits' shape."""
    t = as_float_array(y, name, dtype=logits.dtype)
    if t.ndim not in (1, 2) or t.size != logits.size or t.shape[0] != logits.shape[0]:
        raise ShapeError(f"{name}: expected shape {logits.shape} (one target per logit), received shape {t.shape}")
    if np.any((t < 0) | (t > 1)):
        raise ValueError(f"{name}: expected targets in [0, 1], received values from {t.min()} to {t.max()}")
    return t.reshape(logits.shape)


def _check_binary_logits(logits) -> np.ndarray:
    z = as_float_array(logits, "logits", dtype=float_dtype(logits))
    if not (z.ndim == 1 or (z.ndim == 2 and z.shape[1] == 1)):
        raise ShapeError(f"logits: expected shape (B,) or (B, 1), received shape {z.shape}")
    return z


def _check_regression(pred, target) -> tuple[np.ndarray, np.ndarray]:
    p = as_float_array(pred, "pred", dtype=float_dtype(pred))
    if p.ndim not in (1, 2):
        raise ShapeError(f"pred: expected shape (B,) or (B, K), received shape {p.shape}")
    t = as_float_array(target, "target", dtype=p.dtype)
    if t.shape != p.shape:
        raise ShapeError(f"target: expected shape {p.shape} (the shape of pred), received shape {t.shape}")
    return p, t


# --------------------------------------------------------------------------- the losses

def _reduce(per_example: np.ndarray, weights: np.ndarray | None) -> tuple[float, np.ndarray | float]:
    """Mean (or weighted mean) of per-example losses ``(B,)``, and ``d mean / d loss_i``:
    the number ``1 / B`` without weights, the array ``w / sum(w)`` of shape (B,) with them."""
    if weights is None:
        n = per_example.shape[0]
        return float(per_example.sum() / n), 1.0 / n
    total = weights.sum()
    return float((weights * per_example).sum() / total), weights / total


def _per_row(scale, ndim: int):
    """``scale`` from :func:`_reduce`, shaped to multiply an array of ``ndim`` dimensions row by row."""
    return scale if np.ndim(scale) == 0 else scale.reshape((-1,) + (1,) * (ndim - 1))


def _checked_cross_entropy(logits, y, weights):
    z = as_float_array(logits, "logits", ndim=2, dtype=float_dtype(logits))
    labels = check_labels(y, z.shape[0], z.shape[1], rows_of="logits")
    return z, labels, check_weights(weights, z.shape[0], z.dtype)


def cross_entropy_and_grad(logits: np.ndarray, y: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    """Softmax cross entropy of labels ``y`` (B,) given ``logits`` (B, K), and its gradient;
    unchecked (:func:`cross_entropy` checks, then calls it).

    ``loss_i = -log_softmax(z_i)[y_i]``; the gradient is ``(softmax(z) - onehot(y))`` times
    ``1 / B`` (or ``w_i / sum(w)``), shape (B, K).
    """
    rows = np.arange(logits.shape[0])
    log_probs = log_softmax.kernel(logits)
    loss, scale = _reduce(-log_probs[rows, y], weights)
    grad = np.exp(log_probs)                              # softmax, (B, K)
    grad[rows, y] -= 1.0                                  # p - onehot(y)
    if weights is None:
        grad /= logits.shape[0]
    else:
        grad *= scale[:, None]
    return loss, grad


def cross_entropy(logits, y, weights=None) -> float:
    """Mean cross entropy of integer labels under ``softmax(logits)``.

    ``loss_i = logsumexp(z_i) - z_i[y_i]``, averaged over the batch (or weighted, see the
    module docstring).

    Parameters
    ----------
    logits : array_like, shape (B, K)
        Unnormalised scores; any finite values (``(1000, -1000)`` gives a finite loss).
    y : array_like of int, shape (B,)
        Class indices in ``[0, K)``.
    weights : array_like, shape (B,), optional
        Non-negative per-example weights or a 0/1 mask; the denominator is ``sum(weights)``
        (see *Reduction* in the module docstring).

    Returns
    -------
    float
        The weighted mean of ``loss_i``, in nats.
    """
    return cross_entropy_and_grad(*_checked_cross_entropy(logits, y, weights))[0]


def cross_entropy_grad(logits, y, weights=None) -> np.ndarray:
    """Gradient of :func:`cross_entropy` w.r.t. the logits: ``(softmax(z) - onehot(y)) / B``.

    Parameters
    ----------
    logits : array_like, shape (B, K)
        Unnormalised scores.
    y : array_like of int, shape (B,)
        Class indices in ``[0, K)``.
    weights : array_like, shape (B,), optional
        As for :func:`cross_entropy`: row ``i`` is then scaled by ``w_i / sum(w)`` instead of
        ``1 / B``.

    Returns
    -------
    numpy.ndarray, shape (B, K)
    """
    return cross_entropy_and_grad(*_checked_cross_entropy(logits, y, weights))[1]


def _checked_binary(logits, y, weights):
    z = _check_binary_logits(logits)
    return z, _check_binary_targets(y, z), check_weights(weights, z.shape[0], z.dtype)


def binary_cross_entropy_and_grad(logits: np.ndarray, y: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    """Binary cross entropy of targets ``y`` in [0, 1] given logits (B,) or (B, 1), and its
    gradient ``(sigmoid(z) - y)`` times ``1 / B`` (or ``w_i / sum(w)``), the logits' shape;
    unchecked (:func:`binary_cross_entropy_with_logits` checks, then calls it)."""
    per = np.maximum(logits, 0) - logits * y + np.log1p(np.exp(-np.abs(logits)))
    loss, scale = _reduce(per.reshape(per.shape[0]), weights)
    return loss, (sigmoid.kernel(logits) - y) * _per_row(scale, logits.ndim)


def binary_cross_entropy_with_logits(logits, y, weights=None) -> float:
    """Mean binary cross entropy of targets ``y`` under ``sigmoid(logits)``.

    Computed as ``max(z, 0) - z y + log1p(exp(-|z|))``, which equals
    ``-(y log s + (1 - y) log(1 - s))`` with ``s = sigmoid(z)`` but never takes the log of 0.

    Parameters
    ----------
    logits : array_like, shape (B,) or (B, 1)
    y : array_like, shape (B,) or (B, 1)
        Targets in [0, 1] (hard labels 0/1 or soft labels); one per logit.
    weights : array_like, shape (B,), optional
        As for :func:`cross_entropy`.

    Returns
    -------
    float
        In nats, like :func:`cross_entropy`: ``log 2`` for ``z = 0``, whatever ``y``.
    """
    return binary_cross_entropy_and_grad(*_checked_binary(logits, y, weights))[0]


def binary_cross_entropy_with_logits_grad(logits, y, weights=None) -> np.ndarray:
    """Gradient of :func:`binary_cross_entropy_with_logits`: ``(sigmoid(z) - y) / B``.

    Parameters
    ----------
    logits : array_like, shape (B,) or (B, 1)
    y : array_like, shape (B,) or (B, 1)
        Targets in [0, 1]; one per logit.
    weights : array_like, shape (B,), optional
        As for :func:`cross_entropy`.

    Returns
    -------
    numpy.ndarray, the shape of ``logits``
    """
    return binary_cross_entropy_and_grad(*_checked_binary(logits, y, weights))[1]


def _checked_mse(pred, target, weights):
    p, t = _check_regression(pred, target)
    return p, t, check_weights(weights, p.shape[0], p.dtype)


def mse_and_grad(pred: np.ndarray, target: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    """Mean squared error over the ``K`` outputs of each row, averaged over the rows, and its
    gradient ``2 (pred - target) / K`` times ``1 / B`` (or ``w_i / sum(w)``), ``pred``'s shape;
    unchecked (:func:`mse` checks, then calls it)."""
    diff = pred - target
    k = 1 if diff.ndim == 1 else diff.shape[1]
    loss, scale = _reduce((diff * diff).reshape(diff.shape[0], k).mean(axis=1), weights)
    return loss, (2.0 / k) * diff * _per_row(scale, diff.ndim)


def mse(pred, target, weights=None) -> float:
    """Mean squared error: the mean over the batch of ``mean_k (pred_ik - target_ik)**2``.

    (With ``K`` outputs this is the mean over all ``B K`` entries, as PyTorch's
    ``MSELoss()``; it has no factor 1/2.)

    Parameters
    ----------
    pred : array_like, shape (B,) or (B, K)
    target : array_like, same shape as ``pred`` (never broadcast)
    weights : array_like, shape (B,), optional
        As for :func:`cross_entropy`.

    Returns
    -------
    float
        In the squared units of ``target``.
    """
    return mse_and_grad(*_checked_mse(pred, target, weights))[0]


def mse_grad(pred, target, weights=None) -> np.ndarray:
    """Gradient of :func:`mse` w.r.t. ``pred``: ``2 (pred - target) / (B K)``.

    Parameters
    ----------
    pred : array_like, shape (B,) or (B, K)
    target : array_like, same shape as ``pred`` (never broadcast)
    weights : array_like, shape (B,), optional
        As for :func:`cross_entropy`.

    Returns
    -------
    numpy.ndarray, the shape of ``pred``
    """
    return mse_and_grad(*_checked_mse(pred, target, weights))[1]


#: MLP output head -> (the head's function, the loss it is trained with, from the logits).
MLP_OUTPUTS: dict[str, tuple[Callable, Callable]] = {
    "identity": (identity.kernel, mse_and_grad),
    "sigmoid": (sigmoid.kernel, binary_cross_entropy_and_grad),
    "softmax": (softmax.kernel, cross_entropy_and_grad),
}
