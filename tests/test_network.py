"""Layers: hand-computed fixtures, PyTorch layout conversion, shape errors."""

import numpy as np
import pytest

import mlp_ref
from mlp_ref import ShapeError

X1 = np.array([[1.0, 2.0]])
W1 = np.array([[1.0, 0.0, -1.0], [0.5, 1.0, 2.0]])
B1 = np.array([0.0, -1.0, 0.5])


def test_layer_fixture_by_hand():
    # z = (1*1 + 2*0.5 + 0, 1*0 + 2*1 - 1, 1*(-1) + 2*2 + 0.5) = (2, 1, 3.5)
    np.testing.assert_array_equal(mlp_ref.affine(X1, W1, B1), [[2.0, 1.0, 3.5]])


def test_neuron_fixture_and_silent_neuron():
    x = np.array([[2.0, -1.0, 0.5]])
    w = np.array([[0.6], [0.3], [-1.0]])
    # z = 1.2 - 0.3 - 0.5 + 0.4 = 0.8 ; with b = -1: z = -0.6, ReLU gives 0.
    np.testing.assert_allclose(mlp_ref.dense(x, w, [0.4]), [[0.8]], rtol=1e-15)
    np.testing.assert_array_equal(mlp_ref.dense(x, w, [-1.0]), [[0.0]])
    np.testing.assert_allclose(mlp_ref.affine(x, w, [-1.0]), [[-0.6]], rtol=1e-15)


def test_bias_is_broadcast_across_the_batch():
    X = np.array([[1.0, 2.0], [0.0, 0.0], [-1.0, 1.0]])
    Z = mlp_ref.affine(X, W1, B1)
    assert Z.shape == (3, 3)
    np.testing.assert_array_equal(Z[1], B1)  # a zero row gives exactly the bias
    np.testing.assert_array_equal(Z[2], [-0.5, 0.0, 3.5])  # -(1,0,-1) + (0.5,1,2) + b


def test_dense_applies_the_named_activation():
    # X1 @ W1 = (2, 2, 3); with b = (-3, -1, -3.5): z = (-1, 1, -0.5), ReLU gives (0, 1, 0).
    np.testing.assert_array_equal(mlp_ref.dense(X1, W1, [-3.0, -1.0, -3.5], "relu"), [[0.0, 1.0, 0.0]])
    np.testing.assert_array_equal(mlp_ref.dense(X1, W1, B1, "identity"), [[2.0, 1.0, 3.5]])


def test_mnist_sized_layer_shape():
    X = np.zeros((32, 784))
    W = np.zeros((784, 128))
    assert mlp_ref.affine(X, W, np.zeros(128)).shape == (32, 128)


def test_torch_layout_round_trip_and_formula():
    weight, bias = mlp_ref.linear_to_torch(W1, B1)
    np.testing.assert_array_equal(weight, [[1.0, 0.5], [0.0, 1.0], [-1.0, 2.0]])
    # PyTorch computes x @ weight.T + bias: the same numbers as X @ W + b.
    np.testing.assert_array_equal(X1 @ weight.T + bias, mlp_ref.affine(X1, W1, B1))
    W, b = mlp_ref.linear_from_torch(weight, bias)
    np.testing.assert_array_equal(W, W1)
    np.testing.assert_array_equal(b, B1)


def test_torch_conversion_returns_copies():
    W = W1.copy()
    weight, bias = mlp_ref.linear_to_torch(W, B1)
    weight[0, 0] = 99.0
    bias[0] = 99.0
    assert W[0, 0] == 1.0 and B1[0] == 0.0
    assert weight.flags.c_contiguous


def test_torch_conversion_checks_shapes():
    with pytest.raises(ShapeError, match=r"bias: expected shape \(3,\).*received bias shape \(2,\)"):
        mlp_ref.linear_from_torch(np.zeros((3, 2)), np.zeros(2))
    with pytest.raises(ShapeError, match=r"b: expected shape \(3,\)"):
        mlp_ref.linear_to_torch(W1, np.zeros(2))
    with pytest.raises(ShapeError, match="2-D"):
        mlp_ref.linear_to_torch(np.zeros(3), np.zeros(3))


def test_one_d_input_gets_reshape_hint():
    with pytest.raises(ShapeError, match=r"X \(layer 1\).*shape \(2,\).*\(1, D\)"):
        mlp_ref.affine(np.array([1.0, 2.0]), W1, B1, layer=1)


def test_wrong_width_names_layer_and_both_shapes():
    with pytest.raises(ShapeError, match=r"X \(layer 2\).*width 2.*\(2, 3\).*\(1, 3\)"):
        mlp_ref.affine(np.ones((1, 3)), W1, B1, layer=2)


def test_bias_shape_mismatch_is_not_broadcast():
    with pytest.raises(ShapeError, match=r"b \(layer 1\)"):
        mlp_ref.affine(X1, W1, np.zeros(1), layer=1)
    with pytest.raises(ShapeError, match=r"b: expected a 1-D"):
        mlp_ref.affine(X1, W1, np.zeros((1, 3)))


def test_bad_values_are_rejected():
    with pytest.raises(ValueError, match="NaN or inf"):
        mlp_ref.affine([[np.nan, 1.0]], W1, B1)
    with pytest.raises(ShapeError, match="empty batch"):
        mlp_ref.affine(np.zeros((0, 2)), W1, B1)
    with pytest.raises(ValueError, match="valid names"):
        mlp_ref.dense(X1, W1, B1, "sigmod")
