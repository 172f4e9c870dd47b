"""The feed-forward block of a transformer, applied position by position.

A transformer holds a sequence batch as ``X`` of shape ``(B, T, d)``: ``B`` sequences of
``T`` positions (tokens), each a vector of width ``d``. Its feed-forward block (FFN) is an
ordinary two-layer MLP applied to the last axis only, with the same weights at every
position; nothing in it reads another position. Three forms of that block:

* ``ffn(X, W1, b1, W2, b2, activation)``: ``f(X W1 + b1) W2 + b2`` (Vaswani et al., 2017,
  with ReLU; GPT-2 with GELU);
* ``gated_ffn(X, W_gate, W_up, W_down, activation="silu")``: SwiGLU,
  ``(silu(X W_gate) * (X W_up)) W_down`` without biases (Shazeer, 2020; LLaMA, Qwen);
* ``moe_ffn(X, W_router, experts, top_k)``: a mixture of experts, where a router picks
  ``top_k`` of several FFNs for each position and mixes their outputs
  (``route_top_k`` returns the choice and its weights).

``conv1d(X, K, b)`` is a one-dimensional convolution along the positions, for the view of the
FFN as two convolutions of kernel size 1 (Vaswani et al., 2017, section 3.3).

Every function accepts ``X`` of shape ``(N, d)`` (rows) or ``(B, T, d)`` (sequences) and
returns the same leading shape with the output width on the last axis. Weights follow the
site's ``(d_in, d_out)`` convention. Shapes are checked, never broadcast into agreement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mlp_ref.activations import ACTIVATION_KERNELS, check_activation_name
from mlp_ref.validation import ShapeError, as_float_array, check_int

__all__ = ["ffn", "gated_ffn", "route_top_k", "Routing", "moe_ffn", "conv1d"]


def _as_tokens(X, name: str = "X") -> np.ndarray:
    """Check ``X`` is ``(N, d)`` or ``(B, T, d)``, finite, non-empty."""
    array = np.asarray(X)
    if array.ndim not in (2, 3):
        hint = " (a single row of width d must be passed as shape (1, d))" if array.ndim == 1 else ""
        raise ShapeError(f"{name}: expected shape (N, d) or (B, T, d), received shape {array.shape}{hint}")
    array = as_float_array(array, name)
    if array.size == 0:
        raise ShapeError(f"{name}: expected a non-empty array, received shape {array.shape}")
    return array


def _matrix(W, name: str, rows: int | None = None) -> np.ndarray:
    W = as_float_array(W, name, ndim=2)
    if rows is not None and W.shape[0] != rows:
        raise ShapeError(f"{name}: expected {rows} rows (d_in = {rows}), received shape {W.shape}")
    return W


def _vector(b, name: str, size: int, matrix: str) -> np.ndarray:
    b = as_float_array(b, name, ndim=1)
    if b.shape[0] != size:
        raise ShapeError(f"{name}: expected shape ({size},) to match the columns of {matrix}, "
                         f"received shape {b.shape}")
    return b


def ffn(X, W1, b1, W2, b2, activation: str = "relu") -> np.ndarray:
    """Position-wise feed-forward block ``f(X W1 + b1) W2 + b2``.

    Parameters
    ----------
    X : array_like, shape (N, d) or (B, T, d)
        Rows, or ``B`` sequences of ``T`` positions of width ``d``.
    W1 : array_like, shape (d, d_ff)
        Up projection.
    b1 : array_like, shape (d_ff,)
    W2 : array_like, shape (d_ff, d_out)
        Down projection (``d_out = d`` inside a transformer, so the residual can be added).
    b2 : array_like, shape (d_out,)
    activation : str
        A name from :data:`mlp_ref.activations.ACTIVATIONS` (``"relu"``, ``"gelu"``, ...).

    Returns
    -------
    numpy.ndarray, shape (N, d_out) or (B, T, d_out)
        Row ``t`` of the output depends on row ``t`` of ``X`` only.

    Raises
    ------
    ShapeError
        If ``X`` is not 2-D or 3-D, or the widths of ``X``, ``W1``, ``b1``, ``W2``, ``b2``
        disagree; the message names the argument and both shapes.
    """
    f = ACTIVATION_KERNELS[check_activation_name(activation)][0]
    X = _as_tokens(X)
    d = X.shape[-1]
    W1 = _matrix(W1, "W1", d)
    b1 = _vector(b1, "b1", W1.shape[1], "W1")
    W2 = _matrix(W2, "W2", W1.shape[1])
    b2 = _vector(b2, "b2", W2.shape[1], "W2")
    # matmul acts on the last axis and treats every leading index alike: that is the
    # "position-wise" of the FFN.
    return f(X @ W1 + b1) @ W2 + b2


def gated_ffn(X, W_gate, W_up, W_down, activation: str = "silu") -> np.ndarray:
    """Gated feed-forward block ``(f(X W_gate) * (X W_up)) W_down``, without biases.

    With ``activation="silu"`` this is SwiGLU (Shazeer, 2020), the FFN of LLaMA and Qwen.

    Parameters
    ----------
    X : array_like, shape (N, d) or (B, T, d)
    W_gate : array_like, shape (d, h)
        Gate projection; its output goes through the activation.
    W_up : array_like, shape (d, h)
        Up projection; its output is multiplied elementwise by the gate.
    W_down : array_like, shape (h, d_out)
        Down projection.
    activation : str
        Activation of the gate (``"silu"`` for SwiGLU, ``"gelu"`` for GEGLU).

    Returns
    -------
    numpy.ndarray, shape (N, d_out) or (B, T, d_out)
    """
    f = ACTIVATION_KERNELS[check_activation_name(activation)][0]
    X = _as_tokens(X)
    d = X.shape[-1]
    W_gate = _matrix(W_gate, "W_gate", d)
    W_up = _matrix(W_up, "W_up", d)
    if W_up.shape != W_gate.shape:
        raise ShapeError(f"W_up: expected the shape of W_gate {W_gate.shape}, received shape {W_up.shape}")
    W_down = _matrix(W_down, "W_down", W_gate.shape[1])
    return (f(X @ W_gate) * (X @ W_up)) @ W_down


@dataclass(frozen=True)
class Routing:
    """Which experts each token uses, and with what weight.

    Attributes
    ----------
    experts : numpy.ndarray of int, shape (N, k) or (B, T, k)
        Indices of the chosen experts, best first.
    weights : numpy.ndarray, shape (N, k) or (B, T, k)
        Mixing weights of the chosen experts; each row sums to 1.
    """

    experts: np.ndarray
    weights: np.ndarray


def route_top_k(logits, top_k: int) -> Routing:
    """Pick the ``top_k`` largest router scores per token and softmax over just those.

    This is Mixtral's rule (Jiang et al., 2024): equivalent to a softmax over all experts
    renormalized over the chosen ones. Ties go to the lower expert index.

    Parameters
    ----------
    logits : array_like, shape (N, E) or (B, T, E)
        Router scores of ``E`` experts for every token (``X @ W_router``).
    top_k : int
        Experts per token, ``1 <= top_k <= E``.

    Returns
    -------
    Routing
    """
    logits = _as_tokens(logits, "logits")
    n_experts = logits.shape[-1]
    top_k = check_int("top_k", top_k, 1, n_experts, note=" (the number of experts)")
    # A stable sort of the negated scores keeps the lower index first among equal scores.
    experts = np.argsort(-logits, axis=-1, kind="stable")[..., :top_k]
    chosen = np.take_along_axis(logits, experts, axis=-1)
    shifted = np.exp(chosen - chosen.max(axis=-1, keepdims=True))
    return Routing(experts=experts, weights=shifted / shifted.sum(axis=-1, keepdims=True))


def moe_ffn(X, W_router, experts: Sequence[tuple], top_k: int, activation: str = "relu") -> tuple[np.ndarray, Routing]:
    """Mixture-of-experts feed-forward block: each token runs ``top_k`` of ``E`` FFNs.

    ``Y[t] = sum_j weights[t, j] * FFN_{experts[t, j]}(X[t])`` with the routing of
    :func:`route_top_k` on ``X @ W_router``. Only the chosen experts are computed.

    Parameters
    ----------
    X : array_like, shape (N, d) or (B, T, d)
    W_router : array_like, shape (d, E)
        Router weights, one column per expert.
    experts : sequence of E tuples
        Each expert's weights: ``(W1, b1, W2, b2)`` for a classic FFN (see :func:`ffn`)
        or ``(W_gate, W_up, W_down)`` for a gated one (see :func:`gated_ffn`). All experts
        must map width ``d`` to the same output width.
    top_k : int
        Experts per token.
    activation : str
        Activation of every expert (the gate's activation for gated experts).

    Returns
    -------
    (numpy.ndarray, Routing)
        The output, shape (N, d_out) or (B, T, d_out), and the routing used.
    """
    X = _as_tokens(X)
    W_router = _matrix(W_router, "W_router", X.shape[-1])
    if len(experts) != W_router.shape[1]:
        raise ShapeError(f"experts: expected {W_router.shape[1]} experts (the columns of W_router), "
                         f"received {len(experts)}")
    for index, params in enumerate(experts):
        if len(params) not in (3, 4):
            raise ValueError(f"experts[{index}]: expected (W1, b1, W2, b2) or (W_gate, W_up, W_down), "
                             f"received a tuple of {len(params)} arrays")
    routing = route_top_k(X @ W_router, top_k)
    rows = X.reshape(-1, X.shape[-1])                      # (N, d): every position is a row
    chosen = routing.experts.reshape(len(rows), top_k)
    weights = routing.weights.reshape(len(rows), top_k)
    outputs: np.ndarray | None = None
    for index, params in enumerate(experts):
        token, slot = np.nonzero(chosen == index)
        if token.size == 0:
            continue
        block = ffn if len(params) == 4 else gated_ffn
        out = block(rows[token], *params, activation=activation)
        if outputs is None:
            outputs = np.zeros((len(rows), out.shape[1]))
        elif out.shape[1] != outputs.shape[1]:
            raise ShapeError(f"experts[{index}]: expected output width {outputs.shape[1]} like the "
                             f"other experts, received {out.shape[1]}")
        np.add.at(outputs, token, weights[token, slot][:, None] * out)
    return outputs.reshape(*X.shape[:-1], outputs.shape[1]), routing


def conv1d(X, K, b) -> np.ndarray:
    """One-dimensional convolution along the positions of ``B`` sequences ("valid": no padding).

    Output position ``t`` reads input positions ``t, t + 1, ..., t + k - 1``, each through its
    own tap ``K[j]`` of shape (c_in, c_out), the same taps at every ``t`` (a cross-correlation,
    as deep-learning libraries compute it):

        Y[:, t] = b + sum over j of X[:, t + j] @ K[j]

    With ``k = 1`` each output position reads its own input position only: the convolution is
    then a dense layer ``X @ K[0] + b`` applied at every position, which is what the FFN's two
    matrices are.

    Parameters
    ----------
    X : array_like, shape (B, T, c_in)
        ``B`` sequences of ``T`` positions with ``c_in`` channels (the model width).
    K : array_like, shape (k, c_in, c_out)
        The kernel: ``k`` taps, ``1 <= k <= T``.
    b : array_like, shape (c_out,)
        Bias, added at every output position.

    Returns
    -------
    numpy.ndarray, shape (B, T - k + 1, c_out)
    """
    X = as_float_array(X, "X", ndim=3)
    K = as_float_array(K, "K", ndim=3)
    k, T = K.shape[0], X.shape[1]
    if K.shape[1] != X.shape[2]:
        raise ShapeError(f"K: expected shape (k, {X.shape[2]}, c_out) to match X's {X.shape[2]} channels, "
                         f"received shape {K.shape}")
    if k > T:
        raise ShapeError(f"K: expected at most T = {T} taps (the length of X), received {k}")
    b = _vector(b, "b", K.shape[2], "K")
    T_out = T - k + 1
    # one matrix product per tap, each on the window of positions that tap reads
    return sum(X[:, j:j + T_out, :] @ K[j] for j in range(k)) + b
