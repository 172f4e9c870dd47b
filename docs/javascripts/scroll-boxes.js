// A code block that scrolls sideways must stay reachable by keyboard. site_plugin/mlp_site/accessibility.py
// gives every code block tabindex="0" when the site is built; Material removes it from a block
// that does not overflow (right) and from every block on a screen without hover, such as a
// phone with a keyboard attached (wrong: Tab could no longer reach a block that scrolls). Put it
// back on a block that overflows, whenever it is removed.
document$.subscribe(() => {
  for (const code of document.querySelectorAll("pre > code[data-mlp-scroll]")) {
    const restore = () => {
      if (!code.hasAttribute("tabindex") && code.scrollWidth > code.clientWidth) {
        code.setAttribute("tabindex", "0");
      }
    };
    new MutationObserver(restore).observe(code, { attributes: true, attributeFilter: ["tabindex"] });
    restore();
  }
});
