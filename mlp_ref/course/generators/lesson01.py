"""Lesson 1's figure and traces: one neuron's output against its bias, its trace, a layer's trace;
the numbers its prose says (:func:`values`: none yet)."""

from __future__ import annotations

import numpy as np

import mlp_ref
from mlp_ref.course.figures import figure_html, new_figure
from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_number
from mlp_ref.course.trace import Trace, trace

X = np.array([2.0, -1.0, 0.5])   # the neuron's input, (3,)
W = np.array([0.6, 0.3, -1.0])   # its weights, (3,)


def bias_figure() -> str:
    """The neuron's output relu(w·x + b) against its bias b, with the trace's two biases marked.

    Returns
    -------
    str
        The figure as HTML (:func:`mlp_ref.course.figures.figure_html`).
    """
    biases = np.linspace(-2.0, 1.5, 351)              # (351,)
    outputs = mlp_ref.relu(X @ W + biases)            # (351,)
    threshold = -(X @ W)
    fig, ax = new_figure(figsize=(6.0, 3.2))
    ax.plot(biases, outputs, linewidth=2, label="a = relu(w·x + b)")
    ax.axvline(threshold, linestyle="--", color="0.4", label=f"b = −w·x = {threshold:.1f}")
    marked = np.array([0.4, -1.0])  # the two biases of the worked trace
    marked_out = mlp_ref.relu(X @ W + marked)         # (2,)
    ax.scatter(marked, marked_out, zorder=3, color="#D55E00",
               label=say("b = 0.4 and b = −1 (the trace below)", ru="b = 0.4 и b = −1 (разбор ниже)"))
    ax.set_xlabel(say("bias b (no unit)", ru="смещение b"))
    ax.set_ylabel(say("neuron output a (no unit)", ru="выход нейрона a"))
    ax.legend(loc="upper left", frameon=False)
    return figure_html(
        fig,
        alt=say("Line chart of the neuron's output against its bias. The output is zero for every "
                f"bias below {threshold:.1f} and grows with slope one above it. Two points mark the "
                f"biases 0.4 (output {format_number(marked_out[0], 1)}) and −1 "
                f"(output {format_number(marked_out[1], 0)}).",
                ru="График выхода нейрона в зависимости от смещения. Выход равен нулю при любом "
                   f"смещении меньше {threshold:.1f}, а выше растёт с единичным наклоном. Две точки отмечают "
                   f"смещения 0.4 (выход {format_number(marked_out[0], 1)}) и −1 "
                   f"(выход {format_number(marked_out[1], 0)})."),
        caption=say("The bias is a threshold. For the fixed input x = (2, −1, 0.5) and weights "
                    "w = (0.6, 0.3, −1), the neuron stays silent until b passes −w·x, then responds linearly.",
                    ru="Смещение работает как порог. При фиксированном входе x = (2, −1, 0.5) и весах "
                       "w = (0.6, 0.3, −1) нейрон молчит, пока b не превысит −w·x, а дальше откликается линейно."),
    )


def neuron_trace() -> str:
    """The neuron's trace on :data:`X`, :data:`W`: once with b = 0.4 (on), once with b = −1 (silent).

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    neuron = Trace()
    neuron.record("x", say("input", ru="вход"), X)
    neuron.record("w", say("weights", ru="веса"), W)
    neuron.record("w·x", say("sum of w_i x_i", ru="сумма w_i x_i"), X @ W)
    z = neuron.record("z", say("w·x + b, with b = 0.4", ru="w·x + b при b = 0.4"), X @ W + 0.4)
    neuron.record("a", "relu(z)", mlp_ref.relu(z))
    z_silent = neuron.record("z'", say("w·x + b, with b = −1", ru="w·x + b при b = −1"), X @ W - 1.0)
    neuron.record("a'", say("relu(z')  (the neuron is silent)", ru="relu(z')  (нейрон молчит)"),
                  mlp_ref.relu(z_silent))
    return neuron.to_markdown(precision=2)


def layer_trace() -> str:
    """A ReLU layer of three units, W (2, 3) and b (3,), on one input row of shape (1, 2).

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    W_layer = np.array([[1.0, 0.0, -1.0],
                        [0.5, 1.0, 2.0]])   # (2, 3)
    b = np.array([0.0, -1.0, 0.5])          # (3,)
    return trace([(W_layer, b, "relu")], np.array([[1.0, 2.0]])).to_markdown(precision=2)


def values() -> dict[str, str]:
    """The numbers lesson 1's prose says (``{@ l1.name @}``): none yet, the namespace kept for the page."""
    return {}
