"""mlp_ref.labs.notebook: a lab notebook says everything in its own edition's language, and starts its run."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from mlp_ref.course.claims import SITE_BUILD_ENV
from mlp_ref.course.i18n import ENV, say
from mlp_ref.labs.charlm.experiment import CharLMSettings
from mlp_ref.labs.notebook import begin, finish, use_language
from tests import editions, pagekit

LABS = sorted((pagekit.DOCS / "labs").glob("*.py"))


@pytest.fixture
def reader(monkeypatch):
    """A reader's run: no site build, no language set from outside."""
    monkeypatch.delenv(SITE_BUILD_ENV, raising=False)
    monkeypatch.delenv(ENV, raising=False)


def test_use_language_sets_the_language_of_say(reader):
    use_language("ru")
    assert say("step", ru="шаг") == "шаг"
    use_language("en")
    assert say("step", ru="шаг") == "step"
    with pytest.raises(ValueError, match="LANGUAGE: expected one of 'en', 'ru', received 'de'"):
        use_language("de")


def test_the_site_build_refuses_a_notebook_of_the_other_edition(monkeypatch):
    monkeypatch.setenv(SITE_BUILD_ENV, "1")
    monkeypatch.setenv(ENV, "en")
    with pytest.raises(ValueError, match="'en' edition is being built, but its notebook says 'ru'"):
        use_language("ru")


def test_begin_says_whether_this_is_the_pages_run(reader, capsys):
    begin("ru", CharLMSettings(steps=300), CharLMSettings(), "python -m mlp_ref.labs.charlm --steps 300")
    out = capsys.readouterr().out
    assert out.startswith("Ваши настройки отличаются от настроек страницы")
    assert "тот же запуск из командной строки:\n    python -m mlp_ref.labs.charlm --steps 300\n" in out
    begin("en", CharLMSettings(), CharLMSettings(), "python -m mlp_ref.labs.charlm")
    assert capsys.readouterr().out == "the same run from the command line:\n    python -m mlp_ref.labs.charlm\n"
    finish(0.0)
    assert capsys.readouterr().out.startswith("this notebook's cells after its imports ran in ")


def test_the_site_build_runs_only_the_pages_settings(monkeypatch):
    monkeypatch.setenv(SITE_BUILD_ENV, "1")
    monkeypatch.setenv(ENV, "en")
    with pytest.raises(AssertionError, match="the page's settings must be the defaults of CharLMSettings"):
        begin("en", CharLMSettings(), CharLMSettings(), "command", own_data=True)


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_a_lab_notebook_runs_in_its_editions_language(lab, tmp_path):
    """The notebook as a reader runs it, with nothing set from outside (no MLP_LANG): its first two code
    cells (the settings, then the imports and ``begin``) make every later word the edition's."""
    cells = [text for _, text in editions.code_cells(lab.read_text(encoding="utf-8"))][:2]
    language = "ru" if ".ru." in lab.name else "en"
    script = tmp_path / "first_cells.py"
    script.write_text("\n\n".join(cells) + "\n\nfrom mlp_ref.course.i18n import say\n"
                      "print('SAYS', say('English', ru='Русский'))\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in (ENV, SITE_BUILD_ENV)}
    env["MPLBACKEND"] = "Agg"
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, env=env,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert ("тот же запуск из командной строки:" in run.stdout) == (language == "ru"), run.stdout
    assert f"SAYS {'Русский' if language == 'ru' else 'English'}" in run.stdout


# What the course's build needs and a teacher adapting a lab would have to read around: a page's
# statement checked (claim, site_build) and words in both languages (say(..., ru=...)). They live in
# mlp_ref.labs (each lab's report and figures modules, mlp_ref.labs.notebook).
PLUMBING = re.compile(r"\b(?:claim|site_build|say)\(|\bru=")


def plumbing_lines(text: str) -> list[str]:
    return [line for _, cell in editions.code_cells(text) for line in cell.splitlines() if PLUMBING.search(line)]


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_a_lab_cell_shows_the_experiment_not_the_course_plumbing(lab):
    found = plumbing_lines(lab.read_text(encoding="utf-8"))
    assert not found, f"{lab.name}: {len(found)} lines of course plumbing in its code cells, e.g. {found[:3]}"


def test_plumbing_in_a_cell_is_found():
    cell = '# %%\nclaim(x < 1, "x is small")\nlabel = say("step", ru="шаг")\nprint(x)\n'
    assert plumbing_lines(cell) == ['claim(x < 1, "x is small")', 'label = say("step", ru="шаг")']


# Issue 36: at 1280 px a lab's code box holds 79 characters (measured in Chromium on the built page); a longer
# line wraps, often in the middle of a list.
CODE_WIDTH = 79


def fenced_code_lines(text: str) -> list[str]:
    """The lines of the code fences in a notebook's Markdown cells (``# ```python`` ... ``# ```), without ``# ``."""
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("# ```"):
            inside = not inside
        elif inside:
            lines.append(line[2:])
    return lines


def long_code_lines(text: str) -> list[str]:
    """The code lines, in code cells and in the Markdown cells' code fences, longer than CODE_WIDTH."""
    code = [line for _, cell in editions.code_cells(text) for line in cell.splitlines()] + fenced_code_lines(text)
    return [line for line in code if len(line) > CODE_WIDTH]


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_a_lab_code_line_fits_the_code_box(lab):
    found = long_code_lines(lab.read_text(encoding="utf-8"))
    assert not found, (f"{lab.name}: expected code lines of at most {CODE_WIDTH} characters, found {len(found)} "
                       f"longer, e.g. {[f'{len(line)}: {line}' for line in found[:3]]}")


def test_a_long_code_line_is_found():
    assert long_code_lines("# %%\nx = 1\n" + "y = [" + "1, " * 40 + "]\n") == ["y = [" + "1, " * 40 + "]"]
    fenced = "# %% [markdown]\n# Run:\n#\n# ```bash\n# python -m x " + "--y 1 " * 20 + "\n# ```\n# " + "z " * 50 + "\n"
    assert long_code_lines(fenced) == ["python -m x " + "--y 1 " * 20], "the fence's line, not the prose's"


# The calls that are each lab's experiment: the lab's cell must make run_lab's, in the same order, with the
# same arguments (the progress bar and its ticks aside).
EXPERIMENT_CALLS = {
    "digits": ("digits", {"width_depth_study", "fit_mlp_classifier", "fit_logistic_regression",
                          "fit_hist_gradient_boosting", "collect"}),
    "charlm": ("charlm", {"fit_bigram", "config", "init_char_mlp", "train", "evaluated", "collect"}),
}


def experiment_calls(source: str, names) -> list[tuple]:
    """The calls of ``names`` in ``source``, in source order: (name, positional count, keyword names)."""
    import ast

    found = []
    for call in ast.walk(ast.parse(source)):
        if isinstance(call, ast.Call):
            name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "?")
            if name in names:
                keywords = tuple(sorted(k.arg or "**" for k in call.keywords if k.arg != "progress"))
                found.append((call.lineno, call.col_offset, name, len(call.args), keywords))
    return [c[2:] for c in sorted(found)]


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_a_lab_notebook_runs_the_experiment_of_run_lab(lab):
    """A lab's cells show the experiment (issue 36): its training cell makes run_lab's calls, in the same order,
    with the same arguments, so that the page's tables are the command line's."""
    import importlib
    import inspect

    package, names = EXPERIMENT_CALLS[lab.name.split(".")[0]]
    experiment = importlib.import_module(f"mlp_ref.labs.{package}.experiment")
    cell = next(text for _, text in editions.code_cells(lab.read_text(encoding="utf-8")) if ".collect(" in text)
    page, lib = experiment_calls(cell, names), experiment_calls(inspect.getsource(experiment.run_lab), names)
    assert page == lib and lib, f"{lab.name}: expected run_lab's calls {lib}, found {page}"
