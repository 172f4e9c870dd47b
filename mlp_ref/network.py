"""Layers and the multi-layer perceptron.

Row-batch convention: a batch ``X`` has shape ``(B, d_in)``, a layer's weights ``W`` shape
``(d_in, d_out)`` and its bias ``b`` shape ``(d_out,)``; the layer computes
``Z = X @ W + b`` of shape ``(B, d_out)``, the bias broadcast across the ``B`` rows.
PyTorch's ``nn.Linear`` stores ``weight`` as ``(d_out, d_in)`` and computes
``x @ weight.T + bias``; :func:`linear_to_torch` and :func:`linear_from_torch` convert
one layer explicitly, never silently.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mlp_ref.activations import ACTIVATION_KERNELS, check_activation_name
from mlp_ref.initialization import get_initializer
from mlp_ref.losses import MLP_OUTPUTS
from mlp_ref.validation import (
    ShapeError, as_float_array, as_generator, check_choice, check_dtype, check_labels, check_layer_sizes,
    check_weights, float_dtype, layer_label,
)

__all__ = ["affine", "dense", "linear_to_torch", "linear_from_torch", "MLP", "ForwardCache", "Gradients", "check_mlp"]


def _check_layer_arrays(W, b, *, layer: int | None, dtype=np.float64,
                        w_name: str = "W", b_name: str = "b") -> tuple[np.ndarray, np.ndarray]:
    """Check a weight matrix ``W`` (d_in, d_out) and bias ``b`` (d_out,) against each other."""
    W = as_float_array(W, w_name, ndim=2, dtype=dtype, layer=layer)
    b = as_float_array(b, b_name, ndim=1, dtype=dtype, layer=layer)
    if b.shape[0] != W.shape[1]:
        raise ShapeError(
            f"{layer_label(b_name, layer)}: expected shape ({W.shape[1]},) to match {w_name} of shape "
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
    dtype = float_dtype(X)
    X = as_float_array(X, "X", ndim=2, dtype=dtype, layer=layer)
    W, b = _check_layer_arrays(W, b, layer=layer, dtype=dtype)
    if X.shape[1] != W.shape[0]:
        raise ShapeError(
            f"{layer_label('X', layer)}: expected width {W.shape[0]} to match W of shape {W.shape} "
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
    f, _ = ACTIVATION_KERNELS[check_activation_name(activation)]
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
    W, b = _check_layer_arrays(W, b, layer=None, dtype=float_dtype(W))
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
    weight = as_float_array(weight, "weight", ndim=2, dtype=float_dtype(weight))
    bias = as_float_array(bias, "bias", ndim=1, dtype=weight.dtype)
    if bias.shape[0] != weight.shape[0]:
        raise ShapeError(
            f"bias: expected shape ({weight.shape[0]},) to match weight of shape {weight.shape} "
            f"(d_out, d_in), received bias shape {bias.shape}"
        )
    return weight.T.copy(), bias.copy()


# =========================================================================== the MLP



@dataclass
class ForwardCache:
    """The intermediates of one forward pass, kept because the backward pass needs them.

    For a network with ``L`` layers and a batch of ``B`` rows:

    Attributes
    ----------
    pre_activations : list of numpy.ndarray
        ``[z_1, ..., z_L]``, ``z_l = a_{l-1} @ W_l + b_l`` of shape ``(B, d_l)``;
        ``z_L`` are the logits.
    activations : list of numpy.ndarray
        ``[a_0, ..., a_L]`` with ``a_0 = X`` of shape ``(B, d_0)``, ``a_l = f(z_l)`` of shape
        ``(B, d_l)``, and ``a_L`` the output (after the output activation).

    Notes
    -----
    Why keep them: the gradient of layer ``l``'s weights is ``a_{l-1}^T @ delta_l`` and the
    error is passed down through ``f'(z_{l-1})``. Without the cache the backward pass would
    have to recompute the forward pass; with it, memory grows with ``B`` and the widths.
    """

    pre_activations: list[np.ndarray]
    activations: list[np.ndarray]


@dataclass
class Gradients:
    """Gradients of the loss, one array per parameter, in the same layout as the network.

    Attributes
    ----------
    weights : list of numpy.ndarray
        ``dL/dW_l``, shape ``(d_{l-1}, d_l)`` for ``l = 1..L``.
    biases : list of numpy.ndarray
        ``dL/db_l``, shape ``(d_l,)``.
    """

    weights: list[np.ndarray]
    biases: list[np.ndarray]


def _check_output(output, d_out: int) -> str:
    check_choice("output", output, list(MLP_OUTPUTS))
    if output == "sigmoid" and d_out != 1:
        raise ValueError(f"output: 'sigmoid' needs one output unit (binary), received output width {d_out}; "
                         "use 'softmax' for several classes")
    if output == "softmax" and d_out < 2:
        raise ValueError(f"output: 'softmax' needs at least 2 output units, received output width {d_out}; "
                         "use 'sigmoid' for a binary output")
    return output


class MLP:
    """A fully connected feed-forward network, ``sizes = [d_0, d_1, ..., d_L]``.

    Layer ``l = 1..L`` computes ``z_l = a_{l-1} @ W_l + b_l`` with ``W_l`` of shape
    ``(d_{l-1}, d_l)`` and ``b_l`` of shape ``(d_l,)``; hidden layers apply ``activation``,
    the last layer applies the output head.

    Output heads and the loss each one is trained with (:meth:`loss_and_grads`):

    * ``"identity"``: the output is the logits ``z_L`` (B, d_L); loss MSE; targets ``y`` are
      floats of shape (B, d_L), or (B,) when d_L = 1.
    * ``"sigmoid"`` (d_L = 1): the output is ``sigmoid(z_L)`` (B, 1); loss binary cross
      entropy; targets in [0, 1] of shape (B,) or (B, 1).
    * ``"softmax"`` (d_L >= 2): the output is ``softmax(z_L)`` (B, d_L); loss cross entropy;
      targets are integer classes of shape (B,).

    Parameters
    ----------
    sizes : sequence of int
        Layer widths, input first; at least two.
    activation : str
        Hidden activation, a name from :data:`mlp_ref.activations.ACTIVATIONS`.
    output : {"identity", "sigmoid", "softmax"}
    init : str
        Weight initializer, a name from :data:`mlp_ref.initialization.INITIALIZERS`;
        biases start at zero.
    seed : int or numpy.random.Generator
    dtype : numpy.float32 or numpy.float64

    Attributes
    ----------
    weights : list of numpy.ndarray, shapes (d_{l-1}, d_l)
    biases : list of numpy.ndarray, shapes (d_l,)
    """

    def __init__(self, sizes, activation: str = "relu", output: str = "identity", init: str = "he",
                 seed=0, dtype=np.float64):
        sizes = check_layer_sizes(sizes)
        dtype = check_dtype(dtype)
        initializer = get_initializer(init)
        rng = as_generator(seed)
        weights = [initializer(d_in, d_out, rng, dtype) for d_in, d_out in zip(sizes[:-1], sizes[1:])]
        biases = [np.zeros(d_out, dtype=dtype) for d_out in sizes[1:]]
        self._set(weights, biases, activation, output)

    def _set(self, weights, biases, activation, output) -> None:
        self.activation = check_activation_name(activation)
        self.output = _check_output(output, weights[-1].shape[1])
        self.weights = weights
        self.biases = biases
        self.sizes = [weights[0].shape[0]] + [W.shape[1] for W in weights]
        self.dtype = weights[0].dtype.type

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_arrays(cls, weights, biases, activation: str = "relu", output: str = "identity",
                    dtype=None) -> "MLP":
        """Build a network from explicit weights, e.g. hand-chosen ones.

        Parameters
        ----------
        weights : sequence of array_like, shapes (d_{l-1}, d_l)
            Consecutive layers must agree: ``weights[l].shape[1] == weights[l+1].shape[0]``.
        biases : sequence of array_like, shapes (d_l,)
        activation, output : str
            As for :class:`MLP`.
        dtype : numpy.float32 or numpy.float64, optional
            Default: float32 if every weight is float32, else float64.

        Returns
        -------
        MLP
            Holding copies of the arrays.
        """
        weights, biases = list(weights), list(biases)
        if not weights or len(weights) != len(biases):
            raise ValueError(f"weights, biases: expected the same positive number of layers, "
                             f"received {len(weights)} weight and {len(biases)} bias arrays")
        if dtype is None:
            dtype = np.float32 if all(getattr(W, "dtype", None) == np.float32 for W in weights) else np.float64
        dtype = check_dtype(dtype)
        checked_w, checked_b = [], []
        for index, (W, b) in enumerate(zip(weights, biases), start=1):
            W, b = _check_layer_arrays(W, b, layer=index, dtype=dtype)
            if checked_w and W.shape[0] != checked_w[-1].shape[1]:
                raise ShapeError(
                    f"W (layer {index}): expected {checked_w[-1].shape[1]} rows to match the width of "
                    f"layer {index - 1} (W shape {checked_w[-1].shape}), received W shape {W.shape}")
            checked_w.append(np.array(W, dtype=dtype, order="C"))
            checked_b.append(np.array(b, dtype=dtype))
        net = cls.__new__(cls)
        net._set(checked_w, checked_b, activation, output)
        return net

    @classmethod
    def from_torch_state(cls, state: dict, activation: str = "relu", output: str = "identity",
                         dtype=None) -> "MLP":
        """Build a network from an ``nn.Sequential(Linear, act, Linear, ...)`` state dict.

        Parameters
        ----------
        state : dict of str -> array_like
            Keys ``"0.weight"``, ``"0.bias"``, ``"2.weight"``, ... with weights of shape
            ``(d_out, d_in)`` (PyTorch's layout), as NumPy arrays: from PyTorch use
            ``{k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}``.
        activation, output, dtype
            As for :meth:`from_arrays`.

        Returns
        -------
        MLP
        """
        if not isinstance(state, dict) or not state:
            raise TypeError(f"state: expected a non-empty dict of arrays, received {type(state).__name__}")
        n_layers = (len(state) + 1) // 2
        expected = [f"{2 * l}.{kind}" for l in range(n_layers) for kind in ("weight", "bias")]
        if sorted(state) != sorted(expected):
            raise ValueError(f"state: expected keys {expected} (nn.Sequential(Linear, act, Linear, ...)), "
                             f"received keys {sorted(state)}")
        weights, biases = [], []
        for l in range(n_layers):
            try:
                W, b = linear_from_torch(state[f"{2 * l}.weight"], state[f"{2 * l}.bias"])
            except ValueError as error:  # ShapeError is a ValueError
                raise type(error)(f"state['{2 * l}.*'] (layer {l + 1}): {error}") from None
            weights.append(W)
            biases.append(b)
        if dtype is None:
            dtype = np.float32 if all(np.asarray(v).dtype == np.float32 for v in state.values()) else np.float64
        return cls.from_arrays(weights, biases, activation=activation, output=output, dtype=dtype)

    def to_torch_state(self) -> dict[str, np.ndarray]:
        """Parameters in PyTorch's layout, named as in ``nn.Sequential(Linear, act, Linear, ...)``.

        Returns
        -------
        dict of str -> numpy.ndarray
            ``"{2l}.weight"`` of shape ``(d_{l+1}, d_l)`` and ``"{2l}.bias"`` of shape
            ``(d_{l+1},)`` for ``l = 0..L-1`` (the activations sit at the odd indices and have
            no parameters). Copies; load into PyTorch with
            ``model.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})``.
        """
        state = {}
        for l, (W, b) in enumerate(zip(self.weights, self.biases)):
            state[f"{2 * l}.weight"], state[f"{2 * l}.bias"] = linear_to_torch(W, b)
        return state

    def copy(self) -> "MLP":
        """An independent copy (new arrays)."""
        return MLP.from_arrays(self.weights, self.biases, self.activation, self.output, self.dtype)

    @property
    def n_params(self) -> int:
        """Number of weights and biases, ``sum_l (d_{l-1} d_l + d_l)``."""
        return sum(W.size + b.size for W, b in zip(self.weights, self.biases))

    def __repr__(self) -> str:
        return (f"MLP(sizes={self.sizes}, activation={self.activation!r}, output={self.output!r}, "
                f"dtype={np.dtype(self.dtype).name})")

    # ------------------------------------------------------------------ checks

    def check_X(self, X, name: str = "X") -> np.ndarray:
        """Return ``X`` as a finite array (B, d_0) of the network's dtype, or raise (naming ``name``)."""
        X = as_float_array(X, name, ndim=2, dtype=self.dtype)
        if X.shape[1] != self.sizes[0]:
            raise ShapeError(f"{name} (layer 1): expected width {self.sizes[0]} to match W of shape "
                             f"{self.weights[0].shape} (d_in, d_out), received {name} shape {X.shape}")
        return X

    def check_target(self, y, n_rows: int, name: str = "y", rows_of: str = "X") -> np.ndarray:
        """Return targets for the output head, or raise: int labels (B,) in [0, d_L) for softmax,
        floats (B, d_L) otherwise (in [0, 1] for sigmoid). ``rows_of`` names the array whose
        ``n_rows`` rows they belong to, for the error message."""
        if self.output == "softmax":
            return check_labels(y, n_rows, self.sizes[-1], name=name, rows_of=rows_of)
        t = as_float_array(y, name, dtype=self.dtype)
        width = self.sizes[-1]
        allowed = [(n_rows, width)] + ([(n_rows,)] if width == 1 else [])
        if t.shape not in allowed:
            raise ShapeError(f"{name}: expected shape {' or '.join(map(str, allowed))} "
                             f"(one target per row of {rows_of}), received shape {t.shape}")
        if self.output == "sigmoid" and np.any((t < 0) | (t > 1)):
            raise ValueError(f"{name}: expected targets in [0, 1] for a sigmoid output, "
                             f"received values from {t.min()} to {t.max()}")
        return t.reshape(n_rows, width)

    # ------------------------------------------------------------------ forward

    def _forward(self, X: np.ndarray) -> tuple[np.ndarray, ForwardCache]:
        """Unchecked forward pass; ``X`` is a finite (B, d_0) array of the network's dtype."""
        f = ACTIVATION_KERNELS[self.activation][0]
        head = MLP_OUTPUTS[self.output][0]
        zs, activations = [], [X]
        a = X
        last = len(self.weights) - 1
        for l, (W, b) in enumerate(zip(self.weights, self.biases)):
            z = a @ W + b
            a = head(z) if l == last else f(z)
            zs.append(z)
            activations.append(a)
        return a, ForwardCache(zs, activations)

    def forward(self, X, keep_cache: bool = False):
        """Run the network on a batch.

        Parameters
        ----------
        X : array_like, shape (B, d_0)
            A single example must be passed as shape ``(1, d_0)``. Converted to the
            network's dtype.
        keep_cache : bool
            Also return the :class:`ForwardCache` of every ``z_l`` and ``a_l``.

        Returns
        -------
        output : numpy.ndarray, shape (B, d_L)
            Logits for ``output="identity"``, probabilities for sigmoid and softmax.
        cache : ForwardCache
            Only when ``keep_cache=True``.
        """
        out, cache = self._forward(self.check_X(X))
        return (out, cache) if keep_cache else out

    def logits(self, X) -> np.ndarray:
        """The last pre-activation ``z_L`` (before the output head), shape (B, d_L)."""
        return self._forward(self.check_X(X))[1].pre_activations[-1]

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities: ``softmax`` (B, d_L) or ``sigmoid`` (B, 1) outputs.

        (scikit-learn's binary ``predict_proba`` returns ``[1 - p, p]`` of shape (B, 2).)
        Raises ValueError for ``output="identity"``, which has no probabilities.
        """
        if self.output == "identity":
            raise ValueError("predict_proba: output='identity' gives regression values, not probabilities; "
                             "use forward or predict")
        return self.forward(X)

    def predict(self, X) -> np.ndarray:
        """Predictions: class index (B,) for softmax, 0/1 (B,) for sigmoid (p > 0.5),
        the values (B, d_L) for identity."""
        return self.predict_from_output(self.forward(X))

    def predict_from_output(self, out: np.ndarray) -> np.ndarray:
        """:meth:`predict` from outputs already computed by :meth:`forward`, shape (B, d_L)."""
        if self.output == "softmax":
            return out.argmax(axis=1)
        if self.output == "sigmoid":
            return (out[:, 0] > 0.5).astype(np.intp)
        return out

    # ------------------------------------------------------------------ backward

    def backward(self, cache: ForwardCache, delta) -> Gradients:
        """The backward pass: gradients of every weight and bias from ``dLoss/dz_L``.

        Going down from the last layer, with ``delta_L = delta``:

            dW_l = a_{l-1}^T @ delta_l        (d_{l-1}, B) @ (B, d_l)
            db_l = sum over rows of delta_l   (d_l,)
            delta_{l-1} = (delta_l @ W_l^T) * f'(z_{l-1})

        Parameters
        ----------
        cache : ForwardCache
            From ``forward(X, keep_cache=True)`` on a batch of ``B`` rows, with the weights
            as they are now.
        delta : array_like, shape (B, d_L)
            Gradient of the loss with respect to the logits ``z_L`` (the last
            pre-activation), e.g. from :meth:`loss_and_delta`. It includes the loss's
            ``1 / B``, so the gradients returned are those of the batch's mean loss.

        Returns
        -------
        Gradients
            ``weights[l]`` of shape ``(d_{l-1}, d_l)`` and ``biases[l]`` of shape ``(d_l,)``,
            as ``self.weights`` and ``self.biases``.
        """
        if not isinstance(cache, ForwardCache):
            raise TypeError(f"cache: expected a ForwardCache (forward(X, keep_cache=True)), "
                            f"received {type(cache).__name__}")
        logits = cache.pre_activations[-1]
        delta = as_float_array(delta, "delta", ndim=2, dtype=self.dtype)
        if delta.shape != logits.shape:
            raise ShapeError(f"delta: expected shape {logits.shape} (the logits' shape, (B, d_L)), "
                             f"received shape {delta.shape}")
        fprime = ACTIVATION_KERNELS[self.activation][1]
        grad_w, grad_b = [None] * len(self.weights), [None] * len(self.weights)
        for l in range(len(self.weights) - 1, -1, -1):
            grad_w[l] = cache.activations[l].T @ delta        # (d_{l-1}, B) @ (B, d_l)
            grad_b[l] = delta.sum(axis=0)                     # (d_l,)
            if l > 0:                                         # dL/dz_{l-1}; not needed for X
                delta = (delta @ self.weights[l].T) * fprime(cache.pre_activations[l - 1])
        return Gradients(grad_w, grad_b)

    def loss_and_delta(self, logits: np.ndarray, target: np.ndarray, weights=None) -> tuple[float, np.ndarray]:
        """The loss of the output head and its gradient with respect to the logits.

        Cross entropy for softmax, binary cross entropy for sigmoid, MSE for identity, each
        computed from the logits (:mod:`mlp_ref.losses`) and averaged over the batch.
        Unchecked, for loops that checked their data once: pass the logits of
        :meth:`forward`'s cache and targets from :meth:`check_target` (the checked way is
        :meth:`loss_and_grads`, or the functions of :mod:`mlp_ref.losses`).

        Parameters
        ----------
        logits : numpy.ndarray, shape (B, d_L)
            ``cache.pre_activations[-1]``.
        target : numpy.ndarray
            Labels (B,) for softmax, (B, d_L) floats otherwise.
        weights : numpy.ndarray, shape (B,), optional
            Per-example weights (see :mod:`mlp_ref.losses`).

        Returns
        -------
        loss : float
        delta : numpy.ndarray, shape (B, d_L)
            ``dLoss/dlogits``, the input of :meth:`backward`.
        """
        return MLP_OUTPUTS[self.output][1](logits, target, weights)

    def loss_and_grads(self, X, y, weights=None) -> tuple[float, Gradients]:
        """The loss on a batch and its gradient for every weight and bias.

        The loss follows the output head (see the class docstring): cross entropy of
        integer labels for softmax, binary cross entropy for sigmoid, MSE for identity,
        each computed from the logits and averaged over the batch.

        Parameters
        ----------
        X : array_like, shape (B, d_0)
        y : array_like
            Integer classes (B,) for softmax; targets in [0, 1], (B,) or (B, 1), for
            sigmoid; floats (B, d_L) (or (B,) when d_L = 1) for identity.
        weights : array_like, shape (B,), optional
            Per-example weights or a 0/1 mask (see :mod:`mlp_ref.losses`).

        Returns
        -------
        loss : float
        grads : Gradients
            ``grads.weights[l]`` has the shape of ``self.weights[l]``, likewise for biases.
        """
        X = self.check_X(X)
        target = self.check_target(y, X.shape[0])
        weights = check_weights(weights, X.shape[0], self.dtype)
        _, cache = self._forward(X)
        loss, delta = self.loss_and_delta(cache.pre_activations[-1], target, weights)
        return loss, self.backward(cache, delta)


def check_mlp(net, name: str = "net") -> MLP:
    """Return ``net`` if it is an :class:`MLP`, else raise TypeError naming ``name``."""
    if not isinstance(net, MLP):
        raise TypeError(f"{name}: expected an mlp_ref.MLP, received {type(net).__name__}")
    return net
