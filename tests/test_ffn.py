"""Tests of mlp_ref.ffn: expected values by hand, from scalar formulas, or from mlp_ref.dense."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mlp_ref
from mlp_ref.ffn import ffn, gated_ffn, moe_ffn, route_top_k


def params(rng, d, d_ff, d_out=None):
    d_out = d if d_out is None else d_out
    return (rng.normal(size=(d, d_ff)), rng.normal(size=d_ff),
            rng.normal(size=(d_ff, d_out)), rng.normal(size=d_out))


def test_ffn_hand_fixture():
    # x = (1, -1); W1 columns (1, 0), (0, 1), (1, 1); b1 = (0, 0.5, 1)
    # z = (1, -0.5, 1); relu -> (1, 0, 1); W2 = rows (1,), (2,), (-3,), b2 = 0.25
    # y = 1*1 + 0*2 + 1*(-3) + 0.25 = -1.75
    X = np.array([[1.0, -1.0]])
    W1 = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    y = ffn(X, W1, [0.0, 0.5, 1.0], [[1.0], [2.0], [-3.0]], [0.25])
    assert y.shape == (1, 1)
    assert y[0, 0] == -1.75  # exact: every value and partial sum is a small dyadic number


def test_ffn_on_sequences_equals_dense_layers_at_each_position():
    rng = np.random.default_rng(0)
    W1, b1, W2, b2 = params(rng, 4, 16)
    X = rng.normal(size=(2, 5, 4))
    Y = ffn(X, W1, b1, W2, b2, activation="gelu")
    assert Y.shape == (2, 5, 4)
    for b in range(2):
        for t in range(5):
            hidden = mlp_ref.dense(X[b, t:t + 1], W1, b1, "gelu")
            expected = mlp_ref.affine(hidden, W2, b2)
            np.testing.assert_allclose(Y[b, t], expected[0], rtol=1e-12, atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 7))
def test_ffn_commutes_with_permuting_positions(seed, T):
    rng = np.random.default_rng(seed)
    W1, b1, W2, b2 = params(rng, 3, 5)
    X = rng.normal(size=(2, T, 3))
    order = rng.permutation(T)
    np.testing.assert_allclose(ffn(X[:, order], W1, b1, W2, b2), ffn(X, W1, b1, W2, b2)[:, order],
                               rtol=1e-12, atol=1e-12)


def test_changing_one_position_changes_only_that_output():
    rng = np.random.default_rng(1)
    W1, b1, W2, b2 = params(rng, 3, 8)
    X = rng.normal(size=(1, 4, 3))
    X2 = X.copy()
    X2[0, 2] += 1.0
    # The two calls are different matrix products (other inputs), so compare with a tolerance:
    # an untouched position agrees to rounding, the changed one by far more.
    changed = ~np.all(np.isclose(ffn(X, W1, b1, W2, b2), ffn(X2, W1, b1, W2, b2), rtol=1e-12, atol=1e-12),
                      axis=-1)[0]
    assert changed.tolist() == [False, False, True, False]


def test_gated_ffn_matches_scalar_formula():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(3, 2))
    Wg, Wu, Wd = rng.normal(size=(2, 4)), rng.normal(size=(2, 4)), rng.normal(size=(4, 2))
    Y = gated_ffn(X, Wg, Wu, Wd)
    for n in range(3):
        for o in range(2):
            total = 0.0
            for j in range(4):
                g = sum(X[n, i] * Wg[i, j] for i in range(2))
                u = sum(X[n, i] * Wu[i, j] for i in range(2))
                total += g / (1.0 + math.exp(-g)) * u * Wd[j, o]
            assert Y[n, o] == pytest.approx(total, rel=1e-12, abs=1e-12)


def test_gated_ffn_sequences_equal_rows():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(2, 3, 4))
    Wg, Wu, Wd = rng.normal(size=(4, 6)), rng.normal(size=(4, 6)), rng.normal(size=(6, 4))
    np.testing.assert_allclose(gated_ffn(X, Wg, Wu, Wd).reshape(6, 4),
                               gated_ffn(X.reshape(6, 4), Wg, Wu, Wd), rtol=1e-12, atol=1e-12)


def test_route_top_k_hand_fixture_and_ties():
    routing = route_top_k(np.array([[1.0, 3.0, 2.0, 0.0]]), 2)
    assert routing.experts.tolist() == [[1, 2]]
    e = math.e
    np.testing.assert_allclose(routing.weights, [[e / (1 + e), 1 / (1 + e)]], rtol=1e-12)
    assert route_top_k(np.array([[1.0, 1.0, 0.0]]), 1).experts.tolist() == [[0]]


def test_moe_with_all_experts_is_the_softmax_mixture():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(2, 3, 4))
    W_router = rng.normal(size=(4, 3))
    experts = [params(rng, 4, 5) for _ in range(3)]
    Y, routing = moe_ffn(X, W_router, experts, top_k=3)
    logits = X @ W_router
    p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    expected = sum(p[..., [e]] * ffn(X, *experts[e]) for e in range(3))
    np.testing.assert_allclose(Y, expected, rtol=1e-12, atol=1e-12)
    assert routing.experts.shape == (2, 3, 3)


def test_moe_top_1_uses_the_best_expert_per_token():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(6, 4))
    W_router = rng.normal(size=(4, 3))
    experts = [(rng.normal(size=(4, 5)), rng.normal(size=(4, 5)), rng.normal(size=(5, 4))) for _ in range(3)]
    Y, routing = moe_ffn(X, W_router, experts, top_k=1, activation="silu")
    best = np.argmax(X @ W_router, axis=1)
    for n in range(6):
        np.testing.assert_allclose(Y[n], gated_ffn(X[n:n + 1], *experts[best[n]])[0], rtol=1e-12)
    np.testing.assert_array_equal(routing.weights, np.ones((6, 1)))  # top-1: softmax of one score is 1 exactly


@pytest.mark.parametrize("call, message", [
    (lambda: ffn(np.ones(3), np.ones((3, 2)), np.ones(2), np.ones((2, 3)), np.ones(3)), "X: expected shape (N, d) or (B, T, d), received shape (3,) (a single row"),
    (lambda: ffn(np.ones((1, 1, 2, 3)), np.ones((3, 2)), np.ones(2), np.ones((2, 3)), np.ones(3)), "received shape (1, 1, 2, 3)"),
    (lambda: ffn(np.ones((1, 2, 3)), np.ones((4, 2)), np.ones(2), np.ones((2, 3)), np.ones(3)), "W1: expected 3 rows"),
    (lambda: ffn(np.ones((1, 3)), np.ones((3, 2)), np.ones(3), np.ones((2, 3)), np.ones(3)), "b1: expected shape (2,)"),
    (lambda: ffn(np.ones((1, 3)), np.ones((3, 2)), np.ones(2), np.ones((3, 3)), np.ones(3)), "W2: expected 2 rows"),
    (lambda: ffn(np.ones((1, 3)), np.ones((3, 2)), np.ones(2), np.ones((2, 3)), np.ones(3), "swish"), "activation: unknown name"),
    (lambda: gated_ffn(np.ones((1, 3)), np.ones((3, 2)), np.ones((3, 4)), np.ones((2, 3))), "W_up: expected the shape of W_gate"),
    (lambda: route_top_k(np.ones((2, 3)), 0), "top_k: expected an integer from 1 to 3"),
    (lambda: route_top_k(np.ones((2, 3)), 4), "top_k: expected an integer from 1 to 3"),
    (lambda: moe_ffn(np.ones((2, 3)), np.ones((3, 2)), [params(np.random.default_rng(0), 3, 2)], 1), "experts: expected 2 experts"),
])
def test_bad_input_names_the_argument(call, message):
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    assert message in str(info.value)


def test_nan_input_is_rejected():
    with pytest.raises(ValueError, match="X: expected finite values"):
        ffn(np.array([[np.nan, 1.0]]), np.ones((2, 2)), np.ones(2), np.ones((2, 2)), np.ones(2))


# --------------------------------------------------------------------------- conv1d

def test_conv1d_hand_fixture_with_two_taps():
    # one sequence of T = 3 positions, one channel: x = (1, 2, 4); taps (10, 1), bias 0.5
    # y_0 = 10*1 + 1*2 + 0.5 = 12.5, y_1 = 10*2 + 1*4 + 0.5 = 24.5
    X = np.array([[[1.0], [2.0], [4.0]]])
    K = np.array([[[10.0]], [[1.0]]])             # (k, c_in, c_out) = (2, 1, 1)
    Y = mlp_ref.conv1d(X, K, [0.5])
    assert Y.shape == (1, 2, 1)
    assert Y[:, :, 0].tolist() == [[12.5, 24.5]]  # exact: small integers and halves


def test_ffn_is_two_convolutions_of_kernel_size_one():
    rng = np.random.default_rng(3)
    W1, b1, W2, b2 = params(rng, 4, 16)
    X = rng.normal(size=(2, 5, 4))
    hidden = mlp_ref.relu(mlp_ref.conv1d(X, W1[None], b1))
    np.testing.assert_allclose(mlp_ref.conv1d(hidden, W2[None], b2), ffn(X, W1, b1, W2, b2), rtol=1e-12, atol=1e-12)


def test_conv1d_with_wider_kernel_mixes_neighbouring_positions():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(1, 6, 3))
    K, b = rng.normal(size=(3, 3, 2)), rng.normal(size=2)
    X2 = X.copy()
    X2[0, 2] += 1.0                                # change position 2 only
    changed = np.any(~np.isclose(mlp_ref.conv1d(X, K, b), mlp_ref.conv1d(X2, K, b)), axis=2)[0]
    assert changed.tolist() == [True, True, True, False]   # outputs 0, 1, 2 read input 2


@pytest.mark.parametrize("X, K, b, message", [
    (np.ones((5, 3)), np.ones((1, 3, 2)), np.ones(2), "X: expected a 3-D array"),
    (np.ones((1, 5, 3)), np.ones((1, 4, 2)), np.ones(2), "K: expected shape (k, 3, c_out) to match X's 3 channels"),
    (np.ones((1, 2, 3)), np.ones((3, 3, 2)), np.ones(2), "K: expected at most T = 2 taps"),
    (np.ones((1, 5, 3)), np.ones((1, 3, 2)), np.ones(3), "b: expected shape (2,) to match the columns of K"),
])
def test_conv1d_bad_input_is_named(X, K, b, message):
    with pytest.raises(ValueError) as caught:
        mlp_ref.conv1d(X, K, b)
    assert message in str(caught.value)
