"""Bad input to the core: each case raises a clear error naming the argument (and the layer)."""

import numpy as np
import pytest

import mlp_ref
from mlp_ref import MLP, ShapeError, fit
from mlp_ref.losses import binary_cross_entropy_with_logits, cross_entropy, mse
from mlp_ref.network import Gradients


@pytest.fixture
def net():
    return MLP([3, 4, 2], output="softmax", seed=0)


X_OK = np.ones((5, 3))
Y_OK = np.array([0, 1, 0, 1, 1])


# ---------------------------------------------------------------- wrong width
def test_wrong_width(net):
    with pytest.raises(ShapeError, match=r"X \(layer 1\): expected width 3 .*\(3, 4\).*received X shape \(5, 4\)"):
        net.forward(np.ones((5, 4)))
    with pytest.raises(ShapeError, match=r"X \(layer 1\): expected width 3"):
        net.loss_and_grads(np.ones((5, 2)), Y_OK)
    with pytest.raises(ShapeError, match=r"X_val \(layer 1\): expected width 3"):
        fit(net, X_OK, Y_OK, np.ones((2, 5)), [0, 1], epochs=1, batch_size=2, lr=0.1, seed=0)
    with pytest.raises(ShapeError, match=r"W \(layer 2\): expected 4 rows .*layer 1.*received W shape \(3, 2\)"):
        MLP.from_arrays([np.ones((3, 4)), np.ones((3, 2))], [np.ones(4), np.ones(2)])


# ---------------------------------------------------------------- 1-D where 2-D is needed
def test_one_d_where_two_d_is_needed(net):
    with pytest.raises(ShapeError, match=r"X: expected a 2-D array, received shape \(3,\).*\(1, D\)"):
        net.forward(np.ones(3))
    with pytest.raises(ShapeError, match=r"logits: expected a 2-D array"):
        cross_entropy(np.ones(3), [0, 1, 2])
    with pytest.raises(ShapeError, match=r"W \(layer 1\): expected a 2-D array"):
        MLP.from_arrays([np.ones(3)], [np.ones(1)])


# ---------------------------------------------------------------- NaN or inf
def test_finite_values_whose_sum_overflows_are_accepted():
    big = np.finfo(np.float64).max
    z = [[big, big, -1.0], [big, -big, -big]]        # every entry finite; the sums overflow
    np.testing.assert_array_equal(mlp_ref.relu(z), [[big, big, 0.0], [big, 0.0, 0.0]])
    with pytest.raises(ValueError, match="z: expected finite values, received 1 NaN or inf"):
        mlp_ref.relu([[big, big, np.nan]])


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_and_inf(net, bad):
    X = X_OK.copy()
    X[2, 1] = bad
    with pytest.raises(ValueError, match="X: expected finite values, received 1 NaN or inf"):
        net.forward(X)
    with pytest.raises(ValueError, match="X_train.*finite"):
        fit(net, X, Y_OK, X_OK, Y_OK, epochs=1, batch_size=2, lr=0.1, seed=0)
    with pytest.raises(ValueError, match="z: expected finite"):
        mlp_ref.relu([0.0, bad])
    with pytest.raises(ValueError, match="logits: expected finite"):
        cross_entropy([[0.0, bad]], [0])
    reg = MLP([3, 1])
    with pytest.raises(ValueError, match="y: expected finite"):
        reg.loss_and_grads(X_OK, [1.0, 2.0, bad, 0.0, 1.0])


# ---------------------------------------------------------------- labels
def test_labels_that_are_not_integers(net):
    with pytest.raises(TypeError, match=r"y: expected integer class indices, received dtype float64; cast"):
        net.loss_and_grads(X_OK, Y_OK.astype(float))
    with pytest.raises(TypeError, match="y: expected integer class indices, received dtype float64$"):
        net.loss_and_grads(X_OK, [0.5, 1, 0, 1, 1])
    with pytest.raises(TypeError, match="y: expected integer class indices, received dtype bool"):
        net.loss_and_grads(X_OK, Y_OK.astype(bool))
    with pytest.raises(TypeError, match="y_train: expected integer"):
        fit(net, X_OK, ["a"] * 5, X_OK, Y_OK, epochs=1, batch_size=2, lr=0.1, seed=0)


@pytest.mark.parametrize("labels", [[0, 1, 2, 0, 1], [0, -1, 0, 1, 1]])
def test_labels_out_of_range(net, labels):
    with pytest.raises(ValueError, match=r"y: expected class indices in \[0, 1\], received values from"):
        net.loss_and_grads(X_OK, labels)
    with pytest.raises(ValueError, match=r"y: expected class indices in \[0, 1\]"):
        cross_entropy(np.zeros((5, 2)), labels)


def test_binary_targets_out_of_range():
    with pytest.raises(ValueError, match=r"y: expected targets in \[0, 1\]"):
        binary_cross_entropy_with_logits([0.0, 1.0], [0, 2])
    with pytest.raises(ValueError, match=r"y: expected targets in \[0, 1\] for a sigmoid output"):
        MLP([3, 1], output="sigmoid").loss_and_grads(X_OK, [0, 1, 0, 1, -1])


# ---------------------------------------------------------------- empty batch
def test_empty_batch(net):
    with pytest.raises(ShapeError, match=r"X: expected at least one row, received an empty batch of shape \(0, 3\)"):
        net.forward(np.empty((0, 3)))
    with pytest.raises(ShapeError, match="X_train: expected at least one row"):
        fit(net, np.empty((0, 3)), np.empty(0, int), X_OK, Y_OK, epochs=1, batch_size=2, lr=0.1, seed=0)
    with pytest.raises(ShapeError, match="logits: expected at least one row"):
        cross_entropy(np.empty((0, 2)), np.empty(0, int))
    with pytest.raises(ShapeError, match="pred: expected at least one row"):
        mse(np.empty(0), np.empty(0))


# ---------------------------------------------------------------- layer sizes
@pytest.mark.parametrize("sizes, error, message", [
    ([3, 0, 2], ValueError, r"sizes\[1\]: expected a positive integer width, received 0"),
    ([3, -4, 2], ValueError, r"sizes\[1\]: expected a positive integer width, received -4"),
    ([3, 2.5, 2], TypeError, r"sizes\[1\]: expected a positive integer width, received 2.5"),
    ([3, True, 2], TypeError, r"sizes\[1\]: expected a positive integer width, received True"),
    ([3], ValueError, r"sizes: expected at least 2 widths"),
    ("32", TypeError, r"sizes: expected a sequence"),
])
def test_bad_layer_sizes(sizes, error, message):
    with pytest.raises(error, match=message):
        MLP(sizes)


# ---------------------------------------------------------------- X and y lengths
def test_mismatched_lengths(net):
    with pytest.raises(ShapeError, match=r"y: expected 5 labels \(one per row of X\), received 4"):
        net.loss_and_grads(X_OK, Y_OK[:4])
    with pytest.raises(ShapeError, match=r"y_val: expected 5 labels \(one per row of X_val\), received 3"):
        fit(net, X_OK, Y_OK, X_OK, Y_OK[:3], epochs=1, batch_size=2, lr=0.1, seed=0)
    with pytest.raises(ShapeError, match=r"y_train: expected 5 labels \(one per row of X_train\), received 3"):
        fit(net, X_OK, Y_OK[:3], X_OK, Y_OK, epochs=1, batch_size=2, lr=0.1, seed=0)
    with pytest.raises(ShapeError, match=r"y: expected 5 labels \(one per row of logits\), received 2"):
        cross_entropy(np.zeros((5, 2)), [0, 1])
    with pytest.raises(ShapeError, match=r"y: expected shape \(5, 1\) or \(5,\) .*received shape \(4,\)"):
        MLP([3, 1]).loss_and_grads(X_OK, np.ones(4))


def test_no_silent_broadcasting():
    with pytest.raises(ShapeError, match=r"target: expected shape \(4, 1\) \(the shape of pred\), received shape \(4,\)"):
        mse(np.ones((4, 1)), np.ones(4))
    with pytest.raises(ShapeError, match=r"b \(layer 1\)"):
        MLP.from_arrays([np.ones((3, 2))], [np.ones(1)])
    with pytest.raises(ShapeError, match=r"y: expected shape \(5, 2\)"):
        MLP([3, 2]).loss_and_grads(X_OK, np.ones(5))  # (5,) would broadcast against (5, 2)


# ---------------------------------------------------------------- names
def test_unknown_names():
    with pytest.raises(ValueError, match=r"activation: unknown name 'rellu'; valid names are gelu, gelu_tanh, identity"):
        MLP([2, 2], activation="rellu")
    with pytest.raises(ValueError, match=r"init: unknown name 'kaiming'; valid names are he, he_normal"):
        MLP([2, 2], init="kaiming")
    with pytest.raises(ValueError, match=r"output: unknown name 'relu'; valid names are identity, sigmoid, softmax"):
        MLP([2, 2], output="relu")
    with pytest.raises(ValueError, match="valid names"):
        mlp_ref.get_activation("swish")


def test_output_width_must_suit_the_head():
    with pytest.raises(ValueError, match="'sigmoid' needs one output unit"):
        MLP([2, 3], output="sigmoid")
    with pytest.raises(ValueError, match="'softmax' needs at least 2 output units"):
        MLP([2, 1], output="softmax")


# ---------------------------------------------------------------- the rest of the boundary
@pytest.mark.parametrize("kwargs, message", [
    (dict(epochs=0), "epochs: expected a positive integer, received 0"),
    (dict(epochs=2.0), "epochs: expected a positive integer"),
    (dict(batch_size=0), "batch_size: expected a positive integer"),
    (dict(lr=0.0), "lr: expected a positive finite number, received 0.0"),
    (dict(lr=float("nan")), "lr: expected a positive finite number"),
])
def test_bad_training_settings(net, kwargs, message):
    settings = dict(epochs=1, batch_size=2, lr=0.1, seed=0) | kwargs
    with pytest.raises(ValueError, match=message):
        fit(net, X_OK, Y_OK, X_OK, Y_OK, **settings)


def test_bad_seed_and_dtype(net):
    with pytest.raises(TypeError, match="seed"):
        fit(net, X_OK, Y_OK, X_OK, Y_OK, epochs=1, batch_size=2, lr=0.1, seed=None)
    with pytest.raises(TypeError, match="dtype: expected numpy.float32 or numpy.float64"):
        MLP([2, 2], dtype=np.int64)


def test_bad_gradients_for_sgd_step(net):
    grads = Gradients([np.zeros((3, 4)), np.zeros((4, 3))], [np.zeros(4), np.zeros(2)])
    with pytest.raises(ShapeError, match=r"grads.dW \(layer 2\): expected shape \(4, 2\), received \(4, 3\)"):
        mlp_ref.sgd_step(net, grads, 0.1)


def test_bad_torch_state():
    state = MLP([3, 4, 2]).to_torch_state()
    with pytest.raises(ValueError, match=r"state: expected keys \['0.weight', '0.bias'\].*received keys"):
        MLP.from_torch_state({"0.weight": state["0.weight"], "1.bias": state["0.bias"]})
    state["2.weight"] = state["2.weight"].T.copy()
    with pytest.raises(ShapeError, match=r"layer 2"):
        MLP.from_torch_state(state)


def test_non_numeric_input(net):
    with pytest.raises(TypeError, match="X: expected a numeric array, received dtype <U1"):
        net.forward([["a", "b", "c"]])
    with pytest.raises(TypeError, match="X: expected a numeric array, received dtype bool"):
        net.forward(np.ones((2, 3), bool))
