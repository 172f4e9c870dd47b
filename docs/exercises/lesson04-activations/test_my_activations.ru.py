"""Тесты к упражнению урока 4. Запуск:  pytest -ra test_my_activations.py

Ожидаемые значения дают модуль ``math`` из Python (независимая формула), разностное
отношение или ``mlp_ref``, если он установлен (без него сравнение пропускается, и -ra
печатает почему).
"""

import ast
import importlib
import inspect
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from my_activations import sigmoid, sigmoid_grad, silu, silu_grad


# ----------------------------------------------------------------------------- что осталось написать
# Функцию, тело которой всё ещё заготовка `raise NotImplementedError(...)`, один раз называет
# первый тест ниже, а тесты, которые её вызывают, пропускаются, пока вы её не напишете (вместо того
# чтобы каждый падал с той же ошибкой). Этот блок есть в тестах каждого упражнения.

MODULE = Path(__file__).stem.removeprefix("test_")


def left_to_write() -> dict:
    """Имя -> строка `raise` каждой функции проверяемого модуля, которая только выбрасывает NotImplementedError."""
    left = {}
    for node in ast.parse(inspect.getsource(importlib.import_module(MODULE))).body:
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0]):
                left[node.name] = ast.unparse(body[0])
    return left


LEFT_TO_WRITE = left_to_write()


def names_used(test) -> set:
    """Глобальные имена, которые читает тест: сам или через вызываемые им вспомогательные функции этого файла."""
    names, todo, done = set(), [test], set()
    while todo:
        codes = [todo.pop().__code__]
        while codes:
            code = codes.pop()
            names |= set(code.co_names)
            codes += [c for c in code.co_consts if inspect.iscode(c)]
        for name in names - done:
            done.add(name)
            helper = globals().get(name)
            if inspect.isfunction(helper) and helper.__module__ == __name__:
                todo.append(helper)
    return names


def test_every_function_is_written():
    if LEFT_TO_WRITE:
        pytest.fail(f"{MODULE}.py — функций с заготовкой вместо тела: {len(LEFT_TO_WRITE)}; это "
                    + "; ".join(f"{name} ({line})" for name, line in LEFT_TO_WRITE.items())
                    + ". Тесты, которые их вызывают, пропускаются, пока вы их не напишете; потом запустите тесты снова.",
                    pytrace=False)


@pytest.fixture(autouse=True)
def skip_until_written(request):
    # функция, переданная тесту параметром (@pytest.mark.parametrize), тоже считается
    given = getattr(request.node, "callspec", None)
    passed = {getattr(value, "__name__", "") for value in (given.params.values() if given else ())}
    left = sorted(set(LEFT_TO_WRITE) & (names_used(request.function) | passed))
    if left:
        pytest.skip(f"ещё не написано: {', '.join(left)} (см. test_every_function_is_written)")

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
