"""Which edition the build is making: English at ``/``, Russian at ``/ru/`` (mkdocs-static-i18n).

The i18n plugin builds the site once per language, the second build from inside the first's
``on_post_build``. Before the macros plugin reads its configuration (it computes the prose's values
there), :func:`on_config` sets ``MLP_LANG`` to the language being built, so that the pages'
generators, the values of ``prose/values.py`` and the labs' kernels say their words in it
(``mlp_ref.course.i18n``); at the end of each edition's build it puts the variable back.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import SimpleNamespace

from material.plugins.search.plugin import SearchPlugin
from mkdocs.utils import get_relative_url

from .lab_files import edit_markdown_cells, is_download_notebook, is_lab
from .words import say

ENV = "MLP_LANG"
_saved: dict = {}  # the variable's value before the build under way


def building(config) -> str:
    """The language the i18n plugin is building ("en" before its own on_config has run)."""
    plugin = config.plugins.get("i18n")
    return getattr(plugin, "current_language", None) or getattr(plugin, "default_language", None) or "en"


def is_default(config) -> bool:
    """Whether this build is the default language's: the outer build, inside which the others run."""
    return building(config) == config.plugins["i18n"].default_language


def edition_folder(config) -> str:
    """The folder of the edition being built under the site's root, where the i18n plugin puts its
    pages: ``""`` for the default language's, ``"ru/"`` for the Russian one's. A file made after the
    i18n plugin sorted the files (a page's notebook) is put there by the step that makes it."""
    return "" if is_default(config) else f"{building(config)}/"


def on_config(config):
    _saved["value"] = os.environ.get(ENV)
    os.environ[ENV] = building(config)
    # mkdocs-autorefs keeps what it learnt of the pages' anchors from one edition's build to the next
    # (the same plugin object): a link from /ru/ would find each API entry at /reference/ and at
    # /ru/reference/. Its own option picks the one closest to the linking page, the edition's own.
    autorefs = config.plugins.get("autorefs")  # added by mkdocstrings during the first build's on_config
    if autorefs is not None:
        autorefs.config.resolve_closest = True


def restore() -> None:
    """``MLP_LANG`` as it was before the build (each edition's build ends before the next starts)."""
    if "value" in _saved:
        previous = _saved.pop("value")
        if previous is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = previous


def on_post_build(config):
    """An edition other than the default: its own search index and sitemap, taken out of the shared ones."""
    if not is_default(config):
        own_search_index(config)
    restore()


# --- one search index per edition -------------------------------------------------------------
# The i18n plugin merges both editions' pages into the one search/search_index.json that every page
# loads: an English reader's search would offer Russian pages, first as often as not. Each edition
# gets its own index instead (/search/ and /ru/search/), and a Russian page's Material
# configuration points its search at /ru/ ("base", which Material uses for the index and its
# result links).
INDEX = Path("search") / "search_index.json"


def own_search_index(config) -> None:
    """Write this edition's search index into ``<language>/search/``, and keep its entries out of the
    index the i18n plugin merges after the last edition (which then holds the default edition's only).

    Runs after Material's search plugin wrote this edition's entries to ``search/`` (it is listed
    before this plugin) and before the i18n plugin collects them (its on_post_build runs last)."""
    site, language = Path(config.site_dir), building(config)
    index = json.loads((site / INDEX).read_text(encoding="utf-8"))
    prefix = f"{language}/"
    mine = [{**doc, "location": doc["location"].removeprefix(prefix)} for doc in index["docs"]]
    (site / language / INDEX).parent.mkdir(parents=True, exist_ok=True)
    (site / language / INDEX).write_text(json.dumps({**index, "docs": mine}, ensure_ascii=False), encoding="utf-8")
    (site / language / "sitemap.xml").write_bytes((site / "sitemap.xml").read_bytes())  # see _HEAD_ALTERNATE
    for plugin in config.plugins.values():
        if isinstance(plugin, SearchPlugin):  # "material/search", as the theme names it
            plugin.search_index.entries.clear()


_BASE = re.compile(r'(<script id="__config"[^>]*>\{[^<]*?"base": ")(?P<base>[^"]*)(")')


# The i18n plugin points the head's <link rel="alternate" hreflang> at the page's twins; Material
# fetches "sitemap.xml" next to each such link (to map a page to its twin when the language
# changes), which would be a 404 on every page. They point at the editions' home pages instead,
# each of which has its sitemap; the language menu's own links still go from twin to twin.
_HEAD_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="(?P<lang>[a-z]{2})">')


def on_post_page(output: str, page, config) -> str:
    i18n = config.plugins["i18n"]

    def home(match: re.Match) -> str:
        root = "." if match["lang"] == i18n.default_language else f"{match['lang']}/"
        return f'<link rel="alternate" href="{get_relative_url(root, page.url).rstrip("/")}/" hreflang="{match["lang"]}">'

    output = _HEAD_ALTERNATE.sub(home, output)
    language = building(config)
    if language == i18n.default_language:
        return output
    output = theirs_in_the_editions_words(output)
    # with its slash: Material resolves "search/search_index.json" against it
    return _BASE.sub(lambda m: f'{m[1]}{m["base"]}/{language}/{m[3]}', output, count=1)


# Words that others write in English on a page of any edition: Material's footer credit (its template
# has no translation of it) and the tabs of a generator block shown beside its source (markdown-exec's
# default titles; its fence option ``tabs="…"`` would make the twins' fences differ).
_CREDIT = re.compile(r'(<div class="md-copyright">\s*)Made with(\s*<a href="https://squidfunk\.github\.io/mkdocs-material/")')
_EXEC_TAB = re.compile(r'(<label for="exec-[^"]*">)(?P<title>Source|Result)(</label>)')


def theirs_in_the_editions_words(html: str) -> str:
    """``html`` with the theme's and markdown-exec's English words said in the edition being built."""
    html = _CREDIT.sub(lambda m: m[1] + say("Made with", ru="Сделано на") + m[2], html)
    return _EXEC_TAB.sub(lambda m: m[1] + (say("Source", ru="Код") if m["title"] == "Source"
                                           else say("Result", ru="Результат")) + m[3], html)


def on_build_error(error):
    restore()


# --- files the i18n plugin has sorted into the edition -------------------------------------------
def under_edition_folder(files, config) -> None:
    """A page of a later edition that the i18n plugin did not put under ``/<language>/`` goes there too:
    the generated pages (the API reference, the execution report), and a lab that has no twin (the
    i18n plugin takes a .py file for an asset, which it would publish at the English page's address)."""
    language = building(config)
    if language != config.plugins["i18n"].default_language:
        for file in files.documentation_pages():
            if not file.dest_uri.startswith(f"{language}/"):
                url = file.url
                file.dest_uri, file.url = f"{language}/{file.dest_uri}", f"{language}/{url}"
                if hasattr(file, "abs_dest_path"):
                    file.abs_dest_path = os.path.normpath(os.path.join(config.site_dir, file.dest_uri))


def notebooks_again(files, config) -> None:
    """Make the labs notebooks again, in both editions (mkdocs-static-i18n#198).

    mkdocs-jupyter wraps each lab's file in its ``NotebookFile`` (on_files, before the i18n
    plugin); the i18n plugin then replaces every file of docs/ with its own copy, and the lab
    is published as its ``.py`` text, with a green strict build. Wrapped again here, with the
    address the i18n plugin gave the file (``ru/labs/digits/`` for ``labs/digits.ru.py``).
    ``tests/test_site_build.py`` checks that both editions' lab pages are executed notebooks.
    """
    from mkdocs_jupyter.plugin import NotebookFile

    jupyter, i18n = config.plugins["mkdocs-jupyter"], config.plugins["i18n"]
    for file in [f for f in files if not isinstance(f, NotebookFile) and jupyter.should_include(f)]:
        notebook = NotebookFile(file, **config)
        notebook.url, notebook.dest_path = file.url, file.dest_uri
        notebook.abs_dest_path = file.abs_dest_path
        # The plugin takes the lab for an asset and gives it no twins: the language menu would
        # send a reader to the other edition's home page. Its twins are at the same path in each.
        url = file.url.removeprefix(f"{building(config)}/")
        notebook.alternates = {lang: SimpleNamespace(url=url if lang == i18n.default_language else f"{lang}/{url}",
                                                     locale=lang) for lang in i18n.build_languages}
        files.remove(file)
        files.append(notebook)



# --- a Russian heading's English anchor ------------------------------------------------------
# A Russian page's headings keep their English anchors, written "## Данные {#the-data}", so that a
# link to page.md#the-data lands on the same section in both editions. Python-Markdown reads that
# (attr_list); nbconvert, which renders the labs, and Jupyter, which shows the downloaded
# notebooks, would show it as text.
_ANCHOR_TEXT = re.compile(r"[ \t]*\{#(?P<id>[\w-]+)\}[ \t]*$", re.MULTILINE)
_NOTEBOOK_HEADING = re.compile(r'<h(?P<level>[1-6]) id="[^"]*">(?P<text>.*?)\s*\{#(?P<id>[\w-]+)\}'
                               r'<a class="anchor-link" href="#[^"]*">')


def notebook_anchors(files, config) -> None:
    """The downloaded notebooks' headings without their ``{#anchor}`` (once their cells are filled in)."""
    for file in files:
        if is_download_notebook(file.src_uri):
            file.content_string = edit_markdown_cells(file.content_string, lambda text: _ANCHOR_TEXT.sub("", text))


def on_page_content(html: str, page, config, files) -> str:
    if not is_lab(page.file.src_uri):
        return html
    html = _NOTEBOOK_HEADING.sub(lambda m: f'<h{m["level"]} id="{m["id"]}">{m["text"]}'
                                           f'<a class="anchor-link" href="#{m["id"]}">', html)
    _toc_anchors(page.toc)
    return html


def _toc_anchors(items) -> None:
    """The lab's table of contents (made by mkdocs-jupyter from the same headings), likewise."""
    for item in items:
        explicit = _ANCHOR_TEXT.search(item.title)
        if explicit:
            item.title, item.id = _ANCHOR_TEXT.sub("", item.title), explicit["id"]
        _toc_anchors(item.children)
