"""Input checks shared by every public function.

Each check raises with a message that names the argument (and the layer, where there is
one), what was expected and what was received, so that a wrong input never turns into a
right-looking answer by silent broadcasting, truncation or coercion.
"""

from __future__ import annotations

import math
import numbers

import numpy as np


class ShapeError(ValueError):
    """An array has the wrong number of dimensions or the wrong size along an axis."""


#: The floating dtypes the package computes in.
FLOAT_DTYPES = (np.float32, np.float64)


def float_dtype(value) -> type:
    """The dtype to compute ``value`` in: float32 stays float32, everything else is float64."""
    return np.float32 if getattr(value, "dtype", None) == np.float32 else np.float64


def check_dtype(dtype, name: str = "dtype") -> type:
    """Return ``dtype`` as ``numpy.float32`` or ``numpy.float64``, or raise TypeError."""
    try:
        ok = dtype is not None and np.dtype(dtype) in [np.dtype(t) for t in FLOAT_DTYPES]
    except TypeError:
        ok = False
    if not ok:
        raise TypeError(f"{name}: expected numpy.float32 or numpy.float64, received {dtype!r}")
    return np.dtype(dtype).type


def _integers(minimum: int | None, maximum: int | None) -> str:
    if maximum is not None:
        return f"an integer from {minimum} to {maximum}"
    return {None: "an integer", 0: "a non-negative integer", 1: "a positive integer"}.get(
        minimum, f"an integer >= {minimum}")


def check_int(name: str, value, minimum: int | None = None, maximum: int | None = None,
              *, note: str = "", error: type = ValueError) -> int:
    """Return ``value`` as a Python int in ``[minimum, maximum]`` (either bound optional), or raise.

    Booleans are rejected (``True`` is an ``int`` to Python, never a count here); NumPy
    integers are accepted. The message names the argument, the expected range (``note``
    is appended to it) and the value received, e.g.
    ``epochs: expected a positive integer, received 0``.
    """
    if (isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral)
            or (minimum is not None and value < minimum) or (maximum is not None and value > maximum)):
        raise error(f"{name}: expected {_integers(minimum, maximum)}{note}, received {value!r}")
    return int(value)


def _reals(low, high, low_closed: bool, high_closed: bool) -> str:
    if low is None and high is None:
        return "a finite real number"
    if high is None:
        return "a positive finite number" if low == 0 and not low_closed else \
            f"a finite number {'>=' if low_closed else '>'} {low}"
    if low is None:
        return f"a finite number {'<=' if high_closed else '<'} {high}"
    return f"a number in {'[' if low_closed else '('}{low}, {high}{']' if high_closed else ')'}"


def check_real(name: str, value, low: float | None = None, high: float | None = None, *,
               low_closed: bool = False, high_closed: bool = False, note: str = "",
               error: type = ValueError, finite: bool = True) -> float:
    """Return ``value`` as a finite Python float between ``low`` and ``high``, or raise.

    The bounds are optional and open unless ``low_closed`` / ``high_closed``; booleans are
    rejected; ``note`` is appended to the expected range. With ``low=0`` alone the message reads
    ``lr: expected a positive finite number, received 0.0``. ``finite=False`` (only without
    bounds) also accepts NaN and the infinities: any real number.
    """
    if not finite and (low is not None or high is not None):
        raise ValueError("check_real: finite=False takes no bounds")
    ok = (not isinstance(value, (bool, np.bool_)) and isinstance(value, numbers.Real)
          and (math.isfinite(value) or not finite))
    if ok and low is not None:
        ok = value >= low if low_closed else value > low
    if ok and high is not None:
        ok = value <= high if high_closed else value < high
    if not ok:
        expected = _reals(low, high, low_closed, high_closed) if finite else "a real number"
        raise error(f"{name}: expected {expected}{note}, received {value!r}")
    return float(value)


def check_choice(name: str, value, choices) -> str:
    """Return ``value`` if it is one of the names ``choices`` (in their order in the message)."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name}: unknown name {value!r}; valid names are {', '.join(choices)}")
    return value


def layer_label(name: str, layer: int | None) -> str:
    """``name`` as error messages write it: ``"W (layer 2)"``, or ``"W"`` when there is no layer."""
    return f"{name} (layer {layer})" if layer is not None else name


def as_float_array(value, name: str, *, ndim: int | None = None, dtype=np.float64,
                   layer: int | None = None, allow_empty: bool = False) -> np.ndarray:
    """Return ``value`` as a finite float array, checking its number of dimensions.

    Parameters
    ----------
    value : array_like
        The input. Booleans, strings and objects are rejected rather than coerced.
    name : str
        The argument's name, used in error messages.
    ndim : int, optional
        Required number of dimensions (for example 2 for a batch ``(B, d_in)``).
    dtype : numpy dtype
        Floating dtype of the result.
    layer : int, optional
        Layer index to name in error messages.
    allow_empty : bool
        Whether a size-0 first axis is accepted.

    Returns
    -------
    numpy.ndarray
        A float array with ``ndim`` dimensions and only finite values.
    """
    where = layer_label(name, layer)
    array = np.asarray(value)
    if array.dtype == bool or not (np.issubdtype(array.dtype, np.number)):
        raise TypeError(f"{where}: expected a numeric array, received dtype {array.dtype}")
    if np.iscomplexobj(array):
        raise TypeError(f"{where}: expected real numbers, received dtype {array.dtype}")
    if ndim is not None and array.ndim != ndim:
        hint = ""
        if ndim == 2 and array.ndim == 1:
            hint = " (a single example of width D must be passed as shape (1, D))"
        raise ShapeError(f"{where}: expected a {ndim}-D array, received shape {array.shape}{hint}")
    if not allow_empty and array.ndim >= 1 and array.shape[0] == 0:
        raise ShapeError(f"{where}: expected at least one row, received an empty batch of shape {array.shape}")
    array = array.astype(dtype, copy=False)
    bad = count_non_finite(array)
    if bad:
        raise ValueError(f"{where}: expected finite values, received {bad} NaN or inf entries")
    return array


def count_non_finite(array: np.ndarray) -> int:
    """Number of NaN and inf entries of a float array, usually found in one cheap pass.

    A NaN or inf anywhere makes the sum NaN or inf: one pass with no temporary array settles
    the common case (scikit-learn checks the same way). Only a sum that is not finite, from a
    bad entry or from finite entries large enough to overflow it, needs the entry-wise count.
    """
    with np.errstate(over="ignore", invalid="ignore"):                # the sum may overflow
        total = array.sum()
    if np.isfinite(total):
        return 0
    return int(np.size(array) - np.count_nonzero(np.isfinite(array)))


def check_weights(weights, n_rows: int, dtype=np.float64) -> np.ndarray | None:
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


def check_width(X: np.ndarray, expected: int, name: str = "X", *, layer: int | None = None) -> None:
    """Raise ShapeError unless the last axis of ``X`` has size ``expected``."""
    if X.shape[-1] != expected:
        raise ShapeError(
            f"{layer_label(name, layer)}: expected width {expected} on the last axis, "
            f"received shape {X.shape} (width {X.shape[-1]})"
        )


def check_layer_sizes(sizes, name: str = "sizes", *, min_len: int = 2) -> list[int]:
    """Return ``sizes`` as a list of positive Python ints, or raise.

    Parameters
    ----------
    sizes : sequence of int
        Layer widths ``[d_0, d_1, ..., d_L]``, input width first.
    """
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__len__"):
        raise TypeError(f"{name}: expected a sequence of layer widths, received {type(sizes).__name__}")
    sizes = list(sizes)
    if len(sizes) < min_len:
        raise ValueError(f"{name}: expected at least {min_len} widths (input and output), received {sizes}")
    checked = []
    for index, size in enumerate(sizes):
        if isinstance(size, bool) or not isinstance(size, numbers.Integral):
            raise TypeError(f"{name}[{index}]: expected a positive integer width, received {size!r}")
        if size <= 0:
            raise ValueError(f"{name}[{index}]: expected a positive integer width, received {size}")
        checked.append(int(size))
    return checked


def check_labels(y, n_rows: int, n_classes: int, name: str = "y", rows_of: str = "X") -> np.ndarray:
    """Return integer class labels of shape ``(n_rows,)`` in ``[0, n_classes)``, or raise.

    ``rows_of`` names the array whose rows the labels belong to, for the error message.
    """
    labels = np.asarray(y)
    if labels.ndim != 1:
        raise ShapeError(f"{name}: expected a 1-D array of class indices, received shape {labels.shape}")
    if labels.shape[0] != n_rows:
        raise ShapeError(f"{name}: expected {n_rows} labels (one per row of {rows_of}), received {labels.shape[0]}")
    if labels.dtype == bool or not np.issubdtype(labels.dtype, np.integer):
        if np.issubdtype(labels.dtype, np.floating) and np.all(np.isfinite(labels)) and np.all(labels == np.round(labels)):
            raise TypeError(f"{name}: expected integer class indices, received dtype {labels.dtype}; cast with y.astype(int)")
        raise TypeError(f"{name}: expected integer class indices, received dtype {labels.dtype}")
    if labels.size and (labels.min() < 0 or labels.max() >= n_classes):
        raise ValueError(
            f"{name}: expected class indices in [0, {n_classes - 1}], "
            f"received values from {labels.min()} to {labels.max()}"
        )
    return labels.astype(np.intp, copy=False)


def as_generator(seed) -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from a seed (int) or a Generator; reject ``None``."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed: expected an int or numpy.random.Generator, received {seed!r}")
    return np.random.default_rng(int(seed))
