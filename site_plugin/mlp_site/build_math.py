"""Math rendered when the site is built, so a page shows it at first paint with no script.

Every equation of a page goes to KaTeX (the npm package pinned in package-lock.json, run by
Node through render_math.cjs) in one call, and comes back as HTML that draws it plus
MathML that a screen reader reads. Where the TeX is:

- lesson pages: pymdownx.arithmatex (``generic: true``) leaves ``<span class="arithmatex">\\(
  ... \\)</span>`` and ``<div class="arithmatex">\\[ ... \\]</div>``;
- lab pages: mkdocs-jupyter leaves the notebook's ``$...$`` and ``$$...$$`` as text in its
  rendered-Markdown elements (``jp-RenderedMarkdown``).

A page's rendered equations are kept (mlp_site/cache.py) under a key of its TeX, KaTeX's version
and the renderer script, so a rebuild of ``mkdocs serve`` renders only the pages whose TeX
changed. A page with math gets
KaTeX's stylesheet (served from the site with its fonts, WOFF2 only); a page without gets
nothing. TeX that KaTeX cannot render fails the build, naming the page and the TeX.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

from . import ROOT, cache
from .lab_files import is_lab

KATEX = ROOT / "node_modules" / "katex" / "dist"
RENDERER = Path(__file__).with_name("render_math.cjs")
SITE_CSS = "assets/katex/katex.min.css"

ARITHMATEX = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\s*\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]\s*</(?P=tag)>', re.DOTALL)
# A notebook's Markdown: display math first, so that $$ is never read as two empty $ pairs.
DOLLARS = re.compile(r"\$\$(?P<display>.+?)\$\$|\$(?P<inline>[^$]+?)\$", re.DOTALL)
TAG = re.compile(r"(<[^>]+>)")
# Notebook elements whose text holds math, and elements inside them whose text is code.
MARKDOWN_CLASS = re.compile(r'<div\b[^>]*class="[^"]*\bjp-RenderedMarkdown\b')
CODE_TAG = re.compile(r"<(/?)(code|pre)\b", re.IGNORECASE)
DIV_TAG = re.compile(r"<(/?)div\b", re.IGNORECASE)
# mkdocs-jupyter's MathJax 2 block (an empty script tag and its configuration): nothing to load.
JUPYTER_MATHJAX = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->\s*", re.DOTALL)

_state = {"version": None}


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise PluginError("build_math.py needs Node.js (`node`) to render math with KaTeX; "
                          "install Node.js and npm, then run `npm ci` (make runs it)")
    return node


def _check_installed() -> None:
    if not (KATEX / "katex.min.css").is_file():
        raise PluginError(f"KaTeX not found at {KATEX}; run `npm ci` in {ROOT} (the Makefile does) "
                          "to install the version pinned in package-lock.json")


def render(items: list[tuple[str, bool]], where: str) -> list[str]:
    """HTML of each ``(tex, display)`` in ``items``, rendered by KaTeX in one Node call (cached)."""
    key = cache.key("math", _state["version"], RENDERER, items)
    kept = cache.load("build", key)
    if kept is not None:
        return kept
    result = subprocess.run([_node(), str(RENDERER)], input=json.dumps(items),
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise PluginError(f"{where}: the math renderer failed (exit {result.returncode}): {result.stderr[-2000:]}")
    answer = json.loads(result.stdout)
    for (tex, _), out in zip(items, answer["results"], strict=True):
        if "error" in out:
            raise PluginError(f"{where}: KaTeX cannot render {tex!r}: {out['error']}")
    rendered = [out["html"] for out in answer["results"]]
    cache.save("build", key, rendered)
    return rendered


def _render_arithmatex(text: str, where: str) -> tuple[str, int]:
    """``text`` with arithmatex's equations rendered, and how many there were."""
    matches = list(ARITHMATEX.finditer(text))
    if not matches:
        return text, 0
    items = [(html.unescape(m["tex"]).strip(), m["open"] == "[") for m in matches]
    out = iter(render(items, where))
    return ARITHMATEX.sub(lambda m: _wrap(next(out), m["open"] == "["), text), len(matches)


def _wrap(rendered: str, display: bool) -> str:
    # Display math sits in its own box, which scrolls sideways rather than widen the page.
    return f'<div class="mlp-math">{rendered}</div>' if display else rendered


def _notebook_text_nodes(text: str) -> list[tuple[int, int]]:
    """(start, end) of each text node inside a jp-RenderedMarkdown element and outside code."""
    spans, depth, code, inside_from = [], 0, 0, None
    position = 0
    for part in TAG.split(text):
        start, position = position, position + len(part)
        if part.startswith("<"):
            div = DIV_TAG.match(part)
            if div and inside_from is None and not div[1] and MARKDOWN_CLASS.match(part):
                inside_from, depth = start, 1
            elif div and inside_from is not None:
                depth += -1 if div[1] else 1
                if depth == 0:
                    inside_from = None
            tag = CODE_TAG.match(part)
            if tag:
                code += -1 if tag[1] else 1
        elif inside_from is not None and code == 0 and "$" in part:
            spans.append((start, position))
    return spans


def _render_dollars(text: str, where: str) -> tuple[str, int]:
    """``text`` with the $-delimited math of its notebook Markdown rendered, and how many there were."""
    spans = _notebook_text_nodes(text)
    found = [(start, m) for start, end in spans for m in DOLLARS.finditer(text, start, end)]
    if not found:
        return text, 0
    items = [(html.unescape(m["display"] or m["inline"]).strip(), m["display"] is not None) for _, m in found]
    pieces, last = [], 0
    for (_, m), rendered, (_, display) in zip(found, render(items, where), items):
        pieces += [text[last:m.start()], _wrap(rendered, display)]
        last = m.end()
    return "".join(pieces + [text[last:]]), len(found)


def _katex_version() -> str:
    return json.loads((KATEX.parent / "package.json").read_text(encoding="utf-8"))["version"]


def on_config(config):
    _check_installed()
    _state["version"] = _katex_version()
    return config


def on_files(files: Files, config) -> Files:
    """KaTeX's stylesheet (fonts as WOFF2 only: every browser that reads KaTeX's CSS reads it)."""
    css = (KATEX / "katex.min.css").read_text(encoding="utf-8")
    css = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", css)
    files.append(File.generated(config, SITE_CSS, content=css))
    for font in sorted((KATEX / "fonts").glob("*.woff2")):
        files.append(File.generated(config, f"assets/katex/fonts/{font.name}", abs_src_path=str(font)))
    return files


def on_page_content(text: str, page, config, files) -> str:
    where = page.file.src_uri
    in_notebook = 0
    if is_lab(where):
        text, in_notebook = _render_dollars(JUPYTER_MATHJAX.sub("", text), where)
    text, in_markdown = _render_arithmatex(text, where)
    page.math_count = in_notebook + in_markdown
    return text


def on_post_page(output: str, page, config) -> str:
    """Link KaTeX's stylesheet from the pages that have math, and only from them."""
    if not getattr(page, "math_count", 0):
        return output
    href = get_relative_url(SITE_CSS, page.url or ".")
    return output.replace("</head>", f'<link rel="stylesheet" href="{href}">\n</head>', 1)

