"""Offer every lab as a downloadable Jupyter notebook.

Labs are written as jupytext percent-format ``.py`` files under ``docs/labs/``; this hook
converts each one to ``labs/<name>.ipynb`` (without outputs: the reader runs it) and puts
a download link at the top of the lab's page.
"""

from __future__ import annotations

from pathlib import PurePosixPath

import re

import jupytext
from mkdocs.structure.files import File, Files

LAB_DIR = "labs/"


def _is_lab(src_uri: str) -> bool:
    return src_uri.startswith(LAB_DIR) and src_uri.endswith(".py")


def on_files(files: Files, config) -> Files:
    for file in list(files):
        if _is_lab(file.src_uri):
            notebook = jupytext.read(file.abs_src_path, fmt="py:percent")
            target = str(PurePosixPath(file.src_uri).with_suffix(".ipynb"))
            files.append(File.generated(config, target, content=jupytext.writes(notebook, fmt="ipynb")))
    return files


# nbconvert's template adds a script that would import Mermaid from a CDN if a notebook
# held a diagram; ours hold none, and the site must never reach another host.
CDN_SCRIPT = re.compile(r"<script[^>]*>(?:(?!</script>).)*?https://cdnjs\.cloudflare\.com(?:(?!</script>).)*?</script>",
                        re.DOTALL)


def on_page_content(html: str, page, config, files) -> str:
    if not _is_lab(page.file.src_uri):
        return html
    html = CDN_SCRIPT.sub("", html)
    name = PurePosixPath(page.file.src_uri).with_suffix(".ipynb").name
    # Lab pages live at labs/<name>/, so the notebook is one folder up.
    link = (
        f'<p class="lab-download"><a href="../{name}" download>'
        f"Download this lab as a Jupyter notebook ({name})</a></p>\n"
    )
    return link + html
