"""Lesson 4's figures, tables, trace and widget: the activations and their derivatives, a stable
cross entropy, a ReLU head that stops learning, and dead hidden units; the numbers its prose says
(:func:`values`)."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

import mlp_ref
from mlp_ref.course.figures import PALETTE, figure_html, new_figure
from mlp_ref.course.i18n import ru_count, ru_plural, say
from mlp_ref.course.tables import format_number, markdown_table
from mlp_ref.course.trace import Trace
from mlp_ref.course.widgets import activation_data, widget_html
from mlp_ref.course.words import number, point

GRID = np.linspace(-5.0, 5.0, 1001)                 # the figure's and the widget's z, (1001,)
Z_POINTS = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])    # the tables' z, (5,)


def _curves() -> list[tuple]:
    """The figure's curves: (label, name in mlp_ref.ACTIVATIONS, line style)."""
    return [
        (say("sigmoid", ru="сигмоида"), "sigmoid", "-"),
        ("tanh", "tanh", "--"),
        ("ReLU", "relu", "-."),
        ("GELU (erf)", "gelu", ":"),
        ("SiLU", "silu", (0, (6, 2, 1, 2, 1, 2))),
    ]


def _peak_slopes() -> dict[str, float]:
    """The largest slope of sigmoid and tanh over :data:`GRID`, {name: f'(z) at its peak}: both at z = 0."""
    peak = {name: float(mlp_ref.get_activation(name)[1](GRID).max()) for name in ("sigmoid", "tanh")}
    assert all(math.isclose(peak[name], mlp_ref.get_activation(name)[1](np.zeros(1))[0]) for name in peak), (
        "lesson 4: the sigmoid's and the tanh's slopes are largest at z = 0; found the largest slopes on the grid "
        + ", ".join(f"{name} {peak[name]:.6g} against {mlp_ref.get_activation(name)[1](np.zeros(1))[0]:.6g} at z = 0"
                    for name in peak))
    return peak


def activations_figure() -> str:
    """The hidden activations (left) and their derivatives (right) over :data:`GRID`.

    Returns
    -------
    str
        The figure as HTML (:func:`mlp_ref.course.figures.figure_html`).
    """
    curves = _curves()
    grid = GRID
    fig, (left, right) = new_figure(1, 2, figsize=(9.0, 3.6))
    for label, name, style in curves:
        f, f_prime = mlp_ref.get_activation(name)
        left.plot(grid, f(grid), linestyle=style, linewidth=2, label=label)
        right.plot(grid, f_prime(grid), linestyle=style, linewidth=2, label=label)
    left.set_ylim(-1.5, 3.0)
    right.set_ylim(-0.3, 1.3)
    left.set_title(say("activation f(z)", ru="функция активации f(z)"))
    right.set_title(say("derivative f′(z)", ru="производная f′(z)"))
    for ax in (left, right):
        ax.axhline(0, color="0.5", linewidth=0.8)
        ax.set_xlabel(say("pre-activation z (no unit)", ru="преактивация z"))
    left.set_ylabel(say("f(z) (no unit)", ru="f(z)"))
    right.set_ylabel(say("f′(z) (no unit)", ru="f′(z)"))
    left.legend(loc="upper left", frameon=False, fontsize=9)
    # Said in the text below: each saturating slope's peak, and the first whole |z| beyond which
    # both slopes stay under a tenth of their peaks.
    peak = _peak_slopes()
    n_curves = ("No", "One", "Two", "Three", "Four", "Five", "Six")[len(curves)]  # the caption's count, in words
    flat = next(z for z in range(1, 6) if all(mlp_ref.get_activation(name)[1](np.array([float(z)]))[0] < peak[name] / 10
                                              for name in peak))
    z_from, z_to = format_number(grid[0], 0).replace('-', '−'), format_number(grid[-1], 0)
    sig_peak, tanh_peak = format_number(peak['sigmoid'], 2), format_number(peak['tanh'], 0)
    return figure_html(
        fig,
        alt=say(f"Two line charts over z from {z_from} to {z_to}. Left: sigmoid rises from 0 to 1 "
                "and tanh from −1 to 1, "
                "both flat at the ends; ReLU is zero then the line z; GELU and SiLU follow ReLU but are smooth "
                "near zero and dip slightly below zero for negative z. Right: the derivatives; sigmoid's peaks "
                f"at {sig_peak} and tanh's at {tanh_peak}, "
                f"both under a tenth of that beyond |z| = {flat}; ReLU's is a step from 0 "
                "to 1; GELU's and SiLU's dip a little below 0 for negative z, then rise smoothly to about 1, "
                "overshooting 1 a little.",
                ru=f"Два графика по z от {z_from} до {z_to}. Слева: сигмоида растёт от 0 до 1, "
                   "а tanh — от −1 до 1, обе выходят на горизонталь по краям; ReLU равна нулю, а затем идёт "
                   "по прямой z; GELU и SiLU повторяют ReLU, но гладкие около нуля и при отрицательных z "
                   f"чуть опускаются ниже нуля. Справа — производные: у сигмоиды максимум {sig_peak}, "
                   f"у tanh — {tanh_peak}, и обе меньше десятой доли максимума при |z| > {flat}; "
                   "производная ReLU — ступенька от 0 к 1; производные GELU и SiLU при отрицательных z "
                   "немного опускаются ниже 0, затем плавно растут примерно до 1, немного заходя выше 1."),
        caption=say(f"{n_curves} hidden activations (left) and their derivatives (right). Sigmoid and tanh have "
                    f"less than a tenth of their peak slope beyond |z| = {flat}; ReLU's slope is exactly 0 for every negative z. "
                    "GELU's tanh approximation is not drawn: at this scale it lies on the exact curve.",
                    ru=f"Слева — {len(curves)} {ru_plural(len(curves), 'функция', 'функции', 'функций')} активации "
                       "для скрытых слоёв, справа — их производные. При |z| > "
                       f"{flat} наклон сигмоиды и tanh меньше десятой доли их максимального наклона; "
                       "наклон ReLU равен ровно 0 при любом отрицательном z. Приближение GELU через tanh "
                       "не нарисовано: в этом масштабе оно сливается с точной кривой."),
    )


def _rows() -> list[tuple]:
    """The tables' rows: (label, name in mlp_ref.ACTIVATIONS, or a (function, derivative) pair)."""
    return [
        (say("sigmoid σ(z)", ru="сигмоида σ(z)"), "sigmoid"),
        ("tanh(z)", "tanh"),
        ("relu(z)", "relu"),
        (say("gelu(z), erf form", ru="gelu(z), точная форма (erf)"), "gelu"),
        (say("gelu(z), tanh approximation", ru="gelu(z), приближение через tanh"), "gelu_tanh"),
        ("silu(z)", "silu"),
        # PReLU's slope a is a parameter, not part of the name: the pair is built here, at He et al.'s starting a
        (f"prelu(z), a = {mlp_ref.PRELU_INIT}", (lambda z: mlp_ref.prelu(z, mlp_ref.PRELU_INIT),
                                                 lambda z: mlp_ref.prelu_grad(z, mlp_ref.PRELU_INIT))),
    ]


def activation_table(which: int) -> str:
    """Each activation at :data:`Z_POINTS`: its values (``which`` = 0) or its derivatives (1).

    Parameters
    ----------
    which : int
        0 for the values f(z), 1 for the derivatives f'(z).

    Returns
    -------
    str
        A Markdown table, one row per activation, one column per point z.
    """
    rows = []
    for label, name in _rows():
        pair = mlp_ref.get_activation(name) if isinstance(name, str) else name
        values = pair[which](Z_POINTS)
        rows.append([label] + [format_number(v, 4) for v in values])
    headers = [say("function", ru="функция") if which == 0 else say("derivative of", ru="производная")]
    headers += [f"z = {format_number(z, 0)}" for z in Z_POINTS]
    return markdown_table(headers, rows, align="l" + "r" * len(Z_POINTS))


def cross_entropy_trace() -> str:
    """Cross entropy from the logits (1000, −1000) with label 1, computed through logsumexp without overflow.

    Returns
    -------
    str
        A Markdown table, one row per step: logits (1, 2) to the loss and its gradient.
    """
    logits = np.array([[1000.0, -1000.0]])   # (B, K) = (1, 2)
    label = 1
    ce = Trace()
    ce.record("z", say("logits, (B, K) = (1, 2)", ru="логиты, (B, K) = (1, 2)"), logits)
    m = ce.record("m", say("max over k of z_k, shape (1, 1)", ru="максимум z_k по k, форма (1, 1)"),
                  logits.max(axis=1, keepdims=True))
    shifted = ce.record("z − m", say("every entry ≤ 0", ru="все элементы ≤ 0"), logits - m)
    e = ce.record("exp(z − m)", say("no overflow: entries in [0, 1]", ru="без переполнения: элементы в [0, 1]"),
                  np.exp(shifted))
    s = ce.record("S", say("sum over k, in [1, K]", ru="сумма по k, лежит в [1, K]"), e.sum(axis=1, keepdims=True))
    lse = ce.record("lse", "m + log S = logsumexp(z)", m + np.log(s))
    ce.record("L", say("lse − z_y with y = 1", ru="lse − z_y при y = 1"), lse[:, 0] - logits[:, label])
    p = ce.record("p", "exp(z − lse) = softmax(z)", np.exp(logits - lse))
    ce.record("∂L/∂z", "p − onehot(y)", p - np.eye(2)[[label]])
    return ce.to_markdown(precision=2)


def activation_explorer() -> str:
    """The activation explorer widget, with the tables' rows over :data:`GRID`.

    Returns
    -------
    str
        The widget's HTML, with what a reader without JavaScript reads instead.
    """
    # the tables' rows; PReLU's pair is mlp_ref.prelu with He et al.'s starting slope
    explorer_rows = [(label, name) if isinstance(name, str) else (label, "prelu", mlp_ref.PRELU_INIT)
                     for label, name in _rows()]
    return widget_html("activation-explorer", activation_data(explorer_rows, GRID),
                       say("with JavaScript on, this is where you can pick an activation and move z; the tables above "
                           "give the same values at their points.",
                           ru="с включённым JavaScript здесь можно выбрать функцию активации и двигать z; таблицы выше "
                              "дают те же значения в своих точках."))


@functools.cache
def _moons() -> tuple[np.ndarray, np.ndarray]:
    """The two-moons data of both training figures: X (200, 2) and y (200,) as floats 0 and 1."""
    from sklearn.datasets import make_moons

    X_moons, y_moons = make_moons(200, noise=0.15, random_state=0)
    return X_moons, y_moons.astype(float)


def _loss_curve(head, loss, seed=2, lr=0.5, steps=300):
    """Full-batch SGD of a 2-16-1 network on the moons: the loss (steps,) and the share of
    positive logits (steps,) before each step."""
    X_moons, y_moons = _moons()
    net = mlp_ref.MLP([2, 16, 1], seed=seed)
    values, positive = [], []
    for _ in range(steps):
        positive.append(np.mean(net.forward(X_moons)[:, 0] > 0))
        value, grads = mlp_ref.head_loss_and_grads(net, X_moons, y_moons, head, loss)
        mlp_ref.sgd_step(net, grads, lr)
        values.append(value)
    return np.array(values), np.array(positive)


@functools.cache
def _relu_head_runs(lr: float, init: str = "he") -> tuple[tuple[bool, int], ...]:
    """The ten ReLU-head runs (seeds 0-9, squared error, 300 full-batch steps) at learning rate
    ``lr``, the weights drawn by ``init`` (a name of :data:`mlp_ref.initialization.INITIALIZERS`;
    the page's runs use :class:`mlp_ref.MLP`'s default, ``"he"``), the biases zero: for each seed,
    whether it froze (at least 99 % of the moons' outputs exactly 0 at the end) and how many of the
    200 examples had their logit fall to ≤ 0 and later rise above 0."""
    X_moons, y_moons = _moons()
    runs = []
    for seed in range(10):
        net = mlp_ref.MLP([2, 16, 1], seed=seed, init=init)
        been_off = np.zeros(len(X_moons), dtype=bool)    # (200,): logit ≤ 0 before some step
        came_back = np.zeros(len(X_moons), dtype=bool)   # (200,): and > 0 at a later one
        for step in range(301):                          # the logits before each step and after the last
            logits = net.forward(X_moons)[:, 0]
            came_back |= been_off & (logits > 0)
            been_off |= logits <= 0
            if step < 300:
                _, grads = mlp_ref.head_loss_and_grads(net, X_moons, y_moons, "relu", "mse")
                mlp_ref.sgd_step(net, grads, lr)
        runs.append((bool(np.mean(logits <= 0) >= 0.99), int(came_back.sum())))
    return tuple(runs)


def _frozen_runs(lr: float, init: str = "he") -> int:
    """How many of the ten ReLU-head runs froze at learning rate ``lr`` from ``init``'s weights
    (:func:`_relu_head_runs`)."""
    return sum(frozen for frozen, _ in _relu_head_runs(lr, init))


def _returned_logits(lr: float) -> tuple[int, int]:
    """The fewest and the most examples whose logit fell to ≤ 0 and came back, over the runs at
    learning rate ``lr`` that did not freeze (:func:`_relu_head_runs`)."""
    returned = [n for frozen, n in _relu_head_runs(lr) if not frozen]
    assert returned and min(returned) > 0, (  # "a logit at or below zero can still come back"
        f"lesson 4, exercise 4: in every ReLU-head run at learning rate {lr} that did not freeze, some "
        f"example's logit falls to ≤ 0 and comes back above 0; found {returned} such examples per run")
    return min(returned), max(returned)


def frozen_runs_answer() -> str:
    """The answer to exercise 4: the frozen runs at learning rate 0.1 against 0.5, counted, and
    the logits that came back in the runs that did not freeze."""
    slow, fast = _frozen_runs(0.1), _frozen_runs(0.5)
    assert 0 < slow < fast, (  # the sentence says fewer, but some
        f"lesson 4, exercise 4: of the ten ReLU-head runs, fewer freeze at learning rate 0.1 than at 0.5, "
        f"but some still do; found {slow} at 0.1 and {fast} at 0.5")
    _returned_logits(0.1)  # the answer's next sentence says these counts (values())
    return say(f"Of the ten runs, {slow} freeze, against {fast} at learning rate 0.5: fewer, but some still do.",
               ru=f"{ru_plural(slow, 'Застывает', 'Застывают', 'Застывают')} {ru_count(slow, 'запуск', 'запуска', 'запусков', gender='m')} из десяти, а при скорости "
                  f"0.5 — {fast}: меньше, но некоторые всё равно застывают.")


def relu_head_figure() -> str:
    """The training loss with a ReLU head and squared error against a sigmoid head and cross
    entropy (top), and the ReLU head's share of positive logits (bottom).

    Returns
    -------
    str
        The figure as HTML (:func:`mlp_ref.course.figures.figure_html`).
    """
    relu_loss, relu_alive = _loss_curve("relu", "mse")
    sigmoid_loss, _ = _loss_curve("sigmoid", "bce")
    steps = np.arange(1, len(relu_loss) + 1)
    fig, (top, bottom) = new_figure(2, 1, figsize=(6.4, 4.6), sharex=True)
    top.plot(steps, relu_loss, linewidth=2,
             label=say("ReLU head + squared error", ru="ReLU на выходе + квадратичная ошибка"))
    top.plot(steps, sigmoid_loss, linewidth=2, linestyle="--",
             label=say("sigmoid head + cross entropy", ru="сигмоида на выходе + перекрёстная энтропия"))
    top.set_ylabel(say("training loss (no unit)", ru="потери на обучении"))
    top.legend(loc="upper right", frameon=False, fontsize=9)
    bottom.plot(steps, relu_alive, linewidth=2, color=PALETTE[0])
    bottom.set_ylabel(say("share of logits > 0\n(ReLU head)", ru="доля логитов > 0\n(ReLU на выходе)"))
    bottom.set_xlabel(say("gradient step", ru="шаг градиентного спуска"))
    bottom.set_ylim(-0.05, 1.05)
    return figure_html(
        fig,
        alt=say("Two stacked line charts over 300 gradient steps for seed 2. Top: the training loss of the "
                "ReLU-head network moves for a few steps and then stays flat; the sigmoid-head network's loss "
                "keeps decreasing. Bottom: the share of examples with a positive logit in the ReLU-head network "
                "jumps around for a few steps and then drops to zero and stays there.",
                ru="Два графика друг над другом, 300 шагов градиентного спуска, зерно 2. Сверху: потери на "
                   "обучении у сети с ReLU на выходе несколько шагов меняются, а затем не меняются вовсе; у сети "
                   "с сигмоидой на выходе потери продолжают падать. Снизу: доля примеров с положительным логитом "
                   "у сети с ReLU на выходе несколько шагов скачет, а затем падает до нуля и там остаётся."),
        caption=say("The same network and initial weights with two output heads. When no logit is positive, "
                    "the ReLU head passes no gradient and training stops for good.",
                    ru="Одна и та же сеть с одними и теми же начальными весами и двумя разными выходными функциями. "
                       "Когда ни один логит не положителен, ReLU на выходе не пропускает градиент, и обучение "
                       "останавливается навсегда."),
    )


def _unit_ranges(net, X_moons):
    """Each hidden unit's smallest and largest pre-activation over X_moons (200, 2): two (64,)
    arrays, sorted by the largest."""
    Z1 = mlp_ref.affine(X_moons, net.weights[0], net.biases[0])     # (200, 64)
    order = np.argsort(Z1.max(axis=0))
    return Z1.min(axis=0)[order], Z1.max(axis=0)[order]


def dead_units_figure() -> str:
    """Each hidden unit's pre-activation range over the moons, for a 2-64-2 network at
    initialization and after 200 steps at learning rate 10.

    Returns
    -------
    str
        The figure as HTML (:func:`mlp_ref.course.figures.figure_html`).
    """
    X_moons, y_moons = _moons()
    y_classes = y_moons.astype(int)
    before = mlp_ref.MLP([2, 64, 2], output="softmax", seed=0)
    after = before.copy()
    for _ in range(200):
        _, grads = after.loss_and_grads(X_moons, y_classes)
        mlp_ref.sgd_step(after, grads, 10.0)

    fig, axes = new_figure(1, 2, figsize=(9.0, 3.6), sharey=False)
    for ax, net, title in zip(axes, (before, after), (say("at initialization", ru="после инициализации"),
                                                      say("after 200 steps at lr = 10", ru="после 200 шагов при скорости обучения 10"))):
        low, high = _unit_ranges(net, X_moons)
        units = np.arange(len(low))
        dead_mask = high <= 0
        ax.vlines(units[~dead_mask], low[~dead_mask], high[~dead_mask], color=PALETTE[0],
                  linewidth=2, label=say("alive: z > 0 on some rows", ru="живой: z > 0 на части строк"))
        ax.vlines(units[dead_mask], low[dead_mask], high[dead_mask], color=PALETTE[1],
                  linewidth=2, linestyles=":", label=say("dead: z ≤ 0 on every row", ru="мёртвый: z ≤ 0 на всех строках"))
        ax.scatter(units[dead_mask], high[dead_mask], marker="x", color=PALETTE[1], s=20, zorder=3)
        ax.axhline(0, color="0.4", linewidth=1)
        ax.set_yscale("symlog", linthresh=1.0)      # linear within ±1, logarithmic beyond
        ax.set_title(say(f"{title}: {int(dead_mask.sum())} dead", ru=f"{title}: мёртвых {int(dead_mask.sum())}"))
        ax.set_xlabel(say("hidden unit (sorted by its largest z)", ru="нейрон скрытого слоя\n(по возрастанию наибольшего z)"))
    axes[0].set_ylabel(say("range of pre-activation z over\nthe data (no unit, symlog scale)",
                           ru="диапазон преактивации z на данных\n(симметричная логарифмическая\nшкала)"))
    axes[1].legend(loc="upper left", frameon=False, fontsize=9)
    return figure_html(
        fig,
        alt=say("Two charts of vertical bars, one bar per hidden unit, spanning the smallest to largest "
                "pre-activation of that unit over the training data. At initialization every bar crosses zero. "
                "After 200 steps at learning rate 10 many bars, drawn dotted and marked with a cross at the top, "
                "lie entirely below zero: those units are dead.",
                ru="Два графика из вертикальных отрезков, по одному на нейрон скрытого слоя: каждый тянется от "
                   "наименьшей до наибольшей преактивации этого нейрона на обучающих данных. После инициализации "
                   "каждый отрезок пересекает ноль. После 200 шагов со скоростью обучения 10 многие отрезки, "
                   "пунктирные и с крестиком наверху, целиком лежат ниже нуля: эти нейроны мертвы."),
        caption=say("Each bar is one hidden unit's pre-activation range over the 200 training rows. After "
                    "training with a too-large learning rate, the dotted units never reach zero on any row: "
                    "they output 0 and get no gradient. The vertical axis is linear between −1 and 1 and "
                    "logarithmic beyond, so that small and large ranges both show.",
                    ru="Каждый отрезок — диапазон преактивации одного нейрона скрытого слоя на 200 обучающих "
                       "строках. После обучения со слишком большой скоростью обучения пунктирные нейроны ни на "
                       "одной строке не доходят до нуля: они выдают 0 и не получают градиента. Вертикальная ось "
                       "линейна между −1 и 1 и логарифмична за этими пределами, чтобы были видны и малые, и "
                       "большие диапазоны."),
    )


def values() -> dict[str, str]:
    """The numbers lesson 4's prose says (``{@ l4.tanh_peak @}``), as it reads them."""
    peak = _peak_slopes()
    sig_peak = Fraction(peak["sigmoid"]).limit_denominator(100)                 # σ'(0) = 1/4
    chain = 2 * 2  # tanh(z) = 2σ(2z) − 1: the outer factor 2 and the inner 2z
    assert math.isclose(chain * peak["sigmoid"], peak["tanh"]), (               # the bound is reached at z = 0
        f"lesson 4: the tanh's peak slope is {chain} times the sigmoid's (tanh(z) = 2σ(2z) − 1); found "
        f"{peak['tanh']:.6g} against {chain} · {peak['sigmoid']:.6g} = {chain * peak['sigmoid']:.6g}")
    big = mlp_ref.softmax(np.array([[1000.0, -1000.0]]))[0]                     # the page's logits (1000, −1000)
    # the confidently wrong example of the Code: logit −10, target 1, tanh head with squared error
    tanh_mse = float(mlp_ref.head_loss_grad(np.array([[-10.0]]), np.array([[1.0]]), "tanh", "mse")[0, 0])
    tanh_mse_m, tanh_mse_e = f"{tanh_mse:.1e}".split("e")
    assert abs(tanh_mse) < 1e-6, (  # "vanishes when the tanh saturates"
        f"lesson 4: the tanh head's gradient at z = -10 (target 1, squared error) vanishes (< 1e-6); "
        f"found {tanh_mse:.1e}")
    silu = mlp_ref.silu(Z_POINTS)                                               # at z = −2, −1, 0, 1, 2
    assert silu[1] < silu[0] and silu[1] < silu[2], (  # "lower at −1 than at −2 and 0: a minimum between"
        f"lesson 4: SiLU is lower at z = -1 than at z = -2 and z = 0; found {silu[0]:.4f}, {silu[1]:.4f}, {silu[2]:.4f}")
    returned_low, returned_high = _returned_logits(0.1)
    # the pitfall's counts are He normal's: from Glorot (Xavier) normal weights a different number freeze
    frozen_he, frozen_xavier = _frozen_runs(0.5), _frozen_runs(0.5, "xavier")
    assert frozen_xavier != frozen_he, (
        f"lesson 4, the ReLU-head pitfall: how many runs freeze depends on the initialization; found "
        f"{frozen_he} of ten from He normal weights and {frozen_xavier} from Glorot (Xavier) normal weights")
    return {
        "returned_low": number(returned_low),               # exercise 4: the fewest and the most logits that came back
        "returned_high": number(returned_high),
        "frozen_he": number(frozen_he),                     # the pitfall: runs frozen at rate 0.5, He normal
        "frozen_xavier": number(frozen_xavier),             # and from Glorot (Xavier) normal weights
        "n_points": number(len(Z_POINTS)),                  # "z of shape (5,)"
        "sig_peak_inv": number(1 / sig_peak),               # "at most 4^-L", "σ'(0) = 1/4"
        "tanh_peak": number(peak["tanh"]),                  # "tanh's is 1 there"
        "tanh_chain": number(chain),                        # "2 · 2 σ'(2z) = 4 σ'(2z)"
        "softmax_big": point(big),                          # "softmax(1000, −1000) rounds to (1, 0)"
        "softmax_loser": number(big[1]),                    # "underflows to an exact 0"
        "prelu_init": number(mlp_ref.PRELU_INIT),           # "start every slope at a = 0.25"
        "tanh_mse_m": tanh_mse_m.replace("-", "−"),         # "−3.3 · 10^−8"
        "tanh_mse_e": str(int(tanh_mse_e)).replace("-", "−"),
    }
