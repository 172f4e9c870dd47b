"""Tables for lesson 5's pages: the backward pass written out by hand, and its cost.

Page rendering, not math: each function returns Markdown (via :func:`mlp_ref.course.tables.markdown_table`)
built from the math of :meth:`MLP.backward` and :mod:`mlp_ref.multiply_adds`.

:func:`backward_by_hand` recomputes every entry of the backward pass of a one-hidden-layer
network on one example with plain Python floats, one product at a time, as a reader would on
paper, and sets each value next to the one :meth:`MLP.backward` returns; it raises if any
two disagree, so the table can only be printed when hand and code say the same.
"""

from __future__ import annotations

import math

import numpy as np

from mlp_ref.multiply_adds import MultiplyAdds
from mlp_ref.network import MLP, check_mlp
from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_count, format_number, markdown_table

__all__ = ["backward_by_hand", "multiply_add_table"]


def _fmt(v: float, decimals: int) -> str:
    return format_number(v + 0.0, decimals)


def backward_by_hand(net: MLP, x, y: float, decimals: int = 4) -> str:
    """The backward pass of a 2-layer ReLU/sigmoid network on one example, entry by entry.

    Parameters
    ----------
    net : MLP
        Two layers, ReLU hidden units, a sigmoid output (``sizes = [d_0, h, 1]``).
    x : array_like, shape (d_0,)
        One example.
    y : float
        Its target in [0, 1]; the loss is binary cross entropy.
    decimals : int
        Decimals shown.

    Returns
    -------
    str
        A Markdown table: quantity, shape, the sum written out, its value by hand, and
        ``mlp_ref``'s value.

    Raises
    ------
    ValueError
        For another kind of network, or if a hand value and ``mlp_ref``'s differ by more
        than 1e-12 (relative).
    """
    check_mlp(net)
    if len(net.weights) != 2 or net.activation != "relu" or net.output != "sigmoid":
        raise ValueError(f"net: expected a 2-layer network with ReLU hidden units and a sigmoid output, "
                         f"received {net!r}")
    x = net.check_X(np.asarray(x, dtype=float)[None, :])[0].tolist()
    W1, b1 = net.weights[0].tolist(), net.biases[0].tolist()
    W2, b2 = [row[0] for row in net.weights[1].tolist()], net.biases[1][0]
    h = len(b1)
    # forward, by hand
    z1 = [sum(x[i] * W1[i][j] for i in range(len(x))) + b1[j] for j in range(h)]
    a1 = [max(z, 0.0) for z in z1]
    z2 = sum(a1[j] * W2[j] for j in range(h)) + b2
    y_hat = 1.0 / (1.0 + math.exp(-z2))
    # backward, by hand (B = 1, so the batch mean divides by 1)
    d2 = y_hat - y
    dW2 = [a1[j] * d2 for j in range(h)]
    da1 = [d2 * W2[j] for j in range(h)]
    mask = [1.0 if z > 0 else 0.0 for z in z1]
    d1 = [da1[j] * mask[j] for j in range(h)]
    dW1 = [[x[i] * d1[j] for j in range(h)] for i in range(len(x))]
    # the same by mlp_ref
    _, cache = net.forward(np.array([x]), keep_cache=True)
    _, delta = net.loss_and_delta(cache.pre_activations[-1], np.array([[y]]))
    grads = net.backward(cache, delta)

    f = lambda v: _fmt(v, decimals)  # noqa: E731
    rows = []

    def row(name, shape, expression, mine, theirs):
        if not math.isclose(mine, float(theirs), rel_tol=1e-12, abs_tol=1e-15):
            raise ValueError(f"{name}: by hand {mine!r}, mlp_ref {float(theirs)!r}")
        rows.append([name, shape, expression, f(mine), f(float(theirs))])

    row("δ2 = ŷ − y", "(1, 1)", f"{f(y_hat)} − {y:g}", d2, delta[0, 0])
    for j in range(h):
        row(f"∂L/∂W2[{j + 1}]", "(2, 1)" if h == 2 else f"({h}, 1)", f"a1[{j + 1}] · δ2 = {f(a1[j])} · {f(d2)}",
            dW2[j], grads.weights[1][j, 0])
    row("∂L/∂b2", "(1,)", "δ2", d2, grads.biases[1][0])
    for j in range(h):
        rows.append([f"∂L/∂a1[{j + 1}]", f"(1, {h})", f"δ2 · W2[{j + 1}] = {f(d2)} · {f(W2[j])}", f(da1[j]), "—"])
    for j in range(h):
        row(f"δ1[{j + 1}]", f"(1, {h})", f"∂L/∂a1[{j + 1}] · relu′({f(z1[j])}) = {f(da1[j])} · {mask[j]:g}",
            d1[j], grads.biases[0][j])
    for i in range(len(x)):
        for j in range(h):
            row(f"∂L/∂W1[{i + 1},{j + 1}]", f"({len(x)}, {h})", f"x[{i + 1}] · δ1[{j + 1}] = {f(x[i])} · {f(d1[j])}",
                dW1[i][j], grads.weights[0][i, j])
    for j in range(h):
        row(f"∂L/∂b1[{j + 1}]", f"({h},)", f"δ1[{j + 1}]", d1[j], grads.biases[0][j])
    return markdown_table([say("quantity", ru="величина"), say("shape", ru="форма"),
                           say("by hand", ru="вручную"), say("value", ru="значение"), "mlp_ref"], rows, "lllrr")


def multiply_add_table(counts: MultiplyAdds) -> str:
    """One row per matrix product of :func:`mlp_ref.count_multiply_adds`, then the totals.

    Returns
    -------
    str
        A Markdown table: pass, product (operand shapes), multiply-adds ``m k n``.
    """
    rows = []
    forward, backward = say("forward", ru="прямой"), say("backward", ru="обратный")
    for name, products in ((forward, counts.forward), (backward, counts.backward)):
        for a, b in products:
            rows.append([name, f"({a[0]}, {a[1]}) @ ({b[0]}, {b[1]})", format_count(a[0] * a[1] * b[1])])
    total = say("total", ru="всего")
    rows.append([f"**{forward}, {total}**", "", f"**{format_count(counts.forward_total)}**"])
    rows.append([f"**{backward}, {total}**", "", f"**{format_count(counts.backward_total)}**"])
    rows.append([f"**{backward} / {forward}**", "", f"**{format_number(counts.ratio, 2)}**"])
    return markdown_table([say("pass", ru="проход"), say("product", ru="произведение"),
                           say("multiply-adds", ru="умножений-сложений")], rows, "llr")
