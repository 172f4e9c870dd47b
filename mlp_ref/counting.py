"""Counting the parameters of an MLP, layer by layer, and the memory to train it.

A dense layer from ``d_in`` to ``d_out`` units stores a weight matrix ``W`` of shape
``(d_in, d_out)`` and a bias ``b`` of shape ``(d_out,)``, so it has
``d_in * d_out + d_out`` parameters. An MLP with widths ``[d_0, d_1, ..., d_L]`` has L
such layers.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlp_ref.validation import check_choice, check_int, check_layer_sizes


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


def layer_table(sizes) -> LayerTable:
    """Per-layer parameter counts.

    Parameters
    ----------
    sizes : sequence of int
        As for :func:`count_params`.

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


# --- memory -------------------------------------------------------------------------

BYTES_PER_ELEMENT = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2}
OPTIMIZER_STATE_COPIES = {"sgd": 0, "momentum": 1, "adam": 2}


@dataclass(frozen=True)
class MemoryEstimate:
    """Bytes needed to train a dense MLP on one batch; see ``memory_estimate``."""

    sizes: tuple[int, ...]
    batch: int
    dtype: str
    optimizer: str
    parameters: int
    gradients: int
    activations: int
    optimizer_state: int

    @property
    def total(self) -> int:
        """Sum of the four parts, in bytes."""
        return self.parameters + self.gradients + self.activations + self.optimizer_state

    def rows(self) -> list[tuple[str, int]]:
        """``[(part, bytes), ...]`` for the four parts and the total, each part named in English
        (lesson 6's tables name them in the page's language: :mod:`mlp_ref.course.counting_tables`)."""
        return [("parameters", self.parameters), ("gradients", self.gradients),
                ("activations (cache)", self.activations),
                (f"optimizer state ({self.optimizer})", self.optimizer_state), ("total", self.total)]


def memory_estimate(sizes, batch: int, dtype: str = "float32", optimizer: str = "sgd") -> MemoryEstimate:
    """Estimate the memory of one training step of a dense MLP, in bytes.

    What is counted, with P = ``count_params(sizes)`` and ``s`` bytes per element:

    * parameters: ``P * s`` (every ``W_l`` and ``b_l``);
    * gradients: ``P * s`` (one gradient array per parameter array);
    * activations: what a forward pass with a cache keeps for the backward pass, namely
      the input ``X`` of shape ``(B, d_0)`` and, for every layer ``l = 1..L``, the
      pre-activation ``z_l`` and the activation ``a_l``, both ``(B, d_l)``; that is
      ``B * (d_0 + 2 * (d_1 + ... + d_L)) * s``;
    * optimizer state: ``0`` for plain SGD, ``P * s`` for momentum (one velocity) and
      ``2 * P * s`` for Adam (first and second moments), all in the same dtype.

    Left out: the short-lived gradient buffers of the backward pass (``dz_l``), the
    labels, the loss, framework and allocator overhead, and the float32 master copy
    that mixed-precision training keeps next to float16 / bfloat16 weights.

    Parameters
    ----------
    sizes : sequence of int, length L + 1
        Layer widths ``[d_0, ..., d_L]``.
    batch : int
        Batch size B (``>= 1``).
    dtype : {"float32", "float64", "float16", "bfloat16"}
        Storage type of every array (8, 4, 2 or 2 bytes).
    optimizer : {"sgd", "momentum", "adam"}

    Returns
    -------
    MemoryEstimate
        The four parts in bytes, ``.total``, and ``.rows()``.
    """
    sizes = check_layer_sizes(sizes)
    batch = check_int("batch", batch, 1)
    dtype = check_choice("dtype", dtype, BYTES_PER_ELEMENT)
    optimizer = check_choice("optimizer", optimizer, OPTIMIZER_STATE_COPIES)
    itemsize = BYTES_PER_ELEMENT[dtype]
    params = count_params(sizes) * itemsize
    cached = int(batch) * (sizes[0] + 2 * sum(sizes[1:])) * itemsize
    return MemoryEstimate(tuple(sizes), int(batch), dtype, optimizer, params, params, cached,
                          OPTIMIZER_STATE_COPIES[optimizer] * params)
