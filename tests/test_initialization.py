"""Initializers: shapes, seeds, variances from their defining formulas, gains as PyTorch documents."""

import math

import numpy as np
import pytest

import mlp_ref
from mlp_ref import INITIALIZERS, get_initializer, kaiming_gain


@pytest.mark.parametrize("name", sorted(INITIALIZERS))
def test_shape_dtype_and_seed(name):
    init = get_initializer(name)
    W = init(7, 3, 0)
    assert W.shape == (7, 3) and W.dtype == np.float64
    assert init(7, 3, 0, dtype=np.float32).dtype == np.float32
    np.testing.assert_array_equal(W, init(7, 3, np.random.default_rng(0)))  # same draws, same scaling: exact
    if name != "zeros":
        assert not np.array_equal(W, init(7, 3, 1))


# (initializer, expected variance from the definition for d_in=400, d_out=100)
VARIANCES = [
    (mlp_ref.he_normal, 2 / 400),
    (mlp_ref.he_uniform, 2 / 400),
    (mlp_ref.xavier_normal, 2 / 500),
    (mlp_ref.xavier_uniform, 2 / 500),
]


@pytest.mark.parametrize("init, variance", VARIANCES)
def test_variance_matches_definition(init, variance):
    W = init(400, 100, 0)  # 40,000 draws: the sample variance is within ~2% (about 3 sigma)
    assert W.var() == pytest.approx(variance, rel=0.03)
    assert abs(W.mean()) < 4 * math.sqrt(variance / W.size)


def test_uniform_bounds():
    assert np.abs(mlp_ref.he_uniform(50, 20, 0)).max() <= math.sqrt(6 / 50)
    assert np.abs(mlp_ref.xavier_uniform(50, 20, 0)).max() <= math.sqrt(6 / 70)
    assert np.abs(mlp_ref.xavier_uniform(50, 20, 0, gain=3.0)).max() <= 3 * math.sqrt(6 / 70)
    assert np.abs(mlp_ref.xavier_uniform(50, 20, 0, gain=3.0)).max() > math.sqrt(6 / 70)


def test_gain_scales_the_standard_deviation():
    a = mlp_ref.xavier_normal(30, 30, 0)
    np.testing.assert_allclose(mlp_ref.xavier_normal(30, 30, 0, gain=5 / 3), 5 / 3 * a, rtol=1e-15)
    # He with gain 1 and Xavier for a square matrix both have std 1 / sqrt(30): same draws
    np.testing.assert_allclose(mlp_ref.he_normal(30, 30, 0, gain=1.0), a, rtol=1e-14)


def test_zeros():
    assert not np.any(mlp_ref.zeros(3, 4))


def test_kaiming_gains_as_in_pytorch_docs():
    # torch.nn.init.calculate_gain documents: linear 1, sigmoid 1, tanh 5/3, relu sqrt(2),
    # leaky_relu sqrt(2 / (1 + negative_slope^2)), selu 3/4
    assert kaiming_gain("linear") == 1.0
    assert kaiming_gain("identity") == 1.0
    assert kaiming_gain("sigmoid") == 1.0
    assert kaiming_gain("tanh") == pytest.approx(5 / 3, rel=1e-15)
    assert kaiming_gain("relu") == pytest.approx(math.sqrt(2), rel=1e-15)
    assert kaiming_gain("leaky_relu") == pytest.approx(math.sqrt(2 / (1 + 0.01 ** 2)), rel=1e-15)
    assert kaiming_gain("leaky_relu", slope=0.2) == pytest.approx(math.sqrt(2 / 1.04), rel=1e-15)
    assert kaiming_gain("selu") == 0.75


def test_kaiming_gains_match_torch_if_available():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed; skipping calculate_gain parity")
    for name in ["linear", "sigmoid", "tanh", "relu", "selu"]:
        assert kaiming_gain(name) == pytest.approx(torch.nn.init.calculate_gain(name), rel=1e-12)
    assert kaiming_gain("leaky_relu", 0.3) == pytest.approx(torch.nn.init.calculate_gain("leaky_relu", 0.3), rel=1e-12)


def test_relu_halves_the_second_moment():
    # For symmetric zero-mean z, E[ReLU(z)^2] = E[z^2] / 2: why He uses 2 / d_in.
    z = np.random.default_rng(0).standard_normal(200_000)
    assert np.mean(mlp_ref.relu(z) ** 2) == pytest.approx(np.mean(z ** 2) / 2, rel=0.02)


def test_he_keeps_relu_activations_from_vanishing():
    X = np.random.default_rng(1).standard_normal((500, 256))
    a = X
    for layer in range(10):
        a = mlp_ref.relu(a @ mlp_ref.he_normal(256, 256, layer))
    # second moment stays O(1) (it would shrink by 2 per layer with variance 1 / d_in)
    assert 0.3 < np.mean(a ** 2) < 3.0


def test_unknown_names_list_the_valid_ones():
    with pytest.raises(ValueError, match="valid names are .*he.*xavier_uniform.*zeros"):
        get_initializer("glorot")
    with pytest.raises(ValueError, match="valid names are .*relu.*tanh"):
        kaiming_gain("swish")
    with pytest.raises(ValueError, match="valid names are"):
        mlp_ref.MLP([2, 2], init="kaiming")


def test_bad_sizes_and_gain():
    with pytest.raises(ValueError, match="positive integer"):
        mlp_ref.he_normal(0, 3, 0)
    with pytest.raises(TypeError, match="positive integer"):
        mlp_ref.he_normal(2.5, 3, 0)
    with pytest.raises(ValueError, match="gain"):
        mlp_ref.xavier_normal(2, 3, 0, gain=-1.0)
    with pytest.raises(TypeError, match="seed"):
        mlp_ref.he_normal(2, 3, None)
