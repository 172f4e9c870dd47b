"""The three interactive widgets, driven in headless Chromium and held to ``mlp_ref``.

Each widget's page is loaded once and checked in two viewports (1280 px in the light scheme,
then 390 px in the dark scheme; tests/test_browser.py checks every page on an emulated phone). The test sets seeded random settings and the edge cases the issue lists,
some through the real controls (typing, the keyboard, clicks) and the rest by the controls'
own input events, reads the numbers off the page, and compares them with ``mlp_ref``
computed here: counts exactly, floats to 1e-12 relative (see :func:`close`), and every
displayed number character for character with the page's tables (``format_number``,
``format_count``, ``Trace``, ``LayerTable`` and ``Breakdown`` rendering).

Float tolerance: JavaScript and NumPy compute the same formulas in doubles, but the order of
a sum (BLAS may fuse a multiply-add), ``exp``/``tanh`` (V8's fdlibm against NumPy's own) and
``erf`` (our series and continued fraction against SciPy's Cephes) can differ by a few
ulps. So a value ``js`` matches ``py`` when ``|js - py| <= 1e-12 * max(|py|, scale)``: the
scale is 0 for a plain value (pure relative), the sum of the absolute terms for a
pre-activation (a sum that cancels is only known to that), and ``max(1, |z|)`` for an
activation at ``z`` (1 - s and 1 + erf cancel near saturation; their error is a few ulps of 1).
"""

from __future__ import annotations

import json
import math
import random
import re
import urllib.parse
from dataclasses import replace

import numpy as np
import pytest

import mlp_ref
from mlp_ref.course.counting_tables import breakdown_markdown, layer_table_markdown
from mlp_ref.course.generators import lesson05
from mlp_ref.course.tables import format_number
from mlp_ref.course.trace import format_value, trace
from mlp_ref.course.widgets import WIDGETS
from tests.page_blocks import STATS
from tests.browser_visits import PageVisit, page_url

RTOL = 1e-12
SEED = 15
LARGEST: dict[str, float] = {}   # widget -> largest |js - py| / max(|py|, scale) seen
RELATIVE: dict[str, float] = {}  # widget -> largest |js - py| / |py| seen (py != 0)

# The two viewports a widget is checked in, on one page load: the page is resized and its
# colour scheme switched between them (the page follows prefers-color-scheme as it changes, while no choice is stored).
VIEWPORTS = {"laptop": ({"width": 1280, "height": 900}, "light", "default"),
             "phone": ({"width": 390, "height": 844}, "dark", "slate")}


def close(widget: str, js: float, py: float, scale: float = 0.0) -> bool:
    """True when ``js`` is within RTOL of ``py`` (relative to ``max(|py|, scale)``); the ratio is kept."""
    bound = max(abs(py), scale)
    error = abs(js - py) / bound if bound > 0 else abs(js - py)
    LARGEST[widget] = max(LARGEST.get(widget, 0.0), error)
    if py != 0:
        RELATIVE[widget] = max(RELATIVE.get(widget, 0.0), abs(js - py) / abs(py))
    return error <= RTOL


@pytest.fixture(scope="module", autouse=True)
def largest_differences():
    """Print the largest differences seen (pytest -s shows them)."""
    yield
    for widget in sorted(LARGEST):
        print(f"\n{widget}: largest |js - py| / max(|py|, scale) {LARGEST[widget]:.2e}, "
              f"largest |js - py| / |py| {RELATIVE.get(widget, 0.0):.2e}")


def markdown_cells(table: str) -> list[list[str]]:
    """The body cells of a generated Markdown table, as the page shows them."""
    lines = table.splitlines()[2:]
    return [[cell.strip().replace("\\|", "|") for cell in line.strip().strip("|").split(" | ")] for line in lines]


@pytest.fixture(scope="module")
def widget_pages(server):
    return {"network-explorer": page_url(server, "lessons/03-forward-pass.md"),
            "activation-explorer": page_url(server, "lessons/04-activations-and-heads.md"),
            "parameter-counter": page_url(server, "lessons/06-counting-parameters.md"),
            "training-playground": page_url(server, "lessons/05-learning-the-weights.md"),
            "backward-stepper": page_url(server, "lessons/05-learning-the-weights.md")}


@pytest.fixture(scope="module")
def opened(browser, widget_pages):
    """Every widget page, all loading at once (one load each, overlapped)."""
    visits = {name: PageVisit(browser, url, background=True, viewport=VIEWPORTS["laptop"][0])
              for name, url in widget_pages.items()}
    yield visits
    for visit in visits.values():
        visit.close()


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request):
    return request.param


def start(opened, name: str, viewport: str):
    """(page, CSS selector of the widget, layout and label problems) of widget ``name`` in
    ``viewport``, once its script has drawn it (no wait for the network to go idle)."""
    page = opened[name].page
    # The page loads in the background (opened): wait for the widget before reading its body.
    page.wait_for_selector(f'.mlp-widget[data-widget="{name}"] .mlp-widget__title', timeout=30000)
    size, scheme, material = VIEWPORTS[viewport]
    page.bring_to_front()  # five pages load side by side (opened): the one under test is the reader's tab
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)
    wait_for_scheme(page, name, viewport, material)
    # Two frames after the resize, as a reader sees the page once it is laid out again: measured in the
    # frame of the resize, the page was once 1334 px wide in 1280 px (a full run under load, not alone).
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return page, f'.mlp-widget[data-widget="{name}"]', check_layout_and_labels(page, name, viewport)


SCHEME_STATE = """() => ({body: document.body.getAttribute('data-md-color-scheme'),
    html: document.documentElement.getAttribute('data-md-color-scheme'),
    dark: matchMedia('(prefers-color-scheme: dark)').matches, visibility: document.visibilityState,
    ready: document.readyState})"""


def wait_for_scheme(page, name: str, viewport: str, material: str):
    """Wait until the page shows the scheme ``material`` after the system's setting changed.

    The page follows the system's setting while the reader has made no choice
    (overrides/partials/mlp-scheme.html; tests/test_colour_scheme.py checks that itself).
    Chromium reports the change in the page's next animation frame, so the wait polls on a
    timer rather than on frames, and on a timeout says what the page showed instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"() => document.body.getAttribute('data-md-color-scheme') === '{material}'",
                               polling=100, timeout=20000)
    except PlaywrightTimeout:
        pytest.fail(f"{name} in the {viewport} viewport: expected data-md-color-scheme={material!r} on <body> "
                    f"within 20 s of the system's change; found {page.evaluate(SCHEME_STATE)}", pytrace=False)


# Set values through the controls' own events and read the widget back, in one round trip.
SET_AND_READ = """([root, settings, read]) => {
    const widget = document.querySelector(`.mlp-widget[data-widget="${root}"]`);
    const reader = new Function('widget', read);
    return settings.map(setting => {
        for (const [selector, value] of setting) {
            const control = widget.querySelector(selector);
            control.value = value;
            control.dispatchEvent(new Event(control.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));
        }
        return reader(widget);
    });
}"""


FIT = """(name) => {
    const widget = document.querySelector(`.mlp-widget[data-widget="${name}"]`);
    const controls = [...widget.querySelectorAll('input, select, button, canvas[tabindex]')];
    const unlabelled = controls.filter(c => !(c.labels && c.labels.length) && !c.getAttribute('aria-label')
                                       && !(c.tagName === 'BUTTON' && c.textContent.trim()));
    // Nothing juts out of its fieldset (what scrolls inside a table's scroll box aside): a border
    // the reader cannot see whole looks broken.
    const outside = [];
    for (const box of widget.querySelectorAll('fieldset')) {
        const b = box.getBoundingClientRect();
        for (const e of box.querySelectorAll('*')) {
            if (e.parentElement.closest('.md-typeset__scrollwrap')) continue;
            const r = e.getBoundingClientRect();
            if (r.width && (r.left < b.left - 0.5 || r.right > b.right + 0.5))
                outside.push(`${e.tagName.toLowerCase()}.${e.className} spans ${Math.round(r.left)}-${Math.round(r.right)} px in a fieldset of ${Math.round(b.left)}-${Math.round(b.right)} px`);
        }
    }
    // Every field shows its whole starting value.
    const clipped = [...widget.querySelectorAll('input[type=number], input[type=text]')]
        .filter(i => i.scrollWidth > i.clientWidth + 1)
        .map(i => `field ${i.id} shows ${i.clientWidth} px of its ${i.scrollWidth} px value ${i.value}`);
    return {unlabelled: unlabelled.map(c => c.outerHTML.slice(0, 80)), outside, clipped,
            live: widget.querySelectorAll('[aria-live], [role=alert], [role=status], output').length,
            page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
            widget: [widget.scrollWidth, widget.clientWidth],
            scheme: document.body.getAttribute('data-md-color-scheme')};
}"""


def fit_problems(found: dict) -> list[str]:
    """What :data:`FIT` found wrong: an unlabelled control, something wider than the screen or
    than its box, a field that cuts its value."""
    problems = [f"unlabelled control: {c}" for c in found["unlabelled"]] + found["outside"] + found["clipped"]
    for what in ("page", "widget"):
        if found[what][0] > found[what][1] + 1:
            problems.append(f"{what} is {found[what][0]} px wide in {found[what][1]} px")
    return problems


def check_layout_and_labels(page, name: str, viewport: str) -> list[str]:
    """Every control labelled, nothing wider than the screen or its box, the widget announces its values."""
    found = page.evaluate(FIT, name)
    problems = fit_problems(found)
    if not found["live"]:
        problems.append("nothing announces the widget's values")
    if found["scheme"] != VIEWPORTS[viewport][2]:
        problems.append(f"colour scheme {found['scheme']!r} in the {viewport} viewport")
    return problems


# --------------------------------------------------------------------------- network explorer

PARAMS = [("W1", 0, 0), ("W1", 0, 1), ("W1", 1, 0), ("W1", 1, 1), ("b1", 0, None), ("b1", 1, None),
          ("W2", 0, 0), ("W2", 1, 0), ("b2", 0, None)]


def _label(name, i, j):
    return f"{name}[{i + 1}]" if j is None else f"{name}[{i + 1},{j + 1}]"


def _values(net: mlp_ref.MLP) -> dict:
    """The nine parameters of a 2-2-1 network by the label of their control."""
    arrays = {"W1": net.weights[0], "b1": net.biases[0], "W2": net.weights[1], "b2": net.biases[1]}
    return {_label(name, i, j): float(arrays[name][i] if j is None else arrays[name][i, j]) for name, i, j in PARAMS}


def _net(values: dict, output: str) -> mlp_ref.MLP:
    W1 = np.array([[values["W1[1,1]"], values["W1[1,2]"]], [values["W1[2,1]"], values["W1[2,2]"]]])
    W2 = np.array([[values["W2[1,1]"]], [values["W2[2,1]"]]])
    return mlp_ref.MLP.from_arrays([W1, W2], [np.array([values["b1[1]"], values["b1[2]"]]), np.array([values["b2[1]"]])],
                                   activation="relu", output=output)


def network_settings(rng: random.Random, fixture: mlp_ref.MLP, n: int) -> list[tuple[dict, str]]:
    """(values by control, output head): n random ones, then the edge cases."""
    def draw():
        value = rng.uniform(-3, 3)
        return round(value, 2) if rng.random() < 0.5 else value  # slider steps and arbitrary doubles

    settings = []
    for _ in range(n):
        values = {_label(*p): draw() for p in PARAMS}
        values.update({"x1": rng.uniform(-2, 3), "x2": rng.uniform(-2, 3)})
        settings.append((values, rng.choice(["sigmoid", "identity"])))
    base = _values(fixture)
    kink = {**base, "W1[1,1]": 0.5, "W1[2,1]": 0.25, "b1[1]": -1.0, "W2[1,1]": 1.0, "x1": 1.0, "x2": 2.0}  # z1[1] = 0 exactly
    tie = {**base, "W1[1,1]": 0.0, "W1[2,1]": 0.0, "b1[1]": 0.03125, "W2[1,1]": 1.0, "x1": 1.0, "x2": 2.0}  # 0.03125: a tie at 4 decimals
    settings += [(kink, "sigmoid"), (tie, "identity")]
    settings += [({**base, "b2[1]": b2, "x1": 1.0, "x2": 2.0}, "sigmoid") for b2 in (40.0, -40.0)]  # saturated sigmoid
    return settings


READ_TRACE = """
    const rows = [...widget.querySelectorAll('table tbody tr')].map(tr => [...tr.cells].map(td => td.textContent));
    const values = [...widget.querySelectorAll('td[data-values]')].map(td => JSON.parse(td.dataset.values).map(Number));
    widget.readings = (widget.readings || 0) + 1;
    // the map's values for one setting in GRID_EVERY (they are many; the trace is read for each)
    const grid = widget.readings % GRID_EVERY === 1 ? widget.mlpGrid : null;
    return {rows, values, grid, live: widget.querySelector('output').textContent};
""".replace("GRID_EVERY", "5")


def check_network(reading: dict, values: dict, output: str) -> list[str]:
    net = _net(values, output)
    x = np.array([[values["x1"], values["x2"]]])
    steps = trace(net, x)
    problems = []
    expected_rows = [[s.name, s.expression, str(s.shape), format_value(s.value, 4)[0]] for s in steps]
    if reading["rows"] != expected_rows:
        problems.append(f"trace {reading['rows']} != {expected_rows}")
    # scales: the sum of absolute terms of each pre-activation (the activations inherit it)
    W1, b1, W2, b2 = net.weights[0], net.biases[0], net.weights[1], net.biases[1]
    s1 = np.abs(x[0]) @ np.abs(W1) + np.abs(b1)
    a1 = steps["a1"].value[0]
    s2 = np.abs(a1) @ np.abs(W2) + np.abs(b2) + np.abs(W2).sum() * RTOL * s1.max()
    scales = [np.zeros(2), s1, s1, s2, s2]
    for step, got, scale in zip(steps, reading["values"], scales):
        for js, py, sc in zip(got, step.value[0], scale):
            if not close("network-explorer", js, float(py), float(sc)):
                problems.append(f"{step.name}: {js!r} != {float(py)!r} for {values} {output}")
    if reading["grid"] is None:
        return problems
    coords = np.array(reading["grid"]["coords"])
    if not np.allclose(coords, np.linspace(coords[0], coords[-1], len(coords)), rtol=0, atol=1e-12):
        problems.append("heat-map coordinates are not an even grid")
    X1, X2 = np.meshgrid(coords, coords)                       # row r: x2 = coords[r]
    grid_x = np.stack([X1.ravel(), X2.ravel()], axis=1)        # (n², 2)
    expected = net.forward(grid_x)[:, 0]
    _, cache = net.forward(grid_x, keep_cache=True)
    z_scale = (np.abs(cache.activations[1]) @ np.abs(W2) + np.abs(b2))[:, 0] + 1.0
    for js, py, sc in zip(reading["grid"]["values"], expected, z_scale):
        if not close("network-explorer", js, float(py), float(sc)):
            problems.append(f"heat map: {js!r} != {float(py)!r}")
            break
    return problems


def test_network_explorer(opened, viewport):
    page, root, problems = start(opened, "network-explorer", viewport)
    # it starts at the page's network and input (SYLLABUS's 2-2-1 fixture), with the page's trace
    fixture = mlp_ref.MLP.from_arrays([np.array([[0.1, 0.2], [0.3, 0.4]]), np.array([[0.5], [0.6]])],
                                    [np.array([0.1, 0.1]), np.array([0.2])], activation="relu", output="sigmoid")
    if viewport != "laptop":  # the laptop's run comes first and leaves lesson 2's weights in
        page.get_by_role("button", name="Reset to this lesson's network and input").click()
    reading = page.evaluate(SET_AND_READ, ["network-explorer", [[]], READ_TRACE])[0]
    problems += check_network(reading, {**_values(fixture), "x1": 1.0, "x2": 2.0}, "sigmoid")

    rng = random.Random(SEED)
    settings = network_settings(rng, fixture, 50 if viewport == "laptop" else 10)
    # one through the real controls (typing into three fields, picking the head), the rest by their events
    typed = 1 if viewport == "laptop" else 0
    for values, output in settings[:typed]:
        by_events = dict(values)
        for label in ("W1[1,1]", "b2[1]", "x1"):
            page.locator(f'{root} input[data-param="{label}"]').fill(repr(by_events.pop(label)))
        page.locator(f'{root} select[data-param="output"]').select_option(output)
        events = [[f'input[data-param="{k}"]', repr(v)] for k, v in by_events.items()]
        reading = page.evaluate(SET_AND_READ, ["network-explorer", [events], READ_TRACE])[0]
        problems += check_network(reading, values, output)
    # the rest through the controls' input events, in one round trip
    batch = [[[f'input[data-param="{k}"]', repr(v)] for k, v in values.items()] + [['select[data-param="output"]', output]]
             for values, output in settings[typed:]]
    for (values, output), reading in zip(settings[typed:], page.evaluate(SET_AND_READ, ["network-explorer", batch, READ_TRACE])):
        problems += check_network(reading, values, output)

    # the keyboard alone: arrow keys on the map move the point by 0.1, the XOR button loads lesson 2
    page.locator(f'{root} input[data-param="x1"]').fill("0")
    page.locator(f'{root} input[data-param="x2"]').fill("0")
    page.locator(f"{root} canvas").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    button = page.get_by_role("button", name="Show XOR solution (lesson 2)")
    button.focus()
    page.keyboard.press("Enter")
    reading = page.evaluate(SET_AND_READ, ["network-explorer", [[]], READ_TRACE])[0]
    xor = mlp_ref.xor_by_hand()
    values = _values(xor)
    x_after = [float(v) for v in reading["values"][0]]
    assert x_after == pytest.approx([0.1, 0.2], abs=1e-12)
    problems += check_network(reading, {**values, "x1": x_after[0], "x2": x_after[1]}, xor.output)
    assert "XOR" in reading["live"] and "ŷ =" in reading["live"]
    # the corners under lesson 2's weights: XOR exactly
    corners = [[['input[data-param="x1"]', str(a)], ['input[data-param="x2"]', str(b)]] for a, b in mlp_ref.XOR_X]
    outputs = [r["values"][4][0] for r in page.evaluate(SET_AND_READ, ["network-explorer", corners, READ_TRACE])]
    assert outputs == mlp_ref.XOR_Y.tolist()
    problems += opened["network-explorer"].problems  # console errors, failed or foreign requests
    assert problems == [], "\n".join(problems[:20])
    STATS["widget settings compared"] += len(settings) + 2 + len(corners)


# --------------------------------------------------------------------------- activation explorer

def activation_expected(name: str, z: float, entries: list[dict]) -> list[tuple[str, float, float]]:
    """(row name, f(z), f'(z)) as mlp_ref computes them, for the rows the widget shows."""
    def pair(entry_name):
        if entry_name == "prelu":
            slope = next(e["slope"] for e in entries if e["name"] == "prelu")
            return (lambda v: mlp_ref.prelu(v, slope)), (lambda v: mlp_ref.prelu_grad(v, slope))
        return mlp_ref.get_activation(entry_name)

    def at(entry_name):
        f, d = pair(entry_name)
        return float(f(np.array([z]))[0]), float(d(np.array([z]))[0])

    if name in ("gelu", "gelu_tanh"):
        exact_form, tanh_form = at("gelu"), at("gelu_tanh")
        return [("gelu", *exact_form), ("gelu_tanh", *tanh_form),
                ("gelu-difference", exact_form[0] - tanh_form[0], exact_form[1] - tanh_form[1])]
    return [(name, *at(name))]


READ_ACTIVATION = """
    return [...widget.querySelectorAll('tbody tr')].map(tr => [tr.dataset.name,
        ...[...tr.cells].slice(1).map(td => [Number(td.dataset.value), td.textContent])]);
"""


def check_activation(rows, name: str, z: float, entries) -> list[str]:
    problems = []
    expected = activation_expected(name, z, entries)
    if [r[0] for r in rows] != [e[0] for e in expected]:
        return [f"rows {[r[0] for r in rows]} for {name}"]
    for (row, *cells), (_, *values) in zip(rows, expected):
        for (js, text), py in zip(cells, values):
            scale = max(1.0, abs(z)) * (4 if row == "gelu-difference" else 1)
            if not close("activation-explorer", js, py, scale):
                problems.append(f"{row}({z!r}): {js!r} != {py!r}")
            if text != format_number(py, 4):
                problems.append(f"{row}({z!r}) shown {text!r}, the page's table writes {format_number(py, 4)!r}")
    return problems


def test_activation_explorer(opened, viewport):
    page, root, problems = start(opened, "activation-explorer", viewport)
    entries = page.evaluate(f"() => JSON.parse(document.querySelector('{root}').dataset.config)")["activations"]
    names = [e["name"] for e in entries]
    assert names[:3] == ["sigmoid", "tanh", "relu"] and "prelu" in names and "gelu_tanh" in names

    rng = random.Random(SEED)
    n = 60 if viewport == "laptop" else 10
    settings = [(rng.randrange(len(names)), rng.choice([rng.uniform(-6, 6), round(rng.uniform(-6, 6), 2)]))
                for _ in range(n)]
    index = {name: k for k, name in enumerate(names)}
    settings += [(index["relu"], 0.0), (index["relu"], -0.0), (index["prelu"], 0.0),
                 (index["sigmoid"], 40.0), (index["sigmoid"], -40.0), (index["tanh"], 40.0),
                 (index["gelu"], 40.0), (index["gelu"], -40.0), (index["gelu"], -8.0), (index["gelu_tanh"], -3.0),
                 (index["silu"], -40.0), (index["silu"], 1e-300)]
    # through the real controls: the select, typing, and the slider's arrow keys
    select, field = page.locator(f"{root} select"), page.locator(f'{root} input[data-param="z"]')
    for k, z in settings[:1]:
        select.select_option(str(k))
        field.fill(repr(z))
        rows = page.evaluate(SET_AND_READ, ["activation-explorer", [[]], READ_ACTIVATION])[0]
        problems += check_activation(rows, names[k], z, entries)
    select.select_option(str(index["relu"]))
    field.fill("0.05")
    page.locator(f'{root} input[type="range"]').focus()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")            # five slider steps of 0.01: z lands on the kink
    z_now = float(field.input_value())
    rows = page.evaluate(SET_AND_READ, ["activation-explorer", [[]], READ_ACTIVATION])[0]
    problems += check_activation(rows, "relu", z_now, entries)
    batch = [[["select", str(k)], ['input[data-param="z"]', repr(z)]] for k, z in settings[1:]]
    for (k, z), rows in zip(settings[1:], page.evaluate(SET_AND_READ, ["activation-explorer", batch, READ_ACTIVATION])):
        problems += check_activation(rows, names[k], z, entries)
    live = page.locator(f"{root} output").text_content()
    assert "f′(z) =" in live
    problems += opened["activation-explorer"].problems  # console errors, failed or foreign requests
    assert problems == [], "\n".join(problems[:20])
    STATS["widget settings compared"] += len(settings) + 1


# --------------------------------------------------------------------------- parameter counter

READ_COUNTER = """
    const [mlp, tf] = widget.querySelectorAll('fieldset');
    const cells = box => [...box.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td => td.textContent));
    const error = box => [...box.querySelectorAll('.mlp-widget__error')].map(e => e.textContent).join('');
    return {mlp: cells(mlp), mlpError: error(mlp), tf: cells(tf), tfError: error(tf),
            invalid: [...widget.querySelectorAll('[aria-invalid=true]')].length};
"""

BAD_WIDTHS = ["784, 0, 10", "784, -5, 10", "784, abc, 10", "784 512, 10", "784,, 10", "", "784", "784, 1.5, 10"]


def python_rejects(text: str) -> bool:
    """Whether mlp_ref refuses the widths ``text`` says (a token that is no integer is refused too)."""
    try:
        mlp_ref.count_params([int(token) for token in text.split(",")])
    except (TypeError, ValueError):
        return True
    return False


def check_mlp(reading, text: str) -> list[str]:
    if python_rejects(text):
        if reading["mlp"] or not reading["mlpError"] or not reading["invalid"]:
            return [f"{text!r}: mlp_ref refuses it, the widget shows {reading['mlp']} / {reading['mlpError']!r}"]
        return []
    sizes = [int(token) for token in text.split(",")]
    expected = markdown_cells(layer_table_markdown(sizes))
    return [] if reading["mlp"] == expected and not reading["mlpError"] else [f"{text!r}: {reading['mlp']} != {expected}"]


def transformer_settings(rng: random.Random, n: int) -> list[tuple[int, dict]]:
    """(index in CONFIGS, changed fields): sizes near the published ones, some of them invalid."""
    settings = []
    for _ in range(n):
        k = rng.randrange(len(mlp_ref.CONFIGS))
        config = mlp_ref.CONFIGS[k]
        changes = {}
        for name in rng.sample(config.editable, rng.randint(1, len(config.editable))):
            base = getattr(config, name)
            changes[name] = max(1, int(base * rng.choice([0.5, 1, 2, 3]) + rng.choice([0, 0, 0, 1, -1])))
        settings.append((k, changes))
    settings += [(3, {"top_k": 300}), (3, {"layers": 2}), (0, {"n_heads": 7}), (2, {"n_kv_heads": 3}),
                 (1, {"d_model": 10**7, "vocab": 10**6}), (3, {"d_model": 10**6, "n_experts": 10**4})]
    return settings


def check_transformer(reading, k: int, changes: dict) -> list[str]:
    try:
        expected = markdown_cells(breakdown_markdown(mlp_ref.breakdown(replace(mlp_ref.CONFIGS[k], **changes))))
    except ValueError:
        if reading["tf"] or not reading["tfError"]:
            return [f"{k} {changes}: mlp_ref refuses it, the widget shows {reading['tf']}"]
        return []
    return [] if reading["tf"] == expected else [f"{k} {changes}: {reading['tf']} != {expected}"]


def test_parameter_counter(opened, viewport):
    page, root, problems = start(opened, "parameter-counter", viewport)
    rng = random.Random(SEED)
    n = 50 if viewport == "laptop" else 8
    widths = [", ".join(str(rng.randint(1, 5000)) for _ in range(rng.randint(2, 6))) for _ in range(n)]
    widths += ["784, 128, 64, 10", f"{10**12}, {10**12}, 10", f"1, {2**53 + 1}, 1"] + BAD_WIDTHS
    field = page.locator(f"{root} input[type=text]")
    for text in ("784, 0, 10", "784 512, 10", widths[0]):  # typed, key by key
        field.fill("")
        field.press_sequentially(text)
        problems += check_mlp(page.evaluate(SET_AND_READ, ["parameter-counter", [[]], READ_COUNTER])[0], text)
    batch = [[["input[type=text]", text]] for text in widths]
    for text, reading in zip(widths, page.evaluate(SET_AND_READ, ["parameter-counter", batch, READ_COUNTER])):
        problems += check_mlp(reading, text)
    field.fill("784, 128, 64, 10")

    settings = transformer_settings(rng, 50 if viewport == "laptop" else 8)
    model = page.locator(f"{root} select")
    for k, changes in settings[:1]:  # through the controls: pick the model, type the sizes
        model.select_option(str(k))
        for name, value in changes.items():
            page.locator(f'{root} input[data-field="{name}"]').fill(str(value))
        problems += check_transformer(page.evaluate(SET_AND_READ, ["parameter-counter", [[]], READ_COUNTER])[0], k, changes)
    # the rest by events: choosing the model rebuilds its fields at their published values
    batch = [[["select", str(k)]] + [[f'input[data-field="{name}"]', str(v)] for name, v in changes.items()]
             for k, changes in settings[1:]]
    for (k, changes), reading in zip(settings[1:], page.evaluate(SET_AND_READ, ["parameter-counter", batch, READ_COUNTER])):
        problems += check_transformer(reading, k, changes)
    # every published model at its own sizes: the page's tables, row for row
    for k, reading in enumerate(page.evaluate(SET_AND_READ, ["parameter-counter",
                                                             [[["select", str(k)]] for k in range(len(mlp_ref.CONFIGS))],
                                                             READ_COUNTER])):
        problems += check_transformer(reading, k, {})
    problems += opened["parameter-counter"].problems  # console errors, failed or foreign requests
    assert problems == [], "\n".join(problems[:20])
    STATS["widget settings compared"] += len(widths) + len(settings) + len(mlp_ref.CONFIGS)


# Every cell of the counter's tables that the reader cannot see whole without scrolling: a cell that
# sticks out of the visible part of its scroll box (the outermost one, for a table Material wrapped
# again on load).
COUNTER_CUT = """(root) => {
    const cut = [];
    for (const table of document.querySelectorAll(root + ' table')) {
        const boxes = [];
        for (let e = table.parentElement; e && !e.matches(root); e = e.parentElement)
            if (e.classList.contains('md-typeset__scrollwrap')) boxes.push(e.getBoundingClientRect());
        const box = boxes.at(-1) || table.parentElement.getBoundingClientRect();
        for (const cell of table.querySelectorAll('th, td')) {
            const r = cell.getBoundingClientRect();
            if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
                cut.push(`"${cell.textContent}" spans ${Math.round(r.left)}-${Math.round(r.right)} px in a box of ${Math.round(box.left)}-${Math.round(box.right)} px`);
        }
    }
    return cut;
}"""


def counter_on_a_phone(browser, url: str) -> list[str]:
    """The counter's cells that a reader at 390 px cannot see whole, on the page at ``url``: as the
    page is first drawn, and once widths are typed (the widget draws its tables again)."""
    visit = PageVisit(browser, url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page, root = visit.page, '.mlp-widget[data-widget="parameter-counter"]'
        page.wait_for_selector(f"{root} table", timeout=30000)
        problems = [f"{url} as first drawn: {cut}" for cut in page.evaluate(COUNTER_CUT, root)]
        page.locator(f"{root} input[type=text]").fill("784, 128, 64, 10")
        problems += [f"{url} after typing 784, 128, 64, 10: {cut}" for cut in page.evaluate(COUNTER_CUT, root)]
        headers = page.evaluate(f"() => [...document.querySelectorAll('{root} table')[0].querySelectorAll('th')]"
                                ".map(th => th.textContent)")
        if len(headers) != 5:
            problems.append(f"{url}: expected the per-layer table's 5 columns, found {headers}")
        return problems + visit.problems
    finally:
        visit.close()


def test_the_parameter_counter_shows_every_column_on_a_phone(browser, widget_pages):
    """Issue 36: at 390 px the counter's per-layer table shows its "biases" and "total" columns, and
    the transformer's table its share, whole and without scrolling."""
    problems = counter_on_a_phone(browser, widget_pages["parameter-counter"])
    assert problems == [], "lesson 6's counter at 390 px:\n" + "\n".join(problems)


def test_widget_scripts_are_small_and_local(built_site, widget_pages):
    """Each widget page loads only its own scripts from the site, under 30 KB of JavaScript (the
    training playground, which trains and draws a network, under the 40 KB its issue allows)."""
    folder = built_site / "javascripts" / "widgets"
    sizes = {}
    for name, url in widget_pages.items():
        page = (built_site / url.split("/", 3)[-1] / "index.html").read_text(encoding="utf-8")
        scripts = re.findall(r'<script type="module" src="([^"]+)"', page)
        on_page = [other for other, other_url in widget_pages.items() if other_url == url]  # lesson 5 has two
        assert sorted(scripts) == sorted(f"../../javascripts/widgets/{WIDGETS[w].script}" for w in on_page), scripts
        own = folder / WIDGETS[name].script
        imported = set(re.findall(r"from '\./([\w.-]+)'", own.read_text(encoding="utf-8")))
        for module in list(imported):
            imported |= set(re.findall(r"from '\./([\w.-]+)'", (folder / module).read_text(encoding="utf-8")))
        sizes[name] = own.stat().st_size + sum((folder / m).stat().st_size for m in imported)
        assert sizes[name] <= (40 if name == "training-playground" else 30) * 1024, sizes
    print("widget JavaScript bytes:", sizes)
    # no other page loads a widget
    # (a script tag, not the text: the API reference's page of mlp_ref.course.widgets names the folder)
    loads = re.compile(r'<script\b[^>]*\bsrc="[^"]*javascripts/widgets/')
    others = [p for p in built_site.rglob("index.html") if loads.search(p.read_text(encoding="utf-8"))]
    assert len(others) == 2 * len(set(widget_pages.values())), others  # each widget page and its Russian twin


# --------------------------------------------------------------------------- training playground
#
# Tolerance: the widget (docs/javascripts/widgets/training.js) and mlp_ref compute the same float64
# formulas, but not the same operations: NumPy's a @ W goes through BLAS (its own order of the
# additions, fused multiply-adds), its exp, tanh and log1p are its own SIMD code against V8's
# fdlibm, and its sum is pairwise. Each step therefore differs by a few ulps of the terms it adds,
# and gradient descent carries the difference into the next step. Measured on this machine (node's
# V8 against NumPy with OpenBLAS, 800 random settings, rates 0.03 to 0.3): the largest difference
# of a layer's parameters, over the largest parameter of that layer, was 4e-16 after 1 step, 2e-15
# after 10 and 3e-15 after 100; the loss agreed to 6e-15 relative. PLAYGROUND_RTOL = 1e-9 leaves six
# orders of magnitude for other CPUs and libraries, yet a wrong formula (a missing 1 / B, a
# derivative off by a factor) misses it by many. The scale is the layer's largest parameter, not
# each entry, because rounding errors are relative to the terms of a sum, not to its result (a
# bias whose gradient cancels to 0 in one and to 1e-18 in the other is not a disagreement).
# At rates of 1 and above the same measurement grew to 2e-5 (rate 1) and 0.17 (rate 3) after 100
# steps, in a few tanh runs on the circles: at such rates gradient descent itself amplifies a
# difference of one ulp by about 1.4 per step (the edge of stability), which no two float
# implementations escape. Those rates are compared after 1 and 10 steps only (measured there: 4e-15).
PLAYGROUND_RTOL = 1e-9
COMPARED_STEPS = (1, 10, 100)
STABLE_RATE = 0.3        # the largest rate whose runs are compared after 100 steps too
PLAYGROUND_RATES = (0.03, 0.1, 0.3, 1.0, 3.0)

# Drive the playground through its controls (their own change and input events, and clicks on
# its buttons) and read the exact numbers behind what it shows, in one round trip per batch. After
# 10 and 100 steps it waits for the map to be drawn (the next animation frame) and reads the ŷ it
# coloured in each cell as well.
PLAYGROUND_RUN = """async ([settings]) => {
    const widget = document.querySelector('.mlp-widget[data-widget="training-playground"]');
    const set = (param, value) => {
        const c = widget.querySelector(`[data-param="${param}"]`);
        c.value = value;
        c.dispatchEvent(new Event(c.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));
    };
    const click = (action) => widget.querySelector(`button[data-action="${action}"]`).click();
    const drawn = () => new Promise(done => requestAnimationFrame(() => done()));  // after the widget's own frame
    const read = async (map = false) => {
        if (map) await drawn();
        const s = widget.mlpState;
        return {steps: s.steps, W: s.W, b: s.b, loss: s.loss, correct: s.correct, n: s.n, diverged: s.diverged,
                status: widget.querySelector('output').textContent,
                error: widget.querySelector('.mlp-widget__error').textContent,
                text: widget.innerText, url: location.search, map: map ? s.map : null};
    };
    const out = [];
    for (const s of settings) {
        set('data', s.data);
        set('depth', String(s.widths.length));
        s.widths.forEach((w, k) => set(`width${k + 1}`, String(w)));
        set('activation', s.activation);
        set('rate', String(s.rate));
        set('seed', String(s.seed));
        const run = {0: await read()};
        click('step');
        run[1] = await read();
        click('reset');
        click('step10');
        run[10] = await read(true);
        for (let k = 0; k < 9; k += 1) click('step10');
        run[100] = await read(true);
        out.push(run);
    }
    return out;
}"""


def playground_settings(rng: random.Random, n: int) -> list[dict]:
    """n settings: every data set with both depths and all three activations (in turn, then at
    random), the rates in turn, random widths and seeds."""
    from mlp_ref.course.playground import ACTIVATIONS, datasets

    combos = [(data, depth, act) for data in datasets() for depth in (1, 2) for act in ACTIVATIONS]
    settings = []
    for k in range(n):
        data, depth, act = combos[k] if k < len(combos) else rng.choice(combos)
        settings.append({"data": data, "widths": [rng.randint(1, 8) for _ in range(depth)], "activation": act,
                         "rate": PLAYGROUND_RATES[k % len(PLAYGROUND_RATES)], "seed": rng.randrange(2**32)})
    return settings


def playground_reference(setting: dict, extra=()) -> dict:
    """mlp_ref's run of a setting: step -> (network, loss, number of correct points, borderline
    points), for steps 0 to 100 while they stay finite; ``"diverged"``: the step that would not.

    Each step is the body of fit's loop: forward, loss_and_delta, backward, sgd_step (which refuses
    a gradient that is not finite); a step whose new loss or weights are not finite is not taken.
    ``extra``: points (x1, x2, class) added to the data set."""
    from mlp_ref.course.playground import datasets, initial_network

    X, y = datasets()[setting["data"]]
    if extra:
        X = np.vstack([X, [[a, b] for a, b, _ in extra]])
        y = np.concatenate([y, [float(c) for _, _, c in extra]])
    target = y.reshape(-1, 1)

    def measure(model):
        out, cache = model.forward(X, keep_cache=True)
        loss, delta = model.loss_and_delta(cache.pre_activations[-1], target)
        correct = int(np.count_nonzero(model.predict_from_output(out) == (y > 0.5)))
        borderline = int(np.count_nonzero(np.abs(out[:, 0] - 0.5) < 1e-9))
        return cache, loss, delta, correct, borderline

    net = initial_network(setting["widths"], setting["activation"], setting["seed"])
    cache, loss, delta, correct, borderline = measure(net)
    runs = {0: (net, loss, correct, borderline), "diverged": None}
    with np.errstate(all="ignore"):  # a diverging run overflows on purpose
        for k in range(1, max(COMPARED_STEPS) + 1):
            grads = net.backward(cache, delta)
            stepped = net.copy()
            try:
                mlp_ref.sgd_step(stepped, grads, setting["rate"])
            except FloatingPointError:
                runs["diverged"] = k
                break
            cache, loss, delta, correct, borderline = measure(stepped)
            if not (math.isfinite(loss) and all(np.isfinite(p).all() for p in stepped.weights + stepped.biases)):
                runs["diverged"] = k
                break
            net = stepped
            runs[k] = (net, loss, correct, borderline)
    return runs


def check_playground(reading: dict, runs: dict, k: int, where: str) -> list[str]:
    """The widget's state after ``k`` presses' worth of steps against mlp_ref's run."""
    steps = k if runs["diverged"] is None or k < runs["diverged"] else runs["diverged"] - 1
    if reading["steps"] != steps:
        return [f"{where}: {reading['steps']} steps taken, mlp_ref took {steps} (diverged at {runs['diverged']})"]
    net, loss, correct, borderline = runs[steps]
    problems = []
    for l, (W, b) in enumerate(zip(net.weights, net.biases)):
        js_W, js_b = np.array(reading["W"][l], dtype=float), np.array(reading["b"][l], dtype=float)
        scale = max(np.abs(W).max(), np.abs(b).max())
        error = max(np.abs(js_W - W).max(), np.abs(js_b - b).max()) / scale
        LARGEST["training-playground"] = max(LARGEST.get("training-playground", 0.0), error)
        if not error <= PLAYGROUND_RTOL:
            problems.append(f"{where}: layer {l + 1} differs by {error:.2e} of its largest parameter")
    if not close("training-playground", reading["loss"], loss) and abs(reading["loss"] - loss) > PLAYGROUND_RTOL * abs(loss):
        problems.append(f"{where}: loss {reading['loss']!r} != {loss!r}")
    if abs(reading["correct"] - correct) > borderline:
        problems.append(f"{where}: {reading['correct']} points right, mlp_ref {correct}")
    if f"{steps}:" not in reading["status"] or format_number(loss, 4) not in reading["status"]:
        problems.append(f"{where}: the status {reading['status']!r} does not say step {steps} and the loss "
                        f"{format_number(loss, 4)}")
    if re.search(r"\bnan\b|\bNaN\b|Infinity|\binf\b", reading["text"]):
        problems.append(f"{where}: the widget shows a number that is not finite: {reading['text'][:200]!r}")
    if reading.get("map"):
        problems += check_map(reading["map"], net, where)
    return problems


# The heat map against mlp_ref: each cell's ŷ, as the widget coloured it, against mlp_ref's forward
# pass of the same step's network at the cell's centre (computed here from the plotted square: cell
# (r, c) of an n x n grid, row 0 at the top). ŷ is a sigmoid in (0, 1), so the difference is absolute;
# with the parameters within PLAYGROUND_RTOL of their layer's largest, ŷ is within about that (measured
# here: see LARGEST["heat map"]). A map without the output layer's bias, or one drawn from the
# network before the last step, misses it by far more.
MAP_ATOL = 1e-9


# How many of the map's cells (a 40 x 40 grid) have, at their centre on the canvas, a colour more than
# one level (of 255) off ui.js's colour of the ŷ given for that cell.
MAP_PIXELS = """async ([root, values]) => {
    await new Promise(done => requestAnimationFrame(() => done()));
    const { colour } = await import(new URL('../../javascripts/widgets/ui.js', location.href));
    const canvas = document.querySelector(root + ' canvas');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const n = 40, size = canvas.width / n;
    let off = 0;
    values.forEach((v, k) => {
        const [x, y] = [Math.floor((k % n + 0.5) * size), Math.floor((Math.floor(k / n) + 0.5) * size)];
        const at = 4 * (y * canvas.width + x);
        if (colour(v).some((c, i) => Math.abs(c - pixels[at + i]) > 1)) off += 1;
    });
    return off;
}"""


def map_grid(n: int, low: float, high: float) -> np.ndarray:
    """The centres of an n x n grid of cells over [low, high]², row by row from the top: (n * n, 2)."""
    centres = low + (high - low) * (np.arange(n) + 0.5) / n
    x1, x2 = np.meshgrid(centres, centres[::-1])
    return np.stack([x1.ravel(), x2.ravel()], axis=1)


def check_map(drawn: dict, net: mlp_ref.MLP, where: str) -> list[str]:
    """The widget's drawn map (``mlpState.map``: grid, square, values) against ``net`` on the same grid."""
    n, (low, high) = drawn["grid"], drawn["square"]
    values = np.array(drawn["values"], dtype=float)
    if values.shape != (n * n,):
        return [f"{where}: the heat map has {values.size} cells, expected {n} x {n}"]
    expected = net.forward(map_grid(n, low, high))[:, 0]
    error = np.abs(values - expected)
    LARGEST["heat map"] = max(LARGEST.get("heat map", 0.0), float(error.max()))
    if not error.max() <= MAP_ATOL:
        k = int(error.argmax())
        return [f"{where}: the heat map's cell (row {k // n + 1}, column {k % n + 1}) of {n} x {n} over [{low}, {high}]² "
                f"shows ŷ = {values[k]:.6f}, mlp_ref's forward pass gives {expected[k]:.6f} "
                f"({int(np.count_nonzero(error > MAP_ATOL))} cells differ by more than {MAP_ATOL:g})"]
    return []


def compare_runs(readings: list[dict], settings: list[dict]) -> list[str]:
    problems = []
    for setting, reading in zip(settings, readings):
        runs = playground_reference(setting)
        stable = setting["rate"] <= STABLE_RATE
        for k in (0, *COMPARED_STEPS):
            if k == 100 and not stable:
                continue  # see the tolerance's comment: no float implementation agrees there
            problems += check_playground(reading[str(k)], runs, k, f"{setting} after {k} steps")
    return problems


def test_training_playground(opened, viewport):
    from mlp_ref.course.playground import datasets, initial_weights

    page, root, problems = start(opened, "training-playground", viewport)
    config = page.evaluate(f"() => JSON.parse(document.querySelector('{root}').dataset.config)")
    # the page's data sets are mlp_ref.course.playground's, number for number
    for name, (X, y) in datasets().items():
        assert config["datasets"][name]["X"] == X.tolist() and config["datasets"][name]["y"] == y.tolist(), name
    rng = random.Random(SEED)
    settings = playground_settings(rng, 50 if viewport == "laptop" else 6)

    # one through the real controls: picking from the menus, typing, clicking the buttons
    first = settings[0]
    page.locator(f'{root} select[data-param="data"]').select_option(first["data"])
    page.locator(f'{root} select[data-param="depth"]').select_option(str(len(first["widths"])))
    for k, width in enumerate(first["widths"]):
        page.locator(f'{root} select[data-param="width{k + 1}"]').select_option(str(width))
    page.locator(f'{root} select[data-param="activation"]').select_option(first["activation"])
    page.locator(f'{root} input[data-param="rate"]').fill(repr(first["rate"]))
    page.locator(f'{root} input[data-param="seed"]').fill(str(first["seed"]))
    page.get_by_role("button", name=config["text"]["step10"]).click()
    reading = page.evaluate("(root) => { const s = document.querySelector(root).mlpState; "
                            "return {steps: s.steps, W: s.W, b: s.b, loss: s.loss, correct: s.correct, "
                            "status: document.querySelector(root + ' output').textContent, "
                            "text: document.querySelector(root).innerText}; }", root)
    problems += check_playground(reading, playground_reference(first), 10, f"{first} typed, 10 steps")
    # what is drawn is that map: the pixel at each cell's centre has the colour of mlp_ref's ŷ there,
    # except where a data point's marker covers it
    net = playground_reference(first)[10][0]
    square = config["datasets"][first["data"]]["square"]
    covered = page.evaluate(MAP_PIXELS, [root, net.forward(map_grid(40, *square))[:, 0].tolist()])
    points = len(config["datasets"][first["data"]]["X"])
    if covered > points:
        problems.append(f"{first} typed, 10 steps: {covered} of the map's 1600 cells are not drawn in the colour of "
                        f"mlp_ref's ŷ (at most one per data point, {points}, may be under a marker)")

    # the rest by the controls' events and button clicks, 1, 10 and 100 steps each
    readings = page.evaluate(PLAYGROUND_RUN, [settings])
    problems += compare_runs(readings, settings)

    # the initial weights: the widget's generator gives mlp_ref.course.playground's, bit for bit
    seeds = [rng.randrange(2**32) for _ in range(200 if viewport == "laptop" else 20)] + [0, 1, 2**32 - 1]
    shapes = [([8, 8], "relu"), ([3], "tanh"), ([1, 7], "sigmoid")]
    js = page.evaluate("""async ([seeds, shapes]) => {
        const m = await import(new URL('../../javascripts/widgets/training.js', location.href));
        return seeds.map(seed => shapes.map(([widths, act]) => m.initialWeights(widths, act, seed).W));
    }""", [seeds, shapes])
    for seed, per_shape in zip(seeds, js):
        for (widths, act), W_js in zip(shapes, per_shape):
            W_py, _ = initial_weights(widths, act, seed)
            # exact: integer arithmetic, then one correctly rounded IEEE operation per number
            assert [w.tolist() for w in W_py] == W_js, (seed, widths, act)
    STATS["widget settings compared"] += len(settings) + 1
    problems += opened["training-playground"].problems  # console errors, failed or foreign requests
    assert problems == [], "\n".join(problems[:20])


def dying_seed() -> int:
    """The first seed whose 2-2-1 ReLU network on XOR has no dead unit at step 0 and one after 100
    steps at rate 0.5 (mlp_ref decides: a unit that is 0 on all four corners)."""
    for seed in range(1000):
        runs = playground_reference({"data": "xor", "widths": [2], "activation": "relu", "rate": 0.5, "seed": seed})
        dead = [(runs[k][0].forward(mlp_ref.XOR_X, keep_cache=True)[1].activations[1] == 0).all(axis=0) for k in (0, 100)]
        if not dead[0].any() and dead[1].any():
            return seed
    raise AssertionError("no seed below 1000 has a ReLU unit that dies")


def test_training_playground_edge_cases(opened):
    """A unit that dies, a rate so large that the loss rises, one so large it is no longer finite,
    a point added from the keyboard and the forward values at it, and the setting in the URL."""
    page, root, problems = start(opened, "training-playground", "laptop")
    config = page.evaluate(f"() => JSON.parse(document.querySelector('{root}').dataset.config)")
    words = config["text"]
    seed = dying_seed()
    dying = {"data": "xor", "widths": [2], "activation": "relu", "rate": 0.5, "seed": seed}
    rising = {"data": "moons", "widths": [8, 8], "activation": "relu", "rate": 30.0, "seed": 1}
    infinite = {"data": "moons", "widths": [8, 8], "activation": "relu", "rate": 1e300, "seed": 1}
    readings = page.evaluate(PLAYGROUND_RUN, [[dying, rising, infinite]])
    problems += compare_runs(readings[:1], [dying])
    runs = playground_reference(dying)
    dead = np.flatnonzero((runs[100][0].forward(mlp_ref.XOR_X, keep_cache=True)[1].activations[1] == 0).all(axis=0))
    unit = words["unit"].format(l=1, j=int(dead[0]) + 1)
    if unit in readings[0]["0"]["status"] or unit not in readings[0]["100"]["status"]:
        problems.append(f"the dying unit {unit!r}: {readings[0]['0']['status']!r} -> {readings[0]['100']['status']!r}")
    # too large a rate: the loss rises above its start, and the widget says so
    for k in ("1", "10"):
        problems += check_playground(readings[1][k], playground_reference(rising), int(k), f"{rising} {k}")
    rising_words = words["rising"].split("{")[0].strip(",; ")
    if rising_words not in readings[1]["10"]["status"]:
        problems.append(f"rising loss not said: {readings[1]['10']['status']!r}")
    # a rate so large the loss is no longer a number: the widget stops where mlp_ref cannot go on
    runs = playground_reference(infinite)
    assert runs["diverged"] is not None, "the rate must make mlp_ref's run diverge"
    for k in ("1", "100"):
        problems += check_playground(readings[2][k], runs, int(k), f"{infinite} {k}")
    # JavaScript's String(1e300) and Python's repr(1e300) are both "1e+300"
    said = words["diverged"].format(step=runs["diverged"], rate=repr(infinite["rate"]), last=runs["diverged"] - 1)
    if readings[2]["100"]["error"] != said:
        problems.append(f"divergence said as {readings[2]['100']['error']!r}, expected {said!r}")

    # the keyboard: Page Down reaches a point, its forward values are mlp_ref's; Enter adds a point
    page.evaluate(PLAYGROUND_RUN, [[dying]])
    canvas = page.locator(f"{root} canvas")
    canvas.focus()
    page.keyboard.press("PageDown")
    values = json.loads(page.locator(f"{root} p[data-values]").get_attribute("data-values"))
    net = playground_reference(dying)[100][0]
    point = mlp_ref.XOR_X[1:2]
    _, cache = net.forward(point, keep_cache=True)
    for js_layer, py_layer in zip(values, cache.activations[1:]):
        for js, py in zip(js_layer, py_layer[0]):
            if not close("training-playground", float(js), float(py), 1.0):
                problems.append(f"forward value at {point}: {js} != {py}")
    page.locator(f'{root} select[data-param="class"]').select_option("0")
    canvas.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    state = page.evaluate(f"() => document.querySelector('{root}').mlpState")
    added = state["setting"]["added"]
    assert len(added) == 1 and added[0][2] == 0 and state["n"] == 5 and state["steps"] == 0, state["setting"]
    page.get_by_role("button", name=words["step10"]).click()
    after = page.evaluate("(root) => { const s = document.querySelector(root).mlpState; "
                          "return {steps: s.steps, W: s.W, b: s.b, loss: s.loss, correct: s.correct, "
                          "status: document.querySelector(root + ' output').textContent, "
                          "text: document.querySelector(root).innerText, url: location.search}; }", root)
    problems += check_playground(after, playground_reference(dying, added), 10, "with a point added by keyboard")

    # the URL holds the setting: opening it replays the same run
    query = dict(urllib.parse.parse_qsl(after["url"].lstrip("?")))
    assert query["pg-data"] == "xor" and query["pg-steps"] == "10" and query["pg-seed"] == str(seed), query
    url = page.url.split("?")[0] + after["url"]
    page.goto(url)
    page.wait_for_selector(f"{root} .mlp-widget__title")
    replay = page.evaluate("(root) => { const s = document.querySelector(root).mlpState; "
                           "return {steps: s.steps, W: s.W, b: s.b, loss: s.loss, correct: s.correct, "
                           "status: document.querySelector(root + ' output').textContent, "
                           "text: document.querySelector(root).innerText}; }", root)
    problems += check_playground(replay, playground_reference(dying, added), 10, "replayed from the URL")
    STATS["widget settings compared"] += 6
    assert problems == [], "\n".join(problems[:20])


# A phone: a touch screen 390 px wide (the playground's map is most of its width).
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
PLAYGROUND_STATE = ("(root) => { const s = document.querySelector(root).mlpState; return {steps: s.steps, "
                    "W: s.W, b: s.b, losses: s.losses, added: s.setting.added, n: s.n, "
                    "status: document.querySelector(root + ' output').textContent}; }")


def swipe(page, x: float, y: float, distance: float) -> None:
    """A finger put down at (x, y) (CSS px in the viewport), moved up by ``distance`` in ten moves a
    frame apart, and lifted: what a reader does to scroll down (Chrome's touch events, through CDP)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 11):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - distance * k / 10}]})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(300)  # the scroll's fling settles
    cdp.detach()


def playground_by_touch(browser, url: str) -> list[str]:
    """What goes wrong on the page at ``url`` when the playground is used by touch: a tap on the map
    with "Add points" off must change nothing of the run; a swipe over the map must scroll the page
    and add nothing, even with the mode on; with the mode on a tap adds one point (and starts again
    from step 0); Undo takes it back with the run it had reset. The buttons are found by the names
    the page gives them (its own language's words)."""
    visit = PageVisit(browser, url, **PHONE)
    try:
        page, root = visit.page, '.mlp-widget[data-widget="training-playground"]'
        page.wait_for_selector(f"{root} .mlp-widget__title", timeout=30000)
        words = json.loads(page.evaluate(f"() => document.querySelector('{root}').dataset.config"))["text"]
        widget = page.locator(root)
        mode = widget.get_by_role("button", name=words["addMode"], exact=True)
        undo = widget.get_by_role("button", name=words["undo"], exact=True)
        problems = []
        if mode.get_attribute("aria-pressed") != "false":
            problems.append(f"{url}: the add-points toggle starts as aria-pressed={mode.get_attribute('aria-pressed')!r}, "
                            "expected 'false' (off)")
        if undo.get_attribute("aria-disabled") != "true":
            problems.append(f"{url}: Undo is not disabled before any point is added")
        widget.get_by_role("button", name=words["step10"], exact=True).tap()
        trained = page.evaluate(PLAYGROUND_STATE, root)
        canvas = page.locator(f"{root} canvas")
        canvas.scroll_into_view_if_needed()
        canvas.tap(position={"x": 60, "y": 80})
        tapped = page.evaluate(PLAYGROUND_STATE, root)
        if (tapped["steps"], tapped["added"], tapped["W"]) != (trained["steps"], trained["added"], trained["W"]):
            problems.append(f"{url}: a tap on the map with the mode off changed the run: step {trained['steps']} -> "
                            f"{tapped['steps']}, added points {trained['added']} -> {tapped['added']}")

        mode.tap()
        if mode.get_attribute("aria-pressed") != "true":
            problems.append(f"{url}: the add-points toggle is aria-pressed={mode.get_attribute('aria-pressed')!r} "
                            "after a tap, expected 'true'")
        # a swipe up that starts on the map, with the mode on: the page scrolls, no point is added
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        top = page.evaluate("() => window.scrollY")
        swipe(page, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8, 200)
        swiped = page.evaluate(PLAYGROUND_STATE, root)
        scrolled = page.evaluate("() => window.scrollY") - top
        if swiped["added"] != trained["added"] or swiped["steps"] != trained["steps"]:
            problems.append(f"{url}: a swipe over the map changed the run: added points {swiped['added']}, "
                            f"step {swiped['steps']} (expected {trained['steps']})")
        if scrolled < 50:
            problems.append(f"{url}: a swipe of 200 px over the map scrolled the page by {scrolled} px")

        canvas.scroll_into_view_if_needed()
        canvas.tap(position={"x": 60, "y": 80})
        added = page.evaluate(PLAYGROUND_STATE, root)
        if len(added["added"]) != 1 or added["n"] != trained["n"] + 1 or added["steps"] != 0:
            problems.append(f"{url}: a tap with the mode on: {len(added['added'])} points added (expected 1), "
                            f"{added['n']} points (expected {trained['n'] + 1}), step {added['steps']} (expected 0)")
        if undo.get_attribute("aria-disabled") == "true":
            problems.append(f"{url}: Undo is disabled after a point was added")
        undo.tap()
        undone = page.evaluate(PLAYGROUND_STATE, root)
        # the run is restored as it was, the same arrays: compared exactly
        if (undone["added"], undone["n"], undone["steps"], undone["W"], undone["b"], undone["losses"]) != (
                trained["added"], trained["n"], trained["steps"], trained["W"], trained["b"], trained["losses"]):
            problems.append(f"{url}: after Undo: added {undone['added']}, {undone['n']} points, step {undone['steps']}; "
                            f"expected the run before the point: no point added, {trained['n']} points, "
                            f"step {trained['steps']} with its weights and losses")
        if undo.get_attribute("aria-disabled") != "true":
            problems.append(f"{url}: Undo is still enabled with no added point left to take back")
        return problems + visit.problems
    finally:
        visit.close()


def test_training_playground_by_touch(browser, widget_pages):
    """Issue 36: a tap never destroys the run the reader built, and a swipe over the map scrolls."""
    problems = playground_by_touch(browser, widget_pages["training-playground"])
    assert problems == [], "\n".join(problems)


# --------------------------------------------------------------------------- backward stepper

STEPPER_WALK = """([settings]) => {
    const widget = document.querySelector('.mlp-widget[data-widget="backward-stepper"]');
    const set = (param, value) => {
        const c = widget.querySelector(`input[data-param="${param}"]`);
        c.value = value;
        c.dispatchEvent(new Event('input', {bubbles: true}));
    };
    const click = (action) => widget.querySelector(`button[data-action="${action}"]`).click();
    return settings.map(([x1, x2, y]) => {
        set('x1', String(x1));
        set('x2', String(x2));
        set('y', String(y));
        click('restart');
        const intro = widget.querySelector('p.mlp-widget__readout').textContent;
        for (let k = 0; k < 30; k += 1) click('next');   // more presses than rows: Next stops at the last
        return {intro, live: widget.querySelector('output').textContent,
                rows: [...widget.querySelectorAll('li')].map(li => [li.dataset.name,
                    li.dataset.value === undefined ? null : Number(li.dataset.value), li.textContent])};
    });
}"""

# The rows as the stepper shows them: [name, value (null for the step), text].
STEPPER_ROWS = ("(root) => [...document.querySelectorAll(root + ' li')].map(li => [li.dataset.name, "
                "li.dataset.value === undefined ? null : Number(li.dataset.value), li.textContent])")

# Where the walk stands: which buttons say they have nothing to do, what has the focus, the status line.
STEPPER_ENDS = """(root) => {
    const widget = document.querySelector(root);
    const state = (action) => widget.querySelector(`button[data-action="${action}"]`).getAttribute('aria-disabled');
    return {previous: state('previous'), next: state('next'), live: widget.querySelector('output').textContent,
            focus: document.activeElement.dataset.action || document.activeElement.tagName,
            rows: widget.querySelectorAll('li').length};
}"""

# With Next scrolled to the bottom of the screen, the newest row and Next both in sight (the row
# inside its scrolling box's visible part), and how far apart they are, in px.
STEPPER_NEWEST = """(root) => {
    const widget = document.querySelector(root);
    const next = widget.querySelector('button[data-action="next"]');
    next.scrollIntoView({block: 'end', behavior: 'instant'});   // the site scrolls smoothly otherwise
    const row = [...widget.querySelectorAll('li')].pop().getBoundingClientRect();
    const box = widget.querySelector('li').closest('[role=region]').getBoundingClientRect();
    const button = next.getBoundingClientRect();
    const inView = (r) => r.top >= -1 && r.bottom <= window.innerHeight + 1;   // a fraction of a px off: layout's rounding
    return {row: inView(row) && row.top >= box.top - 1 && row.bottom <= box.bottom + 1, next: inView(button),
            gap: Math.round(button.top - row.bottom)};
}"""


def stepper_expected(net: mlp_ref.MLP, x: list[float], y: float, lr: float) -> list[tuple[str, str, float]]:
    """(name, the row as the widget writes it, value) for each quantity, from mlp_ref: the page's
    backward table (backward_by_hand) row for row, between ∂L/∂ŷ before it and the SGD step after it."""
    from mlp_ref.course.backward_tables import backward_by_hand

    X, target = np.array([x]), np.array([[y]])
    _, cache = net.forward(X, keep_cache=True)
    loss, delta = net.loss_and_delta(cache.pre_activations[-1], target)
    grads = net.backward(cache, delta)
    z2 = cache.pre_activations[1][0, 0]
    y_hat = cache.activations[2][0, 0]
    da1 = (delta @ net.weights[1].T)[0]
    values = {"δ2 = ŷ − y": delta[0, 0], "∂L/∂b2": grads.biases[1][0]}
    for j in range(2):
        values[f"∂L/∂W2[{j + 1}]"] = grads.weights[1][j, 0]
        values[f"∂L/∂a1[{j + 1}]"] = da1[j]
        values[f"δ1[{j + 1}]"] = (da1 * mlp_ref.relu_grad(cache.pre_activations[0][0]))[j]
        values[f"∂L/∂b1[{j + 1}]"] = grads.biases[0][j]
        for i in range(2):
            values[f"∂L/∂W1[{i + 1},{j + 1}]"] = grads.weights[0][i, j]
    f = lambda v: format_number(float(v) + 0.0, 4)  # noqa: E731
    # dL/dŷ by the chain rule backwards: δ2 = dL/dŷ · σ'(z2)
    d_yhat = delta[0, 0] / mlp_ref.sigmoid_grad(np.array([z2]))[0]
    rows = [("∂L/∂ŷ", f"∂L/∂ŷ (1, 1): (ŷ − y) / (ŷ (1 − ŷ)) = ({f(y_hat)} − {y:g}) / ({f(y_hat)} · {f(1 - y_hat)}) = "
                      f"{f(d_yhat)}", d_yhat)]
    for name, shape, by_hand, _, _ in markdown_cells(backward_by_hand(net, np.array(x), y)):
        rows.append((name, f"{name} {shape}: {by_hand} = {f(values[name])}", values[name]))
    stepped = net.copy()
    mlp_ref.sgd_step(stepped, grads, lr)
    new_loss, _ = stepped.loss_and_grads(X, target)
    labels = [f"W1[{i},{j}]" for i in (1, 2) for j in (1, 2)] + ["b1[1]", "b1[2]", "W2[1]", "W2[2]", "b2"]
    flat = lambda m: [*m.weights[0].ravel(), *m.biases[0], *m.weights[1].ravel(), *m.biases[1]]  # noqa: E731
    changes = ", ".join(f"{label}: {f(a)} → {f(b)}" for label, a, b in zip(labels, flat(net), flat(stepped)))
    rows.append(("sgd", changes, None))
    rows.append(("newLoss", (f(new_loss), f(loss)), new_loss))   # the new loss on a row of its own
    return rows


def check_stepper(reading: dict, net: mlp_ref.MLP, x, y, lr, words: dict) -> list[str]:
    """What differs between the rows shown (and, when read, the status line at the end) and mlp_ref's."""
    expected = stepper_expected(net, x, y, lr)
    where = f"x = {x}, y = {y}"
    if len(reading["rows"]) != len(expected):
        return [f"{where}: {len(reading['rows'])} quantities shown, mlp_ref's table has {len(expected)}"]
    problems = []
    for (name, text, value), (js_name, js_value, js_text) in zip(expected, reading["rows"]):
        if name == "sgd":
            name = words["sgd"].format(lr=repr(lr) if lr != int(lr) else str(int(lr)))
            text = f"{name}: {text}"
        elif name == "newLoss":
            name, text = words["newLoss"], words["newLossRow"].format(loss=text[0], before=text[1])
        if js_name != name or js_text != text:
            problems.append(f"{where}: shown {js_text!r}, mlp_ref's table {text!r}")
        if value is None:
            if js_value is not None:
                problems.append(f"{where}: the step's row holds a value, {js_value!r}; expected none")
        elif js_value is None or not close("backward-stepper", js_value, float(value), 1.0):
            problems.append(f"{where}: {name} = {js_value!r}, mlp_ref {float(value)!r}")
    if "live" in reading:
        # the status line says where the walk is, briefly: not the last row over again
        n = len(expected)
        said = words["at"].format(k=n, n=n, text=f"{words['newLoss']} = {format_number(float(expected[-1][2]), 4)}")
        if reading["live"] != said:
            problems.append(f"{where}: the status line at the end says {reading['live']!r}, expected {said!r}")
    return problems


def test_backward_stepper(opened, viewport):
    page, root, problems = start(opened, "backward-stepper", viewport)
    config = page.evaluate(f"() => JSON.parse(document.querySelector('{root}').dataset.config)")
    # it starts from the page's fixture: lesson 3's 2-2-1 network, x = (1, 2), y = 0 and the page's rate
    assert (config["W1"], config["b1"], config["W2"], config["b2"]) == ([[0.1, 0.2], [0.3, 0.4]], [0.1, 0.1],
                                                                       [[0.5], [0.6]], [0.2])
    assert (config["x"], config["y"]) == ([1.0, 2.0], 0.0)
    net = mlp_ref.MLP.from_arrays([np.array(config["W1"]), np.array(config["W2"])],
                                  [np.array(config["b1"]), np.array(config["b2"])], activation="relu", output="sigmoid")
    lr = config["lr"]
    rng = random.Random(SEED)
    settings = [[1.0, 2.0, 0.0]] + [[round(rng.uniform(-3, 3), 2), round(rng.uniform(-3, 3), 2),
                                     rng.choice([0.0, 1.0, 0.25, 0.5])] for _ in range(20 if viewport == "laptop" else 4)]
    settings += [[-1.0, -1.0, 1.0], [-1.0, 0.0, 1.0]]   # both hidden units off; z1[1] = 0 exactly, relu's kink
    words = config["text"]
    n = len(stepper_expected(net, [1.0, 2.0], 0.0, lr))
    # the page's sentence counts the rows: the stepper's, and its table's (the rest is before and after it)
    said = lesson05.values()
    table = len(markdown_cells(lesson05.backward_table()))
    assert (int(said["stepper_rows"]), int(said["table_rows"])) == (n, table), (
        f"lesson 5's stepper sentence: says {said['stepper_rows']} rows to the table's {said['table_rows']}, "
        f"the stepper has {n} and the table {table}")
    # typing the page's fixture (the laptop's run leaves other values in), then the keyboard alone:
    # focus Next and press Enter, through the whole walk and once more
    for param, value in (("x1", "1"), ("x2", "2"), ("y", "0")):
        page.locator(f'{root} input[data-param="{param}"]').fill(value)
    ends = page.evaluate(STEPPER_ENDS, root)
    if (ends["previous"], ends["next"], ends["live"]) != ("true", "false", words["start"].format(n=n)):
        problems.append(f"{viewport}, at the start: Previous aria-disabled={ends['previous']}, Next "
                        f"aria-disabled={ends['next']}, status {ends['live']!r}; expected true, false and "
                        f"{words['start'].format(n=n)!r}")
    page.get_by_role("button", name=words["next"]).focus()
    for _ in range(n + 1):
        page.keyboard.press("Enter")
    ends = page.evaluate(STEPPER_ENDS, root)
    if (ends["previous"], ends["next"], ends["focus"], ends["rows"]) != ("false", "true", "next", n):
        problems.append(f"{viewport}, {n + 1} presses of Next: Previous aria-disabled={ends['previous']}, Next "
                        f"aria-disabled={ends['next']}, focus on {ends['focus']}, {ends['rows']} rows; expected "
                        f"false, true, next (kept) and {n} rows")
    newest = page.evaluate(STEPPER_NEWEST, root)
    if not (newest["row"] and newest["next"]):
        problems.append(f"{viewport}: with Next at the bottom of the screen, the newest row in sight: {newest['row']}, "
                        f"Next: {newest['next']} ({newest['gap']} px from the row's bottom to Next's top); expected both")
    rows = page.evaluate(STEPPER_ROWS, root)
    problems += check_stepper({"rows": rows, "live": ends["live"]}, net, [1.0, 2.0], 0.0, lr, words)
    page.get_by_role("button", name=words["previous"]).click()
    ends = page.evaluate(STEPPER_ENDS, root)
    if (ends["previous"], ends["next"], ends["rows"]) != ("false", "false", n - 1):
        problems.append(f"{viewport}, Previous from the end: Previous aria-disabled={ends['previous']}, Next "
                        f"aria-disabled={ends['next']}, {ends['rows']} rows; expected false, false and {n - 1}")
    for (x1, x2, y), reading in zip(settings, page.evaluate(STEPPER_WALK, [settings])):
        problems += check_stepper(reading, net, [x1, x2], y, lr, words)
    problems += opened["backward-stepper"].problems
    assert problems == [], "\n".join(problems[:20])
    STATS["widget settings compared"] += len(settings) + 1
