"""Figures for the course pages: matplotlib to a reproducible, accessible SVG.

Plotting is not the subject of the course, so this module only fixes what every figure on
the site must share: byte-for-byte reproducible SVG (a fixed ``svg.hashsalt`` and no date
in the metadata), a colour-blind-safe palette, and an HTML ``<figure>`` with alt text and
a caption. matplotlib is imported lazily: the rest of ``mlp_ref`` does not need it.
"""

from __future__ import annotations

import base64
import html
import io
from contextlib import contextmanager

# Okabe and Ito's palette: distinguishable with the common forms of colour blindness.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")

_STYLE = {
    "svg.hashsalt": "mlp-course",
    "svg.fonttype": "none",
    "figure.figsize": (6.4, 3.6),
    "figure.dpi": 100,
    "font.size": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "savefig.transparent": True,
    "savefig.bbox": "tight",
}


@contextmanager
def _style():
    import matplotlib
    from cycler import cycler

    params = {**_STYLE, "axes.prop_cycle": cycler(color=PALETTE)}
    with matplotlib.rc_context(params):
        yield


def new_figure(nrows: int = 1, ncols: int = 1, **subplots_kwargs):
    """Create a figure in the site's style without touching global matplotlib state.

    Parameters
    ----------
    nrows, ncols : int
        Grid of axes, as for ``matplotlib.figure.Figure.subplots``.
    **subplots_kwargs
        Passed to ``Figure.subplots``, except ``figsize`` (inches, (width, height)), which
        sizes the figure itself.

    Returns
    -------
    (matplotlib.figure.Figure, axes)
        A figure not registered with pyplot (so nothing leaks between pages) and its axes.
    """
    from matplotlib.figure import Figure

    figsize = subplots_kwargs.pop("figsize", None)
    with _style():
        fig = Figure(figsize=figsize)
        axes = fig.subplots(nrows, ncols, **subplots_kwargs)
    return fig, axes


def svg_bytes(fig) -> bytes:
    """Render a matplotlib figure to SVG bytes that are identical on every run."""
    buffer = io.BytesIO()
    with _style():
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def figure_html(fig, alt: str, caption: str) -> str:
    """Return a ``<figure>`` holding ``fig`` as an SVG image, with alt text and a caption.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to embed.
    alt : str
        Alt text: what the figure shows, in words, for a reader who cannot see it.
    caption : str
        The visible caption: what to notice. Plain text; it is HTML-escaped.

    Returns
    -------
    str
        HTML for a page; the image is a base64 ``data:`` URI, so the page needs no file.
    """
    if not alt.strip() or not caption.strip():
        raise ValueError("figure_html: expected a non-empty alt text and caption, received an empty one")
    encoded = base64.b64encode(svg_bytes(fig)).decode("ascii")
    return (
        '<figure class="mlp-figure">\n'
        f'<img src="data:image/svg+xml;base64,{encoded}" alt="{html.escape(alt, quote=True)}">\n'
        f"<figcaption>{html.escape(caption)}</figcaption>\n"
        "</figure>"
    )


def show_figure(fig, alt: str, caption: str) -> None:
    """Display ``fig`` in a notebook as :func:`figure_html` does on a lesson page.

    Notebook pages need this because nbconvert gives a plain matplotlib output no alt text
    of its own. A pyplot-managed figure is closed, so the inline backend does not show it a
    second time at the end of the cell.
    """
    import matplotlib.pyplot as plt
    from IPython.display import HTML, display

    html = figure_html(fig, alt, caption)
    if getattr(fig, "number", None) in plt.get_fignums():
        plt.close(fig)
    display(HTML(html))
