"""The verification made visible: each page ends with what its build checked, and a report lists them all.

What this build checks, and so what the line may say:

- **Code blocks.** This build is the one executor of the pages' ``python`` blocks. Every runnable
  block runs, in a process of its own started when the build starts (block_runner.py; it
  runs beside the pages' rendering), and its printed output is compared with the output the page
  shows, exactly; it must write nothing to stderr, which a reader would see too (a warning is an
  error there). A Russian twin's code is the English page's (tests/test_editions.py), so the
  Russian edition's build reuses the English edition's run of the same code (:data:`_runs`) and
  compares it with its own page. A block that prints something else, writes to stderr or raises
  is a warning, so ``mkdocs build --strict`` fails; the line then says how many did not match. A block that
  needs an optional module this build lacks (PyTorch) is counted as not run. Every block's
  result is written to ``_execution.json`` at the root of the site (:func:`write_record`):
  the tests report one item per block from it (tests/page_blocks.py) instead of running the
  blocks again.
- **Build-time code.** markdown-exec blocks run while the page is rendered (a failing one
  fails the build); the line counts them and the tables and figures in the page.
- **Labs.** The notebook's code cells ran without an error (mkdocs-jupyter, errors not allowed)
  and its claims held (mlp_ref.course.claims fails the build).
- **When.** render_cache.py reuses a page's render, and this step a page's block results
  (cache.py), from an earlier build when nothing they depend on has changed (the
  render cache's key, of the blocks' code rather than the whole page: the code, the mlp_ref
  modules it imports, snippets, the plugin, pins, Python, ...). The line says when each run was, the
  same words whether this build ran it or reused it: a page whose runs are reused is then
  byte for byte the page the build that ran them made (tests/axe_audit.py keeps its
  accessibility audit under a key of the page's HTML, so a changing line would audit every
  page again on the build after a render).

Then come the versions: mlp_ref's (and the git commit of this checkout, noting uncommitted
changes to mlp_ref), NumPy's and Python's, and the build date. The site-wide report
(``execution-report/``) has one row per page with the same figures and the time each took.
"""

from __future__ import annotations

import datetime
import difflib
import hashlib
import html
import importlib.util
import json
import logging
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import markdown as markdown_lib
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.utils import get_relative_url

from . import cache
from .lab_files import is_lab
from .page_code import blocks_of, parse_fences, segments
from .render_cache import ENVIRONMENT, PACKAGE, cache_key, code_files, now_utc
from .words import language, ru_plural, say

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).resolve().parent / "block_runner.py"
RUNNER_DROPS = ("MLP_SITE_BUILD", "MLP_LANG")  # the blocks run as a reader's code: no build marker, English
# Every block's result, both editions, at the root of the site (tests/page_blocks.py reads it).
RECORD = "_execution.json"
REPORT = "execution-report.md"
LINE_CLASS = "mlp-verification"
# The execution report's first paragraph states the build's commit and how long it took: figures
# that change with every build. Its class lets the browser checks' caches (tests/axe_audit.py) read
# it without them, as they read the verification line.
FACTS_CLASS = "{: .mlp-build-facts }"
LAB_CODE_CELL = re.compile(r"^# %%(?! \[markdown\])", re.MULTILINE)
TABLE = re.compile(r"<table\b")
# A figure is one <figure class="mlp-figure">: its picture (an <img> with a data: URL) is inside it, so
# counting the pictures too counted every figure twice (tests/test_verification.py counts the pictures).
FIGURE = re.compile(r'<figure class="mlp-figure"[\s>]')
log = logging.getLogger(f"mkdocs.plugins.{__name__}")


@dataclass
class PageRecord:
    """What the build did for one page."""

    src_uri: str
    source: str = ""  # the page's file, relative to the repository root (docs/lessons/x.ru.md)
    title: str = ""
    url: str = ""
    blocks: int = 0  # runnable python blocks on the page
    matched: int = 0  # ran and printed exactly what the page shows
    not_run: list[str] = field(default_factory=list)  # why each block that did not run did not
    failed: list[str] = field(default_factory=list)  # "block N (line L): why"
    block_seconds: float = 0.0
    blocks_ran_at: str = ""  # when the blocks ran: in this build, or the earlier run this build reused
    generators: int = 0  # markdown-exec blocks (lessons) or code cells (labs)
    tables: int = 0
    figures: int = 0
    render_seconds: float = 0.0  # the render that made the page (render_cache.py)
    rendered_at: str = ""  # when the render ran: in this build, or the earlier one this build reused
    lab: bool = False
    runs: list[dict] = field(default_factory=list)  # one entry of _execution.json per block (check_blocks)


# ---------------------------------------------------------------------------------------
# Facts of this build
# ---------------------------------------------------------------------------------------

def _git(*args: str) -> str | None:
    try:
        result = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def build_facts() -> dict[str, str]:
    """Versions, commit and date that the lines state."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    commit = _git("rev-parse", "--short=12", "HEAD")
    if commit is None:
        commit_text = "no git commit (not a git checkout)"
    else:
        dirty = _git("status", "--porcelain", "--", "mlp_ref")
        commit_text = f"commit {commit}" + (", with uncommitted changes to mlp_ref" if dirty else "")
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    now = (datetime.datetime.fromtimestamp(int(epoch), datetime.UTC) if epoch
           else datetime.datetime.now(datetime.UTC))
    return {"mlp_ref": project["version"], "commit": commit_text, "numpy": metadata.version("numpy"),
            "python": platform.python_version(), "date": now.date().isoformat()}


# ---------------------------------------------------------------------------------------
# The blocks, run beside the build
# ---------------------------------------------------------------------------------------

class BlockRun:
    """block_runner.py running every page's blocks in a process of its own; ``ended(src, pairs)`` is
    called (from a thread of its own) as soon as the last block of page ``src`` has run."""

    def __init__(self, pages: dict[str, list[list]], ended=None):
        self.pages = pages  # src_uri -> segments of page_code.Block
        self.done: dict[str, list[tuple]] = {}  # src_uri -> [(block, result)], in the order the pages ended
        self.process, self.error = None, None
        if not pages:
            return
        self.folder = Path(tempfile.mkdtemp(prefix="mlp-blocks-"))
        payload = [[{"code": block.code, "needs": block.needs, "where": block.fence.where} for block in segment]
                   for groups in pages.values() for segment in groups]
        (self.folder / "in.json").write_text(json.dumps(payload), encoding="utf-8")
        # a reader's run: no build marker, and English (reader code prints the same on either edition)
        env = {key: value for key, value in os.environ.items() if key not in RUNNER_DROPS}
        with open(self.folder / "stderr.txt", "w", encoding="utf-8") as stderr:  # a file: no pipe to drain
            self.process = subprocess.Popen([sys.executable, str(RUNNER), str(self.folder / "in.json")], cwd=ROOT,
                                            env=env, stdout=subprocess.PIPE, stderr=stderr, text=True)
        self.reader = threading.Thread(target=self._read, args=(ended,), name="mlp-blocks", daemon=True)
        self.reader.start()

    def _read(self, ended) -> None:
        """Pair each line of results with its segment; a page whose segments have all come back has ended."""
        left = {src: len(groups) for src, groups in self.pages.items()}
        pairs: dict[str, list[tuple]] = {src: [] for src in self.pages}
        order = [(src, segment) for src, groups in self.pages.items() for segment in groups]
        try:
            for (src, segment), line in zip(order, self.process.stdout):
                pairs[src] += zip(segment, json.loads(line), strict=True)
                left[src] -= 1
                if not left[src]:
                    self.done[src] = pairs[src]
                    if ended is not None:
                        ended(src, pairs[src])
        except BaseException as error:  # said by results(), in the build's own thread
            self.error = error

    def results(self) -> dict[str, list[tuple]]:
        """src_uri -> [(block, result)] once the runner is done."""
        if self.process is None:
            return {}
        self.reader.join(timeout=1800)
        self.process.wait(timeout=60)
        if self.process.returncode != 0 or len(self.done) != len(self.pages):
            stderr = (self.folder / "stderr.txt").read_text(encoding="utf-8", errors="replace")
            raise PluginError(f"block_runner.py failed (exit {self.process.returncode}):\n{stderr[-5000:]}")
        if self.error is not None:
            raise self.error
        return self.done


def check_blocks(record: PageRecord, pairs: list[tuple], ran: str = "this build") -> None:
    """Fill ``record`` from its blocks' results; warn (failing a strict build) on each mismatch.

    ``ran`` says where the results come from: "this build", "the twin" (this build's run of the
    same code for the other edition) or "the cache" (an earlier build's run, mlp_site/cache.py)."""
    record.blocks = len(pairs)
    for block, result in pairs:
        record.block_seconds += result["seconds"]
        verdict, why, detail = judge(block, result)
        if verdict == "not run":
            record.not_run.append(result["skipped"])
        elif verdict == "matched":
            record.matched += 1
        else:  # said now, naming the page's file and line; --strict fails the build at its end
            record.failed.append(f"block {block.number} (line {block.lineno}) {why}")
            # logged from the runner's thread while another page renders: it names its own page (mlp_page)
            log.warning(f"{record.source}:{block.lineno}: block {block.number} {why}\n{detail}",
                        extra={"mlp_page": record.source})
        record.runs.append({"page": record.source, "line": block.lineno, "number": block.number,
                            "code_sha256": hashlib.sha256(block.code.encode()).hexdigest(),
                            "expected": block.expected, "output": result["output"], "stderr": result["stderr"],
                            "error": result["error"], "skipped": result["skipped"], "seconds": round(result["seconds"], 4),
                            "ran": ran, "verdict": verdict, "why": why, "detail": detail})


def judge(block, result: dict) -> tuple[str, str, str]:
    """The verdict on one block's run, decided here once: (verdict, why in words, detail).

    The verdict is "matched", "not run", "raised", "differs" or "wrote to stderr"; the detail is the
    traceback, the diff of the page's output against the printed one, or what went to stderr. The
    tests report it as it is (tests/page_blocks.py)."""
    expected = block.expected or ""
    if result["skipped"]:
        return "not run", result["skipped"], ""
    if result["error"]:
        return "raised", "raised an error", result["error"]
    if result["output"] != expected:
        why = ("printed output differs from the page" if block.expected is not None else
               "prints output but the page shows none (add an expected-output block after it)")
        return "differs", why, "".join(difflib.unified_diff(
            expected.splitlines(True), result["output"].splitlines(True), "shown on the page", "printed by the code"))
    if result["stderr"]:  # a reader's terminal or notebook shows it beside what the page shows
        return "wrote to stderr", "wrote to stderr, which the page does not show", result["stderr"]
    return "matched", "printed exactly what the page shows", ""


# ---------------------------------------------------------------------------------------
# The line and the report
# ---------------------------------------------------------------------------------------

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

def _count_ru(n: int, one: str, few: str, many: str) -> str:
    return f"{n} {ru_plural(n, one, few, many)}"


def _plural_verb(n: int, singular: str, plural: str) -> str:
    return singular if ru_plural(n, "1", "2", "5") == "1" else plural


def when_ru(ran_at: str) -> str:
    """:func:`when` in Russian: the same words whether this build ran it or reused it."""
    when(ran_at)  # the same check of the time
    return ran_at


def _made_ru(record: PageRecord) -> str:
    made = [_count_ru(n, *forms) for n, forms in ((record.tables, ("таблицу", "таблицы", "таблиц")),
                                                   (record.figures, ("рисунок", "рисунка", "рисунков"))) if n]
    return " и ".join(made) if made else "ни одной таблицы и ни одного рисунка"


def _reason_ru(reason: str) -> str:
    needs = re.fullmatch(r"needs (?P<module>\S+), which is not installed", reason)
    return f"нужен модуль {needs['module']}, а там, где шла сборка, его не было" if needs else reason


def _not_run_ru(record: PageRecord) -> str:
    reasons = sorted(set(record.not_run))
    n = len(record.not_run)
    return (f" (ещё {_count_ru(n, 'блок', 'блока', 'блоков')} {_plural_verb(n, 'не выполнен', 'не выполнены')}: "
            + "; ".join(_reason_ru(reason) for reason in reasons) + ")") if reasons else ""


def claims_ru(record: PageRecord, date: str) -> str:
    """:func:`claims` in Russian: the same figures, said as a Russian reader reads them."""
    parts = []
    if record.blocks:
        n = record.blocks - len(record.not_run)
        ran = (f"{_count_ru(n, 'блок кода', 'блока кода', 'блоков кода')} страницы "
               f"{_plural_verb(n, 'выполнен', 'выполнены')} {when_ru(record.blocks_ran_at)}")
        if not record.failed:
            parts.append(f"{ran}, и каждый напечатал ровно тот вывод, что показан" + _not_run_ru(record))
        else:
            parts.append(f"{ran}, и {record.matched} из них напечатали ровно показанный вывод; "
                         f"{', '.join(record.failed)}" + _not_run_ru(record))
    if record.lab:
        n = record.generators
        parts.append(f"{_count_ru(n, 'ячейка кода', 'ячейки кода', 'ячеек кода')} "
                     f"{_plural_verb(n, 'выполнена', 'выполнены')} без ошибок {when_ru(record.rendered_at)} "
                     f"({record.render_seconds:.0f} с) и {_plural_verb(n, 'создала', 'создали')} {_made_ru(record)}; "
                     "каждое утверждение страницы о результатах подтвердилось в этом запуске")
    elif record.generators:
        n = record.generators
        parts.append(f"{_count_ru(n, 'блок кода', 'блока кода', 'блоков кода')} сборки, "
                     f"{_plural_verb(n, 'выполненный', 'выполненные')} {when_ru(record.rendered_at)}, "
                     f"{_plural_verb(n, 'создал', 'создали')} {_made_ru(record)}")
    if not parts:
        return f"Собрано {date}; на этой странице ничего не вычисляется"
    # Said on every page with runs, as in English (see when()).
    return (f"Проверено при сборке страницы {date}: " + "; ".join(parts)
            + ". Сборка берёт результаты датированного запуска, пока не изменилось ничего, от чего он зависит")


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
            f"Все числа ниже — из сборки {facts['date']}, которая сделала этот сайт: mlp_ref {facts['mlp_ref']} "
            f"({_commit_ru(facts['commit'])}), NumPy {facts['numpy']} и Python {facts['python']}. *Блоки* — "
            "блоки кода, которые страница показывает вам: каждый выполнен, и напечатанное им сравнено с выводом "
            "на странице (*Совпали* — сколько напечатали ровно показанное, *Проп.* — сколько не выполнено). "
            "*Код сборки* сделал таблицы (*Табл.*) и рисунки (*Рис.*) страницы (у лабораторной работы это ячейки "
            "кода её ноутбука). Время — в секундах на машине, где шёл запуск. *Запуск* говорит, когда он был: "
            "в этой сборке или в более ранней, результаты которой эта сборка взяла, потому что ничего, от чего "
            "они зависят, с тех пор не изменилось. Сборка всех страниц и выполнение всех блоков кода "
            f"заняли {build_seconds:.1f} с (блоки выполняются в отдельном процессе, параллельно со сборкой).",
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
        lines.append(f"| [{r.title}]({get_relative_url(r.url, base)}) | {r.blocks} | {r.matched} | {len(r.not_run)} "
                     f"| {r.generators} | {r.tables} | {r.figures} | {r.block_seconds:.1f} | {r.render_seconds:.1f} "
                     f"| {', '.join(ran)} |")
    total = lambda name: sum(getattr(r, name) for r in records)  # noqa: E731
    everything = say(f"All {len(records)} pages", ru=f"Все страницы ({len(records)})")
    lines.append(f"| **{everything}** | {total('blocks')} | {total('matched')} "
                 f"| {sum(len(r.not_run) for r in records)} | {total('generators')} | {total('tables')} "
                 f"| {total('figures')} | {total('block_seconds'):.1f} | {total('render_seconds'):.1f} | |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# MkDocs events
# ---------------------------------------------------------------------------------------

_state: dict = {}
# The block results of the build under way, by key (blocks_key), with where they came from: the English
# edition's build fills it, and the Russian edition's build, which runs inside it (edition.py),
# takes its twins' results from it.
_runs: dict[str, tuple[dict, str]] = {}
_record: dict[str, list[dict]] = {}  # both editions' entries of _execution.json, by page


def runs_text(blocks: list) -> str:
    """What the block runner runs for a page: each block's code (snippets expanded) and the module
    it needs, in their runs; then the code again as plain lines, from which the key reads the
    modules of mlp_ref it imports. The prose and the shown outputs are not in it."""
    runs = json.dumps([[[block.code, block.needs] for block in segment] for segment in segments(blocks)])
    return runs + "\n" + "\n".join(block.code for block in blocks)


def blocks_key(blocks: list) -> str:
    """The key of a page's block results: an edit of its prose, or of an output the page shows,
    runs nothing again (the outputs are compared with the page on every build all the same).
    The edition is not in it: the runner takes MLP_LANG and MLP_SITE_BUILD away (BlockRun), so a
    Russian twin, whose code is its English page's, has its English page's key."""
    # Whether each optional module is installed decides which blocks run: part of the key.
    installed = {block.needs: importlib.util.find_spec(block.needs) is not None for block in blocks if block.needs}
    return cache_key(runs_text(blocks), {"run": "code blocks", "installed": installed},
                     environment=tuple(name for name in ENVIRONMENT if name not in RUNNER_DROPS), kind="blocks",
                     code=BLOCK_CODE, files=BLOCK_FILES)


# What a run of the blocks reads: the modules of mlp_ref the code imports (followed through their
# imports) and mlp_ref's data files, the runner and the pins. Not the prose, the pages' outputs, the
# other steps of this plugin or mkdocs.yml: an edit of those runs no block again (the snippets the
# blocks embed are in their text already, expanded).
BLOCK_CODE = (PACKAGE,)
BLOCK_FILES = ("requirements.txt", RUNNER.relative_to(ROOT).as_posix())


def block_inputs(text: str) -> list[Path]:
    """The files whose content is part of the key of a run of the blocks in ``text`` (:func:`blocks_key`)."""
    return code_files(text, ROOT, BLOCK_CODE, BLOCK_FILES)


def write_record(site: Path, records: list[PageRecord]) -> None:
    """``_execution.json`` at the root of the site: one entry per block (check_blocks) of the editions
    built so far (the Russian edition's build, the last, writes the whole), in page order."""
    _record.update({record.source: record.runs for record in records})
    site.mkdir(parents=True, exist_ok=True)
    runs = [run for source in sorted(_record) for run in _record[source]]
    (site / RECORD).write_text(json.dumps({"blocks": runs}, indent=1, ensure_ascii=False), encoding="utf-8")


def on_config(config):
    if language() == "en":  # edition.py set it: the outer build, whose runs the Russian build reuses
        _runs.clear()
        _record.clear()
    _state.clear()
    _state["facts"] = build_facts()
    _state["start"] = time.perf_counter()
    return config


def on_files(files: Files, config) -> Files:
    pages: dict[str, list[list]] = {}  # the pages whose blocks this build runs
    records: dict[str, PageRecord] = {}
    cached, entries = {}, {}  # src_uri -> (segments, stored run); src_uri -> the key to store the run under
    for file in files.documentation_pages():
        if file.abs_src_path is None:  # the API reference's pages: generated, no code of their own
            continue
        records[file.src_uri] = record = PageRecord(file.src_uri, lab=is_lab(file.src_uri),
                                                    source=Path(file.abs_src_path).relative_to(ROOT).as_posix())
        source = Path(file.abs_src_path).read_text(encoding="utf-8")
        if record.lab:
            record.generators = len(LAB_CODE_CELL.findall(source))
            continue
        fences = parse_fences(source.split("\n"), file.src_uri)
        record.generators = sum(1 for fence in fences if fence.runs_at_build)
        blocks = blocks_of(fences)
        if not blocks:
            continue
        key = blocks_key(blocks)
        stored = None if key in _runs else cache.load("build", key)
        if key in _runs:  # its twin's code, whose results this build has
            cached[file.src_uri] = (segments(blocks), *_runs[key])
        elif stored is not None:
            cached[file.src_uri] = (segments(blocks), stored, "the cache")
            _runs[key] = cached[file.src_uri][1:]
        else:
            pages[file.src_uri] = segments(blocks)
            entries[file.src_uri] = key
    # A page's verdicts are said as soon as they are known: the reused ones now, the others as
    # each page's last block ends (BlockRun), while the pages render.
    for src, (groups, stored, ran) in cached.items():
        blocks = [block for segment in groups for block in segment]
        check_blocks(records[src], list(zip(blocks, stored["results"], strict=True)), ran)
        records[src].blocks_ran_at = stored["ran_at"]
    run = BlockRun(pages, ended=lambda src, pairs: check_blocks(records[src], pairs))
    _state.update(records=records, entries=entries, run=run, ran_at=now_utc())
    title = say("Execution report", ru="Отчёт о выполнении")
    files.append(File.generated(config, REPORT, content=f"# {title}\n", inclusion=InclusionLevel.NOT_IN_NAV))
    return files


def on_page_content(html_text: str, page, config, files) -> str:
    record = _state["records"].get(page.file.src_uri)
    if record is not None:
        record.title, record.url = page.title, page.url
        record.tables = len(TABLE.findall(html_text))
        record.figures = len(FIGURE.findall(html_text))
        # render_cache.py: None for a render of this build, which it stores with now_utc() as it ends
        record.render_seconds, record.rendered_at = page.render_seconds, page.rendered_at or now_utc()
    return html_text


def on_env(env, config, files):
    """Every page is rendered: wait for the blocks, then write each page's line and the report."""
    records: dict[str, PageRecord] = _state["records"]
    for src, pairs in _state["run"].results().items():  # each judged as it ended (on_files' BlockRun)
        records[src].blocks_ran_at = _state["ran_at"]
        key = _state["entries"][src]
        run = {"results": [result for _, result in pairs], "ran_at": _state["ran_at"]}
        _runs[key] = (run, "the twin")
        if not records[src].failed:  # a failed run is never kept: it runs again next time
            cache.save("build", key, run)
    write_record(Path(config.site_dir), list(records.values()))
    facts = _state["facts"]
    report = files.get_file_from_path(REPORT)
    for src, record in records.items():
        page = files.get_file_from_path(src).page
        page.content += line_html(record, facts, get_relative_url(report.url, page.url))
    body = report_markdown(list(records.values()), facts, report.url, time.perf_counter() - _state["start"])
    report.page.content += markdown_lib.markdown(body, extensions=config.markdown_extensions,
                                                 extension_configs=config.mdx_configs)
    return env
