"""Math rendered at build time (mlp_site.build_math).

The built site's pages are checked in a browser by tests/test_browser.py (no raw TeX, MathML
for screen readers, nothing shrunk or cut); these tests hold the step's own rules: where TeX
is found and where it is left alone, a clear build error for TeX that Temml cannot render,
one Node call per page, kept (mlp_site/cache.py) under a key of its TeX, and a math font that holds every glyph the pages'
equations use.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from mlp_site import build_math, cache

needs_temml = pytest.mark.skipif(shutil.which("node") is None or not (build_math.TEMML / "temml.cjs").is_file(),
                                 reason="Node.js or Temml (npm ci) missing; the site build fails with the same reason")


def page(src_uri: str, url: str = "lessons/x/") -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri), url=url)


@pytest.fixture(autouse=True)
def empty_cache(monkeypatch, tmp_path):
    """Each test starts with nothing rendered and never writes the build's cache."""
    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    monkeypatch.setenv(cache.SWITCH, "1")


def equations(html: str) -> int:
    return len(re.findall(r"<math\b", html))


@needs_temml
def test_lesson_math_is_rendered_as_mathml_only():
    lesson = page("lessons/x.md")
    html = ('<p>If <span class="arithmatex">\\(x &lt; 1\\)</span>, then</p>\n'
            '<div class="arithmatex">\\[\\begin{aligned} a &amp;= b \\\\ c &amp;= d \\end{aligned}\\]</div>')
    out = build_math.on_page_content(html, lesson, None, None)
    assert "arithmatex" not in out and "\\(" not in out
    assert equations(out) == 2 and lesson.math_count == 2
    assert out.count('<div class="mlp-math"><math display="block"') == 1
    assert "<mi>x</mi><mo>&lt;</mo><mn>1</mn>" in out
    # One copy of each equation: no drawing in HTML beside it, no TeX annotation.
    assert "<span" not in out and "annotation" not in out and "aria-hidden" not in out


@needs_temml
def test_a_comma_between_digits_separates_them_as_in_tex():
    """(0,1) is a pair: Temml alone reads "0,1" as one number with a decimal comma."""
    out = build_math.render([("(0,1) \\text{ and } f(2,3)", False)], "lessons/x.md")[0]
    assert "<mn>0</mn><mo separator=\"true\">,</mo><mn>1</mn>" in out and "<mn>2</mn><mo separator=\"true\">,</mo><mn>3</mn>" in out


@needs_temml
def test_notebook_math_is_found_in_markdown_cells_only_and_never_in_code():
    lab = page("labs/digits.py", "labs/digits/")
    html = ('<!-- Load mathjax -->\n<script src=""> </script>\n<!-- End of mathjax configuration -->\n'
            '<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown"><p>costs $x$, not <code>$HOME$</code></p>'
            '<div><p>$$\ny = 2\n$$</p></div></div>'
            '<div class="jp-OutputArea-output"><pre>$z$ printed by code</pre></div><p>$w$ outside a cell</p>')
    out = build_math.on_page_content(html, lab, None, None)
    assert lab.math_count == 2 and equations(out) == 2
    assert "<code>$HOME$</code>" in out and "<pre>$z$ printed by code</pre>" in out and "$w$" in out
    assert "mathjax" not in out.lower()


@needs_temml
def test_tex_that_temml_cannot_render_fails_the_build_naming_page_and_tex():
    with pytest.raises(PluginError, match=r"lessons/x\.md: Temml cannot render '\\\\frac\{1\}':  +Unexpected end of input"):
        build_math.on_page_content('<span class="arithmatex">\\(\\frac{1}\\)</span>', page("lessons/x.md"), None, None)


@needs_temml
def test_a_page_is_one_node_call_and_known_tex_none(monkeypatch, tmp_path):
    # Only build_math's own name `subprocess` is replaced: the background jobs (the site build, the
    # exercises) call subprocess.run from other threads at the same time, and must not be counted.
    calls = []
    counting = SimpleNamespace(run=lambda *a, **k: calls.append(a) or subprocess.run(*a, **k))
    monkeypatch.setattr(build_math, "subprocess", counting)
    html = "".join(f'<span class="arithmatex">\\(x_{i}\\)</span>' for i in range(5)) * 2
    first = build_math.on_page_content(html, page("lessons/x.md"), None, None)
    assert build_math.on_page_content(html, page("lessons/y.md"), None, None) == first
    kept = list(tmp_path.glob("build/math-*.json"))
    assert (len(calls), len(kept)) == (1, 1), (
        f"two pages with the same 10 TeX: expected 1 Node call and 1 cache entry, found {len(calls)} and {len(kept)}")
    build_math.on_page_content(html.replace("x_4", "x_5"), page("lessons/x.md"), None, None)  # one TeX changed
    kept = list(tmp_path.glob("build/math-*.json"))
    assert (len(calls), len(kept)) == (2, 2), (
        f"after one TeX changed: expected 2 Node calls and 2 cache entries, found {len(calls)} and {len(kept)}")


def test_math_style_sheet_and_font_are_linked_from_pages_with_math_only():
    head = "<html><head><title>t</title></head><body></body></html>"
    with_math = SimpleNamespace(math_count=3, url="lessons/03-forward-pass/")
    assert build_math.on_post_page(head, SimpleNamespace(math_count=0, url="sources/"), None) == head
    out = build_math.on_post_page(head, with_math, None)
    assert '<link rel="stylesheet" href="../../assets/math/math.css">\n</head>' in out
    assert '<link rel="preload" href="../../assets/math/latin-modern-math-subset.woff" as="font" type="font/woff" crossorigin>' in out


@needs_temml
def test_the_style_sheet_draws_math_with_the_served_font_only():
    css = build_math.stylesheet()
    faces = re.findall(r"@font-face\s*\{[^}]*\}", css)
    assert faces == ['@font-face { font-family: "Latin Modern Math Subset"; src: url("latin-modern-math-subset.woff") '
                     'format("woff"); font-display: block; }'], f"the style sheet's font faces: {faces}"
    assert re.search(r'math\s*\{\s*font-family: "Latin Modern Math Subset", math;', css)
    # Temml's own font (Temml.woff2) is not served: nothing may ask for it.
    assert "Temml.woff2" not in css and not re.search(r"mo\.tml-prime\s*\{[^}]*Temml", css)


@needs_temml
def test_the_font_holds_the_glyphs_and_math_table_the_equations_need():
    from fontTools.ttLib import TTFont

    mathml = build_math.render([("P_\\text{слоя} = \\underbrace{d_\\text{in}}_{W} \\;\\le\\; \\sum_i \\sqrt{x_i}", True)], "t")[0]
    font = TTFont(io.BytesIO(build_math.font_subset(build_math.characters(mathml))))
    cmap = font.getBestCmap()
    # the text's characters, the italic letters the browser draws for <mi>x</mi> and <mi>W</mi>,
    # and the radical sign of <msqrt>, which is in no text
    assert "√" not in mathml
    # Latin Modern Math has no Cyrillic: the Russian words of \\text{} are drawn with the text's font
    # (docs/stylesheets/extra.css), every other character with the math font.
    missing = {chr(c) for c in build_math.characters(mathml) | {ord("𝑥"), ord("𝑊"), ord("√")} if c not in cmap}
    assert missing == set("слоя") and "MATH" in font, f"characters of the equation not in the math font: {missing}"
    # the stretchy brace's pieces, found through the MATH table, not the character map
    brace = cmap[ord("⏟")]
    assert font["MATH"].table.MathVariants.HorizGlyphCoverage.glyphs.count(brace) == 1
    assert ord("Q") not in cmap  # only what the equations use: a letter none has is left out
    names = {record.nameID: record.toUnicode() for record in font["name"].names}
    assert names[1] == names[4] == "Latin Modern Math Subset", f"the subset's names, as the license asks: {names}"


@needs_temml
def test_primes_stand_at_their_letter_and_operator_names_get_a_thin_space():
    """f' is written f′ (Latin Modern Math's ′ is drawn at script height: as a superscript it flew
    above the letter); an operator name after a subscript, a parenthesis or a number is set off by
    a thin space, as TeX does (Temml did so after a letter only)."""
    primes, names = build_math.render([("\\sigma'(z) + f''(x) + \\tanh'(z)", False),
                                       ("s_0 \\operatorname{relu}(x) + (a)\\operatorname{relu}(x) + 8\\max(a) + (1-y)\\log(1-p)", False)], "t")
    assert "<msup>" not in primes, f"a prime drawn as a superscript: {primes}"
    for prime in ('<mi>σ</mi><mo lspace="0em" rspace="0em">′</mo>', '<mi>f</mi><mo lspace="0em" rspace="0em" class="tml-lrg-pad">″</mo>',
                  '<mi>tanh</mi><mo lspace="0em" rspace="0em">′</mo>'):
        assert prime in primes, f"expected {prime} in {primes}"
    thin = '<mspace width="0.1667em"></mspace>'
    for before, name in (("</msub>", "<mi>relu"), ("</mrow>", "<mi>relu"), ("<mn>8</mn><mrow>", "<mi>max"),
                         ("<mi>y</mi><mo fence=\"true\" form=\"postfix\" stretchy=\"false\">)</mo></mrow>", "<mrow><mi>log")):
        assert f"{before}{thin}{name}" in names, f"expected a thin space after {before} before {name}: {names}"


def test_fixed_size_delimiters_are_as_wide_as_the_glyph_drawn():
    """\\big( (1.2 em) is drawn with the font's 1.195 em variant, 0.458 em wide; \\Big( with the
    1.793 em one, 0.597 em wide: the browser would lay either out 0.875 em wide."""
    out = build_math.sized_delimiters('<mo fence="false" symmetric="true" minsize="1.2em" maxsize="1.2em">(</mo>'
                                      '<mi>x</mi><mo fence="false" symmetric="true" minsize="1.8em" maxsize="1.8em">)</mo>'
                                      '<mo fence="true" form="prefix" stretchy="true">(</mo>')
    assert ('minsize="1.2em" maxsize="1.2em" style="width:0.458em">(</mo>' in out
            and 'minsize="1.8em" maxsize="1.8em" style="width:0.597em">)</mo>' in out), out
    assert out.endswith('<mo fence="true" form="prefix" stretchy="true">(</mo>'), f"a stretchy fence changed: {out}"


def test_missing_temml_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(build_math, "TEMML", tmp_path / "temml" / "dist")
    with pytest.raises(PluginError, match=r"Temml not found at .*run `npm ci`"):
        build_math.on_config({})


@needs_temml
def test_scripts_have_no_operator_spaces_and_flat_fences_are_not_stretched():
    """l=1 under a sum and d_{l-1} are set tight, as TeX sets scripts; \\left( \\right) around a row
    no taller than a line is drawn at the text's size (stretchy, Chromium gave it its widest
    variant's width), around a fraction it still stretches."""
    out = build_math.render([("\\sum_{l=1}^{L} \\left( d_{l-1} + d_l \\right) = \\left(\\frac{a}{b}\\right)", True)], "t")[0]
    assert '<mi>l</mi><mo lspace="0em" rspace="0em">=</mo><mn>1</mn>' in out, out
    assert '<mi>l</mi><mo lspace="0em" rspace="0em">−</mo><mn>1</mn>' in out, out
    assert "<mo>+</mo>" in out and "<mo>=</mo>" in out, f"an operator on the line lost its spaces: {out}"
    assert out.count('stretchy="false">(</mo>') == 1 and out.count('stretchy="true">(</mo><mfrac>') == 1, out


def test_an_aligned_equations_cells_carry_only_css():
    """Temml 0.13.5 gives the cells that fill a short row of ``aligned`` its own style object as their CSS
    (``style="level:0;color:undefined;font:;…"``): render_math.cjs keeps only what is CSS."""
    out = build_math.render([("\\begin{aligned} a &= b &\\quad c \\\\ d &= e \\end{aligned}", True)], "t")[0]
    styles = re.findall(r'style="([^"]*)"', out)
    assert styles and not [s for s in styles if "undefined" in s or "level:" in s], styles
