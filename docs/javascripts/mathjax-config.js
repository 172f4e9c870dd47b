// MathJax 3, served by this site (see hooks/local_mathjax.py). Besides arithmatex output it
// also typesets the rendered Markdown of lab notebooks (jp-RenderedMarkdown), whose own
// MathJax tag mkdocs-jupyter leaves empty.
window.MathJax = {
  tex: {
    // Lesson pages reach MathJax as \( \) and \[ \] (arithmatex); notebook Markdown keeps $ and $$.
    inlineMath: [["\\(", "\\)"], ["$", "$"]],
    displayMath: [["\\[", "\\]"], ["$$", "$$"]],
    processEscapes: true,
    processEnvironments: true,
  },
  options: {
    // Skip every element with a class except the two below, so a stray $ elsewhere is left alone;
    // unclassed children (the <p> of a notebook cell) follow their nearest classed ancestor.
    ignoreHtmlClass: ".+",
    processHtmlClass: "arithmatex|jp-RenderedMarkdown",
  },
  svg: { fontCache: "global" },
};

// Material swaps pages without a reload (instant navigation); typeset each new page.
if (typeof document$ !== "undefined") {
  document$.subscribe(() => {
    if (window.MathJax && MathJax.typesetPromise) {
      MathJax.typesetClear();
      MathJax.texReset();
      MathJax.typesetPromise();
    }
  });
}
