"""Lab pages: a downloadable notebook, and the weight of nbconvert's styles moved out.

Labs are written as jupytext percent-format ``.py`` files under ``docs/labs/``; this step
converts each one to ``labs/<name>.ipynb`` (without outputs: the reader runs it) and puts
a download link at the top of the lab's page, in the page's language. A Russian lab
(``labs/<name>.ru.py``, built at ``ru/labs/<name>/``) gets its notebook beside it:
``ru/labs/<name>.ru.ipynb``.

mkdocs-jupyter inlines about 590 KB of Jupyter CSS into every lab page, nearly all of it
for parts of JupyterLab that a page never shows. The step moves each inline style sheet
into a file, keeps only the rules that can match an element of the lab pages
(unused_css.py), and names the file by its content's hash, so a reader downloads it
once and caches it. The pruned sheet is kept (cache.py) under a key of the
full sheet, the classes of the lab pages and the pruning code: pruning takes seconds, and
``make serve`` rebuilds every page on each edit.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path, PurePosixPath

import jupytext
from mkdocs.structure.files import File, Files

from . import cache
from .lab_files import is_lab
from .unused_css import classes_in, prune
from .edition import edition_folder
from .words import say


def on_files(files: Files, config) -> Files:
    for file in list(files):
        if is_lab(file.src_uri):
            notebook = jupytext.read(file.abs_src_path, fmt="py:percent")
            target = str(PurePosixPath(file.src_uri).with_suffix(".ipynb"))
            download = File.generated(config, target, content=jupytext.writes(notebook, fmt="ipynb"))
            # Beside the lab's page, which the i18n plugin put in the edition's folder: the page's
            # link "../<name>.ipynb" finds it there.
            download.dest_uri = edition_folder(config) + download.dest_uri
            files.append(download)
    return files


# nbconvert's template adds a script that would import Mermaid from a CDN if a notebook
# held a diagram; ours hold none, and the site must never reach another host.
CDN_SCRIPT = re.compile(r"<script[^>]*>(?:(?!</script>).)*?https://cdnjs\.cloudflare\.com(?:(?!</script>).)*?</script>",
                        re.DOTALL)


# mkdocs-jupyter's copy button on each code cell (its template's words, in English): its name for a
# screen reader and the notice it shows once it copied. Said in the edition's language, as Material's
# own copy button is (its Russian words).
COPY_BUTTON = re.compile(r'(<clipboard-copy\b[^>]*\baria-label=")Copy to Clipboard(")')
COPIED = re.compile(r'(<span class="notice" hidden(?:="")?>)Copied!(</span>)')


def _copy_button_words(html: str) -> str:
    name, notice = say("Copy to Clipboard", ru="Копировать в буфер"), say("Copied!", ru="Скопировано в буфер")
    return COPIED.sub(lambda m: m[1] + notice + m[2], COPY_BUTTON.sub(lambda m: m[1] + name + m[2], html))


INLINE_STYLE = re.compile(r"<style[^>]*>(?P<css>.*?)</style>", re.DOTALL)
LARGE_STYLE = 20_000  # bytes; small inline styles stay where they are
_style_sheets: dict[str, str] = {}  # name by the full sheet's hash -> the full sheet
_classes: set[str] = set()  # every class on an element of a lab page
_pruned: dict[str, tuple[str, str]] = {}  # name by the full sheet's hash -> (name by its own hash, pruned sheet)


def forget() -> None:
    """Start a site's build: the sheets and classes of the editions built before it (make serve) are gone."""
    _style_sheets.clear()
    _classes.clear()


def _sheet_name(css: str) -> str:
    return f"assets/jupyter/{hashlib.sha256(css.encode()).hexdigest()[:16]}.css"


def _to_site_root(config) -> str:
    """From a lab page to the site's root, where the sheets are written: a lab page lives at
    labs/<name>/, two folders below its edition's root (``ru/`` for the Russian edition)."""
    return "../../" + "../" * edition_folder(config).count("/")


def _externalize_styles(html: str, root: str) -> str:
    def replace(match: re.Match) -> str:
        css = match["css"]
        if len(css) < LARGE_STYLE:
            return match[0]
        name = _sheet_name(css)
        _style_sheets[name] = css
        return f'<link rel="stylesheet" href="{root}{name}">'

    return INLINE_STYLE.sub(replace, html)


def on_page_content(html: str, page, config, files) -> str:
    if not is_lab(page.file.src_uri):
        return html
    html = CDN_SCRIPT.sub("", html)
    html = _copy_button_words(_externalize_styles(html, _to_site_root(config)))
    _classes.update(classes_in(html))
    name = PurePosixPath(page.file.src_uri).with_suffix(".ipynb").name
    # Lab pages live at labs/<name>/, so the notebook is one folder up.
    text = say(f"Download this lab as a Jupyter notebook ({name})",
               ru=f"Скачать эту лабораторную работу как ноутбук Jupyter ({name})")
    link = f'<p class="lab-download"><a href="../{name}" download>{text}</a></p>\n'
    return link + html


def _pruned_sheet(css: str, classes: set[str]) -> str:
    """``prune(css, classes)``, from the cache when the same sheet, classes and code made it."""
    key = cache.key("pruned-css", css, sorted(classes), Path(__file__).with_name("unused_css.py"))
    kept = cache.load("build", key)
    if kept is None:
        kept = prune(css, classes)
        cache.save("build", key, kept)
    return kept


def on_env(env, config, files):
    """Every lab page's content is known now (pages are built after all are read): prune."""
    _pruned.clear()
    for name, css in _style_sheets.items():
        kept = _pruned_sheet(css, _classes)
        _pruned[name] = (_sheet_name(kept), kept)
    return env


def on_post_page(output: str, page, config) -> str:
    if not is_lab(page.file.src_uri):
        return output
    root = _to_site_root(config)
    for name, (pruned_name, _) in _pruned.items():
        output = output.replace(f'href="{root}{name}"', f'href="{root}{pruned_name}"')
    return output


def on_post_build(config) -> None:
    for name, css in _pruned.values():
        target = Path(config.site_dir) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(css, encoding="utf-8")
