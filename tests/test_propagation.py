"""Tests of mlp_ref.propagation: hand-computed fixtures and the variance recursion."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mlp_ref
from mlp_ref.propagation import layer_statistics, random_stack


def test_two_layers_of_2I_by_hand():
    # X = [[1, -1], [3, 1]], W = 2 I, ReLU.
    # Layer 1: z = [[2, -2], [6, 2]] (mean 2, deviations 0, -4, 4, 0: var 32/4 = 8),
    #          a = [[2, 0], [6, 2]] (mean 10/4, E[a^2] = 44/4 = 11, one zero in four).
    # Layer 2: z = 2a = [[4, 0], [12, 4]] (mean 5, deviations -1, -5, 7, -1: var 76/4 = 19),
    #          E[z^2] = (16 + 0 + 144 + 16)/4 = 44.
    X = np.array([[1.0, -1.0], [3.0, 1.0]])
    stats = layer_statistics(X, [2 * np.eye(2), 2 * np.eye(2)], "relu")
    assert len(stats) == 2
    np.testing.assert_allclose(stats.z_std, [math.sqrt(8), math.sqrt(19)])
    np.testing.assert_allclose(stats.z_second_moment, [12.0, 44.0])
    np.testing.assert_allclose(stats.a_mean, [2.5, 5.0])
    np.testing.assert_allclose(stats.a_second_moment, [11.0, 44.0])
    np.testing.assert_allclose(stats.small_grad_fraction, [0.25, 0.25])


def test_biases_are_added():
    # z = x + b with W = I: x = [[0, 0]], b = (1, -1) -> z = (1, -1), a = (1, 0).
    stats = layer_statistics(np.zeros((1, 2)), [np.eye(2)], "relu", biases=[np.array([1.0, -1.0])])
    np.testing.assert_allclose(stats.z_std, [1.0])
    np.testing.assert_allclose(stats.a_mean, [0.5])


def test_tanh_saturation_threshold():
    # tanh'(z) = 1 - tanh(z)^2 < 0.1 exactly when |z| > atanh(sqrt(0.9)) ~ 1.818.
    X = np.array([[0.0, 1.0, 1.8, 1.85, -3.0]])
    stats = layer_statistics(X, [np.eye(5)], "tanh")
    np.testing.assert_allclose(stats.small_grad_fraction, [2 / 5])


@pytest.mark.parametrize("gain", [1.0, math.sqrt(2.0), 2.0])
def test_relu_second_moment_follows_the_recursion(gain):
    # E[z_l^2] ~ width * (gain^2 / width) * E[a_{l-1}^2] and E[a^2] = E[z^2] / 2 for ReLU,
    # so each layer multiplies E[z^2] by gain^2 / 2.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((400, 300))
    stats = layer_statistics(X, random_stack(300, 6, gain, rng), "relu")
    np.testing.assert_allclose(stats.a_second_moment / stats.z_second_moment, 0.5, rtol=0.1)
    ratios = stats.z_second_moment[1:] / stats.z_second_moment[:-1]
    np.testing.assert_allclose(ratios, gain**2 / 2, rtol=0.15)


def test_random_stack_shapes_and_scale():
    stack = random_stack(400, 3, 5 / 3, seed=1)
    assert [W.shape for W in stack] == [(400, 400)] * 3
    np.testing.assert_allclose([W.std() for W in stack], (5 / 3) / 20, rtol=0.02)
    # Same seed, same weights (same draws and scaling, no matrix product: exact).
    assert all(np.array_equal(a, b) for a, b in zip(stack, random_stack(400, 3, 5 / 3, seed=1)))


def test_bad_input_names_the_layer():
    X = np.ones((3, 4))
    with pytest.raises(mlp_ref.ShapeError, match=r"W \(layer 2\): expected 5 rows.*a1"):
        layer_statistics(X, [np.ones((4, 5)), np.ones((4, 5))])
    with pytest.raises(mlp_ref.ShapeError, match=r"b \(layer 1\): expected shape \(5,\)"):
        layer_statistics(X, [np.ones((4, 5))], biases=[np.ones(4)])
    with pytest.raises(mlp_ref.ShapeError, match="X: expected a 2-D array"):
        layer_statistics(np.ones(4), [np.ones((4, 5))])
    with pytest.raises(ValueError, match="activation: unknown name 'sigmoidal'"):
        layer_statistics(X, [np.ones((4, 5))], "sigmoidal")
    with pytest.raises(ValueError, match="depth: expected a positive integer"):
        random_stack(4, 0, 1.0, seed=0)
    with pytest.raises(ValueError, match="gain: expected a positive finite number"):
        random_stack(4, 2, -1.0, seed=0)
