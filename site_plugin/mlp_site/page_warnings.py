"""Every warning logged while a page is built names that page: ``docs/lessons/04-x.md: ...``.

markdown-exec's "Execution of python code block exited with errors" and mkdocs-macros' errors do
not always say which page they come from, and a failing generator or value fails one page: the
maintainer must read the page's name in the line that says so. The test run reads it from there
too (tests/page_blocks.py), to fail that page's item and only that one.
"""

from __future__ import annotations

import logging
from pathlib import Path


def source_of(page, root: Path) -> str:
    """The page's file relative to the repository root (``docs/lessons/04-x.ru.md``), as messages name it."""
    path = Path(page.file.abs_src_path) if page.file.abs_src_path else None
    return path.relative_to(root).as_posix() if path and path.is_relative_to(root) else page.file.src_uri


class PageNamer(logging.Filter):
    """A filter on MkDocs' log handlers that puts the page being built before each warning and error."""

    def __init__(self):
        super().__init__()
        self.source: str | None = None

    def start(self, source: str) -> None:
        """Name ``source`` in what is logged from now on; the handlers MkDocs has now get the filter."""
        self.source = source
        for handler in logging.getLogger("mkdocs").handlers:
            if self not in handler.filters:
                handler.addFilter(self)

    def stop(self) -> None:
        self.source = None

    def filter(self, record: logging.LogRecord) -> bool:
        # One record passes every handler: it is named once (mlp_page), by the first.
        if self.source and record.levelno >= logging.WARNING and not hasattr(record, "mlp_page"):
            message = record.getMessage()
            if not message.startswith(self.source):
                record.msg, record.args = f"{self.source}: {message}", ()
            record.mlp_page = self.source
        return True
