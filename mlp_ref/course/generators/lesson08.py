"""Lesson 8's figures, traces and tables: universal approximation, width against depth.

Each function returns what one block of ``docs/lessons/08-universal-approximation.md`` (and its
Russian twin) prints, in the edition being built. The asserts check a column or a caption
against the networks' own arrays. :func:`values` returns the numbers the page's prose says.
"""

from __future__ import annotations

import numpy as np

import mlp_ref
from mlp_ref.course.figures import PALETTE, figure_html, new_figure
from mlp_ref.course.i18n import ru_plural, say
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.course.trace import trace
from mlp_ref.course.words import number, word

TRACE_WIDTH = 4   # the worked trace's network: 1 -> 4 -> 1


def _params(net) -> int:
    """A network's parameters, counted from its own arrays."""
    return sum(W.size + b.size for W, b in zip(net.weights, net.biases))


def _bound(k: int) -> float:
    """The interpolation bound h²/8 for sin on [0, π] with k pieces of width h = π/k."""
    return (np.pi / k) ** 2 / 8


def interpolant_figure() -> str:
    """sin x on [0, π] beside the broken lines of 1 → k → 1 ReLU networks, k = 2, 4, 8.

    Returns
    -------
    str
        HTML of the figure (SVG, alt text, caption).
    """
    a, b = 0.0, np.pi
    x_plot = np.linspace(a, b, 801)
    fig, ax = new_figure(figsize=(6.4, 3.6))
    ax.plot(x_plot, np.sin(x_plot), color="0.35", linewidth=3, label="sin x")
    widths = (2, 4, 8)
    for k, (line, marker) in zip(widths, [("--", "o"), ("-.", "s"), (":", "^")]):
        net = mlp_ref.relu_interpolant(np.sin, a, b, k)
        knots = np.linspace(a, b, k + 1)
        ax.plot(x_plot, net(x_plot), linestyle=line,
                label=say(f"1 → {k} → 1 ReLU network", ru=f"ReLU-сеть 1 → {k} → 1"))
        ax.plot(knots, net(knots), linestyle="none", marker=marker, color=ax.lines[-1].get_color())
    ax.set_xlabel(say("x (radians)", ru="x (радианы)"))
    ax.set_ylabel(say("output (no unit)", ru="выход"))
    ax.legend(frameon=False, fontsize=9, loc="lower center")
    return figure_html(
        fig,
        alt=say(f"Line chart of sin x on 0 to pi together with {len(widths)} broken lines from ReLU networks "
                f"with {', '.join(map(str, widths[:-1]))} and {widths[-1]} hidden units. Each broken line passes through equally spaced points "
                f"on the sine curve, marked with symbols; with {widths[-1]} units the broken line is hard to tell "
                "apart from the curve.",
                ru="График sin x на отрезке от 0 до пи, а поверх него ломаные ReLU-сетей "
                   f"с {', '.join(map(str, widths[:-1]))} и {widths[-1]} скрытыми нейронами. Каждая ломаная проходит "
                   "через равноотстоящие точки синусоиды, отмеченные значками; при "
                   f"{widths[-1]} нейронах ломаную трудно отличить от кривой."),
        caption=say("The 1 → k → 1 ReLU interpolant drawn here is a broken line with k pieces (such a network "
                    "has at most k + 1). Through k + 1 points of sin x it hugs the curve more closely as k grows.",
                    ru="Нарисованный здесь ReLU-интерполянт 1 → k → 1 — ломаная из k звеньев (у такой сети их не больше "
                       "k + 1). Она проходит через k + 1 точку "
                       "синусоиды и с ростом k всё плотнее прилегает к кривой."),
    )


def sin_trace() -> str:
    """The 1 → 4 → 1 interpolant of sin at x = π/3, layer by layer, and its error there.

    Returns
    -------
    str
        Markdown trace table and a line with sin(π/3) and the error.
    """
    net4 = mlp_ref.relu_interpolant(np.sin, 0.0, np.pi, TRACE_WIDTH)
    x_one = np.array([[np.pi / 3]])                                            # (1, 1)
    error_here = abs(net4(x_one[0])[0] - np.sin(np.pi / 3))
    return (trace(net4, x_one).to_markdown(precision=4) + "\n\n"
            + f"sin(π/3) = {np.sin(np.pi / 3):.4f}; "
            + say(f"the network's error here: {error_here:.4f}", ru=f"ошибка сети в этой точке: {error_here:.4f}"))


def tent_trace() -> str:
    """``tent_network(2)`` at x = 0.3, layer by layer, beside the tent map applied twice.

    Returns
    -------
    str
        Markdown trace table and a line with t(0.3) and t(t(0.3)).
    """
    tent2 = mlp_ref.tent_network(2)
    return (trace(tent2, np.array([[0.3]])).to_markdown(precision=4) + "\n\n"
            + f"t(0.3) = {mlp_ref.tent(0.3):.4f}, t(t(0.3)) = {mlp_ref.tent(mlp_ref.tent(0.3)):.4f}")


def error_table() -> str:
    """The largest error of the 1 → k → 1 interpolant of sin on [0, π] for doubling k, beside the
    bound h²/8; its parameter column counted from the networks' arrays and checked to be 3k + 1.

    Returns
    -------
    str
        Markdown table, one row per k.
    """
    rows, previous = [], None
    for k in (2, 4, 8, 16, 32):
        net = mlp_ref.relu_interpolant(np.sin, 0.0, np.pi, k)
        error = mlp_ref.max_error(np.sin, net, 0.0, np.pi)     # grid of 10,001 points
        params = _params(net)
        assert params == 3 * k + 1, (                                           # the column's header
            f"lesson 8: the error table's parameter column is 3k + 1 = {3 * k + 1} at k = {k}; "
            f"the network's arrays hold {params}")
        rows.append([str(k), format_count(params), format_number(error, 4),
                     format_number(_bound(k), 4),
                     "" if previous is None else format_number(previous / error, 2)])
        previous = error
    return markdown_table(
        [say("hidden units k", ru="скрытых нейронов k"), say("parameters 3k + 1", ru="параметров 3k + 1"),
         say("max error", ru="макс. ошибка"), say("bound h²/8", ru="оценка h²/8"),
         say("ratio to previous", ru="во сколько раз меньше предыдущей")],
        rows, align="rrrrr")


def sawtooth_figure() -> str:
    """The output of ``tent_network(L)`` on [0, 1] for L = 1 to 4, its pieces counted from the weights.

    Returns
    -------
    str
        HTML of the figure (SVG, alt text, caption); each count asserted to be 2^L, as the caption says.
    """
    x_saw = np.linspace(0.0, 1.0, 2049)
    Ls, counted = (1, 2, 3, 4), []
    fig, axes = new_figure(len(Ls), 1, figsize=(6.4, 6.0), sharex=True)
    for ax, L, line in zip(axes, Ls, ("-", "--", "-.", ":")):
        ax.plot(x_saw, mlp_ref.tent_network(L)(x_saw), linestyle=line, color=PALETTE[L - 1])
        pieces = mlp_ref.count_linear_pieces(mlp_ref.tent_network(L))
        assert pieces == 2**L, (  # the caption's 2^L, counted from the network's weights
            f"lesson 8: the sawtooth's caption says tent_network({L}) has 2^L = {2**L} linear pieces; "
            f"counted {pieces} from its weights")
        counted.append(pieces)
        ax.set_ylabel(f"L = {L}", rotation=0, labelpad=22)
        ax.set_yticks([0, 1])
        ax.text(1.01, 0.5, say(f"{pieces} pieces", ru=f"{pieces} {ru_plural(pieces, 'участок', 'участка', 'участков')}"),
                transform=ax.transAxes, va="center", fontsize=9)
    axes[-1].set_xlabel(say("x (no unit)", ru="x"))
    axes[0].set_title(say("output of tent_network(L) on [0, 1]", ru="выход tent_network(L) на [0, 1]"), fontsize=11)
    return figure_html(
        fig,
        alt=say(f"{len(Ls)} stacked line charts of the tent network's output on 0 to 1 for L = "
                f"{', '.join(map(str, Ls[:-1]))} and {Ls[-1]}. L = {Ls[0]} is a single tent, one rise and one fall. "
                f"Each further layer doubles the number of teeth: {', '.join(str(p // 2) for p in counted[1:-1])} "
                f"and {counted[-1] // 2} teeth, that is {', '.join(map(str, counted[:-1]))} and {counted[-1]} "
                "linear pieces, all between 0 and 1.",
                ru=f"{len(Ls)} {ru_plural(len(Ls), 'график', 'графика', 'графиков')} друг под другом: выход сети-палатки "
                   f"на отрезке от 0 до 1 при L = {', '.join(map(str, Ls[:-1]))} и {Ls[-1]}. При L = {Ls[0]} это одна "
                   "палатка: один подъём и один спуск. Каждый следующий слой удваивает число зубцов: "
                   f"{', '.join(str(p // 2) for p in counted[1:-1])} и {counted[-1] // 2} "
                   f"{ru_plural(counted[-1] // 2, 'зубец', 'зубца', 'зубцов')}, то есть "
                   f"{', '.join(map(str, counted[:-1]))} и {counted[-1]} "
                   f"{ru_plural(counted[-1], 'линейный участок', 'линейных участка', 'линейных участков')}, "
                   "все значения между 0 и 1."),
        caption=say("Composing the two-unit tent map L times gives a sawtooth with 2^L pieces from "
                    "only 2L hidden ReLUs. A single hidden layer needs 2^L units.",
                    ru="Тент-отображение из двух нейронов, применённое L раз подряд, даёт пилу "
                       "из 2^L участков всего на 2L скрытых ReLU. Одному скрытому слою нужно 2^L нейронов."),
    )


def budget_table() -> str:
    """1 to 4 hidden layers of equal width at about the parameters of [64, 128, 10]: their
    multiply-adds, cached numbers and sequential products per example.

    Returns
    -------
    str
        Markdown table, one row per depth.
    """
    budget = mlp_ref.count_params([64, 128, 10])
    rows = []
    for depth in (1, 2, 3, 4):
        widths = range(1, 257)
        w = min(widths, key=lambda w: abs(mlp_ref.count_params([64] + [w] * depth + [10]) - budget))
        sizes = [64] + [w] * depth + [10]
        weights = sum(n_in * n_out for n_in, n_out in zip(sizes[:-1], sizes[1:]))
        cached = mlp_ref.memory_estimate(sizes, batch=1, dtype="float32").activations // 4
        rows.append([str(sizes), format_count(mlp_ref.count_params(sizes)),
                     format_count(weights), format_count(cached), str(depth + 1)])
    return markdown_table(
        [say("sizes", ru="размеры"), say("parameters", ru="параметров"),
         say("multiply-adds per example", ru="умножений-сложений на пример"),
         say("cached numbers per example", ru="чисел в кэше на пример"),
         say("sequential matrix products", ru="последовательных матричных произведений")], rows, align="lrrrr")


def values() -> dict[str, str]:
    """The numbers lesson 8's prose says (``{@ l8.sin_slope @}``), as it reads them."""
    def linear_in(count, n):  # (slope, intercept) of a count that is linear in n, read off n = 1, 2
        slope = count(2) - count(1)
        assert count(n) == slope * n + count(1) - slope, (
            f"lesson 8: the parameter count is linear, {slope} n + {count(1) - slope} (read off n = 1, 2); "
            f"at n = {n} that gives {slope * n + count(1) - slope}, the network has {count(n)}")
        return slope, count(1) - slope

    sin_net = lambda k: mlp_ref.relu_interpolant(np.sin, 0.0, np.pi, k)  # noqa: E731
    sin_slope, sin_const = linear_in(lambda k: _params(sin_net(k)), 7)                 # 3k + 1
    tent_slope, tent_const = linear_in(lambda L: _params(mlp_ref.tent_network(L)), 7)  # 6L + 1
    deep_L = 5  # the 'same parameters' example's L = 5
    wide_units, rest = divmod(_params(mlp_ref.tent_network(deep_L)) - sin_const, sin_slope)
    assert rest == 0, (
        f"lesson 8: the deep tent network with L = {deep_L} has the same parameters as a 1 -> k -> 1 sin "
        f"network, 3k + 1 for a whole k; found {rest} left over beside k = {wide_units}")
    return {
        "sin_slope": number(sin_slope),                       # "3k + 1 parameters"
        "sin_const": number(sin_const),
        "tent_slope": number(tent_slope),                     # "6L + 1 parameters"
        "tent_slope_word": word(tent_slope),                  # "grows by six parameters"
        "tent_const": number(tent_const),
        "bound_ratio": number(_bound(8) / _bound(16)),        # "doubling k divides the bound by 4"
        "trace_knots": number(sin_net(TRACE_WIDTH).weights[0].shape[1] + 1),  # "through 5 knots"
        "wide_units": number(wide_units),                     # "a 1 -> 10 -> 1 network, same parameters"
        "tent_low": number(mlp_ref.tent(0.0)),                # "rises from 0 to 1"
        "tent_peak": number(mlp_ref.tent(0.5)),
    }
