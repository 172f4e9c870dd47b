"""The verification made visible: each page ends with what its build checked, and a report lists them all.

What this build checks, and so what the line may say:

- **Code blocks.** This build is the one executor of the pages' ``python`` blocks. Every runnable
  block runs, in a process of its own started when the build starts (block_run.py starts
  block_runner.py; it runs beside the pages' rendering), and its printed output is compared with
  the output the page shows, exactly, as soon as the page's last block has run (block_run.judge,
  recorded here by :func:`check_blocks`); it must write nothing to stderr, which a reader would see
  too (a warning is an error there). A Russian twin's code is the English page's (tests/test_editions.py), so the
  Russian edition's build reuses the English edition's run of the same code (:attr:`Verification.runs`) and
  compares it with its own page. A block that prints something else, writes to stderr or raises
  is a warning, so ``mkdocs build --strict`` fails; the line then says how many did not match. A block that
  needs an optional module this build lacks (PyTorch) is counted as not run. Every block's
  result is written to ``_execution.json`` at the root of the site (:meth:`Verification.write_record`):
  the tests report one item per block from it (tests/page_blocks.py) instead of running the
  blocks again.
- **Build-time code.** markdown-exec blocks run while the page is rendered (a failing one
  fails the build); the line counts them and the tables and figures in the page.
- **Labs.** The notebook's code cells ran without an error (mkdocs-jupyter, errors not allowed)
  and its claims held (mlp_ref.course.claims fails the build).
- **When.** render_cache.py reuses a page's render, and this step a page's block results
  (cache.py), from an earlier build when nothing they depend on has changed (block_run.blocks_key:
  the blocks' code, the mlp_ref modules it imports, the runner, the pins, Python, ...). The line says when each run was, the
  same words whether this build ran it or reused it: a page whose runs are reused is then
  byte for byte the page the build that ran them made (tests/axe_audit.py keeps its
  accessibility audit under a key of the page's HTML, so a changing line would audit every
  page again on the build after a render).

Then come the versions: mlp_ref's (and the git commit of this checkout, noting uncommitted
changes to mlp_ref), NumPy's and Python's, and the build date. The site-wide report
(``execution-report/``) has one row per page with the same figures and the time each took; both
are worded by verification_line.py.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import os
import platform
import re
import subprocess
import time
import tomllib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import markdown as markdown_lib
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.utils import get_relative_url

from . import ROOT, cache
from .block_run import BlockRun, blocks_key, judge
from .lab_files import is_lab
from .page_code import blocks_of, parse_fences, segments
from .render_cache import now_utc
from .verification_line import line_html, report_markdown
from .words import language, say

# Every block's result, both editions, at the root of the site (tests/page_blocks.py reads it).
RECORD = "_execution.json"
REPORT = "execution-report.md"
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
# The blocks' verdicts (block_run.py runs and judges them), in the page's record
# ---------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------
# MkDocs events
# ---------------------------------------------------------------------------------------

class Verification:
    """The verification of one ``mkdocs build`` (both editions): the plugin holds one (plugin.py) and calls
    its events. The Russian edition's build runs inside the English one's (edition.py), in the same
    plugin, so the results by key in :attr:`runs` let a twin take its English page's results.
    """

    def __init__(self):
        self.runs: dict[str, tuple[dict, str]] = {}  # the block results of the build under way, by blocks_key, and whence
        self.record: dict[str, list[dict]] = {}  # both editions' entries of _execution.json, by page
        self.records: dict[str, PageRecord] = {}  # the edition's pages
        self.entries: dict[str, str] = {}  # src_uri -> the key its new run is stored under
        self.run: BlockRun | None = None
        self.facts, self.start, self.ran_at = None, 0.0, None

    def write_record(self, site: Path, records: list[PageRecord]) -> None:
        """``_execution.json`` at the root of the site: one entry per block (check_blocks) of the editions
        built so far (the Russian edition's build, the last, writes the whole), in page order."""
        self.record.update({record.source: record.runs for record in records})
        site.mkdir(parents=True, exist_ok=True)
        runs = [run for source in sorted(self.record) for run in self.record[source]]
        (site / RECORD).write_text(json.dumps({"blocks": runs}, indent=1, ensure_ascii=False), encoding="utf-8")

    def on_config(self, config):
        if language() == "en":  # edition.py set it: the outer build, whose runs the Russian build reuses
            self.runs.clear()
            self.record.clear()
        self.facts, self.start = build_facts(), time.perf_counter()
        return config

    def on_files(self, files: Files, config) -> Files:
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
            stored = None if key in self.runs else cache.load("build", key)
            if key in self.runs:  # its twin's code, whose results this build has
                cached[file.src_uri] = (segments(blocks), *self.runs[key])
            elif stored is not None:
                cached[file.src_uri] = (segments(blocks), stored, "the cache")
                self.runs[key] = cached[file.src_uri][1:]
            else:
                pages[file.src_uri] = segments(blocks)
                entries[file.src_uri] = key
        # A page's verdicts are said as soon as they are known: the reused ones now, the others as
        # each page's last block ends (BlockRun), while the pages render.
        for src, (groups, stored, ran) in cached.items():
            blocks = [block for segment in groups for block in segment]
            check_blocks(records[src], list(zip(blocks, stored["results"], strict=True)), ran)
            records[src].blocks_ran_at = stored["ran_at"]
        self.run = BlockRun(pages, ended=lambda src, pairs: check_blocks(records[src], pairs))
        self.records, self.entries, self.ran_at = records, entries, now_utc()
        title = say("Execution report", ru="Отчёт о выполнении")
        files.append(File.generated(config, REPORT, content=f"# {title}\n", inclusion=InclusionLevel.NOT_IN_NAV))
        return files

    def on_page_content(self, html_text: str, page, config, files) -> str:
        record = self.records.get(page.file.src_uri)
        if record is not None:
            record.title, record.url = page.title, page.url
            record.tables = len(TABLE.findall(html_text))
            record.figures = len(FIGURE.findall(html_text))
            # render_cache.py: None for a render of this build, which it stores with now_utc() as it ends
            record.render_seconds, record.rendered_at = page.render_seconds, page.rendered_at or now_utc()
        return html_text

    def on_env(self, env, config, files):
        """Every page is rendered: wait for the blocks, then write each page's line and the report."""
        records = self.records
        for src, pairs in self.run.results().items():  # each judged as it ended (on_files' BlockRun)
            records[src].blocks_ran_at = self.ran_at
            key = self.entries[src]
            run = {"results": [result for _, result in pairs], "ran_at": self.ran_at}
            self.runs[key] = (run, "the twin")
            if not records[src].failed:  # a failed run is never kept: it runs again next time
                cache.save("build", key, run)
        self.write_record(Path(config.site_dir), list(records.values()))
        report = files.get_file_from_path(REPORT)
        for src, record in records.items():
            page = files.get_file_from_path(src).page
            page.content += line_html(record, self.facts, get_relative_url(report.url, page.url))
        body = report_markdown(list(records.values()), self.facts, report.url, time.perf_counter() - self.start)
        report.page.content += markdown_lib.markdown(body, extensions=config.markdown_extensions,
                                                     extension_configs=config.mdx_configs)
        return env
