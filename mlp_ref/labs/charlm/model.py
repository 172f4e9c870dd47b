"""A character-level MLP language model (Bengio et al. 2003) with a hand-written backward pass.

Shapes, for a batch of B windows of ``context`` = c indices, embedding width E, hidden
width H and vocabulary size V:

* ``emb = C[X]``  (B, c, E), then ``x = emb.reshape(B, c * E)``;
* ``a = x @ W1 + b1``  (B, H); with batch normalization ``b1`` is dropped (the batch
  mean removes any constant) and ``a`` is replaced by ``gain * (a - mu) / sqrt(var + eps) + bias``;
* ``h = tanh(a)``  (B, H);
* ``logits = h @ W2 + b2``  (B, V), loss = mean cross entropy of the next index.

Batch normalization uses the statistics of the batch in training and running statistics in
evaluation, updated as in PyTorch: ``running = (1 - momentum) * running + momentum * batch``,
with the unbiased batch variance for the running variance. :func:`forward` never changes the
model; :func:`train_step` updates the parameters and the running statistics.

The command line is in ``python -m mlp_ref.labs.charlm``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mlp_ref.activations import log_softmax
from mlp_ref.losses import cross_entropy_and_grad
from mlp_ref.initialization import kaiming_gain
from mlp_ref.validation import ShapeError, as_generator, check_choice, check_int, check_real


INITS = ("naive", "scaled_output", "kaiming")


@dataclass(frozen=True)
class CharMLPConfig:
    """Sizes and options of a :class:`CharMLP`.

    Attributes
    ----------
    vocab_size : int
        V, tokens including the start/end token.
    context : int
        c, number of previous characters seen.
    emb_dim : int
        E, width of one character embedding.
    hidden : int
        H, width of the tanh layer.
    batch_norm : bool
        Normalize the hidden pre-activations (and drop the hidden bias).
    momentum : float
        Weight of the current batch in the running statistics, in (0, 1].
    eps : float
        Added to the variance before the square root.
    dtype : str
        ``"float64"`` (the default; gradient checks need it) or ``"float32"`` (faster).
    init : str
        ``"naive"``: every weight and bias standard normal. ``"scaled_output"``: as naive,
        but W2 times 0.01 and b2 zero, so the first predictions are near uniform.
        ``"kaiming"``: as scaled_output, and W1 scaled by gain 5/3 / sqrt(c * E) (Kaiming
        for tanh), b1 times 0.01.
    """

    vocab_size: int
    context: int = 3
    emb_dim: int = 10
    hidden: int = 200
    batch_norm: bool = False
    momentum: float = 0.01
    eps: float = 1e-5
    init: str = "kaiming"
    dtype: str = "float64"

    def __post_init__(self) -> None:
        for name in ("context", "emb_dim", "hidden"):
            check_int(name, getattr(self, name), 1)
        check_int("vocab_size", self.vocab_size, 2, note=" (tokens)")
        check_real("momentum", self.momentum, 0, 1, high_closed=True)
        check_real("eps", self.eps, low=0)
        check_choice("dtype", self.dtype, ("float64", "float32"))
        check_choice("init", self.init, INITS)


@dataclass
class CharMLP:
    """A model: its configuration, parameters and batch-normalization running statistics.

    ``params`` holds ``C`` (V, E), ``W1`` (c*E, H), ``b1`` (H,) without batch norm or
    ``bn_gain`` (H,) and ``bn_bias`` (H,) with it, ``W2`` (H, V), ``b2`` (V,).
    ``buffers`` holds ``bn_mean`` (H,) and ``bn_var`` (H,) when batch norm is on.
    """

    config: CharMLPConfig
    params: dict[str, np.ndarray]
    buffers: dict[str, np.ndarray] = field(default_factory=dict)

    def n_parameters(self) -> int:
        """Number of trained numbers (running statistics excluded)."""
        return int(sum(p.size for p in self.params.values()))


def init_char_mlp(config: CharMLPConfig, seed) -> CharMLP:
    """A new model initialized as ``config.init`` says, from ``seed``."""
    rng = as_generator(seed)
    V, c, E, H = config.vocab_size, config.context, config.emb_dim, config.hidden
    params = {"C": rng.standard_normal((V, E)), "W1": rng.standard_normal((c * E, H))}
    b1 = rng.standard_normal(H)
    params["W2"] = rng.standard_normal((H, V))
    params["b2"] = rng.standard_normal(V)
    if config.init in ("scaled_output", "kaiming"):
        params["W2"] *= 0.01
        params["b2"][:] = 0.0
    if config.init == "kaiming":
        params["W1"] *= kaiming_gain("tanh") / np.sqrt(c * E)
        b1 *= 0.01
    buffers = {}
    if config.batch_norm:
        params["bn_gain"], params["bn_bias"] = np.ones(H), np.zeros(H)
        buffers = {"bn_mean": np.zeros(H), "bn_var": np.ones(H)}
    else:
        params["b1"] = b1
    # drawn in float64 and then cast, so float32 and float64 models start from the same numbers
    params = {name: value.astype(config.dtype) for name, value in params.items()}
    buffers = {name: value.astype(config.dtype) for name, value in buffers.items()}
    return CharMLP(config, params, buffers)


@dataclass
class Cache:
    """Intermediates of one forward pass, kept for :func:`backward`.

    Attributes
    ----------
    X : numpy.ndarray of int, shape (B, c)
        The windows, for the scatter-add into C.
    x : numpy.ndarray, shape (B, c*E)
        Concatenated embeddings.
    h : numpy.ndarray, shape (B, H)
        tanh outputs.
    xhat, inv_std : numpy.ndarray, shapes (B, H) and (H,), or None
        Normalized pre-activations and 1 / sqrt(var + eps), with batch norm.
    batch_mean, batch_var : numpy.ndarray, shape (H,), or None
        Batch statistics (biased variance), with batch norm in training.
    """

    X: np.ndarray
    x: np.ndarray
    h: np.ndarray
    xhat: np.ndarray | None = None
    inv_std: np.ndarray | None = None
    batch_mean: np.ndarray | None = None
    batch_var: np.ndarray | None = None


def check_windows(model: CharMLP, X, name: str = "X") -> np.ndarray:
    """Return ``X`` as an int array (B, context) of indices below V, or raise."""
    X = np.asarray(X)
    c, V = model.config.context, model.config.vocab_size
    if X.ndim != 2 or X.shape[1] != c:
        raise ShapeError(f"{name}: expected context windows of shape (B, {c}), received shape {X.shape}")
    if X.shape[0] == 0:
        raise ShapeError(f"{name}: expected at least one window, received an empty batch")
    if X.dtype == bool or not np.issubdtype(X.dtype, np.integer):
        raise TypeError(f"{name}: expected integer token indices, received dtype {X.dtype}")
    if X.min() < 0 or X.max() >= V:
        raise ValueError(f"{name}: expected indices in [0, {V - 1}], received values from {X.min()} to {X.max()}")
    return X


def forward(model: CharMLP, X: np.ndarray, *, training: bool) -> tuple[np.ndarray, Cache]:
    """Logits for a batch of windows; does not change the model.

    Parameters
    ----------
    model : CharMLP
    X : numpy.ndarray of int, shape (B, context)
    training : bool
        Use batch statistics (True) or running statistics (False) in batch normalization.

    Returns
    -------
    logits : numpy.ndarray, shape (B, V)
    cache : Cache
    """
    X = check_windows(model, X)
    p, cfg = model.params, model.config
    x = p["C"][X].reshape(X.shape[0], -1)  # (B, c*E): concatenation by reshape
    a = x @ p["W1"]
    cache = Cache(X=X, x=x, h=a)
    if cfg.batch_norm:
        if training:
            if X.shape[0] < 2:
                raise ShapeError(f"X: batch normalization in training needs at least 2 windows, received {X.shape[0]}")
            # sums times 1/B: ndarray.mean and .var cost more than the arithmetic at this size
            mean = a.sum(axis=0) * (1.0 / X.shape[0])
            centred = a - mean
            var = (centred * centred).sum(axis=0) * (1.0 / X.shape[0])
            cache.batch_mean, cache.batch_var = mean, var
        else:
            mean, var = model.buffers["bn_mean"], model.buffers["bn_var"]
        cache.inv_std = 1.0 / np.sqrt(var + cfg.eps)
        cache.xhat = (a - mean) * cache.inv_std
        a = p["bn_gain"] * cache.xhat + p["bn_bias"]
    else:
        a = a + p["b1"]
    cache.h = np.tanh(a)
    return cache.h @ p["W2"] + p["b2"], cache


def cross_entropy(logits: np.ndarray, Y: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross entropy of integer targets and its gradient with respect to the logits.

    Parameters
    ----------
    logits : numpy.ndarray, shape (B, V)
    Y : numpy.ndarray of int, shape (B,)

    Returns
    -------
    loss : float
    dlogits : numpy.ndarray, shape (B, V)
        ``(softmax(logits) - onehot(Y)) / B``.
    """
    B, V = logits.shape
    Y = np.asarray(Y)
    if Y.shape != (B,):
        raise ShapeError(f"Y: expected {B} targets of shape ({B},), received shape {Y.shape}")
    if Y.dtype == bool or not np.issubdtype(Y.dtype, np.integer):
        raise TypeError(f"Y: expected integer token indices, received dtype {Y.dtype}")
    if Y.min() < 0 or Y.max() >= V:
        raise ValueError(f"Y: expected indices in [0, {V - 1}], received values from {Y.min()} to {Y.max()}")
    return cross_entropy_and_grad(logits, Y)  # the MLP's softmax cross entropy


def backward(model: CharMLP, cache: Cache, dlogits: np.ndarray) -> dict[str, np.ndarray]:
    """Gradients of the loss with respect to every parameter, from a training-mode forward pass.

    Parameters
    ----------
    model : CharMLP
    cache : Cache
        From ``forward(model, X, training=True)``.
    dlogits : numpy.ndarray, shape (B, V)

    Returns
    -------
    dict of numpy.ndarray
        One gradient per key of ``model.params``, of the same shape.
    """
    p = model.params
    h = cache.h
    grads = {"W2": h.T @ dlogits, "b2": dlogits.sum(axis=0)}
    da = (dlogits @ p["W2"].T) * (1.0 - h * h)  # (B, H), through tanh
    if model.config.batch_norm:
        xhat = cache.xhat
        grads["bn_gain"] = (da * xhat).sum(axis=0)
        grads["bn_bias"] = da.sum(axis=0)
        dxhat = da * p["bn_gain"]
        # the batch mean and variance depend on every row, hence the two batch sums
        scale = 1.0 / da.shape[0]
        da = cache.inv_std * (dxhat - dxhat.sum(axis=0) * scale - xhat * ((dxhat * xhat).sum(axis=0) * scale))
    else:
        grads["b1"] = da.sum(axis=0)
    grads["W1"] = cache.x.T @ da
    demb = (da @ p["W1"].T).reshape(*cache.X.shape, -1)  # (B, c, E)
    dC = np.zeros_like(p["C"])
    np.add.at(dC, cache.X, demb)  # scatter-add: a character used twice gets both gradients
    grads["C"] = dC
    return grads


def loss_and_grads(model: CharMLP, X: np.ndarray, Y: np.ndarray) -> tuple[float, dict[str, np.ndarray], Cache]:
    """Training-mode loss on one batch, its gradients and the forward cache."""
    logits, cache = forward(model, X, training=True)
    loss, dlogits = cross_entropy(logits, Y)
    return loss, backward(model, cache, dlogits), cache


def train_step(model: CharMLP, X: np.ndarray, Y: np.ndarray, lr: float) -> float:
    """One SGD step on a batch; updates parameters and running statistics in place.

    Returns the batch loss before the step.
    """
    loss, grads, cache = loss_and_grads(model, X, Y)
    for name, grad in grads.items():
        model.params[name] -= lr * grad
    if model.config.batch_norm:
        m, B = model.config.momentum, X.shape[0]
        model.buffers["bn_mean"] = (1 - m) * model.buffers["bn_mean"] + m * cache.batch_mean
        model.buffers["bn_var"] = (1 - m) * model.buffers["bn_var"] + m * cache.batch_var * (B / (B - 1))
    return loss


#: The factor that multiplies the learning rate at each drop (Lab B: once, halfway): a tenfold drop.
LR_DROP = 0.1


def lr_drops(steps: int) -> tuple[int, ...]:
    """The steps at which :func:`train` drops the learning rate by default: once, halfway."""
    return (check_int("steps", steps, 1) // 2,)


def step_decay(step: int, base_lr: float, drops: tuple[int, ...] = (), factor: float = LR_DROP) -> float:
    """Learning rate ``base_lr * factor ** k`` where k is the number of ``drops`` at or before ``step``."""
    return base_lr * factor ** sum(step >= d for d in drops)


def train(model: CharMLP, X: np.ndarray, Y: np.ndarray, *, steps: int, batch_size: int, seed,
          base_lr: float = 0.1, drops: tuple[int, ...] | None = None, factor: float = LR_DROP,
          progress=None) -> np.ndarray:
    """Mini-batch SGD with a step-decay learning rate.

    Parameters
    ----------
    model : CharMLP
        Trained in place.
    X : numpy.ndarray of int, shape (N, context)
    Y : numpy.ndarray of int, shape (N,)
    steps, batch_size : int
    seed : int or numpy.random.Generator
        Draws the batches (uniformly, with replacement across steps).
    base_lr, factor : float
    drops : tuple of int, optional
        Steps at which the rate is multiplied by ``factor``; default :func:`lr_drops`, halfway.
    progress : callable, optional
        Called with 1 after each step (for a progress bar).

    Returns
    -------
    numpy.ndarray, shape (steps,)
        The batch loss of every step.
    """
    X = check_windows(model, X)
    if Y.shape != (X.shape[0],):
        raise ShapeError(f"Y: expected shape ({X.shape[0]},) to match X, received shape {Y.shape}")
    steps, batch_size = check_int("steps", steps, 1), check_int("batch_size", batch_size, 1)
    drops = lr_drops(steps) if drops is None else tuple(drops)
    batches = as_generator(seed).integers(0, X.shape[0], size=(steps, batch_size))
    losses = np.empty(steps)
    for step in range(steps):
        rows = batches[step]
        losses[step] = train_step(model, X[rows], Y[rows], step_decay(step, base_lr, drops, factor))
        if progress is not None:
            progress(1)
    return losses


def evaluate(model: CharMLP, X: np.ndarray, Y: np.ndarray) -> float:
    """Mean cross entropy on a split, in evaluation mode (running statistics)."""
    logits, _ = forward(model, X, training=False)
    return cross_entropy(logits, Y)[0]


def sample_words(model: CharMLP, vocabulary, n: int, seed, max_length: int = 30) -> list[str]:
    """Draw ``n`` words from the model, one character at a time (evaluation mode).

    Each word starts from the all-'.' context and ends at the first '.' drawn or after
    ``max_length`` characters.
    """
    if vocabulary.size != model.config.vocab_size:
        raise ValueError(f"vocabulary: expected {model.config.vocab_size} tokens to match the model, received {vocabulary.size}")
    rng = as_generator(seed)
    words = []
    for _ in range(n):
        window, out = [0] * model.config.context, []
        while len(out) < max_length:
            logits, _ = forward(model, np.array([window]), training=False)
            probs = np.exp(log_softmax.kernel(logits)[0])
            index = int(rng.choice(len(probs), p=probs / probs.sum()))
            if index == 0:
                break
            out.append(index)
            window = window[1:] + [index]
        words.append(vocabulary.decode(out))
    return words


@dataclass(frozen=True)
class Bigram:
    """A count-based bigram model: ``log_probs[i, j] = log P(next = j | previous = i)``, shape (V, V)."""

    log_probs: np.ndarray
    alpha: float


def fit_bigram(X: np.ndarray, Y: np.ndarray, vocab_size: int, alpha: float = 1.0) -> Bigram:
    """Count (previous, next) pairs with add-``alpha`` smoothing.

    Parameters
    ----------
    X : numpy.ndarray of int, shape (N, context)
        Windows; only the last column (the previous character) is used.
    Y : numpy.ndarray of int, shape (N,)
    vocab_size : int
    alpha : float
        Pseudo-count added to every pair (> 0 keeps every probability positive).
    """
    alpha = check_real("alpha", alpha, low=0, note=" (a pseudo-count)")
    counts = np.full((vocab_size, vocab_size), alpha)
    np.add.at(counts, (X[:, -1], Y), 1.0)
    return Bigram(np.log(counts / counts.sum(axis=1, keepdims=True)), float(alpha))


def bigram_loss(model: Bigram, X: np.ndarray, Y: np.ndarray) -> float:
    """Mean negative log-likelihood of the targets ``Y`` (N,) given the last column of ``X`` (N, c)."""
    return float(-np.mean(model.log_probs[X[:, -1], Y]))
