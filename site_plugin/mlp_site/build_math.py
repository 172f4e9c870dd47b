"""Math rendered when the site is built, so a page shows it at first paint with no script.

Every equation of a page goes to Temml (the npm package pinned in package-lock.json, run by
Node through render_math.cjs) in one call, and comes back as MathML Core, which the
browser draws itself and a screen reader reads: one copy of each equation. Where the TeX is:

- lesson pages: pymdownx.arithmatex (``generic: true``) leaves ``<span class="arithmatex">\\(
  ... \\)</span>`` and ``<div class="arithmatex">\\[ ... \\]</div>``;
- lab pages: mkdocs-jupyter leaves the notebook's ``$...$`` and ``$$...$$`` as text in its
  rendered-Markdown elements (``jp-RenderedMarkdown``).

A page's rendered equations are kept (mlp_site/cache.py) under a key of its TeX, Temml's version
and the renderer script, so a rebuild of ``mkdocs serve`` renders only the pages whose TeX
changed. A page with math gets
Temml's stylesheet and the Latin Modern Math font (an OpenType math font: the browser needs its
MATH table to stretch delimiters and place scripts), both served from the site; a page without
gets nothing. The font is kept in this package (fonts/latinmodern-math.otf, version 1.959, as
Debian's fonts-lmodern ships it, 730 KB, under the GUST Font License beside it), so the build
needs no system package; it is cut down to the glyphs the site's equations use, with fontTools,
which keeps the MATH table and the size variants it points to, and renamed, as the license
asks of a changed font: "Latin Modern Math Subset". TeX that Temml cannot render fails the build, naming the page and the TeX.
"""

from __future__ import annotations

import functools
import html
import io
import json
import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

from . import ROOT, cache
from .lab_files import is_lab

TEMML = ROOT / "node_modules" / "temml" / "dist"
FONT = Path(__file__).with_name("fonts") / "latinmodern-math.otf"
RENDERER = Path(__file__).with_name("render_math.cjs")
SITE_CSS = "assets/math/math.css"
# WOFF, not WOFF2: fontTools writes WOFF without Brotli. A new file name and family name, as the
# GUST Font License asks of a changed font.
SITE_FONT = "assets/math/latin-modern-math-subset.woff"
FONT_FAMILY = "Latin Modern Math Subset"
TEMML_CSS = "Temml-Latin-Modern.css"
# A one-letter <mi> is drawn in mathematical italic (MathML Core's text-transform: math-auto), a
# letter the font has elsewhere in the plane: the italic of every Latin and Greek letter used is kept.
ITALIC_H = 0x210E  # MATHEMATICAL ITALIC SMALL H is PLANCK CONSTANT, outside the italic alphabet
# What the browser draws with no character in the text: the radical sign of <msqrt> and <mroot>.
DRAWN = {0x221A}

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
# The characters of each edition's equations (MLP_LANG, set by mlp_site/edition.py): the i18n plugin
# builds the Russian edition after the English one, in the same process, into the same assets.
_characters: dict[str, set[int]] = {}


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise PluginError("build_math.py needs Node.js (`node`) to render math with Temml; "
                          "install Node.js and npm, then run `npm ci` (make runs it)")
    return node


def _check_installed() -> None:
    for needed, name in ((TEMML / TEMML_CSS, "Temml"), (FONT, "the Latin Modern Math font")):
        if not needed.is_file():
            raise PluginError(f"{name} not found at {needed}; run `npm ci` in {ROOT} (the Makefile does) "
                              "to install the version pinned in package-lock.json")


def render(items: list[tuple[str, bool]], where: str) -> list[str]:
    """MathML of each ``(tex, display)`` in ``items``, rendered by Temml in one Node call (cached)."""
    key = cache.key("math", _state["version"], RENDERER, items)
    rendered = cache.load("build", key)
    if rendered is None:
        result = subprocess.run([_node(), str(RENDERER)], input=json.dumps(items),
                                capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise PluginError(f"{where}: the math renderer failed (exit {result.returncode}): {result.stderr[-2000:]}")
        answer = json.loads(result.stdout)
        for (tex, _), out in zip(items, answer["results"], strict=True):
            if "error" in out:
                raise PluginError(f"{where}: Temml cannot render {tex!r}: {out['error']}")
        rendered = [out["html"] for out in answer["results"]]
        cache.save("build", key, rendered)
    rendered = [sized_delimiters(mathml) for mathml in rendered]
    # The glyphs the math font must keep: those of every equation this edition's pages show.
    _characters.setdefault(_edition(), set()).update(*(characters(mathml) for mathml in rendered))
    return rendered


# \big( and its larger sizes: <mo minsize="1.2em" maxsize="1.2em">(</mo>, a delimiter of one fixed height.
FIXED_SIZE = re.compile(r'<mo (?P<attributes>[^>]*\bminsize="(?P<size>[\d.]+)em" maxsize="(?P=size)em"[^>]*)>'
                        r'(?P<char>[^<]+)</mo>')


@functools.cache
def _variants(char: str) -> tuple[tuple[float, float], ...]:
    """(height, width) in em of each vertical size variant of ``char`` in the math font, smallest first."""
    font = TTFont(FONT, lazy=True)
    glyph = font.getBestCmap().get(ord(char)) if len(char) == 1 else None
    table, em = font["MATH"].table.MathVariants, font["head"].unitsPerEm
    if glyph is None or glyph not in table.VertGlyphCoverage.glyphs:
        return ()
    construction = table.VertGlyphConstruction[table.VertGlyphCoverage.glyphs.index(glyph)]
    return tuple((record.AdvanceMeasurement / em, font["hmtx"][record.VariantGlyph][0] / em)
                 for record in construction.MathGlyphVariantRecord)


def sized_delimiters(mathml: str) -> str:
    r"""``mathml`` with each fixed-size delimiter (\big and larger) as wide as the glyph the browser draws.

    Chromium lays a stretchy operator out as wide as the widest of its size variants and stretchy
    pieces, before it knows which one it draws: Latin Modern Math's parenthesis is 0.39 em wide,
    its largest variant and its pieces 0.875 em, so each \big( took twice its width and an
    equation with four of them overflowed its box on a laptop. A fixed height is known here: the
    variant drawn is the first one as tall (within 1 %, as Chromium picks: \Big's 1.8 em is drawn
    with the 1.793 em variant), and its width is written on the element."""
    def sized(match: re.Match) -> str:
        size = float(match["size"])
        fitting = [width for height, width in _variants(html.unescape(match["char"])) if height >= size * 0.99]
        if not fitting or "style=" in match["attributes"]:
            return match[0]
        return f'<mo {match["attributes"]} style="width:{fitting[0]:.3f}em">{match["char"]}</mo>'
    return FIXED_SIZE.sub(sized, mathml)


def _edition() -> str:
    return os.environ.get("MLP_LANG", "")


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


def _temml_version() -> str:
    return json.loads((TEMML.parent / "package.json").read_text(encoding="utf-8"))["version"]


def on_config(config):
    _check_installed()
    _state["version"] = _temml_version()
    _characters[_edition()] = set()  # this edition's pages, rendered again (make serve rebuilds)
    return config


def stylesheet() -> str:
    """Temml's style sheet for Latin Modern Math, with the font served from the site (never a local
    copy: another version of the font would draw the site's math differently), and without Temml's
    own font (a script alphabet and primes, which this site draws with Latin Modern Math)."""
    path = TEMML / TEMML_CSS
    css = path.read_text(encoding="utf-8")
    face = re.compile(r"@font-face\s*\{[^}]*\}")
    faces = face.findall(css)
    if len(faces) != 2 or "Latin Modern Math" not in faces[1] or "'Temml'" not in faces[0]:
        raise PluginError(f"{path}: expected the @font-face rules of Temml's font and of Latin Modern Math, "
                          f"found {len(faces)} (did Temml's style sheet change?)")
    # font-display: block: a math font that arrives late would move every equation (and the text
    # under it); the fallback fonts have no MATH table and draw fractions and roots wrongly.
    ours = (f'@font-face {{ font-family: "{FONT_FAMILY}"; src: url("{Path(SITE_FONT).name}") format("woff"); '
            "font-display: block; }")
    css = css.replace(faces[0], "").replace(faces[1], ours)
    # Its opening comment names the fonts of Temml's folder; this site's is named here.
    header = re.match(r"/\*.*?\*/", css, re.DOTALL)
    if header is None or "GUST" not in header[0]:
        raise PluginError(f"{path}: expected an opening comment on the fonts' licenses (did Temml's style sheet change?)")
    css = ("/* Temml's style sheet for Latin Modern Math (temml/dist/" + TEMML_CSS + "), its font served from\n"
           "   the site: Latin Modern Math Subset, Latin Modern Math 1.959 cut to the glyphs the site's equations\n"
           "   use, under the GUST Font License (mlp_site/fonts/GUST-FONT-LICENSE.txt). */" + css[header.end():])
    uses = {
        # the family of every <math>
        'font-family: "Latin Modern Math", math;': f'font-family: "{FONT_FAMILY}", math;',
        # primes in Temml's font: render_math.cjs writes every f' and x_i' as f′ and x′ᵢ, in this one
        "mo.tml-prime {\n    font-family: Temml;\n  }": "",
    }
    for old, new in uses.items():
        if css.count(old) != 1:
            raise PluginError(f"{path}: expected one {old!r} to replace, found {css.count(old)} "
                              "(did Temml's style sheet change?)")
        css = css.replace(old, new)
    return css


def on_files(files: Files, config) -> Files:
    """Temml's stylesheet (the font is written after the build: it holds the glyphs the pages use)."""
    files.append(File.generated(config, SITE_CSS, content=stylesheet()))
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
    """Link the math stylesheet, and preload its font, from the pages that have math, and only from them."""
    if not getattr(page, "math_count", 0):
        return output
    css, font = (get_relative_url(path, page.url or ".") for path in (SITE_CSS, SITE_FONT))
    # The font is found only once the style sheet is read and a <math> laid out: asked for at once.
    links = (f'<link rel="preload" href="{font}" as="font" type="font/woff" crossorigin>\n'
             f'<link rel="stylesheet" href="{css}">\n')
    return output.replace("</head>", f"{links}</head>", 1)


def characters(mathml: str) -> set[int]:
    """The code points of the text of ``mathml`` (its tags left out, its entities read)."""
    return {ord(char) for char in html.unescape(TAG.sub("", mathml))}


def italics(code_points: set[int]) -> set[int]:
    """The mathematical italic letters of the Latin and Greek letters among ``code_points``."""
    out = set()
    for code_point in code_points:
        name = unicodedata.name(chr(code_point), "")
        letter = re.fullmatch(r"(LATIN|GREEK) (CAPITAL|SMALL) LETTER (\w+)", name)
        if letter is None:
            continue
        try:
            out.add(ord(unicodedata.lookup(f"MATHEMATICAL ITALIC {letter[2]} {letter[3]}")))
        except KeyError:
            if chr(code_point) == "h":
                out.add(ITALIC_H)
    return out


def font_subset(code_points: set[int]) -> bytes:
    """Latin Modern Math Subset: the font as WOFF, with the glyphs of ``code_points``, the italics
    of their letters and the radical sign, its MATH table (size variants, stretchy pieces) and its
    OpenType features (dotless letters) kept, and the subset's own name."""
    options = subset.Options()
    # Every OpenType feature but ssty, the script-size glyphs (half the glyphs kept): Chromium does
    # not apply it, and the browsers that do draw scripts with the glyphs of the text's size; and
    # aalt, a list of every alternate for font menus, which no text uses.
    font = TTFont(FONT, recalcTimestamp=False)  # the same glyphs give the same bytes
    options.layout_features = sorted({record.FeatureTag for table in ("GSUB", "GPOS") if table in font
                                      for record in font[table].table.FeatureList.FeatureRecord} - {"ssty", "aalt"})
    options.flavor = "woff"
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=code_points | italics(code_points) | DRAWN)
    subsetter.subset(font)
    _rename(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _rename(font: TTFont) -> None:
    """The subset's family and full names, as the GUST Font License asks of a changed font."""
    names = {1: FONT_FAMILY, 3: f"{FONT_FAMILY} {font['head'].fontRevision:.3f}", 4: FONT_FAMILY,
             6: FONT_FAMILY.replace(" ", "") + "-Regular", 16: FONT_FAMILY}
    for record in font["name"].names:
        if record.nameID in names:
            record.string = names[record.nameID]


def on_post_build(config) -> None:
    """The math font of every edition built in this process, written when its glyphs changed."""
    target = Path(config["site_dir"]) / SITE_FONT
    data = font_subset(set().union(*_characters.values()))
    if not target.is_file() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
