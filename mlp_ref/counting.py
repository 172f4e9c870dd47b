"""Counting the parameters of an MLP, layer by layer.

A dense layer from ``d_in`` to ``d_out`` units stores a weight matrix ``W`` of shape
``(d_in, d_out)`` and a bias ``b`` of shape ``(d_out,)``, so it has
``d_in * d_out + d_out`` parameters. An MLP with widths ``[d_0, d_1, ..., d_L]`` has L
such layers.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlp_ref.tables import format_count, markdown_table
from mlp_ref.validation import check_layer_sizes


def count_params(sizes) -> int:
    """Number of weights and biases of a dense MLP.

    Parameters
    ----------
    sizes : sequence of int, length L + 1
        Layer widths ``[d_0, ..., d_L]``, input width first.

    Returns
    -------
    int
        ``sum(d_{l-1} * d_l + d_l for l = 1..L)``; for example 101,770 for
        ``[784, 128, 10]``.
    """
    sizes = check_layer_sizes(sizes)
    return sum(d_in * d_out + d_out for d_in, d_out in zip(sizes[:-1], sizes[1:]))


@dataclass(frozen=True)
class LayerRow:
    """Parameter count of one dense layer ``l`` (1-based): ``W`` (d_in, d_out), ``b`` (d_out,)."""

    layer: int
    d_in: int
    d_out: int
    weights: int
    biases: int
    total: int


@dataclass(frozen=True)
class LayerTable:
    """Per-layer parameter counts of an MLP; iterate over it to get the ``LayerRow`` s."""

    rows: tuple[LayerRow, ...]

    @property
    def total(self) -> int:
        """All parameters of the network."""
        return sum(row.total for row in self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int) -> LayerRow:
        return self.rows[index]

    def to_markdown(self) -> str:
        """Markdown table: layer | shape of W | weights | biases | total, plus a total row."""
        body = [
            [str(r.layer), f"({r.d_in}, {r.d_out})", format_count(r.weights),
             format_count(r.biases), format_count(r.total)]
            for r in self.rows
        ]
        body.append([
            "total", "",
            format_count(sum(r.weights for r in self.rows)),
            format_count(sum(r.biases for r in self.rows)),
            format_count(self.total),
        ])
        return markdown_table(["layer", "W shape (d_in, d_out)", "weights", "biases", "total"],
                              body, align="lrrrr")


def layer_table(sizes) -> LayerTable:
    """Per-layer parameter counts.

    Parameters
    ----------
    sizes : sequence of int, length L + 1
        Layer widths ``[d_0, ..., d_L]``, input width first.

    Returns
    -------
    LayerTable
        L rows; row ``l`` (1-based) describes ``W_l`` of shape ``(d_{l-1}, d_l)`` and
        ``b_l`` of shape ``(d_l,)``. ``.total`` equals ``count_params(sizes)``.
    """
    sizes = check_layer_sizes(sizes)
    rows = []
    for layer, (d_in, d_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        rows.append(LayerRow(layer, d_in, d_out, d_in * d_out, d_out, d_in * d_out + d_out))
    return LayerTable(tuple(rows))


def layer_table_markdown(sizes) -> str:
    """Shortcut for ``layer_table(sizes).to_markdown()`` (see ``LayerTable.to_markdown``)."""
    return layer_table(sizes).to_markdown()
