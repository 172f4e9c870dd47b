"""Interactive widgets: the placeholder a page prints, with the values the widget starts from.

A widget is a small JavaScript module served by the site (``docs/javascripts/widgets/``).
The page prints :func:`widget_html` from a build-time block: a ``<div>`` holding the widget's
starting values as JSON (taken from the objects the page's own tables use, never typed
twice) and a sentence for readers without JavaScript, then the ``<script type="module">``
that turns the placeholder into the widget. The page's generated tables stay where they
are; the widget only adds to them.

The JavaScript computes with the same formulas as :mod:`mlp_ref` (``tests/test_widgets.py``
holds every number it shows to ``mlp_ref``). :data:`WIDGETS` says in one sentence what each
one does; the home page lists them from there.
"""

from __future__ import annotations

import html
import inspect
import json
from dataclasses import asdict, dataclass

import numpy as np

from mlp_ref.course.trace import DEFAULT_PRECISION
from mlp_ref.transformer_counts import FIELD_LABELS, ROW_LABELS, Breakdown, TransformerConfig


@dataclass(frozen=True)
class Widget:
    """One widget: the script that draws it, its title and what a reader can do with it."""

    script: str
    title: str
    sentence: str


WIDGETS = {
    "network-explorer": Widget(
        "network-explorer.js", "The 2-2-1 network explorer",
        "move the weights and biases of lesson 3's network or the input point, and watch the forward "
        "trace and the output over the whole input square follow; one button loads lesson 2's XOR weights"),
    "activation-explorer": Widget(
        "activation-explorer.js", "The activation explorer",
        "pick an activation, move z, and read f(z) and its derivative off the curves, with GELU's exact "
        "and tanh forms side by side"),
    "parameter-counter": Widget(
        "parameter-counter.js", "The parameter counter",
        "type the widths of an MLP, or change the sizes of a published transformer, and see where every "
        "parameter lives"),
}


def widget_html(name: str, data: dict, without_script: str) -> str:
    """The placeholder of widget ``name`` and the script tag that fills it.

    Parameters
    ----------
    name : str
        A key of :data:`WIDGETS`.
    data : dict
        JSON-serialisable starting values, read by the script from ``data-config``.
    without_script : str
        What a reader without JavaScript sees instead (plain text).

    Returns
    -------
    str
        HTML for a page built with ``use_directory_urls`` (one folder per page).
    """
    if name not in WIDGETS:
        raise ValueError(f"name: expected one of {sorted(WIDGETS)}, received {name!r}")
    widget = WIDGETS[name]
    config = html.escape(json.dumps(data, separators=(",", ":"), allow_nan=False), quote=True)
    return (f'<div class="mlp-widget" data-widget="{name}" data-config="{config}">'
            f'<p class="mlp-widget__fallback"><em>{html.escape(widget.title)}:</em> '
            f'{html.escape(without_script)}</p></div>\n'
            f'<script type="module" src="../../javascripts/widgets/{widget.script}"></script>')


def _floats(array) -> list:
    return np.asarray(array, dtype=float).tolist()


def network_data(net, x, xor_net, batch) -> dict:
    """Starting values of the network explorer.

    Parameters
    ----------
    net : MLP
        The page's 2-2-1 network (ReLU hidden layer): its weights, biases and output head.
    x : array_like, shape (2,)
        The input point the trace starts at.
    xor_net : MLP
        Lesson 2's 2-2-1 network that computes XOR, loaded by the widget's button.
    batch : array_like, shape (B, 2)
        The page's batch; the plotted input square holds it and the XOR corners.
    """
    corners = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    points = np.vstack([np.asarray(batch, dtype=float), corners, np.asarray(x, dtype=float)[None, :]])
    low, high = np.floor(points.min()) - 0.5, np.ceil(points.max()) + 0.5

    def params(model):
        return {"W1": _floats(model.weights[0]), "b1": _floats(model.biases[0]), "W2": _floats(model.weights[1]),
                "b2": _floats(model.biases[1]), "activation": model.activation, "output": model.output}

    return {"start": params(net), "xor": params(xor_net), "x": _floats(x), "corners": _floats(corners),
            "square": [float(low), float(high)], "precision": DEFAULT_PRECISION}


def activation_data(rows, grid) -> dict:
    """Starting values of the activation explorer.

    Parameters
    ----------
    rows : sequence of (label, name) or (label, name, slope)
        The page's activations, in its table's order; ``name`` is a key of
        ``mlp_ref.ACTIVATIONS`` or ``"prelu"`` with its slope.
    grid : array_like, shape (n,)
        The page's plotting grid: the widget plots over its range.
    """
    grid = np.asarray(grid, dtype=float)
    entries = [{"label": row[0], "name": row[1], **({"slope": float(row[2])} if len(row) > 2 else {})}
               for row in rows]
    return {"activations": entries, "range": [float(grid.min()), float(grid.max())], "precision": DEFAULT_PRECISION}


def counter_data(sizes, configs: tuple[TransformerConfig, ...]) -> dict:
    """Starting values of the parameter counter: the widths of the page's per-layer table and
    the page's transformer configurations, with their row labels and editable fields."""
    return {"sizes": [int(s) for s in sizes],
            "configs": [asdict(c) for c in configs],
            "rowLabels": {family: list(labels) for family, labels in ROW_LABELS.items()},
            "fieldLabels": FIELD_LABELS,
            # the breakdown tables' own default, so that a share reads as on the page
            "sharePrecision": inspect.signature(Breakdown.to_markdown).parameters["precision"].default}
