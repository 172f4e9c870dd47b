"""Worked traces: every step of a forward pass, with its expression, shape and value.

Every lesson page shows one. ``trace(model, X)`` runs a dense network on ``X`` and
records the steps::

    x   = input                 (B, d_0)
    z1  = x W1 + b1             (B, d_1)
    a1  = relu(z1)              (B, d_1)
    ...
    zL  = a{L-1} WL + bL        (B, d_L)
    aL  = sigmoid(zL)           (B, d_L)   # the output activation

and the resulting ``Trace`` renders as a Markdown table (``to_markdown``) or as aligned
plain text (``print(trace)``). A ``Trace`` can also be filled by hand with ``record``,
for computations that are not a plain dense stack.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from mlp_ref import activations
from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_number, markdown_table
from mlp_ref.validation import ShapeError, as_float_array, check_int, check_width

DEFAULT_PRECISION = 4
#: The expression of the input step that :func:`trace` records (what ``print(trace)`` shows).
INPUT = "input"


def column_headers() -> list[str]:
    """The columns of a rendered trace (step, expression, shape, value), in the page's language.

    Returns
    -------
    list of str
        Four headers, Russian while a Russian page is built (:func:`mlp_ref.course.i18n.say`).
    """
    return [say("step", ru="шаг"), say("expression", ru="выражение"), say("shape", ru="форма"),
            say("value", ru="значение")]


def said_expression(expression: str) -> str:
    """An expression as a page's table shows it: the input step's :data:`INPUT` in the page's
    language, any other expression (code: names and operators) as it is.

    Parameters
    ----------
    expression : str
        A step's expression.

    Returns
    -------
    str
        ``"вход"`` for :data:`INPUT` while a Russian page is built, else ``expression``.
    """
    return say(INPUT, ru="вход") if expression == INPUT else expression


@dataclass(frozen=True)
class Step:
    """One recorded step: ``name = expression``, whose result is ``value``.

    Attributes
    ----------
    name : str
        Short name, e.g. ``"z1"``.
    expression : str
        How the value was computed, e.g. ``"x W1 + b1"``.
    value : numpy.ndarray, any shape
        A read-only copy of the value at the time it was recorded.
    """

    name: str
    expression: str
    value: np.ndarray

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of ``value``."""
        return self.value.shape


def format_value(value: np.ndarray, precision: int = DEFAULT_PRECISION) -> list[str]:
    """Format an array as lines of text, one line per row.

    Parameters
    ----------
    value : numpy.ndarray
        A scalar (shape ``()``), a vector ``(d,)``, a single row ``(1, d)`` or a batch
        ``(B, d)``; arrays with more axes are shown one last-axis row per line, in C order.
    precision : int
        Decimals for every number (see ``format_number``).

    Returns
    -------
    list of str
        ``["0.8000"]`` for a scalar, ``["[0.8000, 1.1000]"]`` for a vector or a
        ``(1, 2)`` row, and B lines for a ``(B, d)`` batch.
    """
    value = np.asarray(value)
    if value.ndim == 0:
        return [format_number(value.item(), precision)]
    rows = value.reshape(int(np.prod(value.shape[:-1])), value.shape[-1])
    return ["[" + ", ".join(format_number(v, precision) for v in row.tolist()) + "]" for row in rows]


@dataclass
class Trace:
    """An ordered list of ``Step`` s, rendered as a table.

    Attributes
    ----------
    steps : list of Step
        The steps in the order they were recorded.
    precision : int
        Default number of decimals for ``to_markdown`` and ``str``.
    """

    steps: list[Step] = field(default_factory=list)
    precision: int = DEFAULT_PRECISION

    def record(self, name: str, expression: str, value) -> np.ndarray:
        """Store a copy of ``value`` as a new step and return ``value`` for chaining.

        Parameters
        ----------
        name, expression : str
            Step name and how it was computed.
        value : array_like, any shape
            The result; a read-only copy is stored, so changing the array afterwards
            does not change the trace.

        Returns
        -------
        numpy.ndarray
            ``value`` as an array (the caller's object, not the stored copy).
        """
        for arg, text in (("name", name), ("expression", expression)):
            if not isinstance(text, str):
                raise TypeError(f"{arg}: expected a str, received {type(text).__name__}")
        array = np.asarray(value)
        stored = np.array(array, copy=True)
        stored.flags.writeable = False
        self.steps.append(Step(name, expression, stored))
        return array

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self):
        return iter(self.steps)

    def __getitem__(self, key: int | str) -> Step:
        """A step by position or by name (the last step with that name)."""
        if isinstance(key, str):
            for step in reversed(self.steps):
                if step.name == key:
                    return step
            raise KeyError(f"no step named {key!r}; steps are {[s.name for s in self.steps]}")
        return self.steps[key]

    def _rows(self, precision: int | None) -> list[tuple[str, str, str, list[str]]]:
        precision = self.precision if precision is None else check_int("precision", precision, 0)
        return [(s.name, s.expression, str(s.shape), format_value(s.value, precision))
                for s in self.steps]

    def to_markdown(self, precision: int | None = None) -> str:
        """Markdown table with columns step | expression | shape | value.

        A page's table: its headers and the input step's expression are in the language being
        built (:func:`column_headers`, :func:`said_expression`).

        Parameters
        ----------
        precision : int, optional
            Decimals for every value; defaults to ``self.precision``.

        Returns
        -------
        str
            One table row per step; a batch value shows one array row per line
            (separated by ``<br>``).
        """
        # words in the page's language; to_text stays English (what a reader's own print shows)
        body = [[name, f"`{said_expression(expr)}`", shape, "<br>".join(lines)]
                for name, expr, shape, lines in self._rows(precision)]
        return markdown_table(column_headers(), body, align="llll")

    def to_text(self, precision: int | None = None) -> str:
        """Aligned plain text with the same columns as ``to_markdown`` (what ``print`` shows).

        Always in English: it is what a reader's own ``print(trace)`` shows, on either edition.
        """
        headers = ("step", "expression", "shape", "value")
        rows = self._rows(precision)
        widths = [max([len(headers[j])] + [len(r[j]) for r in rows]) for j in range(3)]

        def line(cells: Sequence[str]) -> str:
            return "  ".join(c.ljust(w) for c, w in zip(cells, widths + [0])).rstrip()

        out = [line(headers), line(["-" * w for w in widths] + ["-" * 5])]
        for name, expr, shape, lines in rows:
            out.append(line([name, expr, shape, lines[0]]))
            out.extend(line(["", "", "", extra]) for extra in lines[1:])
        return "\n".join(out)

    def __str__(self) -> str:
        return self.to_text()


def _resolve_activation(activation) -> tuple[Callable[[np.ndarray], np.ndarray], str]:
    """Return ``(function, display name)`` for an activation name or callable."""
    if callable(activation):
        return activation, getattr(activation, "__name__", "f")
    if not isinstance(activation, str):
        raise TypeError(f"activation: expected a name or a callable, received {activation!r}")
    if activation in ("softmax", "log_softmax"):
        return getattr(activations, activation), activation
    fn, _derivative = activations.get_activation(activation)
    return fn, activation


def _layers_of(model) -> list[tuple[np.ndarray, np.ndarray, object]]:
    """Turn an MLP or a sequence of (W, b, activation) triples into a list of triples."""
    if all(hasattr(model, attr) for attr in ("weights", "biases", "activation", "output")):
        n = len(model.weights)
        if len(model.biases) != n:
            raise ShapeError(f"model: {n} weight matrices but {len(model.biases)} bias vectors")
        acts = [model.activation] * (n - 1) + [model.output]
        return list(zip(model.weights, model.biases, acts))
    if isinstance(model, (str, bytes)) or not isinstance(model, Sequence):
        raise TypeError("model: expected an MLP (with .weights, .biases, .activation, .output) "
                        f"or a sequence of (W, b, activation) triples, received {type(model).__name__}")
    layers = []
    for index, item in enumerate(model, start=1):
        if not isinstance(item, (tuple, list)) or len(item) != 3:
            raise TypeError(f"model (layer {index}): expected a (W, b, activation) triple, received {item!r}")
        layers.append(tuple(item))
    return layers


def trace(model, X, *, precision: int | None = None) -> Trace:
    """Run a dense network on ``X`` and record every step.

    Parameters
    ----------
    model : MLP or sequence of (W, b, activation) triples
        An object with ``weights`` (list of ``(d_{l-1}, d_l)`` arrays), ``biases``
        (list of ``(d_l,)`` arrays), ``activation`` (hidden activation name) and
        ``output`` (output activation name); or explicit triples, where
        ``activation`` is a name such as ``"relu"``, ``"sigmoid"``, ``"softmax"``,
        ``"identity"``, or a callable.
    X : array_like, shape (B, d_0)
        One row ``(1, d_0)`` or a batch. A 1-D array is rejected: pass one example as
        ``x[None, :]``.
    precision : int, optional
        Default decimals of the rendered trace (4 if not given).

    Returns
    -------
    Trace
        Steps ``x``, then ``z{l}`` (``a{l-1} W{l} + b{l}``, with ``x`` for ``a0``) and
        ``a{l}`` (``f(z{l})``) for each layer ``l = 1..L``, each of shape ``(B, d_l)``.

    Raises
    ------
    ShapeError
        If ``X`` is not 2-D, its width is not ``d_0``, or a layer's ``W`` or ``b`` does
        not fit the previous layer (the message names the layer).
    """
    layers = _layers_of(model)
    if not layers:
        raise ValueError("model: expected at least one layer, received none")
    result = Trace(precision=DEFAULT_PRECISION if precision is None else check_int("precision", precision, 0))
    first_w = np.asarray(layers[0][0])
    dtype = first_w.dtype if first_w.dtype in (np.float32, np.float64) else np.float64
    a = as_float_array(X, "X", ndim=2, dtype=dtype)
    result.record("x", INPUT, a)
    previous = "x"
    for layer, (W, b, activation) in enumerate(layers, start=1):
        W = as_float_array(W, "W", ndim=2, dtype=dtype, layer=layer)
        b = as_float_array(b, "b", ndim=1, dtype=dtype, layer=layer)
        if layer == 1:
            check_width(a, W.shape[0], "X", layer=1)
        elif W.shape[0] != a.shape[1]:
            raise ShapeError(f"W (layer {layer}): expected {a.shape[1]} rows (the width of a{layer - 1}), "
                             f"received shape {W.shape}")
        if b.shape[0] != W.shape[1]:
            raise ShapeError(f"b (layer {layer}): expected shape ({W.shape[1]},) to match W of shape "
                             f"{W.shape}, received {b.shape}")
        fn, fn_name = _resolve_activation(activation)
        z = result.record(f"z{layer}", f"{previous} W{layer} + b{layer}", a @ W + b)
        a = result.record(f"a{layer}", f"{fn_name}(z{layer})", np.asarray(fn(z)))
        previous = f"a{layer}"
    return result
