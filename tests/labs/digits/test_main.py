"""Tests of python -m mlp_ref.labs.digits: it prints the report the page prints (mlp_ref.labs.cli is
tested for both labs in tests/labs/test_cli.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from mlp_ref.labs.digits.experiment import DigitsSettings, run_lab
from mlp_ref.labs.digits.report import format_report, mnist_report
from tests.labs.digits.mnist_files import write_idx


ROOT = Path(__file__).resolve().parents[3]


TIME = re.compile(r"\d+\.\d ms")


def _without_timings(text: str) -> str:
    """Fit times differ between two runs; so does the padding of the columns they widen."""
    text = TIME.sub("T ms", text)
    return "\n".join(re.sub(r"-{3,}", "---", re.sub(r" +", " ", line)) for line in text.splitlines())


def test_cli_prints_the_shared_report():
    settings = DigitsSettings(epochs=3, seed=2, n_seeds=2, study=((64, 16, 10), (64, 32, 16, 10)), hgb_rounds=3)
    expected = format_report(run_lab(settings))
    run = subprocess.run(
        [sys.executable, "-m", "mlp_ref.labs.digits", "--epochs", "3", "--seed", "2", "--seeds", "2",
         "--study", "64,16,10", "64,32,16,10", "--hgb-rounds", "3", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    assert TIME.search(run.stdout)  # the masking below has something to mask
    assert _without_timings(run.stdout) == _without_timings(expected + "\n")
    assert "[64, 32, 16, 10]" in run.stdout and "MLPClassifier" in run.stdout and run.stderr == ""


def test_cli_mnist_prints_the_shared_report(tmp_path):
    write_idx(tmp_path)
    settings = DigitsSettings(epochs=2, seed=0, mnist_val=40, mnist_sizes=(784, 16, 10))
    expected = mnist_report(str(tmp_path), settings)
    run = subprocess.run(
        [sys.executable, "-m", "mlp_ref.labs.digits", "--mnist", str(tmp_path), "--epochs", "2", "--seed", "0",
         "--mnist-val", "40", "--mnist-sizes", "784,16,10", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert run.stdout == expected + "\n"
    assert "MNIST run on" in run.stdout and "[784, 16, 10]" in run.stdout


def test_cli_reports_a_missing_mnist_folder(tmp_path):
    run = subprocess.run([sys.executable, "-m", "mlp_ref.labs.digits", "--mnist", str(tmp_path / "none"),
                          "--no-progress"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "not a folder" in run.stderr and run.stdout == ""


def test_cli_with_no_model_trained_exits_with_one_line():
    """--lr 50, a typo for 0.5: every model ends at chance, so there is no result to print."""
    run = subprocess.run([sys.executable, "-m", "mlp_ref.labs.digits", "--lr", "50", "--epochs", "3", "--seeds", "2",
                          "--study", "64,8,10", "--hgb-rounds", "1", "--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == "", (run.returncode, run.stdout)
    assert run.stderr.startswith("python -m mlp_ref.labs.digits: error: no model trained: every one ended at chance")
    assert run.stderr.count("\n") == 1 and "this run's: 50; the page's: 0.1" in run.stderr, run.stderr

