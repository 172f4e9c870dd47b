"""mlp_site.reader_blocks: anchors, "Continues ..." labels and "Output" labels on the pages.

The labels chain the blocks as the build runs them (mlp_site.page_code's blocks). The tests
render every page, decorated by the step, with the site's own Markdown configuration, and check
the HTML a reader gets: each continued block has a label linking to an anchor that exists and
belongs to the block it continues, each output block is labelled and carries ``no-copy``. A
Russian page (``*.ru.md``) is decorated as the Russian build decorates it (``MLP_LANG=ru``): its
labels say «Продолжение …» and «Вывод».
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import markdown
import pytest
from mkdocs.config import load_config

from tests import pagekit

from mlp_site import reader_blocks

PAGES = [page for page in pagekit.pages() if pagekit.blocks(page)]
IDS = [str(page.relative_to(pagekit.DOCS)) for page in PAGES]
# What the labels say, by the edition's language: the output label, and how a "Continues" label starts.
LABELS = {"en": ("Output", "Continues <a"), "ru": ("Вывод", "Продолжение <a")}


def language_of(page) -> str:
    """The edition a page belongs to: ``a.ru.md`` is Russian."""
    return "ru" if ".ru." in page.name else "en"


def built(site, page):
    """The built HTML of a page of either edition (a Russian page is built under ru/, at its English twin's path)."""
    source = str(page.relative_to(pagekit.DOCS)).replace(".ru.", ".")
    return pagekit.built_page(site / "ru" if language_of(page) == "ru" else site, source)


def check_label_texts(html: str, language: str, where: str) -> None:
    """Every label on the page says its words in the page's language."""
    output, continues = LABELS[language]
    outputs = re.findall(r'<p class="mlp-output-label">(.*?)</p>', html, re.DOTALL)
    assert set(outputs) <= {output}, f"{where}: output labels {set(outputs)}, expected {output!r}"
    label_texts = re.findall(r'<p class="mlp-continues">(.*?)</p>', html, re.DOTALL)
    assert all(t.startswith(continues) for t in label_texts), f"{where}: {label_texts}"


@pytest.fixture(scope="module")
def site_markdown():
    """A Markdown converter configured as mkdocs.yml configures the site's."""
    config = load_config(str(pagekit.ROOT / "mkdocs.yml"))

    def convert(text: str) -> str:
        md = markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)
        return md.convert(text)

    return convert


def without_build_time_code(text: str) -> str:
    """markdown-exec's fences (run by the MkDocs plugin, which is not loaded here) as plain text fences."""
    return re.sub(r'^(?P<fence>[ \t]*(?:`{3,}|~{3,}))[^\n]*\bexec="(?:on|true|1)"[^\n]*$', r"\g<fence>text", text,
                  flags=re.MULTILINE)


class Elements(HTMLParser):
    """Start tags in document order: (tag, attributes)."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def elements(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = Elements()
    parser.feed(html)
    return parser.tags


def classes(attrs: dict[str, str]) -> set[str]:
    return set(attrs.get("class", "").split())


def check_rendered(html: str, expected: list, where: str) -> None:
    """The rendered page holds, in order, one code block per runnable or output fence, each
    with its anchor, label and classes; ``expected`` lists ("run", number, continues) and
    ("output",) in page order."""
    tags = elements(html)
    ids = [attrs["id"] for _, attrs in tags if "id" in attrs]
    # Only the step's anchors: markdown-exec's source="tabbed-right" blocks restart pymdownx's
    # line-anchor counter, so "__codelineno-0-1" can occur twice on a built page without the step.
    duplicates = sorted({i for i in ids if i.startswith("block-") and ids.count(i) > 1})
    assert not duplicates, f"{where}: anchors used twice: {duplicates}"
    # Each code block (div.highlight) with the label paragraph that precedes it, if any.
    shown = []
    label = None
    for index, (tag, attrs) in enumerate(tags):
        if tag == "p" and classes(attrs) & {"mlp-continues", "mlp-output-label"}:
            link = tags[index + 1][1].get("href") if index + 1 < len(tags) and tags[index + 1][0] == "a" else None
            label = (classes(attrs) & {"mlp-continues", "mlp-output-label"}).pop(), link
        elif tag == "div" and "highlight" in classes(attrs):
            shown.append((attrs.get("id"), classes(attrs), label))
            label = None
    ours = [s for s in shown if s[0] or "mlp-output" in s[1]]
    assert len(ours) == len(expected), f"{where}: {len(ours)} anchored or output blocks rendered, {len(expected)} expected"
    for (anchor, css, label), want in zip(ours, expected):
        if want[0] == "output":
            assert {"mlp-output", "no-copy"} <= css, f"{where}: an output block lacks its classes: {css}"
            assert label == ("mlp-output-label", None), f"{where}: an output block is not labelled 'Output'"
            continue
        _, number, continues = want
        assert anchor == f"block-{number}", f"{where}: block {number} rendered with id {anchor!r}"
        if continues is None:
            assert label is None, f"{where}: block {number} continues nothing but is labelled {label}"
        else:
            assert label == ("mlp-continues", f"#block-{continues}"), (
                f"{where}: block {number} continues block {continues} but its label is {label}")
            assert f"block-{continues}" in ids


def expected_blocks(page) -> list:
    """("run", number, number of the block it continues or None) and ("output",), in page order."""
    runnable = pagekit.blocks(page)
    number = {id(block): n for n, block in enumerate(runnable, 1)}
    expected = []
    for block in runnable:
        expected.append(("run", number[id(block)], number[id(block.continues)] if block.continues else None))
        if block.output_fence is not None:
            expected.append(("output",))
    return expected


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_rendered_page_labels_and_anchors(page, site_markdown, monkeypatch):
    monkeypatch.chdir(pagekit.ROOT)  # pymdownx.snippets' base_path is relative to it
    monkeypatch.setenv("MLP_LANG", language_of(page))  # as the build of the page's edition sets it
    decorated = reader_blocks.decorate(page.read_text(encoding="utf-8"), page.name)
    html = site_markdown(without_build_time_code(decorated))
    check_rendered(html, expected_blocks(page), page.name)
    check_label_texts(html, language_of(page), page.name)


SYNTHETIC = """\
A first block.

```python
x = 1
```

<!--mlp:expected-output-->

```text
nothing printed, but an output block all the same
```

<!--mlp:cont-->

```python
y = x + 1
```

```bash
echo other code in between
```

1. An exercise.

    ??? success "Answer"
        <!--mlp:cont-->

        ```python
        print(y)
        ```

        <!--mlp:expected-output-->

        ```text
        2
        ```

=== "A tab"

    ```python
    z = 3
    ```

=== "Another tab"

    <!--mlp:cont-->

    ```python
    print(z)
    ```
"""


SYNTHETIC_LABELS = {
    "en": [
        'Continues <a href="#block-1">the block above</a>: run that one first.',
        # The bash block stands between blocks 2 and 3.
        'Continues <a href="#block-2">an earlier block</a>, which continues an earlier one: run them all first.',
        'Continues <a href="#block-4">the block above</a>: run that one first.',
    ],
    "ru": [
        'Продолжение <a href="#block-1">блока выше</a>: сначала выполните его.',
        'Продолжение <a href="#block-2">одного из блоков выше</a>, который сам продолжает более ранний: '
        'сначала выполните их все по порядку.',
        'Продолжение <a href="#block-4">блока выше</a>: сначала выполните его.',
    ],
}


@pytest.mark.parametrize("language", sorted(SYNTHETIC_LABELS))
def test_synthetic_page_in_lists_admonitions_and_tabs(site_markdown, monkeypatch, language):
    monkeypatch.setenv("MLP_LANG", language)
    html = site_markdown(reader_blocks.decorate(SYNTHETIC, "synthetic.md"))
    check_rendered(html, [("run", 1, None), ("output",), ("run", 2, 1), ("run", 3, 2), ("output",),
                          ("run", 4, None), ("run", 5, 4)], "synthetic.md")
    labels = re.findall(r'<p class="mlp-continues">(.*?)</p>', html, re.DOTALL)
    assert labels == SYNTHETIC_LABELS[language]
    assert html.count(f'<p class="mlp-output-label">{LABELS[language][0]}</p>') == 2
    # The fences inside the admonition and the tab were rendered as code, not as text.
    assert "```" not in html and "{ .mlp" not in html


def test_source_unchanged_where_nothing_is_runnable():
    text = "# Title\n\n```python exec=\"on\"\nprint(1)\n```\n\n```bash\nls\n```\n"
    assert reader_blocks.decorate(text) == text


def test_cont_without_a_block_before_is_a_clear_error():
    with pytest.raises(ValueError, match=r"lesson\.md:3: mlp:cont marker with no python block"):
        reader_blocks.decorate("<!--mlp:cont-->\n\n```python\nx\n```\n", "lesson.md")


def test_output_fence_with_an_info_string_it_cannot_label_is_a_clear_error():
    text = "```python\nprint(1)\n```\n\n<!--mlp:expected-output-->\n\n```text title=\"out\"\n1\n```\n"
    with pytest.raises(ValueError, match=r"lesson\.md:7: an expected-output block needs a plain info string"):
        reader_blocks.decorate(text, "lesson.md")


def test_built_site_has_the_labels(built_site):
    """The step runs in the site's plugin (mkdocs.yml) and its output survives the real build (Material theme,
    markdown-exec, the other steps): every page of both editions as a reader gets it, its labels
    in the page's language."""
    languages = set()
    for page in PAGES:
        path = built(built_site, page)
        html = path.read_text(encoding="utf-8")
        where = f"built {path.relative_to(built_site)}"
        check_rendered(html, expected_blocks(page), where)
        check_label_texts(html, language_of(page), where)
        languages.add(language_of(page))
    assert languages == set(LABELS)

