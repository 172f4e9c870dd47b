"""Lesson 3's tables, traces and widget: the 2-2-1 network's forward pass by hand, on a batch, and
the shapes of every intermediate of a 784-128-64-10 network; the numbers its prose says (:func:`values`)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

import mlp_ref
from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.course.trace import trace
from mlp_ref.course.widgets import network_data, widget_html
from mlp_ref.course.words import number, times, word

X = np.array([1.0, 2.0])                                                   # the single example, (2,)
X_BATCH = np.array([[1.0, 2.0], [0.5, 0.5], [-1.0, 0.3], [2.0, -1.5]])     # the batch of four, (4, 2)


# SYLLABUS's 2-2-1 network (ReLU hidden layer, sigmoid output), as mlp_ref.MLP.from_arrays takes it; each
# generator makes its own, in a line the reference's name scan reads (hooks/api_names.py: a
# page's ``net`` links to MLP's entries only while every binding of it makes an MLP).
LAYERS = ([np.array([[0.1, 0.2], [0.3, 0.4]]), np.array([[0.5], [0.6]])],   # W1 (2, 2), W2 (2, 1)
          [np.array([0.1, 0.1]), np.array([0.2])])                          # b1 (2,), b2 (1,)
# SYLLABUS's softmax fixture: a 2-2-2 network with a softmax head, as (W, b, activation) per layer.
SOFTMAX_LAYERS = [(np.array([[1.0, -1.0], [2.0, 1.0]]), np.array([0.0, 1.0]), "relu"),
                  (np.array([[1.0, 0.0], [-1.0, 2.0]]), np.array([0.0, 0.0]), "softmax")]
BARELY = 0.1   # a unit is "barely on" when its pre-activation is positive but below this


def _num(v: float) -> str:
    """A fixture number as you would write it by hand; negatives in parentheses."""
    return f"({v:g})" if v < 0 else f"{v:g}"


def _by_hand(x, W, b, name):
    """One row per unit: the sum of products written out, and its value; x (d_in,), W (d_in, d_out), b (d_out,)."""
    rows = []
    for j in range(W.shape[1]):
        terms = " + ".join(f"{_num(x[i])}·{_num(W[i, j])}" for i in range(len(x)))
        rows.append([f"{name}[{j + 1}]", f"{terms} + {_num(b[j])}",
                     format_number(x @ W[:, j] + b[j], 2)])
    return rows


def by_hand_table() -> str:
    """The forward pass of the 2-2-1 network on :data:`X`, every sum of products written out.

    Returns
    -------
    str
        A Markdown table: quantity, the arithmetic by hand, its value.
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    W1, W2 = net.weights
    b1, b2 = net.biases
    out, cache = net.forward(X[None, :], keep_cache=True)
    z1, a1, z2 = cache.pre_activations[0][0], cache.activations[1][0], cache.pre_activations[1][0]
    rows = _by_hand(X, W1, b1, "z1")
    rows += [[f"a1[{j + 1}]", f"relu({format_number(z1[j], 2)})", format_number(a1[j], 2)]
             for j in range(2)]
    rows += _by_hand(a1, W2, b2, "z2")
    rows.append(["ŷ", f"σ({format_number(z2[0], 2)}) = 1 / (1 + e^(−{format_number(z2[0], 2)}))",
                 format_number(out[0, 0], 4)])
    assert np.allclose([r for r in z1], X @ W1 + b1), (
        f"lesson 3: the by-hand table's z1 is x W1 + b1; the network's z1 differs from it by up to "
        f"{np.abs(z1 - (X @ W1 + b1)).max():.2g}")
    return markdown_table([say("quantity", ru="величина"), say("by hand", ru="вручную"),
                           say("value", ru="значение")], rows, "llr")


def single_trace() -> str:
    """The trace of the 2-2-1 network on :data:`X` as a batch of one, (1, 2).

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    return trace(net, X[None, :]).to_markdown(precision=4)


def batch_trace() -> str:
    """The trace of the 2-2-1 network on :data:`X_BATCH`, (4, 2).

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    return trace(net, X_BATCH).to_markdown(precision=4)


def _vec(v, p=2) -> str:
    return "(" + ", ".join(format_number(t, p) for t in v) + ")"


def _note(z) -> str:
    """What to notice about a row's hidden pre-activations z, (2,)."""
    if np.all(z <= 0):
        return say("both off: ŷ = σ(b2)", ru="оба выключены: ŷ = σ(b2)")
    if np.all(z > 0) and np.min(z) < BARELY:
        return say("both on, barely", ru="оба включены, но едва")
    if np.all(z > 0):
        return say("both on", ru="оба включены")
    return say("one off", ru="один выключен")


def batch_rows_table() -> str:
    """Each row of :data:`X_BATCH` with its z1, a1, z2 and ŷ, and what to notice about it.

    Returns
    -------
    str
        A Markdown table, one row per row of the batch.
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    Y_batch, batch_cache = net.forward(X_BATCH, keep_cache=True)
    Z1b, A1b, Z2b = batch_cache.pre_activations[0], batch_cache.activations[1], batch_cache.pre_activations[1]
    rows = [[str(i + 1), _vec(X_BATCH[i], 1), _vec(Z1b[i]), _vec(A1b[i]), format_number(Z2b[i, 0], 3),
             format_number(Y_batch[i, 0], 4), _note(Z1b[i])] for i in range(4)]
    return markdown_table([say("row", ru="строка"), "x", "z1", "a1 = relu(z1)", "z2", "ŷ",
                           say("notice", ru="что заметить")], rows, "clllrrl")


def network_explorer() -> str:
    """The network explorer widget, started on the page's network, input and batch.

    Returns
    -------
    str
        The widget's HTML, with what a reader without JavaScript reads instead.
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    return widget_html("network-explorer", network_data(net, X, mlp_ref.xor_by_hand(), X_BATCH),
                       say("with JavaScript on, this is where you can change the network's weights and input and "
                           "watch its trace follow; the traces above show the same computation for the page's values.",
                           ru="с включённым JavaScript здесь можно менять веса и вход сети и следить за её пошаговым "
                              "разбором; разборы выше показывают то же вычисление для значений этой страницы."))


def softmax_trace() -> str:
    """The trace of SYLLABUS's softmax fixture, a 2-2-2 network with a softmax head, on x = (1, 2).

    Returns
    -------
    str
        A Markdown table, one row per step.
    """
    return trace(SOFTMAX_LAYERS, X[None, :]).to_markdown(precision=4)


def shapes_table() -> str:
    """Every array of a 784-128-64-10 network's forward pass at B = 32: its shape, checked against
    the real array, its size and its role.

    Returns
    -------
    str
        A Markdown table, one row per array.
    """
    sizes = [784, 128, 64, 10]
    B = 32
    mnist = mlp_ref.MLP(sizes, output="softmax", seed=0)
    X_mnist = np.random.default_rng(0).uniform(0.0, 1.0, size=(B, sizes[0]))   # (B, 784)
    _, mnist_cache = mnist.forward(X_mnist, keep_cache=True)
    L = len(sizes) - 1

    def check(symbolic, array):
        """The symbolic shape with B = 32 substituted must be the array's real shape."""
        real = tuple(B if d == "B" else d for d in symbolic)
        assert real == array.shape, (f"lesson 3: the shape table says {symbolic}, that is {real} at B = {B}; "
                                     f"the network's array has shape {array.shape}")
        return "(" + ", ".join(map(str, symbolic)) + (",)" if len(symbolic) == 1 else ")")

    rows = [["X = A0", say("input batch", ru="входной батч"), check(("B", sizes[0]), mnist_cache.activations[0]),
             format_count(mnist_cache.activations[0].size), say("input, kept", ru="вход, хранится")]]
    for l in range(1, L + 1):
        d_in, d_out = sizes[l - 1], sizes[l]
        W, b = mnist.weights[l - 1], mnist.biases[l - 1]
        Z, A = mnist_cache.pre_activations[l - 1], mnist_cache.activations[l]
        last = l == L
        parameter, kept = say("parameter", ru="параметр"), say("kept", ru="хранится")
        rows += [
            [f"W{l}", say(f"weights of layer {l}", ru=f"веса слоя {l}"), check((d_in, d_out), W),
             format_count(W.size), parameter],
            [f"b{l}", say(f"bias of layer {l}", ru=f"смещение слоя {l}"), check((d_out,), b),
             format_count(b.size), parameter],
            [f"Z{l}", f"A{l - 1} W{l} + b{l}" + (say("  (logits)", ru="  (логиты)") if last else ""),
             check(("B", d_out), Z), format_count(Z.size), kept],
            [f"A{l}" if not last else "P = A3", "softmax(Z3)" if last else f"relu(Z{l})", check(("B", d_out), A),
             format_count(A.size), say("kept (output)", ru="хранится (выход)") if last else kept],
        ]
    return markdown_table([say("name", ru="имя"), say("what", ru="что это"), say("shape", ru="форма"),
                           say(f"numbers at B = {B}", ru=f"чисел при B = {B}"), say("role", ru="роль")],
                          rows, "lllrl")


def _barely_parts(x, W, b) -> dict[str, str]:
    """What each input adds to the hidden pre-activations of the barely-on row x (2,): x_i times row i
    of W (2, 2), beside the biases b (2,); checks what the page says of them."""
    first, second = x[0] * W[0], x[1] * W[1]                 # (2,) each
    assert np.allclose(first + second + b, x @ W + b), "lesson 3: the parts must add up to z1"
    # "cancels unit 1's bias exactly": -1·0.1 + 0.1 is 0 in floats too, but a tolerance says
    # what is meant (the sum, not the bits) and keeps the check true under another rounding.
    assert np.isclose(first[0] + b[0], 0.0, atol=1e-12), (
        f"lesson 3, the barely-on row: expected the first input's part to cancel unit 1's bias, found {first[0]} + {b[0]} = {first[0] + b[0]}")
    ratio = -first[1] / b[1]
    assert np.isclose(ratio, 2.0), f"lesson 3: expected the first input's part to be twice unit 2's bias, found {ratio}"
    # "what keeps both units on is the second input's part": without it, neither would be on
    assert np.all(first + b <= 0) and np.all(first + second + b > 0), (
        f"lesson 3: expected both units off without the second input and on with it, found "
        f"{first + b} and {first + second + b}")
    vec = lambda v: "(" + ", ".join(number(t).replace("-", "−") for t in v) + ")"   # noqa: E731
    return {"barely_first": vec(first), "barely_second": vec(second), "barely_bias": vec(b),
            "barely_ratio": say(times(round(ratio)), ru="вдвое" if round(ratio) == 2 else f"в {round(ratio)} раза")}


def values() -> dict[str, str]:
    """The numbers lesson 3's prose says (``{@ l3.steps @}``), as it reads them."""
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    _, batch_cache = net.forward(X_BATCH, keep_cache=True)
    Z1 = batch_cache.pre_activations[0]   # (4, 2), the rows batch_rows_table notes
    barely_rows = [i + 1 for i, z in enumerate(Z1) if np.all(z > 0) and z.min() < BARELY]
    dead_rows = [i + 1 for i, z in enumerate(Z1) if np.all(z <= 0)]
    single_rows = [i + 1 for i, row in enumerate(X_BATCH) if np.array_equal(row, X)]
    assert len(barely_rows) == len(dead_rows) == len(single_rows) == 1, (
        f"lesson 3: the batch has one row barely on (every z1 > 0, one below {BARELY}), one row dead (every "
        f"z1 <= 0) and one row equal to the single input x; found rows {barely_rows}, {dead_rows} and {single_rows}")
    # the softmax fixture's logits, and the same logits shifted (check-yourself 5)
    softmax_net = mlp_ref.MLP.from_arrays([W for W, _, _ in SOFTMAX_LAYERS], [b for _, b, _ in SOFTMAX_LAYERS],
                                          activation="relu", output="softmax")
    logits = softmax_net.logits(X[None, :])[0]
    shift = 100
    gap = logits[1] - logits[0]
    # exercise 3: [784, 256, 10], softmax head, B = 64; check-yourself 1: (B, 784) into 128 units
    _, ex3 = mlp_ref.MLP([784, 256, 10], output="softmax", seed=0).forward(np.zeros((64, 784)), keep_cache=True)
    first_layer = mlp_ref.MLP([784, 128], seed=0)
    # the exercise's starter file, in the checkout the site is built from
    starter = Path(__file__).resolve().parents[3] / "docs" / "exercises" / "lesson03-forward-pass" / "forward.py"
    to_write = [node.name for node in ast.parse(starter.read_text(encoding="utf-8")).body
                if isinstance(node, ast.FunctionDef) and "NotImplementedError" in ast.unparse(node)]
    shape = lambda s: ", ".join(map(str, s))  # noqa: E731
    return {
        "steps": word(len(trace(net, X[None, :])) - 1),              # "four lines", "four steps"
        "barely_row": number(barely_rows[0]),                        # "Row 3"
        "dead_row": number(dead_rows[0]),                            # "Row 4"
        "single_row": number(single_rows[0]),                        # "Row 1 is the single example"
        "logits": ", ".join(number(z) for z in logits),              # "(3, 4)"
        "shifted_logits": ", ".join(number(z + shift) for z in logits),  # "(103, 104)"
        "logit_gap": number(gap),                                    # "sigma(1)", "which is 1"
        "logit_gap_word": word(int(round(gap))),                     # "differ by one"
        "ex3_X": shape(ex3.activations[0].shape),                    # "(64, 784)"
        "ex3_hidden": shape(ex3.activations[1].shape),               # "(64, 256)"
        "ex3_out": shape(ex3.activations[2].shape),                  # "(64, 10)"
        "cy_W1": shape(first_layer.weights[0].shape),                # "(784, 128)"
        "cy_b1": shape(first_layer.biases[0].shape) + ",",           # "(128,)"
        "cy_width": number(first_layer.sizes[1]),                    # "(B, 128)"
        "starter_functions": word(len(to_write)),                    # "the three functions"
        **_barely_parts(X_BATCH[barely_rows[0] - 1], *[a[0] for a in (net.weights, net.biases)]),  # row 3's parts
    }
