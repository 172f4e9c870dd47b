"""Тесты к упражнению урока 5. Запускайте их рядом со своим backward.py:  pytest -ra test_backward.py

Кэш тесты строят своим прямым проходом (`forward` ниже, в формате, который описывает
заготовка). Ожидаемые значения посчитаны вручную (пример с softmax из урока 3), измерены
центральными разностями функции потерь (проверка градиента, которая не использует ваш
обратный проход) или взяты из эталонного пакета mlp_ref, но никогда — из проверяемого кода.
Без mlp_ref единственный тест, который сравнивает с ним, пропускается, и -ra печатает почему.
"""

import ast
import importlib
import inspect
import math
from pathlib import Path

import numpy as np
import pytest

from backward import backward


# ----------------------------------------------------------------------------- что осталось написать
# Функцию, тело которой всё ещё заготовка `raise NotImplementedError(...)`, один раз называет
# первый тест ниже, а тесты, которые её вызывают, пропускаются, пока вы её не напишете (вместо того
# чтобы каждый падал с той же ошибкой). Этот блок есть в тестах каждого упражнения.

MODULE = Path(__file__).stem.removeprefix("test_")


def left_to_write() -> dict:
    """Имя -> строка `raise` каждой функции проверяемого модуля, которая только выбрасывает NotImplementedError."""
    left = {}
    for node in ast.parse(inspect.getsource(importlib.import_module(MODULE))).body:
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0]):
                left[node.name] = ast.unparse(body[0])
    return left


LEFT_TO_WRITE = left_to_write()


def names_used(test) -> set:
    """Глобальные имена, которые читает тест: сам или через вызываемые им вспомогательные функции этого файла."""
    names, todo, done = set(), [test], set()
    while todo:
        codes = [todo.pop().__code__]
        while codes:
            code = codes.pop()
            names |= set(code.co_names)
            codes += [c for c in code.co_consts if inspect.iscode(c)]
        for name in names - done:
            done.add(name)
            helper = globals().get(name)
            if inspect.isfunction(helper) and helper.__module__ == __name__:
                todo.append(helper)
    return names


def test_every_function_is_written():
    if LEFT_TO_WRITE:
        pytest.fail(f"{MODULE}.py — функций с заготовкой вместо тела: {len(LEFT_TO_WRITE)}; это "
                    + "; ".join(f"{name} ({line})" for name, line in LEFT_TO_WRITE.items())
                    + ". Тесты, которые их вызывают, пропускаются, пока вы их не напишете; потом запустите тесты снова.",
                    pytrace=False)


@pytest.fixture(autouse=True)
def skip_until_written(request):
    # функция, переданная тесту параметром (@pytest.mark.parametrize), тоже считается
    given = getattr(request.node, "callspec", None)
    passed = {getattr(value, "__name__", "") for value in (given.params.values() if given else ())}
    left = sorted(set(LEFT_TO_WRITE) & (names_used(request.function) | passed))
    if left:
        pytest.skip(f"ещё не написано: {', '.join(left)} (см. test_every_function_is_written)")


def mlp_ref_or_skip():
    """Эталонный пакет курса или пропуск теста с причиной (её печатает pytest -ra), где сказано, как его получить."""
    return pytest.importorskip("mlp_ref", reason="установите mlp_ref: см. «Прежде чем начать» на странице урока, "
                                                 "затем запустите тесты снова, чтобы сравнить с ним")


# ----------------------------------------------------------------------------- вспомогательное

def forward(X: np.ndarray, weights: list, biases: list) -> tuple[np.ndarray, dict]:
    """Прямой проход MLP с ReLU; сохраняет кэш, который читает ваш обратный проход.

    Parameters
    ----------
    X : numpy.ndarray формы (B, d_0)
    weights : list из numpy.ndarray форм (d_{l-1}, d_l), l = 1..L
    biases : list из numpy.ndarray форм (d_l,)

    Returns
    -------
    logits : numpy.ndarray формы (B, d_L)
    cache : dict
        "A": [A_0 = X, A_1, ..., A_{L-1}], вход каждого слоя, A_l формы (B, d_l);
        "Z": [Z_1, ..., Z_L], предактивации, Z_l формы (B, d_l);
        "W": веса, как их передали.
    """
    A, activations, pre_activations = X, [X], []
    for l, (W, b) in enumerate(zip(weights, biases), start=1):
        Z = A @ W + b
        pre_activations.append(Z)
        if l < len(weights):
            A = np.maximum(Z, 0.0)
            activations.append(A)
    return Z, {"A": activations, "Z": pre_activations, "W": list(weights)}


def softmax_cross_entropy(logits: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    """Средняя перекрёстная энтропия для целочисленных меток (B,) и её градиент dL/dlogits, (B, K)."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    B = len(labels)
    loss = -log_p[np.arange(B), labels].mean()
    delta = np.exp(log_p)
    delta[np.arange(B), labels] -= 1.0
    return float(loss), delta / B


def random_net(sizes, seed):
    rng = np.random.default_rng(seed)
    weights = [rng.normal(size=(a, b)) for a, b in zip(sizes[:-1], sizes[1:])]
    biases = [rng.normal(size=b) for b in sizes[1:]]
    return weights, biases


# Что говорит неудачное сравнение: с чем сравнивали и где в backward искать ошибку каждого градиента.
AGAINST = {"by hand": "ваши градиенты расходятся с посчитанными вручную (пример с softmax из урока 3)",
           "differences": "проверка градиента (центральные разности функции потерь) расходится с вашим обратным проходом",
           "mlp_ref": "ваши градиенты расходятся с градиентами mlp_ref"}
WHERE_TO_LOOK = {
    "last": "последний слой: dW_L = A_{L-1}^T Delta_L и db_L = суммы столбцов Delta_L, "
            "где Delta_L — данная вам delta",
    "dW": "как Delta спускается на слой ниже, Delta_{l-1} = (Delta_l W_l^T) * relu'(Z_{l-1}), "
          "и dW_l = A_{l-1}^T Delta_l",
    "db": "db_l = суммы столбцов Delta_l (сумма по строкам батча, ось 0), "
          "с той же Delta_l, что и для dW_l",
}


def check_gradients(mine: list, expected: list, bound: float, against: str) -> None:
    """Провал с объяснением словами для каждого градиента (dW1, dW2, ..., затем db1, db2, ...), чья
    относительная ошибка по сравнению с ``expected`` не меньше ``bound``: наибольшая разность,
    делённая на наибольший по модулю элемент двух массивов, и что проверить. Массивы не печатаются."""
    layers = len(mine) // 2
    names = [f"dW{l}" for l in range(1, layers + 1)] + [f"db{l}" for l in range(1, layers + 1)]
    said = []
    for name, a, b in zip(names, mine, expected):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        if a.shape != b.shape:
            said.append(f"{name}: форма {a.shape}, ожидалась {b.shape}")
            continue
        scale = max(np.abs(a).max(), np.abs(b).max())
        error = float(np.abs(a - b).max() / scale) if scale > 0 else 0.0
        if not error < bound:  # и NaN тоже
            layer = "last" if name[2:] == str(layers) else name[:2]
            said.append(f"относительная ошибка {name} равна {error:.2g} (ожидалось < {bound:.0e}): проверьте {WHERE_TO_LOOK[layer]}"
                        .replace("e-0", "e-"))
    if said:
        pytest.fail(f"{against}:\n" + "\n".join(said), pytrace=False)


def test_gradient_shapes_match_the_parameters():
    weights, biases = random_net([3, 5, 4, 2], seed=0)
    X = np.random.default_rng(1).normal(size=(6, 3))
    logits, cache = forward(X, weights, biases)
    _, delta = softmax_cross_entropy(logits, np.array([0, 1, 1, 0, 1, 0]))
    grad_w, grad_b = backward(cache, delta)
    assert [g.shape for g in grad_w] == [W.shape for W in weights]
    assert [g.shape for g in grad_b] == [b.shape for b in biases]


def test_softmax_fixture_by_hand():
    # Пример с softmax из урока 3, метка — второй класс (индекс 1). Вручную:
    # z1 = (1*1 + 2*2 + 0, 1*(-1) + 2*1 + 1) = (5, 2), оба включены, поэтому a1 = (5, 2);
    # logits = (5 - 2, 0 + 4) = (3, 4), p = (s, 1 - s), где s = sigmoid(-1) = 1 / (1 + e);
    # delta2 = p - onehot = (s, -s); dW2 = a1^T delta2; db2 = delta2;
    # delta1 = delta2 W2^T = (s*1 + (-s)*0, s*(-1) + (-s)*2) = (s, -3s), relu' = (1, 1);
    # dW1 = x^T delta1 = [[s, -3s], [2s, -6s]]; db1 = delta1.
    s = 1.0 / (1.0 + math.e)
    W1, b1 = np.array([[1.0, -1.0], [2.0, 1.0]]), np.array([0.0, 1.0])
    W2, b2 = np.array([[1.0, 0.0], [-1.0, 2.0]]), np.array([0.0, 0.0])
    logits, cache = forward(np.array([[1.0, 2.0]]), [W1, W2], [b1, b2])
    _, delta = softmax_cross_entropy(logits, np.array([1]))
    (dW1, dW2), (db1, db2) = backward(cache, delta)
    by_hand = [[[s, -3 * s], [2 * s, -6 * s]], [[5 * s, -5 * s], [2 * s, -2 * s]], [s, -3 * s], [s, -s]]
    check_gradients([dW1, dW2, db1, db2], by_hand, 1e-12, AGAINST["by hand"])


def central_differences(loss, params, eps=1e-6):
    """d loss / d p для каждого элемента каждого массива из params: (L(p + eps) - L(p - eps)) / 2 eps."""
    grads = []
    for p in params:
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            saved = p[i]
            p[i] = saved + eps
            plus = loss()
            p[i] = saved - eps
            minus = loss()
            p[i] = saved
            g[i] = (plus - minus) / (2 * eps)
        grads.append(g)
    return grads


def test_gradient_check_by_central_differences():
    weights, biases = random_net([4, 6, 5, 3], seed=2)
    X = np.random.default_rng(3).normal(size=(5, 4))
    labels = np.array([0, 2, 1, 1, 2])

    def loss():
        return softmax_cross_entropy(forward(X, weights, biases)[0], labels)[0]

    logits, cache = forward(X, weights, biases)
    _, delta = softmax_cross_entropy(logits, labels)
    grad_w, grad_b = backward(cache, delta)
    numeric = central_differences(loss, weights + biases)
    check_gradients(grad_w + grad_b, numeric, 1e-6, AGAINST["differences"])


def test_a_dead_unit_gets_no_gradient():
    # У скрытого нейрона 2 веса (-1, -1) и смещение -1: на этих положительных входах он выключен.
    W1, b1 = np.array([[1.0, -1.0], [0.5, -1.0]]), np.array([0.0, -1.0])
    W2, b2 = np.array([[1.0, -1.0], [2.0, 0.5]]), np.array([0.0, 0.0])
    X = np.array([[1.0, 2.0], [0.5, 0.1], [3.0, 1.0]])
    logits, cache = forward(X, [W1, W2], [b1, b2])
    _, delta = softmax_cross_entropy(logits, np.array([0, 1, 1]))
    (dW1, _), (db1, _) = backward(cache, delta)
    np.testing.assert_array_equal(dW1[:, 1], [0.0, 0.0])
    assert db1[1] == 0.0
    assert np.all(dW1[:, 0] != 0.0)


def test_matches_the_reference_package():
    mlp_ref = mlp_ref_or_skip()
    weights, biases = random_net([3, 7, 4], seed=4)
    X = np.random.default_rng(5).normal(size=(8, 3))
    labels = np.array([0, 1, 2, 3, 0, 1, 2, 3])
    net = mlp_ref.MLP.from_arrays(weights, biases, activation="relu", output="softmax")
    _, expected = net.loss_and_grads(X, labels)
    logits, cache = forward(X, weights, biases)
    _, delta = softmax_cross_entropy(logits, labels)
    grad_w, grad_b = backward(cache, delta)
    check_gradients(grad_w + grad_b, expected.weights + expected.biases, 1e-10, AGAINST["mlp_ref"])


def test_the_cache_is_not_modified():
    weights, biases = random_net([2, 3, 2], seed=6)
    X = np.random.default_rng(7).normal(size=(4, 2))
    logits, cache = forward(X, weights, biases)
    before = {key: [a.copy() for a in arrays] for key, arrays in cache.items()}
    _, delta = softmax_cross_entropy(logits, np.array([0, 1, 0, 1]))
    backward(cache, delta)
    for key, arrays in before.items():
        for old, new in zip(arrays, cache[key]):
            np.testing.assert_array_equal(old, new)


def test_a_delta_of_the_wrong_shape_is_refused():
    weights, biases = random_net([2, 3, 2], seed=8)
    _, cache = forward(np.ones((4, 2)), weights, biases)
    with pytest.raises(ValueError, match="delta"):
        backward(cache, np.ones((4, 3)))
