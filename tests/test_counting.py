"""Tests of mlp_ref.counting: parameter counts and per-layer tables."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mlp_ref.counting import count_params, layer_table, layer_table_markdown, memory_estimate


@pytest.mark.parametrize("sizes, expected", [
    ([2, 2, 1], 2 * 2 + 2 + 2 * 1 + 1),            # 9
    ([784, 128, 10], 784 * 128 + 128 + 128 * 10 + 10),  # 101,770
    ([64, 32, 16, 10], 2080 + 528 + 170),
])
def test_count_params_by_hand(sizes, expected):
    assert count_params(sizes) == expected


def test_count_params_known_value():
    assert count_params([784, 128, 10]) == 101_770


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=2, max_size=6))
def test_count_params_equals_sum_of_array_sizes(sizes):
    arrays = [np.zeros((a, b)) for a, b in zip(sizes[:-1], sizes[1:])] + [np.zeros(b) for b in sizes[1:]]
    assert count_params(sizes) == sum(a.size for a in arrays)
    assert layer_table(sizes).total == count_params(sizes)


@pytest.mark.parametrize("bad, exc, match", [
    ([784], ValueError, "at least 2"),
    ([784, 0, 10], ValueError, r"sizes\[1\].*received 0"),
    ([784, -3, 10], ValueError, r"sizes\[1\]"),
    ([784, 12.5, 10], TypeError, r"sizes\[1\]"),
    ("784", TypeError, "sizes"),
])
def test_count_params_rejects_bad_sizes(bad, exc, match):
    with pytest.raises(exc, match=match):
        count_params(bad)


def test_layer_table_rows():
    table = layer_table([784, 128, 64, 10])
    assert len(table) == 3
    first = table[0]
    assert (first.layer, first.d_in, first.d_out, first.weights, first.biases, first.total) == (
        1, 784, 128, 100_352, 128, 100_480)
    assert [r.total for r in table] == [100_480, 8_256, 650]
    assert table.total == 109_386


def test_layer_table_markdown_has_total_row():
    lines = layer_table_markdown([2, 3, 1]).splitlines()
    assert lines[0].split("|")[1].strip() == "layer"
    cells = [c.strip() for c in lines[2].split("|")[1:-1]]
    assert cells == ["1", "(2, 3)", "6", "3", "9"]
    total = [c.strip() for c in lines[-1].split("|")[1:-1]]
    assert total == ["total", "", "9", "4", "13"]


def test_layer_table_markdown_uses_thousands_separators():
    assert "101,770" in layer_table([784, 128, 10]).to_markdown()


def test_memory_estimate_by_hand():
    # [2, 3, 1]: P = 2*3 + 3 + 3*1 + 1 = 13; cache for B = 5: X 5*2 + z,a 2*5*3 + z,a 2*5*1 = 50 floats
    est = memory_estimate([2, 3, 1], batch=5, dtype="float64", optimizer="adam")
    assert est.parameters == 13 * 8
    assert est.gradients == 13 * 8
    assert est.activations == 50 * 8
    assert est.optimizer_state == 2 * 13 * 8
    assert est.total == (13 + 13 + 50 + 26) * 8


@pytest.mark.parametrize("dtype, size", [("float64", 8), ("float32", 4), ("float16", 2), ("bfloat16", 2)])
@pytest.mark.parametrize("optimizer, copies", [("sgd", 0), ("momentum", 1), ("adam", 2)])
def test_memory_estimate_scales_with_dtype_and_optimizer(dtype, size, optimizer, copies):
    sizes = [784, 128, 64, 10]
    est = memory_estimate(sizes, batch=32, dtype=dtype, optimizer=optimizer)
    P = 109_386  # from test_layer_table_rows
    assert est.parameters == est.gradients == P * size
    assert est.optimizer_state == copies * P * size
    assert est.activations == 32 * (784 + 2 * (128 + 64 + 10)) * size


def test_memory_estimate_markdown():
    md = memory_estimate([2, 3, 1], batch=5, dtype="float64", optimizer="sgd").to_markdown()
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in md.splitlines()[2:]]
    assert rows[0] == ["parameters", "104", "0.00"]
    assert rows[2] == ["activations (cache)", "400", "0.00"]
    assert rows[-1][0:2] == ["total", "608"]
    big = memory_estimate([784, 128, 64, 10], batch=1, dtype="float64", optimizer="sgd")
    # params + grads 2 * 109,386 * 8 = 1,750,176; cache (784 + 2 * 202) * 8 = 9,504; sum / 2**20 = 1.678...
    assert big.to_markdown().splitlines()[-1].replace(" ", "") == "|total|1,759,680|1.68|"


def _cells(markdown: str) -> list[list[str]]:
    return [[c.strip() for c in line.split("|")[1:-1]] for line in markdown.splitlines()]


def test_a_russian_page_says_the_tables_words_in_russian_and_a_readers_run_stays_english(monkeypatch):
    """The tables are a page's generated tables (their words in the page's language, as
    hooks/edition.py sets MLP_LANG); outside a build, as in a reader's run, they are English."""
    table, estimate = layer_table([784, 128, 10]), memory_estimate([2, 3, 1], batch=5, optimizer="adam")
    english = (table.to_markdown(), estimate.to_markdown(), estimate.rows())
    assert [part for part, _ in english[2]] == ["parameters", "gradients", "activations (cache)",
                                                "optimizer state (adam)", "total"]
    monkeypatch.setenv("MLP_LANG", "ru")
    cells = _cells(table.to_markdown())
    assert cells[0] == ["слой", "форма W (d_in, d_out)", "веса", "смещения", "всего"]
    assert cells[-1] == ["всего", "", "101\u202f632", "138", "101\u202f770"]
    assert [part for part, _ in estimate.rows()] == ["параметры", "градиенты", "активации (кэш)",
                                                     "состояние оптимизатора (adam)", "всего"]
    assert [n for _, n in estimate.rows()] == [n for _, n in english[2]]
    assert _cells(estimate.to_markdown())[0] == ["часть", "байт", "МиБ"]
    assert table.labels()["headers"] == cells[0] and table.labels()["total"] == "всего"
    monkeypatch.delenv("MLP_LANG")
    assert (table.to_markdown(), estimate.to_markdown(), estimate.rows()) == english


@pytest.mark.parametrize("kwargs, match", [
    ({"batch": 0}, "batch"), ({"batch": 2.0}, "batch"), ({"batch": 4, "dtype": "int8"}, "dtype.*bfloat16"),
    ({"batch": 4, "optimizer": "rmsprop"}, "optimizer.*adam"),
])
def test_memory_estimate_rejects_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        memory_estimate([2, 3, 1], **kwargs)


@pytest.mark.parametrize("dtype, name", [(np.float64, "float64"), (np.float32, "float32")])
def test_memory_estimate_matches_mlp_arrays(dtype, name):
    from mlp_ref.network import MLP

    sizes, batch = [6, 5, 4, 3], 7
    net = MLP(sizes, output="softmax", seed=0, dtype=dtype)
    _, cache = net.forward(np.zeros((batch, 6), dtype=dtype), keep_cache=True)
    est = memory_estimate(sizes, batch, dtype=name)
    assert est.parameters == sum(a.nbytes for a in net.weights + net.biases)
    assert est.activations == sum(a.nbytes for a in cache.pre_activations + cache.activations)
