"""Benchmark: mlp_ref.fit's two engines against scikit-learn's MLPClassifier and the matmul floor.

Run from the checkout: ``python benchmarks/bench_mlp.py`` (exits 0 and prints a table).

Two workloads, each trained with mini-batch SGD, no momentum, no L2, constant learning rate:

* ``digits``: [64, 32, 16, 10] on scikit-learn's digits (1,437 training rows after an 80/20
  split), batch 64, 25 epochs, lr 0.1;
* ``synthetic784``: [784, 128, 64, 10] on 10,000 synthetic rows, batch 256, 5 epochs, lr 0.1.

For each, in one process with the runs alternating (ours, sklearn, floor, ours, ...), the
median over ``REPEATS`` runs of the time per epoch of

* ``fast`` and ``readable``: ``mlp_ref.fit(..., engine="fast")`` and ``mlp_ref.fit`` with its
  default, readable engine (both include the per-epoch validation pass over the held-out
  rows, which scikit-learn, with ``early_stopping=False``, does not do);
* ``sklearn``: ``MLPClassifier(solver="sgd", momentum=0, alpha=0, tol=0,
  n_iter_no_change=huge, early_stopping=False, shuffle=True)`` with the same batch and epochs;
  ``sklearn+val`` adds the time of one ``predict_proba`` on the validation rows per epoch,
  the validation work ``fit`` does, so that both sides are charged the same work;
* ``floor``: only the matrix products that one epoch of ``fit`` must compute, for the same
  shapes and batch sizes, into preallocated outputs: on the training batches the forward
  ``X @ W``, the weight gradients ``A^T @ delta`` and the backpropagated ``delta @ W^T``; on the
  validation rows, in batch-sized chunks, the forward ``X @ W`` that the per-epoch validation
  loss needs. No implementation can do the same products in less time. The table's footnote
  also gives the ratio to the training products alone.

Targets (issue 11): fast / sklearn <= 0.4 on digits (plain scikit-learn, the stricter
comparison) and fast / (sklearn+val) <= 0.8 on synthetic784 in float64; fast / floor <= 1.6 on
synthetic784 in float32; readable / fast <= 3 on digits. The BLAS threading is left as configured
(no OPENBLAS_* variables are changed). Timings on a shared machine are noisy: read the
ratios, which compare runs made side by side, rather than the absolute times.

On a busy machine multi-threaded BLAS calls stall whenever one of their threads is not
scheduled, and wall-clock ratios swing from run to run. On the 2-CPU virtual machines this
project was measured on, spells of ten seconds or more came and went in which ``fit`` with two
BLAS threads ran about 1.7 times slower while the bare products slowed by only about 10 %:
a run of the benchmark that overlaps such a spell reports ratios far from the usual ones. The
footnotes give each column's fastest and slowest run, and flag a workload whose slowest run
took over 1.5 times its fastest; rerun it. For a diagnostic that other processes barely disturb, run
``python benchmarks/bench_mlp.py --blas-threads 1 --clock cpu``: one BLAS thread (through
threadpoolctl, for this process only) timed in process CPU time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings

import numpy as np
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier

from mlp_ref import MLP, fit

REPEATS = 9
CLOCK = time.perf_counter   # wall time; --clock cpu switches to process CPU time


def digits_data():
    X, y = load_digits(return_X_y=True)
    X_train, X_val, y_train, y_val = train_test_split(X / 16.0, y, test_size=0.2, stratify=y, random_state=0)
    return X_train, y_train, X_val, y_val


def synthetic_data(n_train=10_000, n_val=1_000, d=784, k=10, seed=0):
    """MNIST-sized rows: a random class prototype (scale 0.15) plus unit Gaussian noise.

    Learnable in a few epochs (about 0.9 validation accuracy after 5), so that the timed runs
    do real training rather than wandering at chance.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n_train + n_val)
    prototypes = 0.15 * rng.standard_normal((k, d))
    X = prototypes[y] + rng.standard_normal((n_train + n_val, d))
    return X[:n_train], y[:n_train], X[n_train:], y[n_train:]


ENGINES = ("fast", "readable")


def time_ours(sizes, data, epochs, batch_size, lr, dtype, engine="fast"):
    X_train, y_train, X_val, y_val = (a.astype(dtype) if a.dtype.kind == "f" else a for a in data)
    net = MLP(sizes, activation="relu", output="softmax", seed=0, dtype=dtype)
    start = CLOCK()
    history = fit(net, X_train, y_train, X_val, y_val, epochs=epochs, batch_size=batch_size, lr=lr, seed=0,
                  engine=engine)
    return (CLOCK() - start) / epochs, history.val_accuracy[history.best_epoch]


def time_sklearn(sizes, data, epochs, batch_size, lr, dtype):
    X_train, y_train, X_val, y_val = (a.astype(dtype) if a.dtype.kind == "f" else a for a in data)
    clf = MLPClassifier(tuple(sizes[1:-1]), activation="relu", solver="sgd", learning_rate="constant",
                        learning_rate_init=lr, momentum=0.0, nesterovs_momentum=False, alpha=0.0,
                        batch_size=batch_size, max_iter=epochs, tol=0.0, n_iter_no_change=10**9,
                        early_stopping=False, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = CLOCK()
        clf.fit(X_train, y_train)
        elapsed = CLOCK() - start
    start = CLOCK()
    proba = clf.predict_proba(X_val)      # the validation work mlp_ref.fit does once per epoch
    validation = CLOCK() - start
    return elapsed / epochs, float(np.mean(proba.argmax(axis=1) == y_val)), validation


def time_floor(sizes, n_rows, n_val, batch_size, dtype):
    """Time the matrix products of one epoch of fit, nothing else.

    Returns (seconds for the training products, seconds for the validation products).
    """
    rng = np.random.default_rng(0)
    # scaled so that the values stay O(1) (no overflow or subnormal numbers to slow anything)
    weights = [(rng.standard_normal((a, b)) / np.sqrt(a)).astype(dtype) for a, b in zip(sizes[:-1], sizes[1:])]
    acts = [rng.standard_normal((batch_size, d)).astype(dtype) for d in sizes]
    deltas = [np.empty((batch_size, d), dtype) for d in sizes]
    grads = [np.empty_like(W) for W in weights]
    start = CLOCK()
    for n in _chunks(n_rows, batch_size):
        for l, W in enumerate(weights):                      # forward
            np.matmul(acts[l][:n], W, out=acts[l + 1][:n])
        for l in range(len(weights) - 1, -1, -1):            # backward
            np.matmul(acts[l][:n].T, acts[l + 1][:n], out=grads[l])
            if l > 0:
                np.matmul(acts[l + 1][:n], weights[l].T, out=deltas[l][:n])
    middle = CLOCK()
    for n in _chunks(n_val, batch_size):                     # validation: forward only
        for l, W in enumerate(weights):
            np.matmul(acts[l][:n], W, out=acts[l + 1][:n])
    return middle - start, CLOCK() - middle


def _chunks(n_rows, batch_size):
    return [min(batch_size, n_rows - start) for start in range(0, n_rows, batch_size)]


WORKLOADS = [
    # name, sizes, data loader, epochs, batch, lr, dtypes
    ("digits", [64, 32, 16, 10], digits_data, 25, 64, 0.1, [np.float64]),
    ("synthetic784", [784, 128, 64, 10], synthetic_data, 5, 256, 0.1, [np.float64, np.float32]),
]

#: (workload, dtype, numerator, denominator) -> the largest ratio the target allows
TARGETS = {("digits", "float64", "fast", "sklearn"): 0.4,
           ("digits", "float64", "readable", "fast"): 3.0,
           ("synthetic784", "float64", "fast", "sklearn+val"): 0.8,
           ("synthetic784", "float32", "fast", "floor"): 1.6}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS, help=f"runs per measurement (default {REPEATS})")
    parser.add_argument("--only", choices=[w[0] for w in WORKLOADS], help="run one workload")
    parser.add_argument("--dtype", choices=["float64", "float32"], help="run one dtype")
    parser.add_argument("--blas-threads", type=int, default=None,
                        help="diagnostic: limit BLAS to this many threads with threadpoolctl "
                             "(default: leave the BLAS threading as configured)")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="wall time (default) or process CPU time; CPU time is robust to other "
                             "processes on a busy machine, but only meaningful with --blas-threads 1 "
                             "(idle BLAS threads spin and would be counted)")
    args = parser.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.blas_threads is not None:
        from threadpoolctl import threadpool_limits
        with threadpool_limits(args.blas_threads):
            return _run(args)
    return _run(args)


def _run(args) -> int:
    rows = []
    for name, sizes, loader, epochs, batch, lr, dtypes in WORKLOADS:
        if args.only and name != args.only:
            continue
        data = loader()
        for dtype in dtypes:
            if args.dtype and np.dtype(dtype).name != args.dtype:
                continue
            # warm-up (imports, BLAS threads, caches)
            for engine in ENGINES:
                time_ours(sizes, data, 1, batch, lr, dtype, engine)
            time_sklearn(sizes, data, 1, batch, lr, dtype)
            runs = {label: [] for label in (*ENGINES, "sklearn", "sklearn+val", "floor", "train floor")}
            accuracy = {}
            for _ in range(args.repeats):                     # alternate them all
                for engine in ENGINES:
                    t, accuracy[engine] = time_ours(sizes, data, epochs, batch, lr, dtype, engine)
                    runs[engine].append(t)
                t, accuracy["sklearn"], t_val = time_sklearn(sizes, data, epochs, batch, lr, dtype)
                runs["sklearn"].append(t)
                runs["sklearn+val"].append(t + t_val)
                train_products, val_products = time_floor(sizes, len(data[0]), len(data[2]), batch, dtype)
                runs["floor"].append(train_products + val_products)
                runs["train floor"].append(train_products)
            medians = {label: statistics.median(t) for label, t in runs.items()}
            rows.append((name, np.dtype(dtype).name, medians, runs, accuracy))

    threads = "as configured" if args.blas_threads is None else f"limited to {args.blas_threads}"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"per-epoch medians of {args.repeats} alternating runs (ms, {args.clock} clock); BLAS threads {threads}; "
          f"{os.cpu_count()} CPUs, load average {load} (at the end)\n")
    header = ("workload", "dtype", "fast", "readable", "sklearn", "sklearn+val", "matmul floor",
              "fast/sklearn", "fast/sklearn+val", "fast/floor", "readable/sklearn+val", "readable/floor",
              "readable/fast", "val acc fast", "val acc readable", "val acc sklearn")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    verdicts, footnotes = [], []
    for name, dtype, m, runs, accuracy in rows:
        def ratio(a, b):
            return m[a] / m[b]
        cells = [m[k] * 1e3 for k in ("fast", "readable", "sklearn", "sklearn+val", "floor")]
        ratios = [ratio("fast", "sklearn"), ratio("fast", "sklearn+val"), ratio("fast", "floor"),
                  ratio("readable", "sklearn+val"), ratio("readable", "floor"), ratio("readable", "fast")]
        print(f"| {name} | {dtype} | " + " | ".join(f"{c:.2f}" for c in cells) + " | "
              + " | ".join(f"{r:.3f}" for r in ratios) + " | "
              + " | ".join(f"{accuracy[k]:.3f}" for k in ("fast", "readable", "sklearn")) + " |")
        footnotes.append(f"{name} {dtype}: floor without the validation products {m['train floor'] * 1e3:.2f} ms, "
                         f"fast/that = {ratio('fast', 'train floor'):.3f}")
        timed = {k: runs[k] for k in (*ENGINES, "sklearn", "floor")}
        spread = ", ".join(f"{label} {min(t) * 1e3:.2f}-{max(t) * 1e3:.2f}" for label, t in timed.items())
        uneven = max(max(t) / min(t) for t in timed.values()) > 1.5
        footnotes.append(f"{name} {dtype}: fastest-slowest run (ms): {spread}"
                         + ("; the slowest run took over 1.5 times the fastest: the machine was busy, rerun" if uneven else ""))
        for (t_name, t_dtype, top, bottom), limit in TARGETS.items():
            if (t_name, t_dtype) == (name, dtype):
                value = ratio(top, bottom)
                verdicts.append(f"{name} {dtype}: {top}/{bottom} = {value:.3f} "
                                f"(target <= {limit}) {'met' if value <= limit else 'NOT met'}")
    print()
    print("\n".join(footnotes))
    print()
    print("\n".join(verdicts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
