"""Lesson 5's figures, tables and sentences: gradient descent on one weight, one backward pass and
step by hand, three optimizers' first steps, the multiply-adds of a pass, and why XOR is not
always learned; the numbers its prose says (:func:`values`)."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

import mlp_ref
from mlp_ref.course.backward_stepper import ROWS_AFTER_TABLE, ROWS_BEFORE_TABLE, stepper_data
from mlp_ref.course.backward_stepper import without_script as stepper_fallback
from mlp_ref.course.backward_tables import backward_by_hand, multiply_add_table
from mlp_ref.course.claims import claim
from mlp_ref.course.figures import PALETTE, figure_html, new_figure
from mlp_ref.course.i18n import ru_count, ru_plural, say
from mlp_ref.course.playground import playground_data
from mlp_ref.course.playground import without_script as playground_fallback
from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.course.widgets import widget_html
from mlp_ref.course.words import number

X, Y = np.array([1.0, 2.0]), 0.0   # lesson 3's single example, (2,), with the target 0
LR = 0.5                           # the step of the step table
OPT_LR = 0.1                       # the optimizers' learning rate
LINE_POINTS = ([1.0, 2.0, 3.0], [2.0, 3.0, 7.0])   # (x, y) of the three points y ≈ w x is fitted to
RATES = [("too small", 0.02), ("about right", 0.08), ("too large", 0.25)]   # the descent figure's panels
W0 = 0.0                           # where descent starts
BORN_DEAD = Fraction(1, 2) ** 2    # a unit born dead: both its weights negative, each with probability 1/2


def _num(v) -> str:
    return format_number(v, 4)


def descent_figure() -> str:
    """Gradient descent on one weight, L(w) = mean of (w x − y)², at three learning rates.

    Returns
    -------
    str
        The figure as HTML (:func:`mlp_ref.course.figures.figure_html`); its claim about the
        factor |1 − ηL″| is checked.
    """
    line = mlp_ref.LineFit.of(*LINE_POINTS)   # fit y ≈ w x to three points
    rates = RATES
    shown_name = {"too small": say("too small", ru="слишком мала"), "about right": say("about right", ru="в самый раз"),
                  "too large": say("too large", ru="слишком велика")}   # the panels' titles
    steps, w0 = 8, W0
    paths = {name: mlp_ref.descend(line.grad, w0, lr, steps) for name, lr in rates}   # each (steps + 1,)
    fig, axes = new_figure(1, 3, figsize=(9.6, 3.2), sharey=True)
    grid = np.linspace(-4.0, 8.0, 400)
    for ax, (name, lr), color in zip(axes, rates, PALETTE):
        path = paths[name]
        ax.plot(grid, line.loss(grid), color="0.55", linewidth=1.5)
        shown = path[np.abs(path) < 8]
        ax.plot(shown, line.loss(shown), marker="o", color=color, linewidth=1.2, markersize=4)
        ax.set_title(f"{shown_name[name]}: η = {lr:g}", fontsize=10)
        ax.set_xlabel(say("weight w (no unit)", ru="вес w"))
        ax.set_ylim(0, 120)
    axes[0].set_ylabel(say("loss L(w) (no unit)", ru="потери L(w)"))
    factor = 1 - rates[2][1] * line.curvature           # what each step multiplies w - w* by, at the plotted rate
    gap = paths["too large"] - line.best               # (steps + 1,) distances to the minimum
    assert np.allclose(gap[1:], factor * gap[:-1]), (   # the plotted path does exactly that
        f"lesson 5: each step at η = {rates[2][1]:g} multiplies the distance to the minimum by 1 − ηL'' = "
        f"{factor:.4g}; the plotted path departs from that by up to {np.abs(gap[1:] - factor * gap[:-1]).max():.2g}")
    growth = abs(factor)
    claim(bool(growth > 1 and np.isclose(abs(1 - line.critical_lr * line.curvature), 1)),
          "the factor |1 - ηL''| is above 1 at the plotted rate, and exactly 1 at the limit 2/L''")
    return figure_html(
        fig,
        alt=say(f"The same parabola drawn once per learning rate: the loss of one weight w, with its minimum at w = {line.best:.2f}. "
                f"Each shows {steps} gradient-descent steps from w = {w0:g} as dots joined by lines. Left, learning rate "
                f"{rates[0][1]:g}: the dots creep down one side and are still at w = {paths['too small'][-1]:.2f} after "
                f"{steps} steps. Middle, learning rate {rates[1][1]:g}: the dots reach the bottom within a few steps. "
                f"Right, learning rate {rates[2][1]:g}: the dots jump from side to side, each higher than the one "
                f"before, and leave the plotted range.",
                ru=f"Одна и та же парабола, нарисованная для каждой скорости обучения: функция потерь одного веса w "
                   f"с минимумом в точке w = {line.best:.2f}. На каждой панели точками, соединёнными линиями, показаны "
                   f"{steps} {ru_plural(steps, 'шаг', 'шага', 'шагов')} градиентного спуска из w = {w0:g}. Слева, "
                   f"скорость обучения {rates[0][1]:g}: точки медленно сползают по одному склону и за {steps} "
                   f"{ru_plural(steps, 'шаг', 'шага', 'шагов')} доходят только до w = {paths['too small'][-1]:.2f}. "
                   f"В середине, скорость обучения {rates[1][1]:g}: точки за несколько шагов доходят до дна. "
                   f"Справа, скорость обучения {rates[2][1]:g}: точки прыгают со склона на склон, каждая выше "
                   f"предыдущей, и уходят за пределы графика."),
        caption=say(f"Gradient descent on L(w) = mean of (w x − y)² from w = {w0:g}. Notice that the largest rate does "
                    f"not just converge faster: every step multiplies the distance to the minimum by |1 − ηL″|, which "
                    f"is {growth:.2f} at the plotted η = {rates[2][1]:g}, so the loss grows without bound. The factor "
                    f"passes 1 at η = {line.critical_lr:.3f}.",
                    ru=f"Градиентный спуск по L(w) = среднее (w x − y)² из w = {w0:g}. Обратите внимание: самая большая "
                       f"скорость не ускоряет сходимость, а ломает её: каждый шаг умножает расстояние до минимума на "
                       f"|1 − ηL″|, а при показанной η = {rates[2][1]:g} этот множитель равен {growth:.2f}, и потери "
                       f"растут неограниченно. Больше 1 множитель становится при η > {line.critical_lr:.3f}."),
    )


# Lesson 3's 2-2-1 network (ReLU hidden layer, sigmoid output), as mlp_ref.MLP.from_arrays takes it; each
# generator makes its own, in a line the reference's name scan reads (hooks/api_names.py: a
# page's ``net`` links to MLP's entries only while every binding of it makes an MLP).
LAYERS = ([np.array([[0.1, 0.2], [0.3, 0.4]]), np.array([[0.5], [0.6]])],   # W1 (2, 2), W2 (2, 1)
          [np.array([0.1, 0.1]), np.array([0.2])])                          # b1 (2,), b2 (1,)


@functools.cache   # made once per build, for the table and the prose (its results are only read)
def _step() -> tuple[float, mlp_ref.Gradients, mlp_ref.MLP]:
    """One SGD step at :data:`LR` of the network on (:data:`X`, :data:`Y`): the loss before it,
    the gradients and the network after it."""
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    loss_before, grads = net.loss_and_grads(X[None, :], np.array([Y]))
    stepped = net.copy()
    mlp_ref.sgd_step(stepped, grads, LR)
    return loss_before, grads, stepped


def backward_table() -> str:
    """The backward pass of lesson 3's network on (:data:`X`, :data:`Y`), by hand.

    Returns
    -------
    str
        A Markdown table (:func:`mlp_ref.course.backward_tables.backward_by_hand`).
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    return backward_by_hand(net, X, Y)


def step_table() -> str:
    """One SGD step at :data:`LR` on (:data:`X`, :data:`Y`): every parameter before, its gradient
    and after, then z1, ŷ and the loss before and after; checks that the loss fell and that
    both hidden units went off.

    Returns
    -------
    str
        A Markdown table, one row per entry.
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    X1, Y1 = X[None, :], np.array([Y])   # (1, 2), (1,)
    loss_before, grads, stepped = _step()
    loss_after, _ = stepped.loss_and_grads(X1, Y1)
    rows = []
    for name, old, grad, new in zip(["W1", "b1", "W2", "b2"],
                                    [net.weights[0], net.biases[0], net.weights[1], net.biases[1]],
                                    [grads.weights[0], grads.biases[0], grads.weights[1], grads.biases[1]],
                                    [stepped.weights[0], stepped.biases[0], stepped.weights[1], stepped.biases[1]]):
        assert np.allclose(new, old - LR * grad), (
            f"lesson 5: the step table's {name} after the step is before − {LR:g} · gradient; it differs "
            f"from that by up to {np.abs(new - (old - LR * grad)).max():.2g}")
        for index in np.ndindex(old.shape):          # one row per entry, numbered from 1
            where = ",".join(str(i + 1) for i in index)
            rows.append([f"{name}[{where}]", _num(old[index]), _num(grad[index]), _num(new[index])])
    z1_before = net.forward(X1, keep_cache=True)[1].pre_activations[0][0]       # (2,)
    z1_after = stepped.forward(X1, keep_cache=True)[1].pre_activations[0][0]    # (2,)
    for k in range(2):
        rows.append([say(f"z1[{k + 1}] (hidden pre-activation)", ru=f"z1[{k + 1}] (преактивация)"),
                     _num(z1_before[k]), "", _num(z1_after[k])])
    rows.append(["ŷ", _num(net.forward(X1)[0, 0]), "", _num(stepped.forward(X1)[0, 0])])
    rows.append([say("loss", ru="потери"), _num(loss_before), "", _num(loss_after)])
    assert loss_after < loss_before, (f"lesson 5: the step table's SGD step at η = {LR:g} lowers the loss; "
                                      f"found {loss_before:.4g} before and {loss_after:.4g} after")
    claim(bool(np.all(z1_before > 0) and np.all(z1_after < 0)),
          "both hidden units are on before the step and off after it, for this input")
    # both units off: the output is sigmoid(b2) and the loss depends on b2 alone
    assert np.isclose(stepped.forward(X1)[0, 0], mlp_ref.sigmoid(stepped.biases[1])[0], rtol=1e-12), (
        f"lesson 5: with both hidden units off after the step, ŷ = σ(b2); found ŷ = "
        f"{stepped.forward(X1)[0, 0]:.12g} against σ(b2) = {mlp_ref.sigmoid(stepped.biases[1])[0]:.12g}")
    return markdown_table([say("entry", ru="элемент"), say("before", ru="до"), say("gradient", ru="градиент"),
                           say(f"after: before − {LR:g} · gradient", ru=f"после: до − {LR:g} · градиент")],
                          rows, "lrrr")


def optimizer_table() -> str:
    """The first step of SGD, momentum and Adam at :data:`OPT_LR` from the same gradient, entry by
    entry; checks what the page says of them (momentum's first step is SGD's, Adam's moves every
    entry by the learning rate, the state each keeps, momentum's steady step).

    Returns
    -------
    str
        A Markdown table, one row per parameter entry.
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    _, grads = net.loss_and_grads(X[None, :], np.array([Y]))
    moves = {}
    for rule in ("sgd", "momentum", "adam"):
        moved = net.copy()
        if rule == "sgd":
            mlp_ref.sgd_step(moved, grads, OPT_LR)
        elif rule == "momentum":
            velocity = mlp_ref.MomentumState.zeros(moved)
            mlp_ref.momentum_step(moved, grads, OPT_LR, velocity, beta=0.9)
        else:
            moments = mlp_ref.AdamState.zeros(moved)
            mlp_ref.adam_step(moved, grads, OPT_LR, moments)
        moves[rule] = [after - before for after, before in zip(moved.weights + moved.biases, net.weights + net.biases)]
    claim(all(np.allclose(a, b, rtol=1e-12, atol=0) for a, b in zip(moves["momentum"], moves["sgd"])),
          "momentum's first step from a zero velocity is the SGD step")
    claim(all(np.allclose(np.abs(a), OPT_LR, rtol=1e-6) for a in moves["adam"]),
          "Adam's first step moves every entry by the learning rate, up to eps")
    n_params = sum(p.size for p in net.weights + net.biases)
    claim(sum(v.size for v in velocity.velocity) == n_params and sum(a.size for a in moments.m + moments.s) == 2 * n_params,
          "momentum keeps one number per parameter, Adam two")
    # the velocity under a gradient that keeps its sign: the step grows to 1 / (1 - beta) times SGD's
    steady = net.copy()
    steady_state = mlp_ref.MomentumState.zeros(steady)
    for _ in range(300):
        before = steady.weights[0].copy()
        mlp_ref.momentum_step(steady, grads, OPT_LR, steady_state, beta=0.9)
    claim(bool(np.allclose(steady.weights[0] - before, -OPT_LR * grads.weights[0] / (1 - 0.9), rtol=1e-9)),
          "under a constant gradient, momentum's step grows to 1 / (1 - beta) times SGD's")
    rows = []
    names = [f"W1[{i + 1},{j + 1}]" for i in range(2) for j in range(2)] + ["W2[1,1]", "W2[2,1]", "b1[1]", "b1[2]", "b2[1]"]
    flat = lambda arrays: np.concatenate([a.ravel() for a in arrays])  # noqa: E731  W1, W2, b1, b2 in that order
    for name, g, sgd, mom, adam in zip(names, flat(grads.weights + grads.biases), *(flat(moves[r]) for r in moves)):
        rows.append([name, _num(g), _num(sgd), _num(mom), _num(adam)])
    return markdown_table([say("entry", ru="элемент"), say("gradient g", ru="градиент g"),
                           say(f"SGD: −{OPT_LR:g} g", ru=f"SGD: −{OPT_LR:g} g"),
                           say("momentum, first step", ru="импульс, первый шаг"),
                           say("Adam, first step", ru="Adam, первый шаг")], rows, "lrrrr")


@functools.cache   # made once per build, for the table and the prose
def _multiply_adds() -> mlp_ref.MultiplyAdds:
    """The multiply-adds of one forward and backward pass of a 784-128-64-10 network at B = 32."""
    big = mlp_ref.MLP([784, 128, 64, 10], output="softmax", seed=0)
    X_big = np.random.default_rng(0).uniform(size=(32, 784))   # (B, 784)
    return mlp_ref.count_multiply_adds(big, X_big, np.arange(32) % 10)


def multiply_adds_table() -> str:
    """The multiply-adds of one forward and backward pass of a 784-128-64-10 network at B = 32.

    Returns
    -------
    str
        A Markdown table (:func:`mlp_ref.course.backward_tables.multiply_add_table`).
    """
    return multiply_add_table(_multiply_adds())


def _runs() -> dict:
    """XOR_STUDY's runs, one :class:`mlp_ref.XorRuns` per hidden width (kept by mlp_ref.xor_outcomes)."""
    study = mlp_ref.XOR_STUDY
    return {h: mlp_ref.xor_outcomes(h, study.n_seeds, study.lr, study.steps, study.settled) for h in study.widths}


def xor_study_table() -> str:
    """Per hidden width: the runs, how many learned XOR, and the share born with a dead unit,
    measured and expected; checks that the two agree and the claims beside the table.

    Returns
    -------
    str
        A Markdown table, one row per width.
    """
    runs = _runs()
    born_dead = float(BORN_DEAD)
    rows = [[str(h), str(len(r.seeds)), f"{np.sum(r.solved)} ({r.fraction_solved:.0%})",
             f"{np.mean(r.dead_at_start > 0):.0%}", f"{1 - (1 - born_dead) ** h:.0%}"] for h, r in runs.items()]
    for h, r in runs.items():   # "the measured column agrees": within three standard errors of a binomial count
        p_dead = 1 - (1 - born_dead) ** h
        claim(abs(np.mean(r.dead_at_start > 0) - p_dead) < 3 * np.sqrt(p_dead * (1 - p_dead) / len(r.seeds)),
              f"the share of runs born with a dead unit agrees with 1 - (3/4)^h at h = {h}")
    two_alive = [np.mean(h - r.dead_at_start >= 2) for h, r in runs.items()]
    claim(bool(np.all(np.diff(two_alive) > 0)), "more units make it likelier that at least two are alive at the start")
    relu_at_zero = mlp_ref.get_activation("relu")[1](np.zeros(1))[0]
    claim(relu_at_zero == 0, "relu'(0) = 0, so a unit whose pre-activation is exactly 0 passes no gradient")
    return markdown_table(
        [say("hidden units h", ru="скрытых нейронов h"), say("runs", ru="запусков"), say("solved", ru="решили"),
         say("runs with a unit dead at the start", ru="запусков с нейроном, мёртвым с самого начала"),
         say("expected: 1 − (1 − 1/4)^h", ru="ожидается: 1 − (1 − 1/4)^h")],
        rows, "rrrrr")


def width_sentence() -> str:
    """The share of runs that learn XOR with two and four hidden units, and how many solved
    two-unit runs started with both units alive.

    Returns
    -------
    str
        A paragraph of Markdown.
    """
    runs = _runs()
    two, four = runs[2], runs[4]
    alive, solved = np.sum(two.solved & (two.dead_at_start == 0)), np.sum(two.solved)
    return say(f"With two hidden units only {two.fraction_solved:.0%} of the runs learn XOR, although "
               f"lesson 2 showed that the weights exist. Width helps: with four units, {four.fraction_solved:.0%} do. "
               f"Every solved two-unit run started with both units alive: "
               f"{alive} of {solved}.",
               ru=f"С двумя скрытыми нейронами XOR выучивают лишь {two.fraction_solved:.0%} запусков, хотя "
                  f"урок 2 показал, что нужные веса существуют. Ширина помогает: с четырьмя нейронами — уже "
                  f"{four.fraction_solved:.0%}. Каждый удачный запуск с двумя нейронами начинался с обоими живыми "
                  f"нейронами: {alive} из {solved}.")


def failures_table() -> str:
    """Per hidden width: the failed runs, counted by the state they ended in; checks that none
    of the three states ends solved.

    Returns
    -------
    str
        A Markdown table, one row per width.
    """
    rows = []
    for h, r in _runs().items():
        failed = ~r.solved
        few, blind, affine = r.live_units < 2, r.blind_pair, r.affine_on_corners
        other = failed & ~(few | blind | affine)
        assert not np.any((few | blind | affine) & r.solved), (   # none of the three states ends solved
            f"lesson 5: the failures table's three states (fewer than two live units, a blind pair, affine on "
            f"the corners) never end solved; at h = {h}, {np.sum((few | blind | affine) & r.solved)} such runs did")
        rows.append([str(h), str(np.sum(failed)), str(np.sum(failed & few)), str(np.sum(failed & blind)),
                     str(np.sum(failed & affine)), str(np.sum(other))])
    return markdown_table([say("hidden units h", ru="скрытых нейронов h"),
                           say("failed runs", ru="неудачных запусков"),
                           say("fewer than two live units", ru="меньше двух живых нейронов"),
                           say("with a blind pair", ru="со слепой парой"),
                           say("affine on the corners", ru="аффинная на углах"),
                           say("none of these", ru="ничего из этого")], rows, "rrrrrr")


def trap_sentence() -> str:
    """Which of the three failed states is a trap, counted over every run; checks the counts it says.

    Returns
    -------
    str
        A paragraph of Markdown.
    """
    runs = _runs()
    settled = mlp_ref.XOR_STUDY.settled
    n_runs = sum(len(r.seeds) for r in runs.values())
    revived = sum(int(np.sum(r.revived)) for r in runs.values())
    left_blind = sum(int(np.sum(r.blind_pair_after & r.solved)) for r in runs.values())
    left_affine = sum(int(np.sum(r.affine_after & r.solved)) for r in runs.values())
    unexplained = sum(int(np.sum(~r.solved & ~((r.live_units < 2) | r.blind_pair | r.affine_on_corners)))
                      for r in runs.values())
    three = runs[3]
    dead3, solved3 = int(np.sum(three.solved & (three.dead_units > 0))), int(np.sum(three.solved))
    claim(revived == 0, "no dead unit came back on, in any run, after any step")
    claim(left_blind > 0 and left_affine > 0,
          f"some runs with a blind pair, and some affine, at a step from {settled} on still ended solved")
    claim(dead3 > 0, "with three hidden units, some solved runs end with a dead unit")
    return say(f"Only the first state is a trap. In all {format_count(n_runs)} runs no dead unit ever came back "
               f"on (the code checks after every step), so the number of live units can only fall. The other two "
               f"states can be left, because the corners where some unit is on still send it a gradient: among the "
               f"solved runs, {left_blind} had a blind pair and {left_affine} were affine at some step from step "
               f"{settled} on. Such an escape is rare, but it happens. A dead unit alone does not stop a wider "
               f"network either: with three hidden units, {dead3} of the {solved3} solved runs ended with a dead unit. "
               f"Failed runs in none of the three states (the table's last column): {unexplained}.",
               ru=f"Ловушка — только первое состояние. Во всех {format_count(n_runs)} запусках ни один мёртвый "
                  f"нейрон не ожил (код проверяет это после каждого шага), так что число живых нейронов может только "
                  f"уменьшаться. Из двух других состояний выйти можно: углы, на которых какой-то нейрон включён, "
                  f"по-прежнему посылают ему градиент. Среди удачных запусков слепая пара на каком-либо шаге начиная "
                  f"с {settled}-го была у {ru_count(left_blind, 'запуска', 'запусков', 'запусков', gender='m', case='gen')}, "
                  f"а аффинное состояние — у "
                  f"{ru_count(left_affine, 'запуска', 'запусков', 'запусков', gender='m', case='gen')}. Такой выход — редкость, но он "
                  f"случается. И один мёртвый нейрон сам по себе не мешает более широкой сети: с тремя скрытыми "
                  f"нейронами {dead3} из {solved3} удачных запусков закончились с мёртвым нейроном. Неудачных "
                  f"запусков ни в одном из трёх состояний (последний столбец таблицы): {unexplained}.")


def two_runs_figure() -> str:
    """The loss (left) and the outputs at the four corners (right) of a solved and a failed
    two-unit run on XOR.

    Returns
    -------
    str
        The figure as HTML (:func:`mlp_ref.course.figures.figure_html`).
    """
    two = _runs()[2]
    solved_run = int(np.flatnonzero(two.solved)[0])
    failed_run = int(np.flatnonzero(~two.solved & (two.dead_units > 0))[0])
    fig, (left, right) = new_figure(1, 2, figsize=(9.0, 3.4))
    steps = np.arange(two.steps + 1)
    for run, style, color in ((solved_run, "-", PALETTE[0]), (failed_run, "--", PALETTE[1])):
        label = say(f"seed {two.seeds[run]}: ", ru=f"зерно {two.seeds[run]}: ") + (say("solved", ru="решено") if two.solved[run] else
                                              say(f"failed, {two.dead_units[run]} dead unit",
                                                  ru=f"неудача, мёртвых: {two.dead_units[run]}"))
        left.plot(steps, two.losses[run], linestyle=style, color=color, linewidth=2, label=label)
    left.set_xlabel(say("gradient step", ru="шаг градиентного спуска"))
    left.set_ylabel(say("mean loss (binary cross entropy)", ru="средние потери\n(бинарная перекрёстная энтропия)"))
    left.legend(loc="upper right", frameon=False, fontsize=9)
    corners = ["(0,0)", "(0,1)", "(1,0)", "(1,1)"]
    width = 0.38
    for k, (run, color, hatch) in enumerate(((solved_run, PALETTE[0], ""), (failed_run, PALETTE[1], "//"))):
        right.bar(np.arange(4) + (k - 0.5) * width, two.outputs[run], width, color=color, hatch=hatch,
                  edgecolor="0.2", label=say(f"seed {two.seeds[run]}", ru=f"зерно {two.seeds[run]}"))
    right.axhline(0.5, color="0.4", linewidth=1, linestyle=":")
    right.set_xticks(np.arange(4), [say(f"{c}\ntarget {t:g}", ru=f"{c}\nцель {t:g}") for c, t in zip(corners, mlp_ref.XOR_Y)])
    right.set_ylabel(say("output ŷ after training", ru="выход ŷ после обучения"))
    right.set_ylim(0, 1)
    right.legend(loc="upper left", frameon=False, fontsize=9)
    p_failed = two.outputs[failed_run]   # (4,)
    return figure_html(
        fig,
        alt=say(f"Left: the training loss over {two.steps} gradient steps of two runs of the 2-2-1 network on XOR. "
                f"The run from seed {two.seeds[solved_run]} falls to {two.losses[solved_run, -1]:.3f}; the run from seed "
                f"{two.seeds[failed_run]} flattens at {two.losses[failed_run, -1]:.3f}. Right: the outputs at the four "
                f"corners after training, as pairs of bars. The solved run's bars are near the targets 0, 1, 1, 0; the "
                f"failed run outputs " + ", ".join(f"{p:.2f}" for p in p_failed) + " at the four corners.",
                ru=f"Слева: потери на обучении за {format_count(int(two.steps))} {ru_plural(int(two.steps), 'шаг', 'шага', 'шагов')} "
                   f"градиентного спуска в двух запусках сети 2-2-1 на XOR. Запуск с зерном {two.seeds[solved_run]} "
                   f"опускается до {two.losses[solved_run, -1]:.3f}; запуск с зерном {two.seeds[failed_run]} "
                   f"останавливается на {two.losses[failed_run, -1]:.3f}. Справа: выходы в четырёх углах после "
                   f"обучения, парами столбиков. Столбики удачного запуска близки к целям 0, 1, 1, 0; неудачный "
                   f"запуск выдаёт в четырёх углах " + ", ".join(f"{p:.2f}" for p in p_failed) + "."),
        caption=say(f"Same network, same learning rate, different seeds. Notice that the failed run's loss does not "
                    f"creep down slowly: it stops. Its dead unit receives no gradient, and the one live unit cannot "
                    f"separate XOR.",
                    ru="Та же сеть, та же скорость обучения, разные зёрна генератора. Обратите внимание: потери неудачного запуска "
                       "не сползают медленно вниз, а останавливаются. Мёртвый нейрон не получает градиента, а "
                       "единственный живой нейрон не может разделить XOR."),
    )


def backward_stepper() -> str:
    """The backward-pass stepper widget, started on the backward table's network, input, target and
    the step table's rate (:mod:`mlp_ref.course.backward_stepper`).

    Returns
    -------
    str
        The widget's HTML, with what a reader without JavaScript reads instead.
    """
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    return widget_html("backward-stepper", stepper_data(net, X, Y, LR), stepper_fallback())


def training_playground() -> str:
    """The training playground widget, with its data sets (:mod:`mlp_ref.course.playground`).

    Returns
    -------
    str
        The widget's HTML, with what a reader without JavaScript reads instead.
    """
    return widget_html("training-playground", playground_data(), playground_fallback())


def _check_shapes_fix_order() -> None:
    """"The shapes fix the order only when the sizes differ": with B = d_in = d_out, X^T Delta and its
    transposed order Delta^T X have the same shape, and only the first is the layer's weight gradient."""
    d = 3                                                                     # B = d_in = d_out
    net = mlp_ref.MLP([d, d], activation="identity", seed=0)                  # W (3, 3)
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(d, d)), rng.normal(size=(d, d))                   # (B, d_in), (B, d_out)
    _, cache = net.forward(X, keep_cache=True)
    _, delta = net.loss_and_delta(cache.pre_activations[-1], y)               # (B, d_out)
    dW = net.backward(cache, delta).weights[0]                                # (d_in, d_out)
    right, wrong = X.T @ delta, delta.T @ X
    assert wrong.shape == dW.shape and np.allclose(right, dW) and not np.allclose(wrong, dW), (
        f"lesson 5, the chain rule for one layer: expected X^T Delta = dW and Delta^T X of the same shape "
        f"{dW.shape} but different, found shapes {right.shape}, {wrong.shape}, X^T Delta = dW: "
        f"{np.allclose(right, dW)}, Delta^T X = dW: {np.allclose(wrong, dW)}")


def values() -> dict[str, str]:
    """The numbers lesson 5's prose says (``{@ l5.best_w @}``), as it reads them."""
    _check_shapes_fix_order()
    line = mlp_ref.LineFit.of(*LINE_POINTS)
    lr = dict(RATES)["about right"]                                  # the figure's middle rate, from W0
    w1 = W0 - lr * float(line.grad(W0))
    # lesson 3's 2-2-1 network on x = (1, 2) with the target 0 (the trace) and 1 (exercise 1)
    net = mlp_ref.MLP.from_arrays(*LAYERS, activation="relu", output="sigmoid")
    x = X[None, :]
    loss0, _ = net.loss_and_grads(x, np.array([Y]))
    _, grads1 = net.loss_and_grads(x, np.array([1.0]))
    # the 784 net's multiply-adds at B = 32 (the page's table)
    counts = _multiply_adds()
    first = counts.forward[0]
    first_share = first[0][0] * first[0][1] * first[1][1] / counts.forward_total
    study = mlp_ref.XOR_STUDY
    # the page's one step (the step table): both hidden units end off for this input
    _, _, stepped = _step()
    z1_after = stepped.forward(x, keep_cache=True)[1].pre_activations[0][0]
    assert np.all(z1_after < 0), (                                    # "both are negative"
        f"lesson 5: after the page's step both hidden pre-activations are negative; found z1 = "
        f"{np.round(z1_after, 4).tolist()}")
    y_hat_after = float(stepped.forward(x)[0, 0])
    assert math.isclose(y_hat_after, float(mlp_ref.sigmoid(stepped.biases[1])[0]), rel_tol=1e-12), (  # = sigma(b2)
        f"lesson 5: once both hidden units are off, ŷ = σ(b2); found ŷ = {y_hat_after:.12g} against "
        f"σ(b2) = {float(mlp_ref.sigmoid(stepped.biases[1])[0]):.12g}")
    # where the logit's fall came from: the hidden units' share a1 W2 (gone once both are off) and b2's own step
    cache = net.forward(x, keep_cache=True)[1]
    logit_before = float(cache.pre_activations[-1][0, 0])
    hidden_part = float((cache.activations[1] @ net.weights[1])[0, 0])
    b2_fall = float(net.biases[1][0] - stepped.biases[1][0])
    logit_after = float(stepped.biases[1][0])
    assert math.isclose(logit_before - logit_after, hidden_part + b2_fall, rel_tol=1e-12), (
        f"lesson 5: the logit's fall is the hidden units' share a1 W2 plus b2's own step; found a fall of "
        f"{logit_before - logit_after:.12g} against {hidden_part:.12g} + {b2_fall:.12g} = {hidden_part + b2_fall:.12g}")
    assert hidden_part > b2_fall > 0, (                               # "most of it ... the rest"
        f"lesson 5: most of the logit's fall comes from the hidden units (a1 W2) and the rest from b2's step "
        f"(above 0); found {hidden_part:.4g} from the hidden units and {b2_fall:.4g} from b2")
    # the stepper walks the backward table's rows with ∂L/∂ŷ before them and the SGD step and
    # the new loss after them; the table's body is its lines below the header and the rule
    table_rows = len(backward_table().splitlines()) - 2
    # "Why float64": the float32 difference quotient of dW1 moves in steps of one float32 spacing
    # of the loss divided by 2 eps
    eps = 1e-6
    dW1 = net.loss_and_grads(x, np.array([Y]))[1].weights[0]
    f32 = mlp_ref.MLP.from_arrays(net.weights, net.biases, activation="relu", output="sigmoid", dtype=np.float32)
    x32, y32 = x.astype(np.float32), np.array([[Y]], dtype=np.float32)

    def loss32():
        _, c = f32.forward(x32, keep_cache=True)
        return float(f32.loss_and_delta(c.pre_activations[-1], y32)[0])

    assert 1 <= loss0 < 2, (                            # "float32 keeps 23 bits after the point between 1 and 2"
        f"lesson 5: the loss before the step lies between 1 and 2, where float32 keeps 23 bits after the point; "
        f"found {loss0:.6g}")
    f32_step = float(np.spacing(np.float32(loss0))) / (2 * eps)
    f32_miss = float(np.abs(mlp_ref.central_difference(loss32, f32.weights[0], eps=eps) - dW1).max())
    assert 0.5 * f32_step < f32_miss < 2 * f32_step, (  # "an error of the size of that step" (it varies by machine)
        f"lesson 5: the float32 difference quotient of dW1 misses by about one float32 step of the loss over 2ε, "
        f"{f32_step:.3g} (between half and twice it); found a miss of {f32_miss:.3g}")
    assert f32_step / np.abs(dW1).max() > 0.02, (       # "several per cent" of the largest gradient
        f"lesson 5: that float32 step is several per cent (above 2 %) of the largest entry of dW1; "
        f"found {f32_step / np.abs(dW1).max():.2%}")
    return {
        "curvature": number(line.curvature),                 # "L'' = 9.3333"
        "best_w": number(line.best),                          # "w* = 2.0714"
        "grad0": number(float(line.grad(W0))),                # "L'(0) = -19.3333"
        "w1": number(w1),                                     # "w1 = 1.5467"
        "loss0": number(float(line.loss(W0))),                # "from 20.6667"
        "loss1": number(float(line.loss(w1))),
        "critical_lr": number(line.critical_lr),              # "2 / L'' = 0.2143"
        "newton_lr": number(1 / line.curvature),              # exercise 2: "1 / L''"
        "z1": ", ".join(number(z) for z in cache.pre_activations[0][0]),  # "(0.8, 1.1)"
        "y_hat": number(net.forward(x)[0, 0]),                # "ŷ = 0.779"
        "loss_before": number(loss0),                         # "-log(1 - ŷ) = 1.5097"
        "ex1_delta2": number(grads1.biases[1][0]),            # exercise 1: "δ2 = ŷ - 1"
        "mac_ratio": format_number(counts.ratio, 2),          # "The ratio is 1.08"
        "first_share": format_number(100 * first_share, 0),  # "holds 92 %"
        "xor_seeds": number(study.n_seeds),                   # "from 200 seeds"
        "xor_widths": ", ".join(number(h) for h in study.widths),
        "xor_lr": number(study.lr),
        "xor_steps": format_count(study.steps),
        "dead_num": number(BORN_DEAD.numerator),              # "probability 1/4"
        "dead_den": number(BORN_DEAD.denominator),
        "alive_num": number((1 - BORN_DEAD).numerator),       # "1 - (3/4)^h"
        "alive_den": number((1 - BORN_DEAD).denominator),
        "z1_after": ", ".join(number(z).replace("-", "−") for z in z1_after),  # "−0.3685, −0.3022"
        "y_hat_after": number(y_hat_after),                   # "ŷ = σ(b2) = 0.4528"
        "logit_before": number(logit_before).replace("-", "−"),  # "the logit fell from 1.26 ..."
        "logit_after": number(logit_after).replace("-", "−"),    # "... to −0.1895"
        "hidden_part": number(hidden_part),                   # "1.06 of it: the hidden units' share"
        "b2_fall": number(b2_fall),                           # "0.3895: b2's own step"
        "f32_step": format_number(f32_step, 2),               # "one such step is 0.06"
        "f32_miss": format_number(f32_miss, 2),               # "miss by up to 0.08"
        "grad_min": format_number(np.abs(dW1).min(), 2),      # "gradients between 0.39 and 0.93"
        "grad_max": format_number(np.abs(dW1).max(), 2),
        "table_rows": number(table_rows),                     # "the stepper has 17 rows to the table's 14"
        "stepper_rows": number(ROWS_BEFORE_TABLE + table_rows + ROWS_AFTER_TABLE),
    }
