"""What a lab notebook does besides its experiment: its language, its first lines, its last line.

A lab's first cell holds its settings as plain assignments, the first of them the
notebook's language (``LANGUAGE = "en"`` in the English notebook, ``"ru"`` in the Russian
one). The next cell calls :func:`begin` once: from then on every table, figure, message and
warning of the notebook (:func:`mlp_ref.course.i18n.say`) is in that language, and the
notebook says whether it is the page's run. :func:`finish` prints how long the cells took.
"""

from __future__ import annotations

import os
import time

from mlp_ref.course import i18n
from mlp_ref.course.claims import site_build
from mlp_ref.course.i18n import say


def use_language(language: str) -> None:
    """Say this process's tables, figures and messages in ``language`` (sets ``MLP_LANG``).

    Parameters
    ----------
    language : str
        One of :data:`mlp_ref.course.i18n.LANGUAGES` (``"en"``, ``"ru"``).

    Raises
    ------
    ValueError
        Another language; or, while the site is built, a language other than the edition's
        being built (the English notebook set to ``"ru"``, or the reverse).
    """
    if language not in i18n.LANGUAGES:
        raise ValueError(f"LANGUAGE: expected one of {', '.join(map(repr, i18n.LANGUAGES))}, received {language!r}")
    building = os.environ.get(i18n.ENV)
    if site_build() and building and building != language:
        raise ValueError(f"LANGUAGE: the site's {building!r} edition is being built, but its notebook says {language!r}")
    os.environ[i18n.ENV] = language


def begin(language: str, settings, page_settings, command: str, *, own_data: bool = False) -> float:
    """A lab notebook's first lines: its language, whether this is the page's run, the command.

    Parameters
    ----------
    language : str
        The notebook's ``LANGUAGE`` (see :func:`use_language`).
    settings : dataclass
        This run's settings (``DigitsSettings``, ``CharLMSettings``).
    page_settings : dataclass
        The page's (the settings class's defaults: the command line with no options).
    command : str
        The command line that makes the same run (printed).
    own_data : bool
        True when the run reads other data than the page's (Lab B's ``WORDS_FILE``).

    Returns
    -------
    float
        ``time.perf_counter()`` at the start, for :func:`finish`.

    Raises
    ------
    AssertionError
        While the site is built (:func:`mlp_ref.course.claims.site_build`), when the
        settings or the data are not the page's: the page's text describes that run.
    """
    start = time.perf_counter()
    use_language(language)
    page_run = settings == page_settings and not own_data
    if site_build():  # the page's run: the command with no options must reproduce it
        assert page_run, f"the page's settings must be the defaults of {type(page_settings).__name__}, on its data"
    elif not page_run:
        print(say("Your settings differ from the page's: the text describes the page's run, and the cells that "
                  "check its statements say where your run differs.",
                  ru="Ваши настройки отличаются от настроек страницы: текст описывает запуск страницы, а ячейки, "
                  "которые проверяют её утверждения, скажут, где ваш запуск отличается."))
    print(say("the same run from the command line:", ru="тот же запуск из командной строки:"))
    print("   ", command)
    return start


def finish(start: float) -> None:
    """Print how long the notebook's cells took since :func:`begin`, which its first cell after the imports
    calls: without the kernel's start and the imports (it varies from run to run).

    Parameters
    ----------
    start : float
        What :func:`begin` returned.
    """
    seconds = time.perf_counter() - start
    print(say(f"this notebook's cells after its imports ran in {seconds:.1f} s",
              ru=f"ячейки этого ноутбука после импортов выполнились за {seconds:.1f} с"))
