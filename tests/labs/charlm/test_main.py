"""Tests of python -m mlp_ref.labs.charlm: it prints the report the page prints (mlp_ref.labs.cli is
tested for both labs in tests/labs/test_cli.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mlp_ref.labs.charlm.data import load_census_names
from mlp_ref.labs.charlm.experiment import CharLMSettings, run_lab
from mlp_ref.labs.charlm.report import format_report


ROOT = Path(__file__).resolve().parents[3]


def test_cli_prints_the_shared_report(tmp_path):
    words = load_census_names()[:400]
    path = tmp_path / "names.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    settings = CharLMSettings(steps=40, seed=5, n_seeds=2, emb_dim=3, hidden=16, n_samples=4)
    expected = format_report(run_lab(settings, words))
    run = subprocess.run(
        [sys.executable, "-m", "mlp_ref.labs.charlm", "--words", str(path), "--steps", "40", "--seed", "5",
         "--seeds", "2", "--emb-dim", "3", "--hidden", "16", "--samples", "4", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert run.stdout == expected + "\n"
    assert "bigram counts" in run.stdout and "(chosen)" in run.stdout


def test_cli_reports_a_bad_word_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("anna\nZoe\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mlp_ref.labs.charlm", "--words", str(path), "--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "line 2 'Zoe' ('Z')" in run.stderr and "--build-vocab" in run.stderr
    assert "--lowercase" in run.stderr and "BUILD_VOCAB" not in run.stderr
