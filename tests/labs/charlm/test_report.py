"""Tests of mlp_ref.labs.charlm.report."""

from __future__ import annotations

from mlp_ref.labs.charlm.experiment import CharLMSettings
from mlp_ref.labs.charlm.report import command_line


def test_printed_command_line_names_the_word_file(tmp_path):
    settings = CharLMSettings(steps=7)
    argv = command_line(settings, tmp_path / "my words.txt", build_vocab=True).split(" --steps")[0]
    assert argv == f"python -m mlp_ref.labs.charlm --words '{tmp_path / 'my words.txt'}' --build-vocab"
    assert "--words" not in command_line(settings)
