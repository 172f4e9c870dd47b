"""Parity with scikit-learn's MLPClassifier / MLPRegressor (a peer implementation).

scikit-learn uses the same row-batch layout: ``coefs_[l]`` has shape (d_in, d_out) and
``intercepts_[l]`` shape (d_out,); its "logistic" activation is our "sigmoid".
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier, MLPRegressor

from mlp_ref import MLP, sgd_step

SK_ACTIVATION = {"relu": "relu", "tanh": "tanh", "sigmoid": "logistic", "identity": "identity"}


@pytest.fixture(scope="module")
def digits():
    X, y = load_digits(return_X_y=True)
    return X[:600] / 16.0, y[:600]


def _fitted(X, y, activation, hidden=(20, 12)):
    clf = MLPClassifier(hidden, activation=SK_ACTIVATION[activation], max_iter=15, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return clf.fit(X, y)


@pytest.mark.parametrize("activation", ["relu", "tanh", "sigmoid", "identity"])
def test_predict_proba_matches_a_fitted_classifier(digits, activation):
    X, y = digits
    clf = _fitted(X, y, activation)
    net = MLP.from_arrays(clf.coefs_, clf.intercepts_, activation=activation, output="softmax")
    np.testing.assert_allclose(net.predict_proba(X), clf.predict_proba(X), rtol=0, atol=1e-12)
    # The two libraries reach the probabilities through different BLAS calls, so they agree to
    # rounding only. Labels may be compared exactly once no row is a near-tie: rounding far
    # below the margin cannot move an argmax.
    top_two = np.sort(clf.predict_proba(X), axis=1)[:, -2:]
    assert np.min(top_two[:, 1] - top_two[:, 0]) > 1e-9
    np.testing.assert_array_equal(net.predict(X), clf.predict(X))


def test_binary_classifier_uses_a_sigmoid_output(digits):
    X, y = digits
    y2 = (y >= 5).astype(int)
    clf = _fitted(X, y2, "relu", hidden=(10,))
    assert clf.out_activation_ == "logistic"
    net = MLP.from_arrays(clf.coefs_, clf.intercepts_, activation="relu", output="sigmoid")
    np.testing.assert_allclose(net.predict_proba(X)[:, 0], clf.predict_proba(X)[:, 1], rtol=0, atol=1e-12)
    assert np.min(np.abs(clf.predict_proba(X)[:, 1] - 0.5)) > 1e-9  # no near-tie: labels compare exactly
    np.testing.assert_array_equal(net.predict(X), clf.predict(X))


def _sgd_model(cls, lr, batch_size, activation, hidden):
    return cls(hidden_layer_sizes=hidden, activation=SK_ACTIVATION[activation], solver="sgd", learning_rate="constant",
               learning_rate_init=lr, momentum=0.0, nesterovs_momentum=False, alpha=0.0,
               batch_size=batch_size, shuffle=False, early_stopping=False, random_state=0)


def _sklearn_step(model, net, X, y, **partial_fit_kwargs):
    """One full-batch SGD step of scikit-learn, started from ``net``'s weights."""
    model.partial_fit(X, y, **partial_fit_kwargs)   # first call: sets up shapes and the optimizer
    # Start from our weights. partial_fit does not re-initialise (incremental=True), and
    # _fit_stochastic reads self.coefs_ + self.intercepts_ afresh and updates them in place.
    model.coefs_ = [W.copy() for W in net.weights]
    model.intercepts_ = [b.copy() for b in net.biases]
    model.partial_fit(X, y)                         # one epoch = one batch = one step
    return model


@pytest.mark.parametrize("activation", ["relu", "tanh", "sigmoid"])
def test_one_sgd_step_matches_classifier(digits, activation):
    X, y = digits
    X, y = X[:100], y[:100]
    lr = 0.3
    net = MLP([64, 16, 12, 10], activation=activation, output="softmax", seed=4)
    clf = _sklearn_step(_sgd_model(MLPClassifier, lr, len(X), activation, (16, 12)), net, X, y,
                        classes=np.arange(10))
    before = [p.copy() for p in net.weights + net.biases]
    loss, grads = net.loss_and_grads(X, y)
    sgd_step(net, grads, lr)
    assert any(np.abs(a - b).max() > 1e-3 for a, b in zip(before, net.weights + net.biases))  # a real step
    for ours, theirs in zip(net.weights + net.biases, clf.coefs_ + clf.intercepts_):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-13)
    assert loss == pytest.approx(clf.loss_, rel=1e-10)   # the loss sklearn measured before its step


def test_one_sgd_step_matches_binary_classifier(digits):
    X, y = digits
    X, y = X[:80], (digits[1][:80] % 2)
    net = MLP([64, 9, 1], activation="tanh", output="sigmoid", seed=1)
    clf = _sklearn_step(_sgd_model(MLPClassifier, 0.5, len(X), "tanh", (9,)), net, X, y, classes=[0, 1])
    loss, grads = net.loss_and_grads(X, y)
    sgd_step(net, grads, 0.5)
    for ours, theirs in zip(net.weights + net.biases, clf.coefs_ + clf.intercepts_):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-13)
    assert loss == pytest.approx(clf.loss_, rel=1e-10)


def test_regressor_step_differs_by_the_documented_factor_two(digits):
    # scikit-learn's squared loss is mean((y - p)^2) / 2, ours (for one output) mean((y - p)^2):
    # our gradient is twice theirs, so our step with lr / 2 equals theirs with lr.
    X, _ = digits
    X = X[:50]
    y = np.sin(X[:, 10] * 3) + X[:, 20]
    net = MLP([64, 7, 1], activation="relu", output="identity", seed=2)
    reg = _sklearn_step(_sgd_model(MLPRegressor, 0.1, len(X), "relu", (7,)), net, X, y)
    loss, grads = net.loss_and_grads(X, y)
    sgd_step(net, grads, 0.05)
    for ours, theirs in zip(net.weights + net.biases, reg.coefs_ + reg.intercepts_):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-13)
    assert loss == pytest.approx(2 * reg.loss_, rel=1e-10)
