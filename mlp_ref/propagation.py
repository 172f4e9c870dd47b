"""Signal propagation: activation statistics layer by layer through a deep stack.

Lesson 7 asks what happens to the size of the activations when a batch goes through many
layers whose weights were drawn at random. :func:`random_stack` draws such a stack
(square layers, zero biases, weights ``N(0, gain^2 / width)``), and
:func:`layer_statistics` runs a batch through any stack of weight matrices and records, for
every layer, the spread of the pre-activations and the size of the activations.

Every layer applies the same activation (there is no output head): the point is to watch
the signal, not to predict anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mlp_ref.activations import ACTIVATION_KERNELS, check_activation_name
from mlp_ref.initialization import he_normal
from mlp_ref.validation import ShapeError, as_float_array, as_generator, check_int, check_real

__all__ = ["StackStatistics", "layer_statistics", "random_stack"]


@dataclass(frozen=True)
class StackStatistics:
    """Per-layer statistics of one forward pass; every array has shape ``(L,)``.

    Each statistic is taken over the whole ``(B, d_l)`` array of layer ``l`` (all rows
    and all units together), for ``l = 1..L`` (index 0 is layer 1).

    Attributes
    ----------
    z_std : numpy.ndarray
        Standard deviation of the pre-activations ``z_l``.
    z_second_moment : numpy.ndarray
        ``E[z_l^2]``.
    a_mean : numpy.ndarray
        Mean of the activations ``a_l = f(z_l)``.
    a_second_moment : numpy.ndarray
        ``E[a_l^2]`` (what the next layer's variance depends on).
    small_grad_fraction : numpy.ndarray
        Fraction of entries where ``|f'(z_l)|`` is below the threshold given to
        :func:`layer_statistics`: for ReLU the inactive units, for tanh the saturated ones.
    """

    z_std: np.ndarray
    z_second_moment: np.ndarray
    a_mean: np.ndarray
    a_second_moment: np.ndarray
    small_grad_fraction: np.ndarray

    def __len__(self) -> int:
        return len(self.z_std)


def layer_statistics(X, weights, activation: str = "relu", biases=None, *,
                     small_grad: float = 0.1) -> StackStatistics:
    """Run ``X`` through ``a_l = f(a_{l-1} @ W_l + b_l)`` and record each layer's statistics.

    Parameters
    ----------
    X : array_like, shape (B, d_0)
        Input batch.
    weights : sequence of array_like, shapes (d_{l-1}, d_l), l = 1..L
    activation : str
        Activation applied after every layer, a name from ``mlp_ref.ACTIVATIONS``.
    biases : sequence of array_like, shapes (d_l,), optional
        Zero biases if not given.
    small_grad : float
        Threshold for ``small_grad_fraction`` (``|f'(z)| < small_grad``), ``> 0``.

    Returns
    -------
    StackStatistics
        Arrays of shape ``(L,)``.

    Raises
    ------
    ShapeError
        If ``X`` is not 2-D or a layer's ``W`` or ``b`` does not fit; the message names the layer.
    """
    f, fprime = ACTIVATION_KERNELS[check_activation_name(activation)]
    a = as_float_array(X, "X", ndim=2)
    weights = list(weights)
    if not weights:
        raise ValueError("weights: expected at least one weight matrix, received none")
    if biases is not None:
        biases = list(biases)
        if len(biases) != len(weights):
            raise ValueError(f"biases: expected {len(weights)} bias vectors (one per weight matrix), "
                             f"received {len(biases)}")
    small_grad = check_real("small_grad", small_grad, low=0)
    rows = []
    for layer, W in enumerate(weights, start=1):
        W = as_float_array(W, "W", ndim=2, layer=layer)
        if W.shape[0] != a.shape[1]:
            previous = "X" if layer == 1 else f"a{layer - 1}"
            raise ShapeError(f"W (layer {layer}): expected {a.shape[1]} rows to match the width of {previous} "
                             f"(shape {a.shape}), received W shape {W.shape}")
        z = a @ W
        if biases is not None:
            b = as_float_array(biases[layer - 1], "b", ndim=1, layer=layer)
            if b.shape != (W.shape[1],):
                raise ShapeError(f"b (layer {layer}): expected shape ({W.shape[1]},) to match W of shape "
                                 f"{W.shape}, received b shape {b.shape}")
            z = z + b
        a = f(z)
        rows.append((z.std(), np.mean(z * z), a.mean(), np.mean(a * a),
                     np.mean(np.abs(fprime(z)) < small_grad)))
    columns = np.array(rows, dtype=np.float64).T
    return StackStatistics(*columns)


def random_stack(width: int, depth: int, gain: float, seed) -> list[np.ndarray]:
    """``depth`` square weight matrices drawn ``N(0, gain^2 / width)`` (He normal with a gain).

    ``gain = sqrt(2)`` is He initialization for ReLU, ``5/3`` the usual gain for tanh,
    ``1`` the variance ``1 / width``.

    Parameters
    ----------
    width : int
        Width of every layer, ``>= 1``.
    depth : int
        Number of layers, ``>= 1``.
    gain : float
        Positive scale; the standard deviation is ``gain / sqrt(width)``.
    seed : int or numpy.random.Generator

    Returns
    -------
    list of numpy.ndarray
        ``depth`` arrays of shape ``(width, width)``.
    """
    depth = check_int("depth", depth, 1)
    rng = as_generator(seed)
    return [he_normal(width, width, rng, gain=gain) for _ in range(int(depth))]
