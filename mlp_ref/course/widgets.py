"""Interactive widgets: the placeholder a page prints, with the values the widget starts from.

A widget is a small JavaScript module served by the site (``docs/javascripts/widgets/``).
The page prints :func:`widget_html` from a build-time block: a ``<div>`` holding the widget's
starting values as JSON (taken from the objects the page's own tables use, never typed
twice) and a sentence for readers without JavaScript, then the ``<script type="module">``
that turns the placeholder into the widget. The page's generated tables stay where they
are; the widget only adds to them.

Every word a widget shows (headings, labels, buttons, what it announces, its error messages)
comes from here, in the language of the page being built (:func:`mlp_ref.course.i18n.say`),
in the ``text`` of its starting values; the scripts hold no words of their own. Its numbers
are written as on the page's tables: a decimal point in both editions, and between the
thousands of a count the edition's separator (:data:`mlp_ref.course.i18n.THOUSANDS`).

The JavaScript computes with the same formulas as :mod:`mlp_ref` (``tests/test_widgets.py``
holds every number it shows to ``mlp_ref``). :data:`WIDGETS` says in one sentence what each
one does; the home page lists them from there.
"""

from __future__ import annotations

import html
import inspect
import json
from dataclasses import asdict, dataclass

import numpy as np

from mlp_ref.course.counting_tables import breakdown_labels, breakdown_markdown, layer_table_labels, row_label_templates
from mlp_ref.course.i18n import LANGUAGES, THOUSANDS, language, say
from mlp_ref.course.backward_stepper import stepper_text
from mlp_ref.course.playground import playground_text
from mlp_ref.course.trace import DEFAULT_PRECISION, INPUT, column_headers, said_expression
from mlp_ref.transformer_counts import ROW_LABELS, TransformerConfig


@dataclass(frozen=True)
class Widget:
    """One widget: the script that draws it, its title and what a reader can do with it, in
    English (``title``, ``sentence``) and in Russian (``title_ru``, ``sentence_ru``)."""

    script: str
    title: str
    sentence: str
    title_ru: str
    sentence_ru: str

    def said(self) -> tuple[str, str]:
        """``(title, sentence)`` in the language being built."""
        return say(self.title, ru=self.title_ru), say(self.sentence, ru=self.sentence_ru)


WIDGETS = {
    "network-explorer": Widget(
        "network-explorer.js", "The 2-2-1 network explorer",
        "move the weights and biases of lesson 3's network or the input point, and watch the forward "
        "trace and the output over the whole input square follow; one button loads lesson 2's XOR weights",
        "Интерактивная сеть 2-2-1",
        "двигайте веса и смещения сети из урока 3 или входную точку и смотрите, как за ними следуют "
        "пошаговый разбор прямого прохода и выход сети на всём квадрате входов; одна кнопка загружает "
        "веса для XOR из урока 2"),
    "activation-explorer": Widget(
        "activation-explorer.js", "The activation explorer",
        "pick an activation, move z, and read f(z) and its derivative off the curves, with GELU's exact "
        "and tanh forms side by side",
        "Интерактивные функции активации",
        "выберите функцию активации, двигайте z и считывайте с графиков f(z) и её производную; точная "
        "форма GELU и её приближение через tanh показаны рядом"),
    "parameter-counter": Widget(
        "parameter-counter.js", "The parameter counter",
        "type the widths of an MLP, or change the sizes of a published transformer, and see where every "
        "parameter lives",
        "Счётчик параметров",
        "задайте ширины слоёв MLP или измените размеры опубликованного трансформера и посмотрите, где "
        "находится каждый параметр"),
    "training-playground": Widget(
        "training-playground.js", "The training playground",
        "train a small network on XOR or a toy data set by gradient descent, a step at a time or playing, and "
        "watch its decision boundary, loss and accuracy change; each step is lesson 5's",
        "Песочница обучения",
        "обучайте небольшую сеть градиентным спуском на XOR или на игрушечном наборе данных, по шагу или "
        "непрерывно, и смотрите, как меняются граница решений, потери и точность; каждый шаг — тот же, что в "
        "уроке 5"),
    "backward-stepper": Widget(
        "backward-stepper.js", "The backward-pass stepper",
        "walk the backward pass of lesson 5's 2-2-1 network one quantity at a time, each with the chain-rule "
        "product that gives it in numbers, then take one gradient-descent step; change the input or the target",
        "Пошаговый обратный проход",
        "пройдите обратный проход сети 2-2-1 из урока 5 по одной величине за раз, каждую — с произведением по "
        "цепному правилу в числах, а затем сделайте один шаг градиентного спуска; вход и цель можно менять"),
}


# --- the words each widget shows, in the language being built -------------------------------
# Templates hold the values they need in braces ({low}); the script fills them. A number in a
# Russian template follows a colon where a noun would have to agree with it («слоёв: 3»).

def _control_text() -> dict:
    """The words of a number field with its slider (docs/javascripts/widgets/ui.js)."""
    return {"slider": say("{label} (slider)", ru="{label} (ползунок)"),
            "notNumber": say('expected a number, received "{text}"', ru="нужно число, а введено «{text}»")}


def _network_text() -> dict:
    return {
        **_control_text(),
        "weights": say("Weights and biases", ru="Веса и смещения"),
        "outputHead": say("output head", ru="выходная функция"),
        "reset": say("Reset to this lesson's network and input", ru="Вернуть сеть и вход этого урока"),
        "xor": say("Show XOR solution (lesson 2)", ru="Показать решение XOR (урок 2)"),
        "loadedStart": say("this lesson's network and input loaded", ru="Загружены сеть и вход этого урока"),
        "loadedXor": say("lesson 2's XOR weights loaded", ru="Загружены веса XOR из урока 2"),
        "point": say("Input point x = (x1, x2)", ru="Входная точка x = (x1, x2)"),
        "map": say("output ŷ over the input square from {low} to {high} in x1 and x2; drag, or use the arrow "
                   "keys, to move the input point",
                   ru="выход ŷ на квадрате входов от {low} до {high} по x1 и x2; чтобы сдвинуть входную точку, "
                      "перетащите её или нажимайте клавиши со стрелками"),
        "caption": say("ŷ over the input square (x1 to the right, x2 up, {low} to {high}): blue is 0 or below, "
                       "orange 1 or above; circles mark the XOR corners of class 0, triangles class 1; the ring "
                       "is your input point.",
                       ru="ŷ на квадрате входов (x1 вправо, x2 вверх, от {low} до {high}): синий — 0 и меньше, "
                          "оранжевый — 1 и больше; кружки отмечают углы XOR класса 0, треугольники — класса 1; "
                          "кольцо — ваша входная точка."),
        "traceIntro": say("The forward trace of your input, as mlp_ref.course.trace writes it:",
                          ru="Пошаговый разбор прямого прохода для вашего входа в том виде, в каком его "
                             "записывает mlp_ref.course.trace:"),
        "traceBox": say("forward trace of your input", ru="пошаговый разбор для вашего входа"),
        # the page's trace tables say these (mlp_ref.course.trace)
        "headers": column_headers(),
        "input": said_expression(INPUT),
    }


def _activation_text() -> dict:
    return {
        **_control_text(),
        "activation": say("activation", ru="функция активации"),
        "plotTitle": say("{label}: f (solid blue) and f′ (dashed orange)",
                         ru="{label}: f (сплошная синяя) и f′ (оранжевая штриховая)"),
        "plot": say("{label} and its derivative for z from {low} to {high}; the dots mark z = {z}",
                    ru="{label} и производная этой функции при z от {low} до {high}; точки отмечают z = {z}"),
        "difference": say("difference, erf form − tanh form",
                          ru="разность: точная форма (erf) − приближение через tanh"),
        "function": say("function", ru="функция"),
        "at": say("{label} at z = {z}", ru="{label} при z = {z}"),
        "valuesBox": say("values at your z", ru="значения в выбранной точке z"),
    }


def _counter_text() -> dict:
    return {
        "mlp": say("An MLP", ru="MLP"),
        "widths": say("layer widths", ru="ширины слоёв"),
        "transformer": say("A published transformer, resized", ru="Опубликованный трансформер с другими размерами"),
        "model": say("model", ru="модель"),
        # the page's tables say these (counting_tables.layer_table_markdown, .breakdown_markdown)
        "layerTable": layer_table_labels(),
        "breakdown": breakdown_labels(),
        "layerBox": say("parameters per layer", ru="параметры по слоям"),
        "breakdownBox": say("where the parameters live", ru="где находятся параметры"),
        "mlpSummary": say("{total} parameters in {layers} layers", ru="Всего параметров: {total}, слоёв: {layers}"),
        "tfSummary": say("{model} with these sizes: {total} parameters",
                         ru="{model} с этими размерами — параметров: {total}"),
        "tfActive": say(", {active} active per token", ru=", из них активных на токен: {active}"),
        "noWidths": say("expected layer widths separated by commas, such as 784, 128, 10; received nothing",
                        ru="введите ширины слоёв через запятую, например 784, 128, 10: сейчас поле пустое"),
        "emptyWidth": say("width {k}: expected a positive whole number, received nothing (two commas in a row, "
                          "or one at the end?)",
                          ru="ширина № {k} не введена: нужно целое положительное число (две запятые "
                             "подряд или запятая в конце?)"),
        "oneNumber": say('width {k}: expected one number between commas, received "{part}" (a missing comma?)',
                         ru="ширина № {k}: между запятыми должно стоять одно число, а введено «{part}» (пропущена "
                            "запятая?)"),
        "notWhole": say('width {k}: expected a positive whole number, received "{part}"',
                        ru="ширина № {k}: нужно целое положительное число, а введено «{part}»"),
        "notPositive": say("width {k}: expected a positive whole number, received {part}",
                           ru="ширина № {k}: нужно целое положительное число, а введено {part}"),
        "tooFew": say("expected at least 2 widths (input and output), received {n}",
                      ru="нужно не меньше 2 ширин (вход и выход), а введено ширин: {n}"),
        "fieldNotWhole": say('expected a positive whole number, received "{text}"',
                             ru="нужно целое положительное число, а введено «{text}»"),
        "kvHeads": say("expected a divisor of the {heads} heads, received {kv}",
                       ru="нужен делитель числа голов ({heads}), а введено {kv}"),
        "headsDivide": say("expected a divisor of d_model = {d}, received {heads}",
                           ru="нужен делитель d_model = {d}, а введено {heads}"),
        "denseLayers": say("expected at least the {dense} dense layers, received {layers}",
                           ru="слоёв должно быть не меньше, чем слоёв без экспертов ({dense}), а введено {layers}"),
        "topK": say("expected at most the {experts} routed experts, received {k}",
                    ru="активных экспертов должно быть не больше, чем маршрутизируемых ({experts}), а введено {k}"),
    }


#: What the parameter counter calls each editable field of a configuration (:data:`FIELD_LABELS_RU`
#: on a Russian page).
FIELD_LABELS = {"d_model": "d_model (width)", "d_ff": "d_ff (FFN inner width)", "n_heads": "heads",
                "n_kv_heads": "key-value heads", "layers": "layers", "vocab": "vocabulary",
                "n_experts": "routed experts", "top_k": "experts active per token (top-k)"}
FIELD_LABELS_RU = {"d_model": "d_model (ширина)", "d_ff": "d_ff (внутренняя ширина FFN)", "n_heads": "число голов",
                   "n_kv_heads": "число голов ключей-значений", "layers": "число слоёв", "vocab": "размер словаря",
                   "n_experts": "маршрутизируемых экспертов", "top_k": "активных экспертов на токен (top-k)"}


def field_label(name: str) -> str:
    """What the parameter counter calls field ``name`` of a configuration, in the language being built."""
    return say(FIELD_LABELS[name], ru=FIELD_LABELS_RU[name])


# Every widget with number fields (ui.js) gets their words from _control_text, said once.
_TEXTS = {"network-explorer": _network_text, "activation-explorer": _activation_text,
          "parameter-counter": _counter_text,
          "training-playground": lambda: {**_control_text(), **playground_text()},
          "backward-stepper": lambda: {**_control_text(), **stepper_text()}}


def widget_html(name: str, data: dict, without_script: str) -> str:
    """The placeholder of widget ``name`` and the script tag that fills it.

    Parameters
    ----------
    name : str
        A key of :data:`WIDGETS`.
    data : dict
        JSON-serialisable starting values, read by the script from ``data-config``; the
        widget's words are added to them under ``text`` (with its title).
    without_script : str
        What a reader without JavaScript sees instead (plain text, in the page's language).

    Returns
    -------
    str
        HTML for a page built with ``use_directory_urls`` (one folder per page), in the
        edition being built.
    """
    if name not in WIDGETS:
        raise ValueError(f"name: expected one of {sorted(WIDGETS)}, received {name!r}")
    if "text" in data:
        raise ValueError(f"data: expected starting values without a 'text' key (the widget's words go there), "
                         f"received keys {sorted(data)}")
    title, _ = WIDGETS[name].said()
    data = {**data, "text": {"title": title, **_TEXTS[name]()}}
    config = html.escape(json.dumps(data, separators=(",", ":"), allow_nan=False), quote=True)
    # The default edition is built at the site's root, another in a folder of its own (/ru/),
    # whose pages load the root's scripts (the i18n plugin copies no assets): one folder up more.
    site_root = "../" * (2 if language() == LANGUAGES[0] else 3)
    return (f'<div class="mlp-widget" data-widget="{name}" data-config="{config}">'
            f'<p class="mlp-widget__fallback"><em>{html.escape(title)}:</em> '
            f'{html.escape(without_script)}</p></div>\n'
            f'<script type="module" src="{site_root}javascripts/widgets/{WIDGETS[name].script}"></script>')


def _floats(array) -> list:
    return np.asarray(array, dtype=float).tolist()


def network_data(net, x, xor_net, batch) -> dict:
    """Starting values of the network explorer.

    Parameters
    ----------
    net : MLP
        The page's 2-2-1 network (ReLU hidden layer): its weights, biases and output head.
    x : array_like, shape (2,)
        The input point the trace starts at.
    xor_net : MLP
        Lesson 2's 2-2-1 network that computes XOR, loaded by the widget's button.
    batch : array_like, shape (B, 2)
        The page's batch; the plotted input square holds it and the XOR corners.
    """
    corners = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    points = np.vstack([np.asarray(batch, dtype=float), corners, np.asarray(x, dtype=float)[None, :]])
    low, high = np.floor(points.min()) - 0.5, np.ceil(points.max()) + 0.5

    def params(model):
        return {"W1": _floats(model.weights[0]), "b1": _floats(model.biases[0]), "W2": _floats(model.weights[1]),
                "b2": _floats(model.biases[1]), "activation": model.activation, "output": model.output}

    return {"start": params(net), "xor": params(xor_net), "x": _floats(x), "corners": _floats(corners),
            "square": [float(low), float(high)], "precision": DEFAULT_PRECISION}


def activation_data(rows, grid) -> dict:
    """Starting values of the activation explorer.

    Parameters
    ----------
    rows : sequence of (label, name) or (label, name, slope)
        The page's activations, in its table's order; ``name`` is a key of
        ``mlp_ref.ACTIVATIONS`` or ``"prelu"`` with its slope.
    grid : array_like, shape (n,)
        The page's plotting grid: the widget plots over its range.
    """
    grid = np.asarray(grid, dtype=float)
    entries = [{"label": row[0], "name": row[1], **({"slope": float(row[2])} if len(row) > 2 else {})}
               for row in rows]
    return {"activations": entries, "range": [float(grid.min()), float(grid.max())], "precision": DEFAULT_PRECISION}


def counter_data(sizes, configs: tuple[TransformerConfig, ...]) -> dict:
    """Starting values of the parameter counter: the widths of the page's per-layer table and
    the page's transformer configurations, with their row labels and editable fields (in the
    language being built) and the thousands separator of the page's counts."""
    # what the estimates leave out is said by the page, not by the counter
    shown = [{k: v for k, v in asdict(c).items() if k != "leaves_out"} for c in configs]
    return {"sizes": [int(s) for s in sizes],
            "configs": shown,
            "rowLabels": {family: list(row_label_templates(family)) for family in ROW_LABELS},
            "fieldLabels": {name: field_label(name) for name in FIELD_LABELS},
            "thousands": THOUSANDS[language()],
            # the breakdown tables' own default, so that a share reads as on the page
            "sharePrecision": inspect.signature(breakdown_markdown).parameters["precision"].default}
