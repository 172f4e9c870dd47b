"""The site's MkDocs plugin: every event it handles, in the order MkDocs runs them, each calling its steps in order.

The steps live in the modules of this package, one idea each (the render cache, the verification,
the readers' downloads, the math, ...); this file is the only place that says when each runs. No
step has a priority: where a step must follow or precede another plugin, this plugin's place in
mkdocs.yml's ``plugins:`` list (after search and i18n, before macros, markdown-exec, mkdocstrings
and mkdocs-jupyter) or the event it runs in says so, as each event's comment tells.

The i18n plugin (mkdocs-static-i18n) runs its on_config, on_files, on_nav, on_post_page and
on_post_build last (priority -100), and builds the other editions from inside the first edition's
on_post_build: each event below runs once per edition, English first.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import set_exclusions

from . import ROOT
from . import (accessibility, api_links, api_reference, build_math, edition, lesson_notebooks, notebook_downloads,
               prose_notebooks, reader_blocks, reader_downloads, render_cache, search_cache, verification)
from .page_warnings import PageNamer, source_of


class SitePlugin(BasePlugin):
    """``mlp-site`` in mkdocs.yml."""

    def __init__(self):
        super().__init__()
        self.page_namer = PageNamer()  # names the page in each warning logged while it is built
        self.verification = verification.Verification()  # the blocks' runs and verdicts, the record, the lines

    def on_serve(self, server, config, builder):
        return render_cache.on_serve(server, config, builder)

    def on_config(self, config):
        own_checkout(config)
        # Before macros' on_config (listed after this plugin), which computes the prose's values in the edition's words.
        edition.on_config(config)
        if edition.is_default(config):  # the first edition of a build (make serve builds again in this process)
            notebook_downloads.forget()
            render_cache.forget()
        reader_downloads.on_config(config)
        prose_notebooks.on_config(config)
        self.verification.on_config(config)
        api_reference.on_config(config)
        build_math.on_config(config)
        return config

    def on_pre_build(self, config):
        render_cache.on_pre_build(config)
        search_cache.on_pre_build(config)  # search's on_config (it is listed first) made this build's index

    def on_nav(self, nav, config, files):
        # The first event after the i18n plugin's on_files, which keeps the edition's files and would
        # drop the files this plugin generates (mkdocs-static-i18n#263): they are made here.
        notebook_downloads.on_files(files, config)
        lesson_notebooks.on_files(files, config)
        reader_downloads.on_files(files, config)  # the notebooks' "Before you start" boxes, the wheel
        prose_notebooks.on_files(files, config)  # the notebooks' {@ ... @} values
        api_reference.on_files(files, config)
        build_math.on_files(files, config)
        edition.notebooks_again(files, config)  # the labs are pages again (mkdocs-static-i18n#198)
        self.verification.on_files(files, config)  # starts running the blocks of the edition's pages
        edition.under_edition_folder(files, config)
        edition.notebook_anchors(files, config)
        set_exclusions(files, config)  # as MkDocs does after on_files: the new files' inclusion
        # Made again with the reference pages; before the i18n plugin's on_nav translates its titles.
        return api_reference.navigation(files, config)

    def on_pre_page(self, page, config, files):
        # Every warning until the page is rendered names it (a generator or a value that failed).
        self.page_namer.start(source_of(page, ROOT))
        return page

    def on_page_markdown(self, markdown, page, config, files):
        markdown = reader_downloads.on_page_markdown(markdown, page, config, files)
        markdown = reader_blocks.on_page_markdown(markdown, page, config, files)
        # The render, wrapped once every plugin has put in its own (mkdocs-jupyter's for a lab, in its on_pre_page).
        render_cache.on_pre_page(page, config, files)
        api_reference.on_pre_page(page, config, files)
        return markdown

    def on_page_content(self, html, page, config, files):
        html = edition.on_page_content(html, page, config, files)
        html = notebook_downloads.on_page_content(html, page, config, files)
        html = lesson_notebooks.on_page_content(html, page, config, files)
        html = reader_downloads.on_page_content(html, page, config, files)
        html = reader_blocks.on_page_content(html, page, config, files)
        html = prose_notebooks.on_page_content(html, page, config, files)
        html = self.verification.on_page_content(html, page, config, files)
        # Its <autoref> elements are resolved by mkdocs-autorefs's on_env, which runs after this plugin's.
        html = api_links.on_page_content(html, page, config, files)
        # Last: the math of everything above ({@ ... @} values included).
        return build_math.on_page_content(html, page, config, files)

    def on_env(self, env, config, files):
        self.page_namer.stop()  # every page is rendered; what follows names its own page (the blocks' verdicts)
        notebook_downloads.on_env(env, config, files)
        self.verification.on_env(env, config, files)  # waits for the blocks; every page's line, the report
        return env

    def on_page_context(self, context, page, config, nav):
        self.page_namer.start(source_of(page, ROOT))  # the page's template and its post_page steps
        return context

    def on_post_page(self, output, page, config):
        output = notebook_downloads.on_post_page(output, page, config)
        output = build_math.on_post_page(output, page, config)
        output = accessibility.on_post_page(output, page, config)  # after build_math's display boxes
        output = edition.on_post_page(output, page, config)
        self.page_namer.stop()
        return output

    def on_post_build(self, config):
        notebook_downloads.on_post_build(config)
        build_math.on_post_build(config)  # the math font, cut to the glyphs of the editions built so far
        # After search's on_post_build (it is listed first) wrote this edition's index; before the i18n
        # plugin's, which merges the editions' entries and then builds the next edition.
        edition.on_post_build(config)

    def on_build_error(self, error):
        edition.on_build_error(error)


def own_checkout(config) -> None:
    """Refuse to build a checkout other than the one this plugin was installed from: its steps read
    that checkout's mlp_ref, prose and pins (ROOT), so a copied checkout whose environment still
    names the original folder would build the other folder's code under this folder's pages."""
    if not config.config_file_path:
        return
    checkout = Path(config.config_file_path).resolve().parent
    if checkout != ROOT:
        raise PluginError(f"mkdocs.yml is in {checkout}, but the site's plugin (mlp_site) was installed from "
                          f"{ROOT}: this environment was made for another checkout. Run `make` in {checkout}: "
                          "it installs the environment again for that folder.")
