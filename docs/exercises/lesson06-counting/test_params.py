"""Tests for the lesson 6 exercise. Run them with:  pytest -ra test_params.py

The expected values are worked out by hand in each test, or taken from an independent
source: the arrays of an ``mlp_ref.MLP`` (if ``mlp_ref`` is installed; without it those
tests are skipped, and -ra prints why).
"""

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from params import count_params, ffn_params, layer_params, swiglu_params


# ----------------------------------------------------------------------------- what is left to write
# A function whose body is still the starter's `raise NotImplementedError(...)` is named once, by
# the first test below, and the tests that call it are skipped until you write it (rather than
# failing one by one with the same error). Every exercise's tests have this block.

MODULE = Path(__file__).stem.removeprefix("test_")


def left_to_write() -> dict:
    """Name -> the `raise` line of each function of the module under test that only raises NotImplementedError."""
    left = {}
    for node in ast.parse(inspect.getsource(importlib.import_module(MODULE))).body:
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0]):
                left[node.name] = ast.unparse(body[0])
    return left


LEFT_TO_WRITE = left_to_write()


def names_used(test) -> set:
    """The global names a test reads, itself or through the helpers of this file that it calls."""
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
        pytest.fail(f"{MODULE}.py: {len(LEFT_TO_WRITE)} function(s) still have the starter's body: "
                    + "; ".join(f"{name} ({line})" for name, line in LEFT_TO_WRITE.items())
                    + ". The tests that call them are skipped until you write them; then run the tests again.",
                    pytrace=False)


@pytest.fixture(autouse=True)
def skip_until_written(request):
    # a function passed as a parameter of the test counts too (@pytest.mark.parametrize)
    given = getattr(request.node, "callspec", None)
    passed = {getattr(value, "__name__", "") for value in (given.params.values() if given else ())}
    left = sorted(set(LEFT_TO_WRITE) & (names_used(request.function) | passed))
    if left:
        pytest.skip(f"not written yet: {', '.join(left)} (see test_every_function_is_written)")


def mlp_ref_or_skip():
    """The course's reference package, or a skip whose reason (shown by pytest -ra) says how to get it."""
    return pytest.importorskip("mlp_ref", reason="install mlp_ref: see 'Before you start' on the lesson page, "
                                                 "then run these tests again to compare with it")


def test_xor_network_by_hand():
    # [2, 2, 1]: W1 (2, 2) + b1 (2,), then W2 (2, 1) + b2 (1,)
    assert layer_params([2, 2, 1]) == [2 * 2 + 2, 2 * 1 + 1]
    assert count_params([2, 2, 1]) == 9


def test_mnist_network_by_hand():
    # [784, 128, 64, 10], one layer at a time
    expected = [784 * 128 + 128, 128 * 64 + 64, 64 * 10 + 10]
    assert layer_params([784, 128, 64, 10]) == expected
    assert count_params([784, 128, 64, 10]) == sum(expected)


def test_single_layer_and_order_matters():
    assert count_params([100, 50]) == 100 * 50 + 50
    # biases follow the output width, so reversing the widths changes the count
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
    # h = 8d/3 matches the classic FFN's 8 d^2 when 8d/3 is a whole number
    assert swiglu_params(768, 2048) == ffn_params(768, 3072, bias=False)


def test_ffn_bad_widths_raise_value_error():
    with pytest.raises(ValueError):
        ffn_params(0, 10)
    with pytest.raises(ValueError):
        swiglu_params(10, -1)
