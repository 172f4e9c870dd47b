"""Tests of mlp_ref.perceptron: a hand-traced run, the convergence theorem, XOR's cycle, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlp_ref.perceptron import mistake_bound, perceptron_predict, step, train_perceptron
from mlp_ref.validation import ShapeError

CORNERS = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
AND = np.array([0, 0, 0, 1])
XOR = np.array([0, 1, 1, 0])


def test_step_is_one_only_above_zero():
    assert step(np.array([-1.0, 0.0, 0.5])).tolist() == [0, 0, 1]


def test_first_two_epochs_on_and_by_hand():
    # Epoch 1, from w = (0, 0), b = 0: z = 0 on every corner, so the answer is 0; only (1, 1)
    # (target 1) is wrong: w <- (0, 0) + (1, 1) = (1, 1), b <- 0 + 1 = 1.
    # Epoch 2: (0, 0): z = 1 -> 1, target 0: w = (1, 1), b = 0.  (0, 1): z = 1 -> 1, target 0:
    # w = (1, 0), b = -1.  (1, 0): z = 0 -> 0, right.  (1, 1): z = 0 -> 0, target 1: w = (2, 1), b = 0.
    run = train_perceptron(CORNERS, AND)
    assert run.errors[:2] == [1, 3]
    first_two = run.steps[:8]
    assert [s.updated for s in first_two] == [False, False, False, True, True, True, False, True]
    assert [s.z for s in first_two] == [0, 0, 0, 0, 1, 1, 0, 0]
    assert first_two[3].w.tolist() == [1, 1] and first_two[3].b == 1
    assert first_two[7].w.tolist() == [2, 1] and first_two[7].b == 0
    assert [(s.epoch, s.index) for s in first_two[3:5]] == [(1, 4), (2, 1)]


def test_converges_on_and_and_then_answers_every_corner():
    run = train_perceptron(CORNERS, AND)
    assert run.converged and run.errors[-1] == 0 and run.cycle is None
    assert perceptron_predict(CORNERS, run.w, run.b).tolist() == AND.tolist()
    assert len(run.steps) == run.epochs * len(CORNERS)
    assert run.updates == sum(run.errors)
    assert run.updates <= mistake_bound(CORNERS, AND, [1, 1], -1.5)


def test_xor_is_proven_to_cycle_with_mistakes():
    run = train_perceptron(CORNERS, XOR, max_epochs=1000)
    assert not run.converged
    assert run.cycle is not None and run.never_converges
    first, length = run.cycle
    # The proof, checked independently: run on from the cycle's start for many periods by hand.
    w, b = (np.zeros(2), 0.0) if first == 1 else (run.steps[(first - 1) * 4 - 1].w, run.steps[(first - 1) * 4 - 1].b)
    start = (w.tolist(), b)
    for _ in range(length):
        for x, t in zip(CORNERS, XOR):
            out = int(x @ w + b > 0)
            w, b = w + (t - out) * x, b + (t - out)
    assert (w.tolist(), b) == start
    # And a long run never reaches an error-free epoch (exact integers: no rounding involved).
    assert min(train_perceptron(CORNERS, XOR, max_epochs=1000).errors) > 0


def test_never_converges_is_false_for_a_run_cut_short():
    run = train_perceptron(CORNERS, XOR, max_epochs=1)
    assert run.cycle is None and not run.converged and not run.never_converges


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 30), d=st.integers(1, 4))
def test_separable_data_converges_within_novikoffs_bound(seed, n, d):
    rng = np.random.default_rng(seed)
    u, c = rng.normal(size=d), rng.normal()
    X = rng.normal(size=(n, d))
    z = X @ u + c
    keep = np.abs(z) > 0.1 * np.linalg.norm(np.append(u, c))   # a margin, so the bound is finite
    if keep.sum() < 2:
        return
    X, y = X[keep], (z[keep] > 0).astype(int)
    run = train_perceptron(X, y, max_epochs=100_000)
    assert run.converged
    assert run.updates <= mistake_bound(X, y, u, c) * (1 + 1e-9)
    assert perceptron_predict(X, run.w, run.b).tolist() == y.tolist()


def test_learning_rate_only_scales_the_weights_from_zero():
    a, b = train_perceptron(CORNERS, AND, lr=1.0), train_perceptron(CORNERS, AND, lr=0.25)
    assert a.errors == b.errors
    np.testing.assert_allclose(b.w, 0.25 * a.w)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(X=[0, 1], y=[0, 1]), ShapeError, "X: expected a 2-D array"),
    (dict(X=CORNERS, y=[0, 1, 1]), ShapeError, "y: expected shape (4,)"),
    (dict(X=CORNERS, y=[0, 1, 2, 0]), ValueError, "y: expected targets 0 or 1, received [0, 1, 2]"),
    (dict(X=CORNERS, y=[True, False, True, False]), ValueError, "y: expected targets 0 or 1"),
    (dict(X=[[0.0, np.nan]], y=[0]), ValueError, "X: expected finite values"),
    (dict(X=CORNERS, y=AND, lr=0), ValueError, "lr: expected a positive finite number, received 0"),
    (dict(X=CORNERS, y=AND, max_epochs=0), ValueError, "max_epochs: expected a positive integer, received 0"),
    (dict(X=CORNERS, y=AND, w0=[0.0, 0.0, 0.0]), ShapeError, "w: expected shape (2,) to match X of width 2"),
])
def test_bad_input_is_named(kwargs, error, message):
    with pytest.raises(error) as caught:
        train_perceptron(kwargs.pop("X"), kwargs.pop("y"), **kwargs)
    assert message in str(caught.value)


def test_predict_checks_the_unit():
    with pytest.raises(ShapeError, match=r"w: expected shape \(2,\).*received shape \(3,\)"):
        perceptron_predict(CORNERS, [1.0, 1.0, 1.0], 0.0)
    with pytest.raises(ValueError, match="b: expected a finite real number, received nan"):
        perceptron_predict(CORNERS, [1.0, 1.0], float("nan"))


def test_mistake_bound_refuses_a_unit_that_does_not_separate():
    with pytest.raises(ValueError, match=r"2 of 4 rows on the wrong side or on the boundary"):
        mistake_bound(CORNERS, AND, [1, 1], -1.0)   # (1, 0) and (0, 1) land on z = 0
    with pytest.raises(ValueError, match="expected a unit that separates the data"):
        mistake_bound(CORNERS, XOR, [1, 1], -0.5)
