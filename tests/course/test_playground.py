"""The training playground's build-time side: its generator, initial weights and data sets.

``tests/test_widgets.py`` holds the browser's copy to these, bit for bit, and its training to
``mlp_ref``; here the Python side is held to what its docstrings say.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlp_ref.course.playground import (
    POINTS, datasets, init_limit, initial_network, initial_weights, mulberry32, uniform,
)


def test_mulberry32_is_32_bit_and_uniform_enough():
    bits = mulberry32(12345)
    values = [next(bits) for _ in range(20000)]
    assert all(0 <= v < 2**32 for v in values) and len(set(values)) == len(values)
    # each of the 32 bits is set about half the time (binomial sd 0.0035 at n = 20000)
    for bit in range(32):
        share = sum((v >> bit) & 1 for v in values) / len(values)
        assert abs(share - 0.5) < 0.02, (bit, share)


def test_uniform_has_53_bits_and_stays_in_the_unit_interval():
    bits = mulberry32(7)
    draws = np.array([uniform(bits) for _ in range(20000)])
    assert draws.min() >= 0 and draws.max() < 1
    assert abs(draws.mean() - 0.5) < 0.01 and abs(draws.var() - 1 / 12) < 0.003
    # a multiple of 2**-53: exact in a double
    assert all(float(d * 2**53).is_integer() for d in draws[:1000])


def test_initial_weights_follow_he_and_glorot_ranges():
    for activation in ("relu", "tanh", "sigmoid"):
        weights, biases = initial_weights([8, 3], activation, 5)
        assert [w.shape for w in weights] == [(2, 8), (8, 3), (3, 1)]
        assert all(not b.any() for b in biases)
        for W in weights:
            assert np.abs(W).max() < init_limit(W.shape[0], W.shape[1], activation)
    assert init_limit(2, 8, "relu") == math.sqrt(3.0) and init_limit(2, 8, "tanh") == math.sqrt(0.6)
    net = initial_network([4], "tanh", 3)
    assert net.sizes == [2, 4, 1] and net.output == "sigmoid" and net.activation == "tanh"


@pytest.mark.parametrize("args, message", [
    (([9], "relu", 0), "at most 8 units"),
    (([0], "relu", 0), "widths[1]"),
    (([2, 2, 2], "relu", 0), "1 to 2 hidden layers"),
    (([2], "gelu", 0), "activation"),
    (([2], "relu", 2**32), "below 2**32"),
    (([2], "relu", -1), "seed"),
])
def test_bad_settings_say_what_was_expected(args, message):
    with pytest.raises(ValueError, match=message.replace("*", r"\*").replace("[", r"\[")):
        initial_weights(*args)


def test_the_data_sets():
    sets = datasets()
    assert list(sets) == ["xor", "moons", "circles", "spiral"]
    X, y = sets["xor"]
    assert X.tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]] and y.tolist() == [0, 1, 1, 0]
    for name in ("moons", "circles", "spiral"):
        X, y = sets[name]
        assert X.shape == (POINTS, 2) and sorted(set(y.tolist())) == [0.0, 1.0]
        assert np.array_equal(X, np.round(X, 3))     # three decimals, as the page writes them
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(sets.values(), datasets().values()))  # the same seed
