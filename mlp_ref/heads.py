"""Output heads paired with losses, matched or not: the loss and its gradient w.r.t. the logits.

:class:`mlp_ref.MLP` offers only the three *matched* output heads (identity + MSE, sigmoid +
binary cross entropy, softmax + cross entropy), computed stably from the logits. This module
exists to show what happens with other pairings, including the wrong ones: a head ``f`` is
applied elementwise to the logits ``z`` of shape ``(B, K)``, giving ``y_hat = f(z)``, and a
loss is computed **on the outputs** ``y_hat``. The gradient follows the chain rule,

    dL/dz = dL/dy_hat * f'(z),

so a head whose derivative is zero (ReLU for ``z < 0``) or tiny (a saturated sigmoid) blocks
the gradient, whatever the loss says. Three pairings give exactly ``(y_hat - y) / (B K)``
(the "matched" ones): sigmoid + ``"bce"``, exp + ``"poisson"``, and identity + ``"mse"``
up to the factor 2 of a squared error without the 1/2.

Heads: ``identity``, ``sigmoid``, ``tanh``, ``relu``, ``softplus``, ``exp``.
Losses (each the mean over all ``B K`` entries):

* ``"mse"``: ``(y_hat - y)^2``;
* ``"bce"``: ``-(y log y_hat + (1 - y) log(1 - y_hat))``, outputs must lie in (0, 1);
* ``"poisson"``: ``y_hat - y log y_hat`` (the Poisson negative log-likelihood without the
  constant ``log y!``), outputs must be > 0.

These losses take the log of the *outputs*, so they are for teaching, not for training at
scale: for sigmoid + BCE use :func:`mlp_ref.binary_cross_entropy_with_logits`, which never
takes the log of 0.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from mlp_ref.activations import ACTIVATION_KERNELS
from mlp_ref.network import MLP, Gradients, check_mlp
from mlp_ref.validation import ShapeError, as_float_array, check_choice

__all__ = ["OUTPUT_HEADS", "OUTPUT_LOSSES", "head_loss", "head_loss_grad", "head_loss_and_grads"]


def _exp(z: np.ndarray) -> np.ndarray:
    return np.exp(z)


#: head name -> (f, f'), unchecked kernels acting elementwise on logits of any shape.
OUTPUT_HEADS: dict[str, tuple[Callable, Callable]] = {
    "identity": ACTIVATION_KERNELS["identity"],
    "sigmoid": ACTIVATION_KERNELS["sigmoid"],
    "tanh": ACTIVATION_KERNELS["tanh"],
    "relu": ACTIVATION_KERNELS["relu"],
    "softplus": ACTIVATION_KERNELS["softplus"],
    "exp": (_exp, _exp),
}


def _check_open_unit(y_hat: np.ndarray, head: str) -> None:
    if np.any((y_hat <= 0) | (y_hat >= 1)):
        raise ValueError(f"loss 'bce': expected outputs in the open interval (0, 1), received values from "
                         f"{y_hat.min()} to {y_hat.max()} from head {head!r} (the log of 0 is -inf; "
                         "compute BCE from logits with binary_cross_entropy_with_logits)")


def _check_positive(y_hat: np.ndarray, head: str) -> None:
    if np.any(y_hat <= 0):
        raise ValueError(f"loss 'poisson': expected outputs > 0, received minimum {y_hat.min()} "
                         f"from head {head!r}")


def _mse(y_hat, y, head):
    return (y_hat - y) ** 2, 2.0 * (y_hat - y)


def _bce(y_hat, y, head):
    _check_open_unit(y_hat, head)
    per = -(y * np.log(y_hat) + (1.0 - y) * np.log1p(-y_hat))
    return per, (y_hat - y) / (y_hat * (1.0 - y_hat))


def _poisson(y_hat, y, head):
    _check_positive(y_hat, head)
    return y_hat - y * np.log(y_hat), 1.0 - y / y_hat


#: loss name -> kernel returning (per-entry loss, d per-entry loss / d y_hat), both (B, K).
OUTPUT_LOSSES: dict[str, Callable] = {"mse": _mse, "bce": _bce, "poisson": _poisson}


def _check_names(head, loss) -> None:
    check_choice("head", head, list(OUTPUT_HEADS))
    check_choice("loss", loss, list(OUTPUT_LOSSES))


def _check_targets(z, y) -> tuple[np.ndarray, np.ndarray]:
    z = as_float_array(z, "logits", ndim=2)
    t = as_float_array(y, "y")
    if t.shape == (z.shape[0],) and z.shape[1] == 1:
        t = t.reshape(-1, 1)
    if t.shape != z.shape:
        raise ShapeError(f"y: expected shape {z.shape} (one target per logit), received shape {t.shape}")
    return z, t


def _loss_and_delta(z: np.ndarray, t: np.ndarray, head: str, loss: str) -> tuple[float, np.ndarray]:
    f, fprime = OUTPUT_HEADS[head]
    with np.errstate(over="raise"):
        try:
            y_hat = f(z)
        except FloatingPointError:
            raise ValueError(f"head {head!r}: the outputs overflow for logits up to {z.max()}") from None
    per, dloss = OUTPUT_LOSSES[loss](y_hat, t, head)
    n = z.size
    return float(per.sum() / n), dloss * fprime(z) / n


def head_loss(z, y, head: str, loss: str) -> float:
    """Mean loss of the outputs ``f(z)`` against the targets ``y``.

    Parameters
    ----------
    z : array_like, shape (B, K)
        Logits (the last layer's pre-activation).
    y : array_like, shape (B, K), or (B,) when K = 1
        Targets.
    head : str
        Output activation, a key of :data:`OUTPUT_HEADS`.
    loss : str
        A key of :data:`OUTPUT_LOSSES`.

    Returns
    -------
    float
        The mean of the per-entry losses over all ``B K`` entries.

    Raises
    ------
    ValueError
        For an unknown name, or outputs outside the loss's domain (``"bce"`` needs (0, 1),
        ``"poisson"`` needs > 0).
    ShapeError
        If ``y`` does not have one target per logit.
    """
    _check_names(head, loss)
    return _loss_and_delta(*_check_targets(z, y), head, loss)[0]


def head_loss_grad(z, y, head: str, loss: str) -> np.ndarray:
    """Gradient of :func:`head_loss` w.r.t. the logits: ``dL/dy_hat * f'(z)``.

    Parameters
    ----------
    z : array_like, shape (B, K)
        Logits (the last layer's pre-activation).
    y : array_like, shape (B, K), or (B,) when K = 1
        Targets.
    head : str
        Output activation, a key of :data:`OUTPUT_HEADS`.
    loss : str
        A key of :data:`OUTPUT_LOSSES`.

    Returns
    -------
    numpy.ndarray, shape (B, K)
    """
    _check_names(head, loss)
    return _loss_and_delta(*_check_targets(z, y), head, loss)[1]


def head_loss_and_grads(net: MLP, X, y, head: str, loss: str) -> tuple[float, Gradients]:
    """Loss and parameter gradients of ``net`` with an output head of your choice.

    The network's own output must be ``"identity"`` (its last layer gives the logits); the
    head and the loss named here are applied on top. The gradient w.r.t. the logits comes
    from :func:`head_loss_grad` and is passed back through the network's layers.

    Parameters
    ----------
    net : MLP
        With ``output="identity"``.
    X : array_like, shape (B, d_0)
    y : array_like, shape (B, d_L), or (B,) when d_L = 1
    head, loss : str
        As for :func:`head_loss`.

    Returns
    -------
    loss : float
    grads : Gradients
        One array per weight and bias, with its shape; usable with :func:`mlp_ref.sgd_step`.
    """
    if check_mlp(net).output != "identity":
        raise ValueError(f"net: expected output='identity' (the head is applied here), "
                         f"received output={net.output!r}")
    _check_names(head, loss)
    _, cache = net.forward(X, keep_cache=True)
    z, t = _check_targets(cache.pre_activations[-1], y)
    value, delta = _loss_and_delta(z, t, head, loss)
    return value, net.backward(cache, delta)
