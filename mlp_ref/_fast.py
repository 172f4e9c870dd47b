"""fit's fast engine: the same training step into arrays allocated once, chosen with ``engine="fast"``.

:func:`mlp_ref.fit` runs mini-batch SGD. Its own loop calls ``net.forward``,
``net.loss_and_delta``, ``net.backward`` and :func:`mlp_ref.sgd_step` on every batch, the
step the lessons teach. With ``engine="fast"`` it calls :meth:`FastEngine.step` instead,
which computes exactly the same step (tests/test_training.py runs both on the same seed and
compares the histories and weights), but into arrays allocated once per call to ``fit``,
with no input checks (``fit`` checked the inputs once, at the start). That is most of the
speed trick: at MLP sizes the matrix products are cheap and the Python and allocation
overhead around them is what costs. The rest, each measured with ``make bench``:

* the bias of every layer after the first is kept as an extra row of its weight matrix
  (see :class:`FastEngine`), which saves a bias addition and a column sum per layer and step;
* the logits are kept transposed, (d_L, n), so the softmax reduces along contiguous memory
  (see :class:`_Buffers`); that is why the losses are written out again here, in place and
  transposed, rather than taken from :mod:`mlp_ref.losses`, whose functions work on
  (n, d_L) rows and allocate their results;
* ReLU is ``np.maximum`` against an array of zeros, which NumPy vectorizes, rather than
  against the scalar 0, which it does not;
* each batch is gathered with ``np.take`` into a buffer of its own rather than by fancy
  indexing, which would allocate a new array every step.

What ``fit`` calls, each the counterpart of a few lines of its readable loop:
``step(X, y, rows, lr)`` trains on the rows ``rows`` of checked data and returns the
batch's mean loss and number of correct predictions (before the update);
``evaluate(X, y, batch_size)`` returns the mean loss and the accuracy; ``params`` are the
arrays the steps update, and ``restore(saved)`` copies saved ones back, into the network too.
"""

from __future__ import annotations

import numpy as np

from mlp_ref.activations import ACTIVATION_KERNELS, sigmoid
from mlp_ref.network import MLP

__all__ = ["FastEngine"]


class FastEngine:
    """The parameters as ``fit`` updates them, and buffers for every batch size it meets.

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
        # Zeros, not np.empty, for every buffer a product writes into, so that no kernel ever meets what the
        # memory held before. (A float32 run raised "invalid value encountered in matmul" in 1 of 4 full runs
        # of the tests; buffers filled with NaN on purpose did not bring it back, so its cause is not known.)
        self.grads = [np.zeros_like(P) for P in self.params]
        self.net = net
        self._buffers: dict[int, _Buffers] = {}

    def buffers(self, n: int) -> "_Buffers":
        """The buffers for a batch of ``n`` rows, made on first use: a fit meets at most
        three sizes (the batch size, the last training batch, the last validation chunk)."""
        if n not in self._buffers:
            self._buffers[n] = _Buffers(self.net, n)
        return self._buffers[n]

    def step(self, X: np.ndarray, y: np.ndarray, rows: np.ndarray, lr: float) -> tuple[float, int]:
        """One SGD step on the rows ``rows`` of ``X`` and ``y``: (mean loss, number correct)."""
        buf = self.buffers(len(rows))
        # mode="clip" only because NumPy buffers `out` under the default mode="raise";
        # the rows are a permutation, always in range.
        np.take(X, rows, axis=0, out=buf.x, mode="clip")
        loss_sum, correct = _sgd_batch(self, buf, y[rows], lr, self.net.activation, self.net.output)
        return loss_sum / len(rows), correct

    def evaluate(self, X: np.ndarray, y: np.ndarray, batch_size: int) -> tuple[float, float]:
        """Mean loss and accuracy on checked data (see :func:`_evaluate`)."""
        return _evaluate(self, X, y, batch_size, self.net.activation, self.net.output)

    def restore(self, snapshot: list[np.ndarray]) -> None:
        """Make ``snapshot`` (copies of :attr:`params`) the parameters, here and in ``net.weights``
        and ``net.biases``."""
        for P, W, b, saved in zip(self.params, self.net.weights, self.net.biases, snapshot):
            P[...] = saved
            W[...] = saved[:-1]
            b[...] = saved[-1]


class _Buffers:
    """Everything one step on a batch of ``n`` rows writes to.

    Hidden layers are laid out row by row, (n, d_l); the logits and their delta are kept
    transposed, (d_L, n), because the softmax's reductions over a handful of classes run
    several times faster along contiguous memory than across it.
    """

    def __init__(self, net: MLP, n: int):
        dt, hidden = net.dtype, net.sizes[1:-1]
        self.n, self.cols = n, np.arange(n)
        self.x = np.zeros((n, net.sizes[0]), dt)
        self.z = [np.zeros((n, d), dt) for d in hidden]
        self.a_aug = [np.ones((n, d + 1), dt) for d in hidden]                 # [a_l, 1]
        self.a = [a[:, :-1] for a in self.a_aug]                               # views, a_l
        self.delta = [np.zeros((n, d), dt) for d in hidden]                    # lr * dLoss/dz_l
        if net.activation == "relu":
            self.zeros = [np.zeros((n, d), dt) for d in hidden]                # relu(z) = max(z, zeros)
            self.mask = [np.zeros((n, d), dt) for d in hidden]                 # relu'(z), 0. or 1.
        self.logits_t = np.zeros((net.sizes[-1], n), dt)                       # z_L^T
        self.delta_t = np.zeros((net.sizes[-1], n), dt)                        # lr * dLoss/dz_L^T
        self.ones = np.ones(n, dt)                                             # ones @ delta = column sums


def _forward_batch(ws: FastEngine, buf: _Buffers, x: np.ndarray, activation: str) -> np.ndarray:
    """Fill ``buf`` with the forward pass of ``x`` (n, d_0); return the logits ``z_L^T`` (d_L, n)."""
    P, L = ws.params, len(ws.params)
    f = ACTIVATION_KERNELS[activation][0]
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


def _sgd_batch(ws: FastEngine, buf: _Buffers, y: np.ndarray, lr: float,
               activation: str, output: str) -> tuple[float, int]:
    """One SGD step on the batch in ``buf.x``; returns (summed per-example loss, number correct).

    The same math as ``net.loss_and_grads(X, y)`` then ``sgd_step(net, grads, lr)``; the
    deltas are scaled by ``lr / n`` up front, so ``[a, 1]^T @ delta`` is already the update.
    """
    n, x = buf.n, buf.x
    P, L = ws.params, len(ws.params)
    fprime = ACTIVATION_KERNELS[activation][1]
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
        p = sigmoid.kernel(z)
        correct = int(np.count_nonzero((p[0] > 0.5) == (target_t[0] > 0.5)))
        np.multiply(p - target_t, scale, out=delta_t)
        return float(per.sum()), correct
    diff = logits_t - target_t                                # identity head, MSE
    np.multiply(diff, 2.0 * scale / logits_t.shape[0], out=delta_t)
    return float((diff * diff).mean(axis=0).sum()), 0


def _evaluate(ws: FastEngine, X: np.ndarray, y: np.ndarray, batch_size: int,
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
