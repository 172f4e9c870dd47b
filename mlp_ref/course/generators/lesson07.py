"""Lesson 7's figure, traces and table: initialization.

Each function returns what one block of ``docs/lessons/07-initialization.md`` (and its Russian
twin) prints, in the edition being built; :func:`values` the numbers its prose says.
"""

from __future__ import annotations

import inspect
import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np

import mlp_ref
from mlp_ref.course.figures import figure_html, new_figure
from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.course.trace import Trace
from mlp_ref.course.words import fraction_words, number

#: The figure's stack: 50 random layers of width 256, a batch of 512 rows.
WIDTH, DEPTH, BATCH = 256, 50, 512
#: The gains the figure compares for each activation.
GAINS = {"relu": (1.0, math.sqrt(2.0), 2.0), "tanh": (1.0, 5.0 / 3.0, 3.0)}


def stack_statistics() -> dict:
    """Per-layer statistics of the figure's stacks, one run per activation and gain (the
    figure's data, apart from its words).

    Returns
    -------
    dict
        ``(activation, gain)`` -> :func:`mlp_ref.layer_statistics` of a batch (512, 256) through
        :data:`DEPTH` random layers (256, 256) of that gain (``z_std`` of shape (50,)).
    """
    X_stack = np.random.default_rng(0).standard_normal((BATCH, WIDTH))
    return {(activation, gain): mlp_ref.layer_statistics(X_stack, mlp_ref.random_stack(WIDTH, DEPTH, gain, seed=1), activation)
            for activation, gains in GAINS.items() for gain in gains}


def spread_figure() -> str:
    """The spread of the pre-activations through 50 random layers, ReLU and tanh, three gains each.

    Returns
    -------
    str
        HTML of the figure (SVG, alt text, caption).
    """
    layers = np.arange(1, DEPTH + 1)
    labels = {
        "relu": [say("gain 1 (too small)", ru="усиление 1 (мало)"), say("gain √2 (He)", ru="усиление √2 (He)"),
                 say("gain 2 (too large)", ru="усиление 2 (велико)")],
        "tanh": [say("gain 1", ru="усиление 1"), say("gain 5/3 (Kaiming, tanh)", ru="усиление 5/3 (Kaiming, tanh)"),
                 say("gain 3 (too large)", ru="усиление 3 (велико)")],
    }
    styles = [("-", "o"), ("--", "s"), (":", "^")]
    stats = stack_statistics()
    fig, axes = new_figure(2, 1, figsize=(6.4, 6.4), sharex=True)
    for ax, (activation, gains) in zip(axes, GAINS.items()):
        for gain, label, (line, marker) in zip(gains, labels[activation], styles):
            ax.plot(layers, stats[activation, gain].z_std, linestyle=line, marker=marker, markevery=7, label=label)
        ax.set_yscale("log")
        ax.set_ylabel(say("std of z (no unit, log)", ru="ст. отклонение z (лог. шкала)"))
        ax.set_title(say(f"{activation} after every layer", ru=f"{activation} после каждого слоя"), fontsize=11)
        ax.legend(frameon=False, fontsize=9)
    axes[1].set_xlabel(say("layer l (depth)", ru="слой l (глубина)"))
    return figure_html(
        fig,
        alt=say("Two line charts, log scale, of the standard deviation of the pre-activations against "
                "the layer number, from 1 to 50. Top, ReLU: with gain 1 the spread falls steadily towards "
                "zero, with gain square root of 2 it stays level, with gain 2 it grows steadily. Bottom, "
                "tanh: with gain 1 it shrinks slowly, with gain 5/3 it levels off, with gain 3 it levels "
                "off higher, where many units are saturated.",
                ru="Два линейных графика в логарифмическом масштабе: стандартное отклонение преактиваций "
                   "в зависимости от номера слоя, от 1 до 50. Вверху ReLU: при усилении 1 разброс неуклонно падает "
                   "к нулю, при усилении корень из 2 остаётся на одном уровне, при усилении 2 неуклонно растёт. Внизу "
                   "tanh: при усилении 1 разброс медленно уменьшается, при усилении 5/3 выходит на постоянный уровень, "
                   "при усилении 3 выходит на уровень повыше, где многие нейроны в насыщении."),
        caption=say("Fifty random layers of width 256, weights N(0, gain²/256), zero biases. ReLU: only "
                    "He's gain √2 keeps the spread level; a factor √2 too small or too large compounds "
                    "layer after layer. tanh: gain 5/3 holds the spread near 1.",
                    ru="Пятьдесят случайных слоёв ширины 256, веса N(0, усиление²/256), нулевые смещения. ReLU: "
                       "разброс держится на одном уровне только при усилении He √2; множитель √2 в меньшую или "
                       "большую сторону накапливается от слоя к слою. tanh: при усилении 5/3 разброс держится около 1."),
    )


class TinyNet(NamedTuple):
    """The traces' 2-2-1 ReLU network, its one example and its step size."""

    x: np.ndarray   # (1, 2)
    W1: np.ndarray  # (2, 2)
    b1: np.ndarray  # (2,)
    W2: np.ndarray  # (2, 1)
    b2: np.ndarray  # (1,)
    y_target: float
    lr: float


def tiny_net() -> TinyNet:
    """The fixture of both traces: a 2-2-1 ReLU network, the example x = [1, 2] with target 1, η = 0.1.

    Returns
    -------
    TinyNet
        Its arrays, with the shapes of :class:`TinyNet`.
    """
    return TinyNet(x=np.array([[1.0, 2.0]]), W1=np.array([[0.5, 0.5], [-0.25, -0.25]]), b1=np.array([0.1, 0.1]),
                   W2=np.array([[0.3], [0.3]]), b2=np.array([0.0]), y_target=1.0, lr=0.1)


def step_trace() -> str:
    """One gradient step of :func:`tiny_net`, checked against :meth:`mlp_ref.MLP.loss_and_grads`.

    Returns
    -------
    str
        Markdown trace table.
    """
    x, W1, b1, W2, b2, y_target, lr = tiny_net()
    t = Trace()
    t.record("x", say("input", ru="вход"), x)
    z1 = t.record("z1", "x W1 + b1", x @ W1 + b1)
    a1 = t.record("a1", "relu(z1)", mlp_ref.relu(z1))
    y_hat = t.record("ŷ", "a1 W2 + b2", a1 @ W2 + b2)
    d2 = t.record("Δ2", "dL/dŷ = 2 (ŷ − y)", 2.0 * (y_hat - y_target))
    d1 = t.record("Δ1", "(Δ2 W2ᵀ) ⊙ relu'(z1)", (d2 @ W2.T) * mlp_ref.relu_grad(z1))
    dW1 = t.record("dW1", "xᵀ Δ1", x.T @ d1)
    t.record(say("W1 new", ru="W1 после шага"), "W1 − η dW1", W1 - lr * dW1)
    t.record(say("W2 new", ru="W2 после шага"), "W2 − η a1ᵀ Δ2", W2 - lr * (a1.T @ d2))

    net = mlp_ref.MLP.from_arrays([W1, W2], [b1, b2])
    _, grads = net.loss_and_grads(x, np.array([y_target]))
    assert np.allclose(grads.weights[0], dW1), (  # the trace agrees with mlp_ref's backward pass
        f"lesson 7: the trace's dW1 is mlp_ref's backward pass; they differ by up to "
        f"{np.abs(grads.weights[0] - dW1).max():.2g}")
    return t.to_markdown(precision=4)


def zero_trace() -> str:
    """The same step as :func:`step_trace` with W1 and b1 all zero: every gradient of W1 is zero.

    Returns
    -------
    str
        Markdown trace table.
    """
    x, _, _, W2, b2, y_target, _ = tiny_net()
    W1_zero, b1_zero = np.zeros((2, 2)), np.zeros(2)
    t = Trace()
    z1 = t.record("z1", "x W1 + b1", x @ W1_zero + b1_zero)
    a1 = t.record("a1", "relu(z1)", mlp_ref.relu(z1))
    t.record("relu'(z1)", say("derivative at 0", ru="производная в 0"), mlp_ref.relu_grad(z1))
    y_hat = t.record("ŷ", "a1 W2 + b2", a1 @ W2 + b2)
    d2 = t.record("Δ2", "2 (ŷ − y)", 2.0 * (y_hat - y_target))
    d1 = t.record("Δ1", "(Δ2 W2ᵀ) ⊙ relu'(z1)", (d2 @ W2.T) * mlp_ref.relu_grad(z1))
    t.record("dW1", "xᵀ Δ1", x.T @ d1)
    t.record("dW2", "a1ᵀ Δ2", a1.T @ d2)
    t.record("db2", "Σ Δ2", d2.sum(axis=0))
    return t.to_markdown(precision=4)


def variance_table() -> str:
    """He's and Xavier's target variances beside the variance of one draw, for [784, 128, 64, 10].

    Returns
    -------
    str
        Markdown table, one row per weight matrix.
    """
    sizes = [784, 128, 64, 10]
    rows = []
    draw = np.random.default_rng(3)
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        rows.append([
            f"({n_in}, {n_out})",
            format_number(2 / n_in, 5),
            format_number(mlp_ref.he_normal(n_in, n_out, draw).var(), 5),
            format_number(2 / (n_in + n_out), 5),
            format_number(mlp_ref.xavier_normal(n_in, n_out, draw).var(), 5),
        ])
    return markdown_table(
        [say("W shape (d_in, d_out)", ru="форма W (d_in, d_out)"), "He 2/d_in",
         say("he_normal: var of a draw", ru="he_normal: дисперсия одной матрицы"), "Xavier 2/(d_in+d_out)",
         say("xavier_normal: var of a draw", ru="xavier_normal: дисперсия одной матрицы")], rows, align="lrrrr")


def _sigmoid_spread() -> np.ndarray:
    """The spread (std) of z at each of the :data:`DEPTH` layers of the figure's stack under the
    sigmoid with gain 1, PyTorch's ``calculate_gain("sigmoid")``: it drops in one step to a level
    and stays there, so gain 1 does not keep it level."""
    X_stack = np.random.default_rng(0).standard_normal((BATCH, WIDTH))
    z_std = mlp_ref.layer_statistics(X_stack, mlp_ref.random_stack(WIDTH, DEPTH, 1.0, seed=1), "sigmoid").z_std
    first, second, rest = float(z_std[0]), float(z_std[1]), z_std[1:]
    assert second < 0.75 * first, (  # "drops in one step from 1.00 at layer 1 to 0.54 at layer 2"
        f"lesson 7: under the sigmoid with gain 1 the spread of z drops by more than a quarter from layer 1 "
        f"to layer 2; found {first:.3g} and {second:.3g}")
    assert rest.max() - rest.min() < 0.2 * second, (  # "and stays at that level"
        f"lesson 7: under the sigmoid with gain 1 the spread of z stays at one level from layer 2 to {DEPTH}; "
        f"found values from {rest.min():.3g} to {rest.max():.3g}")
    assert abs(float(z_std[-1]) ** 2 - 0.25) < 0.05, (  # "E[a²], about 1/4 here": Var(z) = E[a²] at gain 1
        f"lesson 7: under the sigmoid with gain 1, Var(z) settles near E[a²] ≈ 1/4; found {z_std[-1] ** 2:.3g} at layer {DEPTH}")
    return z_std


def values() -> dict[str, str]:
    """The numbers lesson 7's prose says (``{@ l7.growth @}``), as it reads them."""
    factor, layers = 1.1, 100  # the quiz question's per-layer factor and depth
    growth = factor ** layers
    small_grad = inspect.signature(mlp_ref.layer_statistics).parameters["small_grad"].default
    relu_gain_sq = round(mlp_ref.kaiming_gain("relu") ** 2, 12)                         # He: gain √2
    torch_default = Fraction(1, 3) / Fraction(relu_gain_sq).limit_denominator(10)        # 1/(3n) against 2/n
    tanh_flat = next(z for z in range(1, 10) if 1 - math.tanh(z) ** 2 < small_grad)      # tanh' below the threshold
    fan_in, fan_out = 300, 100  # exercise 1's tanh layer
    sigmoid_z = _sigmoid_spread()
    return {
        "sigmoid_z1": format_number(sigmoid_z[0], 2),           # the sigmoid stack's spread at layer 1,
        "sigmoid_z2": format_number(sigmoid_z[1], 2),           # at layer 2, with gain 1
        "sigmoid_lo": format_number(sigmoid_z[1:].min(), 2),    # "between 0.47 and 0.56 from layer 2 on"
        "sigmoid_hi": format_number(sigmoid_z[1:].max(), 2),
        "sigmoid_zL": format_number(sigmoid_z[-1], 2),          # and at layer 50
        "growth": format_count(int(growth)),
        "growth_pow2": number(math.floor(math.log2(growth))),  # "more than 2^13"
        "steps": number(DEPTH - 1),                             # "over 49 layers": the factors from layer 1 to 50
        "small_grad": number(small_grad),                       # "derivative below 0.1"
        "tanh_sat_sq": number(1 - small_grad),                  # "|tanh z| > sqrt(0.9)": 1 - t² < 0.1
        "tanh_sat": format_number(math.sqrt(1 - small_grad), 3),  # "≈ 0.949"
        "relu_gain_sq": number(relu_gain_sq),                   # "a factor sqrt 2 in the gain is a factor 2"
        "torch_share": fraction_words(torch_default),           # "a sixth of He's"
        "torch_share_frac": str(torch_default),                 # Russian: "1/6 от дисперсии He"
        "leaky_identity_gain": number(mlp_ref.kaiming_gain("leaky_relu", 1.0)),  # "s = 1 ... it is 1"
        "tanh_flat": number(tanh_flat),                         # "beyond |z| ≈ 2"
        "ex_fan_sum": number(fan_in + fan_out),                 # "sqrt(2/400)"
    }
