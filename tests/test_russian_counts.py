"""The built Russian pages say counts up to ten in words (DESIGN.md, "Writing the pages").

tests/test_russian_typography.py reads the Russian sources for a typed digit count; this test reads the
built pages, so that a computed count (``{@ … | counted(…) @}``, a generator's sentence, the verification
line) is held to it too. It reads each page's running text outside code, printed output, math, tables
and figures, and fails on a digit from 1 to 10 before a Russian word, naming the page and the phrase. What
stays a digit is what the source check lets stay one: a label or a value named before it («эпохи 3»), a
value with a unit, a count beside a number above ten («16 голов запросов и 8 голов»), a button's name in
italics («*10 шагов*»), and zero.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup

from tests import editions, pagekit
from tests.test_russian_typography import (INLINE, LARGER, NAMED_BEFORE, NEAR, NOT_COUNTED, SMALL_COUNT, UNIT,
                                           UNTOUCHED_CLASSES, UNTOUCHED_TAGS)

LEFT_OUT = UNTOUCHED_TAGS + ["table", "figure", "figcaption", "img"]
LABEL_BEFORE = re.compile(r"(?:эпох)\w*[ \u00a0\n]+$", re.IGNORECASE)  # «в начале эпохи 3»: a built page's labels
BUTTON = re.compile(r"\d+\s+\w+")  # an italic button's name, «*10 шагов*»


def running_text(html: str) -> str:
    """A built page's running text, the verification line included; what is left out reads as «Ж»."""
    main = BeautifulSoup(html, "html.parser").find("div", class_="md-content")
    for tag in main.select(UNTOUCHED_CLASSES) + main.find_all(LEFT_OUT):
        if tag.parent is not None:
            tag.replace_with("Ж" if tag.name in INLINE else " Ж ")
    for em in main.find_all("em"):
        if BUTTON.fullmatch(em.get_text().strip()):
            em.replace_with("Ж")
    return main.get_text()


def digit_counts(text: str) -> list[str]:
    """Each digit count up to ten before a Russian word in ``text``, with the words around it."""
    found = []
    for match in SMALL_COUNT.finditer(text):
        before = text[max(0, match.start() - 40):match.start()]
        if (match["word"].lower() in NOT_COUNTED or UNIT.match(match["word"]) or NAMED_BEFORE.search(before)
                or LABEL_BEFORE.search(before)):
            continue
        start = max(text.rfind(end, 0, match.start()) for end in (". ", ".\n", "; ", "\n\n")) + 1
        ends = [i for i in (text.find(end, match.end()) for end in (". ", ".\n", "; ", "\n\n")) if i >= 0]
        end = min(ends or [len(text)])
        around = text[max(start, match.start() - NEAR):match.start()] + " " + text[match.end("n"):min(end, match.end() + NEAR)]
        if not LARGER.search(around):
            found.append(" ".join(text[max(start, match.start() - 30):match.end()].split()))
    return found


def test_the_built_russian_pages_say_counts_up_to_ten_in_words(built_site):
    found = [f"{twin}: «{phrase}»: a count up to ten is said in words"
             for source in pagekit.nav_sources()
             for twin in [editions.twin_source(source)]
             for phrase in digit_counts(running_text(pagekit.built_page(built_site, twin).read_text(encoding="utf-8")))]
    assert not found, f"{len(found)} digit counts:\n" + "\n".join(found)


def test_the_check_finds_a_digit_count_and_leaves_code_tables_figures_and_labels():
    html = ("<div class='md-content'><p>теми же 4 строками кода; в начале эпохи 3 совпадают; нажмите *x* "
            "<em>10 шагов</em>; 16 голов и 8 голов. </p>\n<p><code>3 строки</code></p><table><tr><td>2 таблицы</td>"
            "</tr></table>\n\n<figure><figcaption>5 рисунков</figcaption></figure>\n\n"
            "<p class='mlp-verification'>создали 2 таблицы</p></div>")
    assert [phrase.split()[-2:] for phrase in digit_counts(running_text(html))] == [["4", "строками"], ["2", "таблицы"]]
