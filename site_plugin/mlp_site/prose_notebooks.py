"""Lab notebooks say computed values in their Markdown cells, as the lessons do: ``{@ lab_b.seeds @}``.

mkdocs-macros-plugin renders the lessons' Markdown, but a lab page is rendered by
mkdocs-jupyter from the notebook itself, past the plugin. This step evaluates the same
expressions with the plugin's own template environment and values (``prose/values.py``):
in the lab pages' HTML and in the downloaded notebooks (made by notebook_downloads.py,
which runs before this step), so that a reader's notebook says "three seeds", not a template.
An expression that does not evaluate, or one left over, fails the build (an error naming the lab,
logged, so that ``--strict`` fails once every page is built; the other pages still build).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files

from .lab_files import edit_markdown_cells, is_download_notebook, is_lab

log = logging.getLogger(f"mkdocs.plugins.{__name__}")
EXPRESSION = re.compile(r"\{@(?![%#])(?P<expr>.*?)@\}", re.DOTALL)
_state: dict = {}


def _render(text: str, where: str) -> str:
    plugin, values = _state["plugin"], _state["values"]

    def value(match: re.Match) -> str:
        if match[0] not in values:  # the same expression in a lab page and its notebooks: compiled once
            try:
                values[match[0]] = plugin.env.from_string(match[0]).render(**plugin.variables)
            except Exception as error:  # an unknown name, a typo, a failed values(): this page fails
                said = f"{type(error).__name__}: {error}"
                if (where, said) not in _state["said"]:  # a failed values() fails each of its expressions: said once
                    _state["said"].add((where, said))
                    log.error(f"{where}: cannot evaluate {match[0]!r}: {said}")
                values[match[0]] = f"[not computed: {match['expr'].strip()}]"
        return values[match[0]]

    out = EXPRESSION.sub(value, text)
    if "{@" in out:
        raise PluginError(f"{where}: a '{{@' is left that is not a complete {{@ ... @}} expression")
    return out


def on_config(config):
    if "macros" not in config.plugins:
        raise PluginError("prose_notebooks.py needs the macros plugin (mkdocs-macros-plugin) in mkdocs.yml")
    _state["plugin"] = config.plugins["macros"]
    _state["values"] = {}  # expression -> its text in this build (the values are fixed for a build)
    _state["said"] = set()  # (notebook, error) already logged
    return config


def _where(src_uri: str, config) -> str:
    """A notebook named by the page it is made from (``docs/lessons/04-….md: its notebook …``), so that
    a failure in it fails that page's items (tests/page_blocks.py)."""
    docs = Path(config["docs_dir"])
    folder = docs.relative_to(Path(config["config_file_path"]).parent) if config["config_file_path"] else docs
    pages = [Path(src_uri).with_suffix(suffix) for suffix in (".md", ".py")]
    page = next((page for page in pages if (docs / page).is_file()), None)
    return f"{(folder / page).as_posix()}: its notebook {src_uri}" if page else src_uri


def on_files(files: Files, config) -> Files:
    for file in files:
        if is_download_notebook(file.src_uri):  # the labs' and the lessons' notebooks
            where = _where(file.src_uri, config)
            file.content_string = edit_markdown_cells(file.content_string, lambda source: _render(source, where))
    return files


def on_page_content(html: str, page, config, files) -> str:
    if not is_lab(page.file.src_uri, ".py"):
        return html
    return _render(html, page.file.src_uri)
