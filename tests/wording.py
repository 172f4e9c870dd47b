"""Whether a text the build adds for a Russian reader says its words in Russian.

The site plugin's Russian texts keep names (Python, Jupyter, `mlp_ref`), code, addresses and file
names in Latin letters; any other Latin word is English left over. :func:`english_words` lists
those, so that a test of a Russian text fails on the word a translation missed.
"""

from __future__ import annotations

import re

# Names a Russian sentence writes as they are.
NAMES = frozenset({"Python", "Jupyter", "VS Code", "NumPy", "SciPy", "scikit-learn", "matplotlib", "tqdm",
                   "pytest", "PyPI", "SHA-256", "pip", "PyTorch", "MLP", "macOS", "Linux", "Windows", "PowerShell",
                   "JupyterLab"})
_NOT_PROSE = [
    # fenced code, also inside a quote ("> ```bash"), as a downloaded notebook quotes the box
    re.compile(r"^[ \t>]*(`{3,}|~{3,}).*?^[ \t>]*\1", re.DOTALL | re.MULTILINE),
    re.compile(r"^[ \t]*(?:!!!|\?\?\?\+?|===)[ \t]*[\w-]*", re.MULTILINE),  # an admonition's or a tab's type
    re.compile(r"`[^`\n]*`"),  # inline code
    re.compile(r"\]\([^)\s]*\)"),  # a link's target (its text stays)
    re.compile(r"<!--.*?-->", re.DOTALL),  # a marker
    re.compile(r"<[^>]+>"),  # a tag
    re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.DOTALL),  # math
    re.compile(r"https?://\S+"),
    re.compile(r"\([\w.-]+\.(?:ipynb|py|txt|whl)\)"),  # a file's name, "(digits.ipynb)"
]
_WORD = re.compile(r"[A-Za-z]+")


def english_words(text: str, names: frozenset[str] = NAMES) -> list[str]:
    """The Latin-letter words of ``text``'s prose that are not ``names``: code, links' targets,
    markers, tags, math, addresses and file names left out."""
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):  # "VS Code" as a name, not a "Code" of its own
        text = re.sub(rf"(?<![A-Za-z0-9-]){re.escape(name)}(?![A-Za-z0-9])", " ", text)
    return _WORD.findall(text)
