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


# Each initializer's scale for d_in = 300, d_out = 100, worked out by hand and typed as a literal, so
# that a changed formula in mlp_ref.initialization (say fan_in + fan_out -> fan_in, or He's 2 -> 1)
# fails here even where torch is not installed. Not computed with the module's own arithmetic.
D_IN, D_OUT = 300, 100
# (initializer, keyword arguments, "uniform": the bound a of U(-a, a) / "normal": the std)
HAND_SCALES = [
    # Xavier uniform: a = sqrt(6 / (300 + 100)) = sqrt(0.015) = 0.12247448713915890
    ("xavier_uniform", {}, "uniform", 0.12247448713915890),
    # with tanh's gain 5/3: a = 5/3 * 0.12247448713915890 = 0.20412414523193151
    ("xavier_uniform", {"gain": 5 / 3}, "uniform", 0.20412414523193151),
    # Xavier normal: std = sqrt(2 / (300 + 100)) = sqrt(0.005) = 0.07071067811865475
    ("xavier_normal", {}, "normal", 0.07071067811865475),
    # He uniform: a = sqrt(2) * sqrt(3 / 300) = sqrt(6 / 300) = sqrt(0.02) = 0.14142135623730950
    ("he_uniform", {}, "uniform", 0.14142135623730950),
    # with gain 1: a = sqrt(3 / 300) = sqrt(0.01) = 0.1
    ("he_uniform", {"gain": 1.0}, "uniform", 0.1),
    # He normal: std = sqrt(2) / sqrt(300) = sqrt(2 / 300) = 0.08164965809277261
    ("he_normal", {}, "normal", 0.08164965809277261),
    # with gain 1: std = 1 / sqrt(300) = 0.05773502691896258
    ("he_normal", {"gain": 1.0}, "normal", 0.05773502691896258),
]
SEEDS = range(40)  # 40 draws of 300 x 100 = 1.2 million weights per initializer


def _draws(name, kwargs):
    """All the weights of 40 seeded draws, flattened: shape (40 * D_IN * D_OUT,)."""
    return np.concatenate([get_initializer(name)(D_IN, D_OUT, seed, **kwargs).ravel() for seed in SEEDS])


def _std_tolerance(kind, n):
    """Four standard errors of a sample std, relative: 1 / sqrt(2n) for a normal sample and
    sqrt(0.8 / n) / 2 for a uniform one (kurtosis 1.8); about 0.26 % and 0.16 % for n = 1.2 million."""
    return 4 * (1 / math.sqrt(2 * n) if kind == "normal" else math.sqrt(0.8 / n) / 2)


@pytest.mark.parametrize("name, kwargs, kind, scale", HAND_SCALES)
def test_scale_equals_the_value_worked_out_by_hand(name, kwargs, kind, scale):
    w = _draws(name, kwargs)
    where = f"mlp_ref.{name}({D_IN}, {D_OUT}, seed, **{kwargs})"
    top, std = float(np.abs(w).max()), float(w.std())
    if kind == "uniform":
        # 1.2 million draws from U(-a, a): P(max |w| < 0.9999 a) = 0.9999^1.2e6 ~ e^-120
        assert 0.9999 * scale < top <= scale, f"{where}: expected max |w| just under the bound {scale!r}, found {top!r}"
        expected_std = scale / math.sqrt(3)  # a uniform on [-a, a] has variance a^2 / 3
    else:
        # a normal sample this size reaches past 4.5 std (a uniform one stops at sqrt(3) std, a
        # normal truncated at 2 std, as torch's trunc_normal_ defaults to, at 2 std)
        assert top > 4.5 * scale, f"{where}: expected max |w| beyond 4.5 std = {4.5 * scale!r} (a normal), found {top!r}"
        expected_std = scale
    tol = _std_tolerance(kind, w.size)
    assert std == pytest.approx(expected_std, rel=tol), \
        f"{where}: expected a std of {expected_std!r} (within {tol:.2%}), found {std!r}"


# torch.nn.init's function and arguments for each of our initializers (its weights are (d_out, d_in))
TORCH_INITS = {
    "xavier_uniform": ("xavier_uniform_", {}),
    "xavier_normal": ("xavier_normal_", {}),
    "he_uniform": ("kaiming_uniform_", {"nonlinearity": "relu"}),
    "he_normal": ("kaiming_normal_", {"nonlinearity": "relu"}),
}


@pytest.mark.parametrize("name", sorted(TORCH_INITS))
def test_scale_matches_torch_nn_init_if_available(name):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed; skipping torch.nn.init parity")
    function, kwargs = TORCH_INITS[name]
    torch.manual_seed(0)
    theirs = np.concatenate([getattr(torch.nn.init, function)(torch.empty(D_OUT, D_IN, dtype=torch.float64),
                                                              **kwargs).numpy().ravel() for _ in SEEDS])
    ours = _draws(name, {})
    where = f"mlp_ref.{name} against torch.nn.init.{function}, ({D_IN}, {D_OUT})"
    kind = "uniform" if name.endswith("uniform") else "normal"
    if kind == "uniform":  # each max is within 0.01 % under its bound (see above)
        assert np.abs(theirs).max() == pytest.approx(np.abs(ours).max(), rel=2e-4), \
            f"{where}: expected the same bound, found max |w| {np.abs(ours).max()!r} and {np.abs(theirs).max()!r}"
    tol = math.sqrt(2) * _std_tolerance(kind, ours.size)  # the difference of two sample stds
    assert ours.std() == pytest.approx(theirs.std(), rel=tol), \
        f"{where}: expected the same std within {tol:.2%}, found {ours.std()!r} and {theirs.std()!r}"
