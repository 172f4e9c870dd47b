"""Formatting numbers and Markdown tables for every generated table on the site.

One place decides how a number looks on a page, so that a value printed in a trace, a
parameter table and a comparison table is spelled the same way everywhere:

* ``format_number(x, precision)``: fixed decimals, and ``-0.000`` is written ``0.000``;
* ``format_count(n)``: an integer with thousands separators, ``101,770``;
* ``markdown_table(headers, rows, align)``: a GitHub-style pipe table of strings (in Russian, each
  cell set as :func:`mlp_ref.course.i18n.typeset` sets it: ``−0.0948``, ``19 %``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mlp_ref.course.i18n import THOUSANDS, language, typeset
from mlp_ref.validation import check_int, check_real

_ALIGN_RULES = {"l": ":---", "r": "---:", "c": ":---:", None: "---"}


def format_number(x, precision: int = 4) -> str:
    """Format a real number with a fixed number of decimals.

    Parameters
    ----------
    x : real number (Python or NumPy scalar, or a 0-d array)
        The value. Booleans and complex numbers are rejected.
    precision : int
        Number of digits after the decimal point (``>= 0``).

    Returns
    -------
    str
        For example ``format_number(0.77903, 3) == "0.779"``. A value that rounds to
        zero is written without a minus sign (``format_number(-1e-9, 2) == "0.00"``),
        because ``-0.00`` on a page reads like a different number. NaN and infinities
        are written ``nan``, ``inf`` and ``-inf``.
    """
    precision = check_int("precision", precision, 0)
    if isinstance(x, np.ndarray):
        if x.ndim != 0:
            raise ValueError(f"x: expected a scalar, received an array of shape {x.shape}")
        x = x.item()
    value = check_real("x", x, error=TypeError, finite=False)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = f"{value:.{precision}f}"
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text


def format_count(n) -> str:
    """Format an integer count with thousands separators.

    Parameters
    ----------
    n : int (Python or NumPy integer)
        The count. Floats are rejected, even whole ones, so that a count that was
        accidentally computed in floating point is noticed.

    Returns
    -------
    str
        For example ``format_count(101770) == "101,770"``; while a Russian page is built,
        ``"101\u202f770"`` (see :mod:`mlp_ref.course.i18n`).
    """
    text = f"{check_int('n', n, note=' count', error=TypeError):,}"
    return text.replace(",", THOUSANDS[language()])


def _cell(value, where: str) -> str:
    if not isinstance(value, str):
        raise TypeError(
            f"{where}: expected a string (format numbers with format_number or "
            f"format_count first), received {type(value).__name__} {value!r}"
        )
    # A raw newline or pipe would end the cell or the row early. In Russian, the edition's typography
    # (i18n.typeset: the minus sign, the space before %, groups from five digits).
    return typeset(value).replace("|", "\\|").replace("\r\n", "<br>").replace("\n", "<br>")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                   align: Sequence[str | None] | str | None = None) -> str:
    """Render a GitHub-style pipe table.

    Parameters
    ----------
    headers : sequence of str, length C
        Column titles.
    rows : sequence of rows, each a sequence of C strings
        Cell texts; numbers must already be formatted by the caller. A ``|`` in a
        cell is escaped as ``\\|`` and a newline becomes ``<br>``.
    align : sequence of C items from ``"l"``, ``"r"``, ``"c"``, ``None``; or a str of C letters
        Column alignment (``None`` leaves the renderer's default). ``"lrr"`` is
        shorthand for ``["l", "r", "r"]``.

    Returns
    -------
    str
        The table, one line per row, columns padded so the source is readable too;
        no trailing newline.
    """
    headers = [_cell(h, f"headers[{j}]") for j, h in enumerate(headers)]
    n_cols = len(headers)
    if n_cols == 0:
        raise ValueError("headers: expected at least one column, received none")
    if align is None:
        align = [None] * n_cols
    align = list(align)
    if len(align) != n_cols:
        raise ValueError(f"align: expected {n_cols} entries (one per column), received {len(align)}")
    for j, a in enumerate(align):
        if a not in _ALIGN_RULES:
            raise ValueError(f"align[{j}]: expected one of 'l', 'r', 'c' or None, received {a!r}")
    body = []
    for i, row in enumerate(rows):
        if isinstance(row, str) or len(row) != n_cols:
            got = "a string" if isinstance(row, str) else f"{len(row)} cells"
            raise ValueError(f"rows[{i}]: expected {n_cols} cells (one per header), received {got}")
        body.append([_cell(v, f"rows[{i}][{j}]") for j, v in enumerate(row)])
    widths = [max([len(headers[j]), len(_ALIGN_RULES[align[j]])] + [len(r[j]) for r in body])
              for j in range(n_cols)]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"

    rule_cells = []
    for a, w in zip(align, widths):
        if a == "l":
            rule_cells.append(":" + "-" * (w - 1))
        elif a == "r":
            rule_cells.append("-" * (w - 1) + ":")
        elif a == "c":
            rule_cells.append(":" + "-" * (w - 2) + ":")
        else:
            rule_cells.append("-" * w)
    return "\n".join([line(headers), line(rule_cells)] + [line(r) for r in body])
