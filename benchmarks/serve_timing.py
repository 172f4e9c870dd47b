"""How quickly ``make serve`` follows an edit: the live-preview timings of the README.

It copies this checkout (its tracked files and its ``.cache/``; ``node_modules`` linked) into
a temporary folder, runs ``mkdocs serve`` there on a free port with this environment's Python,
and prints:

1. the seconds from the command until the home page answers;
2. once the server is idle (first build done), after one sentence is added to lesson 1's prose:
   the seconds until the rebuild is done (when live reload makes the browser show it), the CPU
   seconds the server spent on it (the same on a busy machine, unlike the wall time), and which
   pages were rendered again (their cache entry changed);
3. after one comment line is added to ``mlp_ref/activations.py``, the seconds until the site is
   rebuilt, and which pages were rendered again: every page whose code imports ``mlp_ref``, labs
   included, because a render's key covers the modules of ``mlp_ref`` its code imports, followed
   through their own imports (mlp_site.render_cache) — no output of the old code survives;
4. after one comment line is added to a module of Lab B's code, the same: Lab B's page (no other
   page's code imports the module) and the pages with a "Before you start" box, whose text names
   the mlp_ref wheel by its SHA-256, which any edit of mlp_ref changes (the home page and the
   lessons with a coding exercise); no other.

The copy is edited, never the checkout. Timings depend on the machine and its load: this
prints them, it asserts nothing. Run: ``python benchmarks/serve_timing.py`` (``make serve-timing``).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSON = "docs/lessons/01-neuron-and-layer.md"
LAB_B_MODULE = "mlp_ref/labs/charlm/model.py"
SENTENCE = "A sentence added to time the live preview."
BUILT = "Documentation built in"


def copy_checkout(target: Path) -> None:
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    if (ROOT / ".cache").is_dir():
        shutil.copytree(ROOT / ".cache", target / ".cache", symlinks=True,
                        ignore=shutil.ignore_patterns("reader"))
    # The npm packages the build runs (Temml, installed by `npm ci`), untracked and never edited.
    if (ROOT / "node_modules").is_dir():
        (target / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode()
    except OSError:
        return None


def wait_for(condition, timeout: float = 900.0, step: float = 0.1) -> float:
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > timeout:
            raise TimeoutError(f"not done after {timeout:.0f} s")
        time.sleep(step)
    return time.perf_counter() - start


def entries(folder: Path) -> dict[str, str]:
    """{render entry: its page}: a page rendered again writes an entry under a new key (hooks/cache.py)."""
    return {path.name: json.loads(path.read_text(encoding="utf-8"))["src_uri"]
            for path in (folder / ".cache" / "build").glob("render-*.json")}


def cpu_seconds(pid: int) -> float:
    """CPU time of the server process and of its children it has waited for (the Temml and
    block-runner processes), from /proc: unlike wall time, hardly changed by other load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def wait_idle(pid: int, quiet: float = 1.0) -> None:
    """Until the server has used no CPU for ``quiet`` seconds (first build done, imports warmed)."""
    last, since = cpu_seconds(pid), time.perf_counter()
    while time.perf_counter() - since < quiet:
        time.sleep(0.2)
        now = cpu_seconds(pid)
        if now - last > 0.02:
            last, since = now, time.perf_counter()


def rerendered(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(page for name, page in after.items() if name not in before)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="serve-timing-") as tmp:
        folder = Path(tmp)
        copy_checkout(folder)
        port = free_port()
        log: list[str] = []
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        env.pop("MPLBACKEND", None)
        start = time.perf_counter()
        serve = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
                                 cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=lambda: log.extend(serve.stdout), daemon=True).start()
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for(lambda: fetch(f"{base}/") is not None or serve.poll() is not None)
            if serve.poll() is not None:
                print("".join(log))
                return 1
            print(f"first page answered: {time.perf_counter() - start:.1f} s after the command")

            wait_idle(serve.pid)
            builds, before, cpu = sum(BUILT in line for line in log), entries(folder), cpu_seconds(serve.pid)
            lesson = folder / LESSON
            edited = time.perf_counter()
            lesson.write_text(lesson.read_text(encoding="utf-8") + f"\n{SENTENCE}\n", encoding="utf-8")
            seconds = wait_for(lambda: SENTENCE in (fetch(f"{base}/lessons/01-neuron-and-layer/") or ""))
            wait_for(lambda: sum(BUILT in line for line in log) > builds, step=0.02)
            # Live reload tells the browser when the whole build is done: that is when it shows the edit.
            print(f"lesson 1 prose edited: the rebuild was done (the browser reloads) "
                  f"{time.perf_counter() - edited:.1f} s later (the page file itself {seconds:.1f} s); "
                  f"the server used {cpu_seconds(serve.pid) - cpu:.1f} s of CPU; "
                  f"rendered again: {', '.join(rerendered(before, entries(folder))) or 'none'}")

            def edit_code(name: str) -> tuple[float, list[str]]:
                """Add a comment line to ``name`` once the server is idle: (seconds to rebuild, pages rendered again)."""
                wait_idle(serve.pid)
                builds, before = sum(BUILT in line for line in log), entries(folder)
                code = folder / name
                code.write_text(code.read_text(encoding="utf-8") + "\n# a line added to time the live preview\n",
                                encoding="utf-8")
                seconds = wait_for(lambda: sum(BUILT in line for line in log) > builds)
                return seconds, rerendered(before, entries(folder))

            seconds, again = edit_code("mlp_ref/activations.py")
            print(f"mlp_ref edited: site rebuilt {seconds:.1f} s later; rendered again: {len(again)} pages "
                  f"({', '.join(again)})")
            # A module that only Lab B imports: Lab B's page, and the pages whose box names the new wheel.
            seconds, again = edit_code(LAB_B_MODULE)
            print(f"{LAB_B_MODULE} edited: site rebuilt {seconds:.1f} s later; rendered again: "
                  f"{', '.join(again) or 'none'}")
        finally:
            serve.terminate()
            serve.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
