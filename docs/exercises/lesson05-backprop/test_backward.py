"""Tests for the lesson 5 exercise. Run them next to your backward.py:  pytest -ra test_backward.py

The tests build the cache with their own forward pass (`forward` below, in the format the
starter describes). The expected values are worked out by hand (the softmax fixture of
lesson 3), measured by central differences of the loss (a gradient check that does not use
your backward pass), or come from the reference package mlp_ref, never from the code under
test. Without mlp_ref
the one test that compares with it is skipped, and -ra prints why.
"""

import ast
import importlib
import inspect
import math
from pathlib import Path

import numpy as np
import pytest

from backward import backward


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


# ----------------------------------------------------------------------------- helpers

def forward(X: np.ndarray, weights: list, biases: list) -> tuple[np.ndarray, dict]:
    """Forward pass of a ReLU MLP, keeping the cache your backward pass reads.

    Parameters
    ----------
    X : numpy.ndarray, shape (B, d_0)
    weights : list of numpy.ndarray, shapes (d_{l-1}, d_l), l = 1..L
    biases : list of numpy.ndarray, shapes (d_l,)

    Returns
    -------
    logits : numpy.ndarray, shape (B, d_L)
    cache : dict
        "A": [A_0 = X, A_1, ..., A_{L-1}], the input of each layer, A_l of shape (B, d_l);
        "Z": [Z_1, ..., Z_L], the pre-activations, Z_l of shape (B, d_l);
        "W": the weights, as passed.
    """
    A, activations, pre_activations = X, [X], []
    for l, (W, b) in enumerate(zip(weights, biases), start=1):
        Z = A @ W + b
        pre_activations.append(Z)
        if l < len(weights):
            A = np.maximum(Z, 0.0)
            activations.append(A)
    return Z, {"A": activations, "Z": pre_activations, "W": list(weights)}


def softmax_cross_entropy(logits: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross entropy of integer labels (B,) and its gradient dL/dlogits, (B, K)."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    B = len(labels)
    loss = -log_p[np.arange(B), labels].mean()
    delta = np.exp(log_p)
    delta[np.arange(B), labels] -= 1.0
    return float(loss), delta / B


def random_net(sizes, seed):
    rng = np.random.default_rng(seed)
    weights = [rng.normal(size=(a, b)) for a, b in zip(sizes[:-1], sizes[1:])]
    biases = [rng.normal(size=b) for b in sizes[1:]]
    return weights, biases


# What a failed comparison says: against what, and where in backward to look for each gradient.
AGAINST = {"by hand": "your gradients differ from the ones worked out by hand (lesson 3's softmax fixture)",
           "differences": "the gradient check (central differences of the loss) disagrees with your backward pass",
           "mlp_ref": "your gradients differ from mlp_ref's"}
WHERE_TO_LOOK = {
    "last": "the last layer: dW_L = A_{L-1}^T Delta_L and db_L = the column sums of Delta_L, "
            "with Delta_L the delta you are given",
    "dW": "how Delta goes down a layer, Delta_{l-1} = (Delta_l W_l^T) * relu'(Z_{l-1}), "
          "and dW_l = A_{l-1}^T Delta_l",
    "db": "db_l = the column sums of Delta_l (a sum over the rows of the batch, axis 0), "
          "with Delta_l as for dW_l",
}


def check_gradients(mine: list, expected: list, bound: float, against: str) -> None:
    """Fail, in words, for each gradient (dW1, dW2, ..., then db1, db2, ...) whose relative error
    against ``expected`` is not below ``bound``: the largest difference over the largest entry of
    the two, with what to check. No array is printed."""
    layers = len(mine) // 2
    names = [f"dW{l}" for l in range(1, layers + 1)] + [f"db{l}" for l in range(1, layers + 1)]
    said = []
    for name, a, b in zip(names, mine, expected):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        if a.shape != b.shape:
            said.append(f"{name} has shape {a.shape}, expected {b.shape}")
            continue
        scale = max(np.abs(a).max(), np.abs(b).max())
        error = float(np.abs(a - b).max() / scale) if scale > 0 else 0.0
        if not error < bound:  # a NaN too
            layer = "last" if name[2:] == str(layers) else name[:2]
            said.append(f"relative error of {name} is {error:.2g} (expected < {bound:.0e}): check {WHERE_TO_LOOK[layer]}"
                        .replace("e-0", "e-"))
    if said:
        pytest.fail(f"{against}:\n" + "\n".join(said), pytrace=False)


def test_gradient_shapes_match_the_parameters():
    weights, biases = random_net([3, 5, 4, 2], seed=0)
    X = np.random.default_rng(1).normal(size=(6, 3))
    logits, cache = forward(X, weights, biases)
    _, delta = softmax_cross_entropy(logits, np.array([0, 1, 1, 0, 1, 0]))
    grad_w, grad_b = backward(cache, delta)
    assert [g.shape for g in grad_w] == [W.shape for W in weights]
    assert [g.shape for g in grad_b] == [b.shape for b in biases]


def test_softmax_fixture_by_hand():
    # Lesson 3's softmax fixture, label = the second class (index 1). By hand:
    # z1 = (1*1 + 2*2 + 0, 1*(-1) + 2*1 + 1) = (5, 2), both on, so a1 = (5, 2);
    # logits = (5 - 2, 0 + 4) = (3, 4), p = (s, 1 - s) with s = sigmoid(-1) = 1 / (1 + e);
    # delta2 = p - onehot = (s, -s); dW2 = a1^T delta2; db2 = delta2;
    # delta1 = delta2 W2^T = (s*1 + (-s)*0, s*(-1) + (-s)*2) = (s, -3s), relu' = (1, 1);
    # dW1 = x^T delta1 = [[s, -3s], [2s, -6s]]; db1 = delta1.
    s = 1.0 / (1.0 + math.e)
    W1, b1 = np.array([[1.0, -1.0], [2.0, 1.0]]), np.array([0.0, 1.0])
    W2, b2 = np.array([[1.0, 0.0], [-1.0, 2.0]]), np.array([0.0, 0.0])
    logits, cache = forward(np.array([[1.0, 2.0]]), [W1, W2], [b1, b2])
    _, delta = softmax_cross_entropy(logits, np.array([1]))
    (dW1, dW2), (db1, db2) = backward(cache, delta)
    by_hand = [[[s, -3 * s], [2 * s, -6 * s]], [[5 * s, -5 * s], [2 * s, -2 * s]], [s, -3 * s], [s, -s]]
    check_gradients([dW1, dW2, db1, db2], by_hand, 1e-12, AGAINST["by hand"])


def central_differences(loss, params, eps=1e-6):
    """d loss / d p for every entry of every array in params, by (L(p + eps) - L(p - eps)) / 2 eps."""
    grads = []
    for p in params:
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            saved = p[i]
            p[i] = saved + eps
            plus = loss()
            p[i] = saved - eps
            minus = loss()
            p[i] = saved
            g[i] = (plus - minus) / (2 * eps)
        grads.append(g)
    return grads


def test_gradient_check_by_central_differences():
    weights, biases = random_net([4, 6, 5, 3], seed=2)
    X = np.random.default_rng(3).normal(size=(5, 4))
    labels = np.array([0, 2, 1, 1, 2])

    def loss():
        return softmax_cross_entropy(forward(X, weights, biases)[0], labels)[0]

    logits, cache = forward(X, weights, biases)
    _, delta = softmax_cross_entropy(logits, labels)
    grad_w, grad_b = backward(cache, delta)
    numeric = central_differences(loss, weights + biases)
    check_gradients(grad_w + grad_b, numeric, 1e-6, AGAINST["differences"])


def test_a_dead_unit_gets_no_gradient():
    # Hidden unit 2 has weights (-1, -1) and bias -1: off for these positive inputs.
    W1, b1 = np.array([[1.0, -1.0], [0.5, -1.0]]), np.array([0.0, -1.0])
    W2, b2 = np.array([[1.0, -1.0], [2.0, 0.5]]), np.array([0.0, 0.0])
    X = np.array([[1.0, 2.0], [0.5, 0.1], [3.0, 1.0]])
    logits, cache = forward(X, [W1, W2], [b1, b2])
    _, delta = softmax_cross_entropy(logits, np.array([0, 1, 1]))
    (dW1, _), (db1, _) = backward(cache, delta)
    np.testing.assert_array_equal(dW1[:, 1], [0.0, 0.0])
    assert db1[1] == 0.0
    assert np.all(dW1[:, 0] != 0.0)


def test_matches_the_reference_package():
    mlp_ref = mlp_ref_or_skip()
    weights, biases = random_net([3, 7, 4], seed=4)
    X = np.random.default_rng(5).normal(size=(8, 3))
    labels = np.array([0, 1, 2, 3, 0, 1, 2, 3])
    net = mlp_ref.MLP.from_arrays(weights, biases, activation="relu", output="softmax")
    _, expected = net.loss_and_grads(X, labels)
    logits, cache = forward(X, weights, biases)
    _, delta = softmax_cross_entropy(logits, labels)
    grad_w, grad_b = backward(cache, delta)
    check_gradients(grad_w + grad_b, expected.weights + expected.biases, 1e-10, AGAINST["mlp_ref"])


def test_the_cache_is_not_modified():
    weights, biases = random_net([2, 3, 2], seed=6)
    X = np.random.default_rng(7).normal(size=(4, 2))
    logits, cache = forward(X, weights, biases)
    before = {key: [a.copy() for a in arrays] for key, arrays in cache.items()}
    _, delta = softmax_cross_entropy(logits, np.array([0, 1, 0, 1]))
    backward(cache, delta)
    for key, arrays in before.items():
        for old, new in zip(arrays, cache[key]):
            np.testing.assert_array_equal(old, new)


def test_a_delta_of_the_wrong_shape_is_refused():
    weights, biases = random_net([2, 3, 2], seed=8)
    _, cache = forward(np.ones((4, 2)), weights, biases)
    with pytest.raises(ValueError, match="delta"):
        backward(cache, np.ones((4, 3)))
