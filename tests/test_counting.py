"""Tests of mlp_ref.counting: parameter counts, per-layer counts and training memory (the pages'
tables of them are tested in tests/course/test_counting_tables.py)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mlp_ref.counting import count_params, layer_table, memory_estimate


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


def test_memory_estimate_rows_name_the_parts_and_sum_to_the_total(monkeypatch):
    """The parts in English whatever edition is being built: the core says no page's words."""
    est = memory_estimate([2, 3, 1], batch=5, dtype="float64", optimizer="adam")
    assert est.rows() == [("parameters", 104), ("gradients", 104), ("activations (cache)", 400),
                          ("optimizer state (adam)", 208), ("total", 816)]
    monkeypatch.setenv("MLP_LANG", "ru")
    assert est.rows()[0] == ("parameters", 104)


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
