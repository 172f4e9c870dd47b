"""``make audit``: Lighthouse performance and accessibility of every page of the built site.

Serves ``site/`` (``make site``) on 127.0.0.1 with gzip (:mod:`audit.gzip_server`), runs the
pinned Lighthouse of ``audit/node_modules`` (``npm ci`` in ``audit/``) against every page,
once as a phone (Lighthouse's default: simulated slow 4G and a 4x slower CPU) and once as a
desktop (``--preset=desktop``), with the system Chromium headless and the browser test's
flags, and prints a table of the scores. Exits 1 when a page misses a target in ``TARGETS``.

Lighthouse's performance score depends on this machine's speed and load (the CPU time it
measures is scaled, not replaced): run it on a quiet machine, and with ``--runs N`` (``make
audit AUDIT_RUNS=3``) each page is measured N times and the run with the median performance
score counts. ``--runs`` applies to the pages a reader spends the most time on, the home page,
the nine lessons and both labs of each edition (:func:`is_key_page`, 3 runs by default: ``make
audit``); every other page is measured once. The table starts with the load average it was
measured at, and says how many runs each row is the median of.
Run: ``python -m audit.lighthouse [SITE_FOLDER] [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from audit.chromium import LAUNCH_ARGS, chromium_path
from audit.gzip_server import serve

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility")
# (form factor, category) -> the lowest acceptable score, 0-100 (issue 14's targets).
TARGETS = {
    ("mobile", "performance"): 90,
    ("mobile", "accessibility"): 100,
    ("desktop", "performance"): 95,
    ("desktop", "accessibility"): 100,
}
METRICS = {"first-contentful-paint": "FCP", "largest-contentful-paint": "LCP",
           "total-blocking-time": "TBT", "total-byte-weight": "bytes"}


def pages(site: Path) -> list[str]:
    """Every page of the built site, as a path under its root ('' for the home page)."""
    found = [index.parent.relative_to(site).as_posix() for index in site.rglob("index.html")]
    return sorted("" if page == "." else page + "/" for page in found)


KEY_PAGE = re.compile(r"(ru/)?((lessons|labs)/[^/]+/)?")


def is_key_page(page: str) -> bool:
    """Whether ``page`` (a path under the site's root) is the home page, a lesson or a lab, in either edition."""
    return KEY_PAGE.fullmatch(page) is not None


def run_lighthouse(url: str, form_factor: str, chromium: str) -> dict:
    """Lighthouse's JSON report (the categories and audits) of one page for one form factor."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as folder:
        report = Path(folder) / "report.json"
        command = ["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
                   f"--only-categories={','.join(CATEGORIES)}",
                   "--chrome-flags=" + " ".join(["--headless=new", *LAUNCH_ARGS])]
        if form_factor == "desktop":
            command.append("--preset=desktop")
        result = subprocess.run(command, capture_output=True, text=True, timeout=600,
                                env=dict(os.environ, CHROME_PATH=chromium))
        if result.returncode != 0 or not report.is_file():
            raise RuntimeError(f"Lighthouse failed on {url} ({form_factor}), exit {result.returncode}:\n"
                               f"{result.stderr[-3000:]}")
        return json.loads(report.read_text(encoding="utf-8"))


def summarize(report: dict) -> dict:
    """Scores (0-100), the main metrics, and the accessibility audits that failed."""
    audits = report["audits"]
    scores = {name: round(100 * report["categories"][name]["score"]) for name in CATEGORIES}
    metrics = {short: audits[name]["numericValue"] for name, short in METRICS.items()}
    failed = sorted(ref["id"] for ref in report["categories"]["accessibility"]["auditRefs"]
                    if ref.get("weight") and audits[ref["id"]]["score"] is not None
                    and audits[ref["id"]]["score"] < 1)
    return {"scores": scores, "metrics": metrics, "failed": failed}


def median_run(summaries: list[dict]) -> dict:
    """The summary whose performance score is the median of ``summaries`` (the lower one of an even count)."""
    ranked = sorted(summaries, key=lambda summary: summary["scores"]["performance"])
    return ranked[(len(ranked) - 1) // 2]


def misses(page: str, form_factor: str, summary: dict) -> list[str]:
    """The targets this page misses in this form factor, as sentences."""
    return [f"{page or '(home)'} {form_factor}: {category} {summary['scores'][category]} < {lowest}"
            + (f" (failed: {', '.join(summary['failed'])})" if category == "accessibility" else "")
            for (factor, category), lowest in TARGETS.items()
            if factor == form_factor and summary["scores"][category] < lowest]


def row(page: str, runs: int, results: dict[str, dict]) -> str:
    mobile, desktop = results["mobile"], results["desktop"]
    m = mobile["metrics"]
    return (f"{page or '(home)':42} {runs:>4} {mobile['scores']['performance']:>6} {mobile['scores']['accessibility']:>6}"
            f" {desktop['scores']['performance']:>7} {desktop['scores']['accessibility']:>7}"
            f" {m['FCP'] / 1000:>7.1f} {m['LCP'] / 1000:>7.1f} {m['TBT'] / 1000:>7.2f} {m['bytes'] / 1024:>8.0f}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m audit.lighthouse", description=__doc__.split("\n")[0])
    parser.add_argument("site", nargs="?", default="site", help="the built site's folder (make site)")
    parser.add_argument("--runs", type=int, default=3,
                        help="Lighthouse runs of the home page, each lesson and each lab per form factor (the median"
                             " counts); every other page is run once")
    args = parser.parse_args(argv[1:])
    if args.runs < 1:
        parser.error(f"--runs must be a positive number of runs, got {args.runs}")
    site = Path(args.site).resolve()
    if not (site / "index.html").is_file():
        print(f"no built site in {site}: run 'make site' first", file=sys.stderr)
        return 2
    if not LIGHTHOUSE.is_file():
        print(f"Lighthouse is not installed at {LIGHTHOUSE}: run 'npm ci' in {HERE}", file=sys.stderr)
        return 2
    chromium = chromium_path()
    if chromium is None:
        print("no Chromium found (install Debian's chromium or set CHROMIUM_PATH)", file=sys.stderr)
        return 2
    httpd, base = serve(site)
    start = time.perf_counter()
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores;"
          f" median of {args.runs} run(s) per form factor for the home page, lessons and labs, 1 for the others")
    print(f"{'page':42} {'runs':>4} {'mobile':>6} {'a11y':>6} {'desktop':>7} {'a11y':>7}"
          f" {'FCP s':>7} {'LCP s':>7} {'TBT s':>7} {'KiB gz':>8}   (metrics: mobile)")
    failures: list[str] = []
    try:
        for page in pages(site):
            runs = args.runs if is_key_page(page) else 1
            results = {factor: median_run([summarize(run_lighthouse(f"{base}/{page}", factor, chromium))
                                           for _ in range(runs)])
                       for factor in ("mobile", "desktop")}
            print(row(page, runs, results), flush=True)
            failures += [miss for factor, summary in results.items() for miss in misses(page, factor, summary)]
    finally:
        httpd.shutdown()
    print(f"{len(pages(site))} pages audited in {time.perf_counter() - start:.0f} s"
          f" (load average at the end: {os.getloadavg()[0]:.2f}); targets: "
          + ", ".join(f"{factor} {category} >= {lowest}" for (factor, category), lowest in TARGETS.items()))
    for failure in failures:
        print("BELOW TARGET:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
