"""Lesson 6 exercise: count the parameters of an MLP and of a transformer's FFN.

Fill in the four functions below, then run ``pytest test_params.py`` in this folder.
Conventions (as on the course site): layer ``l`` of an MLP with widths
``[d_0, d_1, ..., d_L]`` has a weight matrix ``W_l`` of shape ``(d_{l-1}, d_l)`` and a bias
``b_l`` of shape ``(d_l,)``.
"""


def layer_params(sizes):
    """Parameters of each layer of a dense MLP.

    Parameters
    ----------
    sizes : sequence of int, length L + 1 (at least 2)
        Layer widths ``[d_0, ..., d_L]``, input width first; every width a positive int.

    Returns
    -------
    list of int, length L
        Entry ``l - 1`` is ``d_{l-1} * d_l + d_l``: the size of ``W_l`` plus that of ``b_l``.

    Raises
    ------
    ValueError
        If ``sizes`` has fewer than two widths or a width that is not a positive integer.
    """
    # TODO: check sizes, then one count per pair of neighbouring widths
    raise NotImplementedError("layer_params")


def count_params(sizes):
    """All weights and biases of a dense MLP: the sum of ``layer_params(sizes)``.

    Parameters
    ----------
    sizes : sequence of int, length L + 1 (at least 2)

    Returns
    -------
    int
        For example 9 for ``[2, 2, 1]``.

    Raises
    ------
    ValueError
        As ``layer_params``.
    """
    # TODO
    raise NotImplementedError("count_params")


def ffn_params(d, d_ff, bias=True):
    """Classic transformer FFN ``d -> d_ff -> d``: ``W1 (d, d_ff)``, ``W2 (d_ff, d)``.

    Parameters
    ----------
    d, d_ff : int
        Model width and inner width (positive).
    bias : bool
        Whether ``b1 (d_ff,)`` and ``b2 (d,)`` are counted.

    Returns
    -------
    int
        ``8 * d**2`` when ``d_ff == 4 * d`` and ``bias`` is False.
    """
    # TODO
    raise NotImplementedError("ffn_params")


def swiglu_params(d, h):
    """Gated (SwiGLU) FFN without biases: ``W_gate (d, h)``, ``W_up (d, h)``, ``W_down (h, d)``.

    Parameters
    ----------
    d, h : int
        Model width and inner width (positive).

    Returns
    -------
    int
    """
    # TODO
    raise NotImplementedError("swiglu_params")
