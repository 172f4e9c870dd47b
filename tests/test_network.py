"""Layers: hand-computed fixtures, PyTorch layout conversion, shape errors."""

import numpy as np
import pytest

import mlp_ref
from mlp_ref import ShapeError, central_difference

X1 = np.array([[1.0, 2.0]])
W1 = np.array([[1.0, 0.0, -1.0], [0.5, 1.0, 2.0]])
B1 = np.array([0.0, -1.0, 0.5])


# The exact comparisons below use fixtures whose every product and partial sum is a small
# dyadic number (0.5, 1, 3.5, ...): exact in floating point in any summation order, on any
# CPU and BLAS. Results of arbitrary floats are compared with assert_allclose.
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


# =========================================================================== MLP

import math  # noqa: E402

from mlp_ref import MLP  # noqa: E402


def _sig(z):
    return 1.0 / (1.0 + math.exp(-z))


def test_two_two_one_forward_by_hand():
    net = MLP.from_arrays([[[0.1, 0.2], [0.3, 0.4]], [[0.5], [0.6]]], [[0.1, 0.1], [0.2]],
                          activation="relu", output="sigmoid")
    out, cache = net.forward([[1.0, 2.0]], keep_cache=True)
    # z1 = (0.1 + 0.6 + 0.1, 0.2 + 0.8 + 0.1) = (0.8, 1.1); z2 = 0.4 + 0.66 + 0.2 = 1.26
    np.testing.assert_allclose(cache.pre_activations[0], [[0.8, 1.1]], rtol=1e-15)
    np.testing.assert_allclose(cache.activations[1], [[0.8, 1.1]], rtol=1e-15)
    np.testing.assert_allclose(cache.pre_activations[1], [[1.26]], rtol=1e-15)
    np.testing.assert_allclose(out, [[_sig(1.26)]], rtol=1e-15)
    assert cache.activations[0].tolist() == [[1.0, 2.0]]
    assert cache.activations[-1] is not None and cache.activations[-1].shape == (1, 1)


def test_softmax_fixture_by_hand():
    net = MLP.from_arrays([[[1.0, -1.0], [2.0, 1.0]], [[1.0, 0.0], [-1.0, 2.0]]], [[0.0, 1.0], [0.0, 0.0]],
                          activation="relu", output="softmax")
    # z1 = (1 + 4, -1 + 2 + 1) = (5, 2); z2 = (5 - 2, 0 + 4) = (3, 4); softmax = (1, e) / (1 + e)
    np.testing.assert_allclose(net.logits([[1.0, 2.0]]), [[3.0, 4.0]], rtol=1e-15)
    e = math.e
    np.testing.assert_allclose(net.predict_proba([[1.0, 2.0]]), [[1 / (1 + e), e / (1 + e)]], rtol=1e-15)
    assert net.predict([[1.0, 2.0]]).tolist() == [1]


def test_xor_with_hand_chosen_weights():
    # h1 = ReLU(x1 + x2), h2 = ReLU(x1 + x2 - 1), y = h1 - 2 h2
    net = MLP.from_arrays([[[1, 1], [1, 1]], [[1], [-2]]], [[0, -1], [0]])
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    np.testing.assert_array_equal(net.forward(X)[:, 0], [0, 1, 1, 0])


def test_cache_shapes_for_mnist_sizes():
    net = MLP([784, 128, 64, 10], output="softmax")
    out, cache = net.forward(np.zeros((3, 784)), keep_cache=True)
    assert [z.shape for z in cache.pre_activations] == [(3, 128), (3, 64), (3, 10)]
    assert [a.shape for a in cache.activations] == [(3, 784), (3, 128), (3, 64), (3, 10)]
    assert out is cache.activations[-1]
    # 784*128 + 128 + 128*64 + 64 + 64*10 + 10 = 100352 + 128 + 8192 + 64 + 640 + 10
    assert net.n_params == 109386


def test_loss_and_grads_by_hand():
    # 1-1-1 net, x = 2, W1 = 0.5, b1 = 0, W2 = 3, b2 = 1, target 10, MSE:
    # z1 = 1, a1 = 1, z2 = 4, loss = 36; dL/dz2 = 2 (4 - 10) = -12;
    # dW2 = a1 * -12 = -12, db2 = -12; dL/dz1 = -12 * 3 * relu'(1) = -36; dW1 = 2 * -36, db1 = -36
    net = MLP.from_arrays([[[0.5]], [[3.0]]], [[0.0], [1.0]])
    loss, grads = net.loss_and_grads([[2.0]], [10.0])
    assert loss == 36.0
    assert [g.tolist() for g in grads.weights] == [[[-72.0]], [[-12.0]]]
    assert [g.tolist() for g in grads.biases] == [[-36.0], [-12.0]]


@pytest.mark.parametrize("activation", ["relu", "tanh", "gelu", "sigmoid", "silu", "leaky_relu"])
@pytest.mark.parametrize("output", ["identity", "sigmoid", "softmax"])
def test_backward_matches_central_differences(activation, output):
    rng = np.random.default_rng(7)
    k = {"identity": 2, "sigmoid": 1, "softmax": 3}[output]
    net = MLP([3, 5, 4, k], activation=activation, output=output, seed=1)
    for b in net.biases:  # non-zero biases keep ReLU inputs away from the kink at exactly 0
        b[:] = rng.normal(size=b.shape) * 0.3
    X = rng.normal(size=(6, 3))
    y = {"identity": rng.normal(size=(6, 2)), "sigmoid": rng.integers(0, 2, 6).astype(float),
         "softmax": rng.integers(0, 3, 6)}[output]
    _, grads = net.loss_and_grads(X, y)
    for p, g in zip(net.weights + net.biases, grads.weights + grads.biases):
        numeric = central_difference(lambda: net.loss_and_grads(X, y)[0], p)
        # relative to the array's largest gradient: see grad_check's docstring
        assert np.abs(g - numeric).max() / np.abs(numeric).max() < 1e-6


def test_predict_for_each_head():
    W = [[[1.0], [-1.0]]]
    reg = MLP.from_arrays(W, [[0.5]], output="identity")
    np.testing.assert_array_equal(reg.predict([[1.0, 3.0]]), [[-1.5]])
    with pytest.raises(ValueError, match="not probabilities"):
        reg.predict_proba([[1.0, 3.0]])
    binary = MLP.from_arrays(W, [[0.0]], output="sigmoid")
    np.testing.assert_array_equal(binary.predict([[1.0, 3.0], [3.0, 1.0]]), [0, 1])
    np.testing.assert_allclose(binary.predict_proba([[3.0, 1.0]]), [[_sig(2.0)]], rtol=1e-15)


def test_torch_state_names_and_layout():
    net = MLP([4, 3, 2], seed=5)
    state = net.to_torch_state()
    assert list(state) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert state["0.weight"].shape == (3, 4) and state["2.weight"].shape == (2, 3)
    np.testing.assert_array_equal(state["2.weight"], net.weights[1].T)
    state["0.weight"][0, 0] += 1.0  # a copy: the network is unchanged
    assert net.weights[0][0, 0] != state["0.weight"][0, 0]
    back = MLP.from_torch_state(net.to_torch_state())
    for a, b in zip(back.weights + back.biases, net.weights + net.biases):
        np.testing.assert_array_equal(a, b)


def test_torch_parity_if_available():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed; skipping the nn.Sequential parity check")
    net = MLP([4, 6, 3], activation="tanh", seed=2)
    model = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3)).double()
    model.load_state_dict({k: torch.from_numpy(v) for k, v in net.to_torch_state().items()})
    X = np.random.default_rng(0).normal(size=(5, 4))
    np.testing.assert_allclose(model(torch.from_numpy(X)).detach().numpy(), net.forward(X), rtol=1e-12)
    state = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    np.testing.assert_allclose(MLP.from_torch_state(state, activation="tanh").forward(X), net.forward(X), rtol=1e-15)


def test_float32_network_stays_float32():
    net = MLP([3, 4, 2], output="softmax", dtype=np.float32)
    assert all(W.dtype == np.float32 for W in net.weights + net.biases)
    assert net.forward(np.ones((2, 3))).dtype == np.float32
    loss, grads = net.loss_and_grads(np.ones((2, 3)), [0, 1])
    assert all(g.dtype == np.float32 for g in grads.weights + grads.biases)
    assert MLP.from_arrays(net.weights, net.biases).dtype == np.float32


def test_seed_determines_initial_weights():
    # Random draws, no arithmetic between them and the arrays: exact equality is the claim.
    a, b, c = MLP([5, 4, 2], seed=3), MLP([5, 4, 2], seed=3), MLP([5, 4, 2], seed=4)
    np.testing.assert_array_equal(a.weights[0], b.weights[0])
    assert not np.array_equal(a.weights[0], c.weights[0])
    assert all(np.all(bias == 0) for bias in a.biases)
