"""Tests for the lesson 4 exercise. Run them with:  pytest -ra test_my_activations.py

Expected values come from Python's ``math`` module (an independent formula), from a
difference quotient, or from ``mlp_ref`` when it is installed (without it the comparison
is skipped, and -ra prints why).
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

POINTS = [-6.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 6.0]


def mlp_ref_or_skip():
    """The course's reference package, or a skip whose reason (shown by pytest -ra) says how to get it."""
    return pytest.importorskip("mlp_ref", reason="install mlp_ref: see 'Before you start' on the lesson page, "
                                                 "then run these tests again to compare with it")


def by_hand_sigmoid(t):
    return 1.0 / (1.0 + math.exp(-t))          # fine for these moderate points


@pytest.mark.parametrize("t", POINTS)
def test_values_by_hand(t):
    s = by_hand_sigmoid(t)
    assert float(sigmoid(t)) == pytest.approx(s, rel=1e-12)
    assert float(sigmoid_grad(t)) == pytest.approx(s * (1 - s), rel=1e-12)
    assert float(silu(t)) == pytest.approx(t * s, rel=1e-12, abs=1e-15)


def test_known_points():
    assert float(sigmoid(0.0)) == 0.5
    assert float(sigmoid_grad(0.0)) == 0.25     # the largest value of the derivative
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
    z = np.arange(12.0).reshape(3, 4) - 6.0     # a batch (B, d) = (3, 4)
    out = fn(z)
    assert isinstance(out, np.ndarray) and out.shape == (3, 4)


def test_no_overflow_for_huge_inputs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # an overflow warning fails the test
        out = sigmoid(np.array([-1000.0, 1000.0]))
        assert out[0] == 0.0 and out[1] == 1.0
        assert np.all(np.isfinite(silu(np.array([-1000.0, 1000.0]))))
        assert np.all(np.isfinite(silu_grad(np.array([-1000.0, 1000.0]))))


def test_silu_minimum():
    # silu'(z) changes sign between -2 and -1, where silu has its minimum
    assert float(silu_grad(-2.0)) < 0 < float(silu_grad(-1.0))
    z = np.linspace(-3.0, 0.0, 30001)
    z_min = z[np.argmin(silu(z))]
    # silu'(z) = 0 is the same equation as z + 1 + exp(z) = 0 (lesson 4, "The math")
    assert abs(z_min + 1 + math.exp(z_min)) < 1e-3


def test_matches_mlp_ref():
    mlp_ref = mlp_ref_or_skip()
    z = np.linspace(-30.0, 30.0, 601)
    np.testing.assert_allclose(sigmoid(z), mlp_ref.sigmoid(z), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(silu(z), mlp_ref.silu(z), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(silu_grad(z), mlp_ref.silu_grad(z), rtol=1e-12, atol=1e-15)
