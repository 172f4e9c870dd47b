"""Tests of mlp_ref.course.trace against forward passes computed by hand."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from mlp_ref.course.trace import Step, Trace, format_value, trace
from mlp_ref.validation import ShapeError


def relu(z):
    return np.maximum(z, 0.0)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


W1 = np.array([[0.1, 0.2], [0.3, 0.4]])
B1 = np.array([0.1, 0.1])
W2 = np.array([[0.5], [0.6]])
B2 = np.array([0.2])
LAYERS = [(W1, B1, relu), (W2, B2, sigmoid)]

# By hand: z1 = (1*0.1 + 2*0.3 + 0.1, 1*0.2 + 2*0.4 + 0.1) = (0.8, 1.1); a1 = z1;
# z2 = 0.8*0.5 + 1.1*0.6 + 0.2 = 1.26; a2 = 1 / (1 + e^-1.26).
A2 = 1.0 / (1.0 + math.exp(-1.26))


def test_hand_trace_2_2_1():
    t = trace(LAYERS, [[1.0, 2.0]])
    assert [s.name for s in t] == ["x", "z1", "a1", "z2", "a2"]
    assert [s.expression for s in t] == ["input", "x W1 + b1", "relu(z1)", "a1 W2 + b2", "sigmoid(z2)"]
    assert [s.shape for s in t] == [(1, 2), (1, 2), (1, 2), (1, 1), (1, 1)]
    np.testing.assert_allclose(t["z1"].value, [[0.8, 1.1]], rtol=0, atol=1e-15)
    np.testing.assert_allclose(t["a1"].value, [[0.8, 1.1]], rtol=0, atol=1e-15)
    np.testing.assert_allclose(t["z2"].value, [[1.26]], rtol=0, atol=1e-15)
    np.testing.assert_allclose(t["a2"].value, [[A2]], rtol=1e-15)


def test_hand_trace_markdown():
    md = trace(LAYERS, [[1.0, 2.0]], precision=2).to_markdown()
    lines = md.splitlines()
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in lines]
    assert cells[0] == ["step", "expression", "shape", "value"]
    assert cells[2] == ["x", "`input`", "(1, 2)", "[1.00, 2.00]"]
    assert cells[3] == ["z1", "`x W1 + b1`", "(1, 2)", "[0.80, 1.10]"]
    assert cells[5] == ["z2", "`a1 W2 + b2`", "(1, 1)", "[1.26]"]
    assert cells[6] == ["a2", "`sigmoid(z2)`", "(1, 1)", "[0.78]"]  # 0.779...


def test_a_russian_page_says_the_input_step_in_russian_and_a_print_stays_english(monkeypatch):
    """to_markdown is a page's table (its words in the page's language); to_text is what a
    reader's own print shows, English on either edition."""
    t = trace(LAYERS, [[1.0, 2.0]], precision=2)
    english = t.to_markdown()
    monkeypatch.setenv("MLP_LANG", "ru")
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in t.to_markdown().splitlines()]
    assert cells[0] == ["шаг", "выражение", "форма", "значение"]
    assert cells[2] == ["x", "`вход`", "(1, 2)", "[1.00, 2.00]"]
    assert cells[3] == ["z1", "`x W1 + b1`", "(1, 2)", "[0.80, 1.10]"]  # code stays code
    assert t["x"].expression == "input"
    assert str(t).splitlines()[2].split()[:2] == ["x", "input"] and "вход" not in str(t)
    # a hand-made step named like the input is said the same way; any other expression is left alone
    hand = Trace()
    hand.record("x", "input", np.zeros(2))
    hand.record("y", "input · 2", np.zeros(2))
    assert [line.split("|")[2].strip() for line in hand.to_markdown().splitlines()[2:]] == ["`вход`", "`input · 2`"]
    monkeypatch.delenv("MLP_LANG")
    assert t.to_markdown() == english


def test_precision_argument_overrides_default():
    t = trace(LAYERS, [[1.0, 2.0]])
    assert "[0.7790]" in t.to_markdown()  # default 4 decimals
    assert "[0.779]" in t.to_markdown(precision=3)


def test_batch_trace_rows_match_single_rows_and_hand_values():
    X = np.array([[1.0, 2.0], [0.5, 0.5], [-1.0, 0.3], [2.0, -1.5]])
    t = trace(LAYERS, X)
    # Row 3 by hand: z1 = (-0.1 + 0.09 + 0.1, -0.2 + 0.12 + 0.1) = (0.09, 0.02)
    np.testing.assert_allclose(t["z1"].value[2], [0.09, 0.02], atol=1e-15)
    # Row 4 by hand: z1 = (0.2 - 0.45 + 0.1, 0.4 - 0.6 + 0.1) = (-0.15, -0.1) -> a1 = 0
    np.testing.assert_allclose(t["a1"].value[3], [0.0, 0.0], atol=0)
    for i in range(4):
        single = trace(LAYERS, X[i:i + 1])
        for name in ("z1", "a1", "z2", "a2"):
            # A batch and a single row go through different BLAS kernels (matrix-matrix vs
            # matrix-vector), which may round differently on some CPUs: equal up to rounding.
            np.testing.assert_allclose(t[name].value[i], single[name].value[0], rtol=1e-12, atol=1e-15)
    md = t.to_markdown(precision=2)
    assert "[0.09, 0.02]" in md
    assert "<br>[-0.15, -0.10]" in md  # one row per line, no negative zero in a1
    assert "[0.00, 0.00]" in md and "-0.00" not in md


def test_plain_text_rendering_is_aligned():
    X = np.array([[1.0, 2.0], [0.5, 0.5]])
    text = str(trace(LAYERS, X, precision=1))
    lines = text.splitlines()
    assert lines[0].split() == ["step", "expression", "shape", "value"]
    value_col = lines[0].index("value")
    z1 = [i for i, line in enumerate(lines) if line.startswith("z1")][0]
    assert lines[z1][value_col:] == "[0.8, 1.1]"
    # z1 of row 2 by hand: (0.05 + 0.15 + 0.1, 0.1 + 0.2 + 0.1) = (0.3, 0.4), on the next line
    assert lines[z1 + 1][value_col:] == "[0.3, 0.4]"
    assert lines[z1 + 1][:value_col].strip() == ""


def test_duck_typed_mlp_uses_activation_names():
    model = SimpleNamespace(weights=[W1, W2], biases=[B1, B2], activation="relu", output="sigmoid")
    t = trace(model, [[1.0, 2.0]])
    assert [s.expression for s in t][2::2] == ["relu(z1)", "sigmoid(z2)"]
    np.testing.assert_allclose(t["a2"].value, [[A2]], rtol=1e-15)


def test_softmax_output_second_fixture():
    # x = (1, 2), W1 = [[1, -1], [2, 1]], b1 = (0, 1): z1 = (5, 2); a1 = (5, 2)
    # W2 = [[1, 0], [-1, 2]], b2 = 0: z2 = (3, 4); softmax = (1, e) / (1 + e)
    layers = [(np.array([[1.0, -1.0], [2.0, 1.0]]), np.array([0.0, 1.0]), "relu"),
              (np.array([[1.0, 0.0], [-1.0, 2.0]]), np.zeros(2), "softmax")]
    t = trace(layers, [[1.0, 2.0]])
    np.testing.assert_allclose(t["z1"].value, [[5.0, 2.0]])
    np.testing.assert_allclose(t["z2"].value, [[3.0, 4.0]])
    e = math.e
    np.testing.assert_allclose(t["a2"].value, [[1 / (1 + e), e / (1 + e)]], rtol=1e-14)


def test_width_mismatch_names_the_layer():
    with pytest.raises(ShapeError, match=r"X \(layer 1\).*width 2.*width 3"):
        trace(LAYERS, [[1.0, 2.0, 3.0]])
    bad = [(W1, B1, relu), (np.ones((3, 1)), B2, sigmoid)]
    with pytest.raises(ShapeError, match=r"W \(layer 2\): expected 2 rows"):
        trace(bad, [[1.0, 2.0]])
    with pytest.raises(ShapeError, match=r"b \(layer 1\)"):
        trace([(W1, np.zeros(3), relu)], [[1.0, 2.0]])


def test_rejects_1d_input_and_nan():
    with pytest.raises(ShapeError, match=r"X: expected a 2-D array.*\(1, D\)"):
        trace(LAYERS, [1.0, 2.0])
    with pytest.raises(ValueError, match="X: expected finite"):
        trace(LAYERS, [[np.nan, 2.0]])
    with pytest.raises(ShapeError, match="empty batch"):
        trace(LAYERS, np.zeros((0, 2)))


def test_rejects_bad_model():
    with pytest.raises(TypeError, match=r"model \(layer 1\)"):
        trace([(W1, B1)], [[1.0, 2.0]])
    with pytest.raises(ValueError, match="at least one layer"):
        trace([], [[1.0, 2.0]])


def test_record_stores_a_copy_and_returns_the_array():
    t = Trace()
    v = np.array([1.0, 2.0])
    out = t.record("v", "given", v)
    assert out is v
    v[0] = 99.0
    assert t["v"].value[0] == 1.0
    with pytest.raises(ValueError):
        t["v"].value[0] = 5.0
    assert isinstance(t[0], Step) and t[0].shape == (2,)
    with pytest.raises(KeyError, match="no step named 'w'"):
        t["w"]


def test_format_value_shapes():
    assert format_value(np.array(2.5), 1) == ["2.5"]
    assert format_value(np.array([0.7, 1.1]), 1) == ["[0.7, 1.1]"]
    assert format_value(np.array([[0.7, 1.1]]), 1) == ["[0.7, 1.1]"]
    assert format_value(np.array([[1, 2], [3, 4]]), 0) == ["[1, 2]", "[3, 4]"]


def test_unknown_activation_name_lists_valid_ones():
    with pytest.raises(ValueError, match="relu"):
        trace([(W1, B1, "rleu")], [[1.0, 2.0]])


@pytest.mark.parametrize("activation, output, d_out", [("relu", "identity", 3), ("tanh", "softmax", 3),
                                                       ("gelu", "sigmoid", 1)])
def test_trace_agrees_with_mlp_forward_cache(activation, output, d_out):
    from mlp_ref.network import MLP

    net = MLP([4, 5, 6, d_out], activation=activation, output=output, seed=1)
    X = np.random.default_rng(2).normal(size=(7, 4))
    out, cache = net.forward(X, keep_cache=True)
    t = trace(net, X)
    assert [s.expression for s in t][2::2] == [f"{activation}(z1)", f"{activation}(z2)", f"{output}(z3)"]
    for layer in range(1, 4):
        np.testing.assert_allclose(t[f"z{layer}"].value, cache.pre_activations[layer - 1], rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(t[f"a{layer}"].value, cache.activations[layer], rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(t["a3"].value, out, rtol=1e-14, atol=1e-15)
