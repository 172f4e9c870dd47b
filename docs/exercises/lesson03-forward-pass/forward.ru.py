"""Упражнение (урок 3): прямой проход двухслойной сети с кэшем.

Допишите три функции и запустите тесты рядом с этим файлом:

    pytest test_forward.py

Соглашения (как на сайте): батч X имеет форму (B, d_in), по примеру в строке; веса слоя W
имеют форму (d_in, d_out), смещение b — форму (d_out,). Используйте только NumPy.
"""

from __future__ import annotations

import numpy as np


def relu(z: np.ndarray) -> np.ndarray:
    """ReLU поэлементно: max(0, z).

    Parameters
    ----------
    z : numpy.ndarray любой формы

    Returns
    -------
    numpy.ndarray той же формы, что z
    """
    raise NotImplementedError("relu: допишите эту функцию (подсказка: np.maximum)")


def sigmoid(z: np.ndarray) -> np.ndarray:
    """Логистическая сигмоида 1 / (1 + exp(-z)) поэлементно, без переполнения.

    Parameters
    ----------
    z : numpy.ndarray любой формы
        Может содержать большие значения, например -1000 или 1000: тогда результат должен
        быть 0 или 1 без предупреждения о переполнении. (Подсказка: при z < 0 считайте
        exp(z) / (1 + exp(z)) — здесь exp берётся только от неположительного числа.)

    Returns
    -------
    numpy.ndarray той же формы, что z, значения в [0, 1]
    """
    raise NotImplementedError("sigmoid: допишите эту функцию")


def forward(X: np.ndarray, W1: np.ndarray, b1: np.ndarray,
            W2: np.ndarray, b2: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Прямой проход сети d_in -> h -> 1: скрытый слой с ReLU, выход с сигмоидой.

    Parameters
    ----------
    X : numpy.ndarray формы (B, d_in)
        Батч. Одномерный массив отвергается: бросьте ValueError с сообщением, которое
        называет X и говорит, что один пример должен иметь форму (1, d_in).
    W1 : numpy.ndarray формы (d_in, h)
    b1 : numpy.ndarray формы (h,)
    W2 : numpy.ndarray формы (h, 1)
    b2 : numpy.ndarray формы (1,)

    Returns
    -------
    Y : numpy.ndarray формы (B, 1)
        Вероятность класса 1 для каждой строки.
    cache : dict из str в numpy.ndarray
        Промежуточные значения, нужные обратному проходу, под ключами:
        "X" (B, d_in), "Z1" = X W1 + b1 (B, h), "A1" = relu(Z1) (B, h),
        "Z2" = A1 W2 + b2 (B, 1), "Y" = sigmoid(Z2) (B, 1).
        Не изменяйте массивы, которые вам передали.
    """
    raise NotImplementedError("forward: допишите эту функцию")
