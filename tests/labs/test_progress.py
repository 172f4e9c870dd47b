"""Tests of mlp_ref.labs.progress."""

from __future__ import annotations

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
    for language, expected in (("en", ("fits", "fit")), ("ru", ("обучения", "обуч"))):
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
