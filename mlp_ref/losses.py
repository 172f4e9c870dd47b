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

* ``cross_entropy``: ``logsumexp(z) - z_y`` (:func:`scipy.special.logsumexp`);
* ``binary_cross_entropy_with_logits``: ``max(z, 0) - z y + log1p(exp(-|z|))``.

Matched with their output activation the gradients are simple: softmax + cross entropy
and sigmoid + binary cross entropy both give ``(p - y) / B`` with respect to the logits,
and identity + MSE gives ``2 (y_hat - y) / (B K)``.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from mlp_ref.activations import _sigmoid
from mlp_ref.validation import ShapeError, as_float_array, check_labels

__all__ = [
    "cross_entropy", "cross_entropy_grad",
    "binary_cross_entropy_with_logits", "binary_cross_entropy_with_logits_grad",
    "mse", "mse_grad",
]


# --------------------------------------------------------------------------- checks

def _float_dtype(value) -> type:
    return np.float32 if getattr(value, "dtype", None) == np.float32 else np.float64


def _check_weights(weights, n_rows: int, dtype=np.float64) -> np.ndarray | None:
    """Per-example weights: ``None`` or a finite, non-negative ``(n_rows,)`` array, sum > 0."""
    if weights is None:
        return None
    w = as_float_array(weights, "weights", ndim=1, dtype=dtype)
    if w.shape[0] != n_rows:
        raise ShapeError(f"weights: expected {n_rows} values (one per row), received shape {w.shape}")
    if np.any(w < 0):
        raise ValueError(f"weights: expected non-negative values, received minimum {w.min()}")
    if not w.sum() > 0:
        raise ValueError("weights: expected a positive total weight, received sum(weights) = 0 "
                         "(a mask that keeps no row has no mean)")
    return w


def _check_binary_targets(y, logits: np.ndarray, name: str = "y") -> np.ndarray:
    """Targets in [0, 1] with one entry per logit, returned in the logits' shape."""
    t = as_float_array(y, name, dtype=logits.dtype)
    if t.ndim not in (1, 2) or t.size != logits.size or t.shape[0] != logits.shape[0]:
        raise ShapeError(f"{name}: expected shape {logits.shape} (one target per logit), received shape {t.shape}")
    if np.any((t < 0) | (t > 1)):
        raise ValueError(f"{name}: expected targets in [0, 1], received values from {t.min()} to {t.max()}")
    return t.reshape(logits.shape)


def _check_binary_logits(logits) -> np.ndarray:
    z = as_float_array(logits, "logits", dtype=_float_dtype(logits))
    if not (z.ndim == 1 or (z.ndim == 2 and z.shape[1] == 1)):
        raise ShapeError(f"logits: expected shape (B,) or (B, 1), received shape {z.shape}")
    return z


def _check_regression(pred, target) -> tuple[np.ndarray, np.ndarray]:
    p = as_float_array(pred, "pred", dtype=_float_dtype(pred))
    if p.ndim not in (1, 2):
        raise ShapeError(f"pred: expected shape (B,) or (B, K), received shape {p.shape}")
    t = as_float_array(target, "target", dtype=p.dtype)
    if t.shape != p.shape:
        raise ShapeError(f"target: expected shape {p.shape} (the shape of pred), received shape {t.shape}")
    return p, t


# --------------------------------------------------------------------------- kernels
# Unchecked: return (loss, gradient w.r.t. the first argument). Shapes as in the public API.

def _reduce(per_example: np.ndarray, weights: np.ndarray | None) -> tuple[float, np.ndarray]:
    """Mean (or weighted mean) of per-example losses, and d mean / d loss_i of shape (B,)."""
    if weights is None:
        n = per_example.shape[0]
        return float(per_example.sum() / n), np.full(n, 1.0 / n, dtype=per_example.dtype)
    total = weights.sum()
    return float((weights * per_example).sum() / total), weights / total


def _cross_entropy(logits: np.ndarray, y: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    rows = np.arange(logits.shape[0])
    lse = logsumexp(logits, axis=1)                       # (B,)
    loss, scale = _reduce(lse - logits[rows, y], weights)
    grad = np.exp(logits - lse[:, None])                  # softmax, (B, K)
    grad[rows, y] -= 1.0                                  # p - onehot(y)
    grad *= scale[:, None]
    return loss, grad


def _binary_cross_entropy(logits: np.ndarray, y: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    per = np.maximum(logits, 0) - logits * y + np.log1p(np.exp(-np.abs(logits)))
    per_row = per.reshape(per.shape[0])
    loss, scale = _reduce(per_row, weights)
    grad = (_sigmoid(logits) - y) * scale.reshape((-1,) + (1,) * (logits.ndim - 1))
    return loss, grad


def _mse(pred: np.ndarray, target: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    diff = pred - target
    k = 1 if diff.ndim == 1 else diff.shape[1]
    per_row = (diff * diff).reshape(diff.shape[0], k).mean(axis=1)
    loss, scale = _reduce(per_row, weights)
    grad = (2.0 / k) * diff * scale.reshape((-1,) + (1,) * (diff.ndim - 1))
    return loss, grad


# --------------------------------------------------------------------------- public API

def _checked_cross_entropy(logits, y, weights):
    z = as_float_array(logits, "logits", ndim=2, dtype=_float_dtype(logits))
    labels = check_labels(y, z.shape[0], z.shape[1], rows_of="logits")
    return z, labels, _check_weights(weights, z.shape[0], z.dtype)


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
        Non-negative per-example weights or a 0/1 mask; the denominator is ``sum(weights)``.

    Returns
    -------
    float
    """
    return _cross_entropy(*_checked_cross_entropy(logits, y, weights))[0]


def cross_entropy_grad(logits, y, weights=None) -> np.ndarray:
    """Gradient of :func:`cross_entropy` w.r.t. the logits: ``(softmax(z) - onehot(y)) / B``.

    Same arguments as :func:`cross_entropy`; returns shape (B, K) (with weights, row ``i``
    is scaled by ``w_i / sum(w)`` instead of ``1 / B``).
    """
    return _cross_entropy(*_checked_cross_entropy(logits, y, weights))[1]


def _checked_binary(logits, y, weights):
    z = _check_binary_logits(logits)
    return z, _check_binary_targets(y, z), _check_weights(weights, z.shape[0], z.dtype)


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
        Non-negative per-example weights or a 0/1 mask; the denominator is ``sum(weights)``.

    Returns
    -------
    float
    """
    return _binary_cross_entropy(*_checked_binary(logits, y, weights))[0]


def binary_cross_entropy_with_logits_grad(logits, y, weights=None) -> np.ndarray:
    """Gradient of :func:`binary_cross_entropy_with_logits`: ``(sigmoid(z) - y) / B``.

    Returns an array of the logits' shape, (B,) or (B, 1).
    """
    return _binary_cross_entropy(*_checked_binary(logits, y, weights))[1]


def _checked_mse(pred, target, weights):
    p, t = _check_regression(pred, target)
    return p, t, _check_weights(weights, p.shape[0], p.dtype)


def mse(pred, target, weights=None) -> float:
    """Mean squared error: the mean over the batch of ``mean_k (pred_ik - target_ik)**2``.

    (With ``K`` outputs this is the mean over all ``B K`` entries, as PyTorch's
    ``MSELoss()``; it has no factor 1/2.)

    Parameters
    ----------
    pred : array_like, shape (B,) or (B, K)
    target : array_like, same shape as ``pred`` (never broadcast)
    weights : array_like, shape (B,), optional
        Non-negative per-example weights or a 0/1 mask; the denominator is ``sum(weights)``.

    Returns
    -------
    float
    """
    return _mse(*_checked_mse(pred, target, weights))[0]


def mse_grad(pred, target, weights=None) -> np.ndarray:
    """Gradient of :func:`mse` w.r.t. ``pred``: ``2 (pred - target) / (B K)``, ``pred``'s shape."""
    return _mse(*_checked_mse(pred, target, weights))[1]
