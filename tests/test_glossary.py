"""The glossary (prose/glossary.yml) names terms the pages use, each linked to the first page that
uses it in both editions (found by prose/glossary.py, not typed), and both glossary pages print
the table the data makes."""

from __future__ import annotations

import re
import subprocess

import pytest

from prose import glossary
from prose.structure import pages

COURSE = pages(language="en")
TEXTS = {page: glossary.prose(page) for page in COURSE}


@pytest.mark.parametrize("term", glossary.terms(), ids=lambda t: t.en)
def test_every_term_is_used_by_some_page_in_both_editions(term):
    glossary.first_page(term, TEXTS)  # raises, naming the term, when no page uses it


def test_the_first_page_is_where_the_review_found_the_term_first_used():
    # The outside review's reading (issue 26, finding 18): "epoch" is defined in lesson 2,
    # "pre-activation" in lesson 1, "loss function" is used from lesson 3 on; the links said
    # Lab A, 3 and 5 when they were typed.
    by_en = {term.en: term for term in glossary.terms()}
    # Issue 35's reviews: "backward pass" is first used in lesson 3 (lesson 2 says only "backwards"),
    # "two moons" in lesson 4 (the Russian «два полумесяца», where the stem «два» missed «двух»).
    # "notebook" in lesson 1, whose download link under the title says it (the prose of Lab A was first).
    # "parameter count" is first said as a phrase in lesson 6 (lesson 4 has both words, apart).
    names = ("parameter count", "epoch", "pre-activation", "loss", "backward pass", "two moons", "notebook")
    found = {en: glossary.first_page(by_en[en], TEXTS).key for en in names}
    assert found == {"parameter count": "6", "epoch": "2", "pre-activation": "1", "loss": "3", "backward pass": "3", "two moons": "4",
                     "notebook": "1"}


def test_a_term_is_found_as_a_phrase_not_as_words_apart():
    found = lambda term, text: re.search(glossary.phrase(term), text) is not None
    assert found("parameter count", "the parameter count of a layer")
    assert found("glorot (xavier) initialization", "**glorot** (xavier) initialization")
    assert found("сложение по индексам", "сложение по\n# индексам (scatter-add)")
    assert not found("parameter count", "one parameter; the count of rows")


def test_a_term_no_page_uses_is_found():
    assert glossary.stems("«мёртвый» ReLU") == ["мёртв", "relu"]
    assert glossary.stems("backward pass") == [r"backward(?!\w)", "pass"]
    with pytest.raises(ValueError, match="tensor network"):
        glossary.first_page(glossary.Term("tensor network", "тензорная сеть"), TEXTS)


def test_a_code_block_is_not_prose():
    page = COURSE[0]
    english, _ = TEXTS[page]
    assert "import mlp_ref" in (glossary.DOCS / page.path).read_text(encoding="utf-8")
    assert "import mlp_ref" not in english


def test_both_glossary_pages_print_the_table():
    for name in ("glossary.md", "glossary.ru.md"):
        text = (glossary.DOCS / name).read_text(encoding="utf-8")
        assert "print(glossary_table())" in text, name


def russian_texts() -> dict[str, str]:
    """Everything a Russian reader can see, by file: the Russian pages and lab notebooks, and the
    code whose ``say(..., ru=...)`` words reach them (generators, widgets, labs' reports, templates)."""
    root = glossary.DOCS.parent
    listed = subprocess.run(["git", "ls-files", "docs", "mlp_ref", "prose", "overrides", "snippets"], cwd=root,
                            capture_output=True, text=True, check=True).stdout.split()
    return {name: (root / name).read_text(encoding="utf-8") for name in listed
            if name.endswith((".md", ".py", ".yml", ".html", ".js")) and name != "prose/glossary.yml"
            and (root / name).is_file()}


def retired_uses(texts: dict[str, str], terms: list[glossary.Term]) -> list[str]:
    found = []
    for term in terms:
        for pattern in term.retired:
            for name, text in texts.items():
                spaced = pattern.replace(" ", r"\s+")  # a pattern's words may sit on two lines of a page
                found += [f"{name}: «{m.group(0)}» (say «{term.ru}»)"
                          for m in re.finditer(rf"(?<!\w){spaced}(?!\w)", text, re.IGNORECASE)]
    return found


def test_no_retired_russian_word_comes_back():
    assert retired_uses(russian_texts(), glossary.terms()) == []


def test_a_retired_word_is_found():
    texts = {"x.ru.md": "Фиксируем сид генератора; плотный слой; плотность"}
    assert len(retired_uses(texts, glossary.terms())) == 2


def test_the_terms_of_issue_35_retire_their_variants():
    """«две луны», a masculine ReLU, «инициализация Xavier» without Glorot's name, «эталонные задачи» for
    benchmarks, «железо» for hardware: each is found (issue 35's editor, one term per concept)."""
    texts = {"x.ru.md": "данные «две луны»; обычный ReLU; ReLU выдал нули; с инициализацией Xavier; "
                        "на эталонных задачах; «мёртвый» ReLU; каждый tanh; на другом железе",
             "y.ru.md": "два полумесяца; обычная ReLU; инициализация Глоро (Xavier); бенчмарк; мёртвый нейрон; "
                        "на другом оборудовании; железнодорожный"}
    found = retired_uses(texts, glossary.terms())
    assert len(found) == 8 and all(f.startswith("x.ru.md") for f in found), found


def test_a_masculine_relu_is_found_across_a_line_break():
    """Issue 35's Russian review: «обычный ReLU» with a line break between its words, «(«протекающий» ReLU)»
    and «ReLU и его гладкие варианты» were missed; ReLU is feminine (функция)."""
    texts = {"x.ru.md": "при a = 0 — обычный\nReLU; («протекающий» ReLU); ReLU и его гладкие варианты",
             "y.ru.md": "обычная\nReLU; («протекающая» ReLU); ReLU и её гладкие варианты"}
    found = retired_uses(texts, glossary.terms())
    assert len(found) == 3 and all(f.startswith("x.ru.md") for f in found), found
