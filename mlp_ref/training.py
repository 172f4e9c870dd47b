"""Training: the update rules (SGD, momentum, Adam), the training loop, and a gradient check.

:func:`fit` runs mini-batch SGD. Its step is written out in the loop as lesson 5 teaches it:
for each batch ``net.forward`` (keeping the cache), the loss and its gradient with respect to
the logits (``net.loss_and_delta``), ``net.backward`` and :func:`sgd_step`. ``engine="fast"``
computes the same step in :class:`mlp_ref._fast.FastEngine` instead (parameters and buffers
allocated once, no checks inside the loop); a test runs both on the same seed and asserts the
same history and weights, to rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mlp_ref._fast import FastEngine
from mlp_ref.network import MLP, Gradients, check_mlp
from mlp_ref.validation import ShapeError, as_generator, check_choice, check_int, check_real, count_non_finite

__all__ = ["sgd_step", "MomentumState", "momentum_step", "AdamState", "adam_step", "fit", "History", "grad_check",
           "central_difference", "ENGINES"]


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

    Raises
    ------
    FloatingPointError
        If a gradient holds NaN or inf (the training has diverged); nothing is updated.
    """
    lr = check_real("lr", lr, low=0)
    for param, grad in _checked_pairs(net, grads):
        param -= lr * grad


def _checked_pairs(net: MLP, grads: Gradients) -> list[tuple[np.ndarray, np.ndarray]]:
    """(parameter, gradient) pairs in the order ``W_1 .. W_L, b_1 .. b_L``, every gradient of its
    parameter's shape and finite (else a ShapeError, or a FloatingPointError that names it)."""
    check_mlp(net)
    if len(grads.weights) != len(net.weights) or len(grads.biases) != len(net.biases):
        raise ValueError(f"grads: expected {len(net.weights)} layers, received "
                         f"{len(grads.weights)} weight and {len(grads.biases)} bias gradients")
    pairs = []
    for kind, params, given in (("dW", net.weights, grads.weights), ("db", net.biases, grads.biases)):
        for l, (param, grad) in enumerate(zip(params, given), start=1):
            grad = np.asarray(grad)
            if grad.shape != param.shape:
                raise ShapeError(f"grads.{kind} (layer {l}): expected shape {param.shape}, received {grad.shape}")
            if count_non_finite(grad):
                raise FloatingPointError(f"grads.{kind} (layer {l}): expected finite values, received NaN or inf")
            pairs.append((param, grad))
    return pairs


def _check_state(name: str, arrays, net: MLP) -> None:
    """An optimizer's state arrays must match the parameters ``W_1 .. W_L, b_1 .. b_L`` in shape."""
    shapes = [p.shape for p in net.weights + net.biases]
    received = [np.shape(a) for a in arrays]
    if received != shapes:
        raise ShapeError(f"{name}: expected one array per parameter with the shapes {shapes}, received {received} "
                         "(make the state with .zeros(net) for this network)")


@dataclass
class MomentumState:
    """What :func:`momentum_step` remembers between steps: one velocity per parameter.

    Attributes
    ----------
    velocity : list of numpy.ndarray
        One array per parameter, in the order ``W_1 .. W_L, b_1 .. b_L``, each of its
        parameter's shape: ``(d_{l-1}, d_l)`` for ``W_l``, ``(d_l,)`` for ``b_l``. Together
        they hold as many numbers as the network has parameters.
    """

    velocity: list

    @classmethod
    def zeros(cls, net: MLP) -> "MomentumState":
        """The state before the first step: every velocity 0.

        Parameters
        ----------
        net : MLP

        Returns
        -------
        MomentumState
            Zero arrays of the shapes and dtype of ``net``'s parameters.
        """
        check_mlp(net)
        return cls([np.zeros_like(p) for p in net.weights + net.biases])


def momentum_step(net: MLP, grads: Gradients, lr: float, state: MomentumState, beta: float = 0.9) -> None:
    """One step of gradient descent with momentum, in place (the form PyTorch's ``SGD`` uses).

    For every parameter ``p`` with gradient ``g`` and velocity ``v`` (all of ``p``'s shape)::

        v <- beta v + g
        p <- p - lr v

    The velocity is a running sum of past gradients, each ``beta`` times smaller per step:
    steps that keep pointing the same way add up (towards ``lr g / (1 - beta)``), steps that
    change sign cancel.

    Parameters
    ----------
    net : MLP
        Updated in place.
    grads : Gradients
        As returned by ``net.loss_and_grads``; every array of its parameter's shape.
    lr : float
        Learning rate, > 0.
    state : MomentumState
        The velocities, made by ``MomentumState.zeros(net)``; updated in place.
    beta : float
        Momentum, ``0 <= beta < 1`` (``0`` is plain SGD).

    Raises
    ------
    FloatingPointError
        If a gradient holds NaN or inf; nothing is updated.
    """
    lr = check_real("lr", lr, low=0)
    beta = check_real("beta", beta, low=0, high=1, low_closed=True)
    pairs = _checked_pairs(net, grads)
    _check_state("state.velocity", state.velocity, net)
    for (param, grad), v in zip(pairs, state.velocity):
        v *= beta
        v += grad
        param -= lr * v


@dataclass
class AdamState:
    """What :func:`adam_step` remembers between steps: two moments per parameter and a count.

    Attributes
    ----------
    m : list of numpy.ndarray
        Running mean of the gradients (first moment), one array per parameter in the order
        ``W_1 .. W_L, b_1 .. b_L``, each of its parameter's shape.
    s : list of numpy.ndarray
        Running mean of the squared gradients (second moment), the same shapes.
    t : int
        Steps taken so far (0 before the first).
    """

    m: list
    s: list
    t: int = 0

    @classmethod
    def zeros(cls, net: MLP) -> "AdamState":
        """The state before the first step: both moments 0, ``t = 0``.

        Parameters
        ----------
        net : MLP

        Returns
        -------
        AdamState
            Zero arrays of the shapes and dtype of ``net``'s parameters, twice.
        """
        check_mlp(net)
        params = net.weights + net.biases
        return cls([np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params], 0)


def adam_step(net: MLP, grads: Gradients, lr: float, state: AdamState, beta1: float = 0.9,
              beta2: float = 0.999, eps: float = 1e-8) -> None:
    """One Adam step (Kingma and Ba, 2015), in place.

    For every parameter ``p`` with gradient ``g`` and moments ``m``, ``s`` (all of ``p``'s
    shape; squares and divisions entry by entry)::

        t <- t + 1
        m <- beta1 m + (1 - beta1) g
        s <- beta2 s + (1 - beta2) g^2
        p <- p - lr (m / (1 - beta1^t)) / (sqrt(s / (1 - beta2^t)) + eps)

    Dividing by ``1 - beta^t`` undoes the pull of the zero start. On the first step the update
    is ``lr g / (|g| + eps)``: about ``lr`` for every entry, whatever the gradient's size.

    Parameters
    ----------
    net : MLP
        Updated in place.
    grads : Gradients
        As returned by ``net.loss_and_grads``; every array of its parameter's shape.
    lr : float
        Learning rate, > 0.
    state : AdamState
        The moments and the step count, made by ``AdamState.zeros(net)``; updated in place.
    beta1, beta2 : float
        Decay of the two running means, ``0 <= beta < 1``.
    eps : float
        Added to the denominator, > 0.

    Raises
    ------
    FloatingPointError
        If a gradient holds NaN or inf; nothing is updated.
    """
    lr = check_real("lr", lr, low=0)
    beta1 = check_real("beta1", beta1, low=0, high=1, low_closed=True)
    beta2 = check_real("beta2", beta2, low=0, high=1, low_closed=True)
    eps = check_real("eps", eps, low=0)
    pairs = _checked_pairs(net, grads)
    _check_state("state.m", state.m, net)
    _check_state("state.s", state.s, net)
    state.t = check_int("state.t", state.t, minimum=0) + 1
    for (param, grad), m, s in zip(pairs, state.m, state.s):
        m *= beta1
        m += (1 - beta1) * grad
        s *= beta2
        s += (1 - beta2) * grad ** 2
        param -= lr * (m / (1 - beta1 ** state.t)) / (np.sqrt(s / (1 - beta2 ** state.t)) + eps)


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


def _n_correct(net: MLP, out: np.ndarray, target: np.ndarray) -> int:
    """Number of rows whose prediction from the outputs ``out`` matches the target (0 for identity)."""
    if net.output == "identity":
        return 0
    labels = target if net.output == "softmax" else target[:, 0] > 0.5
    return int(np.count_nonzero(net.predict_from_output(out) == labels))


def _accuracy(net: MLP, correct: int, n: int) -> float:
    return correct / n if net.output != "identity" else float("nan")


def _evaluate(net: MLP, X: np.ndarray, y: np.ndarray, batch_size: int) -> tuple[float, float]:
    """Mean loss and accuracy on checked data, ``batch_size`` rows at a time.

    In chunks rather than all rows at once only for speed: a product with a few hundred rows
    is where a multi-threaded BLAS starts using several threads, and on a busy machine that
    costs several times what the same products cost on one.
    """
    loss_sum, correct = 0.0, 0
    for start in range(0, len(X), batch_size):
        x, target = X[start:start + batch_size], y[start:start + batch_size]
        out, cache = net.forward(x, keep_cache=True)
        loss_sum += net.loss_and_delta(cache.pre_activations[-1], target)[0] * len(x)
        correct += _n_correct(net, out, target)
    return loss_sum / len(X), _accuracy(net, correct, len(X))


def _restore(net: MLP, fast: FastEngine | None, saved: list[np.ndarray]) -> None:
    """Copy ``saved`` back into the network's weights and biases (and the fast engine's arrays)."""
    if fast is not None:
        fast.restore(saved)
        return
    for p, value in zip(net.weights + net.biases, saved):
        p[...] = value


#: fit's engines, by name; the first is the default.
ENGINES = ("readable", "fast")


def fit(net: MLP, X_train, y_train, X_val, y_val, epochs: int, batch_size: int, lr: float,
        seed, progress: bool = False, engine: str = "readable") -> History:
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
    engine : {"readable", "fast"}
        ``"readable"`` (the default) trains with the network's own public methods, batch by
        batch, as written in the loop: ``forward``, ``loss_and_delta``, ``backward``,
        :func:`sgd_step`. ``"fast"`` computes the same steps in preallocated arrays with no
        checks inside the loop (:class:`mlp_ref._fast.FastEngine`), several times faster on
        small networks; the two agree to rounding.

    Returns
    -------
    History

    Raises
    ------
    FloatingPointError
        If the training or validation loss of an epoch is not finite, or a gradient is (the
        learning rate is too large); ``net`` then keeps the weights it had before the call.
    ValueError
        For an unknown ``engine`` (the message lists the choices) or a bad setting.
    """
    check_mlp(net)
    engine = check_choice("engine", engine, list(ENGINES))
    X_train = net.check_X(X_train, "X_train")
    y_train = net.check_target(y_train, X_train.shape[0], "y_train", rows_of="X_train")
    X_val = net.check_X(X_val, "X_val")
    y_val = net.check_target(y_val, X_val.shape[0], "y_val", rows_of="X_val")
    epochs = check_int("epochs", epochs, minimum=1)
    batch_size = min(check_int("batch_size", batch_size, minimum=1), X_train.shape[0])
    lr = check_real("lr", lr, low=0)
    rng = as_generator(seed)

    epoch_iter = range(epochs)
    if progress:
        from tqdm import tqdm  # imported lazily: an optional dependency (plain text bar everywhere)
        epoch_iter = tqdm(epoch_iter, desc="epochs", unit="epoch")

    n = X_train.shape[0]
    history = History()
    fast = FastEngine(net) if engine == "fast" else None   # the same steps, in arrays of its own
    params = fast.params if fast else net.weights + net.biases  # the arrays the steps update in place
    initial = best = [p.copy() for p in params]
    best_loss = math.inf
    for epoch in epoch_iter:
        order = rng.permutation(n)           # a new order every epoch
        loss_sum, correct = 0.0, 0
        try:
            for start in range(0, n, batch_size):
                rows = order[start:start + batch_size]  # the last batch may be smaller
                if fast:
                    loss, batch_correct = fast.step(X_train, y_train, rows, lr)
                else:  # one step of gradient descent, as lesson 5 writes it
                    X, y = X_train[rows], y_train[rows]
                    out, cache = net.forward(X, keep_cache=True)                     # z_l and a_l, l = 1..L
                    loss, delta = net.loss_and_delta(cache.pre_activations[-1], y)   # mean loss, dLoss/dz_L
                    if not math.isfinite(loss):
                        raise FloatingPointError(f"the loss became {loss} (train)")
                    grads = net.backward(cache, delta)                               # dLoss/dW_l, dLoss/db_l
                    sgd_step(net, grads, lr)                                         # W_l -= lr dW_l, b_l -= lr db_l
                    batch_correct = _n_correct(net, out, y)
                loss_sum += loss * len(rows)
                correct += batch_correct
            val_loss, val_accuracy = (fast.evaluate(X_val, y_val, batch_size) if fast
                                      else _evaluate(net, X_val, y_val, batch_size))
            if not (np.isfinite(loss_sum) and np.isfinite(val_loss)):
                raise FloatingPointError(f"the loss became {loss_sum / n} (train), {val_loss} (validation)")
        except FloatingPointError as error:
            _restore(net, fast, initial)
            raise FloatingPointError(f"fit: {error} in epoch {epoch}; lower the learning rate (lr={lr})") from None
        history.train_loss.append(loss_sum / n)
        history.train_accuracy.append(_accuracy(net, correct, n))
        history.val_loss.append(val_loss)
        history.val_accuracy.append(val_accuracy)
        if val_loss < best_loss:
            best_loss, history.best_epoch = val_loss, epoch
            best = [p.copy() for p in params]
        if progress:
            epoch_iter.set_postfix(train_loss=f"{loss_sum / n:.4f}", val_loss=f"{val_loss:.4f}")
    _restore(net, fast, best)
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
    y : array_like, shape (B,) or (B, d_L)
        Targets as for ``net.loss_and_grads``: class indices, or one row per example.
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
    net = MLP.from_arrays(check_mlp(net).weights, net.biases, net.activation, net.output, np.float64)
    X = net.check_X(X)
    target = net.check_target(y, X.shape[0])
    eps = check_real("eps", eps, low=0, high=1)
    _, grads = net.loss_and_grads(X, y)
    params = net.weights + net.biases
    analytic = grads.weights + grads.biases
    index = [(i, j) for i, p in enumerate(params) for j in range(p.size)]
    if len(index) > check_int("max_params", max_params, minimum=1):
        pick = as_generator(seed).choice(len(index), size=max_params, replace=False)
        index = [index[k] for k in np.sort(pick)]

    def loss() -> float:
        _, cache = net.forward(X, keep_cache=True)
        return net.loss_and_delta(cache.pre_activations[-1], target)[0]

    errors = []
    for i, param in enumerate(params):
        entries = [j for k, j in index if k == i]
        if not entries:
            continue
        numeric = central_difference(loss, param, eps, entries)      # edits param, so the net
        exact = analytic[i].reshape(-1)[entries]
        scale = max(np.abs(exact).max(), np.abs(numeric).max())
        # An array whose gradient is exactly zero on both sides agrees perfectly.
        errors.append(np.abs(exact - numeric).max() / scale if scale > 0 else 0.0)
    return float(max(errors))


def central_difference(f, x: np.ndarray, eps: float = 1e-6, entries=None) -> np.ndarray:
    """Gradient of the number ``f()`` with respect to the entries of the array ``x``.

    Each entry ``x_i`` is set to ``x_i + eps`` and ``x_i - eps`` in place (and then
    restored), so ``f`` must read ``x`` itself: a parameter of a network, or an array ``f``
    closes over. The result is ``(f(x + eps e_i) - f(x - eps e_i)) / (2 eps)``, with an
    error of order ``eps**2`` plus the rounding of ``f`` divided by ``eps``.

    Parameters
    ----------
    f : callable
        Takes no argument, returns a float.
    x : numpy.ndarray, any shape
        A float array, changed in place during the call and restored.
    eps : float
        The step.
    entries : sequence of int, optional
        Flat indices of the entries to differentiate; default all.

    Returns
    -------
    numpy.ndarray
        Of ``x``'s shape, or of shape ``(len(entries),)`` when ``entries`` is given.
    """
    picked = range(x.size) if entries is None else entries
    grad = np.zeros(len(picked))
    for k, j in enumerate(picked):
        saved = x.flat[j]
        x.flat[j] = saved + eps
        plus = f()
        x.flat[j] = saved - eps
        minus = f()
        x.flat[j] = saved
        grad[k] = (plus - minus) / (2 * eps)
    return grad.reshape(x.shape) if entries is None else grad
