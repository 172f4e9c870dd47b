"""The training playground of lesson 5: its data sets, its initial weights and its starting values.

The playground (``docs/javascripts/widgets/training-playground.js``) trains a small network in
the reader's browser by full-batch gradient descent, with the step of :func:`mlp_ref.fit`
(``forward``, ``loss_and_delta``, ``backward``, ``sgd_step``) written out in JavaScript. Two
things it needs are made here:

* the **data sets**, drawn at build time from :data:`DATA_SEED` with NumPy and embedded in the
  page as numbers (the widget makes no data of its own): XOR's four corners and three toy sets of
  :data:`POINTS` points each, rounded to three decimals so that the page carries short numbers
  and the browser reads back exactly the doubles this module holds;
* the **initial weights**, from a seed, through a generator small enough to write twice:
  :func:`mulberry32` (32-bit integer arithmetic, the same bits in Python and JavaScript), two of
  its outputs made into one double in [0, 1) with 53 random bits (:func:`uniform`), and that
  double mapped onto the uniform range of He or Glorot initialization (:func:`initial_weights`).
  Every operation is exact or one correctly rounded IEEE operation (``sqrt``, ``/``, ``*``),
  so the widget's weights equal these bit for bit (``tests/test_widgets.py`` checks it on many
  seeds). NumPy's generators would need their own algorithms (PCG64 and a ziggurat) in the
  browser.

The network is ``[2, *widths, 1]`` with a sigmoid output trained on binary cross entropy,
computed from the logits as :meth:`mlp_ref.MLP.loss_and_delta` does.
"""

from __future__ import annotations

import math

import numpy as np

from mlp_ref.course.i18n import say
from mlp_ref.network import MLP
from mlp_ref.validation import check_choice, check_int

#: The seed the data sets are drawn from (any fixed seed would do).
DATA_SEED = 2024
#: Points in each toy data set.
POINTS = 200
#: Hidden activations the playground offers.
ACTIVATIONS = ("relu", "tanh", "sigmoid")
#: Hidden layers (one or two) and the units each may have.
MAX_DEPTH, MAX_WIDTH = 2, 8
#: The playground's first setting: the data set, hidden widths, activation, learning rate, seed.
START = {"data": "moons", "widths": [8, 8], "activation": "tanh", "rate": 0.3, "seed": 1}

_MASK = 0xFFFFFFFF
_GOLDEN = 0x6D2B79F5  # Mulberry32's increment (Weyl sequence)


def mulberry32(seed: int):
    """Mulberry32 (Tommy Ettinger, 2017): a 32-bit generator of 32-bit unsigned integers.

    Its state is one 32-bit word: each call adds a constant to it (a Weyl sequence, period
    2**32) and returns a mix of the result, made of xor-shifts and 32-bit multiplications
    (JavaScript's ``Math.imul``). Every value is an integer below 2**32, computed exactly in
    both languages.

    Parameters
    ----------
    seed : int
        0 <= seed < 2**32.

    Yields
    ------
    int
        The next output, 0 <= value < 2**32.
    """
    state = check_int("seed", seed, minimum=0)
    if state > _MASK:
        raise ValueError(f"seed: expected an integer below 2**32, received {seed}")
    while True:
        state = (state + _GOLDEN) & _MASK
        t = ((state ^ (state >> 15)) * (state | 1)) & _MASK
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & _MASK)) & _MASK) ^ t
        yield t ^ (t >> 14)


def uniform(bits) -> float:
    """A double in [0, 1) from the next two outputs of ``bits``: their top 27 and 26 bits.

    ``(a * 2**26 + b) / 2**53`` with ``a < 2**27``, ``b < 2**26`` (the recipe of the Mersenne
    Twister's ``genrand_res53``): a 53-bit integer, exact in a double, divided by a power of
    two, exact too.

    Parameters
    ----------
    bits : iterator of int
        32-bit outputs, as from :func:`mulberry32`.

    Returns
    -------
    float
    """
    a, b = next(bits) >> 5, next(bits) >> 6
    return (a * 67108864 + b) / 9007199254740992


def init_limit(d_in: int, d_out: int, activation: str) -> float:
    """Half-width ``a`` of the uniform range ``U(-a, a)`` of a layer's initial weights.

    ``sqrt(6 / d_in)`` for ReLU (He uniform, :func:`mlp_ref.initialization.he_uniform` with
    gain ``sqrt(2)``: ``sqrt(2) * sqrt(3 / d_in)``), ``sqrt(6 / (d_in + d_out))`` for tanh and
    sigmoid (Glorot uniform, :func:`mlp_ref.initialization.xavier_uniform`). One division and
    one square root, each correctly rounded, in both languages.

    Parameters
    ----------
    d_in, d_out : int
        The layer's fan-in and fan-out.
    activation : str
        One of :data:`ACTIVATIONS`.

    Returns
    -------
    float
    """
    check_choice("activation", activation, list(ACTIVATIONS))
    return math.sqrt(6 / d_in) if activation == "relu" else math.sqrt(6 / (d_in + d_out))


def check_widths(widths) -> list[int]:
    """The hidden widths as a list, or a ValueError saying what was expected."""
    widths = list(widths)
    if not 1 <= len(widths) <= MAX_DEPTH:
        raise ValueError(f"widths: expected 1 to {MAX_DEPTH} hidden layers, received {len(widths)}")
    for k, width in enumerate(widths, start=1):
        if check_int(f"widths[{k}]", width, minimum=1) > MAX_WIDTH:
            raise ValueError(f"widths[{k}]: expected at most {MAX_WIDTH} units, received {width}")
    return [int(w) for w in widths]


def initial_weights(widths, activation: str, seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The playground's starting weights for ``[2, *widths, 1]``: uniform from the seed, zero biases.

    Layer by layer, each weight matrix ``W_l`` of shape ``(d_{l-1}, d_l)`` in row-major order
    (``W[0, 0], W[0, 1], ...``) takes one :func:`uniform` ``u`` each, as ``(2 u - 1) * a`` with
    ``a`` from :func:`init_limit` (``2 u - 1`` is exact; the product is rounded once).

    Parameters
    ----------
    widths : sequence of int
        One or two hidden widths, each 1 to 8.
    activation : str
        One of :data:`ACTIVATIONS`.
    seed : int
        0 <= seed < 2**32.

    Returns
    -------
    weights : list of numpy.ndarray, shapes (d_{l-1}, d_l)
    biases : list of numpy.ndarray, shapes (d_l,)
        Zeros.
    """
    sizes = [2, *check_widths(widths), 1]
    bits = mulberry32(seed)
    weights = []
    for d_in, d_out in zip(sizes[:-1], sizes[1:]):
        limit = init_limit(d_in, d_out, activation)
        weights.append(np.array([[(2 * uniform(bits) - 1) * limit for _ in range(d_out)] for _ in range(d_in)]))
    return weights, [np.zeros(d) for d in sizes[1:]]


def initial_network(widths, activation: str, seed: int) -> MLP:
    """:func:`initial_weights` as an :class:`mlp_ref.MLP` with a sigmoid output.

    Parameters
    ----------
    widths : sequence of int
    activation : str
    seed : int

    Returns
    -------
    MLP
    """
    weights, biases = initial_weights(widths, activation, seed)
    return MLP.from_arrays(weights, biases, activation=activation, output="sigmoid")


# --------------------------------------------------------------------------- the data sets

def _moons(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved half circles (as scikit-learn's ``make_moons``), noise 0.1."""
    half = n // 2
    t0, t1 = rng.uniform(0, math.pi, half), rng.uniform(0, math.pi, n - half)
    X = np.concatenate([np.stack([np.cos(t0), np.sin(t0)], 1), np.stack([1 - np.cos(t1), 0.5 - np.sin(t1)], 1)])
    X = X - [0.5, 0.25] + rng.normal(0, 0.1, X.shape)
    return X, np.repeat([0.0, 1.0], [half, n - half])


def _circles(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A ring of radius 1 (class 0) around a disc's edge of radius 0.5 (class 1), noise 0.08."""
    half = n // 2
    angle = rng.uniform(0, 2 * math.pi, n)
    radius = np.repeat([1.0, 0.5], [half, n - half])
    X = np.stack([radius * np.cos(angle), radius * np.sin(angle)], 1) + rng.normal(0, 0.08, (n, 2))
    return X, np.repeat([0.0, 1.0], [half, n - half])


def _spiral(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two arms of a spiral, one and a quarter turns each, the second the first turned by pi."""
    half = n // 2
    t = rng.uniform(0, 1, n)
    angle = 2.5 * math.pi * t + np.repeat([0.0, math.pi], [half, n - half])
    radius = 0.15 + 0.9 * t
    X = np.stack([radius * np.cos(angle), radius * np.sin(angle)], 1) + rng.normal(0, 0.04, (n, 2))
    return X, np.repeat([0.0, 1.0], [half, n - half])


def datasets(seed: int = DATA_SEED) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The playground's data sets: name -> (X of shape (N, 2), y of shape (N,), 0.0 or 1.0).

    ``"xor"`` is XOR's four corners (lesson 2); ``"moons"``, ``"circles"`` and ``"spiral"``
    hold :data:`POINTS` points each, drawn from ``seed`` and rounded to three decimals.

    Parameters
    ----------
    seed : int

    Returns
    -------
    dict of str -> (numpy.ndarray, numpy.ndarray)
    """
    rng = np.random.default_rng(seed)
    sets = {"xor": (np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]), np.array([0.0, 1.0, 1.0, 0.0]))}
    for name, make in (("moons", _moons), ("circles", _circles), ("spiral", _spiral)):
        X, y = make(rng, POINTS)
        sets[name] = (np.round(X, 3), y)
    return sets


def _square(X: np.ndarray) -> list[float]:
    """The plotted square: the data's extent, half a unit wider on every side, in halves."""
    low, high = math.floor(2 * (X.min() - 0.25)) / 2, math.ceil(2 * (X.max() + 0.25)) / 2
    return [float(low), float(high)]


def dataset_names() -> dict[str, str]:
    """What the playground calls each data set, in the language being built."""
    return {"xor": say("XOR (the four corners of lesson 2)", ru="XOR (четыре угла из урока 2)"),
            "moons": say("two moons", ru="два полумесяца"),
            "circles": say("two circles", ru="две окружности"),
            "spiral": say("two-arm spiral", ru="двойная спираль")}


def playground_data() -> dict:
    """Starting values of the training playground: the data sets with their plotted squares
    and names, the limits of its controls and its first setting.

    Returns
    -------
    dict
        JSON-serialisable; read by the script from ``data-config``.
    """
    sets = {name: {"X": X.tolist(), "y": [int(v) for v in y], "square": _square(X)}
            for name, (X, y) in datasets().items()}
    return {"datasets": sets, "activationNames": list(ACTIVATIONS), "maxDepth": MAX_DEPTH, "maxWidth": MAX_WIDTH,
            "start": START, "precision": 4}


def without_script() -> str:
    """What a reader without JavaScript sees where the playground would be, in the page's language."""
    return say("with JavaScript on, this is where you can train a small network in your browser, step by step, "
               "with the step this page computes; the tables above show the same computation for one step.",
               ru="с включённым JavaScript здесь можно обучать небольшую сеть прямо в браузере, шаг за шагом, "
                  "тем же шагом, что вычисляет эта страница; таблицы выше показывают то же вычисление для "
                  "одного шага.")


def playground_text() -> dict:
    """The words of the training playground, in the language being built (its number fields' words
    are :mod:`mlp_ref.course.widgets`'s, added where the page is made)."""
    return {
        "notRate": say('expected a positive number, received "{text}"',
                       ru="нужно положительное число, а введено «{text}»"),
        "notSeed": say('expected a whole number from 0 to 4294967295, received "{text}"',
                       ru="нужно целое число от 0 до 4294967295, а введено «{text}»"),
        "settings": say("Network and data", ru="Сеть и данные"),
        "data": say("data set", ru="набор данных"),
        "datasets": dataset_names(),
        "depth": say("hidden layers", ru="скрытых слоёв"),
        "width": say("units in hidden layer {k}", ru="нейронов в скрытом слое {k}"),
        "activation": say("activation", ru="функция активации"),
        "rate": say("learning rate η", ru="скорость обучения η"),
        "seed": say("seed of the initial weights", ru="зерно генератора начальных весов"),
        "step": say("Step", ru="Шаг"),
        "step10": say("10 steps", ru="10 шагов"),
        "play": say("Play", ru="Пуск"),
        "pause": say("Pause", ru="Пауза"),
        "reset": say("Reset", ru="Сначала"),
        "newSeed": say("New seed", ru="Новое зерно"),
        "newClass": say("class of a new point", ru="класс новой точки"),
        "addMode": say("Add points", ru="Добавлять точки"),
        "undo": say("Undo", ru="Отменить"),
        "map": say("the network's output ŷ over the input square from {low} to {high}, with the data points; with "
                   "Add points pressed, a click or a tap adds a point; with the keyboard, move the cursor with the "
                   "arrow keys and press Enter to add one; Page Up and Page Down go from point to point",
                   ru="выход сети ŷ на квадрате входов от {low} до {high} и точки данных; при нажатой кнопке "
                      "«Добавлять точки» щелчок или касание добавляет точку; с клавиатуры двигайте курсор "
                      "стрелками и нажмите Enter, чтобы добавить точку; Page Up и Page Down переходят от точки "
                      "к точке"),
        "caption": say("ŷ over the input square (x1 to the right, x2 up): blue is 0, orange 1, white the boundary "
                       "ŷ = 0.5; circles are points of class 0, triangles class 1, larger ones the points you added. "
                       "A click or a tap shows the network's values at that place. With Add points pressed, it adds "
                       "a point of the class chosen above instead (keyboard: focus the map, move the cursor with the "
                       "arrow keys, Shift for larger moves, press Enter). A new point, like any change, starts again "
                       "from step 0; Undo takes the last point back, with the training it had reached.",
                       ru="ŷ на квадрате входов (x1 вправо, x2 вверх): синий — 0, оранжевый — 1, белый — граница "
                          "ŷ = 0.5; кружки — точки класса 0, треугольники — класса 1, крупные — добавленные вами. "
                          "Щелчок или касание показывает значения сети в этом месте. Если нажата кнопка «Добавлять "
                          "точки», он добавляет туда точку выбранного выше класса (с клавиатуры: выберите карту, "
                          "двигайте курсор стрелками, с Shift — крупнее, и нажмите Enter). Новая точка, как и любое "
                          "изменение, начинает обучение заново с шага 0; «Отменить» убирает последнюю точку и "
                          "возвращает обучение, до которого вы дошли."),
        "lossPlot": say("loss against step, from step 0 to {step}: from {first} to {last}",
                        ru="потери по шагам, от шага 0 до {step}: от {first} до {last}"),
        "lossAxis": say("loss", ru="потери"),
        "stepAxis": say("step", ru="шаг"),
        "status": say("step {step}: loss {loss}, accuracy {accuracy} ({correct} of {n} points)",
                      ru="шаг {step}: потери {loss}, точность {accuracy} (верно: {correct} из {n})"),
        "dead": say("; dead units (0 on every point, their weights no longer change): {units}",
                    ru="; мёртвые нейроны (0 на каждой точке, их веса больше не меняются): {units}"),
        "unit": say("layer {l} unit {j}", ru="слой {l}, нейрон {j}"),
        "rising": say("; the loss is above its value at step 0, {first}; the learning rate may be too large",
                      ru="; потери выше, чем на шаге 0, где они были {first}; возможно, скорость обучения "
                         "слишком велика"),
        "diverged": say("Step {step} would make the loss diverge (it is no longer a finite number): the learning rate "
                        "η = {rate} is too large for this network. Training stopped at step {last}; lower the rate.",
                        ru="Шаг {step} сделал бы потери бесконечными (обучение расходится): скорость обучения "
                           "η = {rate} слишком велика для этой сети. Обучение остановлено на шаге {last}; "
                           "уменьшите скорость."),
        "at": say("at x = ({x1}, {x2})", ru="в точке x = ({x1}, {x2})"),
        "point": say("point {k} of class {c}", ru="точка {k} класса {c}"),
        "hidden": say("layer {l}: a = [{values}]", ru="слой {l}: a = [{values}]"),
        "forwardBox": say("forward values at the cursor", ru="прямой проход в точке курсора"),
        "added": say("point of class {c} added at ({x1}, {x2})", ru="добавлена точка класса {c} в ({x1}, {x2})"),
        "undone": say("point of class {c} at ({x1}, {x2}) taken back", ru="точка класса {c} в ({x1}, {x2}) убрана"),
    }
