"""What a training step costs: the multiply-adds of the forward and the backward pass, counted.

Almost all the arithmetic of an MLP is in its matrix products, and a product of an ``(m, k)``
and a ``(k, n)`` matrix takes ``m k n`` multiply-adds. Rather than trust a formula, this
module *counts* them: :func:`count_multiply_adds` runs :meth:`MLP.forward` and
:meth:`MLP.backward` on arrays that record every ``@`` they take part in, so the counts are
those of the code the lessons teach.

Per layer ``l`` (batch ``B``, widths ``d_{l-1} -> d_l``), the forward pass takes one product,
``A_{l-1} W_l`` (``B d_{l-1} d_l``); the backward pass takes ``A_{l-1}^T Delta_l`` for the
weight gradient (the same count) and, except in the first layer, ``Delta_l W_l^T`` to pass
the error down (the same count again). Hence "the backward pass costs about twice the
forward pass": exactly twice for every layer but the first, whose input gradient nobody needs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mlp_ref.network import MLP, check_mlp

__all__ = ["MultiplyAdds", "count_multiply_adds"]


@dataclass(frozen=True)
class MultiplyAdds:
    """Matrix products of one forward and one backward pass, in the order they ran.

    Attributes
    ----------
    forward, backward : tuple of (tuple, tuple)
        ``((m, k), (k, n))`` operand shapes of each product ``@``.
    """

    forward: tuple
    backward: tuple

    @staticmethod
    def _total(products) -> int:
        return sum(a[0] * a[1] * b[1] for a, b in products)

    @property
    def forward_total(self) -> int:
        """Multiply-adds of the forward pass, ``sum m k n``."""
        return self._total(self.forward)

    @property
    def backward_total(self) -> int:
        """Multiply-adds of the backward pass."""
        return self._total(self.backward)

    @property
    def ratio(self) -> float:
        """``backward_total / forward_total``."""
        return self.backward_total / self.forward_total


class _Recording(np.ndarray):
    """An array that logs the operand shapes of every matrix product it takes part in.

    ``@`` is NumPy's ``matmul`` ufunc, so it reaches ``__array_ufunc__``; every other
    operation runs as on a plain array and returns a plain array.
    """

    log: list | None = None

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [x.view(np.ndarray) if isinstance(x, _Recording) else x for x in inputs]
        if ufunc is np.matmul and method == "__call__":
            a, b = (np.shape(x) for x in plain)
            if len(a) != 2 or len(b) != 2:
                raise ValueError(f"count_multiply_adds: expected products of 2-D arrays, received {a} @ {b}")
            _Recording.log.append((a, b))
        return getattr(ufunc, method)(*plain, **kwargs)


def _recording(array: np.ndarray) -> np.ndarray:
    return array.view(_Recording)


def count_multiply_adds(net: MLP, X, y) -> MultiplyAdds:
    """Count the multiply-adds of ``net``'s forward and backward pass on the batch ``X``.

    The network is copied, its weights (and, for the backward pass, the forward cache) are
    viewed as recording arrays, and ``forward``, ``loss_and_delta`` and ``backward`` run as in
    training. The loss itself (elementwise work on the ``(B, d_L)`` logits) has no product.

    Parameters
    ----------
    net : MLP
    X : array_like, shape (B, d_0)
    y : array_like, shape (B,) or (B, d_L)
        Targets for ``net``'s output head (see :meth:`MLP.check_target`).

    Returns
    -------
    MultiplyAdds
    """
    check_mlp(net)
    X = net.check_X(X)
    target = net.check_target(y, X.shape[0])
    copy = net.copy()
    copy.weights = [_recording(W) for W in copy.weights]
    _Recording.log = []
    try:
        _, cache = copy.forward(X, keep_cache=True)
        forward = tuple(_Recording.log)
        _Recording.log = []
        _, delta = copy.loss_and_delta(cache.pre_activations[-1], target)
        cache.activations = [_recording(A) for A in cache.activations]
        copy.backward(cache, delta)
        backward = tuple(_Recording.log)
    finally:
        _Recording.log = None
    return MultiplyAdds(forward, backward)
