"""Tests of mlp_ref.batching: the batched pass does the same work at every batch size (no timing is asserted)."""

from __future__ import annotations

import numpy as np
import pytest

from mlp_ref.batching import run_in_batches


def layer(batch):
    return np.maximum(batch @ np.arange(12.0).reshape(3, 4) - 5.0, 0.0)   # (b, 3) -> (b, 4)


@pytest.mark.parametrize("batch_size", [1, 2, 3, 7, 10])
def test_every_batch_size_gives_the_whole_output_in_order(batch_size):
    X = np.arange(30.0).reshape(10, 3) / 7
    rate, Y = run_in_batches(layer, X, batch_size, repeats=2)
    assert Y.shape == (10, 4)
    np.testing.assert_allclose(Y, layer(X), rtol=1e-12, atol=1e-12)   # 7 does not divide 10: a short last batch
    assert rate > 0 and np.isfinite(rate)


def test_the_layer_sees_batches_of_the_size_asked_for():
    seen = []
    run_in_batches(lambda b: seen.append(len(b)) or b, np.ones((10, 2)), 4, repeats=1)
    assert seen == [4, 4, 2]


@pytest.mark.parametrize("args, error, message", [
    ((layer, np.ones((5, 3)), 0), ValueError, "batch_size: expected an integer from 1 to 5 (N, the rows of X), received 0"),
    ((layer, np.ones((5, 3)), 6), ValueError, "batch_size: expected an integer from 1 to 5"),
    ((layer, np.ones(3), 1), ValueError, "X: expected a 2-D array"),
    (("not a layer", np.ones((5, 3)), 1), TypeError, "layer: expected a callable"),
])
def test_bad_input_is_named(args, error, message):
    with pytest.raises(error) as caught:
        run_in_batches(*args)
    assert message in str(caught.value)


def test_repeats_must_be_positive():
    with pytest.raises(ValueError, match="repeats: expected a positive integer, received 0"):
        run_in_batches(layer, np.ones((5, 3)), 1, repeats=0)
