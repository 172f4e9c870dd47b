"""Activations: hand values from the math module, finite-difference derivatives, stability."""

import math
import warnings

import numpy as np
import pytest

import mlp_ref
from mlp_ref import ACTIVATIONS, central_difference, get_activation

Z = [-2.0, -1.0, 0.0, 1.0, 2.0]


def _sig(z):
    return 1.0 / (1.0 + math.exp(-z))


# Independent scalar formulas (math module), not the vectorised code under test.
REFERENCE = {
    "identity": lambda z: z,
    "relu": lambda z: z if z > 0 else 0.0,
    "leaky_relu": lambda z: z if z > 0 else 0.01 * z,
    "sigmoid": _sig,
    "tanh": math.tanh,
    "gelu": lambda z: 0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0))),
    "gelu_tanh": lambda z: 0.5 * z * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z ** 3))),
    "silu": lambda z: z * _sig(z),
    "softplus": lambda z: math.log(1.0 + math.exp(z)),
}


def test_table_holds_every_elementwise_activation():
    assert set(ACTIVATIONS) == set(REFERENCE)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_values_match_scalar_formulas(name):
    f, _ = get_activation(name)
    got = f(np.array(Z))
    want = [REFERENCE[name](z) for z in Z]
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)


def test_hand_values():
    np.testing.assert_array_equal(mlp_ref.relu(Z), [0, 0, 0, 1, 2])
    assert mlp_ref.sigmoid(0.0) == 0.5
    assert mlp_ref.softplus(0.0) == pytest.approx(math.log(2.0), rel=1e-15)
    np.testing.assert_array_equal(mlp_ref.leaky_relu([-10.0, 3.0], slope=0.2), [-2.0, 3.0])
    # GELU(1) = Phi(1) = 0.8413447460685429 (standard normal table); SiLU(0) = 0.
    assert mlp_ref.gelu(1.0) == pytest.approx(0.8413447460685429, rel=1e-15)
    assert mlp_ref.silu(0.0) == 0.0


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_derivative_matches_central_differences(name):
    f, df = get_activation(name)
    # Avoid z = 0 for the kinked ones: there the derivative is a convention.
    z = np.linspace(-4.0, 4.0, 41) + 0.013
    numeric = central_difference(lambda: f(z).sum(), z)   # elementwise: d sum f(z) / dz_i = f'(z_i)
    analytic = df(z)
    rel = np.abs(analytic - numeric) / np.maximum(1.0, np.abs(numeric))
    assert rel.max() < 1e-6, (name, rel.max())


def test_relu_derivative_at_zero_is_zero():
    assert mlp_ref.relu_grad(np.array([0.0]))[0] == 0.0
    assert mlp_ref.leaky_relu_grad(np.array([0.0]), slope=0.1)[0] == pytest.approx(0.1)


def test_derivative_bounds():
    z = np.linspace(-10, 10, 2001)
    assert mlp_ref.sigmoid_grad(z).max() == pytest.approx(0.25)
    assert mlp_ref.tanh_grad(z).max() == pytest.approx(1.0)


def test_no_overflow_warning_at_extremes():
    z = np.array([-1000.0, 1000.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # exact: exp(-1000) underflows to 0 in every implementation, so each result is a limit
        np.testing.assert_array_equal(mlp_ref.sigmoid(z), [0.0, 1.0])
        np.testing.assert_array_equal(mlp_ref.softplus(z), [0.0, 1000.0])
        np.testing.assert_array_equal(mlp_ref.silu(z), [-0.0, 1000.0])
        np.testing.assert_array_equal(mlp_ref.softmax([[1000.0, -1000.0]]), [[1.0, 0.0]])
        np.testing.assert_array_equal(mlp_ref.log_softmax([[1000.0, -1000.0]]), [[0.0, -2000.0]])
        for name, (f, df) in ACTIVATIONS.items():
            assert np.all(np.isfinite(f(z))) and np.all(np.isfinite(df(z))), name


def test_softmax_hand_values():
    # softmax(0, ln 3) = (1/4, 3/4) by hand.
    np.testing.assert_allclose(mlp_ref.softmax([[0.0, math.log(3.0)]]), [[0.25, 0.75]], rtol=1e-15)
    np.testing.assert_allclose(mlp_ref.log_softmax([[0.0, math.log(3.0)]]),
                               [[math.log(0.25), math.log(0.75)]], rtol=1e-14)


def test_float32_stays_float32():
    z = np.array([-1.0, 0.5], dtype=np.float32)
    for name, (f, df) in ACTIVATIONS.items():
        assert f(z).dtype == np.float32, name
        assert df(z).dtype == np.float32, name


def test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match="valid names are .*relu.*tanh"):
        get_activation("rleu")


# --------------------------------------------------------------------------- PReLU

def test_prelu_hand_values_and_its_starting_slope():
    # He et al. (2015) start every slope at 0.25: prelu(-2) = -0.5, prelu(-1) = -0.25
    assert mlp_ref.PRELU_INIT == 0.25
    assert mlp_ref.prelu(np.array(Z)).tolist() == [-0.5, -0.25, 0.0, 1.0, 2.0]   # exact: quarters
    assert mlp_ref.prelu_grad(np.array(Z)).tolist() == [0.25, 0.25, 0.25, 1.0, 1.0]
    assert mlp_ref.prelu_grad_slope(np.array(Z)).tolist() == [-2.0, -1.0, 0.0, 0.0, 0.0]


def test_prelu_with_a_fixed_slope_is_leaky_relu_and_one_slope_per_unit_broadcasts():
    z = np.random.default_rng(0).normal(size=(6, 3))
    np.testing.assert_allclose(mlp_ref.prelu(z, 0.01), mlp_ref.leaky_relu(z), rtol=0, atol=0)
    a = np.array([0.1, 0.2, 0.3])                                   # (d,) = (3,): one per unit
    for j in range(3):
        np.testing.assert_allclose(mlp_ref.prelu(z, a)[:, j], mlp_ref.leaky_relu(z[:, j], a[j]), rtol=0, atol=0)


def test_prelu_derivatives_match_central_differences():
    z = np.array([-1.7, -0.4, 0.3, 2.2])                             # away from the kink
    a, h = 0.3, 1e-6
    dz = (mlp_ref.prelu(z + h, a) - mlp_ref.prelu(z - h, a)) / (2 * h)
    da = (mlp_ref.prelu(z, a + h) - mlp_ref.prelu(z, a - h)) / (2 * h)
    np.testing.assert_allclose(mlp_ref.prelu_grad(z, a), dz, rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(mlp_ref.prelu_grad_slope(z), da, rtol=1e-7, atol=1e-8)


def test_prelu_never_prints_negative_zero():
    assert not np.signbit(mlp_ref.prelu(np.array([0.0, -0.0]), -0.5)).any()
    assert not np.signbit(mlp_ref.prelu_grad_slope(np.array([-0.0]))).any()


@pytest.mark.parametrize("a, error, message", [
    (np.ones(4), mlp_ref.ShapeError, "a: expected a scalar or shape (3,), one slope per unit of the last axis of z of shape (2, 3), received shape (4,)"),
    (np.ones((2, 3)), mlp_ref.ShapeError, "received shape (2, 3)"),
    (float("nan"), ValueError, "a: expected finite values"),
    ("0.25", TypeError, "a: expected a numeric array"),
])
def test_prelu_bad_slope_is_named(a, error, message):
    with pytest.raises(error) as caught:
        mlp_ref.prelu(np.ones((2, 3)), a)
    assert message in str(caught.value)
