"""The glossary: every term of the course in English and in Russian, from ``prose/glossary.yml``.

Both editions' glossary pages print :func:`glossary_table`; each says the term in its own
language first and links the page where a reader first meets it, in its own edition. That page
is found in the pages' prose (:func:`first_page`), never typed, so it cannot drift when a lesson
starts using a term earlier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from mlp_ref.course.i18n import language, say
from mlp_site.lesson_notebooks import DOWNLOAD_WORDS
from mlp_ref.course.tables import markdown_table
from prose.structure import DOCS, Page, pages, twin

SOURCE = Path(__file__).resolve().parent / "glossary.yml"
# A fenced block, from its opening line to the closing one at the same indentation.
_FENCE = re.compile(r"^([ \t]*)```.*?^\1```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Term:
    en: str
    ru: str
    # Russian words this term replaced (regular expressions, matched as whole words): a review
    # retired them, and tests/test_glossary.py keeps them out of everything a Russian reader sees.
    retired: tuple[str, ...] = ()


def terms(path: Path = SOURCE) -> list[Term]:
    """The entries of the glossary, in the order of the file (the order the course meets them)."""
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for k, entry in enumerate(entries, 1):
        if not {"en", "ru"} <= set(entry) <= {"en", "ru", "retired"} or not all(entry.values()):
            raise ValueError(f"{path.name}, entry {k}: expected non-empty en and ru (and an optional list "
                             f"retired), received {entry!r}")
        out.append(Term(str(entry["en"]), str(entry["ru"]), tuple(entry.get("retired", ()))))
    return out


def stems(term: str) -> list[str]:
    """The words of a term that a page must contain, each a regular expression matched at the start
    of a word of the page; a part in brackets is left out. A Russian word is cut to its stem (its
    ending changes with the case: «смещение», «смещения»; «два» to «дв», for «двух»). An English
    word is whole ("dense" must not be found in "density", "backward" not in "backwards"), except
    the last, the head of the phrase, which may take an ending ("moons", "seeded")."""
    words = re.findall(r"[\w-]{2,}", re.sub(r"\(.*?\)", "", term).lower())
    out = []
    for k, word in enumerate(words):
        if re.search("[а-яё]", word):
            out.append(re.escape(word[:max(4, len(word) - 2)] if len(word) > 3 else word[:-1]))
        else:
            out.append(re.escape(word) + ("" if k == len(words) - 1 else r"(?!\w)"))
    return out


# Between two words of a term a page may put spaces or a line break (in a lab, a comment's "# "),
# bold marks, a bracketed aside, quotes, a dash or a hyphen, and a one- or two-letter word
# («ReLU с утечкой», «пример — строка», "**Glorot** (Xavier) initialization").
_GAP = r"[\s\u00a0\-\u2013\u2014«»*#]"
_BETWEEN = rf"\w*(?:{_GAP}*\([^)]*\))?{_GAP}+(?:\w{{1,2}}[\s\u00a0]+)?"


def phrase(term: str) -> str:
    """The regular expression of a term as a phrase: its :func:`stems` in order, one after the other."""
    return _BETWEEN.join(stems(term))


def _uses(text: str, term: str) -> bool:
    return re.search(rf"(?<!\w){phrase(term)}", text) is not None


def prose(page: Page, docs: Path = DOCS) -> tuple[str, str]:
    """The English and the Russian text of a page without its fenced blocks (code, generated
    output), lower-cased; a lesson with code also shows the words of its notebook's download link
    (``mlp_site.lesson_notebooks``), which the build puts under its title."""
    english = docs / page.path
    texts = [path.read_text(encoding="utf-8") for path in (english, twin(english, "ru"))]
    if english.suffix == ".md" and "```python" in texts[0]:
        texts = [f"{words}\n\n{text}" for words, text in zip(DOWNLOAD_WORDS, texts)]
    return tuple(_FENCE.sub("", text).lower() for text in texts)


def first_page(term: Term, texts: dict[Page, tuple[str, str]]) -> Page:
    """The first page, in course order, whose prose uses ``term`` in both editions, as a phrase
    (:func:`phrase`: "parameter count", not "parameter" in one sentence and "count" in another);
    ``texts`` maps each page of the course, in order, to :func:`prose`."""
    for page, (english, russian) in texts.items():
        if _uses(english, term.en) and _uses(russian, term.ru):
            return page
    raise ValueError(f"glossary term {term.en!r} / {term.ru!r}: expected a page whose prose uses it in both "
                     f"editions, received none of {[page.key for page in texts]}")


def glossary_table(path: Path = SOURCE) -> str:
    """A Markdown table: the term in the edition's language, in the other, and the page that first uses it.

    The link is relative (:meth:`prose.structure.Page.href`), so each edition links its own page.
    """
    texts = {page: prose(page) for page in pages()}
    rows = []
    for term in terms(path):
        page = first_page(term, texts)
        kind = say("Lab", ru="Лабораторная") if page.key.isalpha() else say("Lesson", ru="Урок")
        where = f"[{kind} {page.key}]({page.href('glossary.md')})"
        rows.append([term.ru, term.en, where] if language() == "ru" else [term.en, term.ru, where])
    headers = ["Русский", "English", "Где встречается впервые"] if language() == "ru" else ["English", "Русский", "First used in"]
    return markdown_table(headers, rows, "lll")
