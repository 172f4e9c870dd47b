"""One training step of mlp_ref.labs.charlm.model against PyTorch autograd (float64), when torch is installed."""

from __future__ import annotations

import numpy as np
import pytest

from mlp_ref.labs.charlm.model import CharMLPConfig, init_char_mlp, train_step

torch = pytest.importorskip("torch", reason="torch is not installed: the PyTorch parity test of the character LM is skipped")
F = torch.nn.functional


def torch_step(params: dict, buffers: dict, X: np.ndarray, Y: np.ndarray, lr: float, config: CharMLPConfig):
    """The same model written with torch ops and torch's own batch_norm; returns loss, params, buffers."""
    p = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True) for k, v in params.items()}
    b = {k: torch.tensor(v, dtype=torch.float64) for k, v in buffers.items()}
    Xt, Yt = torch.tensor(X), torch.tensor(Y)
    x = F.embedding(Xt, p["C"]).view(X.shape[0], -1)
    a = x @ p["W1"]
    if config.batch_norm:
        a = F.batch_norm(a, b["bn_mean"], b["bn_var"], p["bn_gain"], p["bn_bias"], training=True,
                         momentum=config.momentum, eps=config.eps)
    else:
        a = a + p["b1"]
    logits = torch.tanh(a) @ p["W2"] + p["b2"]
    loss = F.cross_entropy(logits, Yt)
    loss.backward()
    with torch.no_grad():
        new = {k: (v - lr * v.grad).numpy() for k, v in p.items()}
    return loss.item(), new, {k: v.numpy() for k, v in b.items()}


@pytest.mark.parametrize("batch_norm", [False, True])
def test_one_training_step_matches_torch(batch_norm):
    rng = np.random.default_rng(0)
    config = CharMLPConfig(27, context=3, emb_dim=10, hidden=50, batch_norm=batch_norm, momentum=0.1, init="kaiming")
    model = init_char_mlp(config, 1)
    model.params["W2"] = rng.normal(0, 0.3, model.params["W2"].shape)  # away from the near-zero init
    X, Y = rng.integers(0, 27, (32, 3)), rng.integers(0, 27, 32)
    X[0] = [4, 4, 4]  # a repeated character: the embedding gradient must accumulate
    params = {k: v.copy() for k, v in model.params.items()}
    buffers = {k: v.copy() for k, v in model.buffers.items()}
    expected_loss, expected_params, expected_buffers = torch_step(params, buffers, X, Y, 0.1, config)
    loss = train_step(model, X, Y, lr=0.1)
    assert abs(loss - expected_loss) < 1e-10
    for name, value in expected_params.items():
        np.testing.assert_allclose(model.params[name], value, rtol=0, atol=1e-10, err_msg=name)
    for name, value in expected_buffers.items():
        np.testing.assert_allclose(model.buffers[name], value, rtol=0, atol=1e-10, err_msg=name)
    assert not np.allclose(model.params["C"], params["C"])  # the step did move the parameters
