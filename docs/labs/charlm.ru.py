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
# # Лабораторная B: символьная языковая модель
#
# **Зачем.** В этой лабораторной вы построите языковую модель Бенджио и др. (Bengio et al.,
# 2003) на уровне отдельных символов: она читает последние {@ lab_b.context_word | counted('букву', 'буквы', 'букв', gender='f', case='acc') @} имени и
# предсказывает следующую. Каждая её часть — таблица эмбеддингов, слой с tanh,
# батч-нормализация, софтмакс и обратный проход через всё это — написана на NumPy в
# `mlp_ref.labs.charlm.model`. После лабораторной вы сможете обучить эту модель на любом
# списке слов, сравнить её с базовой моделью на подсчётах и объяснить, что дали на этом
# наборе данных исправления инициализации и батч-нормализация.
#
# **Что нужно знать.** [Прямой проход](../../lessons/03-forward-pass/) (формы и кэш),
# [функции активации и выходные функции](../../lessons/04-activations-and-heads/) (насыщение
# tanh, софтмакс с перекрёстной энтропией по логитам), [обучение весов](../../lessons/05-learning-the-weights/)
# (обратный проход и его проверка конечными разностями) и
# [инициализация](../../lessons/07-initialization/) (масштаб по числу входов с усилением 5/3 для tanh,
# как у `kaiming_normal_` из PyTorch).
#
# <!-- before-you-start: lab -->
#
# Каждое число, таблица и рисунок ниже вычисляются при сборке этой страницы. Тот же
# эксперимент запускается из командной строки (точная команда напечатана ниже):
# `python -m mlp_ref.labs.charlm --steps N --seed S` или с `--words FILE` для собственного списка слов.
#
# **Ваш собственный запуск.** В первой ячейке собраны настройки — обычные присваивания.
# Измените любую из них — или укажите в `WORDS_FILE` собственный список слов — и запустите
# весь ноутбук. Текст описывает запуск этой страницы (имена из переписи, эти настройки); там,
# где он утверждает что-то о результате, ячейка проверяет это утверждение на вашем запуске и
# печатает предупреждение, если ваш запуск с ним расходится: что нашёл запуск
# страницы и что нашёл ваш. Первая настройка, `LANGUAGE`, задаёт язык таблиц, рисунков и
# сообщений ноутбука.

# %%
# Настройки запуска: значения страницы (они же — по умолчанию у команды).
LANGUAGE = "ru"      # язык таблиц, рисунков и сообщений: "ru" или "en"
# None — имена из переписи США; или путь к текстовому файлу, по слову в строке
WORDS_FILE = None
# True — взять словарь из символов WORDS_FILE (по умолчанию — буквы a–z)
BUILD_VOCAB = False
# True — перевести все слова WORDS_FILE в нижний регистр ("Emma" станет "emma")
LOWERCASE = False
STEPS = 4000         # шагов SGD на модель; с середины скорость вдесятеро ниже
SEED = 0             # делит слова; модели: зёрна SEED, SEED + 1, ...
SEEDS = 3            # моделей на вариант
CONTEXT = 3          # сколько предыдущих символов видит модель
EMBEDDING = 10       # ширина эмбеддинга одного символа
HIDDEN = 100         # ширина слоя с tanh
BATCH_SIZE = 32      # окон на шаг SGD
LEARNING_RATE = 0.1  # на первую половину шагов
BN_MOMENTUM = 0.01   # импульс скользящих статистик батч-нормализации
ALPHA = 1.0          # псевдосчётчик биграмм (сглаживание с добавлением alpha)
SAMPLES = 20         # сколько слов сгенерировать выбранной моделью

# %%
import math
import time

import numpy as np
from IPython.display import Markdown, display

from mlp_ref.labs.charlm.data import load_word_list, window_rows
from mlp_ref.labs.charlm.experiment import (VARIANTS, CharLMReport,
                                            CharLMSettings, VariantResult,
                                            prepare_data)
from mlp_ref.labs.charlm.model import (cross_entropy, evaluate, fit_bigram,
                                       forward, init_char_mlp, train)
from mlp_ref.labs.notebook import begin, finish
# what the cells show, in the notebook's language: page.* the tables, lines and
# checks of the page's statements (mlp_ref/labs/charlm/report.py), figures.*
# the figures
from mlp_ref.labs.charlm import figures
from mlp_ref.labs.charlm import report as page

SETTINGS = CharLMSettings(steps=STEPS, seed=SEED, n_seeds=SEEDS,
                          context=CONTEXT, emb_dim=EMBEDDING, hidden=HIDDEN,
                          batch_size=BATCH_SIZE, lr=LEARNING_RATE,
                          momentum=BN_MOMENTUM, alpha=ALPHA, n_samples=SAMPLES)
# the language, and whether this is the page's run; prints the same run's
# command line
command = page.command_line(SETTINGS, WORDS_FILE, BUILD_VOCAB, LOWERCASE)
page_start = begin(LANGUAGE, SETTINGS, CharLMSettings(), command,
                   own_data=WORDS_FILE is not None)

# %% [markdown]
# ## 1. Данные: имена из переписи населения США {#1-the-data-us-census-first-names}
#
# Пакет `names` из PyPI содержит списки женских и мужских имён из переписи населения США
# 1990 года. `load_census_names` читает оба файла из установленного пакета (без сети),
# переводит имена в нижний регистр, оставляет только те, что состоят из букв a–z, и убирает
# повторы (имя из обоих списков учитывается один раз). Затем слова перемешиваются с заданным
# зерном генератора и делятся в пропорции {@ lab_b.split_percent @} (в процентах) на обучающую, валидационную и тестовую
# выборки.
#
# Если в первой ячейке задан `WORDS_FILE`, ячейка вместо этого читает ваш файл — в точности
# так же, как параметр командной строки `--words`: одно слово на строку, пробельные символы по
# краям обрезаются, повторы отбрасываются до разбиения. Регистр не меняется, если не задать
# `LOWERCASE = True` (`--lowercase`). Символ не из букв a–z — ошибка, и сообщение перечислит
# строки с такими символами, нумеруя их с 1, как это делает редактор; с `BUILD_VOCAB = True`
# (`--build-vocab`) словарь берётся из самого файла.
#
# *Окно* — это один обучающий пример: предыдущие `context` символов и символ, который идёт
# за ними. Слово длины L даёт L + 1 окон, потому что модель должна предсказать ещё и конец
# слова.

# %%
# the words and vocabulary that `--words WORDS_FILE` (`--build-vocab`,
# `--lowercase`) would select:
words, vocab = load_word_list(WORDS_FILE, build_vocab=BUILD_VOCAB,
                              lowercase=LOWERCASE)
splits, windows = prepare_data(words, SETTINGS, vocab)
n_unique = sum(len(part) for part in splits.values())
# how many words, from where, and the vocabulary:
print(page.data_line(n_unique, WORDS_FILE, vocab))
display(Markdown(page.data_table(splits, windows)))

# %% [markdown]
# ## 2. Словарь и контекстные окна {#2-vocabulary-and-context-windows}
#
# Токен `.` имеет индекс 0 и играет две роли: как заполнитель он означает «слово ещё не
# началось», а как цель — «здесь слово кончается». Вот окна одного имени (для вашего списка
# слов — его первого обучающего слова, если в списке нет «emma»):

# %%
example = "emma" if "emma" in words else splits["train"][0]
rows = [[ctx, nxt]
        for ctx, nxt in window_rows(example, vocab, SETTINGS.context)]
display(Markdown(page.windows_table(rows, SETTINGS.context)))

# %% [markdown]
# ## 3. Модель {#3-the-model}
#
# Для батча из B окон `X` формы (B, {@ lab_b.context @}) — это целочисленные индексы — модель вычисляет
#
# $$
# \begin{aligned}
# E &= C[X] &&(B, {@ lab_b.context @}, {@ lab_b.emb @}) && C \in \mathbb{R}^{V \times {@ lab_b.emb @}}\\
# x &= \operatorname{reshape}(E) &&(B, {@ lab_b.fan_in @}) && \text{склейка {@ lab_b.context_word | counted('эмбеддинга', 'эмбеддингов', 'эмбеддингов', gender='m', case='gen') @}}\\
# a &= x W_1 + b_1 &&(B, H) && W_1 \in \mathbb{R}^{{@ lab_b.fan_in @} \times H}\\
# h &= \tanh(a) &&(B, H)\\
# z &= h W_2 + b_2 &&(B, V) && W_2 \in \mathbb{R}^{H \times V}\\
# L &= \tfrac{1}{B} \textstyle\sum_i \bigl(\log \sum_j e^{z_{ij}} - z_{i, y_i}\bigr)
# \end{aligned}
# $$
#
# С **батч-нормализацией** (batch normalization; в таблицах и на графиках ниже — BN)
# преактивация перед tanh стандартизуется отдельно для каждого скрытого нейрона: $\hat a = (a - \mu_B)/\sqrt{\sigma_B^2 + \epsilon}$ и
# $a' = \gamma \odot \hat a + \beta$, всё формы (B, H). При обучении $\mu_B$ и
# $\sigma_B^2$ — среднее и дисперсия по батчу; при оценке вместо них берутся скользящие
# средние, которые обновляются после каждого шага:
# $\text{скользящее} \leftarrow (1 - m)\,\text{скользящее} + m\,\text{по батчу}$, где $m$ — коэффициент импульса (momentum) скользящего среднего.
# Смещение $b_1$ убрано: вычитание $\mu_B$ уничтожает любую константу, прибавленную к $a$, и
# его работу берёт на себя $\beta$.
#
# Обратный проход написан вручную. Единственный необычный шаг в нём — таблица эмбеддингов:
# градиент по $E$, формы (B, {@ lab_b.context @}, {@ lab_b.emb @}), *прибавляется* к тем строкам $C$, которые были
# выбраны (`np.add.at`), так что буква, встретившаяся в батче дважды — или дважды в одном
# окне, — получает оба вклада. Тесты сверяют градиент каждого параметра с конечными
# разностями (относительная ошибка ниже 1e-6 в float64, с батч-нормализацией и без неё), а
# если установлен PyTorch — ещё и один полный шаг обучения с автоматическим
# дифференцированием PyTorch (autograd).

# %% [markdown]
# ### Эмбеддинг — это слой {#the-embedding-is-a-layer}
#
# Поиск по таблице $C[X]$ — это замаскированный [слой](../../lessons/01-neuron-and-layer/#the-math).
# Запишите каждый индекс как строку **one-hot**: вектор длины V с 1 на месте индекса и 0 во
# всех остальных позициях. Окна превращаются в $\operatorname{onehot}(X)$ формы (B, {@ lab_b.context @}, V), и
#
# $$
# C[X] = \operatorname{onehot}(X)\, C \qquad (B, {@ lab_b.context @}, V) \cdot (V, {@ lab_b.emb @}) \to (B, {@ lab_b.context @}, {@ lab_b.emb @}),
# $$
#
# потому что строка one-hot, умноженная на $C$, выбирает из $C$ ровно одну строку. Значит,
# эмбеддинг — это слой $Z = XW + b$ из урока 1 со входом $\operatorname{onehot}(X)$,
# весами $W = C$ и без смещения, применённый в каждой из {@ lab_b.context_word | counted('позиции', 'позиций', 'позиций', gender='f', case='gen') @} с одной и той же $C$.
# Поиск по таблице — просто быстрый способ вычислить это произведение: произведение тратит V
# умножений на каждый элемент результата, и все они, кроме одного, — умножения на ноль, а
# поиск копирует ту единственную строку, которая важна. Отсюда же понятно и сложение по
# индексам (scatter-add):
# градиент весов слоя равен $X^\top \Delta$, а при входах one-hot произведение
# $\operatorname{onehot}(X)^\top \Delta$ прибавляет каждую строку $\Delta$ к той строке
# $C$, которую выбрал её индекс. Ячейка проверяет и то, и другое на одном батче обучающих
# окон:

# %%
config = SETTINGS.config(vocab.size, "kaiming", False)
C = init_char_mlp(config, SETTINGS.seed).params["C"]       # (V, E)
# (B, context): indices
X_batch = windows["train"][0][:SETTINGS.batch_size]
# (B, context, V): 1 at each
one_hot = np.eye(vocab.size)[X_batch]
# both (B, context, E)
by_lookup, by_product = C[X_batch], one_hot @ C
assert by_lookup.shape == by_product.shape
assert np.allclose(by_lookup, by_product, rtol=0, atol=1e-12), \
    "C[X] must equal onehot(X) @ C"
rng = np.random.default_rng(SETTINGS.seed)
upstream = rng.normal(size=by_lookup.shape)                # any gradient of E
scatter = np.zeros_like(C)
# what the backward pass does
np.add.at(scatter, X_batch, upstream)
# X^T Delta, (V, E):
layer_grad = (one_hot.reshape(-1, vocab.size).T
              @ upstream.reshape(-1, C.shape[1]))
assert np.allclose(scatter, layer_grad, rtol=1e-12, atol=1e-12), \
    "scatter-add must equal onehot(X)^T Delta"
# both equalities held: the assertions passed
print(page.lookup_lines(by_lookup.shape, scatter.shape))

# %%
for batch_norm in (False, True):
    config = SETTINGS.config(vocab.size, "kaiming", batch_norm)
    model = init_char_mlp(config, 0)
    shapes = ", ".join(f"{name} {value.shape}"
                       for name, value in model.params.items())
    print(page.parameters_line(batch_norm, model.n_parameters(), shapes))

# %% [markdown]
# ## 4. Инициализация {#4-initialization}
#
# ### Потери на шаге 0 {#the-loss-at-step-0}
#
# До обучения модель ничего не знает, поэтому честное предсказание — равномерное по V
# токенам, и потери у него равны $\ln V$. *Наивная* инициализация (каждый вес и каждое
# смещение — из стандартного нормального распределения) вместо этого даёт большие случайные
# логиты: модель уверенно ошибается, и её первые потери намного выше $\ln V$. Если
# умножить $W_2$ на 0.01 и обнулить $b_2$, логиты станут почти равными, и первые потери
# окажутся рядом с $\ln V$:

# %%
X_train, Y_train = windows["train"]
step0 = {}  # the training loss at step 0 of each initialization
for init in ("naive", "scaled_output"):
    config = SETTINGS.config(vocab.size, init, False)
    model = init_char_mlp(config, SETTINGS.seed)
    step0[init] = evaluate(model, X_train, Y_train)
# and ln V, the loss of a uniform prediction:
display(Markdown(page.step0_table(step0, vocab.size)))

# One draw of the weights is one sample: on average over draws the step-0 loss
# is at least ln V (cross entropy is convex in the logits, whose average is 0),
# but one draw can start a little below it. How often, and by how much at most,
# over 20 seeds:
ln_V = math.log(vocab.size)
below = {}
for init in ("scaled_output", "kaiming"):
    config = SETTINGS.config(vocab.size, init, False)
    # (20,) the step-0 loss of 20 seeds, minus ln V
    gaps = np.array([evaluate(init_char_mlp(config, seed), X_train, Y_train)
                     for seed in range(20)]) - ln_V
    below[init] = int(np.sum(gaps < 0))
    print(page.below_ln_v_line(init, below[init], gaps.size, -gaps.min(),
                               gaps.max()))
# the text says: some seeds start below ln V, some above
page.check_step0(below, 20)

# %% [markdown]
# ### Насыщенные нейроны tanh {#saturated-tanh-units}
#
# У скрытого слоя та же проблема, только уровнем ниже. Когда и $C$, и $W_1$ взяты из
# стандартного нормального распределения, каждый элемент $x W_1$ — сумма {@ lab_b.fan_in | counted('произведения', 'произведений', 'произведений', gender='n', case='gen') @} чисел с
# единичной дисперсией: его дисперсия в среднем по случайному выбору весов равна {@ lab_b.fan_in @}
# (стандартное нормальное смещение добавляет к дисперсии преактивации ещё единицу), и
# выходы tanh скапливаются у ±1, где производная $1 - h^2$ почти равна нулю и градиент почти
# не проходит. Если масштабировать $W_1$ усилением 5/3 для tanh (как у `kaiming_normal_` из PyTorch), делённым
# на корень из числа входов (fan-in), $\tfrac{5/3}{\sqrt{{@ lab_b.fan_in @}}}$, преактивации вернутся в
# диапазон, где у tanh ещё есть наклон. Инициализация `"kaiming"` также умножает $b_1$ на
# 0.01: смещение из стандартного нормального распределения само по себе добавляло бы к
# каждой преактивации разброс 1, сравнимый с разбросом масштабированного $x W_1$ (последний
# столбец таблицы). Батч-нормализация приходит к тому же результату с другой стороны: она
# приводит преактивацию каждого нейрона к единичной дисперсии, какой бы ни была $W_1$. Ниже —
# доля выходов скрытого слоя с $|h| > 0.97$ на обучающих окнах до всякого обучения и разброс
# $x W_1$, измеренный на этой одной реализации весов:

# %%
sat_rows, hidden = [], []
fan_in = SETTINGS.context * SETTINGS.emb_dim  # width of x: CONTEXT x EMBEDDING
# W1 ~ N(0, 1); W1 ~ N(0, 1) x (5/3)/sqrt(fan_in) and b1 x 0.01; W1 ~ N(0, 1),
# then batch norm:
inits = (("scaled_output", False), ("kaiming", False), ("scaled_output", True))
for init, batch_norm in inits:
    config = SETTINGS.config(vocab.size, init, batch_norm)
    model = init_char_mlp(config, SETTINGS.seed)
    # batch norm: the statistics of the whole split
    _, cache = forward(model, X_train, training=True)
    hidden.append(cache.h)  # (N, H)
    # the spread of x W1, before the bias and the tanh:
    pre_std = float((cache.x @ model.params["W1"]).std())
    saturated = float(np.mean(np.abs(cache.h) > 0.97))
    sat_rows.append((init, batch_norm, saturated, pre_std))
display(Markdown(page.saturation_table(sat_rows, fan_in)))
# with N(0, 1) weights; with the Kaiming scale:
print(page.expected_std_line(fan_in, math.sqrt(fan_in), 5 / 3))

# the figure's code: mlp_ref/labs/charlm/figures.py
figures.show_hidden_histograms(hidden[:2], sat_rows[:2], fan_in)

# %% [markdown]
# *Рисунок: гистограммы выходов скрытого слоя при инициализации (первые две строки
# таблицы). Слева — $W_1$ из стандартного нормального распределения: масса скапливается у −1
# и +1 (насыщенные нейроны). Справа — $W_1$ в масштабе по числу входов с усилением 5/3: выходы распределены по
# всему интервалу.*
#
# Исправления инициализации, которые используются ниже, — это всё перечисленное вместе (init
# `"kaiming"` в `CharMLPConfig`): выходной слой уменьшен ($W_2 \times 0.01$, $b_2 = 0$),
# $W_1$ масштабирована усилением 5/3, делённым на корень из числа входов, а $b_1$
# умножено на 0.01.
#
# ## 5. Обучение {#5-training}
#
# В эксперименте {@ lab_b.variants | counted('вариант', 'варианта', 'вариантов', gender='m') @} MLP, каждый обучен {@ lab_b.seeds | counted('раз', 'раза', 'раз', gender='m', case='acc') @} (с разными зёрнами генератора) на одном и том же
# разбиении: наивная инициализация или исправленная, и каждая — без батч-нормализации и с
# ней. Каждая модель делает одно и то же число шагов SGD на батчах по {@ lab_b.batch_size | counted('окну', 'окна', 'окон', gender='n', case='dat') @};
# на полпути скорость обучения падает в {@ lab_b.lr_drop_n | counted('раз', 'раза', 'раз', gender='m', case='acc') @}. Базовая модель — биграммная: она считает
# пары (предыдущая буква, следующая буква) в обучающей выборке, прибавляет единицу к каждому
# счётчику (сглаживание добавлением единицы) и предсказывает только по предыдущей букве.
#
# Ячейка ниже и есть этот эксперимент. Её строки — тело `run_lab`, той самой функции, которую
# вызывает командная строка (тест следит, чтобы вызовы в них были одни и те же и в том же
# порядке), поэтому таблицы ниже — одновременно и вывод команды.

# %%
train_start = time.perf_counter()
# run_lab's lines, the command line's experiment (it adds a progress bar)
# the baseline
bigram = fit_bigram(*windows["train"], vocab.size, alpha=SETTINGS.alpha)
variants = []
# naive init or fixes; without, with BN
for label, init, batch_norm in VARIANTS:
    config = SETTINGS.config(vocab.size, init, batch_norm)
    models = [init_char_mlp(config, seed) for seed in SETTINGS.seeds]
    curves = [train(model, *windows["train"], steps=SETTINGS.steps, seed=seed,
                    batch_size=SETTINGS.batch_size, base_lr=SETTINGS.lr)
              for model, seed in zip(models, SETTINGS.seeds)]  # each (steps,)
    # every model's loss on the train, validation and test windows
    variants.append(VariantResult.evaluated(label, config, models, curves,
                                            windows))
# the variant chosen by mean validation loss, and the names sampled from it
report = CharLMReport.collect(SETTINGS, words, vocab, splits, windows, bigram,
                              variants)
seconds = time.perf_counter() - train_start
print(page.trained_line(len(report.variants) * SETTINGS.n_seeds, seconds))

# %%
# the first seed of each variant; the code: mlp_ref/labs/charlm/figures.py
figures.show_training_curves(report)

# %% [markdown]
# *Рисунок: потери на обучении каждого варианта при одном зерне (логарифмический масштаб)
# на фоне потерь биграммной модели на валидации (штриховая линия). Кривые с наивной
# инициализацией начинаются гораздо выше и тратят первые шаги на то, чтобы исправить
# последствия инициализации; пунктирная линия отмечает падение скорости обучения в {@ lab_b.lr_drop_n | counted('раз', 'раза', 'раз', gender='m', case='acc') @}.*
#
# ## 6. Результаты {#6-results}
#
# Потери — это средняя перекрёстная энтропия на символ в натах (с натуральным логарифмом, как
# везде в курсе; биты считались бы по логарифму с основанием 2), вычисленная со скользящими
# статистиками батч-нормализации; каждая ячейка MLP — среднее ± стандартное отклонение по
# {@ lab_b.seeds | counted('зерну', 'зёрнам', 'зёрнам', gender='n', case='dat') @}. Модель выбирается только по потерям на валидации, а таблица
# показывает потери на тесте только для выбранной модели (ячейка обучения вычисляет их для
# каждой модели, но по ним ничего не выбирается).

# %%
display(Markdown(page.results_table(report)))

# %%
val = {r.label: r.val_loss for r in report.variants}
# each (n_seeds,)
naive, fixed = val["MLP, naive init"], val["MLP, init fixes"]
bn_naive = val["MLP + batch norm, naive init"]
bn_fixed = val["MLP + batch norm, init fixes"]
bigram_val = report.bigram_loss["val"]
# per seed, one variant's validation loss minus the other's; each printed as
# its mean and range
differences = {"init fixes vs naive init, no batch norm": fixed - naive,
               "batch norm vs none, naive init": bn_naive - naive,
               "batch norm vs none, with init fixes": bn_fixed - fixed}
best_vs_bigram = min(v.mean() for v in val.values()) - bigram_val
print(page.differences_lines(differences, best_vs_bigram=best_vs_bigram))

# The text below states five of these directions: page.check_findings checks
# each on this run (the site build fails if the page's own run reverses one; in
# your run, one that does not hold warns).
page.check_findings(report)

# %% [markdown]
# Что говорят таблица и попарные разности — для этого набора данных и этих настроек (бюджет
# шагов выбран так, чтобы страница собиралась быстро; более долгое обучение меняет разрывы, и
# упражнение 4 предлагает измерить, как именно):
#
# * **MLP обходит биграммную модель**, если сеть разумно инициализирована (так при каждом
#   зерне): {@ lab_b.context_word | counted('буква', 'буквы', 'букв', gender='f') @} контекста несут информацию, которой нет в одной предыдущей букве. С
#   наивной инициализацией и этим бюджетом шагов сеть её не обходит: при каждом зерне она заканчивает выше.
# * **Важнее всего исправления инициализации.** С наивной инициализацией сеть тратит первые
#   шаги на то, чтобы уменьшить огромные логиты, и обучается с насыщенными нейронами tanh,
#   чьи градиенты почти нулевые; за то же число шагов она заканчивает далеко позади, и её
#   результаты при разных зёрнах расходятся сильнее (разброс больше).
# * **В пределах этого бюджета, {@ lab_b.steps_n | counted('шаг', 'шага', 'шагов', gender='m') @}, батч-нормализация отчасти спасает наивную
#   инициализацию**: она стандартизует преактивации при любом масштабе $W_1$, так что нейроны
#   tanh больше не насыщены (третья строка таблицы насыщения в разделе 4). Исправить выходной
#   слой она не может, потому что его не трогает, и сеть с наивной инициализацией и
#   батч-нормализацией всё равно заканчивает позади сети с исправлениями. Это утверждение о
#   бюджете: за большее число шагов наивная сеть сама исправляет бо́льшую часть своей
#   инициализации, и порядок двух строк с наивной инициализацией может смениться (упражнение 4
#   это измеряет).
# * **Поверх исправлений инициализации батч-нормализация здесь не помогла: стало даже
#   немного хуже.** У этой сети один скрытый слой, и его масштаб исправления уже задали
#   правильно, так что держать этот масштаб в нужных пределах (одна из вещей, которые делает
#   батч-нормализация) здесь уже не требовалось. Почему она немного вредит, этот
#   опыт не решает. Из того, как она устроена, следуют два кандидата: скрытые нейроны каждого
#   окна зависят от {@ lab_b.other_windows | counted('другого окна', 'других окон', 'других окон', gender='n', case='gen') @} его батча (шум при обучении), а при
#   оценке используются скользящие средние, а не статистики самого батча. Ячейка ниже
#   проверяет второй.

# %%
bn_fixes = next(r for r in report.variants
                if r.label == "MLP + batch norm, init fixes")
bn_model = bn_fixes.models[0]
# the statistics of the whole training split:
logits, _ = forward(bn_model, X_train, training=True)
full_stats = cross_entropy(logits, Y_train)[0]
running = evaluate(bn_model, X_train, Y_train)
# and their difference
print(page.running_statistics_line(running, full_stats))
# the text below says: within a tenth of the gap between the two "init fixes"
# rows
page.check_running_statistics(report, running, full_stats)

# %% [markdown]
# Две величины потерь различаются меньше чем на десятую часть разрыва между двумя строками с
# исправленной инициализацией (ячейка это проверяет), так что скользящие средние не виноваты.
# Остаются кандидаты, которые эта лабораторная не проверяет. Один — шум, который
# батч-нормализация добавляет при обучении: градиент каждого окна зависит от остальных окон
# его батча (проверкой было бы обучение со статистиками всей обучающей выборки). Другой — её
# инвариантность к масштабу: от неё зависит, как быстро при данной скорости обучения
# меняется направление $W_1$ (упражнение 4). Какой бы ни была причина, результат относится к данной маленькой
# неглубокой модели и данному бюджету шагов. Батч-нормализацию предложили для глубоких сетей,
# чтобы уменьшить то, что авторы назвали внутренним ковариатным сдвигом: изменение
# распределения входов каждого слоя, пока обучаются слои под ним; там она позволила брать
# гораздо бо́льшие скорости обучения (Иоффе и Сегеди, 2015). Это объяснение оспорено.
# Сантуркар и др. (2018) добавляли после каждого слоя батч-нормализации шум, который
# нарочно смещал эти распределения, и сети обучались почти так же хорошо; они объясняют её
# пользу иначе — более гладкой функцией потерь (потери и их градиент меньше меняются за
# шаг). Ни одно из этих объяснений здесь не проверяется.
#
# ## 7. Придуманные имена {#7-invented-names}
#
# Генерация начинается с контекста `. . .`: модель выбирает следующую букву из предсказанного
# распределения, окно сдвигается, и так до тех пор, пока модель не выберет `.`. Слова ниже
# сгенерированы выбранной моделью, обученной с первым зерном; имя считается придуманным, если его нет среди
# слов обучающей выборки.

# %%
display(Markdown(page.samples_line(report)))
display(Markdown(page.samples_table(report.samples, splits["train"])))

# %% [markdown]
# ## 8. Эмбеддинги символов на плоскости {#8-the-character-embeddings-in-2-d}
#
# Каждая строка $C$ помещает один символ в {@ lab_b.emb @}-мерное пространство. Чтобы на него
# посмотреть, спроецируйте строки на их первые две главные компоненты — два перпендикулярных
# направления, вдоль которых центрированные строки разбросаны сильнее всего (они вычисляются
# сингулярным разложением центрированной таблицы, `numpy.linalg.svd`); напечатанная доля дисперсии говорит,
# какую часть картины сохраняет проекция.

# %%
C = report.chosen_variant.models[0].params["C"]
centred = C - C.mean(axis=0)
U, S, Vt = np.linalg.svd(centred, full_matrices=False)
points = centred @ Vt[:2].T  # (V, 2)
share = (S[:2] ** 2).sum() / (S ** 2).sum()
print(page.pca_share_line(share))
# the figure's code: mlp_ref/labs/charlm/figures.py
figures.show_embeddings(points, vocab.chars, report.chosen_variant.label)

# %% [markdown]
# *Рисунок: эмбеддинг каждого символа, спроецированный на две главные компоненты; гласные (и
# y) оранжевым, согласные синим, токен начала и конца — чёрным.*
#
# Не читайте по этому рисунку, какие символы соседствуют. Он показывает таблицу одного зерна
# в двух измерениях из {@ lab_b.emb @}, а ячейка ниже измеряет для каждого из {@ lab_b.seeds | counted('зерна', 'зёрен', 'зёрен', gender='n', case='gen') @} выбранного
# варианта, насколько ему можно верить: сколько символов имеют на рисунке того же ближайшего
# соседа, что и среди строк $C$, и сколько гласных имеют ближайшей строкой $C$ гласную.

# %%
# every seed of the chosen variant: nearest neighbours in its embedding C and
# in C's 2-D projection
models = report.chosen_variant.models  # one per seed
neighbours = page.embedding_neighbours(models, vocab.chars)
print(page.neighbours_lines(neighbours))
# the text below says: fewer than half agree; the vowels' count varies by seed
page.check_embeddings(neighbours)

# %% [markdown]
# При каждом зерне меньше половины символов сохраняют на проекции своего ближайшего соседа, а
# то, соседствуют ли гласные с гласными в {@ lab_b.emb @}-мерной таблице, меняется от зерна к зерну
# (ячейка выше проверяет и то, и другое). Поэтому из этой лабораторной не следует, что символы,
# встречающиеся в одних и тех же контекстах, оказываются рядом: при этом бюджете шагов и
# {@ lab_b.seeds | counted('зерне', 'зёрнах', 'зёрнах', gender='n', case='pre') @} измеренные соседства недостаточно устойчивы, чтобы их читать. Чтобы
# проверить такое прочтение, нужны больше зёрен, более долгое обучение и мера, выбранная заранее.
#
# ## 9. Скорость {#9-speed}
#
# Шаг обучения здесь — это несколько небольших матричных произведений и поэлементных
# операций. `mlp_ref.labs.charlm.speed` замеряет один шаг (контекст {@ lab_b.speed_context @}, эмбеддинг {@ lab_b.speed_emb @}, скрытый
# слой {@ lab_b.speed_hidden @}, батч {@ lab_b.speed_batch @}, float64, без батч-нормализации, случайные окна в словаре из {@ lab_b.speed_vocab | counted('токена', 'токенов', 'токенов', gender='m', case='gen') @};
# размеры фиксированы, какими бы ни были настройки выше) этого кода на NumPy против той же
# модели на PyTorch с autograd на CPU. Запуски чередуются, каждая сторона работает в один
# поток (второй поток при таких размерах не помогает, а простаивающие потоки, крутящиеся в
# ожидании на общей машине, делают замеры зависимыми от нагрузки). Ячейка ниже делает
# короткий прогон этого измерения; `make bench` в репозитории выполняет полный бенчмарк тем
# же кодом. PyTorch необязателен: если его нет, ячейка так и скажет.

# %%
from mlp_ref.labs.charlm.speed import (median_step_times, numpy_runner,
                                       speed_config, speed_windows,
                                       torch_runner)

try:
    import torch
except ModuleNotFoundError:
    torch = None
if torch is None:
    ratio = None
    print(page.no_torch_line())  # and how to measure it
else:
    Xb, Yb = speed_windows(0)  # random windows over the timed model's tokens
    config = speed_config(batch_norm=False, dtype="float64")
    # short alternating runs: a burst of load hits both sides
    steps, repeats = 20, 15
    runners = [numpy_runner(config, Xb, Yb),
               torch_runner(torch, config, Xb, Yb)]
    mine, theirs = median_step_times(runners, steps, repeats)
    ratio = mine / theirs
    # in µs per step, and the ratio:
    print(page.speed_line(mine, theirs, torch.__version__, repeats, steps))

# %% [markdown]
# Короткие замеры на общей машине шумны; `make bench` выполняет полный бенчмарк (больше
# повторов, а также float32 и батч-нормализация). Отношение относится только к этой
# маленькой модели на той машине, где выполнялась ячейка; о больших моделях оно ничего не
# говорит.
#
# ## Итоги {#closing-note}
#
# Результаты, сгенерированные слова и отношение скоростей в одном месте (всё — из ячеек
# выше):

# %%
display(Markdown(page.results_table(report)))
display(Markdown(page.samples_line(report)))
print(page.speed_ratio_line(ratio))
finish(page_start)

# %% [markdown]
# ## Упражнения {#exercises}
#
# 1. Обучите модель с `--context 5` (или `CONTEXT = 5` в первой ячейке). Уменьшаются ли
#    потери на валидации, и сильнее ли, чем разброс по зёрнам?
#
# <details><summary>Ответ</summary>
#
# Запустите <code>python -m mlp_ref.labs.charlm --context 5</code> и сравните строку
# «MLP, исправленная инициализация» с таблицей этой страницы; разница меньше стандартных
# отклонений по зёрнам ни о чём не свидетельствует.
#
# </details>
#
# 2. Почему батч-нормализация может сделать лишним $b_1$, но не $b_2$?
#
# <details><summary>Ответ</summary>
#
# $b_1$ прибавляется прямо перед вычитанием среднего по батчу, поэтому в точности
# сокращается, а его роль берёт на себя $\beta$. $b_2$ стоит после tanh и выходного слоя,
# где ничего не нормализуется.
#
# </details>
#
# 3. Сглаживание прибавляет `alpha` к каждому счётчику биграмм. Попробуйте `--alpha 0.01` и
#    `--alpha 3` (`ALPHA` в первой ячейке) и объясните, в какую сторону меняются потери
#    биграммной модели на валидации.
#
# <details><summary>Ответ</summary>
#
# Сглаживание защищает от пар (предыдущая, следующая), которые ни разу не встретились в
# обучающей выборке: без него такая пара получает нулевую вероятность и бесконечные потери.
# Посчитайте, сколько валидационных окон содержат невиданную пару (например, с помощью
# <code>fit_bigram</code> с крошечным <code>alpha</code>, а затем поищите окна с наибольшими
# потерями). Когда почти каждая валидационная пара встречалась при обучении, меньшее
# сглаживание лучше подходит к данным, а большое <code>alpha</code> тянет каждую строку
# таблицы к равномерному распределению.
#
# </details>
#
# 4. Повторите эксперимент с бюджетом в {@ lab_b.long_factor | counted('раз', 'раза', 'раз', gender='m', case='acc') @} больше:
#    `python -m mlp_ref.labs.charlm --steps {@ lab_b.long_steps | as_code @} --seeds 2` (или `STEPS = {@ lab_b.long_steps | as_code @}` и
#    `SEEDS = 2` в первой ячейке; тогда ячейки раздела 6 предупредят о каждом утверждении,
#    которое больше не выполняется). Какие утверждения раздела 6 по-прежнему верны?
#
# <details><summary>Ответ</summary>
#
# Прежде чем считать разрыв реальным, сравните его с разбросом по зёрнам. Один эффект, на
# который стоит посмотреть: батч-нормализация делает потери независимыми от масштаба $W_1$,
# поэтому градиент по $W_1$ убывает как $1/\lVert W_1 \rVert$, а шаг поворачивает $W_1$ на
# долю, которая убывает как $1/\lVert W_1 \rVert^2$. Наивная $W_1$ больше масштабированной по
# числу входов в $\sqrt{{@ lab_b.fan_in @}}/(5/3)$ раз, так что с батч-нормализацией её направление при той же
# скорости обучения меняется медленнее. Проверьте, выигрывает ли от более долгого обучения
# наивная сеть без батч-нормализации больше, чем её двойник с батч-нормализацией, и
# остаётся ли разрыв между двумя строками с исправленной инициализацией больше разброса по
# зёрнам.
#
# </details>
#
# ## Проверьте себя {#check-yourself}
#
# 1. Первые потери при наивной инициализации намного выше $\ln V$. Что означали бы потери
#    *ниже* $\ln V$ на шаге 0?
#
# <details><summary>Ответ</summary>
#
# Не меньше $\ln V$ обязано быть только *среднее* по случайным реализациям весов:
# перекрёстная энтропия выпукла по логитам, а когда $W_2$ и $b_2$ распределены вокруг нуля,
# средние логиты все равны, что и даёт ровно $\ln V$. Одна реализация может случайно начать
# чуть ниже; раздел 4 считает, как часто это случается с инициализациями этой страницы и
# насколько. Потери *намного* ниже $\ln V$ на шаге 0 означают, что необученная модель уже
# предпочитает правильные символы: заподозрите, что в оценку утекает информация из
# обучающих данных.
#
# </details>
#
# 2. Почему потери на тестовой выборке сообщаются только для одной модели?
#
# <details><summary>Ответ</summary>
#
# Выбор между моделями по потерям на тесте превратил бы тестовую выборку во вторую
# валидационную, и сообщённое число было бы оптимистичным. Выбор делается по потерям на
# валидации; тестовая выборка используется один раз, для выбранной модели.
#
# </details>
#
# ## Источники {#sources}
#
# * Y. Bengio, R. Ducharme, P. Vincent, C. Jauvin. A Neural Probabilistic Language Model.
#   *JMLR* 3, 2003.
# * K. He, X. Zhang, S. Ren, J. Sun. Delving Deep into Rectifiers. *ICCV* 2015 — инициализация
#   Хэ (He); усиление 5/3 для tanh — как в `torch.nn.init.calculate_gain`.
# * S. Ioffe, C. Szegedy. Batch Normalization. *ICML* 2015.
# * S. Santurkar, D. Tsipras, A. Ilyas, A. Madry. How Does Batch Normalization Help
#   Optimization? *NeurIPS* 2018 (проверка объяснения через внутренний ковариатный сдвиг,
#   которая его оспаривает).
# * Пакет `names` (PyPI, версия 0.3.0); в его метаданных сказано, что списки имён взяты из
#   данных переписи населения США 1990 года.
