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
# # Lab A: train an MLP on handwritten digits
#
# **Why.** In this lab you train the multi-layer perceptron of `mlp_ref` on real images
# of handwritten digits and report its accuracy the way a careful experiment does: a
# fixed split, a check that no row is in two parts, a gradient check, the best epoch
# chosen on validation data, test data that only report (nothing is chosen from them),
# several seeds, and baselines trained on the very same rows. After the lab you can run the same code on
# MNIST and read your own results with the same care.
#
# **Prerequisites.** [The forward pass](../../lessons/03-forward-pass/) (shapes of every
# intermediate), [activations and output heads](../../lessons/04-activations-and-heads/)
# (softmax with cross entropy from logits), [learning the weights](../../lessons/05-learning-the-weights/)
# (gradient descent, the backward pass, the gradient check), [counting parameters](../../lessons/06-counting-parameters/)
# and [initialization](../../lessons/07-initialization/) (He initialization for ReLU).
#
# <!-- before-you-start: lab -->
#
# Every number, table and figure below is computed when this page is built. The same
# experiment runs from the command line, `python -m mlp_ref.labs.digits --epochs {@ lab_a.epochs | as_code @} --seed {@ lab_a.seed | as_code @}`,
# and prints the same tables (the command is printed by the second cell). Timings are
# the exception: they are measured anew on every run and differ from run to run.
#
# **Your own run.** The first cell holds the settings, as plain assignments. Change any of
# them and run the whole notebook. The text describes the page's run (these settings);
# where it states a result, a cell checks the statement on your run and prints a warning
# if your run differs: what the page's run found, and what yours found. The first setting,
# `LANGUAGE`, is the language of the notebook's tables, figures and messages.

# %%
# Settings of this run: the page's values (the command line's defaults).
LANGUAGE = "en"       # the tables', figures' and messages' language: en, ru
EPOCHS = 25           # passes over the training rows
SEED = 0              # the split; each size's models use SEED, SEED + 1, ...
SEEDS = 5             # models per size (initialization and batch order)
BATCH_SIZE = 64       # rows per SGD step
LEARNING_RATE = 0.1   # SGD step size
SIZES = [64, 32, 16, 10]  # the lab's network: 64 pixels in, 10 digits out
# the sizes section 6 compares, with SIZES added if missing:
STUDY = [[64, 32, 10], [64, 32, 16, 10],
         [64, 128, 64, 10], [64, 512, 256, 10]]
HGB_ROUNDS = 100      # boosting rounds of the boosted trees (section 7)
# section 8: a folder with mnist.npz or MNIST's four IDX files; None: no run
MNIST_DIR = None
MNIST_SIZES = [784, 128, 64, 10]  # the network section 8 trains on MNIST
MNIST_VAL = 10_000    # validation rows section 8 takes from MNIST's train part

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
# ## 1. The data and the split
#
# scikit-learn ships a small data set of handwritten digits (no download): 1,797 images
# of 8×8 pixels, each pixel an integer from 0 to 16. Flattened row by row, one image is a
# row of 64 numbers, so the data is a matrix $X$ of shape (1797, 64) with labels $y$ of
# shape (1797,). Dividing by 16 puts every pixel in [0, 1].
#
# The rows are split {@ lab_a.split_parts @} ways with a fixed seed:
#
# * **train** — the rows the gradient sees;
# * **validation** — rows used to make choices: which epoch to keep, which size of
#   network to prefer;
# * **test** — rows that only report: each model is evaluated on them once, after its
#   epoch was chosen, and nothing is chosen from them.
#
# The split is *stratified*: every part keeps the class proportions of the whole, so
# that no digit is rare in one part by bad luck. `digits_splits(seed)` does it (with
# scikit-learn's `train_test_split`, {@ lab_a.split_calls @}) and checks the result; the cell below checks
# it again in plain Python, because a row in two parts leaks test data into training
# with no other visible symptom.

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
# ## 2. The model
#
# `MLP([64, 32, 16, 10])` has two hidden ReLU layers and a softmax output over the ten
# digits. For a batch $X$ of shape (B, 64):
#
# $$
# \begin{aligned}
# Z_1 &= X W_1 + b_1 &&(B, 32) &\quad& W_1 \in \mathbb{R}^{64 \times 32}\\
# A_1 &= \operatorname{ReLU}(Z_1) &&(B, 32)\\
# Z_2 &= A_1 W_2 + b_2 &&(B, 16) && W_2 \in \mathbb{R}^{32 \times 16}\\
# A_2 &= \operatorname{ReLU}(Z_2) &&(B, 16)\\
# Z_3 &= A_2 W_3 + b_3 &&(B, 10) && W_3 \in \mathbb{R}^{16 \times 10}\ \text{(the logits)}\\
# L &= \tfrac{1}{B} \textstyle\sum_{i=1}^{B} \bigl(\log \sum_{k} e^{Z_{3,ik}} - Z_{3,i y_i}\bigr)
# \end{aligned}
# $$
#
# The loss is the cross entropy computed from the logits with the log-sum-exp form, which
# never takes the logarithm of a probability that has underflowed to 0. Its gradient
# with respect to the logits is $\Delta_3 = (P - Y)/B$, where $P$ = softmax($Z_3$) and
# $Y$ is one-hot, both (B, 10). Backpropagation ([lesson 5](../../lessons/05-learning-the-weights/)
# derives it) then gives
# $dW_3 = A_2^\top \Delta_3$, $db_3 = \sum_i \Delta_{3,i}$,
# $\Delta_2 = (\Delta_3 W_3^\top) \odot [Z_2 > 0]$, and so on down to $dW_1 = X^\top \Delta_1$.
#
# The weights start from He initialization, $W_l \sim \mathcal{N}(0, 2/d_{l-1})$, and the
# biases at zero. Training is plain mini-batch SGD: batches of {@ lab_a.batch_size @} rows in a new random
# order every epoch, and $W \leftarrow W - {@ lab_a.lr @}\, dW$ after each batch. The training rows
# do not divide evenly into batches of {@ lab_a.batch_size @}, so the last batch of each epoch is smaller;
# its gradient is divided by its own size $B$, not by {@ lab_a.batch_size @}, so that it is still a mean.

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
# ## 3. Check the gradient before you train
#
# A falling loss does not prove the backward pass right: a gradient that is wrong by a
# factor, or wrong for one layer, can still make the loss fall. The check compares each
# analytic derivative with a central finite difference,
#
# $$
# \frac{\partial L}{\partial \theta} \approx \frac{L(\theta + \varepsilon) - L(\theta - \varepsilon)}{2\varepsilon},
# $$
#
# whose error shrinks like $\varepsilon^2$. First one weight by hand, on 8 training rows:
# the entry of $W_1$ with the largest gradient (many entries have a gradient of exactly 0
# on 8 rows: a pixel that is blank in all of them, or a hidden unit that is off for all of
# them, passes no gradient).

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
# Then every one of the network's parameters with `grad_check`, which reports the largest
# relative error over all of them (measured at the scale of each parameter array; see its
# docstring). In float64 a correct backward pass gives an error many orders of magnitude
# below 1; a wrong formula gives an error of order 1.

# %%
error = grad_check(net, X_small, y_small, eps=1e-6)
print(page.gradient_check_line(net.n_params, error))
page.check_gradient(error)  # the text below says: below 1e-6

# %% [markdown]
# ## 4. Train, keep the best epoch, test once
#
# `fit` runs the SGD loop above for {@ lab_a.epochs @} epochs. After each epoch it measures the loss on
# the validation rows and remembers the weights of the epoch with the lowest validation
# loss; at the end it restores them. Only then is the test split used, once.

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
# The cell below runs the whole experiment of this page: this model for {@ lab_a.seeds @} seeds, among
# the other sizes of section 6, then the scikit-learn models of section 7. Its lines are
# the body of `run_lab`, the function the command line calls (a test holds the two to the
# same calls in the same order); the progress bar counts the fits of `mlp_ref`. The first
# run of this model is exactly the one trained above (same seed, same code): the
# assertions check that, so the table under the cell is both this page's run and the
# command's output.
#
# A model that did not learn is named under the cell and never chosen: one at chance
# (below {@ lab_a.chance_limit @} % on validation, where guessing gets {@ lab_a.chance @} %), or one whose training loss
# ended above where it began. Too large a learning rate is the usual cause. If no model
# learned, the cell says only that, and the command line prints that one line and stops.

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
# ### Loss curves
#
# The training loss of an epoch is the mean over its batches, each measured just before
# its update; the validation loss is measured with the weights at the end of the epoch.
# So the training curve lags by about half an epoch.

# %%
# the figure's code: mlp_ref/labs/digits/figures.py
figures.show_loss_curves(history, chosen, SETTINGS)

# %%
lab_epochs = np.array([run.chosen_epoch for run in report.lab_runs])
print(page.chosen_epochs_line(SETTINGS.n_seeds, sorted(lab_epochs.tolist())))
# the text below says: all within the last few epochs
page.check_chosen_epochs(report)

# %% [markdown]
# *Figure: training (solid, circles) and validation (dashed, squares) loss per epoch on a
# log scale; the star marks the epoch whose weights were kept.* Both curves are still
# falling at the end, and for every seed the chosen epoch lies within the last {@ lab_a.late_epochs @}
# epochs (the cell above checks it). So {@ lab_a.epochs @} epochs is a **budget**, not convergence: the
# checkpoint protects against overfitting that has not happened yet here, and more
# epochs would probably help this small network. What the curve does not show is how
# much of the gap between the two losses is noise: the validation split is small (see
# the split table).
#
# ### Where the errors are
#
# The confusion matrix counts, for each true digit (row), how often the model predicted
# each digit (column); the diagonal holds the correct answers.

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
# *Figure: the test confusion matrix of the chosen model; off-diagonal counts (in bold)
# are errors. Empty cells are zero.* Read the rows with off-diagonal counts: each is a
# digit the model sometimes takes for another. Each digit has only a few dozen test
# images, so one image moves that digit's accuracy by several points (the cell prints how
# many): do not rank the digits by this one matrix.
#
# Here are the misclassified test images themselves, with the model's prediction and
# the true label:

# %%
# the misclassified test rows
wrong = np.flatnonzero(test_predictions != y_test)
# each row as 8x8
figures.show_misclassified(splits.X_test[wrong].reshape(-1, 8, 8),
                   test_predictions[wrong], y_test[wrong])

# %% [markdown]
# *Figure: every misclassified test image (8×8 pixels, dark = ink), titled with the
# predicted and the true digit.* Some of these would puzzle a person too at this
# resolution; others are clear mistakes. A grid of errors shows what kind of mistakes the
# model makes; it says nothing about how often, which is the table's job.
#
# ## 5. The training loop, in case you want to write it yourself
#
# This lab calls `fit` with `engine="fast"`, which is written for speed (it works on
# preallocated arrays) and is harder to read; `fit`'s default engine runs the lessons'
# loop. The loop below computes the same thing with the readable `loss_and_grads` and
# plain updates, for 3 epochs from the same seed, and compares the weights with the fast
# engine's.

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
# The difference is rounding error: both loops draw the same batch order from the same
# seed and apply the same updates; they only group the floating-point operations
# differently.
#
# ## 6. Width and depth under a declared budget
#
# Is [64, 32, 16, 10] a good size? The only fair way to ask is to fix a budget and a
# protocol first, then compare. The study compares the sizes of `STUDY`, and `SIZES` too
# if `STUDY` does not list it. Here:
#
# * **budget**: every size gets the same {@ lab_a.epochs @} epochs of SGD, batch {@ lab_a.batch_size @}, learning rate {@ lab_a.lr @},
#   and {@ lab_a.seeds @} seeds (initialization and batch order; the split is the same for all). Equal
#   epochs are not equal compute: a bigger network does more arithmetic per epoch, which
#   the "time / epoch" column shows;
# * **protocol**: each run keeps its best validation epoch; the size is chosen by mean
#   validation accuracy, and its test accuracy is reported after the choice. The table
#   shows the test accuracy of the chosen size only (— in the other rows), so that there
#   is no test column to choose from.
#
# Spread is the sample standard deviation over the seeds. The times are wall-clock times
# of `fit` (including the validation pass after each epoch), measured on one thread
# while this page was built on a shared machine: they vary from run to run, and only
# their order of magnitude means anything.

# %%
display(Markdown(page.study_table(report)))
print(page.chosen_size_lines(report))  # the size chosen, its test accuracy
# sizes whose every seed chose a late epoch
print(page.late_epochs_line(report))
# the text below says: the largest network was chosen, every size was still
# improving
page.check_study(report)

# %% [markdown]
# Under this budget the largest network reached the highest validation accuracy and was
# chosen (the cell checks both). What that does **not** show:
#
# * that bigger is better in general — every size of the study, the largest too, chose an
#   epoch within the last {@ lab_a.late_epochs @} for every seed (the "chosen epochs" column; the cell counts
#   the sizes and checks that none is missing), so all of them were still improving when the
#   budget ran out (as in section 4): the comparison is of networks stopped early, not of
#   trained ones, and a longer budget or a tuned learning rate per size could reorder the rows;
# * that the differences are real beyond this split — the spreads are over seeds on *one*
#   split of 1,797 images; a different split moves every number;
# * anything about time on other hardware or with more threads — the times are one
#   build's measurements on one thread.
#
# ## 7. Baselines on the same split
#
# A neural network's accuracy means little alone. These scikit-learn models were fitted
# on the same training rows and evaluated on the same validation and test rows:
#
# * `LogisticRegression` — a linear model with a softmax, scikit-learn's defaults
#   (an L2 penalty: the sum of squared weights added to the loss, which keeps the weights
#   small; C = 1 sets its strength, a smaller C penalizes more);
# * `HistGradientBoostingClassifier` — gradient-boosted decision trees, defaults;
# * `MLPClassifier` with **the same configuration** as this lab's network: sizes
#   (32, 16), ReLU, solver `"sgd"` with momentum 0, no weight penalty (`alpha=0`), batch
#   {@ lab_a.batch_size @}, constant learning rate {@ lab_a.lr @}, {@ lab_a.epochs @} epochs, one `partial_fit` per epoch with the best
#   validation epoch kept — seeds {@ lab_a.seed @} to {@ lab_a.seed_last @}, like `mlp_ref`. What still differs is the
#   initialization (scikit-learn draws Glorot-uniform weights and nonzero biases) and the
#   random batch order.
#
# The two deterministic models were fitted once; each MLP row is a mean ± sd over its
# {@ lab_a.seeds @} seeds. Fit times are measured like the study's (one thread, this build, they vary),
# and each is the mean time of one fit.
#
# This table shows every model's test accuracy, because it compares methods; it chooses
# none. Each model was fixed before its one evaluation (an MLP by its best validation
# epoch, the other two by their defaults), so each test number is an honest estimate for
# that model alone. Nothing may be chosen from the test column: the highest of several
# test numbers is an optimistic estimate of the model it picks. To choose among these
# models, compare the validation column, then report the test accuracy of the one you chose.

# %%
display(Markdown(page.comparison_table(report)))

# %% [markdown]
# The two MLPs share sizes, loss, optimizer and protocol, so their test accuracies should
# agree up to the noise of initialization and batch order. The table pairs them seed by
# seed; the last row is the difference of the means, which must stay within {@ lab_a.parity_points @} points
# (the build fails otherwise; in your run, the cell warns):

# %%
display(Markdown(page.parity_table(report)))
print(page.parity_verdict(report))
page.check_parity(report)

# %% [markdown]
# The comparison says how this network stands against standard tools **on this data set,
# at these settings, with no tuning of anyone**. Read as rows of 64 numbers, the digits
# are a small table, and on small tables boosted trees and linear models are strong
# baselines: a neural network has to earn its cost against them. The fit times are not a speed benchmark: `mlp_ref` runs a fixed number of
# epochs, logistic regression runs its solver to convergence, boosting grows one tree per
# class per round, and every fit here ran on a single thread.
#
# ## 8. The same code on MNIST (784 inputs)
#
# MNIST has 70,000 images of 28×28 = 784 pixels: 60,000 for training and 10,000 for
# testing. Nothing in the code above depends on 64 inputs: `MLP([784, 128, 64, 10])`
# trains with the same `fit`. `mlp_ref.load_mnist` reads the original IDX files (plain or
# gzipped) and `load_mnist_npz` a `.npz` file; both scale pixels to [0, 1] by dividing
# by 255 and are tested on small files that the tests write themselves.
#
# This site does not ship MNIST, and nothing on this page downloads it. To run this
# section, put MNIST in a folder, in one of two forms:
#
# * the four original IDX files `train-images-idx3-ubyte`, `train-labels-idx1-ubyte`,
#   `t10k-images-idx3-ubyte` and `t10k-labels-idx1-ubyte` (each may end in `.gz`), from a
#   copy of MNIST you trust; or
# * one file named `mnist.npz` holding four arrays, `x_train`, `y_train`, `x_test` and
#   `y_test` (the layout of Keras' `mnist.npz`): images of shape (N, 28, 28) or (N, 784)
#   with pixels from 0 to 255 (uint8), labels of shape (N,) with the digits 0 to 9.
#
# One way to make `mnist.npz` uses scikit-learn, **and needs a network connection**:
# `fetch_openml` downloads the OpenML data set "mnist_784" — all 70,000 images as rows of
# 784 pixels, MNIST's training images first and its 10,000 test images last — and keeps a
# copy in scikit-learn's data folder. This page was built without a network: the code
# below was not run for it, and no cell of the lab calls it. (The tests run the same code
# with a small fake in place of the download, so the file it writes is one that
# `load_mnist_npz` reads.)
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
# Then set `MNIST_DIR = "mnist"` in the first cell (the folder's path: relative to the
# folder the notebook runs in, or absolute) and run the notebook again. The cell below
# takes that setting or, if it is `None`, the environment variable `MNIST_DIR`; the
# command line takes the folder as an option:
#
# ```bash
# MNIST_DIR=/path/to/mnist jupyter lab                 # then run this notebook
# python -m mlp_ref.labs.digits --mnist /path/to/mnist  # the same, no notebook
# ```
#
# Both train `MLP([784, 128, 64, 10])` (`MNIST_SIZES`) with the settings of the first cell
# (the page's: {@ lab_a.epochs @} epochs, batch {@ lab_a.batch_size @}, learning rate {@ lab_a.lr @}, seed {@ lab_a.seed @}) and print the same table as
# section 4.
#
# The validation rows ({@ lab_a.mnist_val @}, `MNIST_VAL`) are drawn from the official *training* part;
# the official test part stays the test part, used once. The cell says whether a run was
# made.

# %%
# the folder of the first cell's MNIST_DIR, else the environment variable
# MNIST_DIR
mnist_dir = MNIST_DIR
if mnist_dir is None:
    mnist_dir = os.environ.get(page.MNIST_ENV)
display(Markdown(page.mnist_report(mnist_dir, SETTINGS, progress=False)))

# %% [markdown]
# ## Closing note
#
# The results of this page in one place (all computed above; `python -m
# mlp_ref.labs.digits --epochs {@ lab_a.epochs @} --seed {@ lab_a.seed @}` prints the same tables, with its own
# timings):

# %%
display(Markdown(page.comparison_table(report)))
display(Markdown(page.study_table(report)))
print(page.parity_verdict(report))
print(page.mnist_status(mnist_dir))
finish(page_start)

# %% [markdown]
# ## Exercises
#
# 1. Train the lab's network for 100 epochs instead of {@ lab_a.epochs @}
#    (`python -m mlp_ref.labs.digits --epochs 100 --seeds 3`, or `EPOCHS = 100` and
#    `SEEDS = 3` in the first cell). Does the chosen epoch move
#    away from the end? Does the test accuracy change by more than the spread over seeds?
#
# <details><summary>Answer</summary>
#
# Compare the "chosen epochs" column and the mean ± sd of the study table with this
# page's. If the chosen epochs are no longer at the end, the validation loss has started
# to rise and the checkpoint now matters. A change of the mean smaller than the standard
# deviations is not evidence either way.
#
# </details>
#
# 2. The study chose the largest network. Give it a fair competitor: the same budget in
#    *time* rather than epochs. Roughly how many epochs could [64, 32, 10] run in the time
#    [64, 512, 256, 10] takes for {@ lab_a.epochs @}?
#
# <details><summary>Answer</summary>
#
# Divide the two "time / epoch" entries and multiply by {@ lab_a.epochs @}. Then run the small network
# for that many epochs (<code>--epochs N --study 64,32,10</code>) and compare validation
# accuracies. Timings vary from run to run, so round generously; the point is that
# "equal epochs" favours the network that does more work per epoch.
#
# </details>
#
# 3. Why does the lab divide the last batch's gradient by its own size rather than by {@ lab_a.batch_size @}?
#
# <details><summary>Answer</summary>
#
# The loss is a mean over the batch, so its gradient is a mean too. Dividing the sum of
# the last batch's per-example gradients by {@ lab_a.batch_size @} would shrink that step by the factor
# (last batch size)/{@ lab_a.batch_size @}, a silent change of learning rate for one batch in every epoch.
#
# </details>
#
# 4. Run section 8 on real MNIST. Which validation accuracy do you get, and is it fair to
#    compare it with the digits numbers above?
#
# <details><summary>Answer</summary>
#
# It is a different data set (more pixels, many more training rows, different writers),
# so the numbers are not comparable: report it as its own result, with its own split and
# seed. This page claims no MNIST number because it made no MNIST run.
#
# </details>
#
# 5. Run `python -m mlp_ref.labs.digits --epochs 3 --study 64,32,16,10` and compare its
#    parity table with this page's. If the two MLPs now disagree by much more, is one of
#    them wrong?
#
# <details><summary>Answer</summary>
#
# Not necessarily. They start from different initializations: He-normal weights with zero
# biases in <code>mlp_ref</code>, Glorot-uniform weights (a smaller scale for these layer
# widths) and random biases in scikit-learn. After a few epochs each run still depends
# mostly on where it started; after {@ lab_a.epochs @} they have both gone much further. The {@ lab_a.parity_points @}-point
# agreement this page checks is a statement about the {@ lab_a.epochs @}-epoch budget, not about every
# budget. To test the code itself, start both from the same weights: that is what the
# one-step parity test in <code>tests/test_sklearn_parity.py</code> does.
#
# </details>
#
# ## Check yourself
#
# 1. Why is the test split evaluated only once, after the epoch and the size are chosen?
#
# <details><summary>Answer</summary>
#
# Every choice made by looking at a split fits that split a little. If the test split were
# used to choose, its accuracy would be optimistic, and no untouched data would be left
# to measure the chosen model.
#
# </details>
#
# 2. The gradient check passes. Does that prove training will work?
#
# <details><summary>Answer</summary>
#
# No. It shows that the backward pass computes the derivative of the loss that the forward
# pass computes. A bad learning rate, a bad initialization or the wrong loss for the task
# can still make training fail with a perfect gradient.
#
# </details>
#
# 3. The paired table shows `mlp_ref` and `MLPClassifier` differing seed by seed. Is one
#    of them wrong?
#
# <details><summary>Answer</summary>
#
# Not by that evidence. They start from different random weights (He-normal vs
# Glorot-uniform) and see the batches in different orders, and one test image is worth
# a noticeable fraction of a point (section 4 prints how much). Compare the per-seed
# differences with the spread over seeds of each model: a gap of that size is noise. A
# wrong gradient would show up in the gradient check, and as a much larger gap.
#
# </details>
#
# 4. What would go wrong if the split were not stratified?
#
# <details><summary>Answer</summary>
#
# With only a few dozen validation images per digit, an unlucky random split could leave one digit
# with noticeably fewer images in validation or test than the others; accuracies would
# then weigh the digits unequally, differently in each part.
#
# </details>
#
# 5. Why do all fits run on one thread?
#
# <details><summary>Answer</summary>
#
# So that the numbers do not depend on the number of BLAS threads (the order of additions
# in a matrix product can change with it), and so that fit times of different models
# compare like with like on a shared machine. It handicaps the models that can use many
# cores, which the comparison says.
#
# </details>
#
# ## Sources
#
# * The digits data: E. Alpaydin, C. Kaynak. *Optical Recognition of Handwritten Digits*,
#   UCI Machine Learning Repository, 1998; shipped as
#   [`sklearn.datasets.load_digits`](https://scikit-learn.org/stable/modules/generated/sklearn.datasets.load_digits.html).
# * Y. LeCun, L. Bottou, Y. Bengio, P. Haffner. Gradient-based learning applied to document
#   recognition. *Proceedings of the IEEE* 86(11), 1998 (MNIST and its IDX file format).
# * OpenML data set 554, [`mnist_784`](https://www.openml.org/d/554) (MNIST as 70,000 rows
#   of 784 pixels), read by
#   [`sklearn.datasets.fetch_openml`](https://scikit-learn.org/stable/modules/generated/sklearn.datasets.fetch_openml.html).
# * K. He, X. Zhang, S. Ren, J. Sun. Delving Deep into Rectifiers. *ICCV* 2015 (He
#   initialization).
# * X. Glorot, Y. Bengio. Understanding the difficulty of training deep feedforward neural
#   networks. *AISTATS* 2010 (the initialization `MLPClassifier` uses).
# * scikit-learn documentation:
#   [`MLPClassifier`](https://scikit-learn.org/stable/modules/generated/sklearn.neural_network.MLPClassifier.html),
#   [`LogisticRegression`](https://scikit-learn.org/stable/modules/generated/sklearn.linear_model.LogisticRegression.html),
#   [`HistGradientBoostingClassifier`](https://scikit-learn.org/stable/modules/generated/sklearn.ensemble.HistGradientBoostingClassifier.html),
#   [`train_test_split`](https://scikit-learn.org/stable/modules/generated/sklearn.model_selection.train_test_split.html).
# * L. Grinsztajn, E. Oyallon, G. Varoquaux. Why do tree-based models still outperform deep
#   learning on typical tabular data? *NeurIPS Datasets and Benchmarks* 2022 (trees as strong
#   baselines on tabular data; a different kind of data from images).
