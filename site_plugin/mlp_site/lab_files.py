"""The lab notebooks, as the plugin's steps see them: which files they are, and editing their Markdown cells.

Not a step itself: the steps import it. Labs are jupytext files ``labs/<name>.py``; notebook_downloads.py
makes each one's download, ``labs/<name>.ipynb``, which later steps edit.
"""

from __future__ import annotations

import json
from collections.abc import Callable

LAB_DIR = "labs/"


def is_lab(src_uri: str, suffix: str = ".py") -> bool:
    """Whether ``src_uri`` (relative to docs/) is a lab's source (``.py``) or its notebook (``.ipynb``)."""
    return src_uri.startswith(LAB_DIR) and src_uri.endswith(suffix)


def is_download_notebook(src_uri: str) -> bool:
    """Whether ``src_uri`` is a notebook the build makes for readers: a lab's, or a lesson's
    (lesson_notebooks.py), whose Markdown cells later steps edit."""
    return src_uri.endswith(".ipynb") and src_uri.startswith((LAB_DIR, "lessons/"))


def edit_markdown_cells(content: str, edit: Callable[[str], str]) -> str:
    """A notebook's JSON text with ``edit`` applied to the source of each Markdown cell."""
    notebook = json.loads(content)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = edit(source).splitlines(keepends=True)
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
