"""What the plugin writes for a reader, in the language of the edition being built.

Not a step itself: the steps import it, as they import ``lab_files``. A label the build adds to a
page ("Output", "Continues the block above"), a box ("Before you start"), a link ("Download this
lesson as a Jupyter notebook"), a screen reader's name of a box ("Equation 2") and the prose the
build adds to a downloaded notebook are said through :func:`say`, both languages side by side, as
the pages' generators say theirs (``mlp_ref.course.i18n``). edition.py sets ``MLP_LANG`` to
the edition being built; outside a build it is English.

``mlp_ref`` is imported when a text is said, not when the plugin is loaded: MkDocs loads the plugins
before the macros plugin puts this checkout first on ``sys.path`` (a bare ``mkdocs`` command would
otherwise import the installed package), and render_cache.py drops ``mlp_ref``'s modules
before each build so that the checkout's own code is the one that runs.
"""

from __future__ import annotations


def say(en: str, *, ru: str) -> str:
    """``en`` or ``ru``, the text of the edition being built (``mlp_ref.course.i18n.say``)."""
    from mlp_ref.course.i18n import say as said

    return said(en, ru=ru)


def typeset(text: str, *, prose: bool = False) -> str:
    """``text`` as the edition prints it (``mlp_ref.course.i18n.typeset``: the Russian typography)."""
    from mlp_ref.course.i18n import typeset as typeset_text

    return typeset_text(text, prose=prose)


def language() -> str:
    """The language of the edition being built (``mlp_ref.course.i18n.language``)."""
    from mlp_ref.course.i18n import language as current

    return current()


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian noun form that agrees with ``n`` (``mlp_ref.course.i18n.ru_plural``)."""
    from mlp_ref.course.i18n import ru_plural as form

    return form(n, one, few, many)


def ru_count(n: int, one: str, few: str, many: str, *, gender: str, case: str = "nom") -> str:
    """A count and its noun as the Russian prose says them, a word up to ten (``mlp_ref.course.i18n.ru_count``)."""
    from mlp_ref.course.i18n import ru_count as said

    return said(n, one, few, many, gender=gender, case=case)


def ru_number(n: int, gender: str, case: str = "nom") -> str:
    """A count as the Russian prose says it, a word up to ten (``mlp_ref.course.i18n.ru_number``)."""
    from mlp_ref.course.i18n import ru_number as said

    return said(n, gender, case)
