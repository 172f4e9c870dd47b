"""Tests of mlp_ref.labs.charlm.model, the character-level MLP language model.

Expected values come from hand derivations (bigram counts of a two-word list, running
statistics from numpy.var), finite differences (mlp_ref.central_difference), or properties
that hold independently of the code (batch norm is invariant to the scale of W1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlp_ref import central_difference
from mlp_ref.labs.charlm.data import Vocabulary, build_windows, load_census_names
from mlp_ref.labs.charlm.model import (CharMLPConfig, bigram_loss, cross_entropy, evaluate, fit_bigram,
                                       forward, init_char_mlp, loss_and_grads, sample_words, step_decay,
                                       train, train_step)
from mlp_ref.validation import ShapeError


VOCAB = Vocabulary.letters()


def test_cross_entropy_matches_direct_formula():
    rng = np.random.default_rng(0)
    logits, Y = rng.standard_normal((5, 4)), np.array([0, 3, 1, 1, 2])
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    loss, d = cross_entropy(logits, Y)
    assert loss == pytest.approx(-np.mean(np.log(p[np.arange(5), Y])), rel=1e-12)
    onehot = np.eye(4)[Y]
    np.testing.assert_allclose(d, (p - onehot) / 5, rtol=1e-12, atol=1e-15)
    big, _ = cross_entropy(np.array([[1000.0, -1000.0]]), np.array([1]))
    assert big == pytest.approx(2000.0)


def test_step_decay_by_hand():
    assert [step_decay(s, 0.1, (3, 5)) for s in (0, 2, 3, 4, 5, 9)] == pytest.approx(
        [0.1, 0.1, 0.01, 0.01, 0.001, 0.001])


def test_hidden_bias_dropped_with_batch_norm():
    with_bn = init_char_mlp(CharMLPConfig(27, 3, 4, 8, batch_norm=True), 0)
    without = init_char_mlp(CharMLPConfig(27, 3, 4, 8), 0)
    assert "b1" not in with_bn.params and {"bn_gain", "bn_bias"} <= set(with_bn.params)
    assert "b1" in without.params and "bn_gain" not in without.params
    assert with_bn.n_parameters() == 27 * 4 + 12 * 8 + 2 * 8 + 8 * 27 + 27


def test_scaled_output_init_gives_loss_near_log_v():
    X, Y = build_windows(load_census_names()[:300], VOCAB, 3)
    naive = evaluate(init_char_mlp(CharMLPConfig(27, init="naive"), 0), X, Y)
    scaled = evaluate(init_char_mlp(CharMLPConfig(27, init="scaled_output"), 0), X, Y)
    assert abs(scaled - math.log(27)) < 0.05
    assert naive > 3 * math.log(27)


def test_kaiming_init_scale():
    model = init_char_mlp(CharMLPConfig(27, 3, 10, 2000, init="kaiming"), 0)
    assert model.params["W1"].std() == pytest.approx((5 / 3) / math.sqrt(30), rel=0.02)
    assert np.all(model.params["b2"] == 0)


def test_kaiming_init_is_naive_with_exactly_the_changes_lab_b_names():
    """Lab B says what "kaiming" changes: W2 x 0.01, b2 = 0, W1 x (5/3)/sqrt(fan-in), b1 x 0.01.
    A change the page does not name (or one it names that is gone) fails here."""
    naive = init_char_mlp(CharMLPConfig(27, 3, 10, 64, init="naive"), 4)
    fixed = init_char_mlp(CharMLPConfig(27, 3, 10, 64, init="kaiming"), 4)
    factors = {"C": 1.0, "W1": (5 / 3) / math.sqrt(30), "b1": 0.01, "W2": 0.01, "b2": 0.0}
    assert set(fixed.params) == set(factors)
    for name, factor in factors.items():
        # one multiplication of the same draws: equal to rounding of that product
        np.testing.assert_allclose(fixed.params[name], factor * naive.params[name], rtol=1e-15, atol=0, err_msg=name)


def test_batch_norm_training_output_ignores_scale_of_w1():
    rng = np.random.default_rng(1)
    model = init_char_mlp(CharMLPConfig(27, 3, 4, 8, batch_norm=True, eps=1e-12), 0)
    X = rng.integers(0, 27, (16, 3))
    before, _ = forward(model, X, training=True)
    model.params["W1"] *= 7.0
    after, _ = forward(model, X, training=True)
    np.testing.assert_allclose(after, before, rtol=1e-8, atol=1e-10)


def test_running_statistics_update_and_eval_mode():
    rng = np.random.default_rng(2)
    m = 0.25
    model = init_char_mlp(CharMLPConfig(27, 3, 4, 8, batch_norm=True, momentum=m), 0)
    X, Y = rng.integers(0, 27, (16, 3)), rng.integers(0, 27, 16)
    a = model.params["C"][X].reshape(16, -1) @ model.params["W1"]  # pre-activations before the step
    train_step(model, X, Y, lr=0.0)
    np.testing.assert_allclose(model.buffers["bn_mean"], m * a.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(model.buffers["bn_var"], (1 - m) + m * a.var(axis=0, ddof=1), rtol=1e-12)
    # eval mode normalizes with the running statistics, one window at a time
    logits, _ = forward(model, X[:1], training=False)
    p = model.params
    z = (a[:1] - model.buffers["bn_mean"]) / np.sqrt(model.buffers["bn_var"] + 1e-5)
    expected = np.tanh(p["bn_gain"] * z + p["bn_bias"]) @ p["W2"] + p["b2"]
    np.testing.assert_allclose(logits, expected, rtol=1e-12)
    with pytest.raises(ShapeError, match="at least 2"):
        forward(model, X[:1], training=True)


def test_forward_rejects_bad_windows():
    model = init_char_mlp(CharMLPConfig(27, 3, 4, 8), 0)
    with pytest.raises(ShapeError, match=r"X: expected context windows of shape \(B, 3\)"):
        forward(model, np.zeros((2, 4), dtype=int), training=False)
    with pytest.raises(ValueError, match=r"X: expected indices in \[0, 26\]"):
        forward(model, np.full((2, 3), 27), training=False)
    with pytest.raises(TypeError, match="integer token indices"):
        forward(model, np.zeros((2, 3)), training=False)
    with pytest.raises(ValueError, match="init"):
        CharMLPConfig(27, init="he")


def numeric_gradient(model, X, Y, name):
    return central_difference(lambda: loss_and_grads(model, X, Y)[0], model.params[name])


@pytest.mark.parametrize("batch_norm", [False, True])
def test_gradients_match_finite_differences(batch_norm):
    rng = np.random.default_rng(3)
    config = CharMLPConfig(8, context=3, emb_dim=3, hidden=6, batch_norm=batch_norm, init="kaiming")
    model = init_char_mlp(config, 4)
    if batch_norm:  # non-trivial gain and bias, so their gradients are exercised
        model.params["bn_gain"] += rng.normal(0, 0.3, 6)
        model.params["bn_bias"] += rng.normal(0, 0.3, 6)
    model.params["W2"] = rng.normal(0, 0.5, model.params["W2"].shape)
    # repeated characters inside a window, so the scatter-add of the embedding gradient matters
    X = np.array([[0, 0, 0], [0, 2, 2], [2, 2, 2], [5, 1, 5], [7, 3, 0], [1, 1, 4]])
    Y = np.array([2, 2, 0, 7, 1, 3])
    _, grads, _ = loss_and_grads(model, X, Y)
    assert set(grads) == set(model.params)
    for name in model.params:
        numeric = numeric_gradient(model, X, Y, name)
        error = np.linalg.norm(grads[name] - numeric) / max(np.linalg.norm(grads[name]) + np.linalg.norm(numeric), 1e-300)
        assert error < 1e-6, f"{name}: relative error {error:.2e}"


def test_training_lowers_loss_and_is_seeded():
    X, Y = build_windows(load_census_names()[:200], VOCAB, 3)
    config = CharMLPConfig(27, 3, 5, 32, batch_norm=True)
    a, b = init_char_mlp(config, 0), init_char_mlp(config, 0)
    before = evaluate(a, X, Y)
    curve = train(a, X, Y, steps=300, batch_size=32, seed=1)
    train(b, X, Y, steps=300, batch_size=32, seed=1)
    assert curve.shape == (300,)
    assert evaluate(a, X, Y) < before - 0.4
    np.testing.assert_array_equal(a.params["C"], b.params["C"])  # same seed, same calls: bit for bit


def test_float32_model_stays_float32():
    X, Y = build_windows(["anna", "bob"], VOCAB, 3)
    model = init_char_mlp(CharMLPConfig(27, 3, 4, 8, batch_norm=True, dtype="float32"), 0)
    train(model, X, Y, steps=3, batch_size=4, seed=0)
    assert all(v.dtype == np.float32 for v in list(model.params.values()) + list(model.buffers.values()))


def test_sampling_follows_the_output_bias():
    model = init_char_mlp(CharMLPConfig(27, 3, 4, 8), 0)
    model.params["W2"][:] = 0.0
    model.params["b2"][:] = -50.0
    model.params["b2"][1] = 50.0  # always 'a'
    assert sample_words(model, VOCAB, 2, seed=0, max_length=5) == ["aaaaa", "aaaaa"]
    model.params["b2"][0] = 100.0  # always '.'
    assert sample_words(model, VOCAB, 3, seed=0) == ["", "", ""]


def test_sampling_is_seeded():
    model = init_char_mlp(CharMLPConfig(27, 3, 4, 8, init="scaled_output"), 0)
    model.params["W2"] *= 100
    assert sample_words(model, VOCAB, 5, seed=7) == sample_words(model, VOCAB, 5, seed=7)
    assert sample_words(model, VOCAB, 5, seed=7) != sample_words(model, VOCAB, 5, seed=8)


def test_bigram_counts_by_hand():
    vocab = Vocabulary((".", "a", "b"))
    X, Y = build_windows(["ab", "b"], vocab, 1)
    model = fit_bigram(X, Y, 3, alpha=1.0)
    # pairs: (.,a) (a,b) (b,.) (.,b) (b,.); plus one for every cell
    expected = np.array([[1, 2, 2], [1, 1, 2], [3, 1, 1]], dtype=float)
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(np.exp(model.log_probs), expected, rtol=1e-12)
    hand = -np.mean(np.log([2 / 5, 2 / 4, 3 / 5, 2 / 5, 3 / 5]))
    assert bigram_loss(model, X, Y) == pytest.approx(hand, rel=1e-12)
