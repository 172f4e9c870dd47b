"""Lab B's figures: each drawn with matplotlib and shown with its caption and alt text, in the
language of the notebook (:func:`mlp_ref.course.i18n.say`), by one call from the lab's cell.

The lab's cells compute what a figure shows (the hidden outputs, the training curves, the
projected embeddings); these functions only draw it and say it in words.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from mlp_ref.course.figures import PALETTE, show_figure
from mlp_ref.course.i18n import say
from mlp_ref.course.tables import format_number
from mlp_ref.labs.charlm.experiment import CharLMReport
from mlp_ref.labs.charlm.model import LR_DROP, lr_drops
from mlp_ref.labs.charlm.report import VOWELS, hidden_weights_label, variant_label


def show_hidden_histograms(hidden: list[np.ndarray], rows: list[tuple[str, bool, float, float]], fan_in: int) -> None:
    """Histograms of the hidden outputs at initialization: standard-normal W1 (left), Kaiming-scaled (right).

    Parameters
    ----------
    hidden : list of two numpy.ndarray, each of shape (N, H)
        The hidden outputs h = tanh(a) of the first two rows of ``rows``.
    rows : list of (init, batch_norm, fraction of |h| > 0.97, std of x W1)
        The saturation table's rows (:func:`mlp_ref.labs.charlm.report.saturation_table`).
    fan_in : int
    """
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)
    for ax, h, (init, batch_norm, _, _), color in zip(axes, hidden, rows, PALETTE):
        ax.hist(h.ravel(), bins=50, range=(-1, 1), color=color)
        ax.set_title(hidden_weights_label(init, batch_norm, fan_in), fontsize=10)
        ax.set_xlabel(say("hidden output h = tanh(a)", ru="выход скрытого слоя h = tanh(a)"))
    axes[0].set_ylabel(say("count (all windows × units)", ru="количество (все окна × нейроны)"))
    fig.suptitle(say("Hidden activations at initialization", ru="Активации скрытого слоя при инициализации"),
                 fontsize=11)
    fig.tight_layout()
    saturated = [format_number(fraction, 3) for _, _, fraction, _ in rows[:2]]
    show_figure(
        fig,
        alt=say("Two histograms of the hidden outputs tanh(a) at initialization, from -1 to 1. Left, "
                f"standard-normal W1: most of the mass sits at -1 and +1 (a fraction {saturated[0]} has |h| > 0.97). "
                f"Right, Kaiming-scaled W1: the outputs spread over the interval (fraction {saturated[1]}).",
                ru="Две гистограммы выходов скрытого слоя tanh(a) при инициализации, от -1 до 1. Слева — W1 из "
                f"стандартного нормального распределения: почти вся масса сосредоточена у -1 и +1 (у доли "
                f"{saturated[0]} |h| > 0.97). Справа — W1 в масштабе He: выходы распределены по всему интервалу "
                f"(доля {saturated[1]})."),
        caption=say("Hidden outputs at initialization: saturated with N(0, 1) weights (left), spread out with the "
                    "Kaiming scale (right).",
                    ru="Выходы скрытого слоя при инициализации: насыщены при весах N(0, 1) (слева), распределены "
                    "по интервалу в масштабе He (справа)."),
    )


def show_training_curves(report: CharLMReport) -> None:
    """The smoothed training loss of the first seed of each variant, against the bigram's validation loss."""
    steps = report.settings.steps
    fig, ax = plt.subplots(figsize=(7, 3.6))
    window = min(100, steps)  # steps averaged per point of the curve
    for result, color in zip(report.variants, PALETTE):
        smooth = np.convolve(result.curves[0], np.ones(window) / window, mode="valid")
        ax.plot(np.arange(window, steps + 1), smooth, color=color, label=variant_label(result.label))
    ax.axhline(report.bigram_loss["val"], color="black", linestyle="--", linewidth=1,
               label=say("bigram, validation", ru="биграммы, валидация"))
    ax.axvline(lr_drops(steps)[0], color="gray", linestyle=":", linewidth=1,
               label=say(f"learning rate / {1 / LR_DROP:.0f}", ru=f"скорость обучения / {1 / LR_DROP:.0f}"))
    ax.set_yscale("log")
    ax.set_yticks([2, 2.5, 3, 4, 6, 10], labels=["2", "2.5", "3", "4", "6", "10"])
    ax.minorticks_off()
    ax.set_xlabel(say("SGD step", ru="шаг SGD"))
    ax.set_ylabel(say(f"batch loss (nats), mean of {window} steps",
                      ru=f"потери на батче (наты),\nсреднее по {window} шагам"))
    ax.set_title(say("Training curves (first seed of each variant)", ru="Кривые обучения (каждый вариант, первое зерно)"),
                 fontsize=11)
    ax.legend(fontsize=8)
    fig.tight_layout()
    show_figure(
        fig,
        alt=(say("Line chart of the smoothed training loss against SGD step, log scale, one line per model variant (",
                 ru="График сглаженных потерь на обучении по шагам SGD, логарифмический масштаб, по линии "
                 "на каждый вариант модели (")
             + say(", ", ru="; ").join(variant_label(result.label) for result in report.variants)
             + say("), with the bigram's validation loss as a dashed horizontal line and a dotted vertical line "
                   f"where the learning rate drops {1 / LR_DROP:.0f}-fold. The naive-initialization curves start much "
                   "higher.",
                   ru="); потери биграммной модели на валидации — штриховая горизонталь, пунктирная вертикаль — место, "
                   f"где скорость обучения падает в {1 / LR_DROP:.0f} раз. Кривые с наивной инициализацией начинаются "
                   "намного выше.")),
        caption=say("Training loss of the first seed of each variant, against the bigram baseline's validation loss.",
                    ru="Потери на обучении каждого варианта при первом зерне на фоне потерь базовой биграммной модели "
                    "на валидации."),
    )


def show_embeddings(points: np.ndarray, chars, label: str) -> None:
    """Each character at its embedding's projection; vowels (and y), consonants and '.' in three colours.

    Parameters
    ----------
    points : numpy.ndarray, shape (V, 2)
        The embeddings projected on two principal components.
    chars : sequence of str, length V
        The vocabulary's characters, in the rows' order.
    label : str
        The model's variant (``"MLP, init fixes"``).
    """
    fig, ax = plt.subplots(figsize=(5.5, 5))
    vowels = set(VOWELS)
    for char, (px, py) in zip(chars, points):
        color = PALETTE[1] if char in vowels else PALETTE[0] if char != "." else PALETTE[6]
        ax.scatter(px, py, s=220, color=color, alpha=0.25)
        ax.text(px, py, char, ha="center", va="center", fontsize=11, color=color)
    ax.set_xlabel(say("principal component 1", ru="главная компонента 1"))
    ax.set_ylabel(say("principal component 2", ru="главная компонента 2"))
    ax.set_title(say(f"Embeddings of '{label}' (first seed)",
                     ru=f"Эмбеддинги символов (первое зерно)\n«{variant_label(label)}»"), fontsize=10)
    fig.tight_layout()
    show_figure(
        fig,
        alt=say(f"Scatter plot of the {len(chars)} characters' embeddings projected on two principal components, "
                "each point labelled with its character; vowels and y in one colour, consonants in another, "
                "the start/end token '.' in black.",
                ru=f"Точечная диаграмма эмбеддингов символов (всего: {len(chars)}), спроецированных на две главные "
                "компоненты; каждая точка подписана своим символом; гласные и y одним цветом, согласные другим, "
                "токен начала и конца «.» чёрным."),
        caption=say("Character embeddings of the chosen model, projected onto their first two principal components.",
                    ru="Эмбеддинги символов выбранной модели, спроецированные на их первые две главные компоненты."),
    )
