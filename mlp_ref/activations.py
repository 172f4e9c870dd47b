"""Activation functions and their derivatives.

Every elementwise activation ``f`` comes with its derivative ``f'`` (written ``<name>_grad``),
both taking the *pre-activation* ``z`` of any shape and returning an array of the same shape.
The pairs are gathered in one table, :data:`ACTIVATIONS`, so that a name string such as
``"relu"`` selects both the forward function and the derivative the backward pass needs
(the same design as scikit-learn's ``neural_network/_base.py``).

``softmax`` and ``log_softmax`` are not elementwise: they act on the last axis, for
example on logits of shape ``(B, K)``. Their derivative is only ever needed combined with
cross entropy, where it simplifies to ``softmax(z) - onehot(y)`` (see :mod:`mlp_ref.losses`).

Each public function checks its input once (finite, numeric, non-empty) and then calls a
private unchecked kernel (``_relu``, ...). The network and the training loop call the
kernels directly through :data:`_KERNELS`, so an inner loop never pays for the checks twice.

Numerical stability
-------------------
* ``sigmoid`` is computed from ``exp(-|z|)``, which never overflows: at ``z = ±1000`` it
  returns exactly 1 and 0 with no warning.
* ``softplus(z) = max(z, 0) + log1p(exp(-|z|))`` for the same reason.
* ``softmax`` / ``log_softmax`` subtract the row maximum (``log_softmax`` uses
  :func:`scipy.special.logsumexp`).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from scipy.special import erf, logsumexp

from mlp_ref.validation import as_float_array

__all__ = [
    "ACTIVATIONS",
    "get_activation",
    "identity", "identity_grad",
    "relu", "relu_grad",
    "leaky_relu", "leaky_relu_grad",
    "sigmoid", "sigmoid_grad",
    "tanh", "tanh_grad",
    "gelu", "gelu_grad",
    "gelu_tanh", "gelu_tanh_grad",
    "silu", "silu_grad",
    "softplus", "softplus_grad",
    "softmax", "log_softmax",
]

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_TANH_CUBIC = 0.044715  # the constant of Hendrycks & Gimpel's tanh approximation


def _as_z(z, name: str = "z") -> np.ndarray:
    """Check ``z`` once: numeric, finite, non-empty; keep float32 as float32."""
    dtype = np.float32 if getattr(z, "dtype", None) == np.float32 else np.float64
    return as_float_array(z, name, dtype=dtype)


# --------------------------------------------------------------------------- kernels
# Unchecked kernels: z is already a finite float ndarray. Shapes: any -> same shape.

def _identity(z: np.ndarray) -> np.ndarray:
    return z


def _identity_grad(z: np.ndarray) -> np.ndarray:
    return np.ones_like(z)


def _relu(z: np.ndarray) -> np.ndarray:
    return np.maximum(z, 0)


def _relu_grad(z: np.ndarray) -> np.ndarray:
    # At z = 0 ReLU has no derivative; we use 0 (as PyTorch and scikit-learn do).
    return (z > 0).astype(z.dtype)


def _leaky_relu(z: np.ndarray, slope: float = 0.01) -> np.ndarray:
    return np.where(z > 0, z, slope * z)


def _leaky_relu_grad(z: np.ndarray, slope: float = 0.01) -> np.ndarray:
    # At z = 0 we use the left derivative, ``slope`` (as for ReLU: the non-positive side).
    return np.where(z > 0, 1.0, slope).astype(z.dtype)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    # e = exp(-|z|) lies in (0, 1]: no overflow for any finite z.
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _sigmoid_grad(z: np.ndarray) -> np.ndarray:
    s = _sigmoid(z)
    return s * (1.0 - s)


def _tanh(z: np.ndarray) -> np.ndarray:
    return np.tanh(z)


def _tanh_grad(z: np.ndarray) -> np.ndarray:
    t = np.tanh(z)
    return 1.0 - t * t


def _gelu(z: np.ndarray) -> np.ndarray:
    # z * Phi(z), Phi the standard normal CDF written with erf.
    return 0.5 * z * (1.0 + erf(z * _INV_SQRT_2))


def _gelu_grad(z: np.ndarray) -> np.ndarray:
    # d/dz [z Phi(z)] = Phi(z) + z phi(z), phi the standard normal density.
    cdf = 0.5 * (1.0 + erf(z * _INV_SQRT_2))
    pdf = _INV_SQRT_2PI * np.exp(-0.5 * z * z)
    return cdf + z * pdf


def _gelu_tanh(z: np.ndarray) -> np.ndarray:
    u = _SQRT_2_OVER_PI * (z + _GELU_TANH_CUBIC * z ** 3)
    return 0.5 * z * (1.0 + np.tanh(u))


def _gelu_tanh_grad(z: np.ndarray) -> np.ndarray:
    u = _SQRT_2_OVER_PI * (z + _GELU_TANH_CUBIC * z ** 3)
    t = np.tanh(u)
    du = _SQRT_2_OVER_PI * (1.0 + 3.0 * _GELU_TANH_CUBIC * z * z)
    return 0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * du


def _silu(z: np.ndarray) -> np.ndarray:
    return z * _sigmoid(z)


def _silu_grad(z: np.ndarray) -> np.ndarray:
    s = _sigmoid(z)
    return s * (1.0 + z * (1.0 - s))


def _softplus(z: np.ndarray) -> np.ndarray:
    return np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))


def _softplus_grad(z: np.ndarray) -> np.ndarray:
    return _sigmoid(z)


def _softmax(z: np.ndarray) -> np.ndarray:
    shifted = z - z.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def _log_softmax(z: np.ndarray) -> np.ndarray:
    return z - logsumexp(z, axis=-1, keepdims=True)


#: name -> (kernel, derivative kernel), both unchecked; used inside the network.
_KERNELS: dict[str, tuple[Callable, Callable]] = {
    "identity": (_identity, _identity_grad),
    "relu": (_relu, _relu_grad),
    "leaky_relu": (_leaky_relu, _leaky_relu_grad),
    "sigmoid": (_sigmoid, _sigmoid_grad),
    "tanh": (_tanh, _tanh_grad),
    "gelu": (_gelu, _gelu_grad),
    "gelu_tanh": (_gelu_tanh, _gelu_tanh_grad),
    "silu": (_silu, _silu_grad),
    "softplus": (_softplus, _softplus_grad),
}


# --------------------------------------------------------------------------- public API

def identity(z) -> np.ndarray:
    """Identity ``f(z) = z``. ``z``: any shape; returns the same shape."""
    return _identity(_as_z(z))


def identity_grad(z) -> np.ndarray:
    """Derivative of :func:`identity`: ones of the shape of ``z``."""
    return _identity_grad(_as_z(z))


def relu(z) -> np.ndarray:
    """Rectified linear unit ``max(z, 0)``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
    """
    return _relu(_as_z(z))


def relu_grad(z) -> np.ndarray:
    """Derivative of :func:`relu`: 1 where ``z > 0``, else 0.

    ReLU has no derivative at ``z = 0``; this function returns **0 there**, the convention
    of PyTorch and scikit-learn. (It is why an all-zero first layer with zero bias never
    learns under ReLU.) ``z``: any shape; returns the same shape.
    """
    return _relu_grad(_as_z(z))


def leaky_relu(z, slope: float = 0.01) -> np.ndarray:
    """Leaky ReLU: ``z`` where ``z > 0``, else ``slope * z``. ``z``: any shape -> same shape."""
    return _leaky_relu(_as_z(z), slope)


def leaky_relu_grad(z, slope: float = 0.01) -> np.ndarray:
    """Derivative of :func:`leaky_relu`: 1 where ``z > 0``, else ``slope`` (also at 0)."""
    return _leaky_relu_grad(_as_z(z), slope)


def sigmoid(z) -> np.ndarray:
    """Logistic sigmoid ``1 / (1 + exp(-z))``, computed without overflow.

    Written with ``e = exp(-|z|)``: ``1 / (1 + e)`` for ``z >= 0`` and ``e / (1 + e)``
    otherwise, so ``sigmoid(±1000)`` gives 1 and 0 with no warning.
    ``z``: any shape; returns the same shape, values in [0, 1].
    """
    return _sigmoid(_as_z(z))


def sigmoid_grad(z) -> np.ndarray:
    """Derivative of :func:`sigmoid`: ``s (1 - s)`` with ``s = sigmoid(z)``; at most 1/4."""
    return _sigmoid_grad(_as_z(z))


def tanh(z) -> np.ndarray:
    """Hyperbolic tangent. ``z``: any shape; returns the same shape, values in [-1, 1]."""
    return _tanh(_as_z(z))


def tanh_grad(z) -> np.ndarray:
    """Derivative of :func:`tanh`: ``1 - tanh(z)**2``; at most 1 (at ``z = 0``)."""
    return _tanh_grad(_as_z(z))


def gelu(z) -> np.ndarray:
    """Gaussian error linear unit, exact form ``z * Phi(z) = z/2 * (1 + erf(z / sqrt 2))``.

    ``z``: any shape; returns the same shape. (PyTorch ``approximate="none"``.)
    """
    return _gelu(_as_z(z))


def gelu_grad(z) -> np.ndarray:
    """Derivative of :func:`gelu`: ``Phi(z) + z * phi(z)`` (normal CDF and density)."""
    return _gelu_grad(_as_z(z))


def gelu_tanh(z) -> np.ndarray:
    """GELU's tanh approximation ``z/2 * (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3)))``.

    The form used by GPT-2 (``gelu_new``) and PyTorch ``approximate="tanh"``.
    ``z``: any shape; returns the same shape.
    """
    return _gelu_tanh(_as_z(z))


def gelu_tanh_grad(z) -> np.ndarray:
    """Derivative of :func:`gelu_tanh` (by the chain rule through the tanh)."""
    return _gelu_tanh_grad(_as_z(z))


def silu(z) -> np.ndarray:
    """Sigmoid linear unit (swish) ``z * sigmoid(z)``. ``z``: any shape -> same shape."""
    return _silu(_as_z(z))


def silu_grad(z) -> np.ndarray:
    """Derivative of :func:`silu`: ``s (1 + z (1 - s))`` with ``s = sigmoid(z)``."""
    return _silu_grad(_as_z(z))


def softplus(z) -> np.ndarray:
    """Softplus ``log(1 + exp(z))``, computed stably as ``max(z, 0) + log1p(exp(-|z|))``.

    ``z``: any shape; returns the same shape, values > 0 (except where they underflow to 0).
    """
    return _softplus(_as_z(z))


def softplus_grad(z) -> np.ndarray:
    """Derivative of :func:`softplus`: ``sigmoid(z)``."""
    return _softplus_grad(_as_z(z))


def softmax(z) -> np.ndarray:
    """Softmax over the last axis, ``exp(z_k) / sum_j exp(z_j)``, shifted by the row max.

    Parameters
    ----------
    z : array_like, shape (..., K)
        Logits; usually ``(B, K)``.

    Returns
    -------
    numpy.ndarray, shape (..., K)
        Non-negative, each row sums to 1; unchanged when a constant is added to a row.
    """
    return _softmax(_as_z(z, "logits"))


def log_softmax(z) -> np.ndarray:
    """Logarithm of :func:`softmax` over the last axis, ``z - logsumexp(z)``.

    Stays finite where ``log(softmax(z))`` would give ``-inf`` (e.g. logits ``(1000, -1000)``).
    ``z``: shape (..., K); returns shape (..., K).
    """
    return _log_softmax(_as_z(z, "logits"))


#: name -> (activation, derivative). Both take the pre-activation ``z`` (any shape).
ACTIVATIONS: dict[str, tuple[Callable, Callable]] = {
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


def _check_activation_name(name, table: dict = _KERNELS, what: str = "activation") -> str:
    if not isinstance(name, str) or name not in table:
        raise ValueError(f"{what}: unknown name {name!r}; valid names are {', '.join(sorted(table))}")
    return name


def get_activation(name: str) -> tuple[Callable, Callable]:
    """Return ``(function, derivative)`` for an activation name from :data:`ACTIVATIONS`.

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid names.
    """
    return ACTIVATIONS[_check_activation_name(name, ACTIVATIONS)]
