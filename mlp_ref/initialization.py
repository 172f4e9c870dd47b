"""Weight initialization.

Every initializer has the signature ``init(d_in, d_out, seed, dtype=np.float64) -> W`` with
``W`` of shape ``(d_in, d_out)`` (the row-batch layout), and takes an int seed or a
``numpy.random.Generator``.

Why these scales: with ``z = a @ W`` and independent zero-mean weights,
``Var(z_j) ≈ d_in * Var(w) * E[a^2]``. Keeping ``Var(z)`` the same from layer to layer gives

* He / Kaiming (for ReLU, where ``E[ReLU(z)^2] = Var(z) / 2``): ``Var(w) = gain^2 / d_in`` with
  ``gain = sqrt(2)``;
* Xavier / Glorot (a compromise between the forward and the backward pass):
  ``Var(w) = gain^2 * 2 / (d_in + d_out)``.

A uniform distribution on ``[-a, a]`` has variance ``a^2 / 3``, hence the ``sqrt(3)`` in the
uniform bounds. :func:`kaiming_gain` gives the recommended gain per activation, with the
values of ``torch.nn.init.calculate_gain``.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from mlp_ref.validation import as_generator, check_choice, check_dtype, check_layer_sizes, check_real

__all__ = ["he_normal", "he_uniform", "xavier_normal", "xavier_uniform", "zeros",
           "kaiming_gain", "INITIALIZERS", "get_initializer"]

def _check(d_in: int, d_out: int, dtype) -> tuple[int, int, type]:
    d_in, d_out = check_layer_sizes([d_in, d_out], name="(d_in, d_out)")
    return d_in, d_out, check_dtype(dtype)


def he_normal(d_in: int, d_out: int, seed, dtype=np.float64, gain: float = math.sqrt(2.0)) -> np.ndarray:
    """He (Kaiming) normal: ``N(0, std^2)`` with ``std = gain / sqrt(d_in)``.

    Parameters
    ----------
    d_in, d_out : int
        Fan-in and fan-out; the result has shape ``(d_in, d_out)``.
    seed : int or numpy.random.Generator
    dtype : numpy.float32 or numpy.float64
    gain : float
        ``sqrt(2)`` for ReLU (the default); see :func:`kaiming_gain` for others.

    Returns
    -------
    numpy.ndarray, shape (d_in, d_out)
    """
    d_in, d_out, dtype = _check(d_in, d_out, dtype)
    std = check_real("gain", gain, low=0) / math.sqrt(d_in)
    return (as_generator(seed).standard_normal((d_in, d_out)) * std).astype(dtype)


def he_uniform(d_in: int, d_out: int, seed, dtype=np.float64, gain: float = math.sqrt(2.0)) -> np.ndarray:
    """He (Kaiming) uniform: ``U(-a, a)`` with ``a = gain * sqrt(3 / d_in)``.

    Same variance ``gain^2 / d_in`` as :func:`he_normal`.

    Parameters
    ----------
    d_in, d_out : int
        Fan-in and fan-out; the result has shape ``(d_in, d_out)``.
    seed : int or numpy.random.Generator
    dtype : numpy.float32 or numpy.float64
    gain : float
        ``sqrt(2)`` for ReLU (the default); see :func:`kaiming_gain` for others.

    Returns
    -------
    numpy.ndarray, shape (d_in, d_out)
    """
    d_in, d_out, dtype = _check(d_in, d_out, dtype)
    bound = check_real("gain", gain, low=0) * math.sqrt(3.0 / d_in)
    return as_generator(seed).uniform(-bound, bound, (d_in, d_out)).astype(dtype)


def xavier_normal(d_in: int, d_out: int, seed, dtype=np.float64, gain: float = 1.0) -> np.ndarray:
    """Xavier (Glorot) normal: ``N(0, std^2)``, ``std = gain * sqrt(2 / (d_in + d_out))``.

    Parameters
    ----------
    d_in, d_out : int
        Fan-in and fan-out; the result has shape ``(d_in, d_out)``.
    seed : int or numpy.random.Generator
    dtype : numpy.float32 or numpy.float64
    gain : float
        1 (the default) for tanh and linear layers.

    Returns
    -------
    numpy.ndarray, shape (d_in, d_out)
    """
    d_in, d_out, dtype = _check(d_in, d_out, dtype)
    std = check_real("gain", gain, low=0) * math.sqrt(2.0 / (d_in + d_out))
    return (as_generator(seed).standard_normal((d_in, d_out)) * std).astype(dtype)


def xavier_uniform(d_in: int, d_out: int, seed, dtype=np.float64, gain: float = 1.0) -> np.ndarray:
    """Xavier (Glorot) uniform: ``U(-a, a)``, ``a = gain * sqrt(6 / (d_in + d_out))``.

    scikit-learn's MLP uses this with gain 1, or ``sqrt(2)`` for a logistic activation.

    Parameters
    ----------
    d_in, d_out : int
        Fan-in and fan-out; the result has shape ``(d_in, d_out)``.
    seed : int or numpy.random.Generator
    dtype : numpy.float32 or numpy.float64
    gain : float
        1 (the default) for tanh and linear layers.

    Returns
    -------
    numpy.ndarray, shape (d_in, d_out)
    """
    d_in, d_out, dtype = _check(d_in, d_out, dtype)
    bound = check_real("gain", gain, low=0) * math.sqrt(6.0 / (d_in + d_out))
    return as_generator(seed).uniform(-bound, bound, (d_in, d_out)).astype(dtype)


def zeros(d_in: int, d_out: int, seed=None, dtype=np.float64) -> np.ndarray:
    """All-zero weights.

    Useful only to show what goes wrong: identical units stay identical (symmetry), and
    under ReLU the zero derivative at 0 blocks the gradient entirely.

    Parameters
    ----------
    d_in, d_out : int
        Fan-in and fan-out; the result has shape ``(d_in, d_out)``.
    seed : object
        Accepted, so that every initializer takes the same arguments, and ignored.
    dtype : numpy.float32 or numpy.float64

    Returns
    -------
    numpy.ndarray, shape (d_in, d_out)
    """
    d_in, d_out, dtype = _check(d_in, d_out, dtype)
    return np.zeros((d_in, d_out), dtype=dtype)


#: name -> initializer. ``"he"`` and ``"xavier"`` are short for the normal variants.
INITIALIZERS: dict[str, Callable[..., np.ndarray]] = {
    "he": he_normal,
    "he_normal": he_normal,
    "he_uniform": he_uniform,
    "xavier": xavier_normal,
    "xavier_normal": xavier_normal,
    "xavier_uniform": xavier_uniform,
    "zeros": zeros,
}


def get_initializer(name: str) -> Callable[..., np.ndarray]:
    """Return the initializer called ``name``.

    Parameters
    ----------
    name : str
        A key of :data:`INITIALIZERS`, such as ``"he"``.

    Returns
    -------
    callable
        ``init(d_in, d_out, seed, dtype)``, returning weights of shape ``(d_in, d_out)``.

    Raises
    ------
    ValueError
        For an unknown name; the message lists the valid names.
    """
    return INITIALIZERS[check_choice("init", name, sorted(INITIALIZERS))]


_GAINS = {"linear": 1.0, "identity": 1.0, "sigmoid": 1.0, "tanh": 5.0 / 3.0,
          "relu": math.sqrt(2.0), "selu": 0.75}


def kaiming_gain(activation: str, slope: float = 0.01) -> float:
    """Recommended gain for an activation, as ``torch.nn.init.calculate_gain``.

    ``linear``/``identity``/``sigmoid``: 1; ``tanh``: 5/3; ``relu``: sqrt(2);
    ``leaky_relu``: ``sqrt(2 / (1 + slope^2))``; ``selu``: 3/4.

    Parameters
    ----------
    activation : str
    slope : float
        Negative slope, used only for ``leaky_relu`` (PyTorch's default 0.01).

    Returns
    -------
    float
    """
    check_choice("activation", activation, sorted([*_GAINS, "leaky_relu"]))
    if activation == "leaky_relu":
        return math.sqrt(2.0 / (1.0 + check_real("slope", slope) ** 2))
    return _GAINS[activation]
