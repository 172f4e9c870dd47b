"""Tests of mlp_ref.labs.charlm.speed, the step timer of Lab B's page and of make bench."""

from __future__ import annotations

import numpy as np
import pytest

from mlp_ref.labs.charlm.model import CharMLPConfig


def test_step_timer_runs_every_runner_and_names_bad_input():
    from mlp_ref.labs.charlm.speed import median_step_times, numpy_runner

    rng = np.random.default_rng(0)
    X, Y = rng.integers(0, 27, (256, 3)), rng.integers(0, 27, 256)
    config = CharMLPConfig(27, 3, 4, 8)
    calls = []

    def counting(steps):
        calls.append(steps)

    times = median_step_times([numpy_runner(config, X, Y), counting], steps=2, repeats=3)
    assert len(times) == 2 and times[0] > 0 and calls == [2, 2, 2, 2]  # warm-up, then 3 timed runs
    with pytest.raises(ValueError, match=r"X, Y: expected shapes .* N >= 256, received \(255, 3\)"):
        numpy_runner(config, X[:255], Y[:255])
    with pytest.raises(ValueError, match="repeats: expected a positive integer, received 0"):
        median_step_times([counting], steps=2, repeats=0)
