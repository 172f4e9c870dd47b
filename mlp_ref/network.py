"""Layers and the multi-layer perceptron.

Row-batch convention: a batch ``X`` has shape ``(B, d_in)``, a layer's weights ``W`` shape
``(d_in, d_out)`` and its bias ``b`` shape ``(d_out,)``; the layer computes
``Z = X @ W + b`` of shape ``(B, d_out)``, the bias broadcast across the ``B`` rows.
PyTorch's ``nn.Linear`` stores ``weight`` as ``(d_out, d_in)`` and computes
``x @ weight.T + bias``; :func:`linear_to_torch` and :func:`linear_from_torch` convert
one layer explicitly, never silently.
"""

from __future__ import annotations

import numpy as np

from mlp_ref.activations import _KERNELS, _check_activation_name
from mlp_ref.validation import ShapeError, _where, as_float_array

__all__ = ["affine", "dense", "linear_to_torch", "linear_from_torch"]


def _float_dtype(value) -> type:
    """float32 stays float32; everything else is computed in float64."""
    return np.float32 if getattr(value, "dtype", None) == np.float32 else np.float64


def _check_layer_arrays(W, b, *, layer: int | None, dtype=np.float64,
                        w_name: str = "W", b_name: str = "b") -> tuple[np.ndarray, np.ndarray]:
    """Check a weight matrix ``W`` (d_in, d_out) and bias ``b`` (d_out,) against each other."""
    W = as_float_array(W, w_name, ndim=2, dtype=dtype, layer=layer)
    b = as_float_array(b, b_name, ndim=1, dtype=dtype, layer=layer)
    if b.shape[0] != W.shape[1]:
        raise ShapeError(
            f"{_where(b_name, layer)}: expected shape ({W.shape[1]},) to match {w_name} of shape "
            f"{W.shape} (d_in, d_out), received {b_name} shape {b.shape}"
        )
    return W, b


def affine(X, W, b, *, layer: int | None = None) -> np.ndarray:
    """One layer's pre-activation ``Z = X @ W + b``.

    Parameters
    ----------
    X : array_like, shape (B, d_in)
        A batch of ``B`` rows. A single example must be passed as shape ``(1, d_in)``.
    W : array_like, shape (d_in, d_out)
        Weights, one column per output unit.
    b : array_like, shape (d_out,)
        Bias, added to every row.
    layer : int, optional
        Layer number to name in error messages.

    Returns
    -------
    numpy.ndarray, shape (B, d_out)

    Raises
    ------
    ShapeError
        If ``X`` or ``W`` is not 2-D, ``b`` not 1-D, or the widths disagree; the message
        names the layer and both shapes.
    """
    dtype = _float_dtype(X)
    X = as_float_array(X, "X", ndim=2, dtype=dtype, layer=layer)
    W, b = _check_layer_arrays(W, b, layer=layer, dtype=dtype)
    if X.shape[1] != W.shape[0]:
        raise ShapeError(
            f"{_where('X', layer)}: expected width {W.shape[0]} to match W of shape {W.shape} "
            f"(d_in, d_out), received X shape {X.shape} (width {X.shape[1]})"
        )
    return X @ W + b


def dense(X, W, b, activation: str = "relu", *, layer: int | None = None) -> np.ndarray:
    """One layer with its activation, ``f(X @ W + b)``.

    Parameters
    ----------
    X : array_like, shape (B, d_in)
    W : array_like, shape (d_in, d_out)
    b : array_like, shape (d_out,)
    activation : str
        A name from :data:`mlp_ref.activations.ACTIVATIONS` (``"relu"``, ``"tanh"``, ...).
    layer : int, optional
        Layer number to name in error messages.

    Returns
    -------
    numpy.ndarray, shape (B, d_out)
    """
    f, _ = _KERNELS[_check_activation_name(activation)]
    return f(affine(X, W, b, layer=layer))


def linear_to_torch(W, b) -> tuple[np.ndarray, np.ndarray]:
    """Convert one layer from the site's layout to PyTorch ``nn.Linear``'s layout.

    Parameters
    ----------
    W : array_like, shape (d_in, d_out)
    b : array_like, shape (d_out,)

    Returns
    -------
    weight : numpy.ndarray, shape (d_out, d_in)
        ``W.T`` as a new contiguous array (a copy, not a view).
    bias : numpy.ndarray, shape (d_out,)
        A copy of ``b``.
    """
    W, b = _check_layer_arrays(W, b, layer=None, dtype=_float_dtype(W))
    # ndarray.copy() is C-contiguous: a new (d_out, d_in) array, not a view of W.
    return W.T.copy(), b.copy()


def linear_from_torch(weight, bias) -> tuple[np.ndarray, np.ndarray]:
    """Convert one PyTorch ``nn.Linear`` layer to the site's layout.

    Parameters
    ----------
    weight : array_like, shape (d_out, d_in)
        PyTorch's ``weight`` (as a NumPy array, e.g. ``layer.weight.detach().numpy()``).
    bias : array_like, shape (d_out,)

    Returns
    -------
    W : numpy.ndarray, shape (d_in, d_out)
        ``weight.T`` as a new contiguous array.
    b : numpy.ndarray, shape (d_out,)
        A copy of ``bias``.
    """
    weight = as_float_array(weight, "weight", ndim=2, dtype=_float_dtype(weight))
    bias = as_float_array(bias, "bias", ndim=1, dtype=weight.dtype)
    if bias.shape[0] != weight.shape[0]:
        raise ShapeError(
            f"bias: expected shape ({weight.shape[0]},) to match weight of shape {weight.shape} "
            f"(d_out, d_in), received bias shape {bias.shape}"
        )
    return weight.T.copy(), bias.copy()
