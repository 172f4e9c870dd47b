"""Every ``assert`` in a page's generator carries a message that starts with the page's name (issue 33).

A generator's assert checks a claim its page makes; when one fails in the build, its message is all
the author sees. The rule checked here: the message is a string (a plain string, an f-string, or a
sum whose first term is one) that starts with the page's name, as the module's file name gives it,
followed by ``:`` or ``,``: ``lesson04.py`` -> "lesson 4", ``lab_a.py`` -> "lab a" (letters compared
without case, so "Lab A:" passes), ``home.py`` -> "home". What was expected and found is for a
reader to judge; the page's name is what a test can check.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import mlp_ref.course.generators as generators

GENERATORS = sorted(p for p in Path(generators.__file__).parent.glob("*.py") if p.name != "__init__.py")


def page_name(path: Path) -> str:
    """The page's name a message starts with, from the module's file name ("lesson04.py" -> "lesson 4")."""
    stem = path.stem
    if m := re.fullmatch(r"lesson(\d+)", stem):
        return f"lesson {int(m.group(1))}"
    if m := re.fullmatch(r"lab_([a-z])", stem):
        return f"lab {m.group(1)}"
    return stem.replace("_", " ")


def leading_text(msg: ast.expr) -> str | None:
    """The literal text a message starts with, or None when it is not a string (a tuple, a name, a call).

    An f-string's leading literal part counts; of ``"..." + x`` the left-most term does.
    """
    while isinstance(msg, ast.BinOp) and isinstance(msg.op, ast.Add):
        msg = msg.left
    if isinstance(msg, ast.Constant) and isinstance(msg.value, str):
        return msg.value
    if isinstance(msg, ast.JoinedStr):
        first = msg.values[0] if msg.values else None
        return first.value if isinstance(first, ast.Constant) else ""
    return None


def problems(path: Path) -> list[str]:
    """One line per assert in ``path`` that breaks the rule: "file:line: what is wrong"."""
    name = page_name(path)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if not isinstance(node, ast.Assert):
            continue
        where = f"{path.name}:{node.lineno}"
        if node.msg is None:
            found.append(f"{where}: assert without a message (expected one starting with {name!r})")
            continue
        text = leading_text(node.msg)
        if text is None:
            found.append(f"{where}: the message is a {type(node.msg).__name__}, not a string "
                         f"starting with {name!r}")
        elif not re.match(rf"{re.escape(name)}[:,]", text, flags=re.IGNORECASE):
            found.append(f"{where}: the message starts {text[:40]!r}; expected {name!r} and ':' or ','")
    return found


def test_every_generator_assert_names_its_page():
    """No assert in mlp_ref/course/generators/*.py lacks a message that starts with its page's name."""
    assert len(GENERATORS) >= 12, f"expected the generator modules of 12 pages; found {[p.name for p in GENERATORS]}"
    bad = [line for path in GENERATORS for line in problems(path)]
    assert not bad, "asserts whose message does not name the page:\n" + "\n".join(bad)


def test_the_rule_catches_a_bare_assert(tmp_path):
    """The checker itself: a bare assert, a tuple message and another page's name are all caught."""
    module = tmp_path / "lesson04.py"
    module.write_text("assert x\n"
                      "assert x, (a, b)\n"
                      "assert x, f'lesson 40: {a}'\n"
                      "assert x, f'lesson 4: the page says {a}'\n"
                      "assert x, 'Lesson 4, exercise 2: ' + s\n", encoding="utf-8")
    assert [line.split(":")[1] for line in problems(module)] == ["1", "2", "3"], problems(module)
