"""Existence is not learnability: gradient descent on XOR from many random starts.

Lesson 2 gives weights with which a 2-2-1 ReLU network computes XOR exactly. Whether
gradient descent *finds* such weights from a random start is another question. This module
trains the 2-h-1 network (ReLU hidden layer, sigmoid output, binary cross entropy averaged
over the four corners, full-batch gradient descent) from many seeds at once and records, for
each run, whether it ends classifying all four corners correctly and how its hidden units
ended up, and which of three failure states it passed through on the way (so that a page can
say which of them gradient descent can leave, and which it cannot).

Each run starts from ``MLP([2, h, 1], activation="relu", output="sigmoid", seed=s)`` (He
initialization, zero biases), exactly the network a reader builds with that line, and takes
the steps :func:`train_xor_readable` takes with the network's own ``forward``,
``loss_and_delta``, ``backward`` and :func:`mlp_ref.sgd_step`. :func:`train_xor` computes the
same steps for all seeds together, as arrays with a leading seed axis (the readable loop for
hundreds of runs would take minutes); a test holds the two equal to rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mlp_ref.activations import sigmoid
from mlp_ref.network import MLP
from mlp_ref.training import sgd_step
from mlp_ref.validation import check_int, check_real

__all__ = ["XOR_X", "XOR_Y", "XOR_STUDY", "XorRuns", "XorStudy", "train_xor", "train_xor_readable",
           "xor_by_hand", "xor_outcomes"]

#: XOR's four corners, shape (4, 2), and their labels, shape (4,).
XOR_X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
XOR_Y = np.array([0.0, 1.0, 1.0, 0.0])
XOR_X.flags.writeable = False
XOR_Y.flags.writeable = False


def xor_by_hand() -> MLP:
    """Lesson 2's hand-chosen 2-2-1 network, which computes XOR exactly on the corners.

    ``h1 = relu(x1 + x2)``, ``h2 = relu(x1 + x2 - 1)``, ``y = h1 - 2 h2``: ``W1`` all ones
    (2, 2), ``b1 = (0, -1)``, ``W2 = (1, -2)`` as (2, 1), ``b2 = 0``, identity output.

    Returns
    -------
    MLP
        The network, sizes ``[2, 2, 1]``.
    """
    return MLP.from_arrays(weights=[np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([[1.0], [-2.0]])],
                           biases=[np.array([0.0, -1.0]), np.array([0.0])], activation="relu", output="identity")


@dataclass(frozen=True)
class XorStudy:
    """The settings of lesson 5's experiment: every width, the same seeds, rate and steps.

    ``settled`` is the first step from which a run's passing states are recorded
    (:attr:`XorRuns.blind_pair_after`, :attr:`XorRuns.affine_after`): with zero initial biases
    every unit is off at the corner (0, 0) before the first step, so the states of the first
    few steps say little about where a run is going.
    """

    widths: tuple = (2, 3, 4)
    n_seeds: int = 1000
    lr: float = 0.5
    steps: int = 1000
    settled: int = 50


#: The lesson's study: 1000 seeds per width, learning rate 0.5, 1000 full-batch steps; passing
#: states recorded from step 50 on.
XOR_STUDY = XorStudy()


def _initial_net(hidden: int, seed: int) -> MLP:
    return MLP([2, hidden, 1], activation="relu", output="sigmoid", seed=seed)


@dataclass(frozen=True)
class XorRuns:
    """Many gradient-descent runs of the 2-h-1 ReLU network on XOR, one per seed.

    Attributes
    ----------
    hidden : int
        Hidden width ``h``.
    seeds : tuple of int
        One run per seed, in this order (``S`` runs).
    lr : float
    steps : int
    W1, b1, W2, b2 : numpy.ndarray
        Final parameters: ``W1`` (S, 2, h), ``b1`` (S, h), ``W2`` (S, h, 1), ``b2`` (S, 1).
    losses : numpy.ndarray, shape (S, steps + 1)
        The mean loss before each step, then after the last.
    dead_at_start : numpy.ndarray, shape (S,)
        Hidden units of the initial network that are off (pre-activation <= 0) on all four
        corners: with zero initial biases, the units whose two weights are both <= 0.
    settled : int
        The first step whose state the two ``*_after`` records below look at.
    blind_pair_after : numpy.ndarray, shape (S,)
        bool: the run had a blind pair of corners (see :attr:`blind_pair`) after some number
        ``t`` of steps with ``settled <= t <= steps``.
    affine_after : numpy.ndarray, shape (S,)
        bool: the same for the affine state (see :attr:`affine_on_corners`).
    revived : numpy.ndarray, shape (S,)
        int: how many times, over the whole run, a hidden unit that was dead (off at all four
        corners) before a step was on at some corner after it. Full-batch gradient descent
        gives a dead unit's incoming weights and bias a gradient of exactly 0, so this is 0.
    """

    hidden: int
    seeds: tuple
    lr: float
    steps: int
    W1: np.ndarray
    b1: np.ndarray
    W2: np.ndarray
    b2: np.ndarray
    losses: np.ndarray
    dead_at_start: np.ndarray
    settled: int = 0
    blind_pair_after: np.ndarray | None = None
    affine_after: np.ndarray | None = None
    revived: np.ndarray | None = None

    @property
    def hidden_pre(self) -> np.ndarray:
        """Final hidden pre-activations at the four corners, shape (S, 4, h)."""
        return XOR_X @ self.W1 + self.b1[:, None, :]

    @property
    def outputs(self) -> np.ndarray:
        """Final probabilities at the four corners, shape (S, 4)."""
        z = np.maximum(self.hidden_pre, 0.0) @ self.W2 + self.b2[:, None, :]
        return sigmoid(z[..., 0])

    @property
    def solved(self) -> np.ndarray:
        """(S,) bool: every corner on the right side of 1/2 at the end."""
        return np.all((self.outputs > 0.5) == (XOR_Y > 0.5), axis=1)

    @property
    def dead_units(self) -> np.ndarray:
        """(S,) int: hidden units whose pre-activation is <= 0 on all four corners at the end.

        Such a unit outputs 0 everywhere and its ReLU derivative is 0 on every corner, so it
        receives no gradient: under full-batch gradient descent it never changes again.
        """
        return _dead_count(self.hidden_pre > 0.0)

    @property
    def live_units(self) -> np.ndarray:
        """(S,) int: hidden units that are on at some corner at the end (``hidden - dead_units``).

        XOR needs two: one live ReLU unit gives an output that is monotone along its weight
        direction, which cannot be high at (0, 1) and (1, 0) and low at (0, 0) and (1, 1).
        """
        return self.hidden - self.dead_units

    @property
    def blind_pair(self) -> np.ndarray:
        """(S,) bool: two corners with different targets at which every hidden unit is off.

        Both corners then reach the output as the same all-zero hidden vector, so the network
        gives them the same output ``sigmoid(b2)``: one of the two is always wrong. No unit
        receives a gradient from them (``relu'`` is 0 there), so nothing pulls a unit back on.
        """
        return _blind_pair(self.hidden_pre > 0.0)

    @property
    def affine_on_corners(self) -> np.ndarray:
        """(S,) bool: no hidden unit is on at some corners and off at others at the end.

        Each unit is then either dead or on at all four corners, so the network is one affine
        function of the input on the corners, and no affine function separates XOR.
        """
        return _affine(self.hidden_pre > 0.0)

    @property
    def fraction_solved(self) -> float:
        return float(np.mean(self.solved))

    def net(self, run: int) -> MLP:
        """Run ``run`` (0-based index into :attr:`seeds`) as an :class:`MLP`."""
        return MLP.from_arrays([self.W1[run], self.W2[run]], [self.b1[run], self.b2[run]],
                               activation="relu", output="sigmoid")


# The three states, read off which units are on at which corner: ``on`` (..., 4, h) bool, a
# unit on where its pre-activation is > 0, with any leading axes (runs, or steps and runs).

def _dead_count(on: np.ndarray) -> np.ndarray:
    """Units off at every corner: (..., 4, h) -> (...,) int."""
    return np.sum(~on.any(axis=-2), axis=-1)


def _blind_pair(on: np.ndarray) -> np.ndarray:
    """Two corners with different targets at which every unit is off: (..., 4, h) -> (...,) bool.

    Such a pair exists when some corner with target 0 and some corner with target 1 are off.
    """
    off = ~on.any(axis=-1)                                               # (..., 4)
    return np.any(off & (XOR_Y == 0.0), axis=-1) & np.any(off & (XOR_Y == 1.0), axis=-1)


def _affine(on: np.ndarray) -> np.ndarray:
    """No unit on at some corners and off at others: (..., 4, h) -> (...,) bool."""
    return ~np.any(on.any(axis=-2) & ~on.all(axis=-2), axis=-1)


def _check_settings(hidden, lr, steps) -> tuple[int, float, int]:
    return (check_int("hidden", hidden, minimum=1), check_real("lr", lr, low=0),
            check_int("steps", steps, minimum=0))


def train_xor(hidden: int, seeds, lr: float, steps: int, settled: int = 0) -> XorRuns:
    """Train the 2-h-1 ReLU network on XOR from every seed in ``seeds``, all runs at once.

    The same full-batch gradient descent as :func:`train_xor_readable`, with a leading seed
    axis of length ``S`` on every array:

        Z1 = X W1 + b1 (S, 4, h),  A1 = relu(Z1),  z2 = A1 W2 + b2 (S, 4, 1)
        delta2 = (sigmoid(z2) - y) / 4                   dL/dz2 of the mean BCE
        dW2 = A1^T delta2,  db2 = sum of rows of delta2
        delta1 = (delta2 W2^T) * relu'(Z1)
        dW1 = X^T delta1,   db1 = sum of rows of delta1

    On the way it records, per run, whether the network was in a blind pair or in the affine
    state after some number of steps ``t >= settled``, and how often a dead unit came back on.

    Parameters
    ----------
    hidden : int
        Hidden width, >= 1.
    seeds : sequence of int
        Seeds of the initial networks; at least one.
    lr : float
        Learning rate, > 0.
    steps : int
        Number of full-batch steps, >= 0.
    settled : int
        The first step whose state counts for :attr:`XorRuns.blind_pair_after` and
        :attr:`XorRuns.affine_after`, ``0 <= settled <= steps``.

    Returns
    -------
    XorRuns
    """
    hidden, lr, steps = _check_settings(hidden, lr, steps)
    settled = check_int("settled", settled, minimum=0)
    if settled > steps:
        raise ValueError(f"settled: expected a step between 0 and steps = {steps}, received {settled}")
    seeds = tuple(check_int("seeds[i]", s, minimum=0) for s in seeds)
    if not seeds:
        raise ValueError("seeds: expected at least one seed, received none")
    nets = [_initial_net(hidden, s) for s in seeds]
    W1 = np.stack([n.weights[0] for n in nets])          # (S, 2, h)
    b1 = np.stack([n.biases[0] for n in nets])           # (S, h)
    W2 = np.stack([n.weights[1] for n in nets])          # (S, h, 1)
    b2 = np.stack([n.biases[1] for n in nets])           # (S, 1)
    X, y = XOR_X, XOR_Y[None, :, None]                   # (4, 2), (1, 4, 1)
    dead_at_start = _dead_count(X @ W1 + b1[:, None, :] > 0.0)
    losses = np.empty((len(seeds), steps + 1))
    history = np.empty((steps + 1, len(seeds), len(X), hidden), dtype=bool)   # which units are on, per step
    for step in range(steps + 1):
        Z1 = X @ W1 + b1[:, None, :]
        on = history[step]
        np.greater(Z1, 0.0, out=on)                       # (S, 4, h)
        A1 = np.maximum(Z1, 0.0)
        z2 = A1 @ W2 + b2[:, None, :]
        # mean BCE from the logits: log(1 + e^z) - y z, computed without overflow
        losses[:, step] = np.mean(np.logaddexp(0.0, z2) - y * z2, axis=(1, 2))
        if step == steps:
            break
        delta2 = (sigmoid(z2) - y) / len(X)               # the mean over B = 4 rows
        delta1 = (delta2 @ W2.transpose(0, 2, 1)) * on
        W2 = W2 - lr * (A1.transpose(0, 2, 1) @ delta2)
        b2 = b2 - lr * delta2.sum(axis=1)
        W1 = W1 - lr * (X.T @ delta1)
        b1 = b1 - lr * delta1.sum(axis=1)
    dead = ~history.any(axis=2)                           # (steps + 1, S, h)
    revived = np.sum(dead[:-1] & ~dead[1:], axis=(0, 2))
    blind_after = _blind_pair(history[settled:]).any(axis=0)
    affine_after = _affine(history[settled:]).any(axis=0)
    return XorRuns(hidden, seeds, lr, steps, W1, b1, W2, b2, losses, dead_at_start,
                   settled, blind_after, affine_after, revived)


def train_xor_readable(hidden: int, seed: int, lr: float, steps: int) -> tuple[MLP, np.ndarray]:
    """One run, step by step with the network's own methods (the reference for :func:`train_xor`).

    Parameters
    ----------
    hidden : int
        Hidden width, >= 1.
    seed : int
        Seed of the initial network, >= 0.
    lr : float
        Learning rate, > 0.
    steps : int
        Number of full-batch steps, >= 0.

    Returns
    -------
    net : MLP
        The trained network.
    losses : numpy.ndarray, shape (steps + 1,)
        The mean loss before each step, then after the last.
    """
    hidden, lr, steps = _check_settings(hidden, lr, steps)
    net = _initial_net(hidden, check_int("seed", seed, minimum=0))
    target = XOR_Y[:, None]
    losses = []
    for step in range(steps + 1):
        _, cache = net.forward(XOR_X, keep_cache=True)
        loss, delta = net.loss_and_delta(cache.pre_activations[-1], target)
        losses.append(loss)
        if step < steps:
            sgd_step(net, net.backward(cache, delta), lr)
    return net, np.array(losses)


@lru_cache(maxsize=8)
def xor_outcomes(hidden: int, n_seeds: int, lr: float, steps: int, settled: int = 0) -> XorRuns:
    """:func:`train_xor` for seeds ``0 .. n_seeds - 1``, computed once per setting and kept.

    The lesson's table, its figure and its prose all read the same runs.

    Parameters
    ----------
    hidden : int
        Hidden width, >= 1.
    n_seeds : int
        How many seeds, >= 1.
    lr : float
        Learning rate, > 0.
    steps : int
        Number of full-batch steps, >= 0.
    settled : int
        As for :func:`train_xor`.

    Returns
    -------
    XorRuns
        The runs of :func:`train_xor`, one per seed.
    """
    return train_xor(hidden, range(check_int("n_seeds", n_seeds, minimum=1)), lr, steps, settled)
