"""The Russian edition cannot drift from the English one: same code, same outputs, same anchors.

Each English page with a Russian twin (``tests/editions.py``) is compared with it fence by
fence (lab: code cell by code cell) and heading anchor by anchor.
"""

from __future__ import annotations

import pytest

from mlp_ref.course.i18n import ru_plural, say
from tests import editions

TWINNED = [p for p in editions.english_pages() if editions.twin_of(p).exists()]


def test_every_page_has_a_russian_twin():
    assert [str(p.relative_to(editions.DOCS)) for p in editions.english_pages() if p not in TWINNED] == []


@pytest.mark.parametrize("english", TWINNED, ids=lambda p: p.name)
def test_twin_has_the_same_code_and_anchors(english):
    problems = editions.differences(english, editions.twin_of(english))
    assert not problems, "\n".join(problems)


def test_a_changed_fence_is_found(tmp_path):
    en, ru = tmp_path / "a.md", tmp_path / "a.ru.md"
    en.write_text("## Why\n\n```python\nprint(1)\n```\n\n<!--mlp:expected-output-->\n\n```\n1\n```\n")
    ru.write_text("## Зачем {#why}\n\n```python\nprint(1)\n```\n\n<!--mlp:expected-output-->\n\n```\n2\n```\n")
    assert editions.differences(en, ru) == [
        "fences #3 differs:\n  a.md: ('', '1')\n  a.ru.md: ('', '2')"]
    ru.write_text("## Зачем\n\n```python\nprint(1)\n```\n")
    problems = editions.differences(en, ru)
    assert any(p.startswith("fences: a.md has 3, a.ru.md has 1") for p in problems)
    assert any(p.startswith("anchors #1 differs") for p in problems)


def test_a_changed_lab_cell_is_found(tmp_path):
    en, ru = tmp_path / "lab.py", tmp_path / "lab.ru.py"
    en.write_text('# %%\nLANGUAGE = "en"\n\n# %% [markdown]\n# ## Data\n\n# %%\nx = 1\n')
    ru.write_text('# %%\nLANGUAGE = "ru"\n\n# %% [markdown]\n# ## Данные {#data}\n\n# %%\nx = 2\n')
    assert editions.differences(en, ru) == ["code cells #2 differs:\n  lab.py: ('', 'x = 1')\n  lab.ru.py: ('', 'x = 2')"]


def test_a_lab_cells_comments_are_the_editions_own(tmp_path):
    """A code cell's comments are prose (the settings cell's are read as its documentation): each
    edition writes its own. The code itself must not differ."""
    en, ru = tmp_path / "lab.py", tmp_path / "lab.ru.py"
    en.write_text('# %%\n# Settings\nLANGUAGE = "en"  # the notebook\'s language\nx = 1  # one\n')
    ru.write_text('# %%\n# Настройки\nLANGUAGE = "ru"  # язык ноутбука\nx = 1  # один\n')
    assert editions.differences(en, ru) == []
    ru.write_text('# %%\n# Настройки\nLANGUAGE = "ru"  # язык ноутбука\nx = 2  # один\n')
    assert editions.differences(en, ru) == [
        "code cells #1 differs:\n  lab.py: ('', 'LANGUAGE = <edition>\\nx = 1')\n"
        "  lab.ru.py: ('', 'LANGUAGE = <edition>\\nx = 2')"]
    ru.write_text('# %%\nx = "# not a comment"\n')
    en.write_text('# %%\nx = "# no comment"\n')
    assert any("code cells #1 differs" in p for p in editions.differences(en, ru))


def test_a_lab_sets_its_own_editions_language(tmp_path):
    """The one line in which a lab's code differs from its twin's: ``LANGUAGE = "ru"`` in the Russian
    notebook, so that a reader's run of it is Russian (mlp_ref.labs.notebook.begin)."""
    en, ru = tmp_path / "lab.py", tmp_path / "lab.ru.py"
    en.write_text('# %%\nLANGUAGE = "en"\n')
    ru.write_text('# %%\nLANGUAGE = "en"\n')
    assert editions.differences(en, ru) == ['lab.ru.py: its first code cell must say LANGUAGE = "ru", as its first line '
                                            'of code']
    ru.write_text('# %%\nx = 1\n')
    assert 'lab.ru.py: its first code cell must say LANGUAGE = "ru", as its first line of code' in \
        editions.differences(en, ru)


def test_say_picks_the_edition(monkeypatch):
    monkeypatch.delenv("MLP_LANG", raising=False)
    assert say("step", ru="шаг") == "step"
    monkeypatch.setenv("MLP_LANG", "ru")
    assert say("step", ru="шаг") == "шаг"
    monkeypatch.setenv("MLP_LANG", "de")
    with pytest.raises(ValueError, match="expected one of en, ru, received 'de'"):
        say("step", ru="шаг")


@pytest.mark.parametrize(("n", "form"), [(1, "строка"), (2, "строки"), (4, "строки"), (5, "строк"),
                                          (11, "строк"), (12, "строк"), (14, "строк"), (21, "строка"),
                                          (22, "строки"), (101, "строка"), (111, "строк"), (0, "строк")])
def test_russian_plural(n, form):
    assert ru_plural(n, "строка", "строки", "строк") == form
