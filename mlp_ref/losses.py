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

Each function checks its arguments and then calls the unchecked kernel of
:mod:`mlp_ref.kernels` that computes the loss and its gradient together.
"""

from __future__ import annotations

import numpy as np

from mlp_ref import kernels
from mlp_ref.validation import ShapeError, as_float_array, check_labels, check_weights, float_dtype

__all__ = [
    "cross_entropy", "cross_entropy_grad",
    "binary_cross_entropy_with_logits", "binary_cross_entropy_with_logits_grad",
    "mse", "mse_grad",
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


# --------------------------------------------------------------------------- public API

def _checked_cross_entropy(logits, y, weights):
    z = as_float_array(logits, "logits", ndim=2, dtype=float_dtype(logits))
    labels = check_labels(y, z.shape[0], z.shape[1], rows_of="logits")
    return z, labels, check_weights(weights, z.shape[0], z.dtype)


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
    return kernels.cross_entropy(*_checked_cross_entropy(logits, y, weights))[0]


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
    return kernels.cross_entropy(*_checked_cross_entropy(logits, y, weights))[1]


def _checked_binary(logits, y, weights):
    z = _check_binary_logits(logits)
    return z, _check_binary_targets(y, z), check_weights(weights, z.shape[0], z.dtype)


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
    return kernels.binary_cross_entropy(*_checked_binary(logits, y, weights))[0]


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
    return kernels.binary_cross_entropy(*_checked_binary(logits, y, weights))[1]


def _checked_mse(pred, target, weights):
    p, t = _check_regression(pred, target)
    return p, t, check_weights(weights, p.shape[0], p.dtype)


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
    return kernels.mse(*_checked_mse(pred, target, weights))[0]


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
    return kernels.mse(*_checked_mse(pred, target, weights))[1]
