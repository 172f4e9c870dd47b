"""The backward-pass stepper of lesson 5: its starting values and its words.

The stepper (``docs/javascripts/widgets/backward-stepper.js``) draws the page's 2-2-1 network
(ReLU hidden units, a sigmoid output, binary cross entropy) as a graph and walks its backward
pass one quantity at a time, in the rows of :func:`mlp_ref.course.backward_tables.backward_by_hand`
(each with the product that gives it, in numbers), with ∂L/∂ŷ before them, then takes one SGD
step and shows the new loss on a row of its own. It starts from the page's own network, input,
target and learning rate; the reader may change the input and the target. ``tests/test_widgets.py`` holds every number to ``mlp_ref``.
"""

from __future__ import annotations

import numpy as np

from mlp_ref.course.i18n import say
from mlp_ref.network import MLP, check_mlp
from mlp_ref.validation import check_real

#: The stepper's rows beyond the page's backward table, which the page counts: before the table's
#: first row (δ2 = ŷ − y), ∂L/∂ŷ, of which δ2 is the product with σ′(z2); after its last, the SGD
#: step and then the new loss. ``tests/test_widgets.py`` holds the script's rows to these counts.
ROWS_BEFORE_TABLE = 1
ROWS_AFTER_TABLE = 2


def stepper_data(net: MLP, x, y: float, lr: float) -> dict:
    """Starting values of the stepper.

    Parameters
    ----------
    net : MLP
        A 2-2-1 network with ReLU hidden units and a sigmoid output.
    x : array_like, shape (2,)
        The input.
    y : float
        The target, in [0, 1].
    lr : float
        The learning rate of the one SGD step, > 0.

    Returns
    -------
    dict
        JSON-serialisable; read by the script from ``data-config``.
    """
    check_mlp(net)
    if net.sizes != [2, 2, 1] or net.activation != "relu" or net.output != "sigmoid":
        raise ValueError(f"net: expected a 2-2-1 network with ReLU hidden units and a sigmoid output, received {net!r}")
    x = np.asarray(x, dtype=float)
    if x.shape != (2,):
        raise ValueError(f"x: expected shape (2,), received {x.shape}")
    y = check_real("y", y, low=0, high=1, low_closed=True, high_closed=True)
    lr = check_real("lr", lr, low=0)
    return {"W1": net.weights[0].tolist(), "b1": net.biases[0].tolist(), "W2": net.weights[1].tolist(),
            "b2": net.biases[1].tolist(), "x": x.tolist(), "y": float(y), "lr": float(lr), "precision": 4}


def without_script() -> str:
    """What a reader without JavaScript sees where the stepper would be, in the page's language."""
    return say("with JavaScript on, this is where you can walk the backward pass one quantity at a time; the table "
               "above shows the same quantities.",
               ru="с включённым JavaScript здесь можно пройти обратный проход по одной величине за раз; таблица "
                  "выше показывает те же величины.")


def stepper_text() -> dict:
    """The words of the stepper, in the language being built (its number fields' words are
    :mod:`mlp_ref.course.widgets`'s, added where the page is made)."""
    return {
        "notTarget": say('expected a number from 0 to 1, received "{text}"',
                         ru="нужно число от 0 до 1, а введено «{text}»"),
        "inputs": say("Input and target", ru="Вход и целевое значение"),
        "target": say("target y", ru="цель y"),
        "previous": say("Previous", ru="Назад"),
        "next": say("Next", ru="Дальше"),
        "restart": say("Start over", ru="Сначала"),
        "forward": say("Forward pass: z1 = ({z1}), a1 = ({a1}), ŷ = {y}; with the target y = {target} the loss is "
                       "{loss}. Press Next to go backward, one quantity at a time.",
                       ru="Прямой проход: z1 = ({z1}), a1 = ({a1}), ŷ = {y}; при цели y = {target} потери равны "
                          "{loss}. Нажимайте «Дальше», чтобы пройти назад по одной величине."),
        "graph": say("the 2-2-1 network as a graph: inputs x = ({x1}, {x2}) on the left, the hidden units, the output "
                     "ŷ = {y} on the right; the node or weight of the current quantity is drawn thick and orange",
                     ru="сеть 2-2-1 в виде графа: входы x = ({x1}, {x2}) слева, скрытые нейроны, выход ŷ = {y} "
                        "справа; узел или вес текущей величины выделен толстой оранжевой линией"),
        "sgd": say("one SGD step with η = {lr}", ru="один шаг SGD с η = {lr}"),
        "newLoss": say("the new loss", ru="новые потери"),
        "newLossRow": say("the new loss, after the step: {loss} (before it: {before})",
                          ru="новые потери, после шага: {loss} (до него: {before})"),
        "log": say("the forward pass and the rows so far", ru="прямой проход и пройденные строки"),
        "at": say("row {k} of {n}: {text}", ru="строка {k} из {n}: {text}"),
        "start": say("the forward pass; {n} rows follow", ru="прямой проход; дальше строк: {n}"),
    }
