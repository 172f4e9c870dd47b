// The "Before you start" box's install line names the site's downloads by the address the site was
// built for (site_url). A copy of the site served elsewhere (a class server, a mirror, a folder on disk)
// must name its own: rewrite the line, and the box's links to the downloads, for the address this page
// was served from. The page's canonical link is site_url plus the page's path, so the copy's root is
// this page's address with that path taken off. Without JavaScript the line stays as built.
// The line is written by site_plugin/mlp_site/reader_downloads.py (install_command): keep them in step.
document$.subscribe(() => {
  const canonical = document.querySelector('link[rel="canonical"]')?.href;
  for (const code of document.querySelectorAll(".mlp-install code")) {
    const built = code.textContent.match(/^pip install -r (\S+?)downloads\/requirements-reader\.txt /);
    if (!built || !canonical || !canonical.startsWith(built[1])) continue;
    const depth = canonical.slice(built[1].length).split("/").length - 1;
    const root = new URL("../".repeat(depth) || "./", document.baseURI).href;
    if (root === built[1]) continue;
    code.textContent = code.textContent.split(built[1]).join(root);
    for (const link of code.closest(".admonition")?.querySelectorAll(`a[href^="${built[1]}downloads/"]`) ?? []) {
      link.href = root + link.getAttribute("href").slice(built[1].length);
    }
  }
});
