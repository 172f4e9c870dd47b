"""Unchecked kernels: the arithmetic of activations and losses on arrays already checked.

Every function here trusts its arguments: finite float arrays of the right shapes, labels
in range. The public functions of :mod:`mlp_ref.activations`, :mod:`mlp_ref.losses` and
:class:`mlp_ref.MLP` check their input once and then call these, so an inner loop (a
training step, a finite-difference check) never pays for the checks twice. Anything that
reads input from a user should call the checked functions instead.

Activations: ``name(z)`` and ``name_grad(z)`` take the pre-activation ``z`` of any shape
and return the same shape. ``softmax`` and ``log_softmax`` act on the last axis.

Losses: ``cross_entropy``, ``binary_cross_entropy`` and ``mse`` return
``(loss, dloss/dfirst_argument)``, the loss a Python float and the gradient in the first
argument's shape; see :mod:`mlp_ref.losses` for the reduction (mean over the batch, or a
weighted mean with per-example ``weights``).

Numerical stability: ``sigmoid`` is computed from ``exp(-|z|)``, which never overflows;
``softplus(z) = max(z, 0) + log1p(exp(-|z|))``; ``softmax`` and ``log_softmax`` subtract the
row maximum before ``exp``.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy.special import erf

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_TANH_CUBIC = 0.044715  # the constant of Hendrycks & Gimpel's tanh approximation


# --------------------------------------------------------------------------- activations

def identity(z: np.ndarray) -> np.ndarray:
    return z


def identity_grad(z: np.ndarray) -> np.ndarray:
    return np.ones_like(z)


def relu(z: np.ndarray) -> np.ndarray:
    return np.maximum(z, 0)


def relu_grad(z: np.ndarray) -> np.ndarray:
    # At z = 0 ReLU has no derivative; we use 0 (as PyTorch and scikit-learn do).
    return (z > 0).astype(z.dtype)


def leaky_relu(z: np.ndarray, slope: float = 0.01) -> np.ndarray:
    return np.where(z > 0, z, slope * z)


def leaky_relu_grad(z: np.ndarray, slope: float = 0.01) -> np.ndarray:
    # At z = 0 we use the left derivative, ``slope`` (as for ReLU: the non-positive side).
    return np.where(z > 0, 1.0, slope).astype(z.dtype)


def sigmoid(z: np.ndarray) -> np.ndarray:
    # e = exp(-|z|) lies in (0, 1]: no overflow for any finite z.
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def sigmoid_grad(z: np.ndarray) -> np.ndarray:
    s = sigmoid(z)
    return s * (1.0 - s)


def tanh(z: np.ndarray) -> np.ndarray:
    return np.tanh(z)


def tanh_grad(z: np.ndarray) -> np.ndarray:
    t = np.tanh(z)
    return 1.0 - t * t


def gelu(z: np.ndarray) -> np.ndarray:
    # z * Phi(z), Phi the standard normal CDF written with erf.
    return 0.5 * z * (1.0 + erf(z * _INV_SQRT_2))


def gelu_grad(z: np.ndarray) -> np.ndarray:
    # d/dz [z Phi(z)] = Phi(z) + z phi(z), phi the standard normal density.
    cdf = 0.5 * (1.0 + erf(z * _INV_SQRT_2))
    pdf = _INV_SQRT_2PI * np.exp(-0.5 * z * z)
    return cdf + z * pdf


def gelu_tanh(z: np.ndarray) -> np.ndarray:
    u = _SQRT_2_OVER_PI * (z + _GELU_TANH_CUBIC * z ** 3)
    return 0.5 * z * (1.0 + np.tanh(u))


def gelu_tanh_grad(z: np.ndarray) -> np.ndarray:
    u = _SQRT_2_OVER_PI * (z + _GELU_TANH_CUBIC * z ** 3)
    t = np.tanh(u)
    du = _SQRT_2_OVER_PI * (1.0 + 3.0 * _GELU_TANH_CUBIC * z * z)
    return 0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * du


def silu(z: np.ndarray) -> np.ndarray:
    return z * sigmoid(z)


def silu_grad(z: np.ndarray) -> np.ndarray:
    s = sigmoid(z)
    return s * (1.0 + z * (1.0 - s))


def softplus(z: np.ndarray) -> np.ndarray:
    return np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))


def softplus_grad(z: np.ndarray) -> np.ndarray:
    return sigmoid(z)


def softmax(z: np.ndarray) -> np.ndarray:
    shifted = z - z.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def log_softmax(z: np.ndarray) -> np.ndarray:
    # Written out rather than with scipy's logsumexp, whose per-call overhead is larger than
    # a whole training step of a small network (the character-level model's, for one).
    shifted = z - z.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


#: name -> (activation, derivative); what the network looks up for its hidden layers.
ACTIVATION_KERNELS: dict[str, tuple[Callable, Callable]] = {
    "identity": (identity, identity_grad),
    "relu": (relu, relu_grad),
    "leaky_relu": (leaky_relu, leaky_relu_grad),
    "sigmoid": (sigmoid, sigmoid_grad),
    "tanh": (tanh, tanh_grad),
    "gelu": (gelu, gelu_grad),
    "gelu_tanh": (gelu_tanh, gelu_tanh_grad),
    "silu": (silu, silu_grad),
    "softplus": (softplus, softplus_grad),
}


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
    log_probs = log_softmax(logits)
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
    return loss, (sigmoid(logits) - y) * _per_row(scale, logits.ndim)


def mse(pred: np.ndarray, target: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
    """Mean squared error over the ``K`` outputs of each row, averaged over the rows, and its
    gradient ``2 (pred - target) / K`` times ``1 / B`` (or ``w_i / sum(w)``), ``pred``'s shape."""
    diff = pred - target
    k = 1 if diff.ndim == 1 else diff.shape[1]
    loss, scale = reduce((diff * diff).reshape(diff.shape[0], k).mean(axis=1), weights)
    return loss, (2.0 / k) * diff * _per_row(scale, diff.ndim)


#: MLP output head -> (the head's function, the loss it is trained with, from the logits).
MLP_OUTPUTS: dict[str, tuple[Callable, Callable]] = {
    "identity": (identity, mse),
    "sigmoid": (sigmoid, binary_cross_entropy),
    "softmax": (softmax, cross_entropy),
}
