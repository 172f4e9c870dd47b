"""The home page's map of the course, its table of lessons and labs, its list of widgets, and the
numbers its prose says (:func:`values`).

All three are drawn from the pages' own Prerequisites and widget calls, read by
``prose/structure.py`` (the build runs in the checkout, where ``prose`` is importable); they are
read again on every call, since the build records which files a page's render read.
"""

from __future__ import annotations

import math
import re

from matplotlib.patches import FancyBboxPatch

from mlp_ref.course.figures import PALETTE, figure_html, new_figure
from mlp_ref.course.i18n import say
from mlp_ref.course.widgets import WIDGETS
from mlp_ref.course.words import number, word
from prose.structure import DOCS, builds_on_text, depths, map_edges, pages, widgets

W, H = 1.22, 0.62   # a box's width and height on the map


def _labels() -> dict[str, str]:
    """Box labels, by page key (the one thing typed here)."""
    return {
        "1": say("neuron,\nlayer", ru="нейрон,\nслой"), "2": say("depth,\nXOR", ru="глубина,\nXOR"),
        "3": say("forward\npass", ru="прямой\nпроход"), "4": say("activations,\nheads", ru="активации,\nвыходы"),
        "5": say("learning\nthe weights", ru="обучение\nвесов"), "6": say("counting", ru="подсчёт\nпараметров"),
        "7": say("initial-\nization", ru="инициали-\nзация"), "8": say("approxi-\nmation", ru="аппрокси-\nмация"),
        "9": say("MLP in a\ntransformer", ru="MLP\nв транс-\nформере"),
        "A": say("digits", ru="цифры"), "B": say("char-level LM", ru="символьная\nLM"),
    }


def map_layout(course) -> tuple[dict[str, tuple[str, float, float]], list[tuple[str, str]]]:
    """Where the map puts each page, and its arrows.

    Parameters
    ----------
    course : list of prose.structure.Page
        Every lesson and lab, in course order.

    Returns
    -------
    nodes : dict
        Page key -> (box label, x, y); the column x from the longest chain of prerequisites.
    edges : list of (str, str)
        (a, b): b builds on a; links implied by a longer path left out.
    """
    edges = map_edges(course)
    labels = _labels()
    column = depths(course)
    nodes = {}
    for depth in sorted(set(column.values())):
        keys = [page.key for page in course if column[page.key] == depth]
        for row, key in enumerate(keys):
            name = say(f"Lab {key}", ru=f"Лаб. {key}") if key.isalpha() else key
            y = row - (len(keys) - 1) / 2
            before = [a for a, b in edges if b == key and column[a] == depth - 1]
            if len(keys) == 1 and before:  # alone in its column: level with the page it follows
                y = nodes[before[0]][2]
            nodes[key] = (f"{name}\n{labels[key]}" if key.isalpha() else f"{name} {labels[key]}", 1.4 * depth, y)
    return nodes, edges


def _name(key: str, case: int = 0) -> str:
    """A page as a sentence names it; Russian declines it (case 0, 1, 2: nominative, genitive, dative)."""
    ru = (("лабораторная работа", "лабораторной работы", "лабораторной работе") if key.isalpha()
          else ("урок", "урока", "уроку"))[case]
    return say(f"Lab {key}" if key.isalpha() else f"lesson {key}", ru=f"{ru} {key}")


def _names(keys, case: int = 0) -> str:
    keys = [_name(k, case) for k in keys]
    return keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + say(" and ", ru=" и ") + keys[-1]


def course_map() -> str:
    """The map of the course: one box per page, an arrow from a page to each page that uses it.

    Returns
    -------
    str
        The figure as HTML (:func:`mlp_ref.course.figures.figure_html`).
    """
    course = pages()
    nodes, edges = map_layout(course)
    n_columns = max(depths(course).values()) + 1
    fig, ax = new_figure(figsize=(1.2 * n_columns, 2.6))
    for key, (label, x, y) in nodes.items():
        lab = key.isalpha()
        ax.add_patch(FancyBboxPatch((x - W / 2, y - H / 2), W, H, boxstyle="round,pad=0.02,rounding_size=0.1",
                                    facecolor=PALETTE[4] if lab else PALETTE[5], edgecolor="0.25", linewidth=1.0,
                                    linestyle="--" if lab else "-"))
        ax.text(x, y, label, ha="center", va="center", fontsize=8, color="black")
    for a, b in edges:
        (_, xa, ya), (_, xb, yb) = nodes[a], nodes[b]
        ax.annotate("", xy=(xb - W / 2, yb), xytext=(xa + W / 2, ya),
                    arrowprops=dict(arrowstyle="-|>", color="0.35", lw=1.1, shrinkA=2, shrinkB=2))
    rows = max(abs(y) for _, _, y in nodes.values())
    ax.set_xlim(-0.65, 1.4 * (n_columns - 1) + 0.65)
    ax.set_ylim(rows + 0.5, -rows - 0.5)
    ax.axis("off")
    leads = [say(f"{_name(a)} leads to {_names(after)}", ru=f"от {_name(a, 1)} к {_names(after, 2)}")
             for a in dict.fromkeys(a for a, _ in edges) for after in [[b for x, b in edges if x == a]]]
    return figure_html(
        fig,
        alt=say("A map of the course as boxes joined by arrows, read left to right: " + "; ".join(leads) + ".",
                ru="Карта курса: прямоугольники, соединённые стрелками, читаются слева направо. Стрелки ведут "
                   + "; ".join(leads) + "."),
        caption=say("Which page builds on which, from each page's Prerequisites. An arrow points from a page "
                    "to one that uses it; links implied by a longer path are not drawn. Labs have dashed boxes.",
                    ru="Какая страница на какую опирается, по разделам «Что нужно знать» самих страниц. Стрелка "
                       "идёт от страницы к той, что её использует; связи, которые следуют из более длинного пути, "
                       "не показаны. Лабораторные работы — в пунктирных рамках."),
    )


def _learn() -> dict[str, str]:
    """What each page teaches, by page key, as the table's middle column says it."""
    return {
        "1": say("one neuron, a layer as one matrix product, batches, PyTorch's weight layout",
                 ru="один нейрон, слой как одно матричное произведение, батчи, раскладка весов в PyTorch"),
        "2": say("stacked linear layers collapse; a hidden layer solves XOR",
                 ru="линейные слои подряд схлопываются в один; скрытый слой решает XOR"),
        "3": say("every step of a small network, traced; shapes of every intermediate; the cache",
                 ru="пошаговый разбор небольшой сети; формы всех промежуточных величин; кэш"),
        "4": say("sigmoid, tanh, ReLU, GELU, SiLU; saturation; matching the output to the loss",
                 ru="сигмоида, tanh, ReLU, GELU, SiLU; насыщение; выходная функция под функцию потерь"),
        "5": say("loss, gradient descent, backpropagation by hand, gradient checks, why XOR is not always learned",
                 ru="функция потерь, градиентный спуск, обратное распространение ошибки вручную, проверка "
                    "градиента, почему XOR выучивается не всегда"),
        "6": say("parameters per layer, memory, and where the parameters of a transformer live",
                 ru="параметры по слоям, память и где находятся параметры трансформера"),
        "7": say("symmetry, variance through depth, He and Xavier",
                 ru="симметрия, дисперсия по глубине сети, инициализации He и Глоро (Xavier)"),
        "8": say("what the theorem says and does not; what depth buys",
                 ru="что теорема утверждает и чего не утверждает; что даёт глубина"),
        "9": say("the position-wise FFN, the residual block, gated FFNs, mixtures of experts, history",
                 ru="попозиционный FFN, остаточный блок, FFN с вентилем, смеси экспертов, история"),
        "A": say("a full training loop in NumPy, a gradient check, baselines from scikit-learn",
                 ru="полный цикл обучения на NumPy, проверка градиента, базовые модели из scikit-learn"),
        "B": say("Bengio et al.'s (2003) word-level model, here on characters: embeddings, tanh and sampling, "
                 "plus the batch normalization that paper did not have",
                 ru="пословная модель Бенджио и др. (2003), здесь на символах: эмбеддинги, tanh и сэмплирование, "
                    "а также батч-нормализация, которой в той работе не было"),
    }


def lessons_table() -> str:
    """The lessons and labs: each page linked, what it teaches, and what it builds on.

    Returns
    -------
    str
        A Markdown table, one row per page.
    """
    learn = _learn()
    lines = [say("| page | what you learn | builds on |", ru="| страница | что вы узнаете | опирается на |"),
             "| :--- | :--- | :--- |"]
    for page in pages():
        title = say(f"Lab {page.key}", ru=f"Лабораторная {page.key}") + f". {page.title[0].upper()}{page.title[1:]}" \
            if page.key.isalpha() else f"{page.key}. {page.title}"
        lines.append(f"| [{title}]({page.href('index.md')}) | {learn[page.key]} | {builds_on_text(page)} |")
    return "\n".join(lines)


def widget_list() -> str:
    """Every widget of the course, linked to the section of the lesson that holds it.

    Returns
    -------
    str
        A Markdown list, one item per widget, in course order.
    """
    items = []
    for page, key, anchor in widgets(pages()):
        title, sentence = WIDGETS[key].said()  # in the page's language
        items.append(f"- **[{title}]({page.href('index.md')}#{anchor})** ({_name(page.key)}): {sentence}.")
    return "\n".join(items)


#: Words read per minute: the average silent-reading rate of adults for English non-fiction in
#: M. Brysbaert, "How many words do we read per minute? A review and meta-analysis of reading
#: rate", Journal of Memory and Language 109, 104047 (2019). An input, said once, from here.
READING_WPM = 238


def _reading_words(text: str) -> int:
    """The words of a page's Markdown that a reader reads as text: outside code fences and HTML
    comments, each ``{@ ... @}`` counted as one word."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.DOTALL)
    text = re.sub(r"\{@.*?@\}", "N", text, flags=re.DOTALL)
    words, fence = 0, None
    for line in text.split("\n"):
        opening = re.match(r"\s*(`{3,}|~{3,})", line)
        if fence is None and opening:
            fence = opening[1]
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
        else:
            words += len(line.split())
    return words


def values() -> dict[str, str]:
    """The numbers the home page's prose says (``{@ home.lessons @}``), as it reads them."""
    # The pages the table lists, read in English: the reading rate below is English prose's (the
    # Russian home page says so). A lesson's key is its number, a lab's its letter.
    course = pages(language="en")
    lessons = [DOCS / page.path for page in course if page.key.isdigit()]
    labs = [page for page in course if not page.key.isdigit()]
    minutes = [_reading_words(path.read_text(encoding="utf-8")) / READING_WPM for path in lessons]
    return {
        "lessons": word(len(lessons)),                        # "Eight lessons"
        "labs": word(len(labs)),                              # "then two labs"
        "reading_wpm": number(READING_WPM),                   # "at 238 words a minute"
        "reading_min": number(math.floor(min(minutes))),      # "each 5 to 16 minutes of reading"
        "reading_max": number(math.ceil(max(minutes))),
    }
