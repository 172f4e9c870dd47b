"""Tests of mlp_ref.labs.progress."""

from __future__ import annotations

import re

from mlp_ref.labs.progress import NotebookProgress


def test_notebook_progress_ends_at_the_total(monkeypatch):
    import IPython.display

    drawn = []

    class Handle:
        def update(self, obj):
            drawn.append(obj.data)

    monkeypatch.setattr(IPython.display, "display", lambda obj, display_id=None: drawn.append(obj.data) or Handle())
    bar = NotebookProgress(total=3, desc="fits", unit="fit", interval=0.0)
    for k in range(3):
        bar.set_postfix_str(f"fit {k}")
        bar.update(1)
    bar.close()
    assert drawn[0].startswith("fits:   0%") and "0/3" in drawn[0]
    assert "fit 2" in drawn[-2] and "3/3" in drawn[-2]       # the last update names the last fit
    assert drawn[-1].startswith("fits: 100%") and "3/3" in drawn[-1] and "fit 2" not in drawn[-1]


def test_a_notebooks_bar_speaks_the_notebooks_language(monkeypatch):
    """Ticker passes a notebook's bar its words in the notebook's language (MLP_LANG, set by LANGUAGE)."""
    from mlp_ref.labs.progress import Ticker

    made = []
    for language, expected in (("en", ("fits", "fit")), ("ru", ("обучение", "модель"))):
        monkeypatch.setenv("MLP_LANG", language)
        Ticker(lambda total, desc, unit: made.append((desc, unit)), total=3, unit="fit")
        assert made[-1] == expected, (language, made[-1])


def test_notebook_progress_outside_a_notebook_draws_on_stderr(capsys):
    """A lab run as a plain script: IPython's display() returns no handle there."""
    bar = NotebookProgress(total=2, desc="fits", unit="fit", interval=0.0)
    bar.update(2)
    bar.close()
    err = capsys.readouterr().err
    assert err.endswith("\n") and "2/2" in err.splitlines()[-1] and err.count("\r") == 2


def test_a_russian_bar_says_its_rate_in_russian(monkeypatch):
    """tqdm writes its rate as "4.67модель/s"; the Russian bar says "4.67 модель/с"."""
    monkeypatch.setenv("MLP_LANG", "ru")
    bar = NotebookProgress(total=4, desc="обучение", unit="модель", interval=60.0)
    bar.update(2)
    text = bar.text()
    assert "2/4" in text and " модель/с" in text and "/s" not in text, text
    bar.start -= 10.0  # 2 fits in 10 s (and a little more): tqdm would say "5.00s/fit"
    assert re.search(r"\b5\.\d\d с/модель\]", bar.text()), bar.text()
