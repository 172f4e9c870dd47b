"""Output heads with any loss: finite differences, matched pairs against mlp_ref.losses, bad input."""

import numpy as np
import pytest

import mlp_ref
from mlp_ref import central_difference
from mlp_ref.heads import OUTPUT_HEADS, OUTPUT_LOSSES, head_loss, head_loss_and_grads, head_loss_grad

RNG = np.random.default_rng(7)
Z = RNG.normal(size=(5, 3))
Y01 = RNG.uniform(0.05, 0.95, size=(5, 3))       # valid for every loss
COUNTS = RNG.integers(0, 6, size=(5, 3)).astype(float)

# Pairs whose outputs lie in the loss's domain for the logits Z.
VALID = [(h, "mse") for h in OUTPUT_HEADS] + [("sigmoid", "bce"), ("softplus", "poisson"), ("exp", "poisson")]


def numeric_grad(z, y, head, loss):
    z = np.array(z, dtype=float)
    return central_difference(lambda: head_loss(z, y, head, loss), z)


@pytest.mark.parametrize("head, loss", VALID)
def test_gradient_matches_finite_differences(head, loss):
    z = Z + 0.3 if head == "relu" else Z            # keep ReLU inputs away from the kink
    y = COUNTS if loss == "poisson" else Y01
    np.testing.assert_allclose(head_loss_grad(z, y, head, loss), numeric_grad(z, y, head, loss),
                               rtol=1e-6, atol=1e-9)


def test_sigmoid_bce_equals_the_logits_loss():
    z, y = Z[:, :1], Y01[:, :1]
    assert head_loss(z, y, "sigmoid", "bce") == pytest.approx(mlp_ref.binary_cross_entropy_with_logits(z, y), rel=1e-12)
    np.testing.assert_allclose(head_loss_grad(z, y, "sigmoid", "bce"),
                               mlp_ref.binary_cross_entropy_with_logits_grad(z, y), rtol=1e-10)


def test_matched_pairs_give_prediction_minus_target():
    n = Z.size
    p = 1 / (1 + np.exp(-Z))                        # by hand, not through mlp_ref
    np.testing.assert_allclose(head_loss_grad(Z, Y01, "sigmoid", "bce"), (p - Y01) / n, rtol=1e-10)
    np.testing.assert_allclose(head_loss_grad(Z, COUNTS, "exp", "poisson"), (np.exp(Z) - COUNTS) / n, rtol=1e-10)
    np.testing.assert_allclose(head_loss_grad(Z, Y01, "identity", "mse"), 2 * (Z - Y01) / n, rtol=1e-12)
    assert head_loss(Z, Y01, "identity", "mse") == pytest.approx(mlp_ref.mse(Z, Y01), rel=1e-12)


def test_relu_head_gradient_is_exactly_zero_below_the_kink():
    z = np.array([[-2.0], [-0.1], [0.5]])
    g = head_loss_grad(z, [1.0, 1.0, 1.0], "relu", "mse")
    assert g[0, 0] == 0.0 and g[1, 0] == 0.0
    assert g[2, 0] == pytest.approx(2 * (0.5 - 1.0) / 3)


def test_network_gradients_match_the_built_in_sigmoid_head():
    X = RNG.normal(size=(6, 3))
    y = np.array([0, 1, 1, 0, 1, 0], dtype=float)
    net = mlp_ref.MLP([3, 4, 1], activation="tanh", seed=1)
    peer = mlp_ref.MLP([3, 4, 1], activation="tanh", output="sigmoid", seed=1)
    loss, grads = head_loss_and_grads(net, X, y, "sigmoid", "bce")
    peer_loss, peer_grads = peer.loss_and_grads(X, y)
    assert loss == pytest.approx(peer_loss, rel=1e-12)
    for mine, theirs in zip(grads.weights + grads.biases, peer_grads.weights + peer_grads.biases):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-14)


def test_network_gradients_match_finite_differences_for_a_relu_head():
    X = RNG.normal(size=(6, 2))
    y = RNG.uniform(size=6)
    net = mlp_ref.MLP([2, 5, 1], activation="tanh", seed=3)
    net.biases[-1][:] = 2.0                          # every logit positive: away from the kink
    _, grads = head_loss_and_grads(net, X, y, "relu", "mse")
    for param, grad in zip(net.weights + net.biases, grads.weights + grads.biases):
        numeric = central_difference(lambda: head_loss_and_grads(net, X, y, "relu", "mse")[0], param)
        np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-9)


def test_bad_input():
    with pytest.raises(ValueError, match="head: unknown name 'softmax'"):
        head_loss(Z, Y01, "softmax", "mse")
    with pytest.raises(ValueError, match="loss: unknown name 'ce'"):
        head_loss(Z, Y01, "sigmoid", "ce")
    with pytest.raises(ValueError, match=r"loss 'bce': expected outputs in the open interval \(0, 1\)"):
        head_loss(Z, Y01, "relu", "bce")
    with pytest.raises(ValueError, match="loss 'poisson': expected outputs > 0"):
        head_loss(Z, COUNTS, "identity", "poisson")
    with pytest.raises(mlp_ref.ShapeError, match=r"y: expected shape \(5, 3\)"):
        head_loss(Z, Y01[:, :2], "sigmoid", "mse")
    with pytest.raises(ValueError, match="overflow"):
        head_loss([[1000.0]], [[1.0]], "exp", "poisson")
    with pytest.raises(ValueError, match="expected output='identity'"):
        head_loss_and_grads(mlp_ref.MLP([2, 1], output="sigmoid"), [[1.0, 2.0]], [1.0], "relu", "mse")
    assert set(OUTPUT_LOSSES) == {"mse", "bce", "poisson"}
