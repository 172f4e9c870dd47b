"""Lesson 2's figure, traces and tables: XOR before and after a hidden layer, and the perceptron rule."""

from __future__ import annotations

import numpy as np

import mlp_ref
from mlp_ref.course.claims import claim
from mlp_ref.course.figures import PALETTE, figure_html, new_figure
from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_number, markdown_table
from mlp_ref.course.trace import trace
from mlp_ref.perceptron import mistake_bound, perceptron_predict, train_perceptron

X_XOR = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])   # the four corners, (4, 2)
Y_XOR = np.array([0, 1, 1, 0])                                       # XOR of each, (4,)
Y_AND = np.array([0, 0, 0, 1])                                       # AND of each, (4,)


def _hidden_points() -> np.ndarray:
    """The hidden point (h1, h2) of each corner in the 2-2-1 network that solves XOR by hand, (4, 2)."""
    xor_net = mlp_ref.xor_by_hand()  # h1 = relu(x1 + x2), h2 = relu(x1 + x2 - 1), y = h1 - 2 h2
    _, cache = xor_net.forward(X_XOR, keep_cache=True)
    return cache.activations[1]


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
    xor_net = mlp_ref.xor_by_hand()
    H_xor = _hidden_points()   # (4, 2)
    fig, (ax_in, ax_hid) = new_figure(1, 2, figsize=(8.0, 3.8))
    fig.subplots_adjust(wspace=0.35)
    styles = {0: dict(marker="o", color=PALETTE[0], label="XOR = 0"),
              1: dict(marker="^", color=PALETTE[1], label="XOR = 1")}

    # Input space: where the network's output exceeds 1/2. Along s = x1 + x2 the output is a tent
    # with knots at s = 0, 1, 2 (the hidden thresholds and the far corner); the band's edges:
    knots = np.array([0.0, 1.0, 2.0])
    tent = xor_net.forward(np.stack([knots, 0 * knots], axis=1))[:, 0]
    band = (np.interp(0.5, tent[:2], knots[:2]), np.interp(0.5, tent[:0:-1], knots[:0:-1]))
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
    ax_in.set_xlabel(say("input x₁ (no unit)", ru="вход x₁ (безразмерный)"))
    ax_in.set_ylabel(say("input x₂ (no unit)", ru="вход x₂ (безразмерный)"))
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
    ax_hid.set_xlabel(say("hidden unit h₁ (no unit)", ru="скрытый нейрон h₁ (безразмерный)"))
    ax_hid.set_ylabel(say("hidden unit h₂ (no unit)", ru="скрытый нейрон h₂ (безразмерный)"))
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
    run_and = train_perceptron(X_XOR, Y_AND, max_epochs=100)
    rows = [[str(s.epoch), _vector(s.x), str(s.target), format_number(s.z, 0), str(s.output),
             say("yes", ru="да") if s.updated else "", _vector(s.w), format_number(s.b, 0)] for s in run_and.steps]
    table = markdown_table([say("epoch", ru="эпоха"), "x (2,)", "y", "z = w·x + b", "ŷ = step(z)",
                            say("update?", ru="обновление?"), say("w after (2,)", ru="w после (2,)"),
                            say("b after", ru="b после")], rows, "rcrrrcrr")
    bound_and = mistake_bound(X_XOR, Y_AND, [1.0, 1.0], -1.5)   # a separating unit: x1 + x2 > 1.5
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
    run_xor = train_perceptron(X_XOR, Y_XOR, max_epochs=100)
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
    claimed = [(np.ones((2, 3)), np.array([0.5, -0.5, -1.5]), "relu"),
               (np.array([[1.0], [-2.0], [1.0]]), np.array([-0.5]), "sigmoid")]
    return trace(claimed, X_XOR).to_markdown(precision=4)


def fixed_trace() -> str:
    """The trace of the fixed 2-3-1 network, which solves XOR with a margin, on the corners.

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    fixed = [(np.ones((2, 3)), np.array([0.0, -1.0, -2.0]), "relu"),
             (np.array([[4.0], [-8.0], [4.0]]), np.array([-2.0]), "sigmoid")]
    return trace(fixed, X_XOR).to_markdown(precision=4)
