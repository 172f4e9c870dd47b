"""Training: one SGD step, a full training loop, and a gradient check.

:func:`fit` runs mini-batch SGD. Its inner loop (:func:`_sgd_batch`) computes exactly what
``net.loss_and_grads`` followed by :func:`sgd_step` computes, but into arrays allocated once
per call to :func:`fit`, with no input checks (the inputs were checked once, at the start).
That is most of the speed trick: at MLP sizes the matrix products are cheap and the Python
and allocation overhead around them is what costs. The rest, each measured with
``make bench``:

* the bias of every layer after the first is kept as an extra row of its weight matrix
  (see :class:`_Workspace`), which saves a bias addition and a column sum per layer and step;
* the logits are kept transposed, (d_L, n), so the softmax reduces along contiguous memory
  (see :class:`_Buffers`);
* ReLU is ``np.maximum`` against an array of zeros, which NumPy vectorizes, rather than
  against the scalar 0, which it does not;
* each batch is gathered with ``np.take`` into a buffer of its own rather than by fancy
  indexing, which would allocate a new array every step.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from mlp_ref.activations import _KERNELS
from mlp_ref.network import MLP, Gradients
from mlp_ref.validation import ShapeError, as_generator

__all__ = ["sgd_step", "fit", "History", "grad_check"]


def _check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{name}: expected a positive integer, received {value!r}")
    return int(value)


def _check_lr(lr) -> float:
    if isinstance(lr, bool) or not isinstance(lr, numbers.Real) or not math.isfinite(lr) or lr <= 0:
        raise ValueError(f"lr: expected a positive finite number, received {lr!r}")
    return float(lr)


def _check_net(net) -> MLP:
    if not isinstance(net, MLP):
        raise TypeError(f"net: expected an mlp_ref.MLP, received {type(net).__name__}")
    return net


# --------------------------------------------------------------------------- one step

def sgd_step(net: MLP, grads: Gradients, lr: float) -> None:
    """Update the parameters in place: ``W_l -= lr * dW_l`` and ``b_l -= lr * db_l``.

    Parameters
    ----------
    net : MLP
    grads : Gradients
        As returned by ``net.loss_and_grads``; every array must have its parameter's shape.
    lr : float
        Learning rate, > 0.
    """
    _check_net(net)
    lr = _check_lr(lr)
    if len(grads.weights) != len(net.weights) or len(grads.biases) != len(net.biases):
        raise ValueError(f"grads: expected {len(net.weights)} layers, received "
                         f"{len(grads.weights)} weight and {len(grads.biases)} bias gradients")
    for l, pairs in enumerate(zip(net.weights, grads.weights, net.biases, grads.biases), start=1):
        for param, grad, name in ((pairs[0], pairs[1], "dW"), (pairs[2], pairs[3], "db")):
            grad = np.asarray(grad)
            if grad.shape != param.shape:
                raise ShapeError(f"grads.{name} (layer {l}): expected shape {param.shape}, received {grad.shape}")
            if not np.all(np.isfinite(grad)):
                raise ValueError(f"grads.{name} (layer {l}): expected finite values, received NaN or inf")
    for W, dW, b, db in zip(net.weights, grads.weights, net.biases, grads.biases):
        W -= lr * dW
        b -= lr * db


# --------------------------------------------------------------------------- the loop

@dataclass
class History:
    """Per-epoch record of a :func:`fit` run (one list entry per epoch).

    Attributes
    ----------
    train_loss, train_accuracy : list of float
        Means over the epoch's batches, each batch measured just before its update
        (as scikit-learn's ``loss_curve_``); accuracy is ``nan`` for ``output="identity"``.
    val_loss, val_accuracy : list of float
        On the validation set with the weights at the end of the epoch.
    best_epoch : int
        Index into the lists (0 = first epoch) of the lowest validation loss; the
        network's weights were restored to that epoch's at the end of :func:`fit`.
    """

    train_loss: list[float] = field(default_factory=list)
    train_accuracy: list[float] = field(default_factory=list)
    val_loss: list[float] = field(default_factory=list)
    val_accuracy: list[float] = field(default_factory=list)
    best_epoch: int = -1


class _Workspace:
    """The parameters as :func:`fit` updates them, and buffers for every batch size it meets.

    The bias rides along as the last row of an augmented weight matrix
    ``P_l = [[W_l], [b_l]]`` of shape ``(d_{l-1} + 1, d_l)``, acting on an input with a
    trailing column of ones, ``[a, 1] @ P_l = a @ W_l + b_l``. So one product gives ``z_l``
    and one product ``[a, 1]^T @ delta`` gives the gradients of ``W_l`` and ``b_l`` together.
    Layer 1 is the exception: its input is the batch ``X[rows]`` itself, because copying
    every batch into a buffer one column wider costs more than adding the bias separately.
    """

    def __init__(self, net: MLP):
        self.params = [np.vstack([W, b]) for W, b in zip(net.weights, net.biases)]
        self.weights = [P[:-1] for P in self.params]                       # views, (d_{l-1}, d_l)
        self.grads = [np.empty_like(P) for P in self.params]
        self.net = net
        self._buffers: dict[int, _Buffers] = {}

    def buffers(self, n: int) -> "_Buffers":
        """The buffers for a batch of ``n`` rows, made on first use: a fit meets at most
        three sizes (the batch size, the last training batch, the last validation chunk)."""
        if n not in self._buffers:
            self._buffers[n] = _Buffers(self.net, n)
        return self._buffers[n]

    def write_back(self, net: MLP) -> None:
        """Copy the augmented parameters into ``net.weights`` and ``net.biases`` (in place)."""
        for P, W, b in zip(self.params, net.weights, net.biases):
            W[...] = P[:-1]
            b[...] = P[-1]


class _Buffers:
    """Everything one step on a batch of ``n`` rows writes to.

    Hidden layers are laid out row by row, (n, d_l); the logits and their delta are kept
    transposed, (d_L, n), because the softmax's reductions over a handful of classes run
    several times faster along contiguous memory than across it.
    """

    def __init__(self, net: MLP, n: int):
        dt, hidden = net.dtype, net.sizes[1:-1]
        self.n, self.cols = n, np.arange(n)
        self.x = np.empty((n, net.sizes[0]), dt)
        self.z = [np.empty((n, d), dt) for d in hidden]
        self.a_aug = [np.ones((n, d + 1), dt) for d in hidden]                 # [a_l, 1]
        self.a = [a[:, :-1] for a in self.a_aug]                               # views, a_l
        self.delta = [np.empty((n, d), dt) for d in hidden]                    # lr * dLoss/dz_l
        if net.activation == "relu":
            self.zeros = [np.zeros((n, d), dt) for d in hidden]                # relu(z) = max(z, zeros)
            self.mask = [np.empty((n, d), dt) for d in hidden]                 # relu'(z), 0. or 1.
        self.logits_t = np.empty((net.sizes[-1], n), dt)                       # z_L^T
        self.delta_t = np.empty((net.sizes[-1], n), dt)                        # lr * dLoss/dz_L^T
        self.ones = np.ones(n, dt)                                             # ones @ delta = column sums


def _forward_batch(ws: _Workspace, buf: _Buffers, x: np.ndarray, activation: str) -> np.ndarray:
    """Fill ``buf`` with the forward pass of ``x`` (n, d_0); return the logits ``z_L^T`` (d_L, n)."""
    P, L = ws.params, len(ws.params)
    f = _KERNELS[activation][0]
    inp = x
    for l in range(L - 1):
        z = buf.z[l]
        if l == 0:                                            # x has no column of ones
            np.matmul(x, ws.weights[0], out=z)
            z += P[0][-1]
        else:
            np.matmul(inp, P[l], out=z)                       # [a, 1] @ P = a @ W + b
        if activation == "relu":
            np.maximum(z, buf.zeros[l], out=buf.a[l])
        else:
            buf.a[l][...] = f(z)
        inp = buf.a_aug[l]
    logits_t = buf.logits_t
    if L == 1:
        np.matmul(ws.weights[0].T, x.T, out=logits_t)
        logits_t += P[0][-1][:, None]
    else:
        np.matmul(P[L - 1].T, inp.T, out=logits_t)            # (a_aug @ P)^T
    return logits_t


def _sgd_batch(ws: _Workspace, buf: _Buffers, y: np.ndarray, lr: float,
               activation: str, output: str) -> tuple[float, int]:
    """One SGD step on the batch in ``buf.x``; returns (summed per-example loss, number correct).

    The same math as ``net.loss_and_grads(X, y)`` then ``sgd_step(net, grads, lr)``; the
    deltas are scaled by ``lr / n`` up front, so ``[a, 1]^T @ delta`` is already the update.
    """
    n, x = buf.n, buf.x
    P, L = ws.params, len(ws.params)
    fprime = _KERNELS[activation][1]
    logits_t = _forward_batch(ws, buf, x, activation)
    loss_sum, correct = _head_delta(output, logits_t, y, buf.delta_t, buf.cols, lr / n)
    delta = buf.delta_t.T                                     # (n, d_L), a view
    for l in range(L - 1, -1, -1):                            # backward, then update
        if l == 0:                                            # dW_1 and db_1 separately
            np.matmul(x.T, delta, out=ws.grads[0][:-1])
            np.matmul(buf.ones, delta, out=ws.grads[0][-1])
        else:
            np.matmul(buf.a_aug[l - 1].T, delta, out=ws.grads[l])
            # uses W_l before its update
            np.matmul(delta, ws.weights[l].T, out=buf.delta[l - 1])
            if activation == "relu":                          # relu'(z) = [z > 0], as 0. or 1.
                np.greater(buf.z[l - 1], 0, out=buf.mask[l - 1])
                buf.delta[l - 1] *= buf.mask[l - 1]
            else:
                buf.delta[l - 1] *= fprime(buf.z[l - 1])
            delta = buf.delta[l - 1]
        P[l] -= ws.grads[l]
    return loss_sum, correct


def _head_delta(output: str, logits_t: np.ndarray, y: np.ndarray, delta_t: np.ndarray,
                cols: np.ndarray, scale: float) -> tuple[float, int]:
    """Write ``scale * n * dLoss/dz^T`` into ``delta_t``; return (summed loss, number correct).

    ``logits_t`` (d_L, n) are the logits, transposed, and may be overwritten; ``y`` is
    (n,) labels for softmax, (n, d_L) targets otherwise; ``delta_t`` is (d_L, n).
    """
    if output == "softmax":
        correct = int(np.count_nonzero(logits_t.argmax(axis=0) == y))
        logits_t -= logits_t.max(axis=0)                      # shift: exp cannot overflow
        np.exp(logits_t, out=delta_t)
        sums = delta_t.sum(axis=0)
        loss_sum = float(np.log(sums).sum() - logits_t[y, cols].sum())   # sum of logsumexp(z) - z_y
        np.divide(scale, sums, out=sums)
        delta_t *= sums                                       # scale * softmax(z)
        delta_t[y, cols] -= scale                             # scale * (p - onehot(y))
        return loss_sum, correct
    target_t = y.T
    if output == "sigmoid":
        z = logits_t
        per = np.maximum(z, 0) - z * target_t + np.log1p(np.exp(-np.abs(z)))
        p = _KERNELS["sigmoid"][0](z)
        correct = int(np.count_nonzero((p[0] > 0.5) == (target_t[0] > 0.5)))
        np.multiply(p - target_t, scale, out=delta_t)
        return float(per.sum()), correct
    diff = logits_t - target_t                                # identity head, MSE
    np.multiply(diff, 2.0 * scale / logits_t.shape[0], out=delta_t)
    return float((diff * diff).mean(axis=0).sum()), 0


def _evaluate(ws: _Workspace, X: np.ndarray, y: np.ndarray, batch_size: int,
              activation: str, output: str) -> tuple[float, float]:
    """Mean loss and accuracy of the workspace's parameters on checked data, in chunks of
    ``batch_size`` rows through the training buffers (accuracy nan for the identity head)."""
    n = X.shape[0]
    loss_sum, correct = 0.0, 0
    for start in range(0, n, batch_size):
        x = X[start:start + batch_size]
        buf = ws.buffers(x.shape[0])
        logits_t = _forward_batch(ws, buf, x, activation)
        chunk_loss, chunk_correct = _head_delta(output, logits_t, y[start:start + batch_size],
                                                buf.delta_t, buf.cols, 1.0)
        loss_sum += chunk_loss
        correct += chunk_correct
    return loss_sum / n, (correct / n if output != "identity" else float("nan"))


def fit(net: MLP, X_train, y_train, X_val, y_val, epochs: int, batch_size: int, lr: float,
        seed, progress: bool = False) -> History:
    """Train ``net`` in place by mini-batch SGD and keep its best-validation weights.

    Each epoch visits the training rows in a new order drawn from ``seed``, in batches of
    ``batch_size``; the last, smaller batch is kept and its gradient averaged over its own
    size. After each epoch the validation loss is measured; at the end the weights of the
    epoch with the lowest validation loss are restored.

    Parameters
    ----------
    net : MLP
        Trained in place. The loss follows its output head (see :class:`MLP`).
    X_train : array_like, shape (N, d_0)
    y_train : array_like, shape (N,) (or (N, d_L) for an identity head)
    X_val : array_like, shape (M, d_0)
    y_val : array_like, shape (M,) (or (M, d_L))
    epochs : int
        Number of passes over the training data, > 0.
    batch_size : int
        Rows per step, > 0 (a batch size above N means full-batch gradient descent).
    lr : float
        Learning rate, > 0.
    seed : int or numpy.random.Generator
        Controls the shuffling.
    progress : bool
        Show a tqdm progress bar over epochs (tqdm is imported only then).

    Returns
    -------
    History

    Raises
    ------
    FloatingPointError
        If the training or validation loss of an epoch is not finite (the learning rate is
        too large); ``net`` then keeps the weights it had before the call.
    """
    _check_net(net)
    X_train = net._check_X(X_train, "X_train")
    y_train = net._check_target(y_train, X_train.shape[0], "y_train", rows_of="X_train")
    X_val = net._check_X(X_val, "X_val")
    y_val = net._check_target(y_val, X_val.shape[0], "y_val", rows_of="X_val")
    epochs = _check_positive_int(epochs, "epochs")
    batch_size = min(_check_positive_int(batch_size, "batch_size"), X_train.shape[0])
    lr = _check_lr(lr)
    rng = as_generator(seed)

    epoch_iter = range(epochs)
    if progress:
        from tqdm import tqdm  # imported lazily: an optional dependency (plain text bar everywhere)
        epoch_iter = tqdm(epoch_iter, desc="epochs", unit="epoch")

    n = X_train.shape[0]
    ws = _Workspace(net)
    history = History()
    best_loss, best = math.inf, None
    for epoch in epoch_iter:
        order = rng.permutation(n)
        loss_sum, correct = 0.0, 0
        for start in range(0, n, batch_size):
            rows = order[start:start + batch_size]
            buf = ws.buffers(len(rows))
            # mode="clip" only because NumPy buffers `out` under the default mode="raise";
            # the rows are a permutation, always in range.
            np.take(X_train, rows, axis=0, out=buf.x, mode="clip")
            batch_loss, batch_correct = _sgd_batch(ws, buf, y_train[rows], lr, net.activation, net.output)
            loss_sum += batch_loss
            correct += batch_correct
        val_loss, val_accuracy = _evaluate(ws, X_val, y_val, batch_size, net.activation, net.output)
        if not (np.isfinite(loss_sum) and np.isfinite(val_loss)):
            raise FloatingPointError(f"fit: the loss became {loss_sum / n} (train), {val_loss} (validation) "
                                     f"in epoch {epoch}; lower the learning rate (lr={lr})")
        history.train_loss.append(loss_sum / n)
        history.train_accuracy.append(correct / n if net.output != "identity" else float("nan"))
        history.val_loss.append(val_loss)
        history.val_accuracy.append(val_accuracy)
        if val_loss < best_loss:
            best_loss, history.best_epoch = val_loss, epoch
            best = [P.copy() for P in ws.params]
        if progress:
            epoch_iter.set_postfix(train_loss=f"{loss_sum / n:.4f}", val_loss=f"{val_loss:.4f}")
    ws.params = best
    ws.write_back(net)
    return history


# --------------------------------------------------------------------------- gradient check

def grad_check(net: MLP, X, y, eps: float = 1e-6, max_params: int = 2000, seed=0) -> float:
    """Largest relative error between backprop's gradients and central finite differences.

    For each checked parameter ``p``, ``numeric = (L(p + eps) - L(p - eps)) / (2 eps)``.
    Errors are measured at the scale of the parameter's own array (``W_l`` or ``b_l``):

        error_l = max_i |analytic_i - numeric_i| / max_i max(|analytic_i|, |numeric_i|)

    and the result is the largest ``error_l``. Why not entry by entry: the difference
    quotient carries a rounding error of about ``|L| * 1e-16 / eps`` (about 1e-10 here), which
    is a large *relative* error for an entry whose gradient is itself tiny (a nearly dead or
    saturated unit); at the scale of the array it vanishes, while a wrong formula still shows
    as an error of order one. The check runs on a float64 copy of ``net``.

    Parameters
    ----------
    net : MLP
    X : array_like, shape (B, d_0)
    y : array_like
        Targets as for ``net.loss_and_grads``.
    eps : float
        Step of the central difference.
    max_params : int
        Check every parameter if there are at most this many, else a random subset of this
        size drawn with ``seed``.
    seed : int or numpy.random.Generator

    Returns
    -------
    float
        Below about 1e-7 for a correct backward pass in float64, unless some ReLU input lies
        within ``eps`` of its kink at 0 (e.g. exactly 0: a zero bias after all-dead inputs).
    """
    net = MLP.from_arrays(_check_net(net).weights, net.biases, net.activation, net.output, np.float64)
    X = net._check_X(X)
    target = net._check_target(y, X.shape[0])
    if not (isinstance(eps, numbers.Real) and 0 < eps < 1):
        raise ValueError(f"eps: expected a number in (0, 1), received {eps!r}")
    _, grads = net.loss_and_grads(X, y)
    params = net.weights + net.biases
    analytic = grads.weights + grads.biases
    index = [(i, j) for i, p in enumerate(params) for j in range(p.size)]
    if len(index) > _check_positive_int(max_params, "max_params"):
        pick = as_generator(seed).choice(len(index), size=max_params, replace=False)
        index = [index[k] for k in np.sort(pick)]

    def loss() -> float:
        _, cache = net._forward(X)
        return net._loss_and_delta(cache.pre_activations[-1], target)[0]

    diff = np.zeros(len(params))    # per array: largest |analytic - numeric|
    scale = np.zeros(len(params))   # per array: largest |gradient|
    for i, j in index:
        flat = params[i].reshape(-1)                          # a view: edits change the net
        saved = flat[j]
        flat[j] = saved + eps
        plus = loss()
        flat[j] = saved - eps
        minus = loss()
        flat[j] = saved
        numeric = (plus - minus) / (2 * eps)
        exact = analytic[i].reshape(-1)[j]
        diff[i] = max(diff[i], abs(exact - numeric))
        scale[i] = max(scale[i], abs(exact), abs(numeric))
    # An array whose gradient is exactly zero on both sides agrees perfectly.
    return float(max((d / s if s > 0 else 0.0) for d, s in zip(diff, scale)))
