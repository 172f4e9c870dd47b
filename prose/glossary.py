"""The glossary: every term of the course in English and in Russian, from ``prose/glossary.yml``.

Both editions' glossary pages print :func:`glossary_table`; each says the term in its own
language first and links the page where the term is explained, in its own edition.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from mlp_ref.course.i18n import language, say
from mlp_ref.course.tables import markdown_table
from prose.structure import pages

SOURCE = Path(__file__).resolve().parent / "glossary.yml"


@dataclass(frozen=True)
class Term:
    en: str
    ru: str
    page: str  # a lesson's number ("3") or a lab's letter ("A")


def terms(path: Path = SOURCE) -> list[Term]:
    """The entries of the glossary, in the order of the file (the order the course meets them)."""
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for k, entry in enumerate(entries, 1):
        if set(entry) != {"en", "ru", "page"} or not all(str(v).strip() for v in entry.values()):
            raise ValueError(f"{path.name}, entry {k}: expected non-empty en, ru and page, received {entry!r}")
        out.append(Term(str(entry["en"]), str(entry["ru"]), str(entry["page"])))
    return out


def glossary_table(path: Path = SOURCE) -> str:
    """A Markdown table: the term in the edition's language, in the other, and where it is explained.

    The link of a page is the English page's path, which the build points at the edition's own page.
    """
    by_key = {page.key: page for page in pages()}
    unknown = sorted({t.page for t in terms(path)} - by_key.keys())
    if unknown:
        raise ValueError(f"{path.name}: expected pages among {sorted(by_key)}, received {unknown}")
    rows = []
    for term in terms(path):
        page = by_key[term.page]
        kind = say("Lab", ru="Лабораторная") if page.key.isalpha() else say("Lesson", ru="Урок")
        where = f"[{kind} {page.key}]({page.path})"
        rows.append([term.ru, term.en, where] if language() == "ru" else [term.en, term.ru, where])
    headers = ["Русский", "English", "Где объясняется"] if language() == "ru" else ["English", "Русский", "Explained in"]
    return markdown_table(headers, rows, "lll")
