"""The glossary (prose/glossary.yml) names terms the pages use: each entry's page explains the term
in both editions, and both glossary pages print the table the data makes."""

from __future__ import annotations

import re

import pytest

from prose import glossary
from prose.structure import pages
from tests import editions, pagekit

TERMS = glossary.terms()


def stems(term: str) -> list[str]:
    """The words of a term that a page must contain, each cut to a stem (Russian words change
    their ending with the case: «смещение», «смещения»)."""
    words = re.findall(r"[\w-]{3,}", re.sub(r"\(.*?\)", "", term).lower())
    return [word[:max(4, len(word) - 2)] for word in words]


@pytest.mark.parametrize("term", TERMS, ids=lambda t: t.en)
def test_the_page_named_uses_the_term_in_both_editions(term):
    by_key = {page.key: page for page in pages(language="en")}
    english = pagekit.DOCS / by_key[term.page].path
    russian = editions.twin_of(english)
    for path, said in ((english, term.en), (russian, term.ru)):
        text = path.read_text(encoding="utf-8").lower()
        missing = [stem for stem in stems(said) if stem not in text]
        assert not missing, f"{path.name} does not use {said!r} ({missing})"


def test_a_term_the_page_does_not_use_is_found():
    assert stems("«мёртвый» ReLU") == ["мёртв", "relu"]
    with pytest.raises(AssertionError, match="does not use"):
        test_the_page_named_uses_the_term_in_both_editions(glossary.Term("tensor network", "тензорная сеть", "1"))


def test_both_glossary_pages_print_the_table():
    for name in ("glossary.md", "glossary.ru.md"):
        text = (pagekit.DOCS / name).read_text(encoding="utf-8")
        assert "print(glossary_table())" in text, name
