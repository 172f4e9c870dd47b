"""Training: sgd_step by hand, fit's two engines against each other, best-epoch restore, grad_check."""

import math

import numpy as np
import pytest

import mlp_ref.activations
from mlp_ref import MLP, fit, grad_check, sgd_step
from mlp_ref.network import Gradients


def test_sgd_step_by_hand():
    net = MLP.from_arrays([[[1.0, 2.0]]], [[0.5, -0.5]])
    sgd_step(net, Gradients([np.array([[10.0, -4.0]])], [np.array([1.0, 2.0])]), lr=0.1)
    np.testing.assert_allclose(net.weights[0], [[0.0, 2.4]], atol=1e-15)
    np.testing.assert_allclose(net.biases[0], [0.4, -0.7], rtol=1e-15)


def test_momentum_steps_by_hand():
    net = MLP.from_arrays([[[1.0, 2.0]]], [[0.5, -0.5]])
    state = mlp_ref.MomentumState.zeros(net)
    grads = Gradients([np.array([[10.0, -4.0]])], [np.array([1.0, 2.0])])
    mlp_ref.momentum_step(net, grads, lr=0.1, state=state, beta=0.5)   # v = g: the SGD step
    np.testing.assert_allclose(net.weights[0], [[0.0, 2.4]], atol=1e-15)
    mlp_ref.momentum_step(net, grads, lr=0.1, state=state, beta=0.5)   # v = 0.5 g + g = 1.5 g
    np.testing.assert_allclose(state.velocity[0], [[15.0, -6.0]], rtol=1e-15)
    np.testing.assert_allclose(net.weights[0], [[-1.5, 3.0]], rtol=1e-14)
    np.testing.assert_allclose(net.biases[0], [0.25, -1.0], rtol=1e-14)


def test_adams_first_step_moves_every_entry_by_the_learning_rate():
    net = MLP.from_arrays([[[1.0, 2.0]]], [[0.5, -0.5]])
    state = mlp_ref.AdamState.zeros(net)
    grads = Gradients([np.array([[1000.0, -0.001]])], [np.array([3.0, -2.0])])
    mlp_ref.adam_step(net, grads, lr=0.1, state=state)
    assert state.t == 1
    np.testing.assert_allclose(state.m[0], [[100.0, -0.0001]], rtol=1e-12)         # (1 - 0.9) g
    np.testing.assert_allclose(state.s[0], [[1000.0, 1e-9]], rtol=1e-12)           # (1 - 0.999) g^2
    # m / (1 - 0.9) = g and s / (1 - 0.999) = g^2, so the step is lr g / (|g| + eps)
    g = np.array([1000.0, -0.001])
    np.testing.assert_allclose(net.weights[0], [[1.0, 2.0] - 0.1 * g / (np.abs(g) + 1e-8)], rtol=1e-12)
    gb = np.array([3.0, -2.0])
    np.testing.assert_allclose(net.biases[0], [0.5, -0.5] - 0.1 * gb / (np.abs(gb) + 1e-8), rtol=1e-12)
    assert np.all(np.abs(np.abs(net.weights[0] - [1.0, 2.0]) - 0.1) < 1e-5)   # each entry moved by lr



def test_adams_second_step_by_hand():
    # Step 2 is the first where the bias correction's t matters (on step 1, m / (1 - beta1) = g
    # whatever t is): held by hand here, not only by the torch comparison below.
    net = MLP.from_arrays([[[1.0, 2.0]]], [[0.5, -0.5]])
    state = mlp_ref.AdamState.zeros(net)
    for g in ([[1.0, -2.0]], [[3.0, 1.0]]):
        mlp_ref.adam_step(net, Gradients([np.array(g)], [np.zeros(2)]), lr=0.1, state=state)
    # m = 0.9 (0.1 g1) + 0.1 g2:          0.09 + 0.3 = 0.39;  -0.18 + 0.1 = -0.08
    # s = 0.999 (0.001 g1^2) + 0.001 g2^2: 0.000999 + 0.009 = 0.009999;  0.003996 + 0.001 = 0.004996
    np.testing.assert_allclose(state.m[0], [[0.39, -0.08]], rtol=1e-12, err_msg="adam_step, step 2: m")
    np.testing.assert_allclose(state.s[0], [[0.009999, 0.004996]], rtol=1e-12, err_msg="adam_step, step 2: s")
    # step 1 moved each entry by 0.1 against g1: 0.9, 2.1.  Step 2 divides by 1 - 0.9^2 = 0.19 and
    # 1 - 0.999^2 = 0.001999: 0.9 - 0.1 (0.39 / 0.19) / sqrt(0.009999 / 0.001999) = 0.80822188951...
    # and 2.1 - 0.1 (-0.08 / 0.19) / sqrt(0.004996 / 0.001999) = 2.12663370329...
    np.testing.assert_allclose(net.weights[0], [[0.8082218895123, 2.1266337032976]], rtol=1e-11,
                               err_msg="adam_step, step 2: the weights after two steps, by hand")

def test_optimizer_state_holds_what_the_memory_estimate_counts():
    from mlp_ref.counting import OPTIMIZER_STATE_COPIES
    net = MLP([784, 128, 64, 10], output="softmax", seed=0)
    params = mlp_ref.count_params([784, 128, 64, 10])
    sizes = {"momentum": sum(a.size for a in mlp_ref.MomentumState.zeros(net).velocity),
             "adam": sum(a.size for a in mlp_ref.AdamState.zeros(net).m + mlp_ref.AdamState.zeros(net).s)}
    assert sizes == {name: OPTIMIZER_STATE_COPIES[name] * params for name in ("momentum", "adam")}


@pytest.mark.parametrize("rule", ["momentum", "adam"])
def test_momentum_and_adam_equal_pytorchs_optimizers(rule):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(16, 4)), rng.integers(0, 3, size=16)
    net = MLP([4, 6, 3], output="softmax", seed=1)
    params = [torch.tensor(p.copy(), requires_grad=True) for p in net.weights + net.biases]   # float64
    if rule == "momentum":
        state, opt = mlp_ref.MomentumState.zeros(net), torch.optim.SGD(params, lr=0.05, momentum=0.9)
    else:
        state, opt = mlp_ref.AdamState.zeros(net), torch.optim.Adam(params, lr=0.01, betas=(0.9, 0.999), eps=1e-8)
    for _ in range(5):
        _, grads = net.loss_and_grads(X, y)
        if rule == "momentum":
            mlp_ref.momentum_step(net, grads, 0.05, state, beta=0.9)
        else:
            mlp_ref.adam_step(net, grads, 0.01, state)
        opt.zero_grad()
        W1, W2, b1, b2 = params
        logits = torch.relu(torch.tensor(X) @ W1 + b1) @ W2 + b2
        torch.nn.functional.cross_entropy(logits, torch.tensor(y)).backward()
        opt.step()
    for mine, theirs in zip(net.weights + net.biases, params):
        np.testing.assert_allclose(mine, theirs.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_momentum_and_adam_refuse_a_bad_state_or_gradient():
    net = MLP([2, 3, 1], output="sigmoid", seed=0)
    other = MLP([2, 4, 1], output="sigmoid", seed=0)
    _, grads = net.loss_and_grads(np.ones((2, 2)), np.array([0.0, 1.0]))
    with pytest.raises(mlp_ref.ShapeError, match=r"state.velocity: expected .*\(2, 3\).*received .*\(2, 4\)"):
        mlp_ref.momentum_step(net, grads, 0.1, mlp_ref.MomentumState.zeros(other))
    with pytest.raises(mlp_ref.ShapeError, match="state.m"):
        mlp_ref.adam_step(net, grads, 0.1, mlp_ref.AdamState.zeros(other))
    with pytest.raises(ValueError, match="beta"):
        mlp_ref.momentum_step(net, grads, 0.1, mlp_ref.MomentumState.zeros(net), beta=1.0)
    before = [p.copy() for p in net.weights + net.biases]
    grads.biases[0][0] = np.nan
    state = mlp_ref.AdamState.zeros(net)
    with pytest.raises(FloatingPointError, match=r"grads.db \(layer 1\)"):
        mlp_ref.adam_step(net, grads, 0.1, state)
    assert state.t == 0 and all(np.array_equal(a, b) for a, b in zip(before, net.weights + net.biases))


def _data(output, n, rng):
    X = rng.normal(size=(n, 5))
    if output == "softmax":
        return X, (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1).astype(int)
    if output == "sigmoid":
        return X, (X[:, 0] * X[:, 1] > 0).astype(float)
    return X, np.stack([np.sin(X[:, 0]), X[:, 1] * X[:, 2]], axis=1)


@pytest.mark.parametrize("dtype, rtol", [(np.float64, 1e-10), (np.float32, 1e-5)])  # seen: 8e-16, 6e-7
@pytest.mark.parametrize("activation, output, k, hidden", [
    ("relu", "softmax", 3, [8, 6]), ("tanh", "sigmoid", 1, [8, 6]), ("gelu", "identity", 2, [8, 6]),
    ("relu", "identity", 2, [8, 6]), ("relu", "softmax", 3, []), ("relu", "sigmoid", 1, [4]),
    ("sigmoid", "softmax", 3, [7]), ("leaky_relu", "identity", 2, [6, 5]), ("silu", "sigmoid", 1, [6]),
])
def test_the_two_engines_agree(activation, output, k, hidden, dtype, rtol):
    rng = np.random.default_rng(0)
    Xt, yt = _data(output, 23, rng)   # 23 rows, batch 5: the last batch has 3 rows
    Xv, yv = _data(output, 11, rng)   # the fast engine validates in chunks of 5: the last has 1 row
    readable = MLP([5, *hidden, k], activation=activation, output=output, seed=2, dtype=dtype)
    fast = readable.copy()
    h_readable = fit(readable, Xt, yt, Xv, yv, epochs=6, batch_size=5, lr=0.2, seed=9)
    h_fast = fit(fast, Xt, yt, Xv, yv, epochs=6, batch_size=5, lr=0.2, seed=9, engine="fast")
    assert fast.weights[0].dtype == readable.weights[0].dtype == dtype
    for a, b in zip(fast.weights + fast.biases, readable.weights + readable.biases):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * np.abs(b).max())  # at the array's scale
    for field in ["train_loss", "train_accuracy", "val_loss", "val_accuracy"]:
        np.testing.assert_allclose(getattr(h_fast, field), getattr(h_readable, field), rtol=rtol, err_msg=field)
    # The two engines agree to rounding only; the chosen epoch must then agree too, unless two
    # epochs were within rounding of each other: check they were not, then compare exactly.
    lowest, runner_up = np.sort(h_readable.val_loss)[:2]
    assert runner_up - lowest > 10 * rtol * lowest
    assert h_fast.best_epoch == h_readable.best_epoch


def test_the_readable_engine_is_the_lessons_loop():
    """fit's default is net.forward, net.loss_and_delta, net.backward and sgd_step, batch by batch."""
    rng = np.random.default_rng(8)
    Xt, yt = _data("softmax", 12, rng)
    net = MLP([5, 4, 3], output="softmax", seed=1)
    by_hand = net.copy()
    fit(net, Xt, yt, Xt, yt, epochs=1, batch_size=12, lr=0.3, seed=0)   # one full batch, one step
    rows = np.random.default_rng(0).permutation(12)                     # fit's order, from its seed
    _, cache = by_hand.forward(Xt[rows], keep_cache=True)
    _, delta = by_hand.loss_and_delta(cache.pre_activations[-1], yt[rows])
    sgd_step(by_hand, by_hand.backward(cache, delta), 0.3)
    for a, b in zip(net.weights + net.biases, by_hand.weights + by_hand.biases):
        np.testing.assert_array_equal(a, b)   # the same calls in the same order: bit for bit


def test_an_unknown_engine_names_the_choices():
    rng = np.random.default_rng(8)
    Xt, yt = _data("softmax", 12, rng)
    with pytest.raises(ValueError, match="engine: unknown name 'numba'; valid names are readable, fast"):
        fit(MLP([5, 3], output="softmax"), Xt, yt, Xt, yt, epochs=1, batch_size=4, lr=0.1, seed=0, engine="numba")


def test_best_validation_weights_are_restored():
    rng = np.random.default_rng(1)
    Xt, yt = _data("softmax", 60, rng)
    Xv, yv = _data("softmax", 30, rng)
    net = MLP([5, 16, 3], output="softmax", seed=0)
    # a learning rate this large makes the validation loss jump around
    h = fit(net, Xt, yt, Xv, yv, epochs=15, batch_size=8, lr=2.0, seed=0)
    assert len(h.val_loss) == 15
    assert h.best_epoch == int(np.argmin(h.val_loss))
    assert h.best_epoch != 14, "pick a setting where the last epoch is not the best"
    assert net.loss_and_grads(Xv, yv)[0] == pytest.approx(min(h.val_loss), rel=1e-12)


def test_fit_is_deterministic_given_the_seed():
    rng = np.random.default_rng(2)
    Xt, yt = _data("softmax", 40, rng)
    runs = []
    for seed in (5, 5, 6):
        net = MLP([5, 7, 3], output="softmax", seed=0)
        runs.append((fit(net, Xt, yt, Xt, yt, epochs=3, batch_size=7, lr=0.1, seed=seed), net))
    # Same seed, same code path, same process: the claim is bit-for-bit repeatability.
    assert runs[0][0] == runs[1][0]
    np.testing.assert_array_equal(runs[0][1].weights[0], runs[1][1].weights[0])
    assert runs[0][0].train_loss != runs[2][0].train_loss


def test_fit_learns_digits():
    from sklearn.datasets import load_digits
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    order = np.random.default_rng(0).permutation(len(X))
    train, val = order[:1400], order[1400:]
    net = MLP([64, 32, 16, 10], output="softmax", seed=0)
    h = fit(net, X[train], y[train], X[val], y[val], epochs=10, batch_size=64, lr=0.1, seed=0)
    assert h.train_loss[-1] < h.train_loss[0] < math.log(10) + 1
    assert max(h.val_accuracy) > 0.9   # chance is 0.1
    # fit measured the accuracy on the weights of the chosen epoch, then restored them; predict
    # recomputes the scores, equal to rounding. With no near-tie among the scores, the labels
    # (and so the accuracy, a ratio of counts) are the same.
    top_two = np.sort(net.predict_proba(X[val]), axis=1)[:, -2:]
    assert np.min(top_two[:, 1] - top_two[:, 0]) > 1e-9
    assert np.mean(net.predict(X[val]) == y[val]) == h.val_accuracy[h.best_epoch]


def test_progress_bar(capsys):
    pytest.importorskip("tqdm", reason="tqdm is not installed")
    rng = np.random.default_rng(3)
    Xt, yt = _data("sigmoid", 20, rng)
    fit(MLP([5, 4, 1], output="sigmoid"), Xt, yt, Xt, yt, epochs=2, batch_size=8, lr=0.1, seed=0, progress=True)
    assert "epochs" in capsys.readouterr().err


def test_float32_training_runs_in_float32():
    rng = np.random.default_rng(4)
    Xt, yt = _data("softmax", 50, rng)
    net = MLP([5, 8, 3], output="softmax", seed=0, dtype=np.float32)
    h = fit(net, Xt, yt, Xt, yt, epochs=3, batch_size=16, lr=0.1, seed=0)
    assert net.weights[0].dtype == np.float32 and all(np.isfinite(h.train_loss))


@pytest.mark.parametrize("activation", sorted(mlp_ref.activations.ACTIVATIONS))
@pytest.mark.parametrize("output", ["identity", "sigmoid", "softmax"])
def test_grad_check_passes_for_every_activation_and_head(activation, output):
    rng = np.random.default_rng(5)
    k = {"identity": 2, "sigmoid": 1, "softmax": 3}[output]
    net = MLP([4, 6, 5, k], activation=activation, output=output, seed=3)
    for b in net.biases:  # keep ReLU-family inputs off their kink at exactly 0
        b[:] = rng.normal(size=b.shape) * 0.5
    X = rng.normal(size=(7, 4))
    y = {"identity": rng.normal(size=(7, 2)), "sigmoid": rng.integers(0, 2, 7).astype(float),
         "softmax": rng.integers(0, 3, 7)}[output]
    assert grad_check(net, X, y) < 1e-6


def test_grad_check_catches_a_wrong_derivative(monkeypatch):
    rng = np.random.default_rng(6)
    net = MLP([4, 6, 3], activation="tanh", output="softmax", seed=3)
    X, y = rng.normal(size=(5, 4)), rng.integers(0, 3, 5)
    tanh, _ = mlp_ref.activations.ACTIVATION_KERNELS["tanh"]
    monkeypatch.setitem(mlp_ref.activations.ACTIVATION_KERNELS, "tanh", (tanh, lambda z: 1.0 - tanh(z)))  # wrong
    assert grad_check(net, X, y) > 1e-2


def test_grad_check_subsamples_big_networks():
    rng = np.random.default_rng(7)
    net = MLP([30, 40, 5], activation="tanh", output="softmax", seed=0)   # 1445 parameters
    error = grad_check(net, rng.normal(size=(4, 30)), rng.integers(0, 5, 4), max_params=60, seed=1)
    assert error < 1e-6


@pytest.mark.parametrize("engine", ["readable", "fast"])
def test_a_diverging_fit_raises_and_leaves_the_network_as_it_was(engine):
    rng = np.random.default_rng(3)
    Xt, yt = _data("identity", 40, rng)
    net = MLP([5, 16, 2], output="identity", seed=0)
    before = [p.copy() for p in net.weights + net.biases]
    with pytest.raises(FloatingPointError, match=r"fit: the loss became .* lower the learning rate \(lr=1000000.0\)"):
        with np.errstate(over="ignore", invalid="ignore"):
            fit(net, 1e3 * Xt, yt, Xt, yt, epochs=20, batch_size=8, lr=1e6, seed=0, engine=engine)
    for p, saved in zip(net.weights + net.biases, before):
        np.testing.assert_array_equal(p, saved)  # untouched arrays: no arithmetic, so exact
