"""Tests of mlp_ref.labs.cli and of the two labs' command lines, which must behave alike.

Each lab is described once (LABS); every test runs on both, so an asymmetry between the labs
(a flag spelled differently, an error reported another way) fails for one of them.
"""

from __future__ import annotations

import re
import sys
from dataclasses import fields

import pytest

from mlp_ref.labs import cli
from mlp_ref.labs.charlm import __main__ as charlm_main
from mlp_ref.labs.charlm.experiment import CharLMSettings
from mlp_ref.labs.charlm.report import command_line as charlm_command_line
from mlp_ref.labs.digits import __main__ as digits_main
from mlp_ref.labs.digits.experiment import DigitsSettings
from mlp_ref.labs.digits.report import command_line as digits_command_line

LABS = {
    "digits": dict(main=digits_main, settings=DigitsSettings, command_line=digits_command_line,
                   prog="python -m mlp_ref.labs.digits", first=("epochs", "seed"),
                   custom=DigitsSettings(epochs=7, seed=4, n_seeds=2, batch_size=16, lr=0.05,
                                         study=((64, 16, 10), (64, 8, 10)), hgb_rounds=9, mnist_val=50)),
    "charlm": dict(main=charlm_main, settings=CharLMSettings, command_line=charlm_command_line,
                   prog="python -m mlp_ref.labs.charlm", first=("steps", "seed"),
                   custom=CharLMSettings(steps=123, seed=9, n_seeds=2, context=4, emb_dim=5, hidden=17,
                                         batch_size=16, lr=0.2, momentum=0.05, alpha=0.5, n_samples=7)),
}


def _exit_status(main, argv, capsys) -> tuple[int, str, str]:
    """Run ``main(argv)`` as ``python -m`` would: argparse's own errors end in SystemExit."""
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("lab", LABS)
def test_command_line_round_trips_through_the_parser(lab):
    spec = LABS[lab]
    default = spec["command_line"](spec["settings"]())
    first = " ".join(f"--{name} {getattr(spec['settings'](), name)}" for name in spec["first"])
    assert default == f"{spec['prog']} {first}"
    argv = spec["command_line"](spec["custom"]).split()
    assert " ".join(argv[:3]) == spec["prog"]
    args = spec["main"].parser().parse_args(argv[3:])
    assert cli.settings_from_args(spec["settings"], args) == spec["custom"]


def test_one_list_of_widths_with_commas_is_read_as_before():
    args = digits_main.parser().parse_args(["--sizes", "64,48,16,10", "--seeds", "3"])
    settings = cli.settings_from_args(DigitsSettings, args)
    assert settings.sizes == (64, 48, 16, 10) and settings.n_seeds == 3
    help_text = " ".join(digits_main.parser().format_help().split())   # argparse wraps it
    assert "layer widths; widths joined by commas" in help_text
    assert "each list's widths joined by commas, lists separated by spaces" in help_text


@pytest.mark.parametrize("lab", LABS)
def test_every_setting_has_one_flag_and_both_labs_share_the_vocabulary(lab):
    spec = LABS[lab]
    flags = {cli.flag_of(f) for f in fields(spec["settings"])}
    assert len(flags) == len(fields(spec["settings"]))
    assert {"--seed", "--seeds", "--batch-size", "--lr"} <= flags   # the same names in both labs
    help_text = spec["main"].parser().format_help()
    assert all(flag in help_text for flag in flags)


@pytest.mark.parametrize("lab, argv, message", [
    ("digits", ["--epochs", "x"], "argument --epochs: invalid int value: 'x'"),
    ("charlm", ["--steps", "x"], "argument --steps: invalid int value: 'x'"),
    ("digits", ["--epochs", "0"], "error: argument --epochs: expected a positive integer, received 0"),
    ("charlm", ["--steps", "0"], "error: argument --steps: expected a positive integer, received 0"),
    ("digits", ["--seeds", "0"], "error: argument --seeds: expected a positive integer, received 0"),
    ("charlm", ["--seeds", "0"], "error: argument --seeds: expected a positive integer, received 0"),
    ("charlm", ["--samples", "0"], "error: argument --samples: expected a positive integer, received 0"),
    ("digits", ["--study", "64,16,10", "32,10"], "error: argument --study, list 2: expected 64 inputs"),
    # widths typed with spaces, for one list as for several: the same rule (commas) and the command with them
    ("digits", ["--sizes", "64", "48", "16", "10"],
     "error: argument --sizes: write the widths of a list with commas, not spaces: --sizes 64,48,16,10"),
    ("digits", ["--study", "64", "32", "10"],
     "error: argument --study: write the widths of a list with commas, not spaces: --study 64,32,10"),
    ("digits", ["--mnist-sizes", "784", "16", "10"], "--mnist-sizes 784,16,10 (received --mnist-sizes 784 16 10)"),
    ("digits", ["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    ("charlm", ["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    ("digits", ["--mnist", "/no/such/folder", "--no-progress"], "which is not a folder"),
    ("charlm", ["--words", "/no/such/file.txt", "--no-progress"], "/no/such/file.txt"),
    ("charlm", ["--build-vocab", "--no-progress"], "--build-vocab needs --words"),
])
def test_bad_input_exits_2_with_one_line(lab, argv, message, capsys):
    status, out, err = _exit_status(LABS[lab]["main"].main, argv, capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"{LABS[lab]['prog']}: error: ") and message in err


# A value of each kind that every setting of that kind refuses (no count, rate or width is negative).
REFUSED = {int: "-1", float: "-1", "widths": "0,10"}


@pytest.mark.parametrize("lab", LABS)
def test_a_refused_setting_is_named_by_the_flag_typed(lab, capsys):
    """Every setting, given a value its dataclass refuses through its flag: the message names that flag,
    never the dataclass's field (``--seeds 0`` must not answer ``n_seeds: ...``)."""
    spec = LABS[lab]
    for f in fields(spec["settings"]):
        flag = cli.flag_of(f)
        kind = type(f.default) if isinstance(f.default, (int, float)) else "widths"
        status, out, err = _exit_status(spec["main"].main, [flag, REFUSED[kind]], capsys)
        assert status == 2 and out == "", (flag, err)
        assert re.match(rf"{spec['prog']}: error: argument {flag}(, list 1)?(, width 1)?: expected ", err), (flag, err)
        assert f" {f.name}:" not in err and f" {f.name}[" not in err, (flag, err)


def test_a_message_naming_no_setting_is_kept():
    assert cli.flag_message(LABS["digits"]["settings"], "no colon here") == "no colon here"
    assert cli.flag_message(LABS["digits"]["settings"], "other: x") == "other: x"
    assert cli.flag_message(LABS["digits"]["settings"], "study[x]: y") == "study[x]: y"
    assert cli.flag_message(LABS["digits"]["settings"], "study[1][0]: y") == "argument --study, list 2, width 1: y"
    assert cli.flag_message(LABS["digits"]["settings"], "sizes[2]: y") == "argument --sizes, width 3: y"


@pytest.mark.parametrize("lab, argv", [
    ("digits", ["--epochs", "1", "--seeds", "1", "--study", "64,16,10", "--sizes", "64,16,10", "--hgb-rounds", "1"]),
    ("charlm", ["--steps", "1", "--seeds", "1", "--samples", "1"]),
])
def test_a_missing_labs_extra_is_named_not_a_traceback(lab, argv, capsys, monkeypatch, tmp_path):
    if lab == "charlm":
        words = tmp_path / "words.txt"
        words.write_text("anna\nbob\nemma\nava\nlily\nzoe\nmia\nleo\nmax\nsam\n", encoding="utf-8")
        argv = [*argv, "--words", str(words)]
    monkeypatch.setitem(sys.modules, "tqdm", None)  # "import tqdm" now fails as if it were not installed
    status, out, err = _exit_status(LABS[lab]["main"].main, argv, capsys)  # with the progress bar (the default)
    assert status == 1
    assert err == f"{LABS[lab]['prog']}: error: the labs need the module 'tqdm', which is not installed: " \
                  f"{cli.INSTALL_LABS}\n"
    assert cli.INSTALL_LABS == 'pip install "mlp_ref[labs]"'


def test_a_missing_module_outside_the_extra_keeps_its_traceback():
    def body():
        raise ModuleNotFoundError("No module named 'nonexistent'", name="nonexistent")
    with pytest.raises(ModuleNotFoundError):
        cli.guarded("prog", body)


def test_settings_must_be_declared_with_a_help_text():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Bare:
        steps: int = 3

    with pytest.raises(TypeError, match="Bare.steps: declare it with setting"):
        cli.add_settings(cli.Parser(prog="x"), Bare)
