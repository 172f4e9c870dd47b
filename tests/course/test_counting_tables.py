"""mlp_ref.course.counting_tables: lesson 6's tables of counts, in the language of the page."""

import re
import string
from dataclasses import replace

import pytest

from mlp_ref.counting import layer_table, memory_estimate
from mlp_ref.course.counting_tables import (ROW_LABELS_RU, breakdown_labels, breakdown_markdown, layer_table_labels,
                                            layer_table_markdown, leaves_out, memory_rows)
from mlp_ref.course.widgets import FIELD_LABELS, FIELD_LABELS_RU
from mlp_ref.course.i18n import typeset
from mlp_ref.transformer_counts import (GPT2_SMALL, ROW_LABELS, breakdown, deepseek_v3, gpt2_small, qwen3_0_6b,
                                        transformer_base)

CYRILLIC = re.compile("[А-Яа-яЁё]")
# Russian row labels that are the English ones: names and formulas, no words to translate
SAME_IN_BOTH = {"FFN (SwiGLU {d_model} -> {d_ff})"}


def cells(markdown: str) -> list[list[str]]:
    return [[c.strip() for c in line.split("|")[1:-1]] for line in markdown.splitlines()]


def test_layer_table_markdown_has_a_total_row():
    rows = cells(layer_table_markdown([2, 3, 1]))
    assert rows[0][0] == "layer"
    assert rows[2] == ["1", "(2, 3)", "6", "3", "9"]
    assert rows[-1] == ["total", "", "9", "4", "13"]
    assert "101,770" in layer_table_markdown([784, 128, 10])


def test_a_russian_page_says_the_tables_words_in_russian_and_a_readers_run_stays_english(monkeypatch):
    """The tables are a page's generated tables (their words in the page's language, as
    mlp_site.edition sets MLP_LANG); outside a build, as in a reader's run, they are English."""
    estimate = memory_estimate([2, 3, 1], batch=5, optimizer="adam")
    english = (layer_table_markdown([784, 128, 10]), memory_rows(estimate))
    assert english[1] == estimate.rows()
    monkeypatch.setenv("MLP_LANG", "ru")
    table = cells(layer_table_markdown([784, 128, 10]))
    assert table[0] == ["слой", "форма W (d_in, d_out)", "веса", "смещения", "всего"]
    assert table[-1] == ["всего", "", "101\u202f632", "138", "101\u202f770"]
    assert layer_table_labels() == {"headers": table[0], "total": "всего"}
    assert [part for part, _ in memory_rows(estimate)] == ["параметры", "градиенты", "активации (кэш)",
                                                           "состояние оптимизатора (adam)", "всего"]
    assert [n for _, n in memory_rows(estimate)] == [n for _, n in estimate.rows()]
    assert estimate.rows() == english[1]  # the core's own names stay English
    monkeypatch.delenv("MLP_LANG")
    assert (layer_table_markdown([784, 128, 10]), memory_rows(estimate)) == english


@pytest.mark.parametrize("config", [transformer_base, gpt2_small, qwen3_0_6b, deepseek_v3])
def test_breakdown_markdown_has_every_component_and_a_total_row(config):
    b = config()
    lines = breakdown_markdown(b).splitlines()
    assert len(lines) == 2 + len(b.rows) + 1 + (b.active is not None)
    assert [row[0] for row in cells("\n".join(lines))[2:2 + len(b.rows)]] == [r.component for r in b.rows]
    assert f"{b.total:,}" in lines[2 + len(b.rows)]
    assert breakdown_labels()["headers"] == cells(lines[0])[0]


def test_every_label_has_a_russian_twin_with_the_same_fields():
    """ROW_LABELS_RU and FIELD_LABELS_RU say every label of ROW_LABELS and FIELD_LABELS, with the
    same {fields}, in Russian (a label left in English would show on a Russian page)."""

    def fields(template):
        return sorted(name for _, name, _, _ in string.Formatter().parse(template) if name)

    assert set(ROW_LABELS_RU) == set(ROW_LABELS) and set(FIELD_LABELS_RU) == set(FIELD_LABELS)
    for family, labels in ROW_LABELS.items():
        assert len(ROW_LABELS_RU[family]) == len(labels), family
        for en, ru in zip(labels, ROW_LABELS_RU[family]):
            assert fields(ru) == fields(en), (en, ru)
            assert CYRILLIC.search(ru) or (ru == en and en in SAME_IN_BOTH), (en, ru)
    assert all(CYRILLIC.search(label) for label in FIELD_LABELS_RU.values())


@pytest.mark.parametrize("config", [transformer_base, gpt2_small, qwen3_0_6b, deepseek_v3])
def test_a_russian_page_shows_the_breakdown_and_what_it_leaves_out_in_russian(config, monkeypatch):
    """breakdown_markdown and leaves_out in the language being built (lesson 6 says leaves_out inside
    a Russian sentence); the rows keep their English names, which a page's code looks them up by."""
    b = config()
    english = (breakdown_markdown(b), leaves_out(b))
    assert english[1] == b.leaves_out
    monkeypatch.setenv("MLP_LANG", "ru")
    rows = cells(breakdown_markdown(b))
    assert rows[0] == ["часть", "параметры", "доля (%)"]
    names = [r[0] for r in rows[2:2 + len(b.rows)]]
    # An English name is shown as the Russian edition sets it (i18n.typeset: "1024 -> 3072" as "1024 → 3072").
    assert all(CYRILLIC.search(name) or name == typeset(r.component) for name, r in zip(names, b.rows))
    assert sum(name != typeset(r.component) for name, r in zip(names, b.rows)) >= len(b.rows) - 1
    assert rows[2 + len(b.rows)][0] == "всего" and rows[2 + len(b.rows)][1] == f"{b.total:,}".replace(",", "\u202f")
    assert (rows[-1][0] == "активные на токен") == (b.active is not None)
    assert CYRILLIC.search(leaves_out(b)) and leaves_out(b) != english[1]
    assert b[b.rows[0].component] is b.rows[0]  # looked up by its English name on a Russian page too
    monkeypatch.delenv("MLP_LANG")
    assert (breakdown_markdown(b), leaves_out(b)) == english


def test_a_configuration_without_russian_says_what_it_leaves_out_in_english_only(monkeypatch):
    """A configuration a reader makes needs no Russian; a Russian page that showed it would fail."""
    mine = breakdown(replace(GPT2_SMALL, leaves_out="my notes"))
    assert leaves_out(mine) == "my notes"
    monkeypatch.setenv("MLP_LANG", "ru")
    with pytest.raises(ValueError, match="expected a text with a Russian translation.*received 'my notes'"):
        leaves_out(mine)
