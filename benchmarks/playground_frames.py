"""The training playground's frame rate: does *Play* keep one step per frame at 60 frames a second?

It serves the built site (``make site`` first), opens lesson 5 in headless Chromium (Playwright,
``CHROMIUM_PATH`` or its own), sets the playground to a 2-8-8-1 tanh network on the two moons
(200 points), presses *Play* for ``SECONDS`` and records, in the page, the time of every
animation frame (``requestAnimationFrame``) and every long task (over 50 ms, the browser's
``longtask`` entries). It prints the frames and steps per second, the frame intervals (median,
95th percentile, largest) and how many intervals exceeded 1.5 frames at 60 Hz (a dropped frame),
with the machine's load average beside them, since the other processes on the machine share its
cores, and the same record of the same page while it is not playing: the peer that says how
many frames the machine's load alone drops. It also reads the main thread's CPU time (Chrome's
``ThreadTime``): per frame, the work a frame really costs, which the load does not stretch.
It also times 100 steps without drawing (the *10 steps* button, ten times), to say how
much of a frame's 16.7 ms the step itself takes. It asserts nothing: the numbers depend on the
machine and its load. Run: ``python benchmarks/playground_frames.py``.
"""

from __future__ import annotations

import functools
import http.server
import os
import statistics
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SECONDS = 5
SETTING = "?pg-data=moons&pg-widths=8,8&pg-act=tanh&pg-rate=0.3&pg-seed=1&pg-steps=0"

RECORD = """([seconds, playing]) => new Promise(resolve => {
    const frames = [], long = [];
    new PerformanceObserver(list => long.push(...list.getEntries().map(e => e.duration)))
        .observe({type: 'longtask', buffered: false});
    const widget = document.querySelector('.mlp-widget[data-widget="training-playground"]');
    const play = widget.querySelector('button[data-action="play"]');
    const before = widget.mlpState.steps;
    const tick = t => {
        frames.push(t);
        if (t - frames[0] < seconds * 1000) requestAnimationFrame(tick);
        else { if (playing) play.click(); resolve({frames, long, steps: widget.mlpState.steps - before}); }
    };
    if (playing) play.click();
    requestAnimationFrame(tick);
})"""

STEPS_ALONE = """() => {
    const widget = document.querySelector('.mlp-widget[data-widget="training-playground"]');
    widget.querySelector('button[data-action="reset"]').click();
    const ten = widget.querySelector('button[data-action="step10"]');
    const start = performance.now();
    for (let k = 0; k < 10; k += 1) ten.click();
    return (performance.now() - start) / 100;
}"""


def main() -> None:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(ROOT / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/lessons/05-learning-the-weights/{SETTING}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH") or None)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        page.locator('.mlp-widget[data-widget="training-playground"] canvas').scroll_into_view_if_needed()
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")

        def thread_time() -> float:
            """CPU seconds the page's main thread has used (Chrome's ThreadTime metric)."""
            return next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "ThreadTime")

        def durations() -> dict:
            return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]
                    if m["name"] in ("ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "TaskDuration")}

        load = os.getloadavg()
        start = thread_time()
        idle = page.evaluate(RECORD, [SECONDS, False])
        middle = thread_time()
        before = durations()
        result = page.evaluate(RECORD, [SECONDS, True])
        after = durations()
        result["split"] = {k: 1000 * (after[k] - before[k]) / max(1, len(result["frames"]) - 1) for k in after}
        idle["cpu"], result["cpu"] = middle - start, thread_time() - middle
        per_step = page.evaluate(STEPS_ALONE)
        browser.close()
    server.shutdown()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    for what, run in (("idle (the peer: the same page, not playing)", idle), ("playing", result)):
        frames = run["frames"]
        gaps = [b - a for a, b in zip(frames, frames[1:])]
        span = (frames[-1] - frames[0]) / 1000
        dropped = sum(gap > 1.5 * 1000 / 60 for gap in gaps)
        print(f"{what}: {len(gaps)} frames in {span:.2f} s, {len(gaps) / span:.1f} frames/s, "
              f"{run['steps'] / span:.1f} steps/s; frame interval median {statistics.median(gaps):.1f} ms, "
              f"95th percentile {sorted(gaps)[int(0.95 * len(gaps))]:.1f} ms, largest {max(gaps):.1f} ms; "
              f"{dropped} intervals above 25 ms (a dropped frame at 60 Hz); {len(run['long'])} long tasks (> 50 ms); "
              f"main-thread CPU {1000 * run['cpu'] / len(gaps):.2f} ms per frame")
    print("playing, per frame (ms, wall time of the main thread's tasks): "
          + ", ".join(f"{name} {value:.2f}" for name, value in result["split"].items()))
    print(f"one step without drawing: {per_step:.3f} ms")


if __name__ == "__main__":
    main()
