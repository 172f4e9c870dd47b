"""The three interactive widgets on the Russian pages: their words Russian, their numbers the English widget's.

A widget holds no words of its own: ``mlp_ref.course.widgets`` puts them, in the language of
the page being built, into its starting values (``data-config``), and the script shows only
those. Each widget's Russian page and its English twin are loaded side by side in headless
Chromium, put through the same settings (valid ones, and bad input that must bring an error
message), and read back:

* the Russian widget shows none of the English widget's words: not in its text, its labels for
  a screen reader, its plot, its live region or its error messages; and its no-JavaScript
  sentence, in the built HTML, is Russian;
* every number it shows (table cells, what it announces, the numbers inside an error message)
  is the English widget's, with the same decimal point, once the thousands separator is set
  aside (a comma in English, a narrow no-break space in Russian, as on the pages' tables);
* the parameter counter's tables are the Russian page's own generated tables, cell for cell.

``tests/test_widgets.py`` holds every number of the English widgets to ``mlp_ref``.
"""

from __future__ import annotations

import json
import posixpath
import re
from html import unescape

import pytest

import mlp_ref
from mlp_ref.course.counting_tables import breakdown_markdown, layer_table_markdown
from mlp_ref.course.widgets import WIDGETS, widget_html
from prose.structure import generator_calls
from tests import editions, pagekit
from tests.browser_visits import PageVisit, page_url
from tests.test_widgets import FIT, counter_on_a_phone, fit_problems, playground_by_touch

EDITIONS = ("en", "ru")
CYRILLIC = re.compile("[А-Яа-яЁё]")
# A number as the widgets write it: a sign, digits grouped by the edition's separator, decimals.
NUMBER = re.compile(r"-?\d+(?:[,\u202f]\d{3})*(?:\.\d+)?")
TEMPLATE_FIELD = re.compile(r"\{\w+\}")


def lesson_of_each_widget() -> dict[str, str]:
    """Widget name -> the English lesson (a path under docs/) whose generator block places it (on
    the page, or in the generator function the page calls)."""
    found = {}
    for path in sorted((pagekit.DOCS / "lessons").glob("*.md")):
        if ".ru." not in path.name:
            text = path.read_text(encoding="utf-8")
            for code in [text] + [call.source for call in generator_calls(text)]:
                for match in re.finditer(r'widget_html\(\s*"([a-z-]+)"', code):
                    found[match[1]] = path.relative_to(pagekit.DOCS).as_posix()
    assert set(found) == set(WIDGETS), found
    return found


@pytest.fixture(scope="module")
def widget_urls(server):
    """(widget, edition) -> the URL of its page; the Russian edition is served under /ru/."""
    return {(name, edition): page_url(server, editions.twin_source(source) if edition == "ru" else source)
            for name, source in lesson_of_each_widget().items() for edition in EDITIONS}


@pytest.fixture(scope="module")
def opened(browser, widget_urls):
    """Every widget page of both editions, loading at once."""
    visits = {key: PageVisit(browser, url, background=True, viewport={"width": 1280, "height": 900})
              for key, url in widget_urls.items()}
    yield visits
    for visit in visits.values():
        visit.close()


# Steps are [CSS selector within the widget, value]: a value is typed into the control (its
# own input or change event follows); "click" clicks it. The nth match with [selector, value, n].
SETTINGS = {
    "network-explorer": [
        [],
        [['input[data-param="W1[1,1]"]', "0.7"], ['input[data-param="x1"]', "-1.3"]],
        [['select[data-param="output"]', "identity"], ['input[data-param="b1[2]"]', "0.03125"]],
        [['input[data-param="b2[1]"]', "40"], ['select[data-param="output"]', "sigmoid"]],
        [["button", "click", 1]],                                # lesson 2's XOR weights
        [['input[data-param="x1"]', "1"], ['input[data-param="x2"]', "0"]],
        [['input[data-param="x1"]', "not a number"]],           # bad input: a message
        [['input[data-param="x1"]', "0.5"], ["button", "click", 0]],  # back to the lesson's network
    ],
    "activation-explorer": [[]] + [[["select", str(k)], ['input[data-param="z"]', z]]
                                   for k in range(7) for z in ("-3", "0", "1.7")]
                           + [[["select", "3"], ['input[data-param="z"]', "40"]],
                              [['input[data-param="z"]', ""]]],        # bad input: a message
    "parameter-counter": [[]] + [[["input[type=text]", widths]] for widths in
                                 ("784, 128, 10", "1000000000000, 1000000000000, 10", "784, 0, 10", "784, abc, 10",
                                  "784 512, 10", "784,, 10", "", "784", "784, 1.5, 10", "784, 128, 64, 10")]
                         + [[["select", str(k)]] for k in range(len(mlp_ref.CONFIGS))]
                         + [[["select", "0"], ['input[data-field="d_model"]', "1024"], ['input[data-field="n_heads"]', "16"],
                             ['input[data-field="layers"]', "24"]],
                            [["select", "0"], ['input[data-field="n_heads"]', "7"]],
                            [["select", "1"], ['input[data-field="vocab"]', "abc"]],
                            [["select", "2"], ['input[data-field="n_kv_heads"]', "3"]],
                            [["select", "3"], ['input[data-field="top_k"]', "300"]],
                            [["select", "3"], ['input[data-field="layers"]', "2"]],
                            [["select", "3"], ['input[data-field="n_experts"]', "512"]]],
    "backward-stepper": [[]] + [[['button[data-action="next"]', "click"]]] * 18 + [
        [['button[data-action="previous"]', "click"]],
        [['input[data-param="x1"]', "-1"], ['input[data-param="y"]', "1"], ['button[data-action="next"]', "click"]],
        [['input[data-param="y"]', "2"]],                        # bad input: messages
        [['input[data-param="x2"]', "abc"]],
        [['input[data-param="x2"]', "0.5"], ['button[data-action="restart"]', "click"]],
    ],
    "training-playground": [
        [],
        [['button[data-action="step10"]', "click"]],
        # lesson 2's XOR with two ReLU units: seed 0 starts with a dead unit
        [['select[data-param="data"]', "xor"], ['select[data-param="depth"]', "1"], ['select[data-param="width1"]', "2"],
         ['select[data-param="activation"]', "relu"], ['input[data-param="seed"]', "0"],
         ['button[data-action="step"]', "click"]],
        [["canvas", "click"]],                                  # a click with "Add points" off: nothing added
        [['button[data-action="addMode"]', "click"], ["canvas", "click"]],   # on: a point added where it was clicked
        [['button[data-action="undo"]', "click"], ['button[data-action="addMode"]', "click"]],  # taken back; off
        [['select[data-param="data"]', "moons"], ['select[data-param="depth"]', "2"],
         ['input[data-param="rate"]', "30"], ['button[data-action="step10"]', "click"]],   # the loss rises
        [['input[data-param="rate"]', "1e300"], ['button[data-action="step"]', "click"]],  # it diverges
        [['input[data-param="rate"]', "-1"]],                   # bad input: messages
        [['input[data-param="rate"]', "abc"], ['input[data-param="seed"]', "1.5"]],
        [['input[data-param="rate"]', "0.3"], ['button[data-action="newSeed"]', "click"],
         ['button[data-action="play"]', "click"], ['button[data-action="play"]', "click"]],
    ],
}

APPLY_AND_READ = """([name, settings]) => {
    const widget = document.querySelector(`.mlp-widget[data-widget="${name}"]`);
    const read = () => ({
        text: widget.innerText,
        labels: [...widget.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap(e =>
            ['aria-label', 'title', 'placeholder'].map(a => e.getAttribute(a)).filter(v => v !== null)),
        plot: [...widget.querySelectorAll('svg text')].map(t => t.textContent),
        tables: [...widget.querySelectorAll('table')].map(t =>
            [...t.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td => td.textContent))),
        said: [...widget.querySelectorAll('output, .mlp-widget__error, .mlp-widget__msg')].map(e => e.textContent),
        invalid: widget.querySelectorAll('[aria-invalid=true]').length,
    });
    return settings.map(steps => {
        for (const [selector, value, n = 0] of steps) {
            const control = widget.querySelectorAll(selector)[n];
            if (!control) throw new Error(`no ${selector} #${n} in ${name}`);
            if (value === 'click') { control.click(); continue; }
            control.value = value;
            control.dispatchEvent(new Event(control.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));
        }
        return read();
    });
}"""


@pytest.fixture(scope="module")
def readings(opened):
    """(widget, edition) -> {"config": its starting values, "steps": a reading per setting}."""
    out = {}
    for (name, edition), visit in opened.items():
        page = visit.page
        root = f'.mlp-widget[data-widget="{name}"]'
        page.wait_for_selector(f"{root} .mlp-widget__title", timeout=30000)
        config = json.loads(page.evaluate(f"() => document.querySelector('{root}').dataset.config"))
        out[name, edition] = {"config": config, "steps": page.evaluate(APPLY_AND_READ, [name, SETTINGS[name]]),
                              "problems": [p for p in visit.problems if not SITE_WIDE.search(p)]}
    return out


# The page's own requests are tests/test_browser.py's; this file holds the widget's: a script
# that fails to load or throws. (A request that failed is recorded twice: by its URL, and by a
# console error without one.)
SITE_WIDE = re.compile(r"^(HTTP \d+|failed request): (?!\S*/javascripts/widgets/)|^console error: Failed to load resource")


def strings(value) -> list[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def words_of(config: dict) -> list[str]:
    """The words a widget's starting values give it to show: its text, row and field labels, and
    the names of the activations (lesson 4's page gives them)."""
    labels = [entry["label"] for entry in config.get("activations", [])]
    return strings({key: config.get(key) for key in ("text", "rowLabels", "fieldLabels")}) + labels


def english_words(english: dict, russian: dict) -> list[str]:
    """The English widget's words that must not show on the Russian page: each template's
    fixed parts (its {fields} are values), those with a word in them, unless the Russian
    widget's own words say the same (a name such as "FFN" or "mlp_ref.course.trace")."""
    said_in_russian = "\n".join(TEMPLATE_FIELD.sub("", text) for text in words_of(russian))
    parts = {part.strip(" ,.:;") for text in words_of(english) for part in TEMPLATE_FIELD.split(text)}
    return sorted(part for part in parts if re.search(r"[A-Za-z]{3,}", part) and part not in said_in_russian)


def shown(step: dict) -> str:
    """Everything a reader sees or hears of the widget at one step."""
    return "\n".join([step["text"], *step["labels"], *step["plot"], *step["said"]])


def numbers(step: dict) -> list:
    """The numbers the widget shows at one step, thousands separators set aside: per table, per
    row, per cell; then what it announces and its error messages."""
    def of(text):
        return [n.replace(",", "").replace("\u202f", "") for n in NUMBER.findall(text)]
    return [[[of(cell) for cell in row] for row in table] for table in step["tables"]] + [of(s) for s in step["said"]]


@pytest.mark.parametrize("name", list(WIDGETS))
def test_the_russian_widget_says_no_english_word(readings, name):
    english, russian = readings[name, "en"], readings[name, "ru"]
    banned = english_words(english["config"], russian["config"])
    assert len(banned) >= 10, banned  # the English widget does have words to leave behind
    problems = list(russian["problems"])  # console errors, failed or foreign requests
    for k, step in enumerate(russian["steps"]):
        text = shown(step)
        problems += [f"setting {k} {SETTINGS[name][k]}: English {word!r} in {text[:200]!r}…"
                     for word in banned if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)]
        if not CYRILLIC.search(step["text"]):
            problems.append(f"setting {k}: no Russian text at all")
    # the same search finds most of them on the English page (the rest are messages that these
    # settings do not bring up), so it can see an English word where there is one
    seen = [w for w in banned if any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", shown(s)) for s in english["steps"])]
    assert len(seen) >= 0.75 * len(banned), sorted(set(banned) - set(seen))
    print(f"{name}: {len(banned)} English words looked for, {len(seen)} of them seen on the English page")
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.parametrize("name", list(WIDGETS))
def test_the_russian_widget_shows_the_english_widgets_numbers(readings, name):
    english, russian = readings[name, "en"], readings[name, "ru"]
    problems = []
    for k, (en, ru) in enumerate(zip(english["steps"], russian["steps"], strict=True)):
        if numbers(ru) != numbers(en):
            problems.append(f"setting {k} {SETTINGS[name][k]}:\n  en {numbers(en)}\n  ru {numbers(ru)}")
        if ru["invalid"] != en["invalid"] or [bool(s) for s in ru["said"]] != [bool(s) for s in en["said"]]:
            problems.append(f"setting {k}: errors {ru['said']} / {en['said']}")
    errors = sum(bool(re.search("введено|введите", s)) for step in russian["steps"] for s in step["said"])
    assert errors, "the settings must include bad input, answered with a message"
    assert problems == [], "\n".join(problems[:10])


@pytest.mark.parametrize("name", list(WIDGETS))
def test_the_russian_widget_is_labelled_and_fits_a_laptop_and_a_phone(opened, readings, name):
    """Its Russian words are longer than the English ones: every control still has a label, and
    nothing is wider than the screen at 1280 px or at 390 px."""
    page, problems = opened[name, "ru"].page, []
    for size in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        problems += [f"{size['width']} px: {problem}" for problem in fit_problems(page.evaluate(FIT, name))]
    page.set_viewport_size({"width": 1280, "height": 900})
    assert problems == [], problems


def test_the_russian_counter_shows_every_column_on_a_phone(browser, widget_urls):
    """The Russian headers are longer: at 390 px every column of the counter's tables is still in sight."""
    problems = counter_on_a_phone(browser, widget_urls["parameter-counter", "ru"])
    assert problems == [], "\n".join(problems)


def test_the_russian_playground_by_touch(browser, widget_urls):
    """The Russian page's playground by touch, its buttons found by their Russian names (issue 36):
    a tap with «Добавлять точки» off keeps the run, a swipe scrolls, «Отменить» takes a point back."""
    problems = playground_by_touch(browser, widget_urls["training-playground", "ru"])
    assert problems == [], "\n".join(problems)


def markdown_cells(table: str) -> list[list[str]]:
    """The body cells of a generated Markdown table, as the page shows them."""
    return [[cell.strip() for cell in line.strip().strip("|").split(" | ")] for line in table.splitlines()[2:]]


def test_the_russian_counter_fills_in_the_russian_pages_tables(readings, monkeypatch):
    """The parameter counter "fills in the same tables as this page": on the Russian page, the
    page's own Russian tables (layer_table_markdown and breakdown_markdown), cell for cell."""
    steps = dict(zip(map(json.dumps, SETTINGS["parameter-counter"]), readings["parameter-counter", "ru"]["steps"]))
    monkeypatch.setenv("MLP_LANG", "ru")
    mlp = steps[json.dumps([["input[type=text]", "784, 128, 10"]])]["tables"][0]
    assert mlp == markdown_cells(layer_table_markdown([784, 128, 10]))
    for k, config in enumerate(mlp_ref.CONFIGS):
        shown_table = steps[json.dumps([["select", str(k)]])]["tables"][1]
        assert shown_table == markdown_cells(breakdown_markdown(mlp_ref.breakdown(config))), config.model


@pytest.mark.parametrize("name", list(WIDGETS))
def test_without_javascript_the_russian_page_says_what_the_widget_does_in_russian(built_site, name):
    """...and with it, the page loads the site's script (the Russian edition's folder has none)."""
    sentences = {}
    for edition in EDITIONS:
        source = ("ru/" if edition == "ru" else "") + lesson_of_each_widget()[name]
        page = pagekit.built_page(built_site, source)
        html = page.read_text(encoding="utf-8")
        script = re.search(rf'<script type="module" src="([^"]*/{re.escape(WIDGETS[name].script)})"', html)[1]
        target = posixpath.normpath(posixpath.join(page.parent.relative_to(built_site).as_posix(), script))
        assert target == f"javascripts/widgets/{WIDGETS[name].script}" and (built_site / target).is_file(), (source, script)
        match = re.search(rf'data-widget="{name}".*?<p class="mlp-widget__fallback">(?P<p>.*?)</p>', html, re.S)
        sentences[edition] = unescape(re.sub(r"<[^>]+>", "", match["p"]))
    title, sentence = sentences["ru"].split(":", 1)
    assert title == WIDGETS[name].title_ru and CYRILLIC.search(sentence), sentences["ru"]
    assert sentences["en"].split(":", 1)[0] == WIDGETS[name].title and not CYRILLIC.search(sentences["en"])


def test_the_russian_prose_names_the_xor_button_as_the_widget_labels_it(monkeypatch):
    """Lessons 2 and 3 tell the reader which button to press: by its Russian label."""
    from mlp_ref.course.widgets import network_data

    net = mlp_ref.xor_by_hand()
    labels = {}
    for edition in EDITIONS:
        monkeypatch.setenv("MLP_LANG", edition)
        html = widget_html("network-explorer", network_data(net, [0.0, 0.0], net, [[0.0, 0.0]]), "—")
        label = json.loads(unescape(re.search(r'data-config="([^"]*)"', html)[1]))["text"]["xor"]
        labels[edition] = re.sub(r"\s*\([^)]*\)$", "", label)  # the prose leaves out "(lesson 2)"
    assert labels["en"] == "Show XOR solution" and CYRILLIC.search(labels["ru"]), labels
    for lesson in ("02-depth-and-xor", "03-forward-pass"):
        russian = (pagekit.DOCS / "lessons" / f"{lesson}.ru.md").read_text(encoding="utf-8")
        english = (pagekit.DOCS / "lessons" / f"{lesson}.md").read_text(encoding="utf-8")
        assert f"*{labels['en']}*" in english, lesson
        assert f"*{labels['ru']}*" in russian and labels["en"] not in russian, lesson


# «ожидалось X, получено Y» is a calque of "expected X, received Y": a Russian message says what is needed
# and what was typed («нужно число от 0 до 1, а введено «abc»»).
CALQUE = re.compile(r"ожида\w*[^\"]*?получен\w*")


def calques(source: str) -> list[str]:
    """The calques in the Russian texts (``ru="…"``) of a module's source."""
    return [m[0] for ru in re.finditer(r'ru=f?"([^"]*)"', source) for m in CALQUE.finditer(ru[1])]


def test_the_widgets_messages_say_what_is_needed_in_natural_russian():
    modules = ["widgets.py", "backward_stepper.py", "playground.py"]
    found = {name: calques((pagekit.DOCS.parent / "mlp_ref" / "course" / name).read_text(encoding="utf-8"))
             for name in modules}
    assert not any(found.values()), found
    assert calques('"oneNumber": say("…", ru="ширина № {k}: ожидалось одно число, получено «{part}»")') == [
        "ожидалось одно число, получено"]
