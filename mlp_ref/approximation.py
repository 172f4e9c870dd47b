"""Approximation and depth with one-input ReLU networks.

* ``relu_interpolant(f, a, b, k)``: a 1 -> k -> 1 ReLU network through k + 1 equally
  spaced knots of ``f`` (piecewise-linear interpolation written as a sum of ReLUs);
  ``max_error`` measures how far it is from ``f``.
* ``tent(x)``: the tent map ``2 relu(x) - 4 relu(x - 1/2)`` on [0, 1];
  ``sawtooth(x, L)`` composes it L times, and ``tent_network(L)`` is the same function
  as a deep network with L hidden layers of two ReLUs.
* ``count_linear_pieces``: how many linear pieces a function has on [a, b].

All networks here are ``ReLUNetwork`` objects: lists ``weights`` (shapes
``(d_{l-1}, d_l)``) and ``biases`` (``(d_l,)``), ReLU on hidden layers and identity on
the output, so ``mlp_ref.course.trace`` can trace them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mlp_ref.activations import relu
from mlp_ref.validation import as_float_array, check_int, check_real, check_width


@dataclass
class ReLUNetwork:
    """A dense network with ReLU hidden layers and an identity output.

    Attributes
    ----------
    weights : list of numpy.ndarray
        ``W_l`` of shape ``(d_{l-1}, d_l)``, input width first.
    biases : list of numpy.ndarray
        ``b_l`` of shape ``(d_l,)``.
    activation, output : str
        ``"relu"`` and ``"identity"`` (read by ``mlp_ref.course.trace``).
    """

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    activation: str = "relu"
    output: str = "identity"

    def forward(self, X) -> np.ndarray:
        """Output for a batch ``X`` of shape ``(B, d_0)``; returns ``(B, d_L)``."""
        a = as_float_array(X, "X", ndim=2)
        check_width(a, self.weights[0].shape[0], "X", layer=1)
        last = len(self.weights) - 1
        for layer, (W, b) in enumerate(zip(self.weights, self.biases)):
            z = a @ W + b
            a = z if layer == last else relu(z)
        return a

    def __call__(self, x) -> np.ndarray:
        """Scalar-input convenience: ``x`` of shape ``(n,)`` gives outputs of shape ``(n,)``."""
        x = as_float_array(x, "x", ndim=1)
        return self.forward(x[:, None])[:, 0]


def _check_interval(a, b) -> tuple[float, float]:
    a, b = check_real("a", a), check_real("b", b)
    if not a < b:
        raise ValueError(f"a, b: expected a < b, received a = {a}, b = {b}")
    return a, b


def _evaluate(f: Callable, x: np.ndarray, name: str = "f") -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # reported below instead
        y = np.asarray(f(x), dtype=np.float64)
    if y.shape != x.shape:
        raise ValueError(f"{name}: expected outputs of shape {x.shape} for inputs of shape {x.shape} "
                         f"(a vectorised function), received {y.shape}")
    if not np.all(np.isfinite(y)):
        raise ValueError(f"{name}: returned NaN or inf on the interval")
    return y


def relu_interpolant(f: Callable[[np.ndarray], np.ndarray], a: float, b: float, k: int) -> ReLUNetwork:
    """The 1 -> k -> 1 ReLU network that linearly interpolates ``f`` at k + 1 knots.

    With knots ``x_i = a + i (b - a) / k`` (i = 0..k), values ``y_i = f(x_i)`` and slopes
    ``s_i = (y_{i+1} - y_i) / (x_{i+1} - x_i)``, the interpolant on [a, b] is

        g(x) = y_0 + s_0 relu(x - x_0) + sum_{i=1}^{k-1} (s_i - s_{i-1}) relu(x - x_i):

    unit i switches on at knot ``x_i`` and changes the slope by ``s_i - s_{i-1}``.
    (Left of ``a`` the network is constant ``y_0``; right of ``b`` it keeps the last slope.)

    Parameters
    ----------
    f : callable
        Vectorised function: an array of shape ``(n,)`` to an array of shape ``(n,)``.
    a, b : float
        Interval, ``a < b``.
    k : int
        Number of hidden ReLUs (= number of linear pieces), ``k >= 1``.

    Returns
    -------
    ReLUNetwork
        ``W1 (1, k)`` all ones, ``b1 (k,)`` = ``-x_0..-x_{k-1}``, ``W2 (k, 1)`` the slope
        changes, ``b2 (1,)`` = ``y_0``.
    """
    a, b = _check_interval(a, b)
    k = check_int("k", k, 1)
    knots = np.linspace(a, b, k + 1)
    y = _evaluate(f, knots)
    slopes = np.diff(y) / np.diff(knots)
    changes = np.concatenate([slopes[:1], np.diff(slopes)])
    return ReLUNetwork(
        weights=[np.ones((1, k)), changes[:, None]],
        biases=[-knots[:-1], np.array([y[0]])],
    )


def max_error(f: Callable[[np.ndarray], np.ndarray], net, a: float, b: float, n: int = 10_001) -> float:
    """Largest ``|f(x) - net(x)|`` over ``n`` equally spaced points of [a, b] (ends included).

    A grid maximum: it never exceeds the true supremum and approaches it as ``n`` grows.

    Parameters
    ----------
    f, net : callable
        Vectorised functions ``(n,) -> (n,)`` (a ``ReLUNetwork`` is one).
    a, b : float
    n : int
        Number of grid points, ``n >= 2``.

    Returns
    -------
    float
    """
    a, b = _check_interval(a, b)
    x = np.linspace(a, b, check_int("n", n, 2))
    return float(np.max(np.abs(_evaluate(f, x) - _evaluate(net, x, "net"))))


def tent(x) -> np.ndarray:
    """Tent map ``2 relu(x) - 4 relu(x - 1/2)``: rises from (0, 0) to (1/2, 1), falls to (1, 0).

    Parameters
    ----------
    x : array_like, any shape
        Values, normally in [0, 1] (outside it the formula keeps going linearly).

    Returns
    -------
    numpy.ndarray, same shape as ``x``
    """
    x = as_float_array(x, "x", allow_empty=True)
    return 2.0 * relu(x) - 4.0 * relu(x - 0.5)


def sawtooth(x, L: int) -> np.ndarray:
    """The tent map composed ``L`` times: a sawtooth with ``2^(L-1)`` teeth on [0, 1].

    Parameters
    ----------
    x : array_like, any shape
        Values in [0, 1].
    L : int
        Number of compositions, ``L >= 1``.

    Returns
    -------
    numpy.ndarray, same shape as ``x``
        Piecewise linear with ``2^L`` pieces of slope ``+-2^L``.
    """
    y = as_float_array(x, "x", allow_empty=True)
    for _ in range(check_int("L", L, 1)):
        y = tent(y)
    return y


def tent_network(L: int) -> ReLUNetwork:
    """``sawtooth(., L)`` as a network 1 -> 2 -> 2 -> ... -> 2 -> 1 with L hidden layers.

    Hidden layer 1 computes ``(relu(x), relu(x - 1/2))``. Each later hidden layer first
    forms the previous tent value ``t = 2 h_1 - 4 h_2`` and then ``(relu(t), relu(t - 1/2))``,
    so its weights are ``[[2, 2], [-4, -4]]``; the output layer returns ``2 h_1 - 4 h_2``.

    Parameters
    ----------
    L : int
        Number of tent compositions (hidden layers), ``L >= 1``.

    Returns
    -------
    ReLUNetwork
        L + 1 weight matrices: ``(1, 2)``, ``L - 1`` times ``(2, 2)``, then ``(2, 1)``;
        ``4 + 6 (L - 1) + 3 = 6 L + 1`` parameters.
    """
    L = check_int("L", L, 1)
    split = np.array([0.0, -0.5])
    weights = [np.array([[1.0, 1.0]])] + [np.array([[2.0, 2.0], [-4.0, -4.0]]) for _ in range(L - 1)]
    weights.append(np.array([[2.0], [-4.0]]))
    biases = [split.copy() for _ in range(L)] + [np.zeros(1)]
    return ReLUNetwork(weights, biases)


# --- counting linear pieces ---------------------------------------------------------


def network_pieces(net: ReLUNetwork, a: float, b: float) -> list[tuple[float, float, float]]:
    """Exact affine pieces ``(left, right, slope)`` of a 1-input, 1-output ReLU network.

    Walks the layers keeping a partition of [a, b] on which every unit is affine in x,
    ``h = alpha x + beta``; a unit's pre-activation can change sign only where
    ``alpha x + beta = 0``, so those roots are the only new breakpoints.

    Parameters
    ----------
    net : ReLUNetwork
        A network with one input and one output (weights ``(1, h_1)``, ..., ``(h_L, 1)``).
    a, b : float
        The interval, ``a < b``.

    Returns
    -------
    list of (float, float, float)
        Contiguous pieces ``(left, right, slope)`` covering [a, b], left to right.
    """
    return _pieces(_check_scalar_network(net, "net"), *_check_interval(a, b))


def _check_scalar_network(net, name: str) -> ReLUNetwork:
    if not isinstance(net, ReLUNetwork):
        raise TypeError(f"{name}: expected a ReLUNetwork, received {type(net).__name__}")
    if net.weights[0].shape[0] != 1 or net.weights[-1].shape[1] != 1:
        raise ValueError(f"{name}: expected a network with one input and one output, received "
                         f"{net.weights[0].shape[0]} inputs and {net.weights[-1].shape[1]} outputs")
    return net


def _pieces(net: ReLUNetwork, a: float, b: float) -> list[tuple[float, float, float]]:
    """:func:`network_pieces` on checked arguments."""
    intervals = [(a, b, np.ones(1), np.zeros(1))]  # on [left, right]: h = alpha * x + beta
    last = len(net.weights) - 1
    for layer, (W, bias) in enumerate(zip(net.weights, net.biases)):
        refined = []
        for left, right, alpha, beta in intervals:
            za, zb = alpha @ W, beta @ W + bias
            if layer == last:  # identity output: no new breakpoints
                refined.append((left, right, za, zb))
                continue
            with np.errstate(divide="ignore", invalid="ignore"):
                roots = -zb / za
            cuts = np.unique(roots[(za != 0) & (roots > left) & (roots < right)])
            edges = np.concatenate([[left], cuts, [right]])
            for lo, hi in zip(edges[:-1], edges[1:]):
                on = (za * (lo + hi) / 2 + zb) > 0  # the sign inside the sub-interval
                refined.append((lo, hi, za * on, zb * on))
        intervals = refined
    return [(lo, hi, float(alpha[0])) for lo, hi, alpha, _ in intervals]


def _merge_slopes(slopes: np.ndarray, rtol: float) -> int:
    if slopes.size == 0:
        return 0
    scale = np.maximum(np.abs(slopes[1:]), np.abs(slopes[:-1]))
    changes = np.abs(np.diff(slopes)) > rtol * np.maximum(scale, 1.0)
    return 1 + int(np.count_nonzero(changes))


def count_linear_pieces(f, a: float = 0.0, b: float = 1.0, n: int = 2**14, *, rtol: float = 1e-9) -> int:
    """Number of maximal linear pieces of a continuous piecewise-linear function on [a, b].

    Method:

    * a ``ReLUNetwork`` with one input and one output: exact. The breakpoints are found
      layer by layer (see ``network_pieces``), the slope on each resulting interval is
      computed from the weights, and neighbouring intervals with equal slopes are merged
      (relative tolerance ``rtol``). ``n`` is not used.
    * any other vectorised callable: on a grid of ``n + 1`` equally spaced points, the
      slopes of consecutive points are compared and each change (beyond ``rtol``) starts
      a new piece. This is exact when every breakpoint lies on a grid point (for the
      sawtooth on [0, 1], ``n`` a multiple of ``2^L``). A breakpoint strictly between
      two grid points gives a short extra "piece" with an in-between slope, so the grid
      count can overcount, and pieces shorter than the spacing can be missed.

    Parameters
    ----------
    f : ReLUNetwork or callable
        The function; a callable maps ``(n,)`` arrays to ``(n,)`` arrays.
    a, b : float
        Interval, ``a < b``.
    n : int
        Number of grid cells for a callable, ``n >= 1``.
    rtol : float
        Relative tolerance under which two slopes count as equal.

    Returns
    -------
    int
        For example ``2**L`` for ``sawtooth(., L)`` and ``tent_network(L)`` on [0, 1].
    """
    a, b = _check_interval(a, b)
    if isinstance(f, ReLUNetwork):
        pieces = _pieces(_check_scalar_network(f, "f"), a, b)
        return _merge_slopes(np.array([slope for _, _, slope in pieces]), rtol)
    x = np.linspace(a, b, check_int("n", n, 1) + 1)
    y = _evaluate(f, x)
    return _merge_slopes(np.diff(y) / np.diff(x), rtol)
