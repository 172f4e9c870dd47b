"""Lesson 6's tables of parameter counts and training memory, in the language of the page.

The counting functions (:mod:`mlp_ref.counting`, :mod:`mlp_ref.transformer_counts`) return
numbers and English names, what a reader's own run prints. Here they become a page's tables,
their words said in the edition being built (:func:`mlp_ref.course.i18n.say`). The parameter
counter (:mod:`mlp_ref.course.widgets`) shows the same words.
"""

from __future__ import annotations

from mlp_ref.counting import MemoryEstimate, layer_table
from mlp_ref.course.i18n import language, say
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.transformer_counts import ROW_LABELS, Breakdown, row_labels

#: The row labels of :data:`mlp_ref.transformer_counts.ROW_LABELS` on a Russian page, template
#: for template. The counts in them follow a colon («слоёв: 58»), so that the noun need not
#: agree with a number the reader can change.
ROW_LABELS_RU = {
    "encoder-decoder": ("эмбеддинг токенов (общий, связан с выходным слоем)", "самовнимание энкодера", "FFN энкодера",
                        "самовнимание декодера", "перекрёстное внимание декодера", "FFN декодера",
                        "нормализации LayerNorm"),
    "gpt2": ("эмбеддинг токенов (связан с выходным слоем)", "позиционный эмбеддинг",
             "внимание (q, k, v, o со смещениями)", "FFN {d_model} -> {d_ff} -> {d_model} со смещениями",
             "нормализации LayerNorm (масштаб и сдвиг)"),
    "qwen3": ("эмбеддинг токенов (связан с выходным слоем)", "внимание (q, k, v, o; GQA {n_heads}/{n_kv_heads})",
              "RMSNorm для q и k (в каждом слое по вектору масштаба ширины {head_dim} для q и для k, "
              "общему для всех голов)",
              "FFN (SwiGLU {d_model} -> {d_ff})", "RMSNorm (2 на слой + финальная)"),
    "deepseek-v3": ("эмбеддинг токенов", "выходной слой (несвязанный)", "внимание (MLA), слоёв: {layers}",
                    "FFN без экспертов, слоёв: {dense_layers}",
                    "маршрутизируемые эксперты, слоёв × экспертов: {moe_layers} × {n_experts}",
                    "общий эксперт, слоёв × экспертов: {moe_layers} × {n_shared}", "маршрутизаторы, слоёв: {moe_layers}",
                    "нормализации RMSNorm"),
}

#: What each published configuration leaves out (its ``leaves_out``), said on a Russian page.
LEAVES_OUT_RU = {
    "a final encoder/decoder norm; exact vocabulary size (37,000 is approximate)":
        "финальную нормализацию энкодера и декодера; точный размер словаря (37\u202f000 — приблизительно)",
    "nothing with parameters": "ни одной части с параметрами",
    "the MTP module (about 14B) and FP8 scaling factors": "модуль MTP (около 14 млрд) и масштабирующие множители FP8",
}


# --- an MLP: parameters per layer, memory to train it --------------------------------------

def layer_table_labels() -> dict:
    """The words of :func:`layer_table_markdown`: ``headers`` (five columns) and ``total``
    (the last row's label).

    Returns
    -------
    dict
        ``{"headers": [str, ...], "total": str}``, in the language being built.
    """
    total = say("total", ru="всего")
    return {"headers": [say("layer", ru="слой"), say("W shape (d_in, d_out)", ru="форма W (d_in, d_out)"),
                        say("weights", ru="веса"), say("biases", ru="смещения"), total],
            "total": total}


def layer_table_markdown(sizes) -> str:
    """Markdown table of :func:`mlp_ref.layer_table`: layer | shape of W | weights | biases |
    total, plus a total row.

    Parameters
    ----------
    sizes : sequence of int
        Layer widths ``[d_0, d_1, ..., d_L]``.

    Returns
    -------
    str
        One row per layer and a total row; its words in the language being built.
    """
    table, labels = layer_table(sizes), layer_table_labels()
    body = [[str(r.layer), f"({r.d_in}, {r.d_out})", format_count(r.weights), format_count(r.biases),
             format_count(r.total)] for r in table]
    body.append([labels["total"], "", format_count(sum(r.weights for r in table)),
                 format_count(sum(r.biases for r in table)), format_count(table.total)])
    return markdown_table(labels["headers"], body, align="lrrrr")


def memory_rows(estimate: MemoryEstimate) -> list[tuple[str, int]]:
    """``estimate.rows()`` with each part named in the language being built.

    Parameters
    ----------
    estimate : MemoryEstimate
        From :func:`mlp_ref.memory_estimate`.

    Returns
    -------
    list of (str, int)
        ``[(part, bytes), ...]``: the four parts and the total.
    """
    russian = ("параметры", "градиенты", "активации (кэш)", f"состояние оптимизатора ({estimate.optimizer})",
               "всего")
    return [(say(part, ru=ru), n) for (part, n), ru in zip(estimate.rows(), russian, strict=True)]


# --- a transformer: where its parameters live -----------------------------------------------

def row_label_templates(family: str) -> tuple[str, ...]:
    """The row labels of ``family``'s breakdown, in the language being built, with fields in braces."""
    return tuple(say(en, ru=ru) for en, ru in zip(ROW_LABELS[family], ROW_LABELS_RU[family], strict=True))


def breakdown_labels() -> dict:
    """The words of :func:`breakdown_markdown`: ``headers`` (three columns), ``total`` and
    ``active`` (the labels of the last rows).

    Returns
    -------
    dict
        ``{"headers": [str, str, str], "total": str, "active": str}``, in the language being built.
    """
    return {"headers": [say("component", ru="часть"), say("parameters", ru="параметры"),
                        say("share (%)", ru="доля (%)")],
            "total": say("total", ru="всего"), "active": say("active per token", ru="активные на токен")}


def breakdown_markdown(breakdown: Breakdown, precision: int = 1) -> str:
    """Markdown table of a :class:`~mlp_ref.transformer_counts.Breakdown`: component |
    parameters | share (%), plus a total row (and the parameters active per token, if any).

    Parameters
    ----------
    breakdown : Breakdown
        From :func:`mlp_ref.breakdown` or one of the published models' functions.
    precision : int
        Decimals of the shares.

    Returns
    -------
    str
        The table; its words (headers, each component's name) in the language being built.
    """
    labels = breakdown_labels()
    russian = row_labels(breakdown.config, ROW_LABELS_RU)
    body = [[say(r.component, ru=ru), format_count(r.count), format_number(100 * r.share, precision)]
            for r, ru in zip(breakdown.rows, russian, strict=True)]
    body.append([labels["total"], format_count(breakdown.total), format_number(100.0, precision)])
    if breakdown.active is not None:
        body.append([labels["active"], format_count(breakdown.active),
                     format_number(100 * breakdown.active / breakdown.total, precision)])
    return markdown_table(labels["headers"], body, align="lrr")


def leaves_out(breakdown: Breakdown) -> str:
    """What the estimate of ``breakdown`` does not count, in the language being built (a page's
    sentence says it).

    Raises
    ------
    ValueError
        On a Russian page, for a configuration whose ``leaves_out`` has no Russian in
        :data:`LEAVES_OUT_RU` (one a reader made needs none on an English page).
    """
    text = breakdown.leaves_out
    if language() == "en":
        return text
    if text not in LEAVES_OUT_RU:
        raise ValueError(f"leaves_out: expected a text with a Russian translation in LEAVES_OUT_RU, "
                         f"received {text!r}")
    return LEAVES_OUT_RU[text]
