"""Tests of mlp_ref.labs.charlm.report."""

from __future__ import annotations

from mlp_ref.labs.charlm.experiment import CharLMSettings
from mlp_ref.labs.charlm.report import command_line


def test_printed_command_line_names_the_word_file(tmp_path):
    settings = CharLMSettings(steps=7)
    argv = command_line(settings, tmp_path / "my words.txt", build_vocab=True).split(" --steps")[0]
    assert argv == f"python -m mlp_ref.labs.charlm --words '{tmp_path / 'my words.txt'}' --build-vocab"
    assert "--words" not in command_line(settings)


def test_a_finding_that_does_not_hold_says_what_the_pages_run_and_yours_found(monkeypatch):
    """Issue 28: a reader's run where batch normalization helped is not told that it "did not help"."""
    import warnings
    from types import SimpleNamespace

    import numpy as np

    from mlp_ref.course.claims import SITE_BUILD_ENV, ClaimWarning
    from mlp_ref.labs.charlm.report import check_findings

    monkeypatch.delenv(SITE_BUILD_ENV, raising=False)
    monkeypatch.delenv("MLP_LANG", raising=False)
    losses = {"MLP, naive init": [2.6, 2.9], "MLP, init fixes": [2.30, 2.31],
              "MLP + batch norm, naive init": [2.5, 2.5], "MLP + batch norm, init fixes": [2.25, 2.26]}
    report = SimpleNamespace(variants=[SimpleNamespace(label=k, val_loss=np.array(v)) for k, v in losses.items()],
                             bigram_loss={"val": 2.45})
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        check_findings(report)
    assert [str(w.message).split(";")[0] for w in record] == [
        "The page's run found that on top of the initialization fixes, batch normalization did not help: "
        "its mean validation loss was higher"]
    assert str(record[0].message).split(". The page's text")[0].endswith(
        "; yours found 2.255 with batch normalization against 2.305 without")
    assert record[0].category is ClaimWarning and record[0].filename == __file__  # the cell's line, not report.py
