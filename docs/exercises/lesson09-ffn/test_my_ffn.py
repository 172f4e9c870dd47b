"""Tests for the lesson 9 exercise. Run them next to your my_ffn.py:  pytest -ra test_my_ffn.py

Expected values are worked out by hand or come from the reference package mlp_ref, never
from the code under test. Without mlp_ref the tests that compare with it are skipped, and
-ra prints why.
"""

import ast
import importlib
import inspect
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from my_ffn import ffn, route_top_k


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

# The lesson's worked trace: T = 3 positions of width 2, d_ff = 4.
X_TRACE = np.array([[[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]])
W1 = np.array([[1.0, -1.0, 0.5, 0.0], [0.0, 1.0, -0.5, 1.0]])
b1 = np.array([0.0, 0.0, 0.0, -0.5])
W2 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.5]])
b2 = np.array([0.1, -0.1])


def mlp_ref_or_skip():
    """The course's reference package, or a skip whose reason (shown by pytest -ra) says how to get it."""
    return pytest.importorskip("mlp_ref", reason="install mlp_ref: see 'Before you start' on the lesson page, "
                                                 "then run these tests again to compare with it")


def test_ffn_by_hand():
    # position 0: z = (1, -1, 0.5, -0.5) -> h = (1, 0, 0.5, 0) -> y = (1 + 0.5, 0.5) + b2 = (1.6, 0.4)
    # position 1: z = (0, 1, -0.5, 0.5)  -> h = (0, 1, 0, 0.5) -> y = (-0.5, 1 + 0.25) + b2 = (-0.4, 1.15)
    # position 2: z = (1, -2, 1, -1.5)   -> h = (1, 0, 1, 0)   -> y = (2, 1) + b2 = (2.1, 0.9)
    Y = ffn(X_TRACE, W1, b1, W2, b2)
    assert Y.shape == (1, 3, 2)
    np.testing.assert_allclose(Y, [[[1.6, 0.4], [-0.4, 1.15], [2.1, 0.9]]], rtol=1e-12, atol=1e-12)


def test_ffn_matches_mlp_ref_on_a_batch_of_sequences():
    mlp_ref = mlp_ref_or_skip()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3, 5, 4))
    params = rng.normal(size=(4, 16)), rng.normal(size=16), rng.normal(size=(16, 4)), rng.normal(size=4)
    np.testing.assert_allclose(ffn(X, *params), mlp_ref.ffn(X, *params, activation="relu"),
                               rtol=1e-10, atol=1e-10)


def test_ffn_is_position_wise():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(2, 4, 3))
    params = rng.normal(size=(3, 8)), rng.normal(size=8), rng.normal(size=(8, 3)), rng.normal(size=3)
    order = np.array([2, 0, 3, 1])
    np.testing.assert_allclose(ffn(X[:, order], *params), ffn(X, *params)[:, order], rtol=1e-12, atol=1e-12)
    nudged = X.copy()
    nudged[:, 1] += 1.0
    moved = np.abs(ffn(nudged, *params) - ffn(X, *params)).max(axis=(0, 2)) > 0
    assert moved.tolist() == [False, True, False, False]


@pytest.mark.parametrize("X", [np.ones(2), np.ones((3, 2)), np.ones((1, 3, 5))])
def test_ffn_rejects_wrong_shapes(X):
    with pytest.raises(ValueError, match="X"):
        ffn(X, W1, b1, W2, b2)


def test_route_top_k_by_hand():
    experts, weights = route_top_k(np.array([[1.0, 3.0, 2.0, 0.0], [0.0, 0.0, 5.0, 0.0]]), 2)
    assert experts.tolist() == [[1, 2], [2, 0]]          # the tie among the zeros goes to expert 0
    e = math.e
    np.testing.assert_allclose(weights[0], [e / (1 + e), 1 / (1 + e)], rtol=1e-12)
    np.testing.assert_allclose(weights[1], [math.exp(5) / (math.exp(5) + 1), 1 / (math.exp(5) + 1)], rtol=1e-12)


def test_route_top_k_weights_sum_to_one():
    scores = np.random.default_rng(2).normal(size=(7, 6))
    experts, weights = route_top_k(scores, 3)
    assert experts.shape == weights.shape == (7, 3)
    np.testing.assert_allclose(weights.sum(axis=1), np.ones(7), rtol=1e-12)


def test_route_top_k_matches_mlp_ref():
    mlp_ref = mlp_ref_or_skip()
    scores = np.random.default_rng(2).normal(size=(7, 6))
    experts, weights = route_top_k(scores, 3)
    reference = mlp_ref.route_top_k(scores, 3)
    np.testing.assert_array_equal(experts, reference.experts)
    np.testing.assert_allclose(weights, reference.weights, rtol=1e-12)


def test_route_top_k_does_not_overflow():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        experts, weights = route_top_k(np.array([[1000.0, 999.0, -1000.0]]), 2)
    assert experts.tolist() == [[0, 1]]
    np.testing.assert_allclose(weights[0], [1 / (1 + math.exp(-1)), 1 / (1 + math.exp(1))], rtol=1e-12)
