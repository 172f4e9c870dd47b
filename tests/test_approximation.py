"""Tests of mlp_ref.approximation: ReLU interpolation, the tent map and piece counting."""

import math

import numpy as np
import pytest

from mlp_ref.approximation import (
    ReLUNetwork, count_linear_pieces, max_error, relu_interpolant, sawtooth, tent, tent_network,
)
from mlp_ref.course.trace import trace


def square(x):
    return x * x


def test_interpolant_shapes():
    net = relu_interpolant(np.sin, 0.0, math.pi, 8)
    assert [W.shape for W in net.weights] == [(1, 8), (8, 1)]
    assert [b.shape for b in net.biases] == [(8,), (1,)]


def test_interpolant_hits_dyadic_knots_exactly():
    # Knots 0, 1/4, ..., 1 and their squares are exact in binary, so no rounding at all.
    net = relu_interpolant(square, 0.0, 1.0, 4)
    knots = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    assert np.array_equal(net(knots), knots**2)
    # Between knots: linear interpolation, e.g. x = 0.125 halfway between 0 and 1/4 -> 1/32
    assert net(np.array([0.125]))[0] == 1 / 32


@pytest.mark.parametrize("k", [1, 2, 5, 16, 32])
def test_interpolant_hits_knots_of_sin(k):
    net = relu_interpolant(np.sin, 0.0, math.pi, k)
    knots = np.linspace(0.0, math.pi, k + 1)
    np.testing.assert_allclose(net(knots), np.sin(knots), rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [2, 4, 8, 16, 32])
def test_max_error_of_sin_within_classical_bounds(k):
    h = math.pi / k
    err = max_error(np.sin, relu_interpolant(np.sin, 0.0, math.pi, k), 0.0, math.pi, n=20_001)
    # Upper: linear interpolation error <= h^2/8 * max|f''| = h^2/8.
    assert err <= h * h / 8 + 1e-12
    # Lower: at the midpoint c of the cell next to pi/2 the error is sin(c)(1 - cos(h/2)).
    c = math.pi / 2 - h / 2
    # The grid misses the exact maximiser by at most half a spacing (pi / 40000), which lowers
    # the error by at most about (spacing / 2)^2 / 2 ~ 3e-9 (the error's curvature is <= 1).
    assert err >= math.sin(c) * (1 - math.cos(h / 2)) - 1e-8


def test_max_error_is_zero_for_a_linear_function():
    assert max_error(lambda x: 3 * x - 1, relu_interpolant(lambda x: 3 * x - 1, -2, 5, 3), -2, 5) < 1e-13


def test_tent_values():
    # dyadic inputs: tent's products and sums are exact, on any CPU
    x = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_array_equal(tent(x), [0.0, 0.5, 1.0, 0.5, 0.0])


def _triangle_wave(x, L):
    # Independent closed form: 2^(L-1) teeth of height 1 on [0, 1].
    frac = np.mod(x * 2.0 ** (L - 1), 1.0)
    return 1.0 - np.abs(2.0 * frac - 1.0)


@pytest.mark.parametrize("L", range(1, 9))
def test_sawtooth_and_network_match_closed_form(L):
    x = np.linspace(0.0, 1.0, 1001)
    np.testing.assert_allclose(sawtooth(x, L), _triangle_wave(x, L), atol=1e-9)
    np.testing.assert_allclose(tent_network(L)(x), sawtooth(x, L), atol=1e-9)


@pytest.mark.parametrize("L", range(1, 9))
def test_tent_power_has_2_to_the_L_pieces(L):
    assert count_linear_pieces(tent_network(L), 0.0, 1.0) == 2**L
    assert count_linear_pieces(lambda x: sawtooth(x, L), 0.0, 1.0, n=2**12) == 2**L


def test_tent_network_size():
    net = tent_network(3)
    assert [W.shape for W in net.weights] == [(1, 2), (2, 2), (2, 2), (2, 1)]
    assert sum(W.size + b.size for W, b in zip(net.weights, net.biases)) == 6 * 3 + 1


@pytest.mark.parametrize("k", [1, 3, 8])
def test_interpolant_of_concave_function_has_k_pieces(k):
    net = relu_interpolant(np.sin, 0.0, math.pi, k)
    assert count_linear_pieces(net, 0.0, math.pi) == k


def test_exact_count_merges_equal_slopes_and_ignores_output_zero_crossings():
    # relu(x) + relu(x - 1) - relu(x - 1) - 0.5: one kink (at 0); the output crosses zero at 0.5
    net = ReLUNetwork([np.array([[1.0, 1.0, 1.0]]), np.array([[1.0], [1.0], [-1.0]])],
                      [np.array([0.0, -1.0, -1.0]), np.array([-0.5])])
    assert count_linear_pieces(net, -2.0, 2.0) == 2
    # An affine network whose output crosses zero (2 (x + 5) - 10 = 2x, at x = 0) is one piece.
    line = ReLUNetwork([np.array([[1.0]]), np.array([[2.0]])], [np.array([5.0]), np.array([-10.0])])
    assert count_linear_pieces(line, -1.0, 1.0) == 1


def test_grid_count_overcounts_off_grid_kink_but_exact_count_does_not():
    kink = ReLUNetwork([np.array([[1.0]]), np.array([[1.0]])], [np.array([-1 / 3]), np.array([0.0])])
    assert count_linear_pieces(kink, 0.0, 1.0) == 2
    # On the grid 0, 1/8, ..., 1 the kink at 1/3 lies inside [1/4, 3/8]: slopes 0, 0, 1/3, 1, ...
    assert count_linear_pieces(lambda x: kink(x), 0.0, 1.0, n=8) == 2 + 1  # documented grid artefact
    assert count_linear_pieces(lambda x: kink(x), 0.0, 1.0, n=9) == 2  # 1/3 = 3/9 is a grid point


def test_trace_accepts_relu_network():
    t = trace(tent_network(2), [[0.25]])  # dyadic values throughout: exact in any summation order
    # By hand: h1 = (0.25, 0); t = 0.5; h2 = (0.5, 0); out = 2*0.5 = 1.0
    np.testing.assert_array_equal(t["a1"].value, [[0.25, 0.0]])
    np.testing.assert_array_equal(t["a2"].value, [[0.5, 0.0]])
    np.testing.assert_array_equal(t["a3"].value, [[1.0]])


@pytest.mark.parametrize("call, exc, match", [
    (lambda: relu_interpolant(np.sin, 1.0, 0.0, 4), ValueError, "a < b"),
    (lambda: relu_interpolant(np.sin, 0.0, 1.0, 0), ValueError, "k: expected a positive integer, received 0"),
    (lambda: relu_interpolant(lambda x: 1.0, 0.0, 1.0, 4), ValueError, "f: expected outputs of shape"),
    (lambda: relu_interpolant(np.log, 0.0, 1.0, 4), ValueError, "NaN or inf"),
    (lambda: sawtooth([0.5], 0), ValueError, "L: expected"),
    (lambda: tent_network(1.5), ValueError, "L: expected"),
    (lambda: max_error(np.sin, np.sin, 0.0, 1.0, n=1), ValueError, "n: expected"),
    (lambda: tent([np.nan]), ValueError, "x: expected finite"),
])
def test_bad_arguments(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("seed", range(5))
def test_exact_pieces_agree_with_forward_pass_of_random_networks(seed):
    from mlp_ref.approximation import network_pieces

    rng = np.random.default_rng(seed)
    sizes = [1, 6, 5, 1]
    net = ReLUNetwork([rng.normal(size=(i, o)) for i, o in zip(sizes[:-1], sizes[1:])],
                      [rng.normal(size=o) for o in sizes[1:]])
    pieces = network_pieces(net, -3.0, 3.0)
    assert pieces[0][0] == -3.0 and pieces[-1][1] == 3.0
    assert all(p[1] == q[0] for p, q in zip(pieces[:-1], pieces[1:]))  # contiguous
    for lo, hi, slope in pieces:
        x = np.linspace(lo, hi, 5)
        y = net(x)
        # The forward pass is affine on the piece, with the reported slope.
        np.testing.assert_allclose(np.diff(y) / np.diff(x), slope, rtol=1e-7, atol=1e-9)
    # A dense grid can only see at least as many slope changes as there really are.
    assert count_linear_pieces(net, -3.0, 3.0) <= count_linear_pieces(lambda x: net(x), -3.0, 3.0, n=60_000)


@pytest.mark.parametrize("net, a, b, exc, match", [
    ("not a network", 0.0, 1.0, TypeError, "net: expected a ReLUNetwork, received str"),
    (ReLUNetwork([np.ones((2, 3)), np.ones((3, 1))], [np.zeros(3), np.zeros(1)]), 0.0, 1.0, ValueError,
     "net: expected a network with one input and one output, received 2 inputs and 1 outputs"),
    (ReLUNetwork([np.ones((1, 3)), np.ones((3, 1))], [np.zeros(3), np.zeros(1)]), 1.0, 0.0, ValueError,
     "expected a < b"),
])
def test_network_pieces_rejects_bad_arguments(net, a, b, exc, match):
    from mlp_ref.approximation import network_pieces

    with pytest.raises(exc, match=match):
        network_pieces(net, a, b)
