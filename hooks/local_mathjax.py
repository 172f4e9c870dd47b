"""Serve MathJax from the site itself, never from a CDN.

The MathJax 3 distribution comes from the pinned PyPI package ``django-static-mathjax``
(plain static files; Django is not needed). This hook adds its self-contained SVG build
to the site as ``assets/mathjax/tex-svg-full.js``.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

SITE_PATH = "assets/mathjax/tex-svg-full.js"


def _mathjax_bundle() -> Path:
    import mathjax  # the module installed by django-static-mathjax

    bundle = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5" / "tex-svg-full.js"
    if not bundle.is_file():
        raise FileNotFoundError(
            f"MathJax bundle not found at {bundle}; reinstall the pinned django-static-mathjax"
        )
    return bundle


def on_files(files: Files, config) -> Files:
    files.append(File.generated(config, SITE_PATH, abs_src_path=str(_mathjax_bundle())))
    return files
