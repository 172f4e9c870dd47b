"""mlp_ref.count_multiply_adds counts the products forward and backward really take."""

from __future__ import annotations

import numpy as np
import pytest

import mlp_ref


@pytest.mark.parametrize("sizes, B", [([784, 128, 64, 10], 32), ([5, 7, 3], 4), ([6, 2, 4, 4, 3], 9)])
def test_counts_follow_the_layer_formula(sizes, B):
    # forward: B d_{l-1} d_l per layer; backward: the same for dW_l, and again for Delta_l W_l^T
    # in every layer but the first.
    net = mlp_ref.MLP(sizes, output="softmax", seed=0)
    counts = mlp_ref.count_multiply_adds(net, np.ones((B, sizes[0])), np.arange(B) % sizes[-1])
    per_layer = [B * a * b for a, b in zip(sizes[:-1], sizes[1:])]
    assert counts.forward_total == sum(per_layer)
    assert counts.backward_total == 2 * sum(per_layer) - per_layer[0]
    assert len(counts.forward) == len(per_layer) and len(counts.backward) == 2 * len(per_layer) - 1


def test_one_layer_backward_costs_the_same_as_forward():
    net = mlp_ref.MLP([3, 2], output="softmax", seed=0)
    counts = mlp_ref.count_multiply_adds(net, np.ones((5, 3)), np.zeros(5, dtype=int))
    assert counts.ratio == 1.0
    assert counts.backward == (((3, 5), (5, 2)),)                  # A_0^T Delta_1 only


def test_the_network_is_left_unchanged_and_plain():
    net = mlp_ref.MLP([4, 3, 1], output="sigmoid", seed=1)
    before = [W.copy() for W in net.weights]
    mlp_ref.count_multiply_adds(net, np.ones((2, 4)), np.array([0.0, 1.0]))
    assert all(type(W) is np.ndarray for W in net.weights)
    for old, new in zip(before, net.weights):
        np.testing.assert_array_equal(old, new)
    # products outside a count are not recorded
    assert mlp_ref.multiply_adds._Recording.log is None


def test_bad_input_is_refused():
    net = mlp_ref.MLP([4, 3, 2], output="softmax", seed=0)
    with pytest.raises(ValueError, match="X"):
        mlp_ref.count_multiply_adds(net, np.ones((2, 5)), np.array([0, 1]))
    with pytest.raises(ValueError, match="y"):
        mlp_ref.count_multiply_adds(net, np.ones((2, 4)), np.array([0, 7]))
    with pytest.raises(TypeError, match="net"):
        mlp_ref.count_multiply_adds("net", np.ones((2, 4)), np.array([0, 1]))
