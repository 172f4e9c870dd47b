"""Тесты к упражнению урока 6. Запуск:  pytest -ra test_params.py

Ожидаемые значения посчитаны вручную в каждом тесте или взяты из независимого источника —
массивов ``mlp_ref.MLP`` (если ``mlp_ref`` установлен; без него эти тесты пропускаются, и
-ra печатает почему).
"""

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from params import count_params, ffn_params, layer_params, swiglu_params


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


def mlp_ref_or_skip():
    """Эталонный пакет курса или пропуск теста с причиной (её печатает pytest -ra), где сказано, как его получить."""
    return pytest.importorskip("mlp_ref", reason="установите mlp_ref: см. «Прежде чем начать» на странице урока, "
                                                 "затем запустите тесты снова, чтобы сравнить с ним")


def test_xor_network_by_hand():
    # [2, 2, 1]: W1 (2, 2) + b1 (2,), затем W2 (2, 1) + b2 (1,)
    assert layer_params([2, 2, 1]) == [2 * 2 + 2, 2 * 1 + 1]
    assert count_params([2, 2, 1]) == 9


def test_mnist_network_by_hand():
    # [784, 128, 64, 10], по одному слою
    expected = [784 * 128 + 128, 128 * 64 + 64, 64 * 10 + 10]
    assert layer_params([784, 128, 64, 10]) == expected
    assert count_params([784, 128, 64, 10]) == sum(expected)


def test_single_layer_and_order_matters():
    assert count_params([100, 50]) == 100 * 50 + 50
    # смещения идут по ширине выхода, поэтому обратный порядок ширин меняет число
    assert count_params([50, 100]) == 50 * 100 + 100


def test_counts_are_exact_integers_for_big_layers():
    total = count_params([7168, 18432, 7168])
    assert isinstance(total, int)
    assert total == 2 * 7168 * 18432 + 18432 + 7168


@pytest.mark.parametrize("sizes", [[64, 32, 16, 10], [3, 7, 5, 2, 9], [1, 1]])
def test_matches_the_arrays_of_a_network(sizes):
    mlp_ref = mlp_ref_or_skip()
    net = mlp_ref.MLP(sizes, seed=0)
    from_arrays = [W.size + b.size for W, b in zip(net.weights, net.biases)]
    assert layer_params(sizes) == from_arrays
    assert count_params(sizes) == sum(from_arrays)


@pytest.mark.parametrize("bad", [[784], [], [784, 0, 10], [784, -5, 10], [784, 12.5, 10]])
def test_bad_sizes_raise_value_error(bad):
    with pytest.raises(ValueError):
        count_params(bad)
    with pytest.raises(ValueError):
        layer_params(bad)


def test_ffn_is_eight_d_squared_without_biases():
    for d in (4, 512, 768):
        assert ffn_params(d, 4 * d, bias=False) == 8 * d * d


def test_ffn_biases():
    # GPT-2 small: W1 (768, 3072), b1 (3072,), W2 (3072, 768), b2 (768,)
    assert ffn_params(768, 3072) == 768 * 3072 + 3072 + 3072 * 768 + 768
    assert ffn_params(768, 3072, bias=True) - ffn_params(768, 3072, bias=False) == 3072 + 768


def test_swiglu_three_matrices():
    assert swiglu_params(1024, 3072) == 1024 * 3072 + 1024 * 3072 + 3072 * 1024
    # h = 8d/3 даёт те же 8 d^2, что и классический FFN, когда 8d/3 — целое число
    assert swiglu_params(768, 2048) == ffn_params(768, 3072, bias=False)


def test_ffn_bad_widths_raise_value_error():
    with pytest.raises(ValueError):
        ffn_params(0, 10)
    with pytest.raises(ValueError):
        swiglu_params(10, -1)
