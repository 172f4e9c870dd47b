"""Тесты к упражнению урока 4. Запуск:  pytest -ra test_my_activations.py

Ожидаемые значения дают модуль ``math`` из Python (независимая формула), разностное
отношение или ``mlp_ref``, если он установлен (без него сравнение пропускается, и -ra
печатает почему).
"""

import math
import warnings

import numpy as np
import pytest

from my_activations import sigmoid, sigmoid_grad, silu, silu_grad

POINTS = [-6.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 6.0]


def mlp_ref_or_skip():
    """Эталонный пакет курса или пропуск теста с причиной (её печатает pytest -ra), где сказано, как его получить."""
    return pytest.importorskip("mlp_ref", reason="установите mlp_ref: см. «Прежде чем начать» на странице урока, "
                                                 "затем запустите тесты снова, чтобы сравнить с ним")


def by_hand_sigmoid(t):
    return 1.0 / (1.0 + math.exp(-t))          # для этих умеренных точек годится


@pytest.mark.parametrize("t", POINTS)
def test_values_by_hand(t):
    s = by_hand_sigmoid(t)
    assert float(sigmoid(t)) == pytest.approx(s, rel=1e-12)
    assert float(sigmoid_grad(t)) == pytest.approx(s * (1 - s), rel=1e-12)
    assert float(silu(t)) == pytest.approx(t * s, rel=1e-12, abs=1e-15)


def test_known_points():
    assert float(sigmoid(0.0)) == 0.5
    assert float(sigmoid_grad(0.0)) == 0.25     # наибольшее значение производной
    assert float(silu(0.0)) == 0.0
    assert float(silu_grad(0.0)) == 0.5


@pytest.mark.parametrize("f, f_prime", [(sigmoid, sigmoid_grad), (silu, silu_grad)],
                         ids=["sigmoid", "silu"])
def test_derivative_matches_a_difference_quotient(f, f_prime):
    z = np.linspace(-5.0, 5.0, 201)
    h = 1e-6
    numeric = (f(z + h) - f(z - h)) / (2 * h)
    np.testing.assert_allclose(f_prime(z), numeric, atol=1e-8)


@pytest.mark.parametrize("fn", [sigmoid, sigmoid_grad, silu, silu_grad])
def test_shape_is_kept(fn):
    z = np.arange(12.0).reshape(3, 4) - 6.0     # батч (B, d) = (3, 4)
    out = fn(z)
    assert isinstance(out, np.ndarray) and out.shape == (3, 4)


def test_no_overflow_for_huge_inputs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # предупреждение о переполнении проваливает тест
        out = sigmoid(np.array([-1000.0, 1000.0]))
        assert out[0] == 0.0 and out[1] == 1.0
        assert np.all(np.isfinite(silu(np.array([-1000.0, 1000.0]))))
        assert np.all(np.isfinite(silu_grad(np.array([-1000.0, 1000.0]))))


def test_silu_minimum():
    # silu'(z) меняет знак между -2 и -1, там у silu минимум
    assert float(silu_grad(-2.0)) < 0 < float(silu_grad(-1.0))
    z = np.linspace(-3.0, 0.0, 30001)
    z_min = z[np.argmin(silu(z))]
    # silu'(z) = 0 — то же уравнение, что z + 1 + exp(z) = 0 (урок 4, «Формальное описание»)
    assert abs(z_min + 1 + math.exp(z_min)) < 1e-3


def test_matches_mlp_ref():
    mlp_ref = mlp_ref_or_skip()
    z = np.linspace(-30.0, 30.0, 601)
    np.testing.assert_allclose(sigmoid(z), mlp_ref.sigmoid(z), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(silu(z), mlp_ref.silu(z), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(silu_grad(z), mlp_ref.silu_grad(z), rtol=1e-12, atol=1e-15)
