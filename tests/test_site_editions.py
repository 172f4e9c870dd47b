"""Both editions of the built site: the English one at ``/``, the Russian one at ``/ru/``.

Every page of the nav is built in both, in its own language, linked to its twin by the language
switcher; the labs are executed notebooks with their figures in both (mkdocs-static-i18n#198 once
published a lab as its ``.py`` text, with a green strict build: mlp_site.edition); and no Russian
heading's English anchor (``{#the-math}``) is left as text.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest

from tests import pagekit

EDITIONS = {"en": "", "ru": "ru/"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
H1 = re.compile(r"<h1[^>]*>(?P<text>.*?)</h1>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
SOURCES = [source for source in pagekit.nav_sources()]


def page_html(site, language: str, source: str) -> str:
    return pagekit.built_page(site, EDITIONS[language] + source).read_text(encoding="utf-8")


@pytest.mark.parametrize("source", SOURCES)
def test_every_page_is_built_in_both_editions_in_its_language(built_site, source):
    for language in EDITIONS:
        html = page_html(built_site, language, source)
        assert f'<html lang="{language}"' in html, f"{EDITIONS[language]}{source}: not built as {language}"
        title = TAG.sub("", H1.search(html)["text"])
        # A Russian page is the twin, never the English page served at /ru/ (the plugin's fallback).
        assert bool(CYRILLIC.search(title)) == (language == "ru"), f"{language} {source}: heading {title!r}"


@pytest.mark.parametrize("source", SOURCES)
def test_the_language_switcher_links_each_page_to_its_twin(built_site, source):
    url = pagekit.built_page(built_site, source).parent.relative_to(built_site).as_posix()
    url = "" if url == "." else f"{url}/"
    for language, other in (("en", "ru"), ("ru", "en")):
        links = re.findall(r'<a href="(?P<href>[^"]+)" hreflang="' + other + '"', page_html(built_site, language, source))
        assert links, f"{language} {source}: no link to the {other} edition"
        assert links[0].rstrip("/").endswith(f"/{EDITIONS[other]}{url}".rstrip("/")), (language, source, links[0])


# The colour scheme switch (overrides/partials/palette.html): one button, whose name is the visible
# one of its spans' hidden names, the scheme it switches to.
SWITCH_NAMES = re.compile(r'<span class="mlp-scheme__name">([^<]+)</span>')


@pytest.mark.parametrize("source", SOURCES)
def test_the_colour_scheme_toggle_is_named_in_the_page_language(built_site, source):
    """A screen reader says the switch's names: Russian on a Russian page (mkdocs.yml's per-language theme)."""
    for language in EDITIONS:
        names = SWITCH_NAMES.findall(page_html(built_site, language, source))
        assert len(names) == 2, (language, source, names)  # two schemes: a name for each
        assert all(bool(CYRILLIC.search(name)) == (language == "ru") for name in names), (language, source, names)


@pytest.mark.parametrize("lab", [s for s in SOURCES if s.startswith("labs/")])
@pytest.mark.parametrize("language", list(EDITIONS))
def test_labs_are_executed_notebooks_with_figures(built_site, lab, language):
    html = page_html(built_site, language, lab)
    assert "# %%" not in html, f"{language} {lab}: published as its source text"
    assert html.count("jp-OutputArea-output") >= 10, f"{language} {lab}: few or no executed outputs"
    alts = re.findall(r'<img [^>]*alt="([^"]+)"', html)
    assert len(alts) >= 3, f"{language} {lab}: expected its figures, found {len(alts)} images with alt text"
    assert all(bool(CYRILLIC.search(alt)) == (language == "ru") for alt in alts), (language, lab, alts)


@pytest.mark.parametrize("source", SOURCES)
def test_no_heading_anchor_is_left_as_text(built_site, source):
    html = page_html(built_site, "ru", source)
    left = re.findall(r"\{#[\w-]+\}", TAG.sub("", html))
    assert not left, f"ru/{source}: {left[:3]}"


def test_each_edition_searches_its_own_pages(built_site):
    """/search/ indexes the English pages, /ru/search/ the Russian ones (mlp_site.edition), and a
    Russian page's search is pointed at /ru/."""
    import json

    indexes = {language: json.loads((built_site / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))
               for language, prefix in EDITIONS.items()}
    for language, index in indexes.items():
        pages = {doc["location"].split("#")[0] for doc in index["docs"]}
        assert pages >= {"", "lessons/03-forward-pass/", "labs/digits/"}, (language, sorted(pages)[:5])
        assert not any(doc["location"].startswith("ru/") for doc in index["docs"]), language
        lesson = next(doc for doc in index["docs"] if doc["location"] == "lessons/03-forward-pass/")
        assert bool(CYRILLIC.search(lesson["title"] + lesson["text"][:200])) == (language == "ru"), lesson["title"]
    config = re.search(r'<script id="__config"[^>]*>(?P<json>[^<]*)</script>', page_html(built_site, "ru", "lessons/03-forward-pass.md"))
    assert json.loads(config["json"])["base"] == "../../../ru/"


@pytest.mark.parametrize("source", [s for s in SOURCES if not s.startswith("labs/")])
def test_every_image_says_its_alt_text_in_the_page_language(built_site, source):
    for language in EDITIONS:
        alts = re.findall(r'<img [^>]*alt="([^"]*)"', page_html(built_site, language, source))
        wrong = [alt for alt in alts if bool(CYRILLIC.search(alt)) != (language == "ru")]
        assert not wrong, f"{EDITIONS[language]}{source}: {wrong[:2]}"


# What the theme and markdown-exec write in English on every page: Material's footer credit and the
# tabs of a generator shown with its source (lesson 6); mlp_site.edition says them in the edition's words.
EXEC_TAB = re.compile(r'<label for="exec-[^"]*">(?P<title>[^<]*)</label>')
CREDIT = re.compile(r'<div class="md-copyright">(?P<text>.*?)</div>', re.DOTALL)


@pytest.mark.parametrize("source", SOURCES)
def test_the_footer_and_the_source_tabs_speak_the_page_language(built_site, source):
    for language in EDITIONS:
        html = page_html(built_site, language, source)
        credit = " ".join(TAG.sub(" ", CREDIT.search(html)["text"]).split())
        expected = {"en": "Made with Material for MkDocs", "ru": "Сделано на Material for MkDocs"}[language]
        assert credit == expected, f"{EDITIONS[language]}{source}: footer {credit!r}"
        tabs = set(EXEC_TAB.findall(html))
        assert tabs <= ({"Source", "Result"} if language == "en" else {"Код", "Результат"}), (language, source, tabs)
        if source.startswith("lessons/06-"):
            assert len(tabs) == 2, (language, source, tabs)


# A cell's printed text (stdout, stderr, a progress bar): nbconvert's <pre> in a jp-RenderedText output.
PRINTED = re.compile(r'<div class="jp-RenderedText jp-OutputArea-output"[^>]*>\s*<pre>(?P<text>.*?)</pre>', re.DOTALL)
# An English word: three or more Latin letters standing alone (not a part of X_train, W1 or mlp_ref).
ENGLISH_WORD = re.compile(r"(?<![\w.])[A-Za-z]{3,}(?![\w.])")
COMMAND = re.compile(r"^\s*python -m mlp_ref\.labs\.\w+( |$)")  # the command line begin() prints: the same in both


def printed_lines(html: str) -> list[str]:
    """Every line the lab's cells printed, as the reader sees it."""
    return [line for match in PRINTED.finditer(html)
            for line in html_lib.unescape(TAG.sub("", match["text"])).splitlines() if line.strip()]


@pytest.mark.parametrize("lab", [s for s in SOURCES if s.startswith("labs/")])
def test_a_labs_printed_lines_are_in_the_page_language(built_site, lab):
    """The lab's own cells print their labels in the page's language (mlp_ref.labs.notebook.begin sets it):
    every printed line of the Russian edition that has a word in it says it in Russian (the command line
    excepted), and no line of the English edition is Russian."""
    for language, line in (("en", "the same run from the command line:"), ("ru", "тот же запуск из командной строки:")):
        html = page_html(built_site, language, lab)
        text = TAG.sub("", html)
        assert line in text, f"{EDITIONS[language]}{lab}: no {line!r}"
        assert "this notebook's cells after its imports ran in" in text if language == "en" else \
            "ячейки этого ноутбука после импортов выполнились за" in text, (language, lab)
        lines = printed_lines(html)
        assert len(lines) >= 10, f"{EDITIONS[language]}{lab}: found {len(lines)} printed lines, expected the lab's"
        if language == "ru":
            wrong = [line for line in lines
                     if ENGLISH_WORD.search(line) and not CYRILLIC.search(line) and not COMMAND.match(line)]
        else:
            wrong = [line for line in lines if CYRILLIC.search(line)]
        assert not wrong, f"{EDITIONS[language]}{lab}: {len(wrong)} printed lines not in {language}: {wrong[:4]}"


BARE_BOOLEAN = re.compile(r"<pre>\s*(?:True|False)\s*</pre>")


@pytest.mark.parametrize("lab", [s for s in SOURCES if s.startswith("labs/")])
def test_no_lab_cell_shows_a_bare_boolean(built_site, lab):
    """A cell that checks a statement says what it found (mlp_ref.course.claims), never a lone True."""
    for language in EDITIONS:
        found = BARE_BOOLEAN.findall(page_html(built_site, language, lab))
        assert not found, f"{EDITIONS[language]}{lab}: {len(found)} cells show a bare True or False"
