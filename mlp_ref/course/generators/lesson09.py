"""Lesson 9's figures, trace and measured table: the MLP inside a transformer.

Each function returns what one block of ``docs/lessons/09-mlp-in-transformers.md`` (and its
Russian twin) prints, in the edition being built. The batch-size table measures this machine;
its claim is checked on that measurement. :func:`values` returns the numbers the page's prose says,
some of them lesson 6's, said again.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from matplotlib.patches import FancyBboxPatch

import mlp_ref
from mlp_ref.batching import run_in_batches
from mlp_ref.course.claims import claim
from mlp_ref.course.figures import PALETTE, figure_html, new_figure
from mlp_ref.course.i18n import ru_plural, say
from mlp_ref.course.tables import format_count, markdown_table
from mlp_ref.course.generators import lesson06
from mlp_ref.course.trace import Trace
from mlp_ref.course.words import number


def _attention(X, Wq, Wk, Wv, causal=False):
    """Single-head self-attention: X (B, T, d) -> (B, T, d_v)."""
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.swapaxes(-1, -2) / np.sqrt(K.shape[-1])        # (B, T, T)
    if causal:
        T = X.shape[1]
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (weights / weights.sum(axis=-1, keepdims=True)) @ V


def locality_figure() -> str:
    """Which output positions move when one input position is nudged: FFN, attention, causal attention.

    Returns
    -------
    str
        HTML of the figure (SVG, alt text, caption): three (T, T) grids, T = 6.
    """
    rng = np.random.default_rng(8)
    T, d = 6, 4
    X = rng.normal(size=(1, T, d))
    W1, b1, W2, b2 = rng.normal(size=(d, 4 * d)), rng.normal(size=4 * d), rng.normal(size=(4 * d, d)), rng.normal(size=d)
    Wq, Wk, Wv = (rng.normal(size=(d, d)) for _ in range(3))
    blocks = {
        "FFN": lambda Z: mlp_ref.ffn(Z, W1, b1, W2, b2),
        say("attention", ru="внимание"): lambda Z: _attention(Z, Wq, Wk, Wv),
        say("causal attention", ru="каузальное внимание"): lambda Z: _attention(Z, Wq, Wk, Wv, causal=True),
    }
    fig, axes = new_figure(1, 3, figsize=(7.6, 2.9))
    for ax, (name, block) in zip(axes, blocks.items()):
        changed = np.zeros((T, T))
        for s in range(T):                      # nudge the input at position s ...
            nudged = X.copy()
            nudged[0, s] += 0.5
            # ... and mark every output position t whose row moved
            changed[:, s] = np.abs(block(nudged) - block(X))[0].max(axis=-1) > 1e-12
        ax.imshow(changed, cmap="Greys", vmin=0, vmax=1.25)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(say("input position nudged", ru="изменённый вход"))
        ax.set_xticks(range(T), labels=[str(t + 1) for t in range(T)])   # positions 1 to T (index 0 to T - 1)
        ax.set_yticks(range(T), labels=[str(t + 1) for t in range(T)])
        ax.grid(False)
    axes[0].set_ylabel(say("output position", ru="позиция выхода"))
    return figure_html(
        fig,
        alt=say(f"{('No', 'One', 'Two', 'Three', 'Four')[len(blocks)]} {T} by {T} grids. Dark cells mark output positions that changed when one input "
                "position was nudged. FFN: only the diagonal is dark. Attention: every cell is dark. "
                "Causal attention: the diagonal and every cell below it are dark.",
                ru=f"{len(blocks)} {ru_plural(len(blocks), 'сетка', 'сетки', 'сеток')} {T} на {T}. Тёмные клетки отмечают "
                   "позиции выхода, которые изменились, когда немного изменили вход в одной позиции. FFN: тёмная только "
                   "диагональ. Внимание: тёмные все клетки. Каузальное внимание: тёмные диагональ и все клетки "
                   "под ней."),
        caption=say("Which outputs move when one input position moves. The FFN's output at a position "
                    "depends on that position only (the diagonal); attention's depends on every position "
                    "it may see (all of them, or the earlier ones with a causal mask).",
                    ru="Какие позиции выхода меняются, когда меняется вход в одной позиции. Выход FFN в позиции "
                       "зависит только от этой позиции (диагональ); выход внимания — от всех позиций, которые "
                       "ему видны (от всех или, с каузальной маской, от предыдущих)."),
    )


def _box(ax, y, text, colour):
    ax.add_patch(FancyBboxPatch((0.2, y - 0.33), 0.6, 0.66, facecolor=colour, edgecolor="0.25",
                                linewidth=1.2, boxstyle="round,pad=0.02,rounding_size=0.08"))
    ax.text(0.5, y, text, ha="center", va="center", fontsize=9.5, color="black")


def _adder(ax, y):
    ax.text(0.5, y, "+", ha="center", va="center", fontsize=12, color="black",
            bbox=dict(boxstyle="circle,pad=0.15", facecolor="white", edgecolor="0.25"))


def _arrow(ax, y0, y1):
    ax.annotate("", xy=(0.5, y1), xytext=(0.5, y0), arrowprops=dict(arrowstyle="-|>", color="0.35", lw=1.3))


def _residual(ax, y_from, y_to):
    ax.plot([0.5, 0.07, 0.07], [y_from, y_from, y_to], color=PALETTE[1], lw=1.6, linestyle="--")
    ax.annotate("", xy=(0.44, y_to), xytext=(0.07, y_to),
                arrowprops=dict(arrowstyle="-|>", color=PALETTE[1], lw=1.6, linestyle="--"))


def _draw(ax, steps, title):
    """steps: ("box", text, colour) | ("add", source_y); one step per unit of height."""
    ax.text(0.5, 0, "X  (B, T, d)", ha="center", va="center", fontsize=9.5)
    y = 0.0
    for step in steps:
        _arrow(ax, y + 0.2 if y == 0 else y + 0.36, y + 0.72)
        y += 1.1
        if step[0] == "box":
            _box(ax, y, step[1], step[2])
        else:
            _adder(ax, y)
            _residual(ax, step[1], y)
    _arrow(ax, y + 0.36, y + 0.85)
    ax.text(0.5, y + 1.05, say("output  (B, T, d)", ru="выход  (B, T, d)"), ha="center", va="center", fontsize=9.5)
    ax.set_title(title, fontsize=10)
    ax.set_xlim(0, 1)
    ax.set_ylim(y + 1.4, -0.5)
    ax.axis("off")


def block_orders_figure() -> str:
    """One transformer block in two orders: post-norm (2017) and pre-norm (GPT-2 and later).

    Returns
    -------
    str
        HTML of the figure (SVG, alt text, caption).
    """
    ATTENTION, FFN, NORM = PALETTE[5], PALETTE[4], "#DDDDDD"
    fig, axes = new_figure(1, 2, figsize=(7.2, 5.4))
    self_attention = say("self-attention", ru="самовнимание")
    _draw(axes[0], [("box", self_attention + say("\n(mixes positions)", ru="\n(смешивает позиции)"), ATTENTION),
                    ("add", 0.5), ("box", "LayerNorm", NORM),
                    ("box", "FFN  d → 4d → d" + say("\n(each position alone)", ru="\n(по одной позиции)"), FFN),
                    ("add", 3.85), ("box", "LayerNorm", NORM)],
          say("post-norm: original Transformer (2017)", ru="пост-нормализация:\nисходный Transformer (2017)"))
    _draw(axes[1], [("box", "LayerNorm", NORM), ("box", self_attention, ATTENTION), ("add", 0.5),
                    ("box", "LayerNorm", NORM), ("box", "FFN", FFN), ("add", 3.85)],
          say("pre-norm: GPT-2 and most later models", ru="пред-нормализация:\nGPT-2 и большинство поздних моделей"))
    return figure_html(
        fig,
        alt=say("Two block diagrams, read top to bottom. Left, post-norm: input X, self-attention, an "
                "adder that also receives X by a dashed residual edge, LayerNorm, the FFN, a second adder "
                "that receives the LayerNorm output by a dashed edge, LayerNorm, output. Right, pre-norm: "
                "LayerNorm comes before self-attention and before the FFN, and the residual edges skip "
                "the norms, so nothing normalises the sum.",
                ru="Две блок-схемы, читаются сверху вниз. Слева, пост-нормализация: вход X, самовнимание, сумматор, "
                   "который по пунктирной остаточной связи получает ещё и X, LayerNorm, FFN, второй сумматор, "
                   "который по пунктирной связи получает выход LayerNorm, LayerNorm, выход. Справа, пред-нормализация: "
                   "LayerNorm стоит перед самовниманием и перед FFN, а остаточные связи обходят нормализации, "
                   "так что сумму ничто не нормализует."),
        caption=say("One transformer block, two orders. Post-norm (left) normalises after each residual "
                    "addition; pre-norm (right) normalises each sublayer's input and leaves the residual "
                    "sum untouched. In both, the FFN sees one position at a time.",
                    ru="Один блок трансформера, два порядка. Пост-нормализация (слева) нормализует после "
                       "каждого сложения с остаточной связью; пред-нормализация (справа) нормализует вход "
                       "каждого подслоя и не "
                       "трогает остаточную сумму. В обоих случаях FFN видит одну позицию за раз."),
    )


def ffn_trace() -> str:
    """A 2 → 4 → 2 ReLU FFN on a sequence of three positions, and on position 3 alone.

    Returns
    -------
    str
        Markdown trace table; X has shape (B, T, d) = (1, 3, 2).
    """
    X = np.array([[[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]])
    W1 = np.array([[1.0, -1.0, 0.5, 0.0],
                   [0.0, 1.0, -0.5, 1.0]])
    b1 = np.array([0.0, 0.0, 0.0, -0.5])
    W2 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.5]])
    b2 = np.array([0.1, -0.1])

    trace = Trace()
    trace.record("X", say("input, (B, T, d)", ru="вход, (B, T, d)"), X)
    Z = trace.record("Z", "X @ W1 + b1", X @ W1 + b1)
    H = trace.record("H", "relu(Z)", mlp_ref.relu(Z))
    trace.record("Y", "H @ W2 + b2 = FFN(X)", H @ W2 + b2)
    trace.record("Y₃", say("FFN(X[:, 2]), position 3 alone", ru="FFN(X[:, 2]), одна позиция 3"),
                 mlp_ref.ffn(X[:, 2], W1, b1, W2, b2))
    return trace.to_markdown(precision=2)


#: The batch sizes the table compares: one row at a time, and two batches.
BATCH_SIZES = (1, 64, 1024)
#: The timed FFN: model width d, inner width d_ff, the rows passed through it, and their dtype.
TIMING = {"d": 128, "d_ff": 512, "rows": 4096, "dtype": np.float64}


def batch_rates() -> dict:
    """Rows per second of a plain-NumPy ReLU FFN d → d_ff → d over a fixed set of rows (the sizes and
    dtype of :data:`TIMING`), per batch size.

    Returns
    -------
    dict
        Batch size (of :data:`BATCH_SIZES`) -> rows per second, the fastest of 7 runs; the outputs
        of every batch size are asserted equal to those of batch size 1.
    """
    timing_rng = np.random.default_rng(0)
    d_t, d_ff_t, n_rows = TIMING["d"], TIMING["d_ff"], TIMING["rows"]   # an FFN d -> d_ff -> d
    Wt1, Wt2 = timing_rng.normal(size=(d_t, d_ff_t)) / np.sqrt(d_t), timing_rng.normal(size=(d_ff_t, d_t)) / np.sqrt(d_ff_t)
    bt1, bt2 = np.zeros(d_ff_t), np.zeros(d_t)
    rows_t = timing_rng.normal(size=(n_rows, d_t))                      # (4096, 128)
    block = lambda Z: np.maximum(Z @ Wt1 + bt1, 0.0) @ Wt2 + bt2          # plain NumPy: no input checks to pay for
    assert rows_t.dtype == Wt1.dtype == Wt2.dtype == TIMING["dtype"], (  # the page says the dtype
        f"lesson 9: the timed FFN computes in {np.dtype(TIMING['dtype']).name}; found rows {rows_t.dtype}, "
        f"weights {Wt1.dtype} and {Wt2.dtype}")
    rates, outputs = {}, {}
    for size in BATCH_SIZES:
        rates[size], outputs[size] = run_in_batches(block, rows_t, size, repeats=7)  # the fastest of 7: robust to a busy machine
    for size in BATCH_SIZES[1:]:  # the same work at every batch size: the same outputs
        assert np.allclose(outputs[size], outputs[1], rtol=1e-9, atol=1e-9), (
            f"lesson 9: the FFN gives the same outputs at every batch size; at batch size {size} they differ "
            f"from batch size 1 by up to {np.abs(outputs[size] - outputs[1]).max():.2g}")
    return rates


def batch_rate_table() -> str:
    """The rows per second of :func:`batch_rates`, relative to one row at a time, and what the step
    from 64 to 1024 rows per call gave on this machine.

    Returns
    -------
    str
        Markdown table and a sentence; the claim that batches beat single rows is checked.
    """
    rates = batch_rates()
    claim(bool(rates[64] > rates[1] and rates[1024] > rates[1]),
          "batches of 64 and of 1024 rows pass more rows per second than one row at a time")
    ratio = lambda a, b: f"{rates[a] / rates[b]:.1f}×" if rates[a] / rates[b] < 10 else f"{rates[a] / rates[b]:.0f}×"
    rows = [[format_count(size), ratio(size, 1)] for size in BATCH_SIZES]
    table = markdown_table([say("rows per call (batch size)", ru="строк за вызов (размер батча)"),
                            say("rows per second, relative to batch size 1",
                                ru="строк в секунду относительно батча размера 1")], rows, "rr")
    step = rates[1024] / rates[64]
    verdict = (say("fewer rows per second than at 64: on this machine the gain did not grow past 64 rows per call",
                   ru="меньше строк в секунду, чем при 64: на этой машине выигрыш после 64 строк за вызов не вырос")
               if step < 0.9 else
               say("about the rows per second of 64: the gain was already there at 64 rows per call",
                   ru="примерно столько же строк в секунду, сколько при 64: выигрыш был получен уже при 64 строках за вызов")
               if step < 1.15 else  # within 15 %: the same, given the timing noise
               say("more rows per second than at 64: larger products kept paying off on this machine",
                   ru="больше строк в секунду, чем при 64: на этой машине большие произведения продолжали окупаться"))
    return table + "\n\n" + say(
        f"From 64 to 1024 rows per call, this build measured {step:.1f}× the rows per second, that is {verdict}.",
        ru=f"При переходе от 64 к 1024 строкам за вызов скорость в этой сборке составила {step:.1f}× от прежней, "
           f"то есть {verdict}.")


def values() -> dict[str, str]:
    """The numbers lesson 9's prose says (``{@ l9.ffn_coeff @}``): the counts lesson 6 derives, said
    again, and the original Transformer's d_ff in units of d."""
    counts = lesson06.values()
    d, d_ff = lesson06.BASE[0], 2048  # the original Transformer base's published d and d_ff
    return {
        "ffn_coeff": counts["ffn_coeff"],              # "8d²"
        "attn_coeff": counts["attn_coeff"],            # "4d²"
        "gated_coeff": counts["gated_coeff"],          # "3dh"
        "h_num": counts["h_num"],                      # "h ≈ 8d/3"
        "h_den": counts["h_den"],
        "base_ff_coeff": number(Fraction(d_ff, d)),    # "d_ff = 2048 = 4d"
        "timing_d": str(TIMING["d"]),                  # the timed FFN (math: no thousands comma)
        "timing_dff": str(TIMING["d_ff"]),
        "timing_rows": number(TIMING["rows"]),
        "timing_dtype": np.dtype(TIMING["dtype"]).name,
    }
