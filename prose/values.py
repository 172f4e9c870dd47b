"""Numbers that the pages' prose says, computed: the values behind ``{@ ... @}``.

Prose, captions and alt text never type a derived number. A page writes
``{@ l6.qwen_ffn_coeff @}`` and the build (mkdocs-macros-plugin, configured in
``mkdocs.yml`` with the delimiters ``{@ ... @}`` so that nothing else on a page is read as
a template) puts the value computed here in its place. The lab notebooks use the same
expressions in their Markdown cells; ``mlp_site.prose_notebooks`` puts the values into the
lab pages and into the downloaded notebooks.

One namespace per page (``home``, ``l1`` … ``l8``, ``lab_a``, ``lab_b``), each value a
string exactly as the prose reads it (formatted here, once). Values come from ``mlp_ref``
and from the labs' settings; pages and this module import ``mlp_ref``, never the reverse.
Everything here is cheap (no training run): the module is evaluated at every build and by
``tests/test_prose_numbers.py``.

A typed number that is an input rather than a result (a fixture value, a published
constant, a year) is declared instead, in ``prose/inputs/<page>.yml``.
"""

from __future__ import annotations

import inspect
import math
import re
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

import mlp_ref
from mlp_ref.labs.charlm.experiment import CharLMSettings
from mlp_ref.labs.charlm.data import split_words
from mlp_ref.course.i18n import language, ru_plural
from mlp_ref.course.tables import format_count, format_number
from mlp_ref.course.trace import trace
from mlp_ref.labs.digits.experiment import LATE_EPOCHS, PARITY_TOLERANCE, DigitsSettings


def _number(x) -> str:
    """A whole number as an integer, anything else with the fewest decimals that say it exactly (up to 4)."""
    x = float(x)
    if abs(x - round(x)) < 1e-9:  # whole, up to float rounding (1 - 0.8 - 0.1 is not exactly 0.1)
        return format_count(int(round(x)))
    for decimals in range(1, 5):
        if abs(round(x, decimals) - x) < 1e-9:
            return format_number(x, decimals)
    return format_number(x, 4)


WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")


def _word(n: int) -> str:
    """A small count as a word ("three"), as English prose writes it; larger ones, and every
    count of the Russian edition (whose words change with case and gender), as digits."""
    return WORDS[n] if 0 <= n < len(WORDS) and language() == "en" else format_count(n)


#: Words read per minute: the average silent-reading rate of adults for English non-fiction in
#: M. Brysbaert, "How many words do we read per minute? A review and meta-analysis of reading
#: rate", Journal of Memory and Language 109, 104047 (2019). An input, said once, from here.
READING_WPM = 238


def _reading_words(text: str) -> int:
    """The words of a page's Markdown that a reader reads as text: outside code fences and HTML
    comments, each ``{@ ... @}`` counted as one word."""
    import re

    text = re.sub(r"<!--.*?-->", " ", text, flags=re.DOTALL)
    text = re.sub(r"\{@.*?@\}", "N", text, flags=re.DOTALL)
    words, fence = 0, None
    for line in text.split("\n"):
        opening = re.match(r"\s*(`{3,}|~{3,})", line)
        if fence is None and opening:
            fence = opening[1]
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
        else:
            words += len(line.split())
    return words


def home() -> dict:
    from pathlib import Path

    # The English pages: a Russian twin (``x.ru.md``, ``x.ru.py``) is the same lesson, not another
    # one, and the reading rate below is English prose's (the Russian home page says so).
    docs = Path(__file__).resolve().parent.parent / "docs"
    lessons = sorted(p for p in (docs / "lessons").glob("*.md") if ".ru." not in p.name)
    labs = sorted(p for p in (docs / "labs").glob("*.py") if ".ru." not in p.name)
    minutes = [_reading_words(p.read_text(encoding="utf-8")) / READING_WPM for p in lessons]
    return {
        "lessons": _word(len(lessons)),                        # "Eight lessons"
        "labs": _word(len(labs)),                              # "then two labs"
        "reading_wpm": _number(READING_WPM),                   # "at 238 words a minute"
        "reading_min": _number(math.floor(min(minutes))),      # "each 5 to 16 minutes of reading"
        "reading_max": _number(math.ceil(max(minutes))),
    }


def l1() -> dict:
    return {}


def _tuple(values) -> str:
    """A row of numbers as the prose writes a point: "(2, 1)"."""
    return "(" + ", ".join(_number(v) for v in values) + ")"


def _xor_231(b1, w2, b2) -> mlp_ref.MLP:
    """Lesson 2's 2-3-1 network: W1 all ones (2, 3), ReLU hidden, sigmoid output."""
    return mlp_ref.MLP.from_arrays([np.ones((2, 3)), np.array(w2, dtype=float).reshape(3, 1)],
                                   [np.array(b1, dtype=float), np.array([b2], dtype=float)],
                                   activation="relu", output="sigmoid")


def l2() -> dict:
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])  # XOR's corners, (4, 2)
    y = np.array([0, 1, 1, 0])
    # SYLLABUS's 2-2-1 network: h1 = relu(x1 + x2), h2 = relu(x1 + x2 - 1), y = h1 - 2 h2
    net = mlp_ref.MLP.from_arrays([np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([[1.0], [-2.0]])],
                                  [np.array([0.0, -1.0]), np.array([0.0])],
                                  activation="relu", output="identity")
    out, cache = net.forward(X, keep_cache=True)
    H = cache.activations[1]
    sums = X.sum(axis=1)

    def along_sum(model, s):
        """The model's output (logit) at x = (s, 0), which depends on x1 + x2 only."""
        points = np.stack([np.asarray(s, dtype=float), np.zeros(np.size(s))], axis=1)
        return model.logits(points)[:, 0]

    # The 2-2-1 output is a tent in s, linear between the hidden units' thresholds -b1/w.
    knots = np.unique(np.append(-net.biases[0] / net.weights[0][0], sums.max()))
    tent = along_sum(net, knots)
    peak = int(np.argmax(tent))
    threshold = 0.5  # an output is read at 1/2
    band = (np.interp(threshold, tent[:peak + 1], knots[:peak + 1]),
            np.interp(threshold, tent[peak:][::-1], knots[peak:][::-1]))

    claimed = _xor_231([0.5, -0.5, -1.5], [1, -2, 1], -0.5)   # SYLLABUS's claimed solver
    fixed = _xor_231([0.0, -1.0, -2.0], [4, -8, 4], -2.0)     # the page's fix with margin
    ramps = -claimed.biases[0] / claimed.weights[0][0]        # where each hidden ramp starts
    p = claimed.forward(X)[:, 0]
    _, claimed_cache = claimed.forward(X, keep_cache=True)
    _, fixed_cache = fixed.forward(X, keep_cache=True)
    scale = fixed.weights[1][:, 0] / claimed.weights[1][:, 0]  # fixed W2 = c (1, -2, 1)
    assert np.allclose(scale, scale[0])
    tolerance = 0.01                                           # exercise 3's "within 0.01"
    sizes = (784, 16, 784)                                     # exercise 4's stack
    # The perceptron rule from zero weights on AND (separable) and XOR (not), as the page runs it
    run_and = mlp_ref.train_perceptron(X, [0, 0, 0, 1], max_epochs=100)
    # Novikoff's bound for the separating unit x1 + x2 > 1.5, every corner with a 1 appended
    u = np.array([1.0, 1.0, -1.5])                            # (w, b), appended
    X1 = np.column_stack([X, np.ones(len(X))])                # (4, 3)
    r2, closest = float(np.max(np.sum(X1**2, axis=1))), float(np.min(np.abs(X1 @ u)))
    gamma = closest / float(np.linalg.norm(u))
    bound = mlp_ref.mistake_bound(X, [0, 0, 0, 1], u[:2], u[2])
    assert math.isclose(bound, r2 / gamma**2) and run_and.updates <= bound
    run_xor = mlp_ref.train_perceptron(X, y, max_epochs=100)
    first, length = run_xor.cycle
    assert run_xor.never_converges
    cycle_mistakes = sorted(set(run_xor.errors[first - 1:first - 1 + length]))
    return {
        "corner_sums": ", ".join(_number(s) for s in sums),                 # "0, 1, 1, 2"
        "hidden_shape": ", ".join(map(str, H.shape)),                       # H (4, 2)
        "out_shape": ", ".join(map(str, out.shape)),                        # y (4, 1)
        "tent_peak": _number(tent[peak]),                                   # "rises to 1"
        "tent_peak_s": _number(knots[peak]),                                # "at s = 1"
        "tent_end": _number(tent[-1]),                                      # "falls back to 0"
        "tent_end_s": _number(knots[-1]),                                   # "at s = 2"
        "band_low": _number(band[0]),                                       # "0.5 < x1 + x2"
        "band_high": _number(band[1]),                                      # "x1 + x2 < 1.5"
        "hidden_00": _tuple(H[0]),                                          # (0,0) lands on (0, 0)
        "hidden_01": _tuple(H[1]),                                          # (0,1), (1,0) land on (1, 0)
        "hidden_11": _tuple(H[3]),                                          # (1,1) lands on (2, 1)
        "claimed_ramps": ", ".join(_number(r) for r in ramps),              # "s = -0.5, 0.5, 1.5"
        "claimed_peak_s": _number(ramps[np.argmax(along_sum(claimed, ramps))]),  # "peaks at s = 0.5"
        "claimed_right_ge": _word(int(np.sum((p >= threshold) == y))),      # "three of four"
        "claimed_hidden_points": _word(len(np.unique(claimed_cache.activations[1], axis=0))),
        "other_corners": _word(len(X) - 1),                                 # "the other three corners"
        "fixed_hidden": ", ".join(_tuple(h) for h in fixed_cache.activations[1]),
        "fixed_scale": _number(scale[0]),                                   # "the fix used c = 4"
        "target_p": _number(1 - tolerance),                                 # "0.99"
        "target_odds": _number((1 - tolerance) / tolerance),                # "ln 99"
        "rank_bound": _number(min(sizes)),                                  # "at most 16"
        "perc_and_epochs": _number(run_and.epochs),                         # "6 epochs"
        "perc_and_updates": _number(run_and.updates),                       # "10 updates"
        "perc_and_w": _tuple(run_and.w),                                    # "w = (2, 1)"
        "perc_and_b": _number(run_and.b).replace("-", "−"),                 # "b = −2"
        "perc_and_R2": _number(r2),                                         # "R² = 3"
        "perc_and_u2": _number(float(u @ u)),                               # "‖u‖² = 4.25"
        "perc_and_closest": _number(closest),                               # "|w·x + b| = 0.5"
        "perc_and_gamma": format_number(gamma, 4),                          # "γ = 0.2425"
        "perc_and_bound": _number(bound),                                   # "(R/γ)² = 51"
        "perc_xor_cycle_start": _number(first),                             # "the start of epoch 3"
        "perc_xor_cycle_end": _number(first + length - 1),                  # "the end of epoch 3"
        "perc_xor_cycle_len": "every epoch" if length == 1 else f"every {_word(length)} epochs",
        "perc_xor_cycle_mistakes": " or ".join(_word(m) for m in cycle_mistakes),   # "four"
        # the Russian page's forms of the two above: a count, and the mistakes joined by "или"
        "perc_xor_cycle_len_n": _number(length),                            # "циклом длиной в 1 эпоху"
        "perc_xor_cycle_mistakes_n": " или ".join(_number(m) for m in cycle_mistakes),  # "4"
    }


def l3() -> dict:
    import ast
    from pathlib import Path

    # SYLLABUS's 2-2-1 network, its single example and its batch of four
    net = mlp_ref.MLP.from_arrays([np.array([[0.1, 0.2], [0.3, 0.4]]), np.array([[0.5], [0.6]])],
                                  [np.array([0.1, 0.1]), np.array([0.2])], activation="relu", output="sigmoid")
    x = np.array([1.0, 2.0])
    X = np.array([[1.0, 2.0], [0.5, 0.5], [-1.0, 0.3], [2.0, -1.5]])
    _, cache = net.forward(X, keep_cache=True)
    Z1 = cache.pre_activations[0]
    barely = 0.1  # the page's "barely on": positive but below 0.1
    barely_rows = [i + 1 for i, z in enumerate(Z1) if np.all(z > 0) and z.min() < barely]
    dead_rows = [i + 1 for i, z in enumerate(Z1) if np.all(z <= 0)]
    single_rows = [i + 1 for i, row in enumerate(X) if np.array_equal(row, x)]
    assert len(barely_rows) == len(dead_rows) == len(single_rows) == 1
    # SYLLABUS's softmax fixture: its logits, and the same logits shifted (check-yourself 5)
    softmax_net = mlp_ref.MLP.from_arrays([np.array([[1.0, -1.0], [2.0, 1.0]]), np.array([[1.0, 0.0], [-1.0, 2.0]])],
                                          [np.array([0.0, 1.0]), np.array([0.0, 0.0])],
                                          activation="relu", output="softmax")
    logits = softmax_net.logits(x[None, :])[0]
    shift = 100
    gap = logits[1] - logits[0]
    # exercise 3: [784, 256, 10], softmax head, B = 64; check-yourself 1: (B, 784) into 128 units
    _, ex3 = mlp_ref.MLP([784, 256, 10], output="softmax", seed=0).forward(np.zeros((64, 784)), keep_cache=True)
    first = mlp_ref.MLP([784, 128], seed=0)
    starter = Path(__file__).resolve().parent.parent / "docs" / "exercises" / "lesson03-forward-pass" / "forward.py"
    to_write = [node.name for node in ast.parse(starter.read_text(encoding="utf-8")).body
                if isinstance(node, ast.FunctionDef) and "NotImplementedError" in ast.unparse(node)]
    shape = lambda s: ", ".join(map(str, s))  # noqa: E731
    return {
        "steps": _word(len(trace(net, x[None, :])) - 1),   # "four lines", "four steps"
        "barely_row": _number(barely_rows[0]),                        # "Row 3"
        "dead_row": _number(dead_rows[0]),                            # "Row 4"
        "single_row": _number(single_rows[0]),                        # "Row 1 is the single example"
        "logits": ", ".join(_number(z) for z in logits),              # "(3, 4)"
        "shifted_logits": ", ".join(_number(z + shift) for z in logits),  # "(103, 104)"
        "logit_gap": _number(gap),                                    # "sigma(1)", "which is 1"
        "logit_gap_word": _word(int(round(gap))),                     # "differ by one"
        "ex3_X": shape(ex3.activations[0].shape),                     # "(64, 784)"
        "ex3_hidden": shape(ex3.activations[1].shape),                # "(64, 256)"
        "ex3_out": shape(ex3.activations[2].shape),                   # "(64, 10)"
        "cy_W1": shape(first.weights[0].shape),                       # "(784, 128)"
        "cy_b1": shape(first.biases[0].shape) + ",",                  # "(128,)"
        "cy_width": _number(first.sizes[1]),                          # "(B, 128)"
        "starter_functions": _word(len(to_write)),                    # "the three functions"
    }


def l4() -> dict:
    z_points = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])  # SYLLABUS fixture: the table's points
    peak = {name: float(mlp_ref.get_activation(name)[1](np.array([0.0]))[0]) for name in ("sigmoid", "tanh")}
    sig_peak = Fraction(peak["sigmoid"]).limit_denominator(100)                 # σ'(0) = 1/4
    chain = 2 * 2  # tanh(z) = 2σ(2z) − 1: the outer factor 2 and the inner 2z
    assert math.isclose(chain * peak["sigmoid"], peak["tanh"])                  # the bound is reached at z = 0
    big = mlp_ref.softmax(np.array([[1000.0, -1000.0]]))[0]                     # the page's logits (1000, −1000)
    # the confidently wrong example of the Code: logit −10, target 1, tanh head with squared error
    tanh_mse = float(mlp_ref.head_loss_grad(np.array([[-10.0]]), np.array([[1.0]]), "tanh", "mse")[0, 0])
    tanh_mse_m, tanh_mse_e = f"{tanh_mse:.1e}".split("e")
    assert abs(tanh_mse) < 1e-6   # "vanishes when the tanh saturates"
    return {
        "n_points": _number(len(z_points)),                  # "z of shape (5,)"
        "sig_peak_inv": _number(1 / sig_peak),               # "at most 4^-L", "σ'(0) = 1/4"
        "tanh_peak": _number(peak["tanh"]),                  # "tanh's is 1 there"
        "tanh_chain": _number(chain),                        # "2 · 2 σ'(2z) = 4 σ'(2z)"
        "softmax_big": _tuple(big),                          # "softmax(1000, −1000) rounds to (1, 0)"
        "softmax_loser": _number(big[1]),                    # "underflows to an exact 0"
        "prelu_init": _number(mlp_ref.PRELU_INIT),           # "start every slope at a = 0.25"
        "tanh_mse_m": tanh_mse_m.replace("-", "−"),          # "−3.3 · 10^−8"
        "tanh_mse_e": str(int(tanh_mse_e)).replace("-", "−"),
    }


def l5() -> dict:
    line = mlp_ref.LineFit.of([1.0, 2.0, 3.0], [2.0, 3.0, 7.0])   # the page's three points
    lr, w0 = 0.08, 0.0                                              # its "about right" rate, from 0
    w1 = w0 - lr * float(line.grad(w0))
    # lesson 3's 2-2-1 network on x = (1, 2) with the target 0 (the trace) and 1 (exercise 1)
    net = mlp_ref.MLP.from_arrays([np.array([[0.1, 0.2], [0.3, 0.4]]), np.array([[0.5], [0.6]])],
                                  [np.array([0.1, 0.1]), np.array([0.2])], activation="relu", output="sigmoid")
    x = np.array([[1.0, 2.0]])
    loss0, _ = net.loss_and_grads(x, np.array([0.0]))
    _, grads1 = net.loss_and_grads(x, np.array([1.0]))
    # the 784 net's multiply-adds at B = 32 (the page's table)
    big = mlp_ref.MLP([784, 128, 64, 10], output="softmax", seed=0)
    counts = mlp_ref.count_multiply_adds(big, np.zeros((32, 784)), np.arange(32) % 10)
    first = counts.forward[0]
    first_share = first[0][0] * first[0][1] * first[1][1] / counts.forward_total
    study = mlp_ref.XOR_STUDY
    dead = Fraction(1, 2) ** 2            # both weights of a unit negative, each with probability 1/2
    # the page's one step with lr 0.5 on the target 0: both hidden units end off for this input
    stepped = net.copy()
    mlp_ref.sgd_step(stepped, net.loss_and_grads(x, np.array([0.0]))[1], 0.5)
    z1_after = stepped.forward(x, keep_cache=True)[1].pre_activations[0][0]
    assert np.all(z1_after < 0)                                       # "both are negative"
    y_hat_after = float(stepped.forward(x)[0, 0])
    assert math.isclose(y_hat_after, float(mlp_ref.sigmoid(stepped.biases[1])[0]), rel_tol=1e-12)  # = sigma(b2)
    # where the logit's fall came from: the hidden units' share a1 W2 (gone once both are off) and b2's own step
    cache = net.forward(x, keep_cache=True)[1]
    logit_before = float(cache.pre_activations[-1][0, 0])
    hidden_part = float((cache.activations[1] @ net.weights[1])[0, 0])
    b2_fall = float(net.biases[1][0] - stepped.biases[1][0])
    logit_after = float(stepped.biases[1][0])
    assert math.isclose(logit_before - logit_after, hidden_part + b2_fall, rel_tol=1e-12)
    assert hidden_part > b2_fall > 0                                  # "most of it ... the rest"
    # "Why float64": the float32 difference quotient of dW1 moves in steps of one float32 spacing
    # of the loss divided by 2 eps
    eps = 1e-6
    dW1 = net.loss_and_grads(x, np.array([0.0]))[1].weights[0]
    f32 = mlp_ref.MLP.from_arrays(net.weights, net.biases, activation="relu", output="sigmoid", dtype=np.float32)
    x32, y32 = x.astype(np.float32), np.array([[0.0]], dtype=np.float32)

    def loss32():
        _, c = f32.forward(x32, keep_cache=True)
        return float(f32.loss_and_delta(c.pre_activations[-1], y32)[0])

    assert 1 <= loss0 < 2                               # "float32 keeps 23 bits after the point between 1 and 2"
    f32_step = float(np.spacing(np.float32(loss0))) / (2 * eps)
    f32_miss = float(np.abs(mlp_ref.central_difference(loss32, f32.weights[0], eps=eps) - dW1).max())
    assert 0.5 * f32_step < f32_miss < 2 * f32_step     # "an error of the size of that step" (it varies by machine)
    assert f32_step / np.abs(dW1).max() > 0.02          # "several per cent" of the largest gradient
    return {
        "curvature": _number(line.curvature),                 # "L'' = 9.3333"
        "best_w": _number(line.best),                          # "w* = 2.0714"
        "grad0": _number(float(line.grad(w0))),                # "L'(0) = -19.3333"
        "w1": _number(w1),                                     # "w1 = 1.5467"
        "loss0": _number(float(line.loss(w0))),                # "from 20.6667"
        "loss1": _number(float(line.loss(w1))),
        "critical_lr": _number(line.critical_lr),              # "2 / L'' = 0.2143"
        "newton_lr": _number(1 / line.curvature),              # exercise 2: "1 / L''"
        "z1": ", ".join(_number(z) for z in net.forward(x, keep_cache=True)[1].pre_activations[0][0]),  # "(0.8, 1.1)"
        "y_hat": _number(net.forward(x)[0, 0]),                # "ŷ = 0.779"
        "loss_before": _number(loss0),                         # "-log(1 - ŷ) = 1.5097"
        "ex1_delta2": _number(grads1.biases[1][0]),            # exercise 1: "δ2 = ŷ - 1"
        "mac_ratio": format_number(counts.ratio, 2),           # "The ratio is 1.08"
        "first_share": format_number(100 * first_share, 0),   # "holds 92 %"
        "xor_seeds": _number(study.n_seeds),                   # "from 200 seeds"
        "xor_widths": ", ".join(_number(h) for h in study.widths),
        "xor_lr": _number(study.lr),
        "xor_steps": format_count(study.steps),
        "dead_num": _number(dead.numerator),                   # "probability 1/4"
        "dead_den": _number(dead.denominator),
        "alive_num": _number((1 - dead).numerator),            # "1 - (3/4)^h"
        "alive_den": _number((1 - dead).denominator),
        "z1_after": ", ".join(_number(z).replace("-", "−") for z in z1_after),  # "−0.3685, −0.3022"
        "y_hat_after": _number(y_hat_after),                  # "ŷ = σ(b2) = 0.4528"
        "logit_before": _number(logit_before).replace("-", "−"),  # "the logit fell from 1.26 ..."
        "logit_after": _number(logit_after).replace("-", "−"),    # "... to −0.1895"
        "hidden_part": _number(hidden_part),                  # "1.06 of it: the hidden units' share"
        "b2_fall": _number(b2_fall),                          # "0.3895: b2's own step"
        "f32_step": format_number(f32_step, 2),               # "one such step is 0.06"
        "f32_miss": format_number(f32_miss, 2),               # "miss by up to 0.08"
        "grad_min": format_number(np.abs(dW1).min(), 2),      # "gradients between 0.39 and 0.93"
        "grad_max": format_number(np.abs(dW1).max(), 2),
    }


def _times(n) -> str:
    """A whole ratio as prose says it: "twice", "three times"."""
    n = int(n)
    return "twice" if n == 2 else f"{_word(n)} times"


def _fraction_words(f: Fraction) -> str:
    """A simple fraction in words: "two thirds", "a third", "a quarter"."""
    names = {2: "half", 3: "third", 4: "quarter", 5: "fifth", 6: "sixth"}
    if f.denominator not in names or f.numerator >= f.denominator:
        raise ValueError(f"no words for {f}")
    if f.numerator == 1:
        return "a " + names[f.denominator]
    return f"{_word(f.numerator)} {names[f.denominator]}s"


def l6() -> dict:
    d, heads, head_dim, inner = 1024, 16, 128, 3072  # Qwen3-0.6B's published configuration
    # The classic block, at the Transformer base's published width and heads (the
    # coefficients do not depend on them): FFN d -> 4d -> d and four (d, d) projections.
    base_d, base_heads = 512, 8
    ffn = mlp_ref.ffn_params(base_d, bias=False)
    attn = mlp_ref.attention_params(base_d, base_heads)
    ffn_coeff = Fraction(ffn, base_d**2)                                               # 8 (d²)
    attn_coeff = Fraction(attn, base_d**2)                                             # 4 (d²)
    ffn_bias = Fraction(mlp_ref.ffn_params(base_d, bias=True) - ffn, base_d)           # 5 (d)
    attn_bias = Fraction(mlp_ref.attention_params(base_d, base_heads, bias=True) - attn, base_d)  # 4 (d)
    wide = 4 * base_d                                                                  # h = 4d
    gated_coeff = Fraction(mlp_ref.gated_ffn_params(base_d, wide), base_d * wide)      # 3 (d h)
    gated_wide = Fraction(mlp_ref.gated_ffn_params(base_d, wide), base_d**2)           # 12 (d²) at h = 4d
    h_coeff = ffn_coeff / gated_coeff                                                  # 8/3 (d)
    share = ffn_coeff / (ffn_coeff + attn_coeff)                                       # 2/3
    # GPT-2 small, as the page's table (mlp_ref.gpt2_small) counts it.
    gpt2 = mlp_ref.gpt2_small()
    g_d, g_ff, g_heads = 768, 3072, 12                                                 # its published configuration
    g_ffn = mlp_ref.ffn_params(g_d, g_ff, bias=True)                                   # one block, as the page's block
    g_block = g_ffn + mlp_ref.attention_params(g_d, g_heads, bias=True) + 2 * 2 * g_d  # + two LayerNorms (scale, shift)
    g_embed = gpt2["token embedding (tied with output)"].count
    assert gpt2["FFN 768 -> 3072 -> 768 with biases"].count < gpt2.total / 2          # "less than half of the model"
    # Doubling both sides of W2 in [784, 128, 64, 10] (the page's doubling table).
    w2_growth = (mlp_ref.layer_table([784, 256, 128, 10])[1].weights
                 // mlp_ref.layer_table([784, 128, 64, 10])[1].weights)
    llama_h = mlp_ref.swiglu_hidden(4096)
    assert llama_h == 11_008                                                           # LLaMA-7B's published inner width
    ds_layers, ds_dense = 61, 3                                                        # DeepSeek-V3's published configuration
    ex1 = mlp_ref.layer_table([2, 3, 1])                                               # exercise 1
    ex2 = max(mlp_ref.layer_table([784, 512, 256, 10]), key=lambda row: row.total)     # exercise 2
    q1 = mlp_ref.layer_table([100, 50])[0]                                             # check yourself 1
    return {
        "qwen_q_width": _number(heads * head_dim / d),                       # "2d wide"
        "qwen_inner_coeff": _number(inner / d),                              # "h = 3072 = 3d"
        "qwen_ffn_coeff": _number(mlp_ref.gated_ffn_params(d, inner) / d**2),  # "spends 9d²"
        "qwen_q_dim": str(heads * head_dim),                                 # "n_q h_d = 2048" (math: no comma)
        "ffn_coeff": _number(ffn_coeff),                                     # "8d²"
        "attn_coeff": _number(attn_coeff),                                   # "4d²"
        "ffn_bias_coeff": _number(ffn_bias),                                 # "+ 5d"
        "attn_bias_coeff": _number(attn_bias),                               # "4d biases"
        "ffn_over_attn": _times(ffn_coeff / attn_coeff),                     # "twice as many weights"
        "ffn_over_attn_n": _number(ffn_coeff / attn_coeff),                  # Russian: "в 2 раза больше весов"
        "share_num": _number(share.numerator),                               # "= 2/3"
        "share_den": _number(share.denominator),
        "share_words": _fraction_words(share),                               # "two thirds"
        "gated_coeff": _number(gated_coeff),                                 # "3dh"
        "h_num": _number(h_coeff.numerator),                                 # "h = 8d/3"
        "h_den": _number(h_coeff.denominator),
        "gated_wide_coeff": _number(gated_wide),                             # "12d² at h = 4d"
        "gpt2_ff_coeff": _number(Fraction(g_ff, g_d)),                       # "3072 = 4d"
        "gpt2_block_ffn": _fraction_words(Fraction(g_ffn, g_block).limit_denominator(4)),   # "about two thirds"
        "gpt2_embed": _fraction_words(Fraction(g_embed, gpt2.total).limit_denominator(4)),  # "close to a third"
        "gpt2_block_ffn_frac": str(Fraction(g_ffn, g_block).limit_denominator(4)),         # Russian: "около 2/3"
        "gpt2_embed_frac": str(Fraction(g_embed, gpt2.total).limit_denominator(4)),         # Russian: "почти 1/3"
        "w2_growth": _word(w2_growth),                                       # "W2 four times larger"
        "llama_h": format_count(llama_h),                                    # "11,008"
        "ds_moe_layers": _number(ds_layers - ds_dense),                      # "the other 58"
        "ex1_w1": _number(ex1[0].weights), "ex1_b1": _number(ex1[0].biases),
        "ex1_w2": _number(ex1[1].weights), "ex1_b2": _number(ex1[1].biases),
        "ex2_d_in": _number(ex2.d_in), "ex2_d_out": _number(ex2.d_out),     # "here 784 and 512"
        "q1_biases": _number(q1.biases),                                     # "plus 50 biases"
    }


def l7() -> dict:
    factor, layers = 1.1, 100  # the quiz question's per-layer factor and depth
    growth = factor ** layers
    depth = 50                 # the figure's and exercise 4's stack: 50 layers
    small_grad = inspect.signature(mlp_ref.layer_statistics).parameters["small_grad"].default
    relu_gain_sq = round(mlp_ref.kaiming_gain("relu") ** 2, 12)                         # He: gain √2
    torch_default = Fraction(1, 3) / Fraction(relu_gain_sq).limit_denominator(10)        # 1/(3n) against 2/n
    tanh_flat = next(z for z in range(1, 10) if 1 - math.tanh(z) ** 2 < small_grad)      # tanh' below the threshold
    fan_in, fan_out = 300, 100  # exercise 1's tanh layer
    return {
        "growth": format_count(int(growth)),
        "growth_pow2": _number(math.floor(math.log2(growth))),  # "more than 2^13"
        "steps": _number(depth - 1),                            # "over 49 layers": the factors from layer 1 to 50
        "small_grad": _number(small_grad),                      # "derivative below 0.1"
        "tanh_sat_sq": _number(1 - small_grad),                 # "|tanh z| > sqrt(0.9)"
        "relu_gain_sq": _number(relu_gain_sq),                  # "a factor sqrt 2 in the gain is a factor 2"
        "torch_share": _fraction_words(torch_default),          # "a sixth of He's"
        "torch_share_frac": str(torch_default),                 # Russian: "1/6 от дисперсии He"
        "leaky_identity_gain": _number(mlp_ref.kaiming_gain("leaky_relu", 1.0)),  # "s = 1 ... it is 1"
        "tanh_flat": _number(tanh_flat),                        # "beyond |z| ≈ 2"
        "ex_fan_sum": _number(fan_in + fan_out),                # "sqrt(2/400)"
    }


def l8() -> dict:
    def params(net) -> int:  # counted from the network's own arrays
        return sum(W.size + b.size for W, b in zip(net.weights, net.biases))

    def linear_in(count, n):  # (slope, intercept) of a count that is linear in n, read off n = 1, 2
        slope = count(2) - count(1)
        assert count(n) == slope * n + count(1) - slope
        return slope, count(1) - slope

    sin_net = lambda k: mlp_ref.relu_interpolant(np.sin, 0.0, np.pi, k)  # noqa: E731
    sin_slope, sin_const = linear_in(lambda k: params(sin_net(k)), 7)      # 3k + 1
    tent_slope, tent_const = linear_in(lambda L: params(mlp_ref.tent_network(L)), 7)  # 6L + 1
    bound = lambda k: (np.pi / k) ** 2 / 8  # noqa: E731  the interpolation bound h²/8 for sin
    trace_width, deep_L = 4, 5  # the worked trace's 1 -> 4 -> 1; the 'same parameters' example's L = 5
    wide_units, rest = divmod(params(mlp_ref.tent_network(deep_L)) - sin_const, sin_slope)
    assert rest == 0
    return {
        "sin_slope": _number(sin_slope),                       # "3k + 1 parameters"
        "sin_const": _number(sin_const),
        "tent_slope": _number(tent_slope),                     # "6L + 1 parameters"
        "tent_slope_word": _word(tent_slope),                  # "grows by six parameters"
        "tent_const": _number(tent_const),
        "bound_ratio": _number(bound(8) / bound(16)),          # "doubling k divides the bound by 4"
        "trace_knots": _number(sin_net(trace_width).weights[0].shape[1] + 1),  # "through 5 knots"
        "wide_units": _number(wide_units),                     # "a 1 -> 10 -> 1 network, same parameters"
        "tent_low": _number(mlp_ref.tent(0.0)),                # "rises from 0 to 1"
        "tent_peak": _number(mlp_ref.tent(0.5)),
    }


def l9() -> dict:
    counts = l6()  # the counts lesson 6 derives, said again on this page
    d, d_ff = 512, 2048  # the original Transformer's published d and d_ff
    return {
        "ffn_coeff": counts["ffn_coeff"],              # "8d²"
        "attn_coeff": counts["attn_coeff"],            # "4d²"
        "gated_coeff": counts["gated_coeff"],          # "3dh"
        "h_num": counts["h_num"],                      # "h ≈ 8d/3"
        "h_den": counts["h_den"],
        "base_ff_coeff": _number(Fraction(d_ff, d)),  # "d_ff = 2048 = 4d"
    }


def lab_a() -> dict:
    import dataclasses

    from mlp_ref.labs.digits.data import Splits

    settings = DigitsSettings()
    parts = [f.name for f in dataclasses.fields(Splits) if f.name.endswith("_idx")]  # train, val, test
    return {
        "split_parts": _word(len(parts)),                 # "split three ways"
        "split_calls": _times(len(parts) - 1),            # train_test_split "twice": k parts, k - 1 cuts
        "split_calls_n": _number(len(parts) - 1),         # the same as a number, for Russian ("2 раза")
        "late_epochs": _word(LATE_EPOCHS),                # "within the last five epochs"

        "parity_points": _number(100 * PARITY_TOLERANCE),  # "within 2 points"
        "mnist_val": format_count(settings.mnist_val),      # "(10,000)"
        "epochs": _number(settings.epochs),
        "batch_size": _number(settings.batch_size),
        "lr": _number(settings.lr),
        "seed": _number(settings.seed),
        "seeds": _word(settings.n_seeds),
        "seed_last": _number(settings.seed + settings.n_seeds - 1),
    }


def _fold(n) -> str:
    """A whole factor as an adverb: "tenfold", "threefold"."""
    return f"{_word(int(n))}fold"


def lab_b() -> dict:
    from mlp_ref.labs.charlm import speed as charlm_speed
    from mlp_ref.labs.charlm.model import LR_DROP
    from mlp_ref.labs.charlm.experiment import VARIANTS

    settings = CharLMSettings()
    train, val = inspect.signature(split_words).parameters["fractions"].default
    test = 1 - train - val
    long_factor = 5  # exercise 4's budget: five times the page's steps
    return {
        "context": _number(settings.context),                        # X (B, 3), E (B, 3, 10)
        "context_word": _word(settings.context),                     # "the last three letters"
        "emb": _number(settings.emb_dim),                            # C in R^{V x 10}, "10-dimensional"
        "fan_in": _number(settings.context * settings.emb_dim),      # x (B, 30), "a sum of 30 products"
        "variants": _word(len(VARIANTS)),                            # "Four MLP variants"
        "lr_drop": _fold(round(1 / LR_DROP)),                        # "drops tenfold halfway"
        "lr_drop_n": _number(round(1 / LR_DROP)),                    # the same as a number, for Russian ("в 10 раз")
        "speed_context": _number(charlm_speed.SPEED_CONTEXT),        # the speed timer's fixed sizes
        "speed_emb": _number(charlm_speed.SPEED_EMB),
        "speed_hidden": _number(charlm_speed.SPEED_HIDDEN),
        "speed_batch": _number(charlm_speed.STEP_BATCH),
        "speed_vocab": _number(charlm_speed.SPEED_VOCAB),            # "over 27 tokens"
        "long_factor": _word(long_factor),                           # "a budget five times larger"
        "long_steps": str(long_factor * settings.steps),             # "--steps 20000" (code: no comma)
        "seeds": _word(settings.n_seeds),                      # "three seeds"
        "other_windows": _number(settings.batch_size - 1),     # "31 other windows"
        "split_percent": " / ".join(_number(100 * f) for f in (train, val, test)),  # "80 / 10 / 10"
        "batch_size": _number(settings.batch_size),
    }


PAGES = {"home": home, "l1": l1, "l2": l2, "l3": l3, "l4": l4, "l5": l5, "l6": l6, "l7": l7, "l8": l8, "l9": l9,
         "lab_a": lab_a, "lab_b": lab_b}


def namespaces() -> dict[str, SimpleNamespace]:
    """Every page's values, as the templates see them (``l6.qwen_ffn_coeff``)."""
    return {name: SimpleNamespace(**make()) for name, make in PAGES.items()}


def counted(value: str, one: str, few: str, many: str) -> str:
    """A count said with the Russian noun that agrees with it: ``{@ l3.steps | counted("строка", "строки", "строк") @}``.

    ``value`` is a value of this module as the prose reads it (``"4"``, ``"101\u202f770"``); a
    fraction takes the form of 2–4 (``2.5 строки``), as Russian says it.
    """
    digits = value.replace(",", "").replace("\u202f", "")
    if re.fullmatch(r"-?\d+", digits):
        return f"{value} {ru_plural(int(digits), one, few, many)}"
    if re.fullmatch(r"-?\d+\.\d+", digits):
        return f"{value} {few}"
    raise ValueError(f"counted: expected a number, received {value!r}")


def define_env(env) -> None:
    """mkdocs-macros-plugin's entry point: every page's namespace becomes a template variable."""
    env.variables.update(namespaces())
    env.filter(counted)
