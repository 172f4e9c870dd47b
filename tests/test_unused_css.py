"""The Jupyter CSS of the lab pages trimmed to the rules that can match (mlp_site.unused_css)."""

from __future__ import annotations

from mlp_site import cache, notebook_downloads

from mlp_site import unused_css

CSS = """
.jp-Cell { color: red; }
.jp-Toolbar, .jp-Cell .jp-InputArea { margin: 0; }
.jp-Toolbar .jp-Cell { padding: 0; }
pre { line-height: 1.3; }
:root { --jp-border-width: 1px; }
.jp-Cell:not(.jp-mod-hidden) { display: block; }
.jp-mod-hidden:not(.jp-Cell) { display: none; }
@media (max-width: 760px) { .jp-Cell { width: 100%; } .jp-Dialog { top: 0; } }
@media print { .jp-Dialog { display: none; } }
@keyframes spin { from { opacity: 0; } to { opacity: 1; } }
"""


def test_unused_css_keeps_exactly_the_rules_that_can_match():
    kept = unused_css.prune(CSS, unused_css.classes_in('<div class="jp-Cell x"><div class="jp-InputArea"></div></div>'))
    assert ".jp-Cell{color: red;}" in kept
    assert ".jp-Cell .jp-InputArea{margin: 0;}" in kept and ".jp-Toolbar" not in kept
    assert "pre{" in kept and ":root{--jp-border-width: 1px;}" in kept and "@keyframes spin" in kept
    # A class that no element has is not needed to match :not(...) of it, only to match it.
    assert ".jp-Cell:not(.jp-mod-hidden){display: block;}" in kept and ".jp-mod-hidden:not" not in kept
    assert "@media (max-width: 760px) {.jp-Cell{width: 100%;}}" in kept
    assert "@media print" not in kept and ".jp-Dialog" not in kept


def test_unused_css_with_no_classes_keeps_only_rules_without_classes():
    kept = unused_css.prune(CSS, set())
    assert "jp-" not in kept.replace("--jp-border-width", "")
    assert "pre{" in kept


def test_the_pruned_sheet_is_cached_by_sheet_classes_and_code(monkeypatch, tmp_path):
    downloads = notebook_downloads
    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    monkeypatch.setenv(cache.SWITCH, "1")
    first = downloads._pruned_sheet(CSS, {"jp-Cell"})
    monkeypatch.setattr(downloads, "prune", lambda css, classes: "pruned again")
    assert downloads._pruned_sheet(CSS, {"jp-Cell"}) == first  # from the cache
    assert downloads._pruned_sheet(CSS, {"jp-Cell", "jp-Toolbar"}) == "pruned again"  # other classes
    assert len(list(tmp_path.glob("build/pruned-css-*.json"))) == 2
