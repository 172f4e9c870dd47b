"""The verification line at the end of each page and the execution report, in each edition's words.

What the line may say is what the build checked (verification.py's module docstring); this module
only says it: :func:`claims` in English, :func:`claims_ru` in Russian (tests/test_verification.py
reads both), :func:`line_html` for the page, :func:`report_markdown` for the report.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import TYPE_CHECKING

from mkdocs.utils import get_relative_url

from .words import language, ru_count, ru_number, ru_plural, say, typeset

if TYPE_CHECKING:
    from .verification import PageRecord

LINE_CLASS = "mlp-verification"
# The execution report's first paragraph states the build's commit and how long it took: figures
# that change with every build. Its class lets the browser checks' caches (tests/axe_audit.py) read
# it without them, as they read the verification line.
FACTS_CLASS = "{: .mlp-build-facts }"


def _count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def _made(record: PageRecord) -> str:
    made = [_count(n, what) for n, what in ((record.tables, "table"), (record.figures, "figure")) if n]
    return "its " + " and ".join(made) if made else "no table or figure"


def _reason(reason: str, n: int) -> str:
    """Why ``n`` blocks did not run, as a clause whose verb agrees with them."""
    needs = re.fullmatch(r"needs (?P<module>\S+), which is not installed", reason)
    if needs:
        return f"{'it needs' if n == 1 else 'they need'} {needs['module']}, which was not installed where the build ran"
    return reason


def _not_run(record: PageRecord) -> str:
    counts = Counter(record.not_run)
    if not counts:
        return ""
    if len(counts) == 1:
        [(reason, n)] = counts.items()
        return f" ({_count(n, 'more block')} did not run: {_reason(reason, n)})"
    return (f" ({_count(len(record.not_run), 'more block')} did not run: "
            + "; ".join(f"{n} because {_reason(reason, n)}" for reason, n in sorted(counts.items())) + ")")


def when(ran_at: str) -> str:
    """When a run happened (``now_utc()`` of that run), in the same words whether this build ran it or
    reused it: the line, and so the page, must not change between a build that runs and one that reuses."""
    if not ran_at:
        raise ValueError("a run without its time: expected now_utc() of the build that ran it, got an empty string")
    return f"on {ran_at}"


def claims(record: PageRecord, date: str) -> str:
    """What the build checked on the page, as the sentence the line starts with (plain text)."""
    parts = []
    if record.blocks:
        ran = f"its {_count(record.blocks - len(record.not_run), 'code block')} ran {when(record.blocks_ran_at)}"
        if not record.failed:
            parts.append(f"{ran} and each printed exactly the output shown" + _not_run(record))
        else:
            parts.append(f"{ran}, and {record.matched} printed exactly the output shown; {', '.join(record.failed)}"
                         + _not_run(record))
    if record.lab:
        parts.append(f"its {_count(record.generators, 'code cell')} ran without an error {when(record.rendered_at)} "
                     f"({record.render_seconds:.0f} s), made {_made(record)}, and every statement the page makes "
                     "about its results held in that run")
    elif record.generators:
        parts.append(f"{_count(record.generators, 'block')} of code run {when(record.rendered_at)} made "
                     f"{_made(record)}")
    if not parts:
        return f"Built on {date}; nothing on this page is computed"
    # Said on every page with runs, whether this build ran them or not (see when()).
    return (f"Checked when this page was built on {date}: " + "; ".join(parts)
            + ". A build reuses a dated run while nothing that run depends on has changed")


# --- the same line in Russian (the Russian edition's pages; tests/test_verification.py reads both) ---

def _count_ru(n: int, one: str, few: str, many: str, gender: str, case: str = "nom") -> str:
    """A count and its noun, a word up to ten (``ru_count``): «два блока кода», «одну таблицу», «14 таблиц»."""
    return ru_count(n, one, few, many, gender=gender, case=case)


def _plural_verb(n: int, singular: str, plural: str) -> str:
    return singular if ru_plural(n, "1", "2", "5") == "1" else plural


def _ru_date(iso: str) -> str:
    """A date or a time as the Russian edition writes it (``mlp_ref.course.i18n.ru_date``): «2 декабря 2026 г.»."""
    from mlp_ref.course.i18n import ru_date  # when said, as words.py imports mlp_ref

    return ru_date(iso)


def when_ru(ran_at: str) -> str:
    """:func:`when` in Russian: the same words whether this build ran it or reused it."""
    when(ran_at)  # the same check of the time
    return _ru_date(ran_at)


def _made_ru(record: PageRecord) -> str:
    made = [_count_ru(n, *forms) for n, forms in ((record.tables, ("таблицу", "таблицы", "таблиц", "f", "acc")),
                                                   (record.figures, ("рисунок", "рисунка", "рисунков", "m", "acc"))) if n]
    return " и ".join(made) if made else "ни одной таблицы и ни одного рисунка"


def _reason_ru(reason: str) -> str:
    needs = re.fullmatch(r"needs (?P<module>\S+), which is not installed", reason)
    return f"нужен модуль {needs['module']}, а там, где шла сборка, его не было" if needs else reason


def _not_run_ru(record: PageRecord) -> str:
    counts = Counter(record.not_run)
    n = len(record.not_run)
    if not counts:
        return ""
    said = (_reason_ru(next(iter(counts))) if len(counts) == 1 else
            "; ".join(f"{count} — {_reason_ru(reason)}" for reason, count in sorted(counts.items())))
    return f" (ещё {_count_ru(n, 'блок', 'блока', 'блоков', 'm')} {_plural_verb(n, 'не выполнен', 'не выполнены')}: {said})"


def claims_ru(record: PageRecord, date: str) -> str:
    """:func:`claims` in Russian: the same figures, said as a Russian reader reads them."""
    date = _ru_date(date)
    parts = []
    if record.blocks:
        n = record.blocks - len(record.not_run)
        ran = (f"{_count_ru(n, 'блок кода', 'блока кода', 'блоков кода', 'm')} страницы "
               f"{_plural_verb(n, 'выполнен', 'выполнены')} {when_ru(record.blocks_ran_at)}")
        if not record.failed:
            parts.append(f"{ran}, и каждый напечатал ровно тот вывод, что показан" + _not_run_ru(record))
        else:
            parts.append(f"{ran}, и {ru_number(record.matched, 'm')} из них {_plural_verb(record.matched, 'напечатал', 'напечатали')} ровно показанный вывод; "
                         f"{', '.join(record.failed)}" + _not_run_ru(record))
    if record.lab:
        n = record.generators
        parts.append(f"{_count_ru(n, 'ячейка кода', 'ячейки кода', 'ячеек кода', 'f')} "
                     f"{_plural_verb(n, 'выполнена', 'выполнены')} без ошибок {when_ru(record.rendered_at)} "
                     f"({record.render_seconds:.0f} с) и {_plural_verb(n, 'создала', 'создали')} {_made_ru(record)}; "
                     "каждое утверждение страницы о результатах подтвердилось в этом запуске")
    elif record.generators:
        n = record.generators
        parts.append(f"{_count_ru(n, 'блок кода', 'блока кода', 'блоков кода', 'm')} сборки, "
                     f"{_plural_verb(n, 'выполненный', 'выполненные')} {when_ru(record.rendered_at)}, "
                     f"{_plural_verb(n, 'создал', 'создали')} {_made_ru(record)}")
    if not parts:
        return f"Собрано {date}; на этой странице ничего не вычисляется"
    # Said on every page with runs, as in English (see when()); set as the edition's prose is («(14 с)»).
    return typeset(f"Проверено при сборке страницы {date}: " + "; ".join(parts)
                   + ". Сборка берёт результаты датированного запуска, пока не изменилось ничего, от чего он "
                   "зависит", prose=True)


def _commit_ru(commit: str) -> str:
    return (commit.replace("no git commit (not a git checkout)", "без коммита git (не клон репозитория)")
            .replace("commit ", "коммит ", 1).replace(", with uncommitted changes to mlp_ref",
                                                       ", с незафиксированными изменениями в mlp_ref"))


def line_html(record: PageRecord, facts: dict[str, str], report_url: str) -> str:
    """The line at the end of a page, in the language of the edition being built."""
    russian = language() == "ru"
    commit = _commit_ru(facts["commit"]) if russian else facts["commit"]
    versions = f"mlp_ref {facts['mlp_ref']} ({commit}), NumPy {facts['numpy']}, Python {facts['python']}"
    said = claims_ru(record, facts["date"]) if russian else claims(record, facts["date"])
    report = say("Execution report", ru="Отчёт о выполнении")
    return (f'<hr>\n<p class="{LINE_CLASS}"><small>{html.escape(said)}. '
            f'{html.escape(versions)}. <a href="{report_url}">{report}</a>.</small></p>\n')


def report_markdown(records: list[PageRecord], facts: dict[str, str], base: str, build_seconds: float) -> str:
    """The execution report's body: one row per page, the slowest first."""
    rows = sorted(records, key=lambda r: -(r.block_seconds + r.render_seconds))
    if language() == "ru":
        lines = [
            # set as the edition's prose is («заняли 44.5 с»)
            typeset(f"Все числа ниже — из сборки {_ru_date(facts['date'])}, которая сделала этот сайт: mlp_ref {facts['mlp_ref']} "
            f"({_commit_ru(facts['commit'])}), NumPy {facts['numpy']} и Python {facts['python']}. *Блоки* — "
            "блоки кода, которые страница показывает вам: каждый выполнен, и напечатанное им сравнено с выводом "
            "на странице (*Совпали* — сколько напечатали ровно показанное, *Проп.* — сколько не выполнено). "
            "*Код сборки* сделал таблицы (*Табл.*) и рисунки (*Рис.*) страницы (у лабораторной работы это ячейки "
            "кода её ноутбука). Время — в секундах на машине, где шёл запуск. *Запуск* говорит, когда он был: "
            "в этой сборке или в более ранней, результаты которой эта сборка взяла, потому что ничего, от чего "
            "они зависят, с тех пор не изменилось. Сборка всех страниц и выполнение всех блоков кода "
            f"заняли {build_seconds:.1f} с (блоки выполняются в отдельном процессе, параллельно со сборкой).",
                    prose=True),
            FACTS_CLASS,
            "",
            # short headers: the Russian words would make the table wider than the column at 1280 px
            "| Страница | Блоки | Совпали | Проп. | Код сборки | Табл. | Рис. | Блоки, с | Сборка, с | Запуск |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|",
        ]
    else:
        lines = [
            f"Every figure below comes from the build of {facts['date']} that made this site, with mlp_ref "
            f"{facts['mlp_ref']} ({facts['commit']}), NumPy {facts['numpy']} and Python {facts['python']}. "
            "*Code blocks* are the code a page shows you: each ran and its printed output was compared with the "
            "output the page shows. *Build-time code* is the code that made the page's tables and figures (on a "
            "lab, its notebook's code cells). Times are seconds on the machine that ran them. *Ran* says when "
            "they ran: in this build, or in an earlier one whose results this build reused because nothing they "
            f"depend on had changed. This build took {build_seconds:.1f} s until every page was rendered and every "
            "code block had run (the code blocks run in a process of their own, beside the rendering).",
            FACTS_CLASS,
            "",
            "| Page | Code blocks | Printed what is shown | Not run | Build-time code | Tables | Figures "
            "| Code blocks (s) | Rendering (s) | Ran |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|",
        ]
    for r in rows:
        ran = sorted({at for at in ([r.blocks_ran_at] if r.blocks else []) + [r.rendered_at] if at})
        if language() == "ru":
            ran = [_ru_date(at) for at in ran]
        lines.append(f"| [{r.title}]({get_relative_url(r.url, base)}) | {r.blocks} | {r.matched} | {len(r.not_run)} "
                     f"| {r.generators} | {r.tables} | {r.figures} | {r.block_seconds:.1f} | {r.render_seconds:.1f} "
                     f"| {', '.join(ran)} |")
    total = lambda name: sum(getattr(r, name) for r in records)  # noqa: E731
    everything = say(f"All {len(records)} pages", ru=f"Все страницы ({len(records)})")
    lines.append(f"| **{everything}** | {total('blocks')} | {total('matched')} "
                 f"| {sum(len(r.not_run) for r in records)} | {total('generators')} | {total('tables')} "
                 f"| {total('figures')} | {total('block_seconds'):.1f} | {total('render_seconds'):.1f} | |")
    return "\n".join(lines) + "\n"
