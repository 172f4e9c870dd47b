"""Tests of mlp_ref.labs.digits.baselines: the scikit-learn models of Lab A."""

from __future__ import annotations

import numpy as np
import pytest

from mlp_ref.labs.digits.baselines import fit_mlp_classifier
from mlp_ref.labs.digits.data import digits_splits


@pytest.fixture(scope="module")
def splits():
    return digits_splits(0)


def test_mlp_classifier_restores_its_best_epoch(splits):
    """Re-train from the same random_state for exactly the chosen number of epochs: the
    accuracies must be those reported after the restore."""
    from sklearn.neural_network import MLPClassifier

    # A learning rate too large for this net: the validation loss is lowest early, then worse.
    val, test, _, chosen = fit_mlp_classifier((16,), splits, epochs=8, batch_size=64, lr=1.5, seed=0)
    assert chosen < 8  # otherwise the restore would not be tested
    fresh = MLPClassifier(hidden_layer_sizes=(16,), solver="sgd", alpha=0.0, batch_size=64,
                          learning_rate="constant", learning_rate_init=1.5, momentum=0.0, random_state=0,
                          n_iter_no_change=100, tol=0.0)
    for _ in range(chosen):
        fresh.partial_fit(splits.X_train, splits.y_train, classes=np.arange(10))
    # Both sides are scikit-learn's own partial_fit and predict, the same calls in the same
    # process: exact equality is the claim (and accuracies are ratios of counts).
    assert val == fresh.score(splits.X_val, splits.y_val)
    assert test == fresh.score(splits.X_test, splits.y_test)


def test_boosting_is_deterministic_so_one_fit_is_enough(splits):
    """The page fits HistGradientBoosting once and says why: the seed does not matter."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from mlp_ref.labs.digits.baselines import fit_hist_gradient_boosting

    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):  # OpenMP threads on a busy machine only slow this down
        probabilities = [HistGradientBoostingClassifier(max_iter=3, early_stopping=False, random_state=seed)
                         .fit(splits.X_train, splits.y_train).predict_proba(splits.X_test) for seed in (0, 7)]
        result = fit_hist_gradient_boosting(splits, max_iter=3)
    assert np.array_equal(*probabilities)  # same calls, one thread: only the seed differs, so exact
    assert result.test_accuracy[0] == np.mean(probabilities[0].argmax(axis=1) == splits.y_test)
