"""Losses: hand values, peers (scikit-learn's log_loss), finite differences, weights, stability."""

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import log_loss

import mlp_ref
import mlp_ref.losses
from mlp_ref import central_difference
from mlp_ref.losses import (binary_cross_entropy_with_logits, binary_cross_entropy_with_logits_grad, cross_entropy,
                            cross_entropy_grad, mse, mse_grad)


def test_top_level_names_are_the_losses_module_functions():
    # Issue 3 names these in the public API; another module exporting the same name shadows them.
    for name in ["cross_entropy", "cross_entropy_grad", "binary_cross_entropy_with_logits", "mse", "mse_grad"]:
        assert getattr(mlp_ref, name) is getattr(mlp_ref.losses, name), (
            f"mlp_ref.{name} is {getattr(mlp_ref, name).__module__}.{name}, not mlp_ref.losses.{name}")


def test_cross_entropy_by_hand():
    # softmax(0, ln 3) = (1/4, 3/4): label 1 costs -ln(3/4), label 0 costs -ln(1/4)
    logits = [[0.0, math.log(3.0)], [0.0, math.log(3.0)]]
    assert cross_entropy(logits, [1, 0]) == pytest.approx((-math.log(0.75) - math.log(0.25)) / 2, rel=1e-14)
    # gradient: (p - onehot) / B
    np.testing.assert_allclose(cross_entropy_grad(logits, [1, 0]), [[0.125, -0.125], [-0.375, 0.375]], rtol=1e-14)


def test_cross_entropy_is_finite_for_huge_logits():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cross_entropy([[1000.0, -1000.0]], [1]) == 2000.0
        assert cross_entropy([[1000.0, -1000.0]], [0]) == 0.0
        # exact: exp(-2000) underflows to 0, so the probabilities are exactly 1 and 0
        np.testing.assert_array_equal(cross_entropy_grad([[1000.0, -1000.0]], [1]), [[1.0, -1.0]])
        # the naive route: softmax then log gives -inf
        with np.errstate(divide="ignore"):
            assert np.log(mlp_ref.softmax([[1000.0, -1000.0]]))[0, 1] == -np.inf


def test_cross_entropy_matches_sklearn_log_loss():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(20, 4)) * 3
    y = rng.integers(0, 4, 20)
    y[:4] = [0, 1, 2, 3]
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    assert cross_entropy(logits, y) == pytest.approx(log_loss(y, p, labels=[0, 1, 2, 3]), rel=1e-12)


def test_binary_cross_entropy_by_hand_and_peer():
    assert binary_cross_entropy_with_logits([0.0], [1]) == pytest.approx(math.log(2.0), rel=1e-15)
    assert binary_cross_entropy_with_logits([-1000.0, 1000.0], [1, 0]) == 1000.0
    z = np.array([-3.0, -0.5, 0.2, 2.0])
    y = np.array([0.0, 1.0, 1.0, 0.0])
    s = 1 / (1 + np.exp(-z))
    assert binary_cross_entropy_with_logits(z, y) == pytest.approx(log_loss(y, s), rel=1e-12)
    np.testing.assert_allclose(binary_cross_entropy_with_logits_grad(z, y), (s - y) / 4, rtol=1e-14)


def test_binary_cross_entropy_column_shape():
    z = np.array([[0.3], [-1.2]])
    assert binary_cross_entropy_with_logits(z, [1, 0]) == binary_cross_entropy_with_logits(z.ravel(), [1, 0])
    assert binary_cross_entropy_with_logits_grad(z, [1, 0]).shape == (2, 1)
    # soft targets are allowed
    assert binary_cross_entropy_with_logits([0.0], [0.5]) == pytest.approx(math.log(2.0), rel=1e-15)


def test_mse_by_hand():
    # ((1 - 0)^2 + (2 - 0)^2) / 2 = 2.5 for the first row, 0 for the second: mean 1.25
    assert mse([[1.0, 2.0], [3.0, 3.0]], [[0.0, 0.0], [3.0, 3.0]]) == 1.25
    # gradient 2 (pred - target) / (B K), exact: small dyadic numbers
    np.testing.assert_array_equal(mse_grad([[1.0, 2.0], [3.0, 3.0]], [[0.0, 0.0], [3.0, 3.0]]),
                                  [[0.5, 1.0], [0.0, 0.0]])
    assert mse([1.0, 2.0, 3.0], [1.0, 2.0, 6.0]) == 3.0  # 9 / 3: the actual batch size


CASES = [
    (cross_entropy, cross_entropy_grad, (5, 3), lambda rng: rng.integers(0, 3, 5)),
    (binary_cross_entropy_with_logits, binary_cross_entropy_with_logits_grad, (5,), lambda rng: rng.uniform(0, 1, 5)),
    (binary_cross_entropy_with_logits, binary_cross_entropy_with_logits_grad, (5, 1), lambda rng: rng.integers(0, 2, 5).astype(float)),
    (mse, mse_grad, (5, 3), lambda rng: rng.normal(size=(5, 3))),
    (mse, mse_grad, (5,), lambda rng: rng.normal(size=5)),
]


@pytest.mark.parametrize("loss, grad, shape, make_y", CASES)
@pytest.mark.parametrize("weighted", [False, True])
def test_gradients_match_central_differences(loss, grad, shape, make_y, weighted):
    rng = np.random.default_rng(3)
    z = rng.normal(size=shape) * 2
    y = make_y(rng)
    w = rng.uniform(0, 2, 5) if weighted else None
    numeric = central_difference(lambda: loss(z, y, w), z)
    analytic = grad(z, y, w)
    assert analytic.shape == z.shape
    assert np.abs(analytic - numeric).max() / np.abs(numeric).max() < 1e-6


@pytest.mark.parametrize("loss, grad, shape, make_y", CASES)
def test_mask_averages_over_kept_rows(loss, grad, shape, make_y):
    rng = np.random.default_rng(4)
    z = rng.normal(size=shape)
    y = make_y(rng)
    mask = np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    keep = mask.astype(bool)
    assert loss(z, y, mask) == pytest.approx(loss(z[keep], y[keep]), rel=1e-14)
    g = grad(z, y, mask)
    np.testing.assert_allclose(g[keep], grad(z[keep], y[keep]), rtol=1e-14)
    assert np.all(g[~keep] == 0)
    # weights 2, 2, 2, ... give the plain mean
    assert loss(z, y, np.full(5, 2.0)) == pytest.approx(loss(z, y), rel=1e-14)


def test_zero_total_weight_is_an_error():
    with pytest.raises(ValueError, match="sum\\(weights\\) = 0"):
        cross_entropy([[0.0, 1.0]], [0], weights=[0.0])
    with pytest.raises(ValueError, match="non-negative"):
        mse([1.0, 2.0], [1.0, 1.0], weights=[1.0, -1.0])
    with pytest.raises(mlp_ref.ShapeError, match="weights: expected 2 values"):
        mse([1.0, 2.0], [1.0, 1.0], weights=[1.0])
