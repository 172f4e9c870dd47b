"""scikit-learn baselines of Lab A, fitted on the same splits as the lab's MLP.

* :func:`fit_mlp_classifier`: scikit-learn's ``MLPClassifier`` configured like the lab's
  MLP (same hidden layers, plain SGD, same batch size, learning rate and epochs), with the
  best validation epoch chosen the same way;
* :func:`fit_logistic_regression`, :func:`fit_hist_gradient_boosting`: models a neural
  network has to beat to earn its cost.

scikit-learn is imported inside the functions: it is a lab dependency, not a dependency of
the core of ``mlp_ref``. Fit times are wall-clock seconds of ``time.perf_counter``.
"""

from __future__ import annotations

import copy
import time
import warnings
from dataclasses import dataclass

import numpy as np

from mlp_ref.labs.digits.data import Splits
from mlp_ref.validation import check_int


# --------------------------------------------------------------------------- baselines

@dataclass
class BaselineResult:
    """A model fitted once per seed (or once, if it is deterministic given the data).

    Attributes
    ----------
    name : str
    seeds : tuple of int
        Empty for a deterministic model fitted once.
    val_accuracy, test_accuracy, fit_seconds : numpy.ndarray, shape (n_fits,)
    """

    name: str
    seeds: tuple[int, ...]
    val_accuracy: np.ndarray
    test_accuracy: np.ndarray
    fit_seconds: np.ndarray


def _accuracy(model, X, y) -> float:
    return float(np.mean(model.predict(X) == y))


def fit_mlp_classifier(hidden_sizes, data: Splits, *, epochs: int, batch_size: int, lr: float,
                       seed: int) -> tuple[float, float, float, int]:
    """scikit-learn's ``MLPClassifier`` with the settings of :func:`train_mlp`.

    ReLU, plain SGD (``momentum=0``), no weight penalty (``alpha=0``), constant learning
    rate, the same batch size, one epoch per ``partial_fit`` call (each call reshuffles the
    rows). After every epoch the validation log loss is measured and the best epoch's weights
    are kept, then restored before the one test evaluation: the protocol of :func:`train_mlp`.
    What still differs: scikit-learn initializes with Glorot-uniform weights and random biases
    (He-normal weights and zero biases in ``mlp_ref``), and draws its own batch order.

    Parameters
    ----------
    hidden_sizes : sequence of int
        Widths of the hidden layers only, e.g. ``(32, 16)`` for ``[64, 32, 16, 10]``.
    data : Splits
    epochs, batch_size : int
    lr : float
    seed : int
        ``random_state`` of the classifier.

    Returns
    -------
    (val_accuracy, test_accuracy, fit_seconds, chosen_epoch)
        ``chosen_epoch`` counted from 1; ``fit_seconds`` includes the validation passes.
    """
    from sklearn.metrics import log_loss
    from sklearn.neural_network import MLPClassifier

    seed = check_int("seed", seed, 0)
    classes = np.unique(np.concatenate([data.y_train, data.y_val, data.y_test]))
    model = MLPClassifier(hidden_layer_sizes=tuple(hidden_sizes), activation="relu", solver="sgd",
                          alpha=0.0, batch_size=batch_size, learning_rate="constant",
                          learning_rate_init=lr, momentum=0.0, nesterovs_momentum=False,
                          shuffle=True, random_state=seed, n_iter_no_change=epochs + 1, tol=0.0)
    best_loss, best_state, best_epoch = np.inf, None, -1
    start = time.perf_counter()
    for epoch in range(epochs):
        model.partial_fit(data.X_train, data.y_train, classes=classes)
        val_loss = log_loss(data.y_val, model.predict_proba(data.X_val), labels=classes)
        if val_loss < best_loss:
            best_loss, best_epoch = val_loss, epoch
            best_state = (copy.deepcopy(model.coefs_), copy.deepcopy(model.intercepts_))
    model.coefs_, model.intercepts_ = best_state
    seconds = time.perf_counter() - start
    return (_accuracy(model, data.X_val, data.y_val), _accuracy(model, data.X_test, data.y_test),
            seconds, best_epoch + 1)


def _fit_once(name: str, model, data: Splits) -> BaselineResult:
    start = time.perf_counter()
    model.fit(data.X_train, data.y_train)
    seconds = time.perf_counter() - start
    return BaselineResult(name, (), np.array([_accuracy(model, data.X_val, data.y_val)]),
                          np.array([_accuracy(model, data.X_test, data.y_test)]), np.array([seconds]))


def fit_logistic_regression(data: Splits, max_iter: int = 2000) -> BaselineResult:
    """Multinomial logistic regression (scikit-learn defaults: L2 penalty with C = 1, lbfgs).

    Deterministic given the data, so it is fitted once. ``max_iter`` is raised from the
    default so that lbfgs converges on these inputs; a ConvergenceWarning is an error here.
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        return _fit_once("LogisticRegression", LogisticRegression(max_iter=max_iter), data)


def fit_hist_gradient_boosting(data: Splits, max_iter: int = 100) -> BaselineResult:
    """Gradient-boosted trees (``HistGradientBoostingClassifier``, scikit-learn defaults).

    Early stopping is off (``early_stopping=False``; scikit-learn's ``"auto"`` would also turn
    it off below 10,000 rows) and no rows or features are subsampled, so the model is
    deterministic given the data and fitted once.
    ``max_iter`` is the number of boosting rounds (one tree per class per round).
    """
    from sklearn.ensemble import HistGradientBoostingClassifier

    return _fit_once("HistGradientBoostingClassifier",
                     HistGradientBoostingClassifier(max_iter=max_iter, early_stopping=False, random_state=0),
                     data)
