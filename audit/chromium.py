"""The system Chromium that the browser test and the Lighthouse audit drive, and its flags.

Playwright and Lighthouse never download a browser: both use Debian's ``/usr/bin/chromium``
or the one named by ``CHROMIUM_PATH``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

# No sandbox (CI runs as root), no GPU, and nothing that reaches another host on its own.
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    """The first Chromium found: ``CHROMIUM_PATH``, Debian's, then one on ``PATH``; else None."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", "/usr/bin/chromium-browser",
                      shutil.which("chromium"), shutil.which("google-chrome")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None
