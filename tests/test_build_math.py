"""Math rendered at build time (mlp_site.build_math).

The built site's pages are checked in a browser by tests/test_browser.py (no raw TeX, MathML
for screen readers, nothing shrunk or cut); these tests hold the step's own rules: where TeX
is found and where it is left alone, a clear build error for TeX that KaTeX cannot render,
and one Node call per page, kept (mlp_site/cache.py) under a key of its TeX.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from mlp_site import build_math, cache

needs_katex = pytest.mark.skipif(shutil.which("node") is None or not (build_math.KATEX / "katex.min.css").is_file(),
                                 reason="Node.js or KaTeX (npm ci) missing; the site build fails with the same reason")


def page(src_uri: str, url: str = "lessons/x/") -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri), url=url)


@pytest.fixture(autouse=True)
def empty_cache(monkeypatch, tmp_path):
    """Each test starts with nothing rendered and never writes the build's cache."""
    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    monkeypatch.setenv(cache.SWITCH, "1")


def katex_spans(html: str) -> int:
    return len(re.findall(r'<span class="katex"', html))


@needs_katex
def test_lesson_math_is_rendered_with_mathml_and_the_tex_kept_for_screen_readers():
    lesson = page("lessons/x.md")
    html = ('<p>If <span class="arithmatex">\\(x &lt; 1\\)</span>, then</p>\n'
            '<div class="arithmatex">\\[\\begin{aligned} a &amp;= b \\\\ c &amp;= d \\end{aligned}\\]</div>')
    out = build_math.on_page_content(html, lesson, None, None)
    assert "arithmatex" not in out and "\\(" not in out
    assert katex_spans(out) == 2 and lesson.math_count == 2
    assert out.count('<div class="mlp-math"><span class="katex-display">') == 1
    assert out.count("<math") == 2 and 'aria-hidden="true"' in out
    assert '<annotation encoding="application/x-tex">x &lt; 1</annotation>' in out


@needs_katex
def test_notebook_math_is_found_in_markdown_cells_only_and_never_in_code():
    lab = page("labs/digits.py", "labs/digits/")
    html = ('<!-- Load mathjax -->\n<script src=""> </script>\n<!-- End of mathjax configuration -->\n'
            '<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown"><p>costs $x$, not <code>$HOME$</code></p>'
            '<div><p>$$\ny = 2\n$$</p></div></div>'
            '<div class="jp-OutputArea-output"><pre>$z$ printed by code</pre></div><p>$w$ outside a cell</p>')
    out = build_math.on_page_content(html, lab, None, None)
    assert lab.math_count == 2 and katex_spans(out) == 2
    assert "<code>$HOME$</code>" in out and "<pre>$z$ printed by code</pre>" in out and "$w$" in out
    assert "mathjax" not in out.lower()


@needs_katex
def test_tex_that_katex_cannot_render_fails_the_build_naming_page_and_tex():
    with pytest.raises(PluginError, match=r"lessons/x\.md: KaTeX cannot render '\\\\frac\{1\}': KaTeX parse error"):
        build_math.on_page_content('<span class="arithmatex">\\(\\frac{1}\\)</span>', page("lessons/x.md"), None, None)


@needs_katex
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


def test_katex_style_sheet_is_linked_from_pages_with_math_only():
    head = "<html><head><title>t</title></head><body></body></html>"
    with_math = SimpleNamespace(math_count=3, url="lessons/03-forward-pass/")
    assert build_math.on_post_page(head, SimpleNamespace(math_count=0, url="sources/"), None) == head
    assert ('<link rel="stylesheet" href="../../assets/katex/katex.min.css">\n</head>'
            in build_math.on_post_page(head, with_math, None))


def test_missing_katex_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(build_math, "KATEX", tmp_path / "katex" / "dist")
    with pytest.raises(PluginError, match=r"KaTeX not found at .*run `npm ci`"):
        build_math.on_config({})
