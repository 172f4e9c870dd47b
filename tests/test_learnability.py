"""mlp_ref.learnability: many XOR runs at once, held to the readable loop and to hand-made cases."""

from __future__ import annotations

import numpy as np
import pytest

import mlp_ref
from mlp_ref.learnability import XorRuns


@pytest.mark.parametrize("hidden", [2, 3])
def test_batched_runs_equal_the_readable_loop(hidden):
    seeds = [0, 1, 5]
    runs = mlp_ref.train_xor(hidden, seeds, lr=0.5, steps=60)
    for k, seed in enumerate(seeds):
        net, losses = mlp_ref.train_xor_readable(hidden, seed, lr=0.5, steps=60)
        np.testing.assert_allclose(runs.losses[k], losses, rtol=1e-10, atol=1e-12)
        for mine, ref in zip([runs.W1[k], runs.b1[k], runs.W2[k], runs.b2[k]], net.weights[:1] + net.biases[:1]
                             + net.weights[1:] + net.biases[1:]):
            np.testing.assert_allclose(mine, ref, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(runs.outputs[k], net.forward(mlp_ref.XOR_X)[:, 0], rtol=1e-12)


def _runs(W1, b1, W2, b2) -> XorRuns:
    """One hand-made 'run' with the given final weights (S = 1)."""
    W1, b1, W2, b2 = (np.asarray(a, dtype=float)[None] for a in (W1, b1, W2, b2))
    return XorRuns(W1.shape[2], (0,), 0.5, 0, W1, b1, W2, b2, np.zeros((1, 1)), np.zeros(1, dtype=int))


def test_lesson_2_weights_solve_xor():
    # h1 = relu(x1 + x2), h2 = relu(x1 + x2 - 1), logit 4 (h1 - 2 h2) - 2: -2, 2, 2, -2 at the corners.
    runs = _runs([[1, 1], [1, 1]], [0, -1], [[4], [-8]], [-2])
    assert runs.solved.tolist() == [True]
    assert runs.dead_units.tolist() == [0] and runs.affine_on_corners.tolist() == [False]


def test_a_dead_unit_and_an_affine_network_fail():
    # unit 2 has weights (-1, -1) and bias 0: off at every corner; unit 1 is on at every corner but (0, 0)
    dead = _runs([[1, -1], [1, -1]], [0, 0], [[1], [1]], [0])
    assert dead.dead_units.tolist() == [1] and dead.solved.tolist() == [False]
    # both units on at all four corners: the network is affine there
    affine = _runs([[1, 2], [1, 1]], [0.5, 0.5], [[1], [-1]], [0])
    assert affine.affine_on_corners.tolist() == [True] and affine.solved.tolist() == [False]


def test_a_blind_pair_of_corners():
    # both units off at (0, 0) (target 0) and at (1, 0) (target 1): the two get the same output
    runs = _runs([[-1, -2], [1, 1]], [0, 0], [[3], [3]], [0])
    assert runs.blind_pair.tolist() == [True] and runs.dead_units.tolist() == [0]
    assert runs.outputs[0, 0] == runs.outputs[0, 2] and runs.solved.tolist() == [False]
    assert _runs([[1, 1], [1, 1]], [0, -1], [[4], [-8]], [-2]).blind_pair.tolist() == [False]


def test_every_failure_has_one_of_the_three_causes():
    runs = mlp_ref.train_xor(2, range(40), lr=0.5, steps=300)
    explained = (runs.dead_units > 0) | runs.blind_pair | runs.affine_on_corners
    assert np.all(explained[~runs.solved])
    assert not np.any((runs.blind_pair | runs.affine_on_corners)[runs.solved])


def test_units_born_dead_are_those_with_two_negative_weights_and_never_move():
    runs = mlp_ref.train_xor(3, range(40), lr=0.5, steps=50)
    initial = np.stack([mlp_ref.MLP([2, 3, 1], output="sigmoid", seed=s).weights[0] for s in range(40)])
    born_dead = np.all(initial <= 0, axis=1)                       # (S, h): both weights <= 0
    np.testing.assert_array_equal(runs.dead_at_start, born_dead.sum(axis=1))
    assert born_dead.any()
    np.testing.assert_array_equal(runs.W1.transpose(0, 2, 1)[born_dead], initial.transpose(0, 2, 1)[born_dead])
    assert np.all(runs.dead_units >= runs.dead_at_start)


@pytest.mark.parametrize("hidden", [2, 3])
def test_passing_states_are_those_of_every_step_from_settled_on(hidden):
    seeds, steps, settled = range(60), 40, 10
    runs = mlp_ref.train_xor(hidden, seeds, lr=0.5, steps=steps, settled=settled)
    # the same runs stopped after t steps, for every t the record covers
    at = [mlp_ref.train_xor(hidden, seeds, lr=0.5, steps=t) for t in range(settled, steps + 1)]
    np.testing.assert_array_equal(runs.blind_pair_after, np.any([r.blind_pair for r in at], axis=0))
    np.testing.assert_array_equal(runs.affine_after, np.any([r.affine_on_corners for r in at], axis=0))
    assert runs.blind_pair_after.any() and runs.affine_after.any()   # the comparison is not empty
    # a unit dead after t steps is dead after t + 1: no unit came back, step by step
    dead = [np.all(r.hidden_pre <= 0.0, axis=1) for r in [mlp_ref.train_xor(hidden, seeds, 0.5, t)
                                                            for t in range(steps + 1)]]
    came_back = sum(np.sum(before & ~after, axis=1) for before, after in zip(dead, dead[1:]))
    np.testing.assert_array_equal(runs.revived, came_back)
    assert not runs.revived.any() and dead[-1].any()


def test_live_units_count_the_units_on_somewhere():
    dead = _runs([[1, -1], [1, -1]], [0, 0], [[1], [1]], [0])
    assert dead.live_units.tolist() == [1]
    assert _runs([[1, 1], [1, 1]], [0, -1], [[4], [-8]], [-2]).live_units.tolist() == [2]


def test_wider_networks_solve_more_often():
    fractions = [mlp_ref.train_xor(h, range(60), lr=0.5, steps=300).fraction_solved for h in (2, 4)]
    assert 0 < fractions[0] < fractions[1] < 1


def test_outcomes_are_computed_once_per_setting():
    first = mlp_ref.xor_outcomes(2, 5, 0.5, 10)
    assert mlp_ref.xor_outcomes(2, 5, 0.5, 10) is first
    assert first.seeds == tuple(range(5))


@pytest.mark.parametrize("args, match", [
    ((0, [0], 0.5, 10), "hidden"), ((2, [], 0.5, 10), "seeds"), ((2, [0], 0.0, 10), "lr"),
    ((2, [0], 0.5, -1), "steps"), ((2, [-1], 0.5, 1), "seeds"), ((2, [0], 0.5, 10, 11), "settled"),
    ((2, [0], 0.5, 10, -1), "settled"),
])
def test_bad_settings_are_refused(args, match):
    with pytest.raises((ValueError, TypeError), match=match):
        mlp_ref.train_xor(*args)


def test_the_corners_cannot_be_changed():
    with pytest.raises(ValueError):
        mlp_ref.XOR_X[0, 0] = 1.0


def test_xor_by_hand_computes_xor_exactly_on_the_corners():
    from mlp_ref import XOR_X, XOR_Y, xor_by_hand
    net = xor_by_hand()
    assert net.forward(XOR_X)[:, 0].tolist() == XOR_Y.tolist()  # small integers: exact on any machine
    assert net.sizes == [2, 2, 1] and net.output == "identity"
