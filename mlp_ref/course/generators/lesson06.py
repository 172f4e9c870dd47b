"""Lesson 6's tables, traces, figures and widget: counting the parameters of MLPs and transformers.

Each function returns what one block of ``docs/lessons/06-counting-parameters.md`` (and its
Russian twin) prints: Markdown, or HTML for a figure or the widget, in the edition being built.
Every count comes from :mod:`mlp_ref`; the asserts check a table against the arrays or the
configuration it describes. :func:`values` returns the numbers the page's prose says.
"""

from __future__ import annotations

import inspect
from fractions import Fraction

import numpy as np
from matplotlib.patches import FancyBboxPatch

import mlp_ref
from mlp_ref.course.counting_tables import breakdown_markdown, leaves_out, memory_rows
from mlp_ref.course.figures import PALETTE, figure_html, new_figure
from mlp_ref.course.i18n import ru_plural, say
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.course.trace import Trace
from mlp_ref.course.widgets import counter_data, widget_html
from mlp_ref.course.words import fraction_words, number, times, word

#: The page's running example, the MLP of lesson 3: its trace, its per-layer table, the counter's start.
SIZES = [784, 128, 64, 10]
BOTH_DOUBLED = [784, 256, 128, 10]   # SIZES with both sides of W2 doubled (the doubling table's last row)
# Published configurations: the Transformer base's d and heads; GPT-2 small's d, heads and d_ff;
# Qwen3-0.6B's d, query heads, key-value heads, head size, SwiGLU width, vocabulary and layers.
BASE = (512, 8)
GPT2 = (768, 12, 3072)
QWEN = (1024, 16, 8, 128, 3072, 151_936, 28)


def models() -> dict:
    """The four published transformers the page counts, in the order of its tables.

    Returns
    -------
    dict
        ``{"gpt2", "base", "qwen", "deepseek"}`` -> :class:`mlp_ref.Breakdown`, the order of
        :data:`mlp_ref.CONFIGS`.
    """
    return {"gpt2": mlp_ref.gpt2_small(), "base": mlp_ref.transformer_base(),
            "qwen": mlp_ref.qwen3_0_6b(), "deepseek": mlp_ref.deepseek_v3()}


def _coefficients() -> dict[str, Fraction]:
    """What a block's counts are in units of d² (or d for the biases), computed from the counts at a
    published width (the coefficients do not depend on it), for the figure's caption and the prose.

    Returns
    -------
    dict
        ``ffn``, ``attn``: the classic block's FFN d -> 4d -> d and four (d, d) projections, in d²;
        ``ffn_bias``, ``attn_bias``: their biases, in d; ``share``: the FFN's share of the two;
        ``qwen_q_width``: Qwen3-0.6B's query heads' width together, in d; ``qwen_ffn``: its FFN, in d².
    """
    base_d, base_heads = BASE
    d, n_q, _, h_d, h, _, _ = QWEN
    ffn = mlp_ref.ffn_params(base_d, bias=False)
    attn = mlp_ref.attention_params(base_d, base_heads)
    return {
        "ffn": Fraction(ffn, base_d**2),                                                          # 8
        "attn": Fraction(attn, base_d**2),                                                        # 4
        "ffn_bias": Fraction(mlp_ref.ffn_params(base_d, bias=True) - ffn, base_d),                # 5
        "attn_bias": Fraction(mlp_ref.attention_params(base_d, base_heads, bias=True) - attn, base_d),  # 4
        "share": Fraction(ffn, ffn + attn),                                                       # 2/3
        "qwen_q_width": Fraction(n_q * h_d, d),                                                   # 2
        "qwen_ffn": Fraction(mlp_ref.gated_ffn_params(d, h), d**2),                               # 9
    }


def share_figure() -> str:
    """The stacked bars of attention against FFN parameters in five transformer blocks.

    Returns
    -------
    str
        HTML of the figure (SVG, alt text, caption).
    """
    moe = mlp_ref.moe_params(7168, 2048, n_routed=256, top_k=8, n_shared=1, router_bias=True)
    (g_d, g_heads, g_ff), (q_d, q_heads, q_kv, q_hd, q_h, _, _) = GPT2, QWEN
    blocks = [
        (say("classic block, d → 4d → d\n(no biases)", ru="классический блок, d → 4d → d\n(без смещений)"),
         mlp_ref.attention_params(*BASE), mlp_ref.ffn_params(BASE[0], bias=False)),
        (say("GPT-2 small block\n(with biases)", ru="блок GPT-2 small\n(со смещениями)"),
         mlp_ref.attention_params(g_d, g_heads, bias=True), mlp_ref.ffn_params(g_d, g_ff, bias=True)),
        (say("Qwen3-0.6B block\n(GQA, SwiGLU 3072)", ru="блок Qwen3-0.6B\n(GQA, SwiGLU 3072)"),
         mlp_ref.attention_params(q_d, q_heads, q_kv, q_hd), mlp_ref.gated_ffn_params(q_d, q_h)),
        (say("DeepSeek-V3 MoE block,\nall 257 experts + router", ru="MoE-блок DeepSeek-V3,\nвсе 257 экспертов + маршрутизатор"),
         mlp_ref.mla_params(), moe.total),
        (say("DeepSeek-V3 MoE block,\nused by one token", ru="MoE-блок DeepSeek-V3,\nчасть для одного токена"),
         mlp_ref.mla_params(), moe.active),
    ]
    labels = [name for name, _, _ in blocks]
    # The caption's coefficients of d², computed: the classic block's and Qwen3-0.6B's.
    coeff = _coefficients()
    ffn_coeff, attn_coeff, share = coeff["ffn"], coeff["attn"], coeff["share"]
    qwen_q_width, qwen_ffn_coeff = coeff["qwen_q_width"], coeff["qwen_ffn"]
    attn_share = np.array([100 * a / (a + f) for _, a, f in blocks])
    ffn_share = 100 - attn_share

    fig, ax = new_figure(figsize=(6.8, 3.9))
    y = np.arange(len(blocks))[::-1]
    ax.barh(y, attn_share, color=PALETTE[0], hatch="//", edgecolor="white", label=say("attention projections", ru="проекции внимания"))
    ax.barh(y, ffn_share, left=attn_share, color=PALETTE[4], edgecolor="white", label=say("FFN (MLP) matrices", ru="матрицы FFN (MLP)"))
    for yi, a, f in zip(y, attn_share, ffn_share):
        ax.text(a + f / 2, yi, f"{f:.1f} %", ha="center", va="center", color="black", fontsize=10)
    ax.set_yticks(y, labels, fontsize=9)
    ax.set_xlim(0, 100)
    ax.set_xlabel(say("share of the block's attention + FFN parameters (%)",
                      ru="доля среди параметров внимания и FFN блока (%)"))
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper center", bbox_to_anchor=(0.4, -0.18), ncol=2, frameon=False)
    # Each label's lines joined into one phrase, its arrows and plus signs said in words.
    spoken = [" ".join(name.splitlines()).replace(" → ", say(" to ", ru=", затем ")).replace(" + ", say(" plus ", ru=" плюс "))
              for name, _, _ in blocks]
    return figure_html(
        fig,
        alt=say("Horizontal stacked bars, one per transformer block, split into attention (hatched) and "
                "FFN parts. The FFN part is "
                + "; ".join(f"{f:.1f} percent for the {phrase}" for phrase, f in zip(spoken, ffn_share))
                + ".",
                ru="Горизонтальные составные столбцы, по одному на блок трансформера; каждый разделён на часть "
                   "внимания (со штриховкой) и часть FFN. Доля FFN: "
                   + "; ".join(f"{phrase} — {f:.1f} процента" for phrase, f in zip(spoken, ffn_share))
                   + "."),
        caption=say("Where a transformer block's parameters live. A d → 4d → d FFN has "
                    f"{ffn_coeff}d² weights against {attn_coeff}d² in the four attention projections: "
                    f"{share} of them. Qwen3-0.6B's attention is relatively "
                    f"larger (its 16 query heads are {qwen_q_width}d wide in all) and its FFN spends "
                    f"{qwen_ffn_coeff}d². A mixture of experts "
                    "makes the FFN dominate the stored parameters, but much less of what one token uses "
                    "(DeepSeek-V3). Norms and embeddings are not in these bars.",
                    ru="Где находятся параметры блока трансформера. У FFN вида d → 4d → d "
                       f"{ffn_coeff}d² весов, а у четырёх проекций внимания {attn_coeff}d²: на FFN приходится "
                       f"{share} всех весов. У Qwen3-0.6B внимание относительно "
                       f"крупнее (16 голов запросов вместе дают ширину {qwen_q_width}d), а FFN тратит "
                       f"{qwen_ffn_coeff}d². Смесь экспертов отдаёт FFN почти все хранимые параметры, но из того, "
                       "что использует один токен, — гораздо меньшую долю (DeepSeek-V3). Нормализации и эмбеддинги "
                       "в эти столбцы не входят."),
    )


def _parts() -> list[tuple[str, str | None, int]]:
    """The rows of :func:`transformer_figure`: (text, colour or None, indent), top to bottom;
    indent 1 = inside the repeated block."""
    return [
        (say("token ids  (T,)", ru="номера токенов  (T,)"), None, 0),
        (say("token embedding E  (V, d)", ru="эмбеддинг токенов E  (V, d)"), PALETTE[2], 0),
        (say("RMSNorm: scale g  (d,)", ru="RMSNorm: масштаб g  (d,)"), "#DDDDDD", 1),
        (say("attention: W_q (d, n_q·h_d), W_k and W_v (d, n_kv·h_d),\nW_o (n_q·h_d, d); n_q query heads, n_kv key-value heads;\n"
             "RMSNorm scales (h_d,) on each query and key head",
             ru="внимание: W_q (d, n_q·h_d), W_k и W_v (d, n_kv·h_d),\nW_o (n_q·h_d, d); n_q голов запросов,\nn_kv голов ключей-значений;\n"
                "масштабы RMSNorm (h_d,) на головах запросов и ключей"), PALETTE[0], 1),
        (say("+ residual", ru="+ остаточная связь"), None, 1),
        (say("RMSNorm: scale g  (d,)", ru="RMSNorm: масштаб g  (d,)"), "#DDDDDD", 1),
        (say("FFN (SwiGLU): W_gate and W_up (d, h), W_down (h, d)", ru="FFN (SwiGLU): W_gate и W_up (d, h), W_down (h, d)"),
         PALETTE[4], 1),
        (say("+ residual", ru="+ остаточная связь"), None, 1),
        (say("final RMSNorm  (d,)", ru="финальная RMSNorm  (d,)"), "#DDDDDD", 0),
        (say("output head Eᵀ  (d, V): the embedding again (tied)", ru="выходной слой Eᵀ  (d, V): снова эмбеддинг (связанные веса)"),
         PALETTE[2], 0),
        (say("logits  (T, V)", ru="логиты  (T, V)"), None, 0),
    ]


def transformer_figure() -> str:
    """The flow diagram of a decoder-only transformer with the parts Qwen3-0.6B uses.

    Returns
    -------
    str
        HTML of the figure (SVG, alt text, caption).
    """
    parts = _parts()
    fig, ax = new_figure(figsize=(7.2, 6.6))
    centres, y = [], 0.0
    for text, colour, indent in parts:  # each row as tall as its lines, with a gap for the arrow
        half = 0.3 + 0.17 * text.count("\n")
        y += half
        centres.append((y, half))
        x0 = 0.06 + 0.06 * indent
        if colour:
            ax.add_patch(FancyBboxPatch((x0, y - half), 0.94 - 2 * x0 + 0.06, 2 * half, facecolor=colour, edgecolor="0.25",
                                        linewidth=1.0, boxstyle="round,pad=0.01,rounding_size=0.06", alpha=0.55))
        ax.text(x0 + 0.02, y, text, ha="left", va="center", fontsize=8.5, color="black", linespacing=1.3)
        y += half + 0.35
    for (y_prev, half_prev), (y_next, half_next) in zip(centres, centres[1:]):
        ax.annotate("", xy=(0.5, y_next - half_next), xytext=(0.5, y_prev + half_prev),
                    arrowprops=dict(arrowstyle="-|>", color="0.35", lw=1.0))
    inside = [centre for centre, part in zip(centres, parts) if part[2] == 1]
    top, bottom = inside[0][0] - inside[0][1] - 0.25, inside[-1][0] + inside[-1][1] + 0.12
    ax.add_patch(FancyBboxPatch((0.09, top), 0.88, bottom - top, fill=False, edgecolor=PALETTE[1], linestyle="--",
                                linewidth=1.4, boxstyle="round,pad=0.01,rounding_size=0.08"))
    ax.text(0.95, inside[-1][0], say("one block, repeated L times", ru="один блок, повторён L раз"), ha="right", va="center", fontsize=9, color=PALETTE[1])
    ax.set_xlim(0, 1)
    ax.set_ylim(y, -0.2)
    ax.axis("off")
    return figure_html(
        fig,
        alt=say("A vertical flow diagram of a decoder-only transformer language model, top to bottom: token ids; "
                "the token embedding E of shape V by d; a dashed box repeated L times holding RMSNorm, attention "
                "with the matrices W_q, W_k, W_v and W_o split into query heads and key-value heads and a small "
                "RMSNorm on each query and key head, a residual "
                "addition, RMSNorm, a SwiGLU FFN with W_gate, W_up and W_down, and a second residual addition; "
                "then a final RMSNorm, the output head, which is the embedding matrix transposed (tied), and the "
                "logits of shape T by V.",
                ru="Вертикальная схема языковой модели-трансформера из одного декодера, сверху вниз: номера токенов; "
                   "эмбеддинг токенов E формы V на d; пунктирная рамка, повторённая L раз, а в ней RMSNorm, внимание "
                   "с матрицами W_q, W_k, W_v и W_o, разбитыми на головы запросов и головы ключей-значений, с небольшой "
                   "RMSNorm на каждой голове запросов и ключей, сложение остаточной связи, RMSNorm, FFN вида SwiGLU "
                   "с W_gate, W_up и W_down и второе сложение остаточной связи; затем финальная RMSNorm, выходной слой, "
                   "то есть транспонированная матрица эмбеддинга (связанные веса), и логиты формы T на V."),
        caption=say("What a transformer language model holds, with the parts Qwen3-0.6B uses: grouped-query "
                    "attention, RMSNorm, a SwiGLU FFN and tied embeddings. The dashed box is one block; the "
                    "model repeats it L times with new weights.",
                    ru="Что хранит языковая модель-трансформер, на примере частей, которые использует Qwen3-0.6B: "
                       "внимание с группировкой запросов (GQA), RMSNorm, FFN вида SwiGLU и связанные эмбеддинги. "
                       "Пунктирная рамка — один блок; модель повторяет его L раз, каждый раз с новыми весами."),
    )


def qwen_arrays_table() -> str:
    """Qwen3-0.6B's arrays, part by part, with shapes and counts taken from arrays of those shapes.

    Returns
    -------
    str
        Markdown table: part | arrays (shape) | counted | parameters, and the whole model's row;
        its counts asserted against :func:`mlp_ref.attention_params`,
        :func:`mlp_ref.gated_ffn_params`, :func:`mlp_ref.embedding_params` and
        :func:`mlp_ref.qwen3_0_6b`.
    """
    d, n_q, n_kv, h_d, h, V, L = QWEN
    shape_of = lambda *shape: np.broadcast_to(np.float32(0), shape)      # an array of that shape, no memory
    attention, ffn = say("attention (GQA)", ru="внимание (GQA)"), "FFN (SwiGLU)"
    embedding = say("token embedding, also the output head (tied)", ru="эмбеддинг токенов, он же выходной слой (связанные веса)")
    block_arrays = {  # part -> its arrays in one block, {name: array}
        attention: {"W_q": shape_of(d, n_q * h_d), "W_k": shape_of(d, n_kv * h_d),
                    "W_v": shape_of(d, n_kv * h_d), "W_o": shape_of(n_q * h_d, d)},
        say("RMSNorm on each query and key head", ru="RMSNorm на каждой голове запросов и ключей"):
            {"q_norm": shape_of(h_d), "k_norm": shape_of(h_d)},
        ffn: {"W_gate": shape_of(d, h), "W_up": shape_of(d, h), "W_down": shape_of(h, d)},
        say("two RMSNorms (before attention, before the FFN)", ru="две RMSNorm (перед вниманием и перед FFN)"):
            {"g_attn": shape_of(d), "g_ffn": shape_of(d)},
    }
    model_arrays = {embedding: {"E": shape_of(V, d)},
                    say("final RMSNorm", ru="финальная RMSNorm"): {"g_final": shape_of(d)}}
    count = lambda arrays: sum(a.size for a in arrays.values())
    shapes = lambda arrays: ", ".join(f"{name} {tuple(a.shape)}" for name, a in arrays.items())
    per_block_word, once_word = say("per block", ru="в каждом блоке"), say("once", ru="один раз")
    rows = [[part, shapes(arrays), per_block_word, format_count(count(arrays))] for part, arrays in block_arrays.items()]
    rows += [[part, shapes(arrays), once_word, format_count(count(arrays))] for part, arrays in model_arrays.items()]
    per_block = sum(count(arrays) for arrays in block_arrays.values())
    total = L * per_block + sum(count(arrays) for arrays in model_arrays.values())
    rows.append([say(f"whole model: {L} blocks and the parts counted once",
                     ru=f"вся модель: {L} {ru_plural(L, 'блок', 'блока', 'блоков')} и части, учтённые один раз"), "", "", format_count(total)])
    # The same count two other ways: the page's formulas, and the model's breakdown below.
    assert count(block_arrays[attention]) == mlp_ref.attention_params(d, n_q, n_kv, h_d), (
        f"lesson 6: the Qwen3-0.6B table's attention count, taken from its arrays, is the page's formula; found "
        f"{count(block_arrays[attention]):,} against attention_params {mlp_ref.attention_params(d, n_q, n_kv, h_d):,}")
    assert count(block_arrays[ffn]) == mlp_ref.gated_ffn_params(d, h), (
        f"lesson 6: the Qwen3-0.6B table's FFN count, taken from its arrays, is the page's formula 3 d h; found "
        f"{count(block_arrays[ffn]):,} against gated_ffn_params {mlp_ref.gated_ffn_params(d, h):,}")
    assert count(model_arrays[embedding]) == mlp_ref.embedding_params(V, d, tied=True), (
        f"lesson 6: the Qwen3-0.6B table's tied embedding count, taken from its array, is V d; found "
        f"{count(model_arrays[embedding]):,} against embedding_params {mlp_ref.embedding_params(V, d, tied=True):,}")
    assert total == models()["qwen"].total, (
        f"lesson 6: the Qwen3-0.6B table's whole-model row equals the model table's total; found "
        f"{total:,} against {models()['qwen'].total:,}")
    return markdown_table([say("part", ru="часть"), say("arrays (shape)", ru="массивы (форма)"),
                           say("counted", ru="учтено"), say("parameters", ru="параметры")], rows, "llcr")


def count_trace() -> str:
    """The count of :data:`SIZES` = [784, 128, 64, 10], one trace step per array.

    Returns
    -------
    str
        Markdown trace table; every value a count, shape ().
    """
    trace = Trace()
    layer_totals = []
    for l, (d_in, d_out) in enumerate(zip(SIZES[:-1], SIZES[1:]), start=1):
        weights = trace.record(f"W{l}", f"d_{l-1} · d_{l} = {d_in} · {d_out}", d_in * d_out)
        biases = trace.record(f"b{l}", f"d_{l} = {d_out}", d_out)
        layer_totals.append(trace.record(say(f"layer {l}", ru=f"слой {l}"), f"W{l} + b{l}", weights + biases))
    trace.record("P", say("layer 1 + layer 2 + layer 3", ru="слой 1 + слой 2 + слой 3"), sum(layer_totals))
    return trace.to_markdown(precision=0)


def first_layer_sentence() -> str:
    """The share of [784, 128, 64, 10]'s parameters in its first layer, said in a sentence.

    Returns
    -------
    str
        One sentence of Markdown.
    """
    first = mlp_ref.layer_table(SIZES)[0].total
    share = format_number(100 * first / mlp_ref.count_params(SIZES), 1)
    return say(f"The first layer holds {share} % of the network: the 784 input pixels times 128 units.",
               ru=f"В первом слое {share} % параметров сети: 784 входных пикселя, умноженные на 128 нейронов.")


def totals_table() -> str:
    """Weights, biases and totals of the MLPs used on the site, and the largest layer's share.

    Returns
    -------
    str
        Markdown table, one row per network.
    """
    all_sizes = [[2, 2, 1], [2, 3, 1], [100, 50, 10], [100, 64, 10], [784, 32, 10],
                 [784, 128, 10], [784, 128, 64, 10], [784, 512, 256, 10], [784, 512, 512, 10],
                 [64, 32, 16, 10]]
    rows = []
    for s in all_sizes:
        table = mlp_ref.layer_table(s)
        biggest = max(table, key=lambda row: row.total)
        rows.append([" → ".join(map(str, s)), str(len(table)),
                     format_count(sum(r.weights for r in table)),
                     format_count(sum(r.biases for r in table)),
                     format_count(table.total),
                     f"{biggest.layer} ({format_number(100 * biggest.total / table.total, 1)} %)"])
    return markdown_table([say("sizes", ru="размеры"), say("layers", ru="слоёв"), say("weights", ru="веса"),
                           say("biases", ru="смещения"), say("total", ru="всего"),
                           say("largest layer (share)", ru="самый большой слой (доля)")],
                          rows, align="lrrrrr")


def doubling_table() -> str:
    """Each matrix's weights when one or both sides of [784, 128, 64, 10]'s hidden widths double.

    Returns
    -------
    str
        Markdown table: a matrix's count and its ratio to the original, per variant.
    """
    variants = [(say("original", ru="исходная"), SIZES),
                (say("double d_1 (128 → 256)", ru="удвоить d_1 (128 → 256)"), [784, 256, 64, 10]),
                (say("double d_2 (64 → 128)", ru="удвоить d_2 (64 → 128)"), [784, 128, 128, 10]),
                (say("double both sides of W2", ru="удвоить обе стороны W2"), BOTH_DOUBLED)]
    base_rows = mlp_ref.layer_table(SIZES)
    rows = []
    for name, s in variants:
        table = mlp_ref.layer_table(s)
        cells = [f"{format_count(r.weights)} (×{format_number(r.weights / b.weights, 0)})"
                 for r, b in zip(table, base_rows)]
        rows.append([name, str(s)] + cells + [format_count(table.total),
                                              "×" + format_number(table.total / base_rows.total, 2)])
    return markdown_table([say("change", ru="изменение"), say("sizes", ru="размеры"),
                           say("W1 weights", ru="веса W1"), say("W2 weights", ru="веса W2"),
                           say("W3 weights", ru="веса W3"), say("total", ru="всего"),
                           say("total ratio", ru="во сколько раз больше")],
                          rows, align="llrrrrr")


def memory_table() -> str:
    """The bytes to train [784, 128, 64, 10] with Adam on a batch of 256, part by part, per dtype.

    Returns
    -------
    str
        Markdown table: one row per part of :func:`mlp_ref.memory_estimate`, one column per dtype.
    """
    dtypes = ["float64", "float32", "float16", "bfloat16"]
    estimates = [mlp_ref.memory_estimate(SIZES, batch=256, dtype=t, optimizer="adam") for t in dtypes]
    parts = [part for part, _ in memory_rows(estimates[0])]
    rows = [[part] + [format_count(dict(memory_rows(e))[part]) for e in estimates] for part in parts]
    rows.append([say("total (MiB, 2²⁰ bytes)", ru="всего (МиБ, 2²⁰ байт)")]
                + [format_number(e.total / 2**20, 2) for e in estimates])
    return markdown_table([say("part", ru="часть")] + dtypes, rows, align="lrrrr")


def cache_table() -> str:
    """Parameters against the forward cache of [784, 128, 64, 10] (float32, SGD), by batch size,
    around the batch at which the cache passes the parameters.

    Returns
    -------
    str
        Markdown table, one row per batch size.
    """
    per_example = 784 + 2 * (128 + 64 + 10)          # numbers cached per example
    crossover = mlp_ref.count_params(SIZES) // per_example + 1
    rows = []
    for batch in (1, 32, crossover - 1, crossover, 256, 4096):
        e = mlp_ref.memory_estimate(SIZES, batch=batch, dtype="float32", optimizer="sgd")
        rows.append([str(batch), format_count(e.parameters), format_count(e.activations),
                     format_number(e.activations / e.parameters, 2), format_count(e.total)])
    return markdown_table([say("batch B", ru="батч B"), say("parameters (bytes)", ru="параметры (байт)"),
                           say("cache (bytes)", ru="кэш (байт)"), say("cache / parameters", ru="кэш / параметры"),
                           say("total (bytes)", ru="всего (байт)")],
                          rows, align="rrrrr")


def breakdown_table(model: str) -> str:
    """One published transformer's parameters, part by part.

    Parameters
    ----------
    model : str
        A key of :func:`models`: ``"gpt2"``, ``"base"``, ``"qwen"`` or ``"deepseek"``.

    Returns
    -------
    str
        Markdown table of :func:`mlp_ref.course.counting_tables.breakdown_markdown`.
    """
    return breakdown_markdown(models()[model])


def base_sentence() -> str:
    """The Transformer base's count in millions, beside the paper's "65M", and what it assumes.

    Returns
    -------
    str
        One paragraph of Markdown.
    """
    millions = format_number(models()["base"].total / 1e6, 1)
    return say(f"The paper's Table 3 gives \"65M\" for this model; this count is "
               f"{millions}M. It assumes biases on the attention "
               "projections (as PyTorch's `nn.Transformer` has; the paper does not say), uses the "
               "approximate vocabulary of 37,000, and counts no final encoder or decoder norm. We do not "
               "know the exact configuration behind the paper's figure.",
               ru="В таблице 3 статьи для этой модели указано «65M»; здесь получилось "
                  f"{millions} млн. Этот подсчёт предполагает смещения в проекциях внимания "
                  "(как в `nn.Transformer` из PyTorch; статья об этом молчит), берёт приблизительный "
                  "словарь в 37\u202f000 токенов и не учитывает финальную нормализацию ни энкодера, ни декодера. "
                  "Точная конфигурация, по которой в статье получено это число, нам неизвестна.")


def swiglu_table() -> str:
    """The SwiGLU inner width h (8d/3 rounded up to a multiple of 256) and its count against the
    classic FFN's 8d², for five model widths.

    Returns
    -------
    str
        Markdown table, one row per width d.
    """
    rows = []
    for d in (512, 768, 1024, 4096, 7168):
        h = mlp_ref.swiglu_hidden(d)
        gated = mlp_ref.gated_ffn_params(d, h)
        rows.append([str(d), format_number(8 * d / 3, 1), str(h), format_count(gated),
                     format_count(mlp_ref.ffn_params(d, bias=False)),
                     format_number(gated / (8 * d**2), 4)])
    return markdown_table(["d", "8d/3", say("h (rounded up)", ru="h (с округлением вверх)"), "SwiGLU 3dh",
                           say("classic 8d²", ru="классический 8d²"), say("ratio", ru="отношение")],
                          rows, align="rrrrrr")


def qwen_comparison() -> str:
    """Qwen3-0.6B's counts beside its model card's, and what the estimate leaves out.

    Returns
    -------
    str
        Markdown table and a paragraph.
    """
    qwen = models()["qwen"]
    embedding = qwen["token embedding (tied with output)"].count
    ffn_q, attn_q = qwen["FFN (SwiGLU 1024 -> 3072)"].count, qwen["attention (q, k, v, o; GQA 16/8)"].count
    rows = [[say("all parameters", ru="все параметры"), say("0.6B", ru="0.6 млрд"), format_count(qwen.total)],
            [say("without the embedding", ru="без эмбеддинга"), say("0.44B", ru="0.44 млрд"), format_count(qwen.total - embedding)],
            [say("FFN share of attention + FFN", ru="доля FFN в сумме внимания и FFN"), "—",
             format_number(100 * ffn_q / (ffn_q + attn_q), 1) + " %"]]
    table = markdown_table([say("quantity", ru="величина"), say("model card", ru="карточка модели"),
                            say("this count", ru="наш подсчёт")], rows, align="lrr")
    return table + "\n\n" + say(
        f"*What this estimate leaves out:* {leaves_out(qwen)} that we know of. It reads the "
        "configuration, not the checkpoint file: a file that also stores the tied output matrix "
        "would hold one more copy of the embedding.",
        ru=f"*Чего эта оценка не учитывает:* {leaves_out(qwen)} — насколько нам известно. Она читает "
           "конфигурацию, а не файл весов: если файл хранит ещё и связанную выходную матрицу, "
           "в нём окажется ещё одна копия эмбеддинга.")


def deepseek_comparison() -> str:
    """DeepSeek-V3's counts beside its technical report's, the experts' share, and what the
    estimate leaves out.

    Returns
    -------
    str
        Markdown table and a paragraph.
    """
    ds = models()["deepseek"]
    experts = sum(ds[name].count for name in ("routed experts, 58 layers x 256", "shared expert, 58 layers x 1",
                                              "dense FFN, 3 layers"))
    rows = [[say("all parameters (main model)", ru="все параметры (основная модель)"), say("671B", ru="671 млрд"), format_count(ds.total)],
            [say("activated per token", ru="активные на токен"), say("37B", ru="37 млрд"), format_count(ds.active)],
            [say("active without the input embedding table", ru="активные без входной таблицы эмбеддингов"), "—",
             format_count(ds.active - ds["token embedding"].count)],
            [say("FFN and experts, share of all parameters", ru="FFN и эксперты, доля всех параметров"), "—",
             format_number(100 * experts / ds.total, 1) + " %"],
            [say("active per token, share of all parameters", ru="активные на токен, доля всех параметров"), "—",
             format_number(100 * ds.active / ds.total, 1) + " %"]]
    table = markdown_table([say("quantity", ru="величина"), say("technical report", ru="технический отчёт"),
                            say("this count", ru="наш подсчёт")], rows, align="lrr")
    return table + "\n\n" + say(
        f"*What this estimate leaves out:* {leaves_out(ds)}. The released checkpoint adds the "
        "multi-token-prediction module: 685B in all, as the model card says. The *active* count includes the whole "
        "input embedding table and the output head; a token reads only one row of the embedding, "
        "so the third row is the better comparison with the report's 37B.",
        ru=f"*Чего эта оценка не учитывает:* {leaves_out(ds)}. В опубликованном чекпойнте к этому добавлен "
           "модуль предсказания нескольких токенов (MTP): всего 685 млрд, как сказано в карточке модели. "
           "*Активный* подсчёт включает всю входную таблицу эмбеддингов и выходной слой; но токен читает "
           "из эмбеддинга только одну строку, поэтому с 37B из отчёта честнее сравнивать третью строку таблицы.")


def counter_widget() -> str:
    """The parameter counter, starting from :data:`SIZES` and the configurations of the page's tables.

    Returns
    -------
    str
        HTML of the widget's placeholder, with the sentence shown without JavaScript.
    """
    # the configurations behind the tables above, in their order, and the per-layer table's widths
    assert [mlp_ref.breakdown(c) for c in mlp_ref.CONFIGS] == list(models().values()), (
        f"lesson 6: the parameter counter starts from the configurations of the page's tables; found "
        f"{len(mlp_ref.CONFIGS)} configurations for {len(models())} tables, differing at positions "
        f"{[i for i, (c, m) in enumerate(zip(mlp_ref.CONFIGS, models().values())) if mlp_ref.breakdown(c) != m]}")
    return widget_html("parameter-counter", counter_data(SIZES, mlp_ref.CONFIGS),
                       say("with JavaScript on, this is where you can type widths or resize a transformer and see the "
                           "counts; the tables above give them for the page's models.",
                           ru="с включённым JavaScript здесь можно ввести ширины слоёв или изменить размеры трансформера "
                              "и увидеть число параметров; таблицы выше дают его для моделей этой страницы."))


def _mla_dims() -> dict[str, int]:
    """DeepSeek-V3's multi-head latent attention as the page's count makes it: the heads of
    :data:`mlp_ref.transformer_counts.DEEPSEEK_V3` and the latent and head widths that
    :func:`mlp_ref.mla_params` takes by default (the count passes only d and the heads)."""
    dims = {name: p.default for name, p in inspect.signature(mlp_ref.mla_params).parameters.items()}
    config = mlp_ref.deepseek_v3().config
    assert dims["d"] == config.d_model and dims["n_heads"] == config.n_heads, (
        f"lesson 6: the MLA sizes the page gives are those of DeepSeek-V3's count (d = {config.d_model}, "
        f"{config.n_heads} heads); mla_params defaults to d = {dims['d']}, {dims['n_heads']} heads")
    return dims


def _mixed_precision(dtype: str = "bfloat16") -> tuple[int, int]:
    """The memory table's ``dtype`` column for Adam, and the same with mixed precision's float32
    optimizer moments and float32 master copy of the weights, in bytes: (column, mixed)."""
    e = mlp_ref.memory_estimate(SIZES, batch=256, dtype=dtype, optimizer="adam")
    P, s = mlp_ref.count_params(SIZES), mlp_ref.counting.BYTES_PER_ELEMENT
    assert e.optimizer_state == 2 * P * s[dtype], (  # "the column keeps Adam's two moments in 2 bytes"
        f"lesson 6: the {dtype} column keeps Adam's two moments in {s[dtype]} bytes each; found "
        f"{e.optimizer_state:,} bytes of optimizer state for {P:,} parameters")
    mixed = e.total - e.optimizer_state + 2 * P * s["float32"] + P * s["float32"]  # moments + master copy
    return e.total, mixed


def values() -> dict[str, str]:
    """The numbers lesson 6's prose says (``{@ l6.qwen_ffn_coeff @}``), as it reads them; lesson 9
    says some of them again."""
    coeff = _coefficients()
    d, n_q, _, h_d, inner, _, _ = QWEN
    base_d = BASE[0]
    wide = 4 * base_d                                                                  # h = 4d
    gated_coeff = Fraction(mlp_ref.gated_ffn_params(base_d, wide), base_d * wide)      # 3 (d h)
    gated_wide = Fraction(mlp_ref.gated_ffn_params(base_d, wide), base_d**2)           # 12 (d²) at h = 4d
    h_coeff = coeff["ffn"] / gated_coeff                                               # 8/3 (d)
    # GPT-2 small, as the page's table (mlp_ref.gpt2_small) counts it.
    gpt2 = models()["gpt2"]
    g_d, g_heads, g_ff = GPT2
    g_ffn = mlp_ref.ffn_params(g_d, g_ff, bias=True)                                   # one block, as the page's block
    g_block = g_ffn + mlp_ref.attention_params(g_d, g_heads, bias=True) + 2 * 2 * g_d  # + two LayerNorms (scale, shift)
    g_embed = gpt2["token embedding (tied with output)"].count
    assert gpt2["FFN 768 -> 3072 -> 768 with biases"].count < gpt2.total / 2, (       # "less than half of the model"
        f"lesson 6: GPT-2 small's FFNs hold less than half of the model; found "
        f"{gpt2['FFN 768 -> 3072 -> 768 with biases'].count:,} of {gpt2.total:,} "
        f"({gpt2['FFN 768 -> 3072 -> 768 with biases'].count / gpt2.total:.1%})")
    # Doubling both sides of W2 (the page's doubling table).
    w2_growth = mlp_ref.layer_table(BOTH_DOUBLED)[1].weights // mlp_ref.layer_table(SIZES)[1].weights
    llama_h = mlp_ref.swiglu_hidden(4096)
    assert llama_h == 11_008, (                                                        # LLaMA-7B's published inner width
        f"lesson 6: the SwiGLU width rule at d = 4096 gives LLaMA-7B's published inner width 11,008; "
        f"swiglu_hidden gives {llama_h:,}")
    ds_layers, ds_dense = 61, 3                                                        # DeepSeek-V3's published configuration
    # the primer's "blocks need not share shapes": DeepSeek-V3's dense and MoE blocks both hold parameters
    ds = models()["deepseek"]
    assert (ds.config.layers, ds.config.dense_layers) == (ds_layers, ds_dense), (
        f"lesson 6, primer: expected DeepSeek-V3 with {ds_layers} blocks, the first {ds_dense} dense; found "
        f"{ds.config.layers} blocks, {ds.config.dense_layers} dense")
    ds_dense_ffn = ds[f"dense FFN, {ds_dense} layers"].count
    ds_experts = ds[f"routed experts, {ds_layers - ds_dense} layers x {ds.config.n_experts}"].count
    assert ds_dense_ffn > 0 and ds_experts > 0, (
        f"lesson 6, primer: expected both kinds of DeepSeek-V3 block to hold parameters; found dense FFN "
        f"{ds_dense_ffn}, routed experts {ds_experts}")
    ex1 = mlp_ref.layer_table([2, 3, 1])                                               # exercise 1
    ex2 = max(mlp_ref.layer_table([784, 512, 256, 10]), key=lambda row: row.total)     # exercise 2
    q1 = mlp_ref.layer_table([100, 50])[0]                                             # check yourself 1
    share = coeff["share"]
    mla = _mla_dims()
    column, mixed = _mixed_precision()
    return {
        # DeepSeek-V3's MLA (math, so no thousands comma): latent widths, heads, head sizes
        "ds_q_rank": str(mla["q_lora_rank"]), "ds_kv_rank": str(mla["kv_lora_rank"]),
        "ds_heads": str(mla["n_heads"]), "ds_qk_nope": str(mla["qk_nope_head_dim"]),
        "ds_qk_rope": str(mla["qk_rope_head_dim"]), "ds_v_head": str(mla["v_head_dim"]),
        "bf16_adam_total": format_count(column),                            # the bfloat16 column's total
        "mixed_adam_total": format_count(mixed),                            # with float32 moments and master copy
        "mixed_adam_extra": format_count(mixed - column),
        "qwen_q_width": number(coeff["qwen_q_width"]),                       # "2d wide"
        "qwen_inner_coeff": number(Fraction(inner, d)),                      # "h = 3072 = 3d"
        "qwen_ffn_coeff": number(coeff["qwen_ffn"]),                         # "spends 9d²"
        "qwen_q_dim": str(n_q * h_d),                                        # "n_q h_d = 2048" (math: no comma)
        "ffn_coeff": number(coeff["ffn"]),                                   # "8d²"
        "attn_coeff": number(coeff["attn"]),                                 # "4d²"
        "ffn_bias_coeff": number(coeff["ffn_bias"]),                         # "+ 5d"
        "attn_bias_coeff": number(coeff["attn_bias"]),                       # "4d biases"
        "ffn_over_attn": times(coeff["ffn"] / coeff["attn"]),                # "twice as many weights"
        "ffn_over_attn_n": number(coeff["ffn"] / coeff["attn"]),             # Russian: "в 2 раза больше весов"
        "share_num": number(share.numerator),                                # "= 2/3"
        "share_den": number(share.denominator),
        "share_words": fraction_words(share),                                # "two thirds"
        "gated_coeff": number(gated_coeff),                                  # "3dh"
        "h_num": number(h_coeff.numerator),                                  # "h = 8d/3"
        "h_den": number(h_coeff.denominator),
        "gated_wide_coeff": number(gated_wide),                              # "12d² at h = 4d"
        "gpt2_ff_coeff": number(Fraction(g_ff, g_d)),                        # "3072 = 4d"
        "gpt2_block_ffn": fraction_words(Fraction(g_ffn, g_block).limit_denominator(4)),   # "about two thirds"
        "gpt2_embed": fraction_words(Fraction(g_embed, gpt2.total).limit_denominator(4)),  # "close to a third"
        "gpt2_block_ffn_frac": str(Fraction(g_ffn, g_block).limit_denominator(4)),        # Russian: "около 2/3"
        "gpt2_embed_frac": str(Fraction(g_embed, gpt2.total).limit_denominator(4)),        # Russian: "почти 1/3"
        "w2_growth": word(w2_growth),                                        # "W2 four times larger"
        "llama_h": format_count(llama_h),                                    # "11,008"
        "ds_moe_layers": number(ds_layers - ds_dense),                       # "the other 58"
        "ds_dense_layers": number(ds_dense),                                 # primer: "the first 3 blocks"
        "ex1_w1": number(ex1[0].weights), "ex1_b1": number(ex1[0].biases),
        "ex1_w2": number(ex1[1].weights), "ex1_b2": number(ex1[1].biases),
        "ex2_d_in": number(ex2.d_in), "ex2_d_out": number(ex2.d_out),       # "here 784 and 512"
        "q1_biases": number(q1.biases),                                      # "plus 50 biases"
    }
