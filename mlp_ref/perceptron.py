"""Rosenblatt's perceptron: one step-activation unit and its error-correction learning rule.

The unit computes ``z = x · w + b`` and answers ``step(z)``: 1 when ``z > 0``, else 0. Its
learning rule (Rosenblatt, 1958) looks at one example at a time and changes the weights only
when the answer is wrong:

    w <- w + lr * (y - ŷ) * x,        b <- b + lr * (y - ŷ)

so a missed 1 (``y - ŷ = 1``) pulls ``w`` towards ``x`` and a false 1 (``y - ŷ = -1``)
pushes it away. There is no gradient here: the step function's derivative is 0 wherever it
exists, which is why multi-layer networks needed a differentiable activation to be trained
by the chain rule.

On linearly separable data the rule stops making mistakes after finitely many updates
(Novikoff, 1962). On data that no line separates, such as XOR, it never does. With integer
inputs, integer initial weights and an integer learning rate every quantity here is an exact
integer, so :func:`train_perceptron` can *prove* non-convergence: if the state ``(w, b)`` at
the start of an epoch repeats, the run is periodic from then on, and if the repeating epochs
all make mistakes it makes mistakes forever.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mlp_ref.validation import ShapeError, as_float_array, check_int, check_real

__all__ = ["PerceptronStep", "PerceptronRun", "step", "perceptron_predict", "train_perceptron", "mistake_bound"]


def step(z) -> np.ndarray:
    """Heaviside step as the perceptron uses it: 1 where ``z > 0``, else 0.

    ``z``: any shape of finite numbers; returns an int array of the same shape.
    """
    z = as_float_array(z, "z", allow_empty=True)
    return (z > 0).astype(np.int64)


def _check_unit(w, b, d: int) -> tuple[np.ndarray, float]:
    """The unit's weights (d,) and bias, checked against the input width d."""
    w = as_float_array(w, "w", ndim=1, allow_empty=True)
    if w.shape != (d,):
        raise ShapeError(f"w: expected shape ({d},) to match X of width {d}, received shape {w.shape}")
    return w, check_real("b", b)


def perceptron_predict(X, w, b) -> np.ndarray:
    """The perceptron's answers for a batch.

    Parameters
    ----------
    X : array_like, shape (B, d)
        One example per row.
    w : array_like, shape (d,)
        The unit's weights.
    b : float
        The unit's bias.

    Returns
    -------
    numpy.ndarray of int, shape (B,)
        ``step(X @ w + b)``: 0 or 1 for each row.
    """
    X = as_float_array(X, "X", ndim=2)
    w, b = _check_unit(w, b, X.shape[1])
    return step(X @ w + b)


@dataclass(frozen=True)
class PerceptronStep:
    """One presentation of one example during training.

    ``epoch`` and ``index`` count from 1 (the first epoch, the first row of ``X``); ``x`` has
    shape (d,); ``z`` and ``output`` are the unit's sum and answer *before* the update; ``w``
    (shape (d,)) and ``b`` are the weights *after* it (unchanged when ``output == target``).
    """

    epoch: int
    index: int
    x: np.ndarray
    target: int
    z: float
    output: int
    w: np.ndarray
    b: float

    @property
    def updated(self) -> bool:
        """Whether this presentation changed the weights (the answer was wrong)."""
        return self.output != self.target


@dataclass(frozen=True)
class PerceptronRun:
    """The result of :func:`train_perceptron`.

    Attributes
    ----------
    steps : list of PerceptronStep
        Every presentation, in order (``len(errors) * B`` of them).
    errors : list of int
        Number of wrong answers in each epoch (an epoch is one pass over the B rows in order).
    w : numpy.ndarray, shape (d,)
        Final weights.
    b : float
        Final bias.
    converged : bool
        Whether some epoch made no mistake (the rule then never changes the weights again).
    cycle : tuple of int, or None
        ``(first, length)`` when the weights at the start of epoch ``first + length`` equal those
        at the start of epoch ``first``: from epoch ``first`` on, the run repeats with period
        ``length`` epochs, forever. None when no state repeated within ``max_epochs``.
    """

    steps: list
    errors: list
    w: np.ndarray
    b: float
    converged: bool
    cycle: tuple | None

    @property
    def epochs(self) -> int:
        """Number of epochs run (the last one is the error-free epoch when ``converged``)."""
        return len(self.errors)

    @property
    def updates(self) -> int:
        """Number of presentations that changed the weights."""
        return sum(s.updated for s in self.steps)

    @property
    def never_converges(self) -> bool:
        """True when the run is proven to make mistakes forever: it entered a cycle of epochs.
        Every epoch of the cycle made a mistake (training stops at the first error-free epoch,
        so a cycle is only ever found among epochs with mistakes), and the cycle repeats."""
        return self.cycle is not None


def _check_targets(y, n_rows: int) -> np.ndarray:
    """Targets as a (B,) int array of 0s and 1s, one per row of X."""
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n_rows:
        raise ShapeError(f"y: expected shape ({n_rows},), one target per row of X, received shape {y.shape}")
    if y.dtype == bool or not np.issubdtype(y.dtype, np.number) or not np.all(np.isin(y, (0, 1))):
        raise ValueError(f"y: expected targets 0 or 1, received {np.unique(y).tolist()}")
    return y.astype(np.int64)


def train_perceptron(X, y, *, lr: float = 1.0, max_epochs: int = 100, w0=None, b0: float = 0.0) -> PerceptronRun:
    """Train one perceptron with Rosenblatt's rule, presenting the rows of ``X`` in order.

    Parameters
    ----------
    X : array_like, shape (B, d)
        The examples, one per row.
    y : array_like of int, shape (B,)
        Targets, each 0 or 1.
    lr : float
        Learning rate, > 0. With the weights starting at 0 it only scales them (the answers do
        not depend on it); it matters when ``w0`` or ``b0`` is not 0.
    max_epochs : int
        Upper bound on the number of passes over the data, >= 1.
    w0 : array_like, shape (d,), optional
        Initial weights (default zeros).
    b0 : float
        Initial bias.

    Returns
    -------
    PerceptronRun
        Every step, the errors per epoch, the final weights, and whether the run converged or
        is proven to cycle. Training stops after the first error-free epoch, when the state at
        the start of an epoch repeats (the rest would be a repetition), or after ``max_epochs``.
    """
    X = as_float_array(X, "X", ndim=2)
    y = _check_targets(y, X.shape[0])
    lr = check_real("lr", lr, low=0)
    max_epochs = check_int("max_epochs", max_epochs, minimum=1)
    w, b = _check_unit(np.zeros(X.shape[1]) if w0 is None else w0, b0, X.shape[1])
    w = w.copy()
    steps, errors, seen = [], [], {}
    cycle = None
    for epoch in range(1, max_epochs + 1):
        state = (tuple(w.tolist()), b)
        if state in seen:  # the same start as an earlier epoch: the run repeats from there on
            cycle = (seen[state], epoch - seen[state])
            break
        seen[state] = epoch
        wrong = 0
        for index, (x, target) in enumerate(zip(X, y), start=1):
            z = float(x @ w + b)
            output = int(z > 0)
            if output != target:  # error correction: move only on a mistake
                w = w + lr * (target - output) * x
                b = b + lr * (target - output)
                wrong += 1
            steps.append(PerceptronStep(epoch, index, x.copy(), int(target), z, output, w.copy(), float(b)))
        errors.append(wrong)
        if wrong == 0:
            break
    return PerceptronRun(steps=steps, errors=errors, w=w, b=float(b), converged=errors[-1] == 0, cycle=cycle)


def mistake_bound(X, y, w, b) -> float:
    """Novikoff's bound on the number of updates of :func:`train_perceptron` from zero weights.

    If some unit ``(w, b)`` answers every row correctly with room to spare, the rule makes at most
    ``(R / γ)²`` updates, however the rows are ordered, where each row is extended by a constant 1
    for the bias, ``x̃ = (x, 1)``, ``R = max ‖x̃‖``, and ``γ`` is the smallest distance of a row
    from the unit's boundary, ``min ± (x̃ · (w, b)) / ‖(w, b)‖`` with ``+`` for target 1 and ``-``
    for target 0. Any separating unit gives a valid bound; a wider margin gives a smaller one.

    Parameters
    ----------
    X : array_like, shape (B, d)
        The examples.
    y : array_like of int, shape (B,)
        Targets, each 0 or 1.
    w : array_like, shape (d,)
        Weights of a unit that separates the data.
    b : float
        Its bias.

    Returns
    -------
    float
        ``(R / γ)²``.

    Raises
    ------
    ValueError
        When ``(w, b)`` does not put every row strictly on its target's side (then no margin
        exists and the bound says nothing).
    """
    X = as_float_array(X, "X", ndim=2)
    y = _check_targets(y, X.shape[0])
    w, b = _check_unit(w, b, X.shape[1])
    X1 = np.hstack([X, np.ones((X.shape[0], 1))])       # (B, d + 1): the bias as a weight on a constant 1
    u = np.append(w, b)                                  # (d + 1,)
    signed = (2 * y - 1) * (X1 @ u)                      # (B,): > 0 on the right side
    if not np.all(signed > 0):
        wrong = int(np.sum(signed <= 0))
        raise ValueError(f"(w, b): expected a unit that separates the data, received one with {wrong} of "
                         f"{X.shape[0]} rows on the wrong side or on the boundary")
    radius = np.linalg.norm(X1, axis=1).max()
    margin = signed.min() / np.linalg.norm(u)
    return float((radius / margin) ** 2)
