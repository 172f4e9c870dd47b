"""Training: one SGD step, a full training loop, and a gradient check.

:func:`fit` runs mini-batch SGD. Its inner loop (:func:`_sgd_batch`) computes exactly what
``net.loss_and_grads`` followed by :func:`sgd_step` computes, but into arrays allocated once
per call to :func:`fit`, with no input checks (the inputs were checked once, at the start).
That is most of the speed trick: at MLP sizes the matrix products are cheap and the Python
and allocation overhead around them is what costs. The rest: the bias of every layer after
the first is kept as an extra row of its weight matrix (see :class:`_Workspace`), which saves
a bias addition and a column sum per layer and step.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from mlp_ref.activations import _KERNELS
from mlp_ref.network import MLP, Gradients, _predict_from_output
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
    """Everything one SGD step writes to, allocated once per call to :func:`fit`.

    The bias rides along as the last row of an augmented weight matrix
    ``P_l = [[W_l], [b_l]]`` of shape ``(d_{l-1} + 1, d_l)``, acting on an input with a
    trailing column of ones, ``[a, 1] @ P_l = a @ W_l + b_l``. So one product gives ``z_l``
    and one product ``[a, 1]^T @ delta`` gives the gradients of ``W_l`` and ``b_l`` together.
    Layer 1 is the exception: its input is the batch ``X[rows]`` itself, because copying
    every batch into a buffer one column wider costs more than adding the bias separately.
    """

    def __init__(self, net: MLP, batch_size: int):
        dt = net.dtype
        self.params = [np.vstack([W, b]) for W, b in zip(net.weights, net.biases)]
        self.weights = [P[:-1] for P in self.params]                       # views, (d_{l-1}, d_l)
        self.grads = [np.empty_like(P) for P in self.params]
        self.ones = np.ones(batch_size, dt)                                    # ones @ delta = column sums
        self._a = [np.ones((batch_size, d + 1), dt) for d in net.sizes[1:-1]]  # [a_l, 1]
        self._z = [np.empty((batch_size, d), dt) for d in net.sizes[1:]]
        self._delta = [np.empty((batch_size, d), dt) for d in net.sizes[1:]]   # lr * dLoss/dz_l
        self._mask = [np.empty((batch_size, d), dt) for d in net.sizes[1:-1]]  # relu'(z), 0. or 1.
        self._rows = np.arange(batch_size)
        self._views: dict[int, tuple] = {}

    def views(self, n: int) -> tuple:
        """The first ``n`` rows of every buffer (built once per distinct batch size)."""
        if n not in self._views:
            self._views[n] = ([z[:n] for z in self._z], [a[:n] for a in self._a],
                              [a[:n, :-1] for a in self._a], [d[:n] for d in self._delta],
                              [m[:n] for m in self._mask], self._rows[:n])
        return self._views[n]

    def write_back(self, net: MLP) -> None:
        """Copy the augmented parameters into ``net.weights`` and ``net.biases`` (in place)."""
        for P, W, b in zip(self.params, net.weights, net.biases):
            W[...] = P[:-1]
            b[...] = P[-1]


def _sgd_batch(ws: _Workspace, xb: np.ndarray, yb: np.ndarray, lr: float,
               activation: str, output: str) -> tuple[float, int]:
    """One SGD step; returns (sum of the per-example losses, number of correct predictions).

    ``xb`` has shape (n, d_0) (no column of ones: see :class:`_Workspace`). The same math as
    ``net.loss_and_grads(X, y)`` then ``sgd_step(net, grads, lr)``; the deltas are scaled by
    ``lr / n`` up front, so ``[a, 1]^T @ delta`` is already the update.
    """
    n = xb.shape[0]
    zs, a_aug, a_hidden, deltas, masks, rows = ws.views(n)
    P, L = ws.params, len(ws.params)
    relu = activation == "relu"
    f, fprime = _KERNELS[activation]
    a = xb
    for l in range(L):                                        # forward
        z = zs[l]
        if l == 0:
            np.matmul(xb, ws.weights[0], out=z)
            z += P[0][-1]                                     # + b_1
        else:
            np.matmul(a, P[l], out=z)                         # [a, 1] @ P = a @ W + b
        if l < L - 1:
            if relu:
                np.maximum(z, 0, out=a_hidden[l])
            else:
                a_hidden[l][...] = f(z)
            a = a_aug[l]
    delta = deltas[L - 1]
    loss_sum, correct = _head_delta(output, z, yb, delta, rows, lr / n)
    for l in range(L - 1, -1, -1):                            # backward, then update
        if l == 0:                                            # dW_1 and db_1 separately
            np.matmul(xb.T, delta, out=ws.grads[0][:-1])
            np.matmul(ws.ones[:n], delta, out=ws.grads[0][-1])
        else:
            np.matmul(a_aug[l - 1].T, delta, out=ws.grads[l])
        if l > 0:                                             # uses W_l before its update
            np.matmul(delta, ws.weights[l].T, out=deltas[l - 1])
            if relu:                                          # relu'(z) = [z > 0], as 0. or 1.
                np.greater(zs[l - 1], 0, out=masks[l - 1])
                deltas[l - 1] *= masks[l - 1]
            else:
                deltas[l - 1] *= fprime(zs[l - 1])
            delta = deltas[l - 1]
        P[l] -= ws.grads[l]
    return loss_sum, correct


def _head_delta(output: str, z: np.ndarray, y: np.ndarray, delta: np.ndarray,
                rows: np.ndarray, scale: float) -> tuple[float, int]:
    """Write ``scale * n * dLoss/dz`` into ``delta``; return (summed loss, number correct).

    ``z`` (n, d_L) are the logits and may be overwritten.
    """
    if output == "softmax":
        correct = int(np.count_nonzero(z.argmax(axis=1) == y))
        z -= z.max(axis=1, keepdims=True)                     # shift: exp cannot overflow
        np.exp(z, out=delta)
        sums = delta.sum(axis=1)
        loss_sum = float(np.log(sums).sum() - z[rows, y].sum())   # sum of logsumexp(z) - z_y
        np.divide(scale, sums, out=sums)
        delta *= sums[:, None]                                # scale * softmax(z)
        delta[rows, y] -= scale                               # scale * (p - onehot(y))
        return loss_sum, correct
    if output == "sigmoid":
        per = np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))
        p = _KERNELS["sigmoid"][0](z)
        correct = int(np.count_nonzero((p[:, 0] > 0.5) == (y[:, 0] > 0.5)))
        np.multiply(p - y, scale, out=delta)
        return float(per.sum()), correct
    diff = z - y                                              # identity head, MSE
    np.multiply(diff, 2.0 * scale / z.shape[1], out=delta)
    return float((diff * diff).mean(axis=1).sum()), 0


def _evaluate(net: MLP, X: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Mean loss and accuracy on checked data (accuracy nan for the identity head)."""
    _, cache = net._forward(X)
    z = cache.pre_activations[-1]
    n = X.shape[0]
    loss_sum, correct = _head_delta(net.output, z, y, np.empty_like(z), np.arange(n), 1.0)
    return loss_sum / n, (correct / n if net.output != "identity" else float("nan"))


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
    """
    _check_net(net)
    X_train = net._check_X(X_train, "X_train")
    y_train = net._check_target(y_train, X_train.shape[0], "y_train")
    X_val = net._check_X(X_val, "X_val")
    y_val = net._check_target(y_val, X_val.shape[0], "y_val")
    epochs = _check_positive_int(epochs, "epochs")
    batch_size = min(_check_positive_int(batch_size, "batch_size"), X_train.shape[0])
    lr = _check_lr(lr)
    rng = as_generator(seed)

    epoch_iter = range(epochs)
    if progress:
        from tqdm import tqdm  # imported lazily: an optional dependency (plain text bar everywhere)
        epoch_iter = tqdm(epoch_iter, desc="epochs", unit="epoch")

    n = X_train.shape[0]
    ws = _Workspace(net, batch_size)
    history = History()
    best_loss, best = math.inf, None
    for epoch in epoch_iter:
        order = rng.permutation(n)
        loss_sum, correct = 0.0, 0
        for start in range(0, n, batch_size):
            rows = order[start:start + batch_size]
            batch_loss, batch_correct = _sgd_batch(ws, X_train[rows], y_train[rows], lr,
                                                   net.activation, net.output)
            loss_sum += batch_loss
            correct += batch_correct
        ws.write_back(net)
        val_loss, val_accuracy = _evaluate(net, X_val, y_val)
        if not (np.isfinite(loss_sum) and np.isfinite(val_loss)):
            raise FloatingPointError(f"fit: the loss became {loss_sum / n} (train), {val_loss} (validation) "
                                     f"in epoch {epoch}; lower the learning rate (lr={lr})")
        history.train_loss.append(loss_sum / n)
        history.train_accuracy.append(correct / n if net.output != "identity" else float("nan"))
        history.val_loss.append(val_loss)
        history.val_accuracy.append(val_accuracy)
        if val_loss < best_loss:
            best_loss, history.best_epoch = val_loss, epoch
            best = [p.copy() for p in net.weights + net.biases]
        if progress:
            epoch_iter.set_postfix(train_loss=f"{loss_sum / n:.4f}", val_loss=f"{val_loss:.4f}")
    for param, saved in zip(net.weights + net.biases, best):
        param[...] = saved
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
