"""The numbers the pages' prose says, as mkdocs-macros-plugin's template variables: ``{@ l6.qwen_ffn_coeff @}``.

Prose, captions and alt text never type a derived number. A page writes ``{@ l6.qwen_ffn_coeff @}``
and the build (mkdocs-macros-plugin, configured in ``mkdocs.yml`` with the delimiters ``{@ ... @}``
so that nothing else on a page is read as a template) puts the value in its place. The lab
notebooks use the same expressions in their Markdown cells; ``mlp_site.prose_notebooks`` puts the
values into the lab pages and into the downloaded notebooks.

The values are computed beside the page's tables and figures: ``values()`` of the page's module in
``mlp_ref/course/generators/`` (``l6`` is ``lesson06.values()``), each a string exactly as the prose
reads it (:mod:`mlp_ref.course.words`). This module only names them. A typed number that is an
input rather than a result (a fixture value, a published constant, a year) is declared instead,
in ``prose/inputs/<page>.yml``.
"""

from __future__ import annotations

from types import SimpleNamespace

from mlp_ref.course.generators import (home, lab_a, lab_b, lesson01, lesson02, lesson03, lesson04, lesson05,
                                       lesson06, lesson07, lesson08, lesson09)
from mlp_ref.course.words import counted

#: Each page's namespace in the templates, and the module whose ``values()`` fills it.
PAGES = {"home": home, "l1": lesson01, "l2": lesson02, "l3": lesson03, "l4": lesson04, "l5": lesson05,
         "l6": lesson06, "l7": lesson07, "l8": lesson08, "l9": lesson09, "lab_a": lab_a, "lab_b": lab_b}


def namespaces() -> dict[str, SimpleNamespace]:
    """Every page's values, as the templates see them (``l6.qwen_ffn_coeff``)."""
    return {name: SimpleNamespace(**module.values()) for name, module in PAGES.items()}


def define_env(env) -> None:
    """mkdocs-macros-plugin's entry point: every page's namespace becomes a template variable."""
    env.variables.update(namespaces())
    env.filter(counted)
