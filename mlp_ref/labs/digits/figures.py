"""Lab A's figures: each drawn with matplotlib and shown with its caption and alt text, in the
language of the notebook (:func:`mlp_ref.course.i18n.say`), by one call from the lab's cell.

The lab's cells compute what a figure shows (the loss history, the confusion matrix, the
misclassified images); these functions only draw it and say it in words.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from mlp_ref.course.figures import PALETTE, show_figure
from mlp_ref.course.i18n import say


def show_loss_curves(history, chosen: int, settings) -> None:
    """Training and validation loss per epoch (log scale), the kept epoch marked.

    Parameters
    ----------
    history : mlp_ref.History
        What ``fit`` returned: ``train_loss`` and ``val_loss``, each of length ``settings.epochs``.
    chosen : int
        The kept epoch, 0-based (``history.best_epoch``).
    settings : DigitsSettings
    """
    epochs = np.arange(1, settings.epochs + 1)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.plot(epochs, history.train_loss, color=PALETTE[0], marker="o",
            markersize=3, label=say("training (mean over the epoch)", ru="обучающая выборка (среднее за эпоху)"))
    ax.plot(epochs, history.val_loss, color=PALETTE[1], linestyle="--",
            marker="s", markersize=3, label=say("validation (end of epoch)", ru="валидационная выборка (конец эпохи)"))
    ax.axvline(chosen + 1, color=PALETTE[6], linestyle=":", linewidth=1)
    ax.plot([chosen + 1], [history.val_loss[chosen]], marker="*",
            markersize=14, color=PALETTE[2], linestyle="none",
            label=say(f"chosen epoch ({chosen + 1}): lowest validation loss",
                      ru=f"выбранная эпоха ({chosen + 1}): наименьшие потери на валидации"))
    ax.set_yscale("log")
    ticks = [0.1, 0.2, 0.5, 1, 2]
    ax.set_yticks(ticks, labels=[str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel(say("epoch", ru="эпоха"))
    ax.set_ylabel(say("cross entropy (nats per example)", ru="перекрёстная энтропия (нат на пример)"))
    ax.set_title(say(f"MLP {list(settings.sizes)}, seed {settings.seed}",
                     ru=f"MLP {list(settings.sizes)}, зерно {settings.seed}"), fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
    fig.tight_layout()
    show_figure(
        fig,
        alt=say(f"Line chart of cross-entropy loss against epoch, 1 to {settings.epochs}, on a log scale. "
                "Training loss (solid line, circles) and validation loss (dashed line, squares) both fall; "
                f"a star and a dotted vertical line mark epoch {chosen + 1}, where validation loss is lowest.",
                ru=f"График перекрёстной энтропии по эпохам, от 1 до {settings.epochs}, в логарифмическом "
                "масштабе. Потери на обучающей выборке (сплошная линия, кружки) и на валидационной (штриховая линия, "
                f"квадраты) обе падают; звёздочка и пунктирная вертикаль отмечают эпоху {chosen + 1}, где потери "
                "на валидации наименьшие."),
        caption=say(f"Training and validation loss per epoch; the star marks the kept epoch ({chosen + 1}).",
                    ru=f"Потери на обучающей и валидационной выборках по эпохам; звёздочка отмечает сохранённую "
                    f"эпоху ({chosen + 1})."),
    )


def show_confusion_matrix(cm: np.ndarray) -> None:
    """The test confusion matrix as a grid of counts, errors in bold.

    Parameters
    ----------
    cm : numpy.ndarray of int, shape (10, 10)
        ``cm[t, p]``: test images of true digit ``t`` predicted as ``p``.
    """
    n = int(cm.sum())
    fig, ax = plt.subplots(figsize=(5.2, 4.6))
    ax.imshow(cm, cmap="Blues")
    for t in range(10):
        for p in range(10):
            if cm[t, p]:
                ax.text(p, t, str(cm[t, p]), ha="center", va="center", fontsize=9,
                        color="white" if cm[t, p] > cm.max() / 2 else "black",
                        fontweight="normal" if t == p else "bold")
    ax.set_xticks(range(10))
    ax.set_yticks(range(10))
    ax.set_xlabel(say("predicted digit", ru="предсказанная цифра"))
    ax.set_ylabel(say("true digit", ru="истинная цифра"))
    ax.set_title(say(f"Test confusion matrix ({n} images)",
                     ru=f"Матрица ошибок на тестовой выборке (изображений: {n})"), fontsize=11)
    fig.tight_layout()
    pairs = sorted(((int(cm[t, p]), t, p) for t in range(10) for p in range(10) if t != p and cm[t, p]), reverse=True)
    show_figure(
        fig,
        alt=(say("A 10 by 10 grid of counts, true digit by row and predicted digit by column. Most counts "
                 f"lie on the diagonal ({int(np.trace(cm))} of {n} correct). The off-diagonal errors are: ",
                 ru="Таблица 10 на 10 из счётчиков: строка — истинная цифра, столбец — предсказанная. Большинство "
                 f"счётчиков стоит на диагонали (верно {int(np.trace(cm))} из {n}). Ошибки вне диагонали: ")
             + "; ".join(say(f"true {t} predicted {p}: {c}", ru=f"истинная {t}, предсказана {p}: {c}")
                         for c, t, p in pairs) + "."),
        caption=say("Test confusion matrix of the kept model; off-diagonal counts (bold) are errors.",
                    ru="Матрица ошибок сохранённой модели на тестовой выборке; числа вне диагонали (жирные) — ошибки."),
    )


def show_misclassified(images: np.ndarray, predicted: np.ndarray, true: np.ndarray) -> None:
    """A grid of images, each titled with the model's prediction and the true digit.

    Parameters
    ----------
    images : numpy.ndarray, shape (N, 8, 8)
        Pixels in [0, 1].
    predicted, true : numpy.ndarray of int, shape (N,)
    """
    cols = 7
    rows = max(1, -(-len(images) // cols))  # ceiling division
    fig, axes = plt.subplots(rows, cols, figsize=(7, 1.35 * rows), squeeze=False)
    for ax in axes.ravel():
        ax.axis("off")
    for ax, image, p, t in zip(axes.ravel(), images, predicted, true):
        ax.imshow(image, cmap="gray_r", vmin=0, vmax=1)
        ax.set_title(say(f"pred {p}, true {t}", ru=f"{p} вместо {t}"), fontsize=9)
    fig.suptitle(say("Misclassified test digits", ru="Ошибочно распознанные цифры тестовой выборки"), fontsize=11)
    fig.tight_layout()
    show_figure(
        fig,
        alt=(say(f"A grid of the {len(images)} misclassified 8 by 8 test images, each titled with its predicted "
                 "and true digit: ",
                 ru=f"Сетка ошибочно распознанных тестовых изображений 8 на 8 (всего: {len(images)}), над каждым — "
                 "предсказанная и истинная цифры: ")
             + "; ".join(say(f"predicted {p}, true {t}", ru=f"предсказана {p}, истинная {t}")
                         for p, t in zip(predicted, true)) + "."),
        caption=say("Every misclassified test image, with the model's prediction and the true label.",
                    ru="Все ошибочно распознанные тестовые изображения: предсказание модели и истинная метка."),
    )
