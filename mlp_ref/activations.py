"""Activation functions and their derivatives.

Every elementwise activation ``f`` comes with its derivative ``f'`` (written ``<name>_grad``),
both taking the *pre-activation* ``z`` of any shape and returning an array of the same shape.
The pairs are gathered in one table, :data:`ACTIVATIONS`, so that a name string such as
``"relu"`` selects both the forward function and the derivative the backward pass needs
(the same design as scikit-learn's ``neural_network/_base.py``).

``softmax`` and ``log_softmax`` are not elementwise: they act on the last axis, for
example on logits of shape ``(B, K)``. Their derivative is only ever needed combined with
cross entropy, where it simplifies to ``softmax(z) - onehot(y)`` (see :mod:`mlp_ref.losses`).

Each function holds its formula, under its docstring. It checks its input once (finite,
numeric, non-empty) and then computes; the formula on its own, unchecked, is the function's
``.kernel`` (``relu.kernel``). The network and the training loop call those directly
(:data:`ACTIVATION_KERNELS`), so an inner loop never pays for the checks twice.

Numerical stability
-------------------
* ``sigmoid`` is computed from ``exp(-|z|)``, which never overflows: at ``z = ±1000`` it
  returns exactly 1 and 0 with no warning.
* ``softplus(z) = max(z, 0) + log1p(exp(-|z|))`` for the same reason.
* ``softmax`` / ``log_softmax`` subtract the row maximum before ``exp``.
"""

from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np
from scipy.special import erf

from mlp_ref.validation import ShapeError, as_float_array, check_choice, float_dtype

__all__ = [
    "ACTIVATIONS", "ACTIVATION_KERNELS",
    "get_activation", "check_activation_name",
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
    "PRELU_INIT", "prelu", "prelu_grad", "prelu_grad_slope",
]

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_TANH_CUBIC = 0.044715  # the constant of Hendrycks & Gimpel's tanh approximation


def _as_z(z, name: str = "z") -> np.ndarray:
    """Check ``z`` once: numeric, finite, non-empty; keep float32 as float32."""
    return as_float_array(z, name, dtype=float_dtype(z))


def _checked(formula: Callable | None = None, *, name: str = "z") -> Callable:
    """Decorator: ``formula(z, ...)`` with its argument ``z`` (called ``name`` in an error)
    checked first; the formula itself stays reachable, unchecked, as ``.kernel``."""
    if formula is None:
        return functools.partial(_checked, name=name)

    @functools.wraps(formula)
    def checked(z, *args, **kwargs):
        return formula(_as_z(z, name), *args, **kwargs)

    checked.kernel = formula
    return checked


# --------------------------------------------------------------------------- public API

@_checked
def identity(z) -> np.ndarray:
    """Identity ``f(z) = z``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        ``z`` as a float array.
    """
    return z


@_checked
def identity_grad(z) -> np.ndarray:
    """Derivative of :func:`identity`: ones.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        All ones.
    """
    return np.ones_like(z)


@_checked
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
    return np.maximum(z, 0)


@_checked
def relu_grad(z) -> np.ndarray:
    """Derivative of :func:`relu`: 1 where ``z > 0``, else 0.

    ReLU has no derivative at ``z = 0``; this function returns **0 there**, the convention
    of PyTorch and scikit-learn. (It is why an all-zero first layer with zero bias never
    learns under ReLU.)

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        0 or 1.
    """
    return (z > 0).astype(z.dtype)


@_checked
def leaky_relu(z, slope: float = 0.01) -> np.ndarray:
    """Leaky ReLU: ``z`` where ``z > 0``, else ``slope * z``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.
    slope : float
        The slope on the negative side.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        The activation.
    """
    return np.where(z > 0, z, slope * z)


@_checked
def leaky_relu_grad(z, slope: float = 0.01) -> np.ndarray:
    """Derivative of :func:`leaky_relu`: 1 where ``z > 0``, else ``slope`` (also at 0).

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.
    slope : float
        The slope on the negative side.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        1 or ``slope``.
    """
    # At z = 0 we use the left derivative, ``slope`` (as for ReLU: the non-positive side).
    return np.where(z > 0, 1.0, slope).astype(z.dtype)


@_checked
def sigmoid(z) -> np.ndarray:
    """Logistic sigmoid ``1 / (1 + exp(-z))``, computed without overflow.

    Written with ``e = exp(-|z|)``: ``1 / (1 + e)`` for ``z >= 0`` and ``e / (1 + e)``
    otherwise, so ``sigmoid(±1000)`` gives 1 and 0 with no warning.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        Values in [0, 1].
    """
    # e = exp(-|z|) lies in (0, 1]: no overflow for any finite z.
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


@_checked
def sigmoid_grad(z) -> np.ndarray:
    """Derivative of :func:`sigmoid`: ``s (1 - s)`` with ``s = sigmoid(z)``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        Values in [0, 1/4].
    """
    s = sigmoid.kernel(z)
    return s * (1.0 - s)


@_checked
def tanh(z) -> np.ndarray:
    """Hyperbolic tangent.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        Values in [-1, 1].
    """
    return np.tanh(z)


@_checked
def tanh_grad(z) -> np.ndarray:
    """Derivative of :func:`tanh`: ``1 - tanh(z)**2``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        Values in [0, 1], 1 at ``z = 0``.
    """
    t = np.tanh(z)
    return 1.0 - t * t


@_checked
def gelu(z) -> np.ndarray:
    """Gaussian error linear unit, exact form ``z * Phi(z) = z/2 * (1 + erf(z / sqrt 2))``.

    The same as PyTorch's ``approximate="none"``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        The activation.
    """
    # z * Phi(z), Phi the standard normal CDF written with erf.
    return 0.5 * z * (1.0 + erf(z * _INV_SQRT_2))


@_checked
def gelu_grad(z) -> np.ndarray:
    """Derivative of :func:`gelu`: ``Phi(z) + z * phi(z)`` (normal CDF and density).

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        The derivative.
    """
    # d/dz [z Phi(z)] = Phi(z) + z phi(z), phi the standard normal density.
    cdf = 0.5 * (1.0 + erf(z * _INV_SQRT_2))
    pdf = _INV_SQRT_2PI * np.exp(-0.5 * z * z)
    return cdf + z * pdf


@_checked
def gelu_tanh(z) -> np.ndarray:
    """GELU's tanh approximation ``z/2 * (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3)))``.

    The form used by GPT-2 (``gelu_new``) and PyTorch ``approximate="tanh"``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        The activation.
    """
    u = _SQRT_2_OVER_PI * (z + _GELU_TANH_CUBIC * z ** 3)
    return 0.5 * z * (1.0 + np.tanh(u))


@_checked
def gelu_tanh_grad(z) -> np.ndarray:
    """Derivative of :func:`gelu_tanh` (by the chain rule through the tanh).

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        The derivative.
    """
    u = _SQRT_2_OVER_PI * (z + _GELU_TANH_CUBIC * z ** 3)
    t = np.tanh(u)
    du = _SQRT_2_OVER_PI * (1.0 + 3.0 * _GELU_TANH_CUBIC * z * z)
    return 0.5 * (1.0 + t) + 0.5 * z * (1.0 - t * t) * du


@_checked
def silu(z) -> np.ndarray:
    """Sigmoid linear unit (swish) ``z * sigmoid(z)``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        The activation.
    """
    return z * sigmoid.kernel(z)


@_checked
def silu_grad(z) -> np.ndarray:
    """Derivative of :func:`silu`: ``s (1 + z (1 - s))`` with ``s = sigmoid(z)``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        The derivative.
    """
    s = sigmoid.kernel(z)
    return s * (1.0 + z * (1.0 - s))


@_checked
def softplus(z) -> np.ndarray:
    """Softplus ``log(1 + exp(z))``, computed stably as ``max(z, 0) + log1p(exp(-|z|))``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        Values > 0 (except where they underflow to 0).
    """
    return np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))


@_checked
def softplus_grad(z) -> np.ndarray:
    """Derivative of :func:`softplus`: ``sigmoid(z)``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        Values in [0, 1].
    """
    return sigmoid.kernel(z)


@_checked(name="logits")
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
    shifted = z - z.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


@_checked(name="logits")
def log_softmax(z) -> np.ndarray:
    """Logarithm of :func:`softmax` over the last axis, ``z - logsumexp(z)``.

    Stays finite where ``log(softmax(z))`` would give ``-inf`` (e.g. logits ``(1000, -1000)``).

    Parameters
    ----------
    z : array_like, shape (..., K)
        Logits; usually ``(B, K)``.

    Returns
    -------
    numpy.ndarray, shape (..., K)
        Log-probabilities: non-positive, and ``exp`` of each row sums to 1.
    """
    # Written out rather than with scipy's logsumexp, whose per-call overhead is larger than
    # a whole training step of a small network (the character-level model's, for one).
    shifted = z - z.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


# --------------------------------------------------------------------------- PReLU

#: The starting value of PReLU's learned slope in He et al. (2015), "Delving deep into
#: rectifiers", section 2: every slope ``a`` begins at 0.25 and is then trained with the weights.
PRELU_INIT = 0.25


def _slope(a, z: np.ndarray) -> np.ndarray:
    """PReLU's slope: a finite scalar (one slope for the layer) or shape (d,) (one per unit, the
    last axis of ``z``), returned ready to broadcast against ``z``."""
    a = as_float_array(a, "a", dtype=z.dtype, allow_empty=True)
    if a.ndim == 0 or (a.ndim == 1 and z.ndim >= 1 and a.shape[0] == z.shape[-1]):
        return a
    width = z.shape[-1] if z.ndim else "none"
    raise ShapeError(f"a: expected a scalar or shape ({width},), one slope per unit of the last axis of z "
                     f"of shape {z.shape}, received shape {a.shape}")


def prelu(z, a=PRELU_INIT) -> np.ndarray:
    """Parametric ReLU (He et al., 2015): ``z`` where ``z > 0``, else ``a * z``, with ``a`` learned.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation, e.g. (B, d).
    a : float or array_like of shape (d,)
        The negative-side slope: one for the layer, or one per unit (the last axis of ``z``).
        It is a parameter trained with the weights, not a fixed constant; with a fixed ``a`` this
        is :func:`leaky_relu`. Default :data:`PRELU_INIT`.

    Returns
    -------
    numpy.ndarray, the shape of ``z``
    """
    z = _as_z(z)
    return np.where(z > 0, z, _slope(a, z) * z) + 0.0  # + 0.0: no -0.0 at z = 0 (or for a < 0)


def prelu_grad(z, a=PRELU_INIT) -> np.ndarray:
    """Derivative of :func:`prelu` with respect to ``z``: 1 where ``z > 0``, else ``a``.

    At 0 it is ``a``: the non-positive side, as for ReLU.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.
    a : float or array_like of shape (d,)
        The slope: one for the layer, or one per unit (the last axis of ``z``).

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        1 or the slope.
    """
    z = _as_z(z)
    return np.where(z > 0, 1.0, _slope(a, z)).astype(z.dtype)


def prelu_grad_slope(z) -> np.ndarray:
    """Derivative of :func:`prelu` with respect to its slope ``a``, elementwise.

    It is 0 where ``z > 0``, else ``z``: that is, ``min(z, 0)``. Summed over the rows (and over
    the units, for one shared slope) it gives the gradient that trains ``a``.

    Parameters
    ----------
    z : array_like, any shape
        Pre-activation.

    Returns
    -------
    numpy.ndarray, same shape as ``z``
        ``min(z, 0)``.
    """
    z = _as_z(z)
    return np.minimum(z, 0.0) + 0.0  # + 0.0: no -0.0 for z = -0.0


#: name -> (activation, derivative), the checked functions above (``"relu"`` -> ``(relu,
#: relu_grad)``). Both take the pre-activation ``z`` (any shape).
ACTIVATIONS: dict[str, tuple[Callable, Callable]] = {
    name: (globals()[name], globals()[f"{name}_grad"])
    for name in ("identity", "relu", "leaky_relu", "sigmoid", "tanh", "gelu", "gelu_tanh", "silu", "softplus")
}

#: name -> (activation, derivative) unchecked, their formulas alone (``.kernel``): what the
#: network's forward and backward passes look up for its hidden layers.
ACTIVATION_KERNELS: dict[str, tuple[Callable, Callable]] = {
    name: (f.kernel, fprime.kernel) for name, (f, fprime) in ACTIVATIONS.items()
}


def check_activation_name(name, what: str = "activation") -> str:
    """Return ``name`` if it names an activation of :data:`ACTIVATIONS`, else raise ValueError
    listing the valid names (``what`` names the argument in the message)."""
    return check_choice(what, name, sorted(ACTIVATIONS))


def get_activation(name: str) -> tuple[Callable, Callable]:
    """Return ``(function, derivative)`` for an activation name from :data:`ACTIVATIONS`.

    Parameters
    ----------
    name : str
        A key of :data:`ACTIVATIONS`, such as ``"relu"``.

    Returns
    -------
    tuple of (callable, callable)
        The activation and its derivative, each mapping ``z`` (any shape) to the same shape.

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid names.
    """
    return ACTIVATIONS[check_activation_name(name)]
