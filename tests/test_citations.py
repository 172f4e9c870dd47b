"""Citations say who did what (issue 10), and docs/sources.md agrees with the pages' Sources.

* Every entry of docs/sources.md that names the pages citing it: each of those pages' own
  Sources section names the entry's first author.
* XOR learned by backpropagation is in Rumelhart, Hinton & Williams' PDP chapter ("Learning
  internal representations by error propagation", 1986), not in their Nature letter: a
  Sources entry of the letter never mentions XOR, and lesson 2 cites the chapter.
* Nair & Hinton (2010) made the ReLU popular; rectifiers are older: wherever a page cites
  them, the same entry or Sources section names Fukushima, Hahnloser and Jarrett too.
* Lesson 9's history names Linnainmaa (reverse-mode differentiation, 1970) and its mixture
  of experts Jacobs, Jordan, Nowlan & Hinton (1991).
"""

from __future__ import annotations

import re

import pytest

from tests import pagekit

SOURCES = pagekit.DOCS / "sources.md"
LESSONS = pagekit.DOCS / "lessons"


def _sources_section(page) -> str:
    """The page's Sources section, whitespace collapsed (entries wrap over lines)."""
    text = page.read_text(encoding="utf-8")
    return " ".join(text.split("\n## Sources", 1)[1].split(" ")) if "\n## Sources" in text else ""


def _flat(text: str) -> str:
    return " ".join(text.split())


def _entries(text: str) -> list[str]:
    """The bullets of a Markdown list, each joined onto one line."""
    return [" ".join(b.split()) for b in re.split(r"\n(?=- )", text) if b.startswith("- ")]


def test_sources_page_entries_are_cited_by_the_pages_they_name():
    text = SOURCES.read_text(encoding="utf-8").split("\n## ", 1)[1]
    problems = []
    for entry in _entries("\n" + text):
        author = re.match(r"- (?:Rectifying units are older: )?(?:[A-Z][a-z]?\.(?:[ -][A-Z][a-z]?\.)* )?([\w'’-]+)", entry)
        cited_by = re.findall(r"\]\((lessons/[\w-]+\.md)\)", entry.split(" — ", 1)[1]) if " — " in entry else []
        urls = re.findall(r"\]\((https?://[^)\s]+)\)", entry)
        for page in cited_by:
            section = _sources_section(pagekit.DOCS / page)
            if author and author[1] not in section and not any(url in section for url in urls):
                problems.append(f"{page} does not cite {author[1]} ({entry[:60]}...)")
    assert not problems, "\n".join(problems)


def test_xor_by_backpropagation_is_cited_to_the_pdp_chapter():
    everything = [SOURCES, *sorted(LESSONS.glob("*.md"))]
    for page in everything:
        for entry in _entries(_sources_section(page) if page != SOURCES else SOURCES.read_text(encoding="utf-8")):
            if "Learning representations by back-propagating errors" in entry:
                assert "XOR" not in entry, f"{page.name}: the Nature letter does not treat XOR: {entry[:80]}"
    assert "Learning internal representations by error propagation" in _flat(_sources_section(LESSONS / "02-depth-and-xor.md"))


@pytest.mark.parametrize("page", [SOURCES, *sorted(LESSONS.glob("*.md"))], ids=lambda p: p.name)
def test_relu_is_not_credited_to_nair_and_hinton_alone(page):
    section = SOURCES.read_text(encoding="utf-8") if page == SOURCES else _sources_section(page)
    if "Nair" in section:
        for name in ("Fukushima", "Hahnloser", "Jarrett"):
            assert name in section, f"{page.name} cites Nair & Hinton for the ReLU but not {name}'s older rectifiers"


def test_history_of_backpropagation_and_of_mixtures_of_experts():
    lesson9 = (LESSONS / "09-mlp-in-transformers.md").read_text(encoding="utf-8")
    body, sources = lesson9.split("\n## Sources", 1)
    for name in ("Linnainmaa", "Jacobs"):
        assert name in body and name in sources and name in SOURCES.read_text(encoding="utf-8"), name


@pytest.mark.parametrize("name", ["02-depth-and-xor.md", "02-depth-and-xor.ru.md"])
def test_lesson2_history_of_backpropagation_names_its_roots(name):
    """Lesson 2 does not credit backpropagation to Rumelhart, Hinton and Williams alone: its text
    names Linnainmaa (1970), Werbos (1974) and Rosenblatt's "back-propagating error correction"
    (1962), each cited in the page's Sources and in the bibliography, which names lesson 2."""
    text = (LESSONS / name).read_text(encoding="utf-8")
    heading = "\n## Источники" if ".ru." in name else "\n## Sources"
    body, sources = text.split(heading, 1)
    body, sources = _flat(body), _flat(sources)
    bibliography = (pagekit.DOCS / ("sources.ru.md" if ".ru." in name else "sources.md")).read_text(encoding="utf-8")
    entries = {entry.split(",")[0]: entry for entry in _entries(bibliography)}
    said = {"Linnainmaa": ("Линнайнмаа" if ".ru." in name else "Linnainmaa", "1970"),
            "Werbos": ("Вербос" if ".ru." in name else "Werbos", "1974"),
            "Rosenblatt": ("back-propagating error correction", "1962")}
    problems = []
    for author, (words, year) in said.items():
        if words not in body or year not in body:
            problems.append(f"{name}: the history does not name {words!r} with {year}")
        if author not in sources or (author == "Rosenblatt" and "back-propagating error correction" not in sources):
            problems.append(f"{name}: the Sources do not cite {author} for it")
        cited = [e for key, e in entries.items() if author in key and year in e]
        if not cited or not any("lessons/02-depth-and-xor.md" in e for e in cited):
            problems.append(f"{name}: the bibliography's {author} ({year}) entry does not name lesson 2")
    assert not problems, "\n".join(problems)
