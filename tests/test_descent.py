"""mlp_ref.descent: the one-weight loss of lesson 5 and gradient descent on it.

Expected values are worked out by hand from the page's three points x = (1, 2, 3),
y = (2, 3, 7): sum x^2 = 14, sum x y = 2 + 6 + 21 = 29, sum y^2 = 62.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mlp_ref

LINE = mlp_ref.LineFit.of([1.0, 2.0, 3.0], [2.0, 3.0, 7.0])


def test_loss_derivatives_and_minimum_by_hand():
    assert math.isclose(float(LINE.loss(0.0)), 62 / 3, rel_tol=1e-12)          # mean y^2
    assert math.isclose(float(LINE.grad(0.0)), -2 * 29 / 3, rel_tol=1e-12)     # -2 mean x y
    assert math.isclose(LINE.curvature, 2 * 14 / 3, rel_tol=1e-12)             # 2 mean x^2
    assert math.isclose(LINE.best, 29 / 14, rel_tol=1e-12)
    assert math.isclose(LINE.critical_lr, 3 / 14, rel_tol=1e-12)
    assert abs(float(LINE.grad(LINE.best))) < 1e-12


def test_grad_is_the_derivative_of_loss():
    w = np.array([-1.5, 0.3, 4.0])
    numeric = mlp_ref.central_difference(lambda: float(LINE.loss(w).sum()), w)
    np.testing.assert_allclose(LINE.grad(w), numeric, rtol=1e-7)


def test_loss_and_grad_take_arrays_of_w():
    w = np.linspace(-2, 5, 7).reshape(7, 1)
    assert LINE.loss(w).shape == (7, 1) and LINE.grad(w).shape == (7, 1)


@pytest.mark.parametrize("lr", [0.02, 0.08, 0.15, 0.25, 0.3])
def test_each_step_multiplies_the_distance_by_one_minus_lr_curvature(lr):
    path = mlp_ref.descend(LINE.grad, 0.0, lr, steps=6)
    assert path.shape == (7,) and path[0] == 0.0
    distance = path - LINE.best
    np.testing.assert_allclose(distance[1:], (1 - lr * LINE.curvature) * distance[:-1], rtol=1e-9)
    shrinks = abs(distance[-1]) < abs(distance[0])
    assert shrinks == (lr < LINE.critical_lr)


def test_zero_steps_returns_the_start():
    np.testing.assert_array_equal(mlp_ref.descend(LINE.grad, 1.25, 0.1, 0), [1.25])


@pytest.mark.parametrize("x, y, match", [
    ([1.0, 2.0], [1.0], "same positive length"),
    ([], [], "x: expected at least one"),
    ([0.0, 0.0], [1.0, 2.0], "nonzero"),
    ([[1.0, 2.0]], [[1.0, 2.0]], "x"),
    ([1.0, np.nan], [1.0, 2.0], "x"),
])
def test_bad_points_are_refused(x, y, match):
    with pytest.raises(ValueError, match=match):
        mlp_ref.LineFit.of(x, y)


@pytest.mark.parametrize("kwargs, match", [
    (dict(lr=0.0), "lr"), (dict(lr=-0.1), "lr"), (dict(steps=-1), "steps"), (dict(w0=float("inf")), "w0"),
])
def test_bad_settings_are_refused(kwargs, match):
    settings = dict(w0=0.0, lr=0.1, steps=3) | kwargs
    with pytest.raises((ValueError, TypeError), match=match):
        mlp_ref.descend(LINE.grad, **settings)
