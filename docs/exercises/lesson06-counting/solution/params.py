"""Lesson 6 exercise, reference solution: parameter counts of an MLP and of FFN blocks.

Layer ``l`` of an MLP with widths ``[d_0, d_1, ..., d_L]`` has ``W_l`` of shape
``(d_{l-1}, d_l)`` and ``b_l`` of shape ``(d_l,)``.
"""

import numbers


def _check_sizes(sizes):
    sizes = list(sizes)
    if len(sizes) < 2:
        raise ValueError(f"sizes: expected at least two widths (input and output), received {sizes!r}")
    for i, width in enumerate(sizes):
        if isinstance(width, bool) or not isinstance(width, numbers.Integral) or width < 1:
            raise ValueError(f"sizes[{i}]: expected a positive integer width, received {width!r}")
    return [int(width) for width in sizes]


def _check_positive(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name}: expected a positive integer, received {value!r}")
    return int(value)


def layer_params(sizes):
    """Parameters of each layer: ``[d_{l-1} * d_l + d_l for l = 1..L]`` (list of int, length L)."""
    sizes = _check_sizes(sizes)
    return [d_in * d_out + d_out for d_in, d_out in zip(sizes[:-1], sizes[1:])]


def count_params(sizes):
    """All weights and biases of a dense MLP with widths ``sizes`` (int)."""
    return sum(layer_params(sizes))


def ffn_params(d, d_ff, bias=True):
    """Classic FFN ``W1 (d, d_ff)``, ``W2 (d_ff, d)`` (+ ``b1 (d_ff,)``, ``b2 (d,)`` if bias)."""
    d, d_ff = _check_positive(d, "d"), _check_positive(d_ff, "d_ff")
    return 2 * d * d_ff + ((d_ff + d) if bias else 0)


def swiglu_params(d, h):
    """SwiGLU FFN without biases: ``W_gate (d, h)``, ``W_up (d, h)``, ``W_down (h, d)``."""
    d, h = _check_positive(d, "d"), _check_positive(h, "h")
    return 3 * d * h
