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

A page's values are computed when a page first says one of them, not when the build starts: a
``values()`` that fails (a check in it found the page's statement false) fails the pages that say
its values, with a message naming them, and every other page still renders.
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path

from mlp_ref.course.generators import (home, lab_a, lab_b, lesson01, lesson02, lesson03, lesson04, lesson05,
                                       lesson06, lesson07, lesson08, lesson09)
from mlp_ref.course.i18n import typeset
from mlp_ref.course.words import counted

ROOT = Path(__file__).resolve().parents[1]

#: Each page's namespace in the templates, and the module whose ``values()`` fills it.
PAGES = {"home": home, "l1": lesson01, "l2": lesson02, "l3": lesson03, "l4": lesson04, "l5": lesson05,
         "l6": lesson06, "l7": lesson07, "l8": lesson08, "l9": lesson09, "lab_a": lab_a, "lab_b": lab_b}


class ValuesFailed(RuntimeError):
    """A page's ``values()`` raised. Not an AttributeError, which Jinja would turn into a bare "undefined"."""


class PageValues:
    """One page's values (``l4.tanh_peak``), computed by its module's ``values()`` at the first read.

    A failure is kept and raised again at every read, so each page that says one of the values fails
    with the same message, and ``values()`` runs once per edition's build.
    """

    def __init__(self, name: str, module):
        self._name, self._module = name, module
        self._values: dict[str, str] | None = None
        self._failure: ValuesFailed | None = None

    def _computed(self) -> dict[str, str]:
        if self._values is None and self._failure is None:
            try:
                self._values = self._module.values()
            except Exception as error:  # the values' own checks (assert ..., "lesson 4: ...") among them
                self._failure = ValuesFailed(f"{self._module.__name__}.values() (the page's {self._name}.… values) "
                                             f"raised {type(error).__name__} at {_place(error)}: {error}")
                self._failure.__cause__ = error
        if self._failure is not None:
            raise self._failure
        return self._values

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):  # copy, pickle and Jinja's own probes
            raise AttributeError(name)
        values = self._computed()
        if name not in values:
            raise AttributeError(f"{self._module.__name__}.values() has no {name!r}")
        return typeset(values[name], prose=True)  # in Russian, as the edition's prose writes it


def _place(error: BaseException) -> str:
    """Where ``error`` was raised, as ``path:line`` from the project's root: a bare assert's place."""
    frame = traceback.extract_tb(error.__traceback__)[-1]
    path = Path(frame.filename)
    return f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{frame.lineno}"


def namespaces() -> dict[str, PageValues]:
    """Every page's values, as the templates see them (``l6.qwen_ffn_coeff``), each computed when first read."""
    return {name: PageValues(name, module) for name, module in PAGES.items()}


def as_code(value: str) -> str:
    """A value as a line of code writes it, for a value a page puts inside backticks
    (``--steps {@ lab_b.long_steps | as_code @}``): the Russian edition's typesetting of numbers in prose
    (digits grouped by a no-break space, the minus sign U+2212) undone, so the reader can paste it; in
    English the value is unchanged. ``20\u202f000`` is ``20000``; ``\u22120.5`` is ``-0.5``."""
    return re.sub(r"(?<=\d)[\u00a0\u202f](?=\d)", "", value).replace("\u2212", "-")


#: The filters a page's ``{@ … @}`` may use, by name (the tests' own renderings use this table too).
FILTERS = {"counted": counted, "as_code": as_code}


def define_env(env) -> None:
    """mkdocs-macros-plugin's entry point: every page's namespace becomes a template variable."""
    env.variables.update(namespaces())
    for function in FILTERS.values():
        env.filter(function)
