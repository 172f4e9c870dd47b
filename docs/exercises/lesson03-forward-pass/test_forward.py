"""Tests for the lesson 3 exercise. Run them next to your forward.py:  pytest -ra test_forward.py

The expected values are worked out by hand from the fixture (see the lesson's worked trace)
or come from the reference package mlp_ref, never from the code under test. Without mlp_ref
the one test that compares with it is skipped, and -ra prints why.
"""

import ast
import importlib
import inspect
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from forward import forward, relu, sigmoid


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

# The lesson's 2-2-1 network.
W1 = np.array([[0.1, 0.2], [0.3, 0.4]])
b1 = np.array([0.1, 0.1])
W2 = np.array([[0.5], [0.6]])
b2 = np.array([0.2])
BATCH = np.array([[1.0, 2.0], [0.5, 0.5], [-1.0, 0.3], [2.0, -1.5]])


def mlp_ref_or_skip():
    """The course's reference package, or a skip whose reason (shown by pytest -ra) says how to get it."""
    return pytest.importorskip("mlp_ref", reason="install mlp_ref: see 'Before you start' on the lesson page, "
                                                 "then run these tests again to compare with it")


def test_relu_values_and_shape():
    z = np.array([[-2.0, -0.0, 0.0], [0.5, 3.0, -1e-12]])
    out = relu(z)
    assert out.shape == (2, 3)
    np.testing.assert_array_equal(out, [[0.0, 0.0, 0.0], [0.5, 3.0, 0.0]])


def test_sigmoid_known_values():
    # sigmoid(0) = 1/2 and sigmoid(ln 3) = 1 / (1 + 1/3) = 3/4, sigmoid(-ln 3) = 1/4.
    out = sigmoid(np.array([0.0, math.log(3.0), -math.log(3.0)]))
    np.testing.assert_allclose(out, [0.5, 0.75, 0.25], rtol=1e-12)


def test_sigmoid_does_not_overflow():
    with warnings.catch_warnings():
        warnings.simplefilter("error")        # an overflow warning fails the test
        out = sigmoid(np.array([-1000.0, 1000.0]))
    np.testing.assert_allclose(out, [0.0, 1.0], atol=1e-300)


def test_single_row_by_hand():
    # z1 = (1*0.1 + 2*0.3 + 0.1, 1*0.2 + 2*0.4 + 0.1) = (0.8, 1.1), both positive;
    # z2 = 0.8*0.5 + 1.1*0.6 + 0.2 = 1.26.
    Y, cache = forward(np.array([[1.0, 2.0]]), W1, b1, W2, b2)
    assert Y.shape == (1, 1)
    np.testing.assert_allclose(cache["Z1"], [[0.8, 1.1]], rtol=1e-12)
    np.testing.assert_allclose(cache["A1"], [[0.8, 1.1]], rtol=1e-12)
    np.testing.assert_allclose(cache["Z2"], [[1.26]], rtol=1e-12)
    np.testing.assert_allclose(Y, [[1.0 / (1.0 + math.exp(-1.26))]], rtol=1e-12)


def test_cache_keys_and_shapes():
    Y, cache = forward(BATCH, W1, b1, W2, b2)
    expected = {"X": (4, 2), "Z1": (4, 2), "A1": (4, 2), "Z2": (4, 1), "Y": (4, 1)}
    assert {k: np.shape(v) for k, v in cache.items()} == expected
    np.testing.assert_array_equal(cache["Y"], Y)
    np.testing.assert_array_equal(cache["X"], BATCH)


def test_dead_row_outputs_sigmoid_of_b2():
    # Row (2, -1.5): z1 = (0.2 - 0.45 + 0.1, 0.4 - 0.6 + 0.1) = (-0.15, -0.1): both units off,
    # so the output is sigmoid(b2) whatever the input.
    Y, cache = forward(BATCH, W1, b1, W2, b2)
    np.testing.assert_allclose(cache["Z1"][3], [-0.15, -0.1], rtol=1e-12)
    np.testing.assert_array_equal(cache["A1"][3], [0.0, 0.0])
    np.testing.assert_allclose(Y[3, 0], 1.0 / (1.0 + math.exp(-0.2)), rtol=1e-12)


def test_batch_rows_equal_single_rows():
    Y, _ = forward(BATCH, W1, b1, W2, b2)
    for i in range(len(BATCH)):
        Y_row, _ = forward(BATCH[i:i + 1], W1, b1, W2, b2)
        np.testing.assert_allclose(Y[i], Y_row[0], rtol=1e-12)


def test_matches_the_reference_package():
    mlp_ref = mlp_ref_or_skip()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(7, 3))
    V1, c1 = rng.normal(size=(3, 5)), rng.normal(size=5)
    V2, c2 = rng.normal(size=(5, 1)), rng.normal(size=1)
    net = mlp_ref.MLP.from_arrays([V1, V2], [c1, c2], activation="relu", output="sigmoid")
    expected, ref_cache = net.forward(X, keep_cache=True)
    Y, cache = forward(X, V1, c1, V2, c2)
    np.testing.assert_allclose(Y, expected, rtol=1e-12)
    np.testing.assert_allclose(cache["Z1"], ref_cache.pre_activations[0], rtol=1e-12)
    np.testing.assert_allclose(cache["A1"], ref_cache.activations[1], rtol=1e-12)
    np.testing.assert_allclose(cache["Z2"], ref_cache.pre_activations[1], rtol=1e-12)


def test_inputs_are_not_modified():
    X, V1, c1, V2, c2 = (a.copy() for a in (BATCH, W1, b1, W2, b2))
    forward(X, V1, c1, V2, c2)
    for before, after in zip((BATCH, W1, b1, W2, b2), (X, V1, c1, V2, c2)):
        np.testing.assert_array_equal(before, after)


def test_one_dimensional_input_is_refused():
    with pytest.raises(ValueError, match="X"):
        forward(np.array([1.0, 2.0]), W1, b1, W2, b2)
