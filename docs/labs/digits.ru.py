# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Лабораторная A: обучаем MLP на рукописных цифрах
#
# **Зачем.** В этой лабораторной вы обучите многослойный перцептрон из `mlp_ref` на настоящих
# изображениях рукописных цифр и сообщите его точность так, как это делает аккуратный
# эксперимент: фиксированное разбиение, проверка того, что ни одна строка не попала в две
# части, проверка градиента, лучшая эпоха, выбранная по валидационным данным, тестовые
# данные только для отчёта (по ним ничего не выбирают), несколько зёрен (начальных значений генератора случайных чисел)
# и базовые модели, обученные на тех же самых строках. После лабораторной вы сможете
# запустить тот же код на MNIST и прочитать собственные результаты с той же тщательностью.
#
# **Что нужно знать.** [Прямой проход](../../lessons/03-forward-pass/) (формы всех
# промежуточных величин), [функции активации и выходные функции](../../lessons/04-activations-and-heads/)
# (софтмакс с перекрёстной энтропией по логитам), [обучение весов](../../lessons/05-learning-the-weights/)
# (градиентный спуск, обратный проход, проверка градиента), [подсчёт параметров](../../lessons/06-counting-parameters/)
# и [инициализация](../../lessons/07-initialization/) — инициализация Хэ (He) для ReLU.
#
# <!-- before-you-start: lab -->
#
# Каждое число, таблица и рисунок ниже вычисляются при сборке этой страницы. Тот же
# эксперимент запускается из командной строки, `python -m mlp_ref.labs.digits --epochs {@ lab_a.epochs | as_code @} --seed {@ lab_a.seed | as_code @}`,
# и печатает те же таблицы, только по-английски (саму команду печатает вторая ячейка).
# Исключение — время: его измеряют заново при каждом запуске, и от запуска к запуску оно
# разное.
#
# **Ваш собственный запуск.** В первой ячейке собраны настройки — обычные присваивания.
# Измените любую из них и запустите весь ноутбук. Текст описывает запуск этой страницы (с
# этими настройками); там, где он утверждает что-то о результате, ячейка проверяет это
# утверждение на вашем запуске и печатает предупреждение, если ваш запуск с ним расходится:
# что нашёл запуск страницы и что нашёл ваш. Первая настройка, `LANGUAGE`, задаёт язык таблиц,
# рисунков и сообщений ноутбука.

# %%
# Настройки запуска: значения страницы (они же — по умолчанию у команды).
LANGUAGE = "ru"       # язык таблиц, рисунков и сообщений: "ru" или "en"
EPOCHS = 25           # проходов по обучающим строкам
SEED = 0              # разбиение; модели размера: зёрна SEED, SEED + 1, ...
SEEDS = 5             # моделей на размер (инициализация и порядок батчей)
BATCH_SIZE = 64       # строк на шаг SGD
LEARNING_RATE = 0.1   # скорость обучения SGD
SIZES = [64, 32, 16, 10]  # сеть: 64 пикселя на входе, 10 цифр на выходе
# размеры, которые сравнивает раздел 6, и SIZES, если его здесь нет:
STUDY = [[64, 32, 10], [64, 32, 16, 10],
         [64, 128, 64, 10], [64, 512, 256, 10]]
HGB_ROUNDS = 100      # раундов градиентного бустинга деревьев (раздел 7)
# раздел 8: папка с mnist.npz или четырьмя файлами IDX MNIST; None — без MNIST
MNIST_DIR = None
MNIST_SIZES = [784, 128, 64, 10]  # сеть, которую раздел 8 обучает на MNIST
MNIST_VAL = 10_000    # валидационных строк из обучающей части MNIST (раздел 8)

# %%
import os

import numpy as np
from IPython.display import Markdown, display
from threadpoolctl import threadpool_limits

from mlp_ref import MLP, count_params, fit, grad_check
from mlp_ref.labs.digits.baselines import (fit_hist_gradient_boosting,
                                           fit_logistic_regression,
                                           fit_mlp_classifier)
from mlp_ref.labs.digits.data import check_partition, digits_splits
from mlp_ref.labs.digits.experiment import (DigitsReport, DigitsSettings,
                                            confusion_matrix,
                                            width_depth_study)
from mlp_ref.labs.notebook import begin, finish
from mlp_ref.labs.progress import NotebookProgress, Ticker
# what the cells show, in the notebook's language: page.* the tables, lines and
# checks of the page's statements (mlp_ref/labs/digits/report.py), figures.*
# the figures
from mlp_ref.labs.digits import figures
from mlp_ref.labs.digits import report as page

SETTINGS = DigitsSettings(epochs=EPOCHS, seed=SEED, n_seeds=SEEDS,
                          batch_size=BATCH_SIZE, lr=LEARNING_RATE, sizes=SIZES,
                          study=STUDY, hgb_rounds=HGB_ROUNDS,
                          mnist_sizes=MNIST_SIZES, mnist_val=MNIST_VAL)
# the language, and whether this is the page's run; prints the same run's
# command line
command = page.command_line(SETTINGS)
page_start = begin(LANGUAGE, SETTINGS, DigitsSettings(), command)

# %% [markdown]
# ## 1. Данные и разбиение {#1-the-data-and-the-split}
#
# В scikit-learn есть небольшой набор рукописных цифр (скачивать ничего не нужно): 1797
# изображений размером 8×8 пикселей, каждый пиксель — целое число от 0 до 16. Если
# развернуть изображение по строкам, получится строка из 64 чисел, так что данные — это
# матрица $X$ формы (1797, 64) и метки $y$ формы (1797,). Деление на 16 переводит каждый
# пиксель в отрезок [0, 1].
#
# Строки делятся на {@ lab_a.split_parts | counted('часть', 'части', 'частей', gender='f', case='acc') @} с фиксированным зерном:
#
# * **обучающая выборка** (train) — строки, которые видит градиент;
# * **валидационная выборка** (validation) — строки, по которым делают выбор: какую эпоху
#   сохранить, какой размер сети предпочесть;
# * **тестовая выборка** (test) — строки только для отчёта: каждую модель оценивают на них
#   один раз, после того как выбрана её эпоха, и по ним ничего не выбирают.
#
# Разбиение *стратифицированное*: в каждой части доли классов те же, что и во всём наборе,
# так что ни одна цифра не окажется в какой-то части редкой по чистому невезению. Разбивает
# `digits_splits(seed)` (с помощью `train_test_split` из scikit-learn, которую она вызывает
# {@ lab_a.split_calls_n | counted('раз', 'раза', 'раз', gender='m', case='acc') @}) и сама же проверяет результат.
# Ячейка ниже проверяет его ещё раз, на чистом Python: строка, попавшая в две части, переносит
# тестовые данные в обучение, и никаких других видимых симптомов у этой ошибки нет.

# %%
splits = digits_splits(SETTINGS.seed)
train_idx, val_idx = splits.train_idx, splits.val_idx
test_idx = splits.test_idx
n_rows = len(train_idx) + len(val_idx) + len(test_idx)
assert set(train_idx).isdisjoint(val_idx)
assert set(train_idx).isdisjoint(test_idx)
assert set(val_idx).isdisjoint(test_idx)
assert set(train_idx) | set(val_idx) | set(test_idx) == set(range(n_rows))
# the same check as a library call (it raises; python -O cannot remove it):
check_partition(train_idx, val_idx, test_idx, n_rows)
print(page.partition_line(n_rows))
print("X_train", splits.X_train.shape, " X_val", splits.X_val.shape,
      " X_test", splits.X_test.shape)
print(page.pixel_range_line(splits.X_train.min(), splits.X_train.max()))
display(Markdown(page.split_table(splits)))

# %% [markdown]
# ## 2. Модель {#2-the-model}
#
# У `MLP([64, 32, 16, 10])` два скрытых слоя с ReLU и выходной слой с софтмаксом по десяти
# цифрам. Для батча $X$ формы (B, 64):
#
# $$
# \begin{aligned}
# Z_1 &= X W_1 + b_1 &&(B, 32) &\quad& W_1 \in \mathbb{R}^{64 \times 32}\\
# A_1 &= \operatorname{ReLU}(Z_1) &&(B, 32)\\
# Z_2 &= A_1 W_2 + b_2 &&(B, 16) && W_2 \in \mathbb{R}^{32 \times 16}\\
# A_2 &= \operatorname{ReLU}(Z_2) &&(B, 16)\\
# Z_3 &= A_2 W_3 + b_3 &&(B, 10) && W_3 \in \mathbb{R}^{16 \times 10}\ \text{(логиты)}\\
# L &= \tfrac{1}{B} \textstyle\sum_{i=1}^{B} \bigl(\log \sum_{k} e^{Z_{3,ik}} - Z_{3,i y_i}\bigr)
# \end{aligned}
# $$
#
# Функция потерь — перекрёстная энтропия, вычисленная прямо по логитам в форме
# log-sum-exp: так она никогда не берёт логарифм вероятности, которая при вычислении
# округлилась до 0. Её градиент по логитам равен $\Delta_3 = (P - Y)/B$, где $P$ =
# softmax($Z_3$), а $Y$ — метки в кодировке one-hot; обе матрицы формы (B, 10). Дальше
# обратное распространение ошибки (его вывод — в [уроке 5](../../lessons/05-learning-the-weights/))
# даёт $dW_3 = A_2^\top \Delta_3$, $db_3 = \sum_i \Delta_{3,i}$,
# $\Delta_2 = (\Delta_3 W_3^\top) \odot [Z_2 > 0]$ и так далее, вплоть до $dW_1 = X^\top \Delta_1$.
#
# Веса инициализируются по Хэ, $W_l \sim \mathcal{N}(0, 2/d_{l-1})$, смещения — нулями.
# Обучение — обычный стохастический градиентный спуск (SGD): батчи по {@ lab_a.batch_size | counted('строке', 'строки', 'строк', gender='f', case='dat') @}, каждую
# эпоху в новом случайном порядке, и $W \leftarrow W - {@ lab_a.lr @}\, dW$ после каждого батча. Обучающие
# строки не делятся на батчи по {@ lab_a.batch_size @} нацело, поэтому последний батч каждой эпохи меньше
# остальных. Его градиент делится на его собственный размер $B$, а не на {@ lab_a.batch_size @}, чтобы
# и он оставался средним.

# %%
sizes = list(SETTINGS.sizes)  # SIZES: 64 pixels in, 10 digits out
net = MLP(sizes, activation="relu", output="softmax", init="he",
          seed=SETTINGS.seed)
# each layer's W and b shapes, counted from the arrays:
display(Markdown(page.layer_table(net)))
assert net.n_params == count_params(sizes)
n_train, B = splits.X_train.shape[0], SETTINGS.batch_size
# n_train // B full batches and one of n_train % B rows:
print(page.batches_line(n_train, B))

# %% [markdown]
# ## 3. Проверьте градиент до обучения {#3-check-the-gradient-before-you-train}
#
# То, что потери падают, ещё не доказывает, что обратный проход верен: градиент, ошибочный
# на постоянный множитель или неверный для одного слоя, тоже может снижать потери. Проверка
# сравнивает каждую аналитическую производную с центральной конечной разностью,
#
# $$
# \frac{\partial L}{\partial \theta} \approx \frac{L(\theta + \varepsilon) - L(\theta - \varepsilon)}{2\varepsilon},
# $$
#
# ошибка которой убывает как $\varepsilon^2$. Сначала проверим один вес вручную, на восьми
# обучающих строках: элемент $W_1$ с наибольшим градиентом. (У многих элементов градиент
# на восьми строках равен ровно 0: пиксель, пустой во всех этих строках, или скрытый нейрон,
# выключенный на всех них, градиента не пропускает.)

# %%
X_small, y_small = splits.X_train[:8], splits.y_train[:8]  # (8, 64), (8,)
loss, grads = net.loss_and_grads(X_small, y_small)
dW1 = grads.weights[0]  # the shape of W_1: (64, first hidden width)
i, j = np.unravel_index(np.abs(dW1).argmax(), dW1.shape)
eps = 1e-6
probe = net.copy()
probe.weights[0][i, j] += eps
plus = probe.loss_and_grads(X_small, y_small)[0]
probe.weights[0][i, j] -= 2 * eps
minus = probe.loss_and_grads(X_small, y_small)[0]
numeric = (plus - minus) / (2 * eps)
# both to 8 decimals: the difference quotient's rounding error is about
# 1e-16 / eps = 1e-10, so a 10th decimal would differ from one CPU or BLAS
# kernel to another.
print(page.probe_lines(i, j, dW1[i, j], numeric))
blank = np.sum(X_small.max(axis=0) == 0)  # pixels that are 0 in all 8 rows
print(page.zero_gradient_lines(blank, np.sum(dW1 == 0), dW1.size))

# %% [markdown]
# Затем проверим все параметры сети разом, функцией `grad_check`. Она сообщает наибольшую
# относительную ошибку по всем параметрам (измеренную в масштабе каждого массива
# параметров; подробности — в её docstring). В float64 правильный обратный проход даёт
# ошибку на много порядков меньше 1; неверная формула даёт ошибку порядка 1.

# %%
error = grad_check(net, X_small, y_small, eps=1e-6)
print(page.gradient_check_line(net.n_params, error))
page.check_gradient(error)  # the text below says: below 1e-6

# %% [markdown]
# ## 4. Обучаем, сохраняем лучшую эпоху, тестируем один раз {#4-train-keep-the-best-epoch-test-once}
#
# Функция `fit` выполняет описанный выше цикл SGD эпоха за эпохой, всего {@ lab_a.epochs | counted('эпоха', 'эпохи', 'эпох', gender='f') @}. После
# каждой эпохи она измеряет потери на валидационных строках и запоминает веса той эпохи, где
# эти потери наименьшие; в конце она восстанавливает эти веса. Только после этого в дело идёт тестовая выборка — один
# раз.

# %%
# on one BLAS thread, as every fit of this page and of the command line
# (question 5)
with threadpool_limits(limits=1):
    history = fit(net, splits.X_train, splits.y_train,
                  splits.X_val, splits.y_val, epochs=SETTINGS.epochs,
                  batch_size=B, lr=SETTINGS.lr, seed=SETTINGS.seed,
                  engine="fast")
    chosen = history.best_epoch  # 0-based index of the restored epoch
    # the one use of the test split: predictions of shape (n_test,)
    test_predictions = net.predict(splits.X_test)
print(page.chosen_epoch_line(chosen + 1, SETTINGS.epochs))
print(page.validation_line(history.val_loss[chosen],
                           history.val_accuracy[chosen]))
print(page.accuracy_on_test_line(np.mean(test_predictions == splits.y_test)))

# %% [markdown]
# Ячейка ниже запускает весь эксперимент этой страницы: эту модель для {@ lab_a.seeds | counted('зерна', 'зёрен', 'зёрен', gender='n', case='gen') @}
# вместе с остальными размерами из раздела 6, затем модели scikit-learn из раздела 7. Её
# строки — тело `run_lab`, той самой функции, которую вызывает командная строка (тест
# следит, чтобы вызовы в них были одни и те же и в том же порядке); индикатор прогресса
# считает обученные модели `mlp_ref`. Первое обучение этой модели в точности повторяет
# обучение выше (то же зерно, тот же код), и проверки в ячейке это подтверждают. Поэтому
# таблица под ячейкой — одновременно и запуск этой страницы, и вывод команды.
#
# Модель, которая ничему не научилась, названа под ячейкой и никогда не выбирается: это модель
# на уровне угадывания (меньше {@ lab_a.chance_limit @} % на валидации, когда угадывание даёт {@ lab_a.chance @} %) или модель,
# у которой потери на обучающей выборке к концу выросли по сравнению с началом. Обычная причина —
# слишком большая скорость обучения. Если не научилась ни одна модель, ячейка говорит только это,
# а командная строка печатает эту одну строку и останавливается.

# %%
# run_lab's lines, the command line's experiment; every fit on one BLAS thread
# (see question 5)
# epochs, batch size and learning rate, the same for every fit
budget = SETTINGS.budget
n_fits = len(SETTINGS.study_sizes) * SETTINGS.n_seeds  # of mlp_ref's MLP
tick = Ticker(NotebookProgress, total=n_fits)
with threadpool_limits(limits=1):
    # section 6's sizes (SIZES among them), each for seeds SEED, SEED + 1, ...
    study = width_depth_study(SETTINGS.study_sizes, splits,
                              seeds=SETTINGS.seeds, tick=tick, **budget)
    # section 7: scikit-learn's MLP with the same settings and seeds, and two
    # baselines
    hidden = SETTINGS.sizes[1:-1]  # the hidden widths of SIZES
    mlpc = [fit_mlp_classifier(hidden, splits, seed=seed, **budget)
            for seed in SETTINGS.seeds]
    rounds = SETTINGS.hgb_rounds
    baselines = [fit_logistic_regression(splits),
                 fit_hist_gradient_boosting(splits, max_iter=rounds)]
tick.close()
# the numbers of every fit, and the size chosen by mean validation accuracy
report = DigitsReport.collect(SETTINGS, splits, study, mlpc, baselines)
# seed SEED of SIZES is the fit of section 4: the same calls, on one BLAS
# thread, so the chosen epoch and the predicted labels compare exactly (with
# other thread counts the losses could differ in the last bits, and a near-tie
# could then flip a label)
assert np.allclose(report.main.history.val_loss, history.val_loss,
                   rtol=1e-12, atol=0)
assert report.main.chosen_epoch == chosen + 1
assert np.array_equal(report.main.test_predictions, test_predictions)
# models at chance or with a rising loss, never chosen; "" if none:
problems = page.problem_lines(report)
if problems:
    print(problems)
display(Markdown(page.run_table(report.main)))

# %% [markdown]
# ### Кривые потерь {#loss-curves}
#
# Потери на обучающей выборке за эпоху — это среднее по её батчам, причём каждый батч
# оценивается непосредственно перед своим обновлением весов; потери на валидации измеряются
# с весами на конец эпохи. Поэтому обучающая кривая отстаёт примерно на полэпохи.

# %%
# the figure's code: mlp_ref/labs/digits/figures.py
figures.show_loss_curves(history, chosen, SETTINGS)

# %%
lab_epochs = np.array([run.chosen_epoch for run in report.lab_runs])
print(page.chosen_epochs_line(SETTINGS.n_seeds, sorted(lab_epochs.tolist())))
# the text below says: all within the last few epochs
page.check_chosen_epochs(report)

# %% [markdown]
# *Рисунок: потери на обучающей (сплошная линия, кружки) и валидационной (штриховая,
# квадраты) выборках по эпохам, в логарифмическом масштабе; звёздочка отмечает эпоху, веса
# которой сохранены.* Обе кривые к концу всё ещё падают, и при каждом зерне выбранная эпоха
# лежит среди последних {@ lab_a.late_epochs | counted('эпохи', 'эпох', 'эпох', gender='f', case='gen') @} (ячейка выше это проверяет). Значит,
# {@ lab_a.epochs | counted('эпоха', 'эпохи', 'эпох', gender='f') @} — это **бюджет**, а не сходимость: сохранение лучшей эпохи защищает от
# переобучения, которого здесь ещё не случилось, а этой маленькой сети, скорее всего,
# помогли бы дополнительные эпохи. А вот какая доля разрыва между двумя кривыми — шум, по
# графику не понять: валидационная выборка невелика (см. таблицу разбиения).
#
# ### Где ошибки {#where-the-errors-are}
#
# Матрица ошибок для каждой истинной цифры (строка) считает, сколько раз модель предсказала
# каждую цифру (столбец); на диагонали стоят верные ответы.

# %%
y_test = splits.y_test
cm = confusion_matrix(y_test, test_predictions, 10)  # (10, 10)
assert cm.sum() == len(y_test)
assert np.trace(cm) == np.sum(test_predictions == y_test)
figures.show_confusion_matrix(cm)
off = cm - np.diag(np.diag(cm))
print(page.errors_line(off.sum(), np.count_nonzero(off), off.max()))
per_digit = np.bincount(y_test, minlength=10)
# points of accuracy one test image is worth: overall, and for the most and the
# least frequent digit
print(page.image_worth_lines(100 / len(y_test), 100 / per_digit.max(),
                             100 / per_digit.min()))

# %% [markdown]
# *Рисунок: матрица ошибок выбранной модели на тестовой выборке; числа вне диагонали
# (жирные) — ошибки. Пустые клетки — нули.* Посмотрите на строки, где есть числа вне
# диагонали: каждая из них — цифра, которую модель иногда принимает за другую. У каждой
# цифры всего несколько десятков тестовых изображений, поэтому одно изображение сдвигает
# точность по этой цифре на несколько процентных пунктов (сколько именно, печатает ячейка):
# не ранжируйте цифры по одной этой матрице.
#
# Вот и сами ошибочно распознанные тестовые изображения — с предсказанием модели и
# истинной меткой:

# %%
# the misclassified test rows
wrong = np.flatnonzero(test_predictions != y_test)
# each row as 8x8
figures.show_misclassified(splits.X_test[wrong].reshape(-1, 8, 8),
                   test_predictions[wrong], y_test[wrong])

# %% [markdown]
# *Рисунок: все ошибочно распознанные тестовые изображения (8×8 пикселей, тёмное —
# чернила); над каждым подписано «предсказанная цифра вместо истинной».* Некоторые из них
# при таком разрешении озадачили бы и человека; другие — явные промахи. Сетка ошибок
# показывает, какого рода ошибки делает модель, но ничего не говорит о том, как часто она
# их делает: это работа таблицы.
#
# ## 5. Цикл обучения — если захотите написать его сами {#5-the-training-loop-in-case-you-want-to-write-it-yourself}
#
# Эта лабораторная вызывает `fit` с `engine="fast"`. Этот движок написан ради скорости (он
# работает на заранее выделенных массивах) и читается труднее; движок `fit` по умолчанию
# выполняет тот цикл, что в уроках. Цикл ниже вычисляет то же самое с помощью понятной
# `loss_and_grads` и простых обновлений — три эпохи с тем же зерном — и сравнивает веса с
# весами быстрого движка.

# %%
lr = SETTINGS.lr
readable = MLP(sizes, output="softmax", seed=SETTINGS.seed)
rng = np.random.default_rng(SETTINGS.seed)
for epoch in range(3):
    order = rng.permutation(n_train)  # a new order every epoch
    for start in range(0, n_train, B):
        batch = order[start:start + B]  # the last batch is smaller
        Xb, yb = splits.X_train[batch], splits.y_train[batch]
        loss, grads = readable.loss_and_grads(Xb, yb)  # mean over the batch
        for l in range(len(readable.weights)):
            readable.weights[l] -= lr * grads.weights[l]
            readable.biases[l] -= lr * grads.biases[l]
fast = MLP(sizes, output="softmax", seed=SETTINGS.seed)
short = fit(fast, splits.X_train, splits.y_train, splits.X_val,
            splits.y_val, epochs=3, batch_size=B, lr=lr, seed=SETTINGS.seed,
            engine="fast")
gap = max(np.abs(a - b).max() for a, b in
          zip(readable.weights + readable.biases, fast.weights + fast.biases))
print(page.loops_gap_line(gap))
# the comparison needs fit to keep its last (third) epoch's weights, as the
# loop above does; the text below says the difference is rounding error (below
# 1e-9)
page.check_loops(short.best_epoch, gap)

# %% [markdown]
# Разница — ошибка округления: оба цикла получают один и тот же порядок батчей из одного
# зерна и делают одни и те же обновления; они лишь по-разному группируют операции с
# плавающей точкой.
#
# ## 6. Ширина и глубина при заявленном бюджете {#6-width-and-depth-under-a-declared-budget}
#
# Хорош ли размер [64, 32, 16, 10]? Честно ответить можно только одним способом: сначала
# зафиксировать бюджет и протокол, а потом сравнивать. Исследование сравнивает размеры из `STUDY`,
# а также `SIZES`, если в `STUDY` его нет. Здесь:
#
# * **бюджет**: каждый размер получает одни и те же {@ lab_a.epochs | counted('эпоху', 'эпохи', 'эпох', gender='f', case='acc') @} SGD, батч {@ lab_a.batch_size @},
#   скорость обучения {@ lab_a.lr @} и {@ lab_a.seeds | counted('зерно', 'зерна', 'зёрен', gender='n', case='acc') @} (инициализация и порядок батчей; разбиение у всех
#   общее). Равное число эпох — не равный объём вычислений: большая сеть делает за эпоху
#   больше арифметики, что и показывает столбец «время на эпоху»;
# * **протокол**: каждый запуск сохраняет свою лучшую эпоху по валидации; размер выбирается
#   по средней точности на валидации, а его точность на тесте сообщается уже после выбора.
#   Таблица показывает точность на тесте только для выбранного размера (в остальных строках
#   стоит «—»), чтобы выбирать по тестовому столбцу было не из чего.
#
# Разброс — выборочное стандартное отклонение по зёрнам. Время — фактическое время
# работы `fit` (вместе с проходом по валидации после каждой эпохи), измеренное на одном
# потоке, пока эта страница собиралась на общей машине: оно меняется от запуска к запуску, и
# смысл имеет только его порядок.

# %%
display(Markdown(page.study_table(report)))
print(page.chosen_size_lines(report))  # the size chosen, its test accuracy
# sizes whose every seed chose a late epoch
print(page.late_epochs_line(report))
# the text below says: the largest network was chosen, every size was still
# improving
page.check_study(report)

# %% [markdown]
# При этом бюджете самая большая сеть достигла наибольшей точности на валидации и была
# выбрана (ячейка проверяет и то, и другое). Но из этого **не** следует:
#
# * что больше — значит лучше вообще: каждый размер исследования, и самый большой тоже, при
#   каждом зерне выбрал эпоху среди последних {@ lab_a.late_epochs | counted('эпохи', 'эпох', 'эпох', gender='f', case='gen') @} (столбец «выбранные эпохи»;
#   ячейка считает такие размеры и проверяет, что это все), то есть к концу бюджета все они
#   ещё улучшались (как и в разделе 4): сравниваются сети, остановленные раньше времени, а не
#   обученные до конца, и более длинный бюджет или скорость обучения, подобранная под каждый
#   размер, могли бы переставить строки таблицы;
# * что различия реальны за пределами этого разбиения: разбросы посчитаны по зёрнам на
#   *одном* разбиении 1797 изображений; другое разбиение сдвинет каждое число;
# * ничего о времени на другом оборудовании или с большим числом потоков: время — это замеры
#   одной сборки на одном потоке.
#
# ## 7. Базовые модели на том же разбиении {#7-baselines-on-the-same-split}
#
# Точность нейронной сети сама по себе мало что значит. Эти модели scikit-learn обучены на
# тех же обучающих строках и оценены на тех же валидационных и тестовых строках:
#
# * `LogisticRegression` — линейная модель с софтмаксом, настройки scikit-learn по
#   умолчанию (штраф L2: к потерям прибавляется сумма квадратов весов, и веса остаются
#   небольшими; C = 1 задаёт его силу, чем меньше C, тем сильнее штраф);
# * `HistGradientBoostingClassifier` — градиентный бустинг решающих деревьев, настройки по
#   умолчанию;
# * `MLPClassifier` с **той же конфигурацией**, что и сеть этой лабораторной: размеры
#   (32, 16), ReLU, решатель `"sgd"` с нулевым импульсом (`momentum=0`), без штрафа на веса (`alpha=0`), батч
#   {@ lab_a.batch_size @}, постоянная скорость обучения {@ lab_a.lr @}, {@ lab_a.epochs | counted('эпоха', 'эпохи', 'эпох', gender='f') @}, один `partial_fit` на эпоху с сохранением
#   лучшей по валидации эпохи, зёрна с {@ lab_a.seed @} по {@ lab_a.seed_last @} — как у `mlp_ref`. Различаются по-прежнему
#   инициализация (scikit-learn берёт веса Глоро из равномерного распределения и ненулевые
#   смещения) и случайный порядок батчей.
#
# Две детерминированные модели обучены по одному разу; каждая строка MLP — среднее ±
# стандартное отклонение по её {@ lab_a.seeds | counted('зерну', 'зёрнам', 'зёрнам', gender='n', case='dat') @}. Время обучения измерено так же, как в
# исследовании размеров (один поток, эта сборка, от запуска к запуску оно меняется), и
# каждое значение — среднее время одного обучения.
#
# Эта таблица показывает точность на тесте у каждой модели, потому что она сравнивает
# методы, а не выбирает один из них. Каждая модель была зафиксирована до своей единственной
# оценки (MLP — лучшей эпохой по валидации, две другие — настройками по умолчанию), так что
# каждое тестовое число — честная оценка только этой модели. Выбирать по тестовому столбцу
# нельзя: наибольшее из нескольких тестовых чисел завышает качество модели, на которую оно
# указывает. Чтобы выбрать одну из этих моделей, сравните столбец валидации, а потом
# сообщите точность на тесте только выбранной.

# %%
display(Markdown(page.comparison_table(report)))

# %% [markdown]
# Два MLP совпадают по размерам, функции потерь, оптимизатору и протоколу, так что их
# точности на тесте должны совпадать с точностью до шума инициализации и порядка батчей.
# Таблица ставит их рядом, зерно за зерном; последняя строка — разность средних, которая должна
# оставаться в пределах {@ lab_a.parity_points | counted('процентного пункта', 'процентных пунктов', 'процентных пунктов', gender='m', case='gen') @} (иначе сборка падает; в вашем
# запуске ячейка предупредит):

# %%
display(Markdown(page.parity_table(report)))
print(page.parity_verdict(report))
page.check_parity(report)

# %% [markdown]
# Сравнение показывает, как эта сеть выглядит на фоне стандартных инструментов **на этом
# наборе данных, при этих настройках и без подбора гиперпараметров у кого бы то ни было**.
# Если читать цифры как строки из 64 чисел, это маленькая таблица, а на маленьких таблицах
# бустинг деревьев и линейные модели — сильные базовые модели: нейросеть должна оправдать
# свою стоимость в сравнении с ними. Время обучения — не бенчмарк скорости: `mlp_ref`
# выполняет фиксированное число эпох, логистическая регрессия доводит свой решатель до
# сходимости, бустинг строит за раунд по дереву на каждый класс, и каждое обучение здесь шло
# на одном потоке.
#
# ## 8. Тот же код на MNIST (784 входа) {#8-the-same-code-on-mnist-784-inputs}
#
# В MNIST 70 000 изображений по 28×28 = 784 пикселя: 60 000 для обучения и 10 000 для
# теста. Ничто в коде выше не зависит от того, что входов 64: `MLP([784, 128, 64, 10])`
# обучается той же `fit`. `mlp_ref.load_mnist` читает оригинальные файлы IDX (как есть или
# сжатые gzip), а `load_mnist_npz` — файл `.npz`; обе функции переводят пиксели в [0, 1]
# делением на 255, и обе протестированы на маленьких файлах, которые тесты записывают сами.
#
# Этот сайт не поставляет MNIST, и ничто на этой странице его не скачивает. Чтобы выполнить
# этот раздел, положите MNIST в папку в одном из двух видов:
#
# * четыре оригинальных файла IDX `train-images-idx3-ubyte`, `train-labels-idx1-ubyte`,
#   `t10k-images-idx3-ubyte` и `t10k-labels-idx1-ubyte` (имя каждого может оканчиваться на
#   `.gz`) из копии MNIST, которой вы доверяете; или
# * один файл `mnist.npz` с четырьмя массивами `x_train`, `y_train`, `x_test` и `y_test`
#   (так устроен `mnist.npz` из Keras): изображения формы (N, 28, 28) или (N, 784) с
#   пикселями от 0 до 255 (uint8) и метки формы (N,) с цифрами от 0 до 9.
#
# Один из способов получить `mnist.npz` использует scikit-learn **и требует подключения к
# сети**: `fetch_openml` скачивает набор данных OpenML «mnist_784» — все 70 000 изображений
# как строки по 784 пикселя, сначала обучающие изображения MNIST, а последними его
# 10 000 тестовых — и сохраняет копию в папке данных scikit-learn. Эта страница собрана без
# сети: код ниже для неё не запускался, и ни одна ячейка лабораторной его не вызывает.
# (Тесты выполняют тот же код, подставив вместо скачивания маленькую заглушку, так что
# записанный им файл `load_mnist_npz` прочитает.)
#
# ```python
# from pathlib import Path
#
# import numpy as np
# from sklearn.datasets import fetch_openml
#
# # downloads: needs a network
# mnist = fetch_openml("mnist_784", version=1, as_frame=False)
# X = mnist.data.astype(np.uint8)    # (70000, 784): 0..255, fetched as floats
# y = mnist.target.astype(np.uint8)  # (70000,): digits, fetched as "0".."9"
# folder = Path("mnist")
# folder.mkdir(exist_ok=True)
# # the last 10,000 rows are MNIST's test part
# np.savez_compressed(folder / "mnist.npz",
#                     x_train=X[:-10_000], y_train=y[:-10_000],
#                     x_test=X[-10_000:], y_test=y[-10_000:])
# ```
#
# Затем задайте `MNIST_DIR = "mnist"` в первой ячейке (путь к папке — относительный, от
# папки, в которой запущен ноутбук, или абсолютный) и снова запустите ноутбук. Ячейка ниже
# берёт эту настройку, а если она равна `None` — переменную окружения `MNIST_DIR`;
# командной строке папку передают параметром:
#
# ```bash
# MNIST_DIR=/path/to/mnist jupyter lab                 # then run this notebook
# python -m mlp_ref.labs.digits --mnist /path/to/mnist  # the same, no notebook
# ```
#
# В обоих случаях обучается `MLP([784, 128, 64, 10])` (`MNIST_SIZES`) с настройками первой
# ячейки (на этой странице: {@ lab_a.epochs | counted('эпоха', 'эпохи', 'эпох', gender='f') @}, батч {@ lab_a.batch_size @}, скорость обучения {@ lab_a.lr @}, зерно {@ lab_a.seed @}) и
# печатается та же таблица, что в разделе 4.
#
# Валидационные строки ({@ lab_a.mnist_val @}, `MNIST_VAL`) берутся из официальной *обучающей* части;
# официальная тестовая часть остаётся тестовой и используется один раз. Ячейка сообщает,
# было ли обучение на MNIST.

# %%
# the folder of the first cell's MNIST_DIR, else the environment variable
# MNIST_DIR
mnist_dir = MNIST_DIR
if mnist_dir is None:
    mnist_dir = os.environ.get(page.MNIST_ENV)
display(Markdown(page.mnist_report(mnist_dir, SETTINGS, progress=False)))

# %% [markdown]
# ## Итоги {#closing-note}
#
# Результаты этой страницы в одном месте (всё вычислено выше; `python -m
# mlp_ref.labs.digits --epochs {@ lab_a.epochs @} --seed {@ lab_a.seed @}` печатает те же таблицы — по-английски и со своими
# замерами времени):

# %%
display(Markdown(page.comparison_table(report)))
display(Markdown(page.study_table(report)))
print(page.parity_verdict(report))
print(page.mnist_status(mnist_dir))
finish(page_start)

# %% [markdown]
# ## Упражнения {#exercises}
#
# 1. Обучите сеть лабораторной 100 эпох вместо {@ lab_a.epochs @}
#    (`python -m mlp_ref.labs.digits --epochs 100 --seeds 3` или `EPOCHS = 100` и
#    `SEEDS = 3` в первой ячейке). Уходит ли выбранная эпоха от конца обучения? Меняется ли
#    точность на тесте сильнее, чем разброс по зёрнам?
#
# <details><summary>Ответ</summary>
#
# Сравните столбец «выбранные эпохи» и среднее ± стандартное отклонение в таблице
# исследования размеров с таблицей этой страницы. Если выбранные эпохи больше не в конце,
# потери на валидации начали расти, и сохранение лучшей эпохи теперь действительно важно.
# Изменение среднего меньше стандартных отклонений ни о чём не свидетельствует.
#
# </details>
#
# 2. Исследование выбрало самую большую сеть. Дайте ей честного соперника: тот же бюджет
#    по *времени*, а не по эпохам. Примерно сколько эпох успела бы пройти [64, 32, 10] за
#    то время, за которое [64, 512, 256, 10] проходит {@ lab_a.epochs | counted('эпоху', 'эпохи', 'эпох', gender='f', case='acc') @}?
#
# <details><summary>Ответ</summary>
#
# Разделите одно значение «время на эпоху» на другое и умножьте на {@ lab_a.epochs @}. Затем обучите
# маленькую сеть столько эпох (<code>--epochs N --study 64,32,10</code>) и сравните точности на
# валидации. Время меняется от запуска к запуску, так что округляйте с запасом; суть в том,
# что «равное число эпох» играет на руку сети, которая делает больше работы за эпоху.
#
# </details>
#
# 3. Почему лабораторная делит градиент последнего батча на его собственный размер, а не на {@ lab_a.batch_size @}?
#
# <details><summary>Ответ</summary>
#
# Функция потерь — среднее по батчу, значит, и её градиент — среднее. Если поделить сумму
# градиентов по примерам последнего батча на {@ lab_a.batch_size @}, этот шаг умножится на
# (размер последнего батча)/{@ lab_a.batch_size @}, то есть станет меньше: скорость обучения незаметно
# изменится для одного батча в каждой эпохе.
#
# </details>
#
# 4. Выполните раздел 8 на настоящем MNIST. Какую точность на валидации вы получили, и
#    честно ли сравнивать её с результатами на цифрах выше?
#
# <details><summary>Ответ</summary>
#
# Это другой набор данных (больше пикселей, гораздо больше обучающих строк, другие люди
# писали цифры), так что числа несравнимы: сообщайте свой результат отдельно, с его
# разбиением и зерном. Эта страница не заявляет никакой точности на MNIST, потому что
# обучения на MNIST не проводила.
#
# </details>
#
# 5. Запустите `python -m mlp_ref.labs.digits --epochs 3 --study 64,32,16,10` и сравните
#    таблицу попарного сравнения с таблицей этой страницы. Если два MLP теперь расходятся
#    намного сильнее, значит ли это, что один из них неверен?
#
# <details><summary>Ответ</summary>
#
# Не обязательно. Они стартуют с разных инициализаций: в <code>mlp_ref</code> — нормальные
# веса Хэ и нулевые смещения, в scikit-learn — равномерные веса Глоро (при этих ширинах
# слоёв у них меньше масштаб) и случайные смещения. Через несколько эпох каждый запуск всё
# ещё во многом зависит от того, откуда начал; за {@ lab_a.epochs | counted('эпоху', 'эпохи', 'эпох', gender='f', case='acc') @} оба уходят гораздо дальше.
# Согласие в пределах {@ lab_a.parity_points | counted('процентного пункта', 'процентных пунктов', 'процентных пунктов', gender='m', case='gen') @}, которое проверяет эта страница, — утверждение о
# бюджете в {@ lab_a.epochs | counted('эпоху', 'эпохи', 'эпох', gender='f', case='acc') @}, а не о любом бюджете. Чтобы проверить сам код, запустите обе
# модели с одних и тех же весов: именно это делает тест на совпадение после одного шага в
# <code>tests/test_sklearn_parity.py</code>.
#
# </details>
#
# ## Проверьте себя {#check-yourself}
#
# 1. Почему тестовую выборку оценивают только один раз, после того как выбраны эпоха и
#    размер?
#
# <details><summary>Ответ</summary>
#
# Каждый выбор, сделанный с оглядкой на выборку, немного подгоняет модель под неё. Если бы
# тестовая выборка участвовала в выборе, её точность оказалась бы завышенной, и не осталось
# бы нетронутых данных, на которых можно измерить выбранную модель.
#
# </details>
#
# 2. Проверка градиента пройдена. Доказывает ли это, что обучение сработает?
#
# <details><summary>Ответ</summary>
#
# Нет. Она показывает, что обратный проход вычисляет производную той функции потерь, которую
# вычисляет прямой проход. Неудачная скорость обучения, неудачная инициализация или функция
# потерь, не подходящая к задаче, могут провалить обучение и при безупречном градиенте.
#
# </details>
#
# 3. Таблица попарного сравнения показывает, что `mlp_ref` и `MLPClassifier` расходятся при
#    каждом зерне. Неверен ли один из них?
#
# <details><summary>Ответ</summary>
#
# Из этого не следует. Они стартуют с разных случайных весов (нормальные Хэ против
# равномерных Глоро) и видят батчи в разном порядке, а одно тестовое изображение стоит
# заметной доли процентного пункта (раздел 4 печатает, сколько именно). Сравните разности при
# каждом зерне с разбросом по зёрнам у каждой модели: разрыв такого размера — шум. Неверный градиент
# обнаружила бы проверка градиента, да и разрыв тогда был бы намного больше.
#
# </details>
#
# 4. Что пошло бы не так, если бы разбиение не было стратифицированным?
#
# <details><summary>Ответ</summary>
#
# Когда в валидационной выборке всего несколько десятков изображений каждой цифры,
# неудачное случайное разбиение могло бы оставить какой-то цифре заметно меньше изображений
# в валидационной или тестовой выборке, чем остальным; тогда точность учитывала бы цифры с
# разным весом, причём в каждой части по-своему.
#
# </details>
#
# 5. Почему все обучения идут на одном потоке?
#
# <details><summary>Ответ</summary>
#
# Чтобы числа не зависели от числа потоков BLAS (от него может меняться порядок сложений в
# матричном произведении) и чтобы время обучения разных моделей на общей машине сравнивалось
# на равных. Это ставит в невыгодное положение модели, которые умеют загружать много ядер, о
# чём сравнение и предупреждает.
#
# </details>
#
# ## Источники {#sources}
#
# * Данные цифр: E. Alpaydin, C. Kaynak. *Optical Recognition of Handwritten Digits*,
#   UCI Machine Learning Repository, 1998; входят в scikit-learn как
#   [`sklearn.datasets.load_digits`](https://scikit-learn.org/stable/modules/generated/sklearn.datasets.load_digits.html).
# * Y. LeCun, L. Bottou, Y. Bengio, P. Haffner. Gradient-based learning applied to document
#   recognition. *Proceedings of the IEEE* 86(11), 1998 (MNIST и его формат файлов IDX).
# * Набор данных OpenML 554, [`mnist_784`](https://www.openml.org/d/554) (MNIST в виде
#   70 000 строк по 784 пикселя); его читает
#   [`sklearn.datasets.fetch_openml`](https://scikit-learn.org/stable/modules/generated/sklearn.datasets.fetch_openml.html).
# * K. He, X. Zhang, S. Ren, J. Sun. Delving Deep into Rectifiers. *ICCV* 2015
#   (инициализация Хэ).
# * X. Glorot, Y. Bengio. Understanding the difficulty of training deep feedforward neural
#   networks. *AISTATS* 2010 (инициализация, которую использует `MLPClassifier`).
# * Документация scikit-learn:
#   [`MLPClassifier`](https://scikit-learn.org/stable/modules/generated/sklearn.neural_network.MLPClassifier.html),
#   [`LogisticRegression`](https://scikit-learn.org/stable/modules/generated/sklearn.linear_model.LogisticRegression.html),
#   [`HistGradientBoostingClassifier`](https://scikit-learn.org/stable/modules/generated/sklearn.ensemble.HistGradientBoostingClassifier.html),
#   [`train_test_split`](https://scikit-learn.org/stable/modules/generated/sklearn.model_selection.train_test_split.html).
# * L. Grinsztajn, E. Oyallon, G. Varoquaux. Why do tree-based models still outperform deep
#   learning on typical tabular data? *NeurIPS Datasets and Benchmarks* 2022 (деревья как
#   сильные базовые модели на табличных данных; это данные другого рода, чем изображения).
