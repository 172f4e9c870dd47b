"""Lesson 2's figure, traces and tables: XOR before and after a hidden layer, and the perceptron rule;
the numbers its prose says (:func:`values`)."""

from __future__ import annotations

import functools
import math

import numpy as np

import mlp_ref
from mlp_ref.course.claims import claim
from mlp_ref.course.figures import PALETTE, figure_html, new_figure
from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_number, markdown_table
from mlp_ref.course.trace import trace
from mlp_ref.course.words import number, point, word
from mlp_ref.perceptron import mistake_bound, perceptron_predict, train_perceptron

X_XOR = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])   # the four corners, (4, 2)
Y_XOR = np.array([0, 1, 1, 0])                                       # XOR of each, (4,)
Y_AND = np.array([0, 0, 0, 1])                                       # AND of each, (4,)
SEPARATOR = (np.array([1.0, 1.0]), -1.5)   # a unit that separates AND: x1 + x2 > 1.5, its (w (2,), b)
# The 2-3-1 networks (ReLU hidden, sigmoid output) as (W, b, activation) per layer: the one claimed to
# solve XOR (SYLLABUS) and the page's fix, with a margin.
CLAIMED = [(np.ones((2, 3)), np.array([0.5, -0.5, -1.5]), "relu"),
           (np.array([[1.0], [-2.0], [1.0]]), np.array([-0.5]), "sigmoid")]
FIXED = [(np.ones((2, 3)), np.array([0.0, -1.0, -2.0]), "relu"),
         (np.array([[4.0], [-8.0], [4.0]]), np.array([-2.0]), "sigmoid")]


def _hidden_points() -> np.ndarray:
    """The hidden point (h1, h2) of each corner in the 2-2-1 network that solves XOR by hand, (4, 2)."""
    xor_net = mlp_ref.xor_by_hand()  # h1 = relu(x1 + x2), h2 = relu(x1 + x2 - 1), y = h1 - 2 h2
    _, cache = xor_net.forward(X_XOR, keep_cache=True)
    return cache.activations[1]


def _tent() -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    """The 2-2-1 network's output along s = x1 + x2, which it depends on alone: a tent, linear
    between the hidden units' thresholds -b1/w and the far corner's sum.

    Returns
    -------
    knots : ndarray, (3,)
        s at the thresholds and at the far corner.
    tent : ndarray, (3,)
        The output (logit) at x = (s, 0) for each knot.
    band : tuple of two floats
        Where the tent crosses 1/2, rising and falling: the band of s the output reads as 1.
    """
    xor_net = mlp_ref.xor_by_hand()
    knots = np.unique(np.append(-xor_net.biases[0] / xor_net.weights[0][0], X_XOR.sum(axis=1).max()))
    tent = xor_net.logits(np.stack([knots, np.zeros_like(knots)], axis=1))[:, 0]
    peak = int(np.argmax(tent))
    band = (float(np.interp(0.5, tent[:peak + 1], knots[:peak + 1])),
            float(np.interp(0.5, tent[peak:][::-1], knots[peak:][::-1])))
    return knots, tent, band


# The runs of the perceptron rule from zero weights on AND (separable) and XOR (not), which the
# tables show and the prose sums up: made once per build (their results are only read).
@functools.cache
def _run_and():
    return train_perceptron(X_XOR, Y_AND, max_epochs=100)


@functools.cache
def _run_xor():
    return train_perceptron(X_XOR, Y_XOR, max_epochs=100)


def _vector(v) -> str:
    """A vector as the perceptron tables write it: "(2, 1)"."""
    return "(" + ", ".join(format_number(a, 0) for a in v) + ")"


def xor_figure() -> str:
    """XOR's corners in input space (left) and in the hidden space of the 2-2-1 network (right).

    Returns
    -------
    str
        The figure as HTML (:func:`mlp_ref.course.figures.figure_html`).
    """
    H_xor = _hidden_points()   # (4, 2)
    fig, (ax_in, ax_hid) = new_figure(1, 2, figsize=(8.0, 3.8))
    fig.subplots_adjust(wspace=0.35)
    styles = {0: dict(marker="o", color=PALETTE[0], label="XOR = 0"),
              1: dict(marker="^", color=PALETTE[1], label="XOR = 1")}

    # Input space: where the network's output exceeds 1/2, a band of s = x1 + x2 (see _tent).
    _, _, band = _tent()
    s = np.linspace(-0.5, 1.5, 2)
    ax_in.fill_between(s, band[0] - s, band[1] - s, color=PALETTE[1], alpha=0.12, linewidth=0,
                       label=say("output > 1/2", ru="выход > 1/2"))
    for c in band:
        ax_in.plot(s, c - s, linestyle="--", color="0.35", linewidth=1.2)
    for label, style in styles.items():
        pts = X_XOR[Y_XOR == label]
        ax_in.scatter(pts[:, 0], pts[:, 1], s=70, zorder=3, **style)
    for (a, b) in X_XOR:
        ax_in.annotate(f"({a:.0f}, {b:.0f})", (a, b), textcoords="offset points", xytext=(-12, 9), fontsize=9)
    ax_in.set_xlim(-0.4, 1.5)
    ax_in.set_ylim(-0.4, 1.5)
    ax_in.set_aspect("equal")
    ax_in.set_xlabel(say("input x₁ (no unit)", ru="вход x₁"))
    ax_in.set_ylabel(say("input x₂ (no unit)", ru="вход x₂"))
    ax_in.set_title(say("input space", ru="пространство входов"), fontsize=11)

    # Hidden space: the line h1 - 2 h2 = 1/2 separates the classes.
    h1 = np.linspace(-0.3, 2.4, 2)
    ax_hid.fill_between(h1, -0.4, (h1 - 0.5) / 2, color=PALETTE[1], alpha=0.12, linewidth=0)
    ax_hid.plot(h1, (h1 - 0.5) / 2, linestyle="--", color="0.35", linewidth=1.2, label="h₁ − 2h₂ = 1/2")
    for label, style in styles.items():
        pts = H_xor[Y_XOR == label]
        ax_hid.scatter(pts[:, 0], pts[:, 1], s=70, zorder=3, **{k: v for k, v in style.items() if k != "label"})
    names = {(0.0, 0.0): say("from (0, 0)", ru="из (0, 0)"),
             (1.0, 0.0): say("from (0, 1) and (1, 0)", ru="из (0, 1) и (1, 0)"),
             (2.0, 1.0): say("from (1, 1)", ru="из (1, 1)")}
    for point, text in names.items():
        ax_hid.annotate(text, point, textcoords="offset points", xytext=(-10, 9), fontsize=9)
    ax_hid.set_xlim(-0.3, 2.4)
    ax_hid.set_ylim(-0.4, 1.5)
    ax_hid.set_xlabel(say("hidden unit h₁ (no unit)", ru="скрытый нейрон h₁"))
    ax_hid.set_ylabel(say("hidden unit h₂ (no unit)", ru="скрытый нейрон h₂"))
    ax_hid.set_title(say("hidden space", ru="скрытое пространство"), fontsize=11)

    handles, labels = ax_in.get_legend_handles_labels()
    h2_, l2_ = ax_hid.get_legend_handles_labels()
    fig.legend(handles + h2_, labels + l2_, loc="lower center", ncol=4, frameon=False, fontsize=9,
               bbox_to_anchor=(0.5, -0.08))
    point = lambda h: f"({h[0]:.0f},{h[1]:.0f})"  # noqa: E731  a hidden point as the alt text writes it
    return figure_html(
        fig,
        alt=say("Two scatter plots. Left, input space: the corners (0,0) and (1,1), marked with circles, "
                "are class 0; (0,1) and (1,0), marked with triangles, are class 1. A shaded band between "
                f"the dashed lines x1 + x2 = {band[0]:g} and x1 + x2 = {band[1]:g} contains exactly the two triangles. "
                f"Right, hidden space: (0,0) maps to {point(H_xor[0])}, both triangles map to the single point "
                f"{point(H_xor[1])}, and (1,1) maps to {point(H_xor[3])}. One dashed line, h1 − 2 h2 = 0.5, "
                "has the triangle point on its shaded side and both circles on the other.",
                ru="Две диаграммы рассеяния. Слева — пространство входов: углы (0,0) и (1,1), отмеченные кружками, "
                   "относятся к классу 0, а (0,1) и (1,0), отмеченные треугольниками, — к классу 1. Закрашенная полоса "
                   f"между пунктирными прямыми x1 + x2 = {band[0]:g} и x1 + x2 = {band[1]:g} содержит оба треугольника "
                   "и ничего больше. "
                   f"Справа — скрытое пространство: (0,0) переходит в {point(H_xor[0])}, оба треугольника — в одну и ту же "
                   f"точку {point(H_xor[1])}, а (1,1) — в {point(H_xor[3])}. Одна пунктирная прямая, h1 − 2 h2 = 0.5, "
                   "оставляет точку с треугольниками на закрашенной стороне, а оба кружка — на другой."),
        caption=say("XOR before and after the hidden layer of the 2-2-1 ReLU network. No line separates "
                    "the classes on the left; after the hidden layer one line does (right), and that "
                    "line corresponds to the band between two parallel lines on the left.",
                    ru="XOR до и после скрытого слоя сети 2-2-1 с ReLU. Слева классы не разделяет ни одна "
                       "прямая; после скрытого слоя их разделяет одна прямая (справа), и на левом графике "
                       "ей соответствует полоса между двумя параллельными прямыми."),
    )


def xor_trace() -> str:
    """The trace of the 2-2-1 XOR network on the four corners, X of shape (4, 2).

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    xor_net = mlp_ref.xor_by_hand()
    return trace(xor_net, X_XOR).to_markdown(precision=1)


def xor_table() -> str:
    """Each corner, its XOR, its hidden point (h₁, h₂), the output y and whether y is XOR exactly.

    Returns
    -------
    str
        A Markdown table, one row per corner.
    """
    xor_net = mlp_ref.xor_by_hand()
    H_xor = _hidden_points()   # (4, 2)
    y_out = xor_net.forward(X_XOR)[:, 0]   # (4,)
    rows = [[f"{a:.0f}", f"{b:.0f}", str(t), format_number(h[0], 1), format_number(h[1], 1),
             format_number(y, 1), say("yes", ru="да") if y == t else say("no", ru="нет")]
            for (a, b), t, h, y in zip(X_XOR, Y_XOR, H_xor, y_out)]
    return markdown_table(["x₁", "x₂", "XOR", "h₁", "h₂", "y", say("y = XOR exactly?", ru="y = XOR точно?")],
                          rows, "ccccccc")


def perceptron_and_table() -> str:
    """The perceptron rule on AND from zero weights, one row per example seen; checks it converges
    within Novikoff's bound and answers AND on every corner.

    Returns
    -------
    str
        A Markdown table, one row per step of the rule.
    """
    run_and = _run_and()
    rows = [[str(s.epoch), _vector(s.x), str(s.target), format_number(s.z, 0), str(s.output),
             say("yes", ru="да") if s.updated else "", _vector(s.w), format_number(s.b, 0)] for s in run_and.steps]
    table = markdown_table([say("epoch", ru="эпоха"), "x (2,)", "y", "z = w·x + b", "ŷ = step(z)",
                            say("update?", ru="обновление?"), say("w after (2,)", ru="w после (2,)"),
                            say("b after", ru="b после")], rows, "rcrrrcrr")
    bound_and = mistake_bound(X_XOR, Y_AND, *SEPARATOR)
    claim(bool(run_and.converged) and run_and.updates <= bound_and,
          "the perceptron converges on AND within Novikoff's bound")
    claim(perceptron_predict(X_XOR, run_and.w, run_and.b).tolist() == Y_AND.tolist(),
          "the trained perceptron answers AND on every corner")
    return table


def perceptron_xor_table() -> str:
    """The perceptron rule on XOR from zero weights, one row per epoch; checks it never stops.

    Returns
    -------
    str
        A Markdown table, one row per epoch: the weights at its start and end, and its mistakes.
    """
    run_xor = _run_xor()
    rows = []
    for epoch, mistakes in enumerate(run_xor.errors, start=1):
        start = run_xor.steps[(epoch - 1) * len(X_XOR) - 1] if epoch > 1 else None
        end = run_xor.steps[epoch * len(X_XOR) - 1]
        rows.append([str(epoch), _vector(start.w if start else np.zeros(2)),
                     format_number(start.b if start else 0, 0), str(mistakes), _vector(end.w),
                     format_number(end.b, 0)])
    table = markdown_table([say("epoch", ru="эпоха"), say("w at start (2,)", ru="w в начале (2,)"),
                            say("b at start", ru="b в начале"), say("mistakes", ru="ошибки"),
                            say("w at end (2,)", ru="w в конце (2,)"), say("b at end", ru="b в конце")],
                           rows, "rrrrrr")
    claim(bool(run_xor.never_converges),
          "the perceptron on XOR returns to an earlier state, so it never stops making mistakes")
    return table


def claimed_trace() -> str:
    """The trace of the 2-3-1 network claimed to solve XOR (ReLU hidden, sigmoid output) on the corners.

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    return trace(CLAIMED, X_XOR).to_markdown(precision=4)


def fixed_trace() -> str:
    """The trace of the fixed 2-3-1 network, which solves XOR with a margin, on the corners.

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    return trace(FIXED, X_XOR).to_markdown(precision=4)


def _network(layers) -> mlp_ref.MLP:
    """A 2-3-1 network of :data:`CLAIMED`'s form (ReLU hidden, sigmoid output) as an MLP."""
    return mlp_ref.MLP.from_arrays([W for W, _, _ in layers], [b for _, b, _ in layers],
                                   activation="relu", output="sigmoid")


def _bottleneck(sizes) -> dict[str, str]:
    """Exercise 4's stack d0 -> d1 -> d2 without an activation against one d0 -> d2 layer: their
    parameters and multiply-adds per example, counted on real networks, and the collapsed matrix's rank."""
    stack = mlp_ref.MLP(list(sizes), activation="identity", seed=0)        # W1 (784, 16), W2 (16, 784)
    single = mlp_ref.MLP([sizes[0], sizes[-1]], activation="identity", seed=0)   # W (784, 784)
    x = np.zeros((1, sizes[0]))                                               # one example, (1, 784)
    costs = {}
    for name, net in (("stack", stack), ("single", single)):
        found = sum(W.size + b.size for W, b in zip(net.weights, net.biases))
        assert found == net.n_params == mlp_ref.count_params(net.sizes), (
            f"lesson 2, exercise 4: expected the {name}'s arrays to hold count_params({net.sizes}) = "
            f"{mlp_ref.count_params(net.sizes)} parameters, found {found}")
        costs[name] = (found, mlp_ref.count_multiply_adds(net, x, np.zeros((1, sizes[-1]))).forward_total)
    (p_stack, m_stack), (p_single, m_single) = costs["stack"], costs["single"]
    # "fewer parameters and multiply-adds": the bottleneck is cheaper on both counts
    assert p_stack < p_single and m_stack < m_single, (
        f"lesson 2, exercise 4: expected the stack to be cheaper than one layer, found {p_stack} against "
        f"{p_single} parameters and {m_stack} against {m_single} multiply-adds")
    collapsed = stack.weights[0] @ stack.weights[1]                           # (784, 784)
    rank = int(np.linalg.matrix_rank(collapsed))
    assert collapsed.shape == single.weights[0].shape and rank == min(sizes), (
        f"lesson 2, exercise 4: expected W1 W2 of shape {single.weights[0].shape} and rank {min(sizes)}, "
        f"found {collapsed.shape} and rank {rank}")
    return {"bn_params_stack": number(p_stack), "bn_params_single": number(p_single),
            "bn_madds_stack": number(m_stack), "bn_madds_single": number(m_single),
            "bn_madds_ratio": number(m_single / m_stack), "bn_rank": number(rank)}


def values() -> dict[str, str]:
    """The numbers lesson 2's prose says (``{@ l2.tent_peak @}``), as it reads them."""
    xor_net = mlp_ref.xor_by_hand()   # SYLLABUS's 2-2-1 network: h1 = relu(x1 + x2), h2 = relu(x1 + x2 - 1), y = h1 - 2 h2
    out = xor_net.forward(X_XOR)
    H = _hidden_points()
    sums = X_XOR.sum(axis=1)
    knots, tent, band = _tent()
    peak = int(np.argmax(tent))
    threshold = 0.5  # an output is read at 1/2

    claimed, fixed = _network(CLAIMED), _network(FIXED)
    ramps = -claimed.biases[0] / claimed.weights[0][0]        # where each hidden ramp starts
    p = claimed.forward(X_XOR)[:, 0]
    _, claimed_cache = claimed.forward(X_XOR, keep_cache=True)
    _, fixed_cache = fixed.forward(X_XOR, keep_cache=True)
    claimed_peak = ramps[np.argmax(claimed.logits(np.stack([ramps, np.zeros_like(ramps)], axis=1))[:, 0])]
    scale = fixed.weights[1][:, 0] / claimed.weights[1][:, 0]  # fixed W2 = c (1, -2, 1)
    assert np.allclose(scale, scale[0]), (
        f"lesson 2: the fixed network's W2 is the claimed one times a single factor c (W2 = c (1, -2, 1)); "
        f"its ratios to the claimed W2 differ by up to {np.ptp(scale):.2g} ({np.round(scale, 4).tolist()})")
    tolerance = 0.01                                           # exercise 3's "within 0.01"
    sizes = (784, 16, 784)                                     # exercise 4's stack
    # Novikoff's bound for the separating unit, every corner with a 1 appended
    run_and = _run_and()
    u = np.append(*SEPARATOR)                                  # (w, b), appended, (3,)
    X1 = np.column_stack([X_XOR, np.ones(len(X_XOR))])         # (4, 3)
    r2, closest = float(np.max(np.sum(X1**2, axis=1))), float(np.min(np.abs(X1 @ u)))
    gamma = closest / float(np.linalg.norm(u))
    bound = mistake_bound(X_XOR, Y_AND, *SEPARATOR)
    assert math.isclose(bound, r2 / gamma**2) and run_and.updates <= bound, (
        f"lesson 2: Novikoff's bound (R/γ)² = {r2 / gamma**2:.4g} caps the perceptron's updates on AND; "
        f"mistake_bound gives {bound:.4g} and the run made {run_and.updates} updates")
    run_xor = _run_xor()
    first, length = run_xor.cycle
    assert run_xor.never_converges, (
        f"lesson 2: the perceptron rule on XOR never settles (its weights repeat in a cycle); the run found "
        f"no repeat in {run_xor.epochs} epochs (converged: {run_xor.converged})")
    cycle_mistakes = sorted(set(run_xor.errors[first - 1:first - 1 + length]))
    return {
        "corner_sums": ", ".join(number(s) for s in sums),                  # "0, 1, 1, 2"
        "hidden_shape": ", ".join(map(str, H.shape)),                       # H (4, 2)
        "out_shape": ", ".join(map(str, out.shape)),                        # y (4, 1)
        "tent_peak": number(tent[peak]),                                    # "rises to 1"
        "tent_peak_s": number(knots[peak]),                                 # "at s = 1"
        "tent_end": number(tent[-1]),                                       # "falls back to 0"
        "tent_end_s": number(knots[-1]),                                    # "at s = 2"
        "band_low": number(band[0]),                                        # "0.5 < x1 + x2"
        "band_high": number(band[1]),                                       # "x1 + x2 < 1.5"
        "hidden_00": point(H[0]),                                           # (0,0) lands on (0, 0)
        "hidden_01": point(H[1]),                                           # (0,1), (1,0) land on (1, 0)
        "hidden_11": point(H[3]),                                           # (1,1) lands on (2, 1)
        "claimed_ramps": ", ".join(number(r) for r in ramps),               # "s = -0.5, 0.5, 1.5"
        "claimed_peak_s": number(claimed_peak),                             # "peaks at s = 0.5"
        "claimed_right_ge": word(int(np.sum((p >= threshold) == Y_XOR))),   # "three of four"
        "claimed_hidden_points": word(len(np.unique(claimed_cache.activations[1], axis=0))),
        "other_corners": word(len(X_XOR) - 1),                              # "the other three corners"
        "fixed_hidden": ", ".join(point(h) for h in fixed_cache.activations[1]),
        "fixed_scale": number(scale[0]),                                    # "the fix used c = 4"
        "target_p": number(1 - tolerance),                                  # "0.99"
        "target_odds": number((1 - tolerance) / tolerance),                 # "ln 99"
        "rank_bound": number(min(sizes)),                                   # "at most 16"
        "perc_and_epochs": number(run_and.epochs),                          # "6 epochs"
        "perc_and_updates": number(run_and.updates),                        # "10 updates"
        "perc_and_w": point(run_and.w),                                     # "w = (2, 1)"
        "perc_and_b": number(run_and.b).replace("-", "−"),                  # "b = −2"
        "perc_and_R2": number(r2),                                          # "R² = 3"
        "perc_and_u2": number(float(u @ u)),                                # "‖u‖² = 4.25"
        "perc_and_closest": number(closest),                                # "|w·x + b| = 0.5"
        "perc_and_gamma": format_number(gamma, 4),                          # "γ = 0.2425"
        "perc_and_bound": number(bound),                                    # "(R/γ)² = 51"
        "perc_xor_cycle_start": number(first),                              # "the start of epoch 3"
        "perc_xor_cycle_end": number(first + length - 1),                   # "the end of epoch 3"
        "perc_xor_cycle_len": "every epoch" if length == 1 else f"every {word(length)} epochs",
        "perc_xor_cycle_mistakes": " or ".join(word(m) for m in cycle_mistakes),   # "four"
        # the Russian page's forms of the two above: a count, and the mistakes joined by "или"
        "perc_xor_cycle_len_n": number(length),                             # "циклом длиной в 1 эпоху"
        "perc_xor_cycle_mistakes_n": " или ".join(number(m) for m in cycle_mistakes),  # "4"
        **_bottleneck(sizes),                                               # exercise 4's costs: "25,888 against 615,440"
    }
