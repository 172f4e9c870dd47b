"""Упражнение урока 6: посчитать параметры MLP и блока FFN трансформера.

Допишите четыре функции ниже и запустите ``pytest test_params.py`` в этой папке.
Соглашения (как на сайте курса): у слоя ``l`` сети MLP с ширинами ``[d_0, d_1, ..., d_L]``
матрица весов ``W_l`` формы ``(d_{l-1}, d_l)`` и смещение ``b_l`` формы ``(d_l,)``.
"""


def layer_params(sizes):
    """Число параметров каждого слоя полносвязной сети MLP.

    Parameters
    ----------
    sizes : последовательность int длины L + 1 (не меньше 2)
        Ширины слоёв ``[d_0, ..., d_L]``, первой — ширина входа; каждая — положительное целое.

    Returns
    -------
    list из int длины L
        Элемент ``l - 1`` равен ``d_{l-1} * d_l + d_l``: размер ``W_l`` плюс размер ``b_l``.

    Raises
    ------
    ValueError
        Если в ``sizes`` меньше двух ширин или есть ширина, не являющаяся положительным целым.
    """
    # TODO: проверьте sizes, затем по одному числу на каждую пару соседних ширин
    raise NotImplementedError("layer_params")


def count_params(sizes):
    """Все веса и смещения полносвязной сети MLP: сумма ``layer_params(sizes)``.

    Parameters
    ----------
    sizes : последовательность int длины L + 1 (не меньше 2)

    Returns
    -------
    int
        Например, 9 для ``[2, 2, 1]``.

    Raises
    ------
    ValueError
        Как ``layer_params``.
    """
    # TODO
    raise NotImplementedError("count_params")


def ffn_params(d, d_ff, bias=True):
    """Классический блок FFN трансформера ``d -> d_ff -> d``: ``W1 (d, d_ff)``, ``W2 (d_ff, d)``.

    Parameters
    ----------
    d, d_ff : int
        Ширина модели и внутренняя ширина (положительные).
    bias : bool
        Считать ли ``b1 (d_ff,)`` и ``b2 (d,)``.

    Returns
    -------
    int
        ``8 * d**2`` при ``d_ff == 4 * d`` и ``bias``, равном False.
    """
    # TODO
    raise NotImplementedError("ffn_params")


def swiglu_params(d, h):
    """Блок FFN с затвором (SwiGLU) без смещений: ``W_gate (d, h)``, ``W_up (d, h)``, ``W_down (h, d)``.

    Parameters
    ----------
    d, h : int
        Ширина модели и внутренняя ширина (положительные).

    Returns
    -------
    int
    """
    # TODO
    raise NotImplementedError("swiglu_params")
