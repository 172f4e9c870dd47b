"""Property-based tests (Hypothesis) of the core: algebraic facts that hold for any input."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import mlp_ref
from mlp_ref import MLP

SETTINGS = settings(max_examples=50, deadline=None)
finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@st.composite
def networks(draw, min_layers=1, max_layers=3):
    sizes = draw(st.lists(st.integers(1, 6), min_size=min_layers + 1, max_size=max_layers + 1))
    activation = draw(st.sampled_from(sorted(mlp_ref.ACTIVATIONS)))
    output = "softmax" if sizes[-1] >= 2 and draw(st.booleans()) else ("sigmoid" if sizes[-1] == 1 else "identity")
    return MLP(sizes, activation=activation, output=output, seed=draw(st.integers(0, 2**16)))


@SETTINGS
@given(net=networks(), rows=st.integers(1, 6), seed=st.integers(0, 2**16))
def test_a_batch_gives_the_same_rows_as_one_by_one(net, rows, seed):
    X = np.random.default_rng(seed).normal(size=(rows, net.sizes[0]))
    batch = net.forward(X)
    single = np.vstack([net.forward(X[i:i + 1]) for i in range(rows)])
    np.testing.assert_allclose(batch, single, rtol=1e-12, atol=1e-14)


@SETTINGS
@given(d=st.lists(st.integers(1, 6), min_size=3, max_size=3), rows=st.integers(1, 5), seed=st.integers(0, 2**16))
def test_two_affine_layers_collapse_into_one(d, rows, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, d[0]))
    W1, b1 = rng.normal(size=(d[0], d[1])), rng.normal(size=d[1])
    W2, b2 = rng.normal(size=(d[1], d[2])), rng.normal(size=d[2])
    two = mlp_ref.affine(mlp_ref.affine(X, W1, b1), W2, b2)
    one = mlp_ref.affine(X, W1 @ W2, b1 @ W2 + b2)
    np.testing.assert_allclose(two, one, rtol=1e-10, atol=1e-10)
    # the same through the MLP class with identity activations
    net = MLP.from_arrays([W1, W2], [b1, b2], activation="identity")
    np.testing.assert_allclose(net.forward(X), one, rtol=1e-10, atol=1e-10)


@SETTINGS
@given(z=arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 6)), elements=st.floats(-1000, 1000)),
       c=st.floats(-100, 100))
def test_softmax_rows_sum_to_one_and_ignore_a_constant_shift(z, c):
    p = mlp_ref.softmax(z)
    assert np.all(p >= 0)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(mlp_ref.softmax(z + c), p, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.exp(mlp_ref.log_softmax(z)), p, rtol=1e-9, atol=1e-300)


@SETTINGS
@given(net=networks())
def test_torch_state_round_trip_is_the_identity(net):
    back = MLP.from_torch_state(net.to_torch_state(), activation=net.activation, output=net.output)
    assert back.sizes == net.sizes
    for a, b in zip(back.weights + back.biases, net.weights + net.biases):
        np.testing.assert_array_equal(a, b)  # transposes and copies only: no arithmetic, so exact
    for W, b in zip(net.weights, net.biases):
        weight, bias = mlp_ref.linear_to_torch(W, b)
        W2, b2 = mlp_ref.linear_from_torch(weight, bias)
        np.testing.assert_array_equal(W2, W)


@SETTINGS
@given(net=networks())
def test_n_params_is_the_sum_of_array_sizes(net):
    sizes = net.sizes
    assert net.n_params == sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))
    assert net.n_params == sum(p.size for p in net.weights + net.biases)


@SETTINGS
@given(z=arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(2, 5)), elements=finite),
       data=st.data())
def test_cross_entropy_gradient_rows_sum_to_zero(z, data):
    y = np.array(data.draw(st.lists(st.integers(0, z.shape[1] - 1), min_size=z.shape[0], max_size=z.shape[0])))
    assert mlp_ref.losses.cross_entropy(z, y) >= 0
    np.testing.assert_allclose(mlp_ref.losses.cross_entropy_grad(z, y).sum(axis=1), 0.0, atol=1e-15)


@SETTINGS
@given(z=arrays(np.float64, st.integers(1, 20), elements=st.floats(-1000, 1000)))
def test_sigmoid_is_symmetric_and_bounded(z):
    s = mlp_ref.sigmoid(z)
    assert np.all((s >= 0) & (s <= 1))
    np.testing.assert_allclose(s + mlp_ref.sigmoid(-z), 1.0, rtol=1e-15)
