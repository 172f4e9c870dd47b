"""The strict build: every page rendered, every generator run, nothing fetched from elsewhere."""

from __future__ import annotations

import posixpath
import re
import types
from html.parser import HTMLParser

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import PluginCollection
from mkdocs.structure.files import File, Files
from mlp_site import lesson_notebooks, notebook_downloads

from tests import pagekit
from tests.page_blocks import STATS, page_of


class ResourceParser(HTMLParser):
    """Collects every URL the browser would fetch by itself (not links a reader clicks)."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in {"script", "img", "iframe", "audio", "video", "source"} and attrs.get("src"):
            self.urls.append(attrs["src"])
        if tag == "link" and attrs.get("href") and attrs.get("rel") not in {"canonical", "alternate"}:
            self.urls.append(attrs["href"])


def test_the_strict_build_passed(site_build):
    """The build's failure, reported once. A page it names fails its own items (``docs/<page>::build``,
    a block's ``docs/<page>::line N``) with what the build said about it; the warnings that name no
    page, and the end of the build's output when it stopped before the site was whole, are said here."""
    if site_build.failure is None:
        return
    pages = sorted({page_of(w) for w in site_build.warnings} - {None})
    said = [f"the strict build failed with {len(site_build.warnings)} warning(s); "
            f"these pages fail their own items: {', '.join(pages) or 'none'}"]
    said += [f"a warning that names no page:\n{w}" for w in site_build.warnings if page_of(w) is None]
    if site_build.port is None:
        said.append(f"it stopped before it wrote every page; its output ends:\n{site_build.failure[-8000:]}")
    else:
        said.append("the checks of the whole site (links, search, browser, the reader's side) are skipped "
                    "until it builds: each would fail again on a failed page")
    pytest.fail("\n\n".join(said), pytrace=False)


def test_every_nav_page_is_built(built_site):
    missing = [src for src in pagekit.nav_sources() if not pagekit.built_page(built_site, src).is_file()]
    assert missing == []
    assert all((pagekit.DOCS / src).is_file() for src in pagekit.nav_sources())
    STATS["pages built"] = len(pagekit.nav_sources())


def test_every_page_is_in_the_nav():
    in_nav = set(pagekit.nav_sources())
    # a Russian twin (a.ru.md) is in the nav as its English page (tests/test_editions.py)
    pages = {str(p.relative_to(pagekit.DOCS)) for p in pagekit.pages() if ".ru." not in p.name}
    labs = {str(p.relative_to(pagekit.DOCS)) for p in (pagekit.DOCS / "labs").glob("*.py") if ".ru." not in p.name}
    assert sorted((pages | labs) - in_nav) == []


def test_nothing_is_fetched_from_another_host(built_site):
    offenders = []
    for html_file in built_site.rglob("*.html"):
        text = html_file.read_text(encoding="utf-8")
        parser = ResourceParser()
        parser.feed(text)
        for url in parser.urls:
            if re.match(r"^(https?:)?//", url):
                offenders.append(f"{html_file.relative_to(built_site)}: {url}")
        for url in re.findall(r"""import\(\s*["'](https?://[^"']+)""", text):
            offenders.append(f"{html_file.relative_to(built_site)}: inline import {url}")
    assert offenders == []


def test_generated_figures_and_tables_are_in_the_pages(built_site):
    figures = tables = notebooks = 0
    for source in pagekit.nav_sources():
        text = pagekit.built_page(built_site, source).read_text(encoding="utf-8")
        figures += len(re.findall(r'<figure class="mlp-figure"[\s>]', text))  # attributes may follow (mlp_site.accessibility)
        tables += text.count("<table")
        if source.endswith(".py"):
            notebooks += 1
            assert "jp-OutputArea" in text, f"{source}: notebook has no executed output"
    STATS["figures generated"] = figures
    STATS["tables generated"] = tables
    STATS["notebooks executed"] = notebooks
    assert figures > 0 and tables > 0


# The labs' pages of both editions: (edition's folder, lab's name, its notebook's name, the download link's
# words). A Russian lab (labs/digits.ru.py) is built at ru/labs/digits/ with its notebook digits.ru.ipynb
# beside it; without a Russian twin, ru/labs/digits/ is the English lab, its notebook digits.ipynb.
LAB_DOWNLOAD = {"": "Download this lab as a Jupyter notebook ({name})",
                "ru/": "Скачать эту лабораторную работу как ноутбук Jupyter ({name})"}


def lab_pages() -> list[tuple[str, str, str]]:
    labs = sorted(lab.stem for lab in (pagekit.DOCS / "labs").glob("*.py") if ".ru" not in lab.suffixes)
    return [(folder, lab, f"{lab}.ru.ipynb" if folder and (pagekit.DOCS / "labs" / f"{lab}.ru.py").is_file()
             else f"{lab}.ipynb") for folder in LAB_DOWNLOAD for lab in labs]


def test_every_lab_has_a_notebook_download(built_site):
    for folder, lab, name in lab_pages():
        notebook = built_site / folder / "labs" / name
        assert notebook.is_file(), f"no downloadable notebook {folder}labs/{name}"
        page = (built_site / folder / "labs" / lab / "index.html").read_text(encoding="utf-8")
        link = f'<a href="../{name}" download>{LAB_DOWNLOAD[folder].format(name=name)}</a>'
        assert link in page, f"{folder}labs/{lab}: no link {link}"


def test_lab_pages_do_not_inline_the_jupyter_style_sheet(built_site):
    for folder, lab, _ in lab_pages():
        page_dir = f"{folder}labs/{lab}/"
        page = (built_site / page_dir / "index.html").read_text(encoding="utf-8")
        inline_css = sum(len(css) for css in re.findall(r"<style[^>]*>(.*?)</style>", page, re.DOTALL))
        assert inline_css < 50_000, f"{page_dir}: {inline_css} bytes of inline CSS"
        sheets = re.findall(r'<link rel="stylesheet" href="((?:\.\./)+assets/jupyter/[^"]+)"', page)
        assert sheets, f"{page_dir}: no link to the Jupyter style sheet"
        for href in sheets:  # the page's link finds the sheet (a Russian page is one folder deeper)
            assert (built_site / posixpath.normpath(posixpath.join(page_dir, href))).is_file(), f"{page_dir}: {href}"


def test_notebook_figures_have_real_alt_text(built_site):
    """nbconvert fills a missing alt with a placeholder; labs must use show_figure instead."""
    for folder, lab, _ in lab_pages():
        page = (built_site / folder / "labs" / lab / "index.html").read_text(encoding="utf-8")
        assert "No description has been provided for this image" not in page, f"{folder}labs/{lab}: figure without alt text"


class ProseText(HTMLParser):
    """The text a reader sees as prose: no scripts, styles, code, outputs (``pre``) or math source."""

    SKIP = {"script", "style", "pre", "code", "annotation", "math", "svg"}

    def __init__(self):
        super().__init__()
        self.depth, self.parts = 0, []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


def literal_emphasis(html: str) -> list[str]:
    """Markdown emphasis left as text (``*word*``), as a Markdown cell's raw HTML block shows it."""
    parser = ProseText()
    parser.feed(html)
    return re.findall(r"(?<![\w*])\*[^\s*][^*\n]*?(?<!\s)\*(?![\w*])", "".join(parser.parts))


def test_lab_pages_show_no_markdown_emphasis_as_asterisks(built_site):
    """An answer's <details> whose text starts on the line after <summary> is a raw HTML block: its
    Markdown is not rendered, and the reader saw "only the *average*" with the asterisks."""
    assert literal_emphasis("<details><summary>A</summary>\nOnly the *average* of <code>a*b*c</code></details>") \
        == ["*average*"]
    for folder, lab, _ in lab_pages():
        page = (built_site / folder / "labs" / lab / "index.html").read_text(encoding="utf-8")
        assert literal_emphasis(page) == [], f"{folder}labs/{lab}: Markdown emphasis shown as asterisks"


# --- the notebook steps alone, as each edition's build runs them ------------------------------------

def edition_config(language: str, site_dir) -> MkDocsConfig:
    """A site's configuration while the i18n plugin builds ``language`` (English is the default)."""
    config = MkDocsConfig()
    config.load_dict({"site_name": "test", "docs_dir": str(pagekit.DOCS), "site_dir": str(site_dir)})
    config.plugins = PluginCollection()
    config.plugins._current_plugin = None  # what File.generated records as the file's maker
    config.plugins["i18n"] = types.SimpleNamespace(current_language=language, default_language="en")
    return config


# (language, the page's source, its notebook's path in the built site)
NOTEBOOKS = [("en", "labs/digits.py", "labs/digits.ipynb"), ("ru", "labs/digits.ru.py", "ru/labs/digits.ru.ipynb"),
             ("en", "lessons/03-forward-pass.md", "lessons/03-forward-pass.ipynb"),
             ("ru", "lessons/03-forward-pass.ru.md", "ru/lessons/03-forward-pass.ru.ipynb")]


@pytest.mark.parametrize("language, source, built", NOTEBOOKS)
def test_a_pages_notebook_is_made_beside_it_in_its_edition(tmp_path, monkeypatch, language, source, built):
    """The i18n plugin put the page under its edition's folder before the step runs: its notebook goes there too."""
    monkeypatch.setenv("MLP_LANG", language)
    step = notebook_downloads if source.startswith("labs/") else lesson_notebooks
    config = edition_config(language, tmp_path)
    page = File(source, str(pagekit.DOCS), str(tmp_path), True)
    if language == "ru" and source.endswith(".md"):
        page.dest_uri, page.url = f"ru/{page.dest_uri}", f"ru/{page.url}"  # as the i18n plugin sets them
    made = [file for file in step.on_files(Files([page]), config) if file.src_uri.endswith(".ipynb")]
    assert [(file.dest_uri, file.abs_dest_path) for file in made] == [(built, str(tmp_path / built))]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_lab_pages_style_sheet_link_reaches_the_site_root(tmp_path, language):
    page = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="labs/digits.py"))
    html = notebook_downloads.on_page_content("<style>" + "a{}" * 10_000 + "</style>", page, edition_config(language, tmp_path), None)
    (href,) = re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)
    page_dir = "labs/digits/" if language == "en" else "ru/labs/digits/"
    assert posixpath.normpath(posixpath.join(page_dir, href)).startswith("assets/jupyter/"), href


# mkdocs-jupyter's copy button on a lab's code cell, as its template writes it.
COPY_BUTTON = ('<clipboard-copy for="cell-1", aria-label="Copy to Clipboard">\n<div>\n'
               '<span class="notice" hidden>Copied!</span>\n</div>\n</clipboard-copy>')
COPY_WORDS = {"en": ('aria-label="Copy to Clipboard"', "hidden>Copied!</span>"),
              "ru": ('aria-label="Копировать в буфер"', "hidden>Скопировано в буфер</span>")}


@pytest.mark.parametrize("language", sorted(COPY_WORDS))
def test_a_lab_cells_copy_button_speaks_the_editions_language(tmp_path, monkeypatch, language):
    monkeypatch.setenv("MLP_LANG", language)
    page = types.SimpleNamespace(file=types.SimpleNamespace(src_uri="labs/digits.py"))
    html = notebook_downloads.on_page_content(COPY_BUTTON, page, edition_config(language, tmp_path), None)
    assert all(words in html for words in COPY_WORDS[language]), html
    if language == "en":  # the English page as mkdocs-jupyter made it
        assert html.endswith(COPY_BUTTON)


def _page_source(html: str) -> str:
    match = re.search(r'<aside class="mlp-page-source"[^>]*>(.*?)</aside>', html, re.DOTALL)
    return match[1] if match else ""


def test_every_page_says_where_its_source_is(built_site):
    """Built without REPO_URL (as the tests build it), every page of both editions ends by naming
    its source file, in its own language, and that file exists (overrides/partials/feedback.html)."""
    problems = []
    for source in pagekit.nav_sources():
        for edition in ("", "ru/"):
            html = (built_site / edition / pagekit.built_page(built_site, source).relative_to(built_site)).read_text(encoding="utf-8")
            said = _page_source(html)
            named = re.findall(r"<code>docs/([^<]+)</code>", said)
            word = "исходный текст" if edition else "the source of this page"
            if word not in said or len(named) != 1 or not (pagekit.DOCS / named[0]).is_file():
                problems.append(f"{edition}{source}: {said.strip()[:200]!r}")
            elif (".ru." in named[0]) != bool(edition):
                problems.append(f"{edition}{source}: names the other edition's file {named[0]}")
    assert problems == []


def test_with_a_repository_every_page_links_an_edit_and_a_prefilled_issue():
    import jinja2
    from urllib.parse import parse_qs, urlsplit

    template = jinja2.Environment(loader=jinja2.FileSystemLoader(pagekit.ROOT / "overrides")).get_template(
        "partials/feedback.html")
    page = types.SimpleNamespace(title="3. The forward pass", url="lessons/03-forward-pass/",
                                 canonical_url="https://o.github.io/r/lessons/03-forward-pass/",
                                 file=types.SimpleNamespace(src_uri="lessons/03-forward-pass.md", generated_by=None))
    for language, edit, report in (("en", "Edit this page", "Report a mistake"),
                                   ("ru", "Править эту страницу", "Сообщить об ошибке")):
        config = types.SimpleNamespace(repo_url="https://github.com/o/r/", theme=types.SimpleNamespace(language=language))
        html = template.render(config=config, page=page)
        links = dict((text, href.replace("&amp;", "&")) for href, text in re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', html))
        assert links[edit] == "https://github.com/o/r/edit/main/docs/lessons/03-forward-pass.md"
        issue = urlsplit(links[report])
        assert issue.path == "/o/r/issues/new"
        query = parse_qs(issue.query)
        assert page.title in query["title"][0] and page.canonical_url in query["body"][0]
        assert "REPO_URL" not in html
