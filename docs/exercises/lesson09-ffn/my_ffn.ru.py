"""Упражнение (урок 9): полносвязный блок трансформера и маршрутизация к k лучшим экспертам (top-k).

Допишите две функции и запустите тесты рядом с этим файлом:

    pytest test_my_ffn.py

Соглашения (как на сайте): батч последовательностей X имеет форму (B, T, d), ширина модели
d — по последней оси; веса имеют форму (d_in, d_out), смещения — (d_out,). Используйте только NumPy.
"""

from __future__ import annotations

import numpy as np


def ffn(X: np.ndarray, W1: np.ndarray, b1: np.ndarray, W2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """Позиционный полносвязный блок relu(X W1 + b1) W2 + b2.

    Parameters
    ----------
    X : numpy.ndarray формы (B, T, d)
        B последовательностей из T позиций ширины d.
    W1 : numpy.ndarray формы (d, d_ff)
    b1 : numpy.ndarray формы (d_ff,)
    W2 : numpy.ndarray формы (d_ff, d)
    b2 : numpy.ndarray формы (d,)

    Returns
    -------
    numpy.ndarray формы (B, T, d)
        Строка [b, t] должна зависеть только от X[b, t].

    Raises
    ------
    ValueError
        Если X не трёхмерный или его последняя ось не совпадает с первой осью W1 (назовите
        полученные формы).
    """
    raise NotImplementedError("ffn: допишите эту функцию (подсказка: @ действует по последней оси)")


def route_top_k(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Для каждого токена — k экспертов с наибольшими оценками и softmax по этим k.

    Parameters
    ----------
    scores : numpy.ndarray формы (N, E)
        Оценки маршрутизатора для E экспертов и N токенов.
    k : int
        Экспертов на токен, 1 <= k <= E.

    Returns
    -------
    experts : numpy.ndarray из int формы (N, k)
        Индексы выбранных экспертов, сначала с наибольшей оценкой; при равенстве — сначала меньший индекс.
    weights : numpy.ndarray формы (N, k)
        exp(оценки) каждого выбранного эксперта, делённая на сумму по k выбранным; суммы строк равны 1.
        Не должно быть переполнения при оценках вроде 1000.
    """
    raise NotImplementedError("route_top_k: допишите эту функцию (подсказка: np.argsort с kind='stable')")
