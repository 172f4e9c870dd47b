"""A reading aid: the sentences of a page that say how something behaves, and what backs them.

    .venv/bin/python -m tests.claim_sentences docs/lessons/02-depth-and-xor.md [more pages ...]

The rule (README.md, "How to add a lesson", step 3; CONTRIBUTING.md): a sentence that says how
something behaves ("cannot", "never", "always", "only", "every", "at most", a factor, a cause) is
checked by code in the build (``claim(...)`` or an assertion) or cited. This lists every such
sentence of a page (a lesson's Markdown, a lab's Markdown cells; Russian words for a ``.ru.``
twin) with what stands beside it:

* ``claim``: a code block of the same section calls ``claim(`` or ``assert``, itself or in the
  generator function it calls (``print(lesson05.step_table())``: read in
  ``mlp_ref/course/generators/lesson05.py``, with the module's functions that one calls);
* ``output``: a code block of the same section has an output the build compares;
* ``cite``: the sentence names a year, a link or "et al." (its source is in the page's Sources);
* ``-``: nothing; a reviewer decides whether the sentence needs a check, a citation or
  other words.

It is not a gate and keeps no allow-list: the words are a net for a reader, not a rule.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from prose.structure import generator_calls

WORDS = {
    "en": r"cannot|can't|can never|never|always|only|every|at most|at least|no \w+ can|"
          r"twice|\w+ times|doubl\w*|halv\w*|factor|fold\b|because|since|so that|therefore|causes?|due to|leads? to",
    "ru": r"не мож\w+|не сможет|нельзя|никогда|всегда|только|лишь|кажд\w+|люб\w+|не больше|не более|"
          r"не меньше|вдвое|в \S+ раза?\b|множител\w+|потому что|поскольку|так как|из-за|поэтому|"
          r"следовательно|приводит к",
}
_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*?)\n(.*?)^\1\2[ \t]*$", re.DOTALL | re.MULTILINE)
_HEADING = re.compile(r"^#{1,6} ", re.MULTILINE)
_CITE = re.compile(r"\b(1[89]\d\d|20\d\d)\b|https?://|\]\(http|et al\.|и др\.|и соавтор")
_MARKER = re.compile(r"^[ \t]*(?:\?\?\?\+?|!!!|===)[ \t]*[\w-]*(?:[ \t]+\"[^\"]*\")?", re.MULTILINE)
_SOURCES = re.compile(r"^## (?:Sources|Источники)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"«(*\[]?[A-ZА-ЯЁ\\])")


@dataclass(frozen=True)
class Sentence:
    line: int       # 1-based line of the page where the sentence's paragraph starts
    text: str
    backing: str    # "claim", "output", "cite" or "-"


def markdown_of(path: Path) -> str:
    """The page as Markdown: a lesson as it is; a lab (jupytext percent format) with its Markdown
    cells uncommented and its code cells fenced, line for line, so line numbers stay the page's."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    out, kind = [], None
    for line in text.split("\n"):
        if line.startswith("# %%"):
            if kind == "code":
                out[-1] += "\n```"  # close the previous code cell on its last line
            kind = "markdown" if "[markdown]" in line else "code"
            out.append("```python" if kind == "code" else "")
        elif kind == "markdown":
            out.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
        else:
            out.append(line)
    if kind == "code":
        out[-1] += "\n```"
    return "\n".join(out)


def _section_backing(code: list[str]) -> str:
    if any("claim(" in c or re.search(r"^\s*assert\b", c, re.MULTILINE) for c in code):
        return "claim"
    return "output" if any(c == "output" for c in code) else "-"


def sentences(markdown: str, language: str) -> list[Sentence]:
    """Every sentence of ``markdown``'s prose with a behaviour word of ``language`` ("en", "ru")."""
    if language not in WORDS:
        raise ValueError(f"language: expected one of {sorted(WORDS)}, received {language!r}")
    words = re.compile(rf"(?<!\w)(?:{WORDS[language]})(?!\w)", re.IGNORECASE)
    found = []
    starts = [0, *(m.start() for m in _HEADING.finditer(markdown)), len(markdown)]
    generated = generator_calls(markdown)
    for start, end in zip(starts, starts[1:]):
        section = markdown[start:end]
        if _SOURCES.match(section):
            continue  # the citations themselves
        code = [m[4] for m in _FENCE.finditer(section)]
        code += [call.source for call in generated if start <= call.offset < end]
        code += ["output" for _ in re.finditer(r"<!--mlp:expected-output-->", section)]
        backing = _section_backing(code)
        prose = _FENCE.sub(lambda m: "\n" * m[0].count("\n"), section)
        prose = re.sub(r"<!--.*?-->", lambda m: "\n" * m[0].count("\n"), prose, flags=re.DOTALL)
        prose = _MARKER.sub("", prose)  # an admonition's or a tab's marker, not a sentence
        line0 = markdown.count("\n", 0, start) + 1
        for paragraph in re.finditer(r"(?:^[ \t]*\S.*\n?)+", prose, re.MULTILINE):
            first = line0 + prose.count("\n", 0, paragraph.start())
            flat = " ".join(paragraph[0].split())
            if flat.startswith("#") or flat.startswith("|"):
                continue  # a heading or a table row
            for text in _SENTENCE_END.split(flat):
                if words.search(text):
                    found.append(Sentence(first, text, "cite" if _CITE.search(text) else backing))
    return found


def main(paths: list[str]) -> int:
    if not paths:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    for name in paths:
        path = Path(name)
        if not path.is_file():
            print(f"{name}: expected a page (docs/lessons/NN-name.md or docs/labs/L.py), no such file", file=sys.stderr)
            return 2
        found = sentences(markdown_of(path), "ru" if ".ru." in path.name else "en")
        for s in found:
            print(f"{path}:{s.line}: [{s.backing}] {s.text}")
        counts = {b: sum(s.backing == b for s in found) for b in ("claim", "output", "cite", "-")}
        print(f"{path}: {len(found)} sentences; " + ", ".join(f"{b}: {n}" for b, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
