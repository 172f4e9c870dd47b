"""mlp_ref.course.backward_tables: lesson 5's by-hand backward table and its cost table."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mlp_ref
from mlp_ref.course.backward_tables import backward_by_hand, multiply_add_table


def fixture_net():
    """Lesson 3's 2-2-1 network."""
    return mlp_ref.MLP.from_arrays([np.array([[0.1, 0.2], [0.3, 0.4]]), np.array([[0.5], [0.6]])],
                                   [np.array([0.1, 0.1]), np.array([0.2])], activation="relu", output="sigmoid")


def cells(table: str) -> dict[str, list[str]]:
    return {row[0]: row[1:] for row in ([c.strip() for c in line.strip("|").split("|")]
                                        for line in table.splitlines()[2:])}


def test_entries_by_hand():
    # z1 = (0.8, 1.1), z2 = 0.8 * 0.5 + 1.1 * 0.6 + 0.2 = 1.26, target 0: delta2 = sigmoid(1.26)
    d2 = 1 / (1 + math.exp(-1.26))
    table = cells(backward_by_hand(fixture_net(), [1.0, 2.0], 0.0))
    expected = {"δ2 = ŷ − y": d2, "∂L/∂W2[1]": 0.8 * d2, "∂L/∂W2[2]": 1.1 * d2, "δ1[1]": 0.5 * d2,
                "δ1[2]": 0.6 * d2, "∂L/∂W1[2,1]": 2 * 0.5 * d2, "∂L/∂W1[2,2]": 2 * 0.6 * d2}
    for name, value in expected.items():
        assert table[name][2] == table[name][3] == f"{value:.4f}", name
    assert table["∂L/∂W1[1,2]"][0] == "(2, 2)" and table["∂L/∂b1[1]"][0] == "(2,)"


def test_a_dead_unit_shows_a_zero_relu_derivative():
    net = fixture_net()
    table = cells(backward_by_hand(net, [2.0, -1.5], 1.0))     # lesson 3's row 4: both units off
    assert table["δ1[1]"][2] == table["δ1[2]"][2] == "0.0000"
    assert "· 0" in table["δ1[1]"][1]


def test_disagreement_with_mlp_ref_stops_the_table(monkeypatch):
    wrong = mlp_ref.MLP.backward

    def off_by_one_percent(self, cache, delta):
        grads = wrong(self, cache, delta)
        grads.weights[0] = grads.weights[0] * 1.01
        return grads

    monkeypatch.setattr(mlp_ref.MLP, "backward", off_by_one_percent)
    with pytest.raises(ValueError, match="W1"):
        backward_by_hand(fixture_net(), [1.0, 2.0], 0.0)


def test_other_networks_are_refused():
    with pytest.raises(ValueError, match="2-layer"):
        backward_by_hand(mlp_ref.MLP([2, 3, 3, 1], output="sigmoid"), [1.0, 2.0], 0.0)
    with pytest.raises(ValueError, match="X"):
        backward_by_hand(fixture_net(), [1.0, 2.0, 3.0], 0.0)


def test_cost_table_totals():
    counts = mlp_ref.count_multiply_adds(mlp_ref.MLP([3, 4, 2], output="softmax"), np.ones((5, 3)), np.zeros(5, dtype=int))
    table = cells(multiply_add_table(counts))
    assert table["**forward, total**"][1] == f"**{5 * 3 * 4 + 5 * 4 * 2}**"
    assert table["**backward, total**"][1] == f"**{2 * (5 * 3 * 4 + 5 * 4 * 2) - 5 * 3 * 4}**"
