"""Tests of Lab B, the character-level MLP language model (mlp_ref.labs.charlm: model, data,
experiment, report, command line).

Expected values come from hand derivations (windows of "emma", bigram counts of a
two-word list, running statistics from numpy.var), finite differences, or properties
that hold independently of the code (batch norm is invariant to the scale of W1).
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mlp_ref.labs.charlm.model import (CharMLPConfig, bigram_loss, cross_entropy, evaluate, fit_bigram,
                                       forward, init_char_mlp, loss_and_grads, sample_words, step_decay,
                                       train, train_step)
from mlp_ref.labs.charlm.experiment import LabSettings, run_experiment
from mlp_ref.labs.charlm.report import command_line, format_report
from mlp_ref.labs.charlm.__main__ import parse_args, settings_from_args
from mlp_ref.labs.charlm.data import (Vocabulary, build_windows, census_name_files, load_census_names,
                                      load_words, split_words, window_rows)
from mlp_ref import central_difference
from mlp_ref.validation import ShapeError
from tests import pagekit

ROOT = Path(__file__).resolve().parents[1]
VOCAB = Vocabulary.letters()


# --- data ---------------------------------------------------------------------------

def test_vocabulary_letters_has_end_token_first():
    assert VOCAB.chars[0] == "." and VOCAB.size == 27
    assert VOCAB.encode("az") == [1, 26]
    assert VOCAB.decode([5, 13, 13, 1]) == "emma"


def test_vocabulary_rejects_characters_outside():
    with pytest.raises(ValueError, match=r"'E' at position 0"):
        VOCAB.encode("Emma")
    with pytest.raises(ValueError, match="reserved"):
        Vocabulary.from_words(["a.b"])


def test_windows_of_emma_by_hand():
    X, Y = build_windows(["emma"], VOCAB, 3)
    e, m, a = 5, 13, 1
    assert X.tolist() == [[0, 0, 0], [0, 0, e], [0, e, m], [e, m, m], [m, m, a]]
    assert Y.tolist() == [e, m, m, a, 0]
    assert window_rows("emma", VOCAB, 3)[0] == ("[. . .]", "e")
    assert window_rows("emma", VOCAB, 3)[-1] == ("[m m a]", ".")


def test_windows_count_is_letters_plus_one_per_word():
    words = ["ab", "c", "defg"]
    X, Y = build_windows(words, VOCAB, 2)
    assert X.shape == (3 + 2 + 5, 2) and Y.shape == (10,)


def test_load_words_file(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("anna\n\n  bob \nanna\n", encoding="utf-8")
    words, vocab = load_words(path)
    assert words == ["anna", "bob", "anna"] and vocab == VOCAB
    words, vocab = load_words(path, build_vocabulary=True)
    assert vocab.chars == (".", "a", "b", "n", "o")


def test_load_words_errors(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n \n", encoding="utf-8")
    with pytest.raises(ValueError, match="empty file"):
        load_words(empty)
    bad = tmp_path / "bad.txt"
    bad.write_text("anna\nZoe\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"'Z' at position 0.*build_vocabulary=True"):
        load_words(bad)
    words, vocab = load_words(bad, build_vocabulary=True)
    assert "Z" in vocab.chars


def test_census_names_are_lower_letters_unique():
    names = load_census_names()
    # an independent parse of the same files: first whitespace-separated field of each line
    expected = set()
    for file in census_name_files():
        for line in file.read_text().splitlines():
            if line.strip():
                expected.add(line.split()[0].lower())
    assert set(names) == {w for w in expected if w.isalpha()}
    assert len(names) == len(set(names))
    assert all(w.isascii() and w.isalpha() and w.islower() for w in names)
    assert {"mary", "james", "emma"} <= set(names)


def test_split_is_disjoint_complete_and_seeded():
    words = [f"w{i}" for i in range(100)]
    train_w, val_w, test_w = split_words(words, 3)
    assert (len(train_w), len(val_w), len(test_w)) == (80, 10, 10)
    assert sorted(train_w + val_w + test_w) == sorted(words)
    assert split_words(words, 3) == (train_w, val_w, test_w)
    assert split_words(words, 4)[0] != train_w
    with pytest.raises(ValueError, match="too few"):
        split_words(["a", "b"], 0)


# --- model pieces -------------------------------------------------------------------

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


# --- gradient checks ----------------------------------------------------------------

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


# --- training, sampling, bigram -----------------------------------------------------

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


# --- the shared experiment and its command line -------------------------------------

def test_cli_prints_the_shared_report(tmp_path):
    words = load_census_names()[:400]
    path = tmp_path / "names.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    settings = LabSettings(steps=40, seed=5, n_seeds=2, emb_dim=3, hidden=16, n_samples=4)
    expected = format_report(run_experiment(words, settings))
    run = subprocess.run(
        [sys.executable, "-m", "mlp_ref.labs.charlm", "--words", str(path), "--steps", "40", "--seed", "5",
         "--seeds", "2", "--emb", "3", "--hidden", "16", "--samples", "4", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert run.stdout == expected + "\n"
    assert "bigram counts" in run.stdout and "(chosen)" in run.stdout


def test_cli_reports_a_bad_word_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("anna\nZoe\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mlp_ref.labs.charlm", "--words", str(path), "--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "'Z' at position 0" in run.stderr and "--build-vocab" in run.stderr


def test_printed_command_line_names_the_same_settings():
    settings = LabSettings(steps=123, seed=9, n_seeds=2, context=4, emb_dim=5, hidden=17, batch_size=16,
                           lr=0.2, momentum=0.05, alpha=0.5, n_samples=7)
    argv = command_line(settings).split()
    assert argv[:3] == ["python", "-m", "mlp_ref.labs.charlm"]
    assert settings_from_args(parse_args(argv[3:])) == settings


def test_load_word_list_is_the_commands_choice_of_words(tmp_path):
    """The lab's WORDS_FILE and the command's --words go through the same function."""
    from mlp_ref.labs.charlm.data import load_word_list

    assert load_word_list() == (load_census_names(), VOCAB)
    path = tmp_path / "words.txt"
    path.write_text("anna\nZoe\nanna\n", encoding="utf-8")
    words, vocabulary = load_word_list(path, build_vocab=True)
    assert words == ["anna", "Zoe", "anna"] and vocabulary.chars == (".", "Z", "a", "e", "n", "o")
    with pytest.raises(ValueError, match="'Z' at position 0"):
        load_word_list(path)
    with pytest.raises(ValueError, match="build_vocab: .* only from a word file"):
        load_word_list(None, build_vocab=True)


def test_printed_command_line_names_the_word_file(tmp_path):
    settings = LabSettings(steps=7)
    argv = command_line(settings, tmp_path / "my words.txt", build_vocab=True).split(" --steps")[0]
    assert argv == f"python -m mlp_ref.labs.charlm --words '{tmp_path / 'my words.txt'}' --build-vocab"
    assert "--words" not in command_line(settings)


# --- the speed comparison of the page and of make bench -------------------------------

def test_step_timer_runs_every_runner_and_names_bad_input():
    from mlp_ref.labs.charlm.speed import median_step_times, numpy_runner

    rng = np.random.default_rng(0)
    X, Y = rng.integers(0, 27, (256, 3)), rng.integers(0, 27, 256)
    config = CharMLPConfig(27, 3, 4, 8)
    calls = []

    def counting(steps):
        calls.append(steps)

    times = median_step_times([numpy_runner(config, X, Y), counting], steps=2, repeats=3)
    assert len(times) == 2 and times[0] > 0 and calls == [2, 2, 2, 2]  # warm-up, then 3 timed runs
    with pytest.raises(ValueError, match=r"X, Y: expected shapes .* N >= 256, received \(255, 3\)"):
        numpy_runner(config, X[:255], Y[:255])
    with pytest.raises(ValueError, match="repeats: expected a positive integer, received 0"):
        median_step_times([counting], steps=2, repeats=0)


def test_lab_b_settings_cell_is_plain_assignments_of_the_defaults():
    """The build checks this too (MLP_SITE_BUILD); this test says it without building the site."""
    values = pagekit.first_code_cell(ROOT / "docs" / "labs" / "charlm.py")
    settings = LabSettings(steps=values["STEPS"], seed=values["SEED"], n_seeds=values["SEEDS"],
                           context=values["CONTEXT"], emb_dim=values["EMBEDDING"], hidden=values["HIDDEN"],
                           batch_size=values["BATCH_SIZE"], lr=values["LEARNING_RATE"],
                           momentum=values["BN_MOMENTUM"], alpha=values["ALPHA"], n_samples=values["SAMPLES"])
    assert settings == LabSettings()
    assert values["WORDS_FILE"] is None and values["BUILD_VOCAB"] is False and len(values) == 13
