"""Each coding exercise's tests pass on the reference solution and fail on the starter.

An exercise lives in ``docs/exercises/<name>/`` (so the site serves its files for
download): the starter ``<module>.py`` the reader edits, the reader's tests
``test_<module>.py``, and ``solution/<module>.py``. The Russian pages link the Russian twins
``<module>.ru.py`` and ``test_<module>.ru.py``: the same code with Russian docstrings, comments
and messages (the site serves them under the English names at ``ru/exercises/``, the i18n
plugin's localized files). Each test file runs here twice, in a fresh folder, under the name
the reader downloads, as the page tells the reader to run it (``pytest test_<module>.py``):
next to the solution it must pass; next to the untouched starter (of its own language) it must
fail, which proves the tests test something.

A reader may run the tests before installing ``mlp_ref``. Then the tests that compare with
it must skip with a reason that says how to install it (shown by ``pytest -ra``, the
command the lesson gives), and every other test must still run: a third run hides
``mlp_ref`` behind a package of that name that raises ``ModuleNotFoundError``, first on
``PYTHONPATH``.

Each run is kept (mlp_site/cache.py) under a key of everything it depends on (:func:`run_key`)
and reused while that is unchanged, as the site's pages are.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from mlp_site import cache
from tests import early, pagekit

EXERCISES = sorted((pagekit.DOCS / "exercises").glob("*/test_*.py"))  # both editions: test_x.py, test_x.ru.py


def exercise_id(test_file: Path) -> str:
    """``lesson03-forward-pass``, or ``lesson03-forward-pass.ru`` for the Russian twin's tests."""
    return test_file.parent.name + (".ru" if is_russian(test_file) else "")


def is_russian(path: Path) -> bool:
    return path.name.endswith(".ru.py")


def reader_name(path: Path) -> str:
    """The name a reader downloads the file under: ``forward.ru.py`` is served as ``ru/…/forward.py``."""
    return path.name.removesuffix(".ru.py") + ".py" if is_russian(path) else path.name


# What a skipped comparison with mlp_ref must tell the reader (the lesson page has the install line).
INSTALL_HINT = "install mlp_ref: see 'Before you start' on the lesson page"
INSTALL_HINT_RU = "установите mlp_ref: см. «Прежде чем начать» на странице урока"


def run_reader_tests(test_file, module_source, folder, env=None) -> subprocess.CompletedProcess:
    """Run the reader's test file next to ``module_source`` in a new ``folder``, as the lesson says."""
    test_name = reader_name(test_file)
    folder.mkdir(parents=True)
    shutil.copy(test_file, folder / test_name)
    shutil.copy(module_source, folder / test_name.removeprefix("test_"))
    # -ra, as the lesson tells the reader, so that the reason of every skip is printed.
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-ra", "-p", "no:cacheprovider", test_name],
                          cwd=folder, capture_output=True, text=True, timeout=300, env=as_a_reader(env))


def as_a_reader(env: dict[str, str] | None) -> dict[str, str]:
    """``env`` (default: this process's) without the variables by which pytest knows a CI machine (CI,
    BUILD_NUMBER): there it prints each line of the short summary whole, so a failure's message is said
    twice; the run must print what a reader's terminal shows."""
    env = dict(os.environ if env is None else env)
    for name in ("CI", "BUILD_NUMBER"):
        env.pop(name, None)
    return env


def outcome_counts(result: subprocess.CompletedProcess) -> dict[str, int]:
    """{"passed": 9, "skipped": 1, ...} from pytest's closing line."""
    last = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|skipped|failed|errors?|xfailed|xpassed)", last)}


def without_mlp_ref(tmp_path) -> dict[str, str]:
    """An environment in which ``import mlp_ref`` fails as it does where it is not installed."""
    blocker = tmp_path / "blocker" / "mlp_ref"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text(
        'raise ModuleNotFoundError("No module named \'mlp_ref\'", name="mlp_ref")\n', encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(blocker.parent), env.get("PYTHONPATH")]))
    return env


def solution_of(test_file):
    """The reference solution (one for both editions: the lessons link it as code to read)."""
    return test_file.parent / "solution" / reader_name(test_file).removeprefix("test_")


def starter_of(test_file):
    """The starter of the test file's own language (``forward.ru.py`` beside ``test_forward.ru.py``)."""
    return test_file.parent / test_file.name.removeprefix("test_")


def run_all(config: pytest.Config) -> dict:
    """Every exercise's three runs (solution, solution without mlp_ref, untouched starter).

    They are independent processes, so they run side by side on every core, in the background
    from the end of collection (tests/early.py); each test below reads its own run.
    Returns {(exercise folder, kind): CompletedProcess}.
    """
    jobs = {}
    for test_file in EXERCISES:
        name = exercise_id(test_file)
        folder = early.new_folder(config, f"{name}-")
        for kind, source in (("solution", solution_of(test_file)), ("starter", starter_of(test_file))):
            assert source.is_file(), f"no {kind} file at {source}"
            jobs[name, kind] = (test_file, source, folder / kind, None)
        jobs[name, "without mlp_ref"] = (test_file, solution_of(test_file), folder / "without",
                                         without_mlp_ref(folder))
    entries = {key: run_key(job) for key, job in jobs.items()}  # each key hashes all of mlp_ref: once
    done = {key: reused(entries[key]) for key in jobs}
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = {key: pool.submit(run_reader_tests, *job) for key, job in jobs.items() if done[key] is None}
        for key, future in futures.items():
            done[key] = keep(entries[key], future.result())
    return done


# --- runs kept under a key of everything they depend on (mlp_site/cache.py) ---------------------
def run_key(job, root: Path = pagekit.ROOT) -> str:
    """The key of what a run depends on: the exercise, the run's kind, the test file, the module
    beside it, whether mlp_ref is hidden, every file of mlp_ref (the run imports the installed,
    editable package), the pins and the Python (pytest and its plugins are pinned), and this
    module (how a run is made)."""
    test_file, source, folder, env = job
    return cache.key("exercise", exercise_id(test_file), folder.name, env is not None, test_file, source,
                     Path(__file__), root / "requirements.txt",
                     *cache.files(sorted((root / "mlp_ref").rglob("*.py")), root))


def reused(key: str) -> subprocess.CompletedProcess | None:
    stored = cache.load("reader", key)
    if stored is None:
        return None
    return subprocess.CompletedProcess(stored["args"], stored["returncode"], stored["stdout"], stored["stderr"])


def keep(key: str, result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    """Keep a run whose tests ran (exit 0 or 1); one that could not even run is tried again next time."""
    if result.returncode in (0, 1):
        cache.save("reader", key, {"args": result.args, "returncode": result.returncode,
                                   "stdout": result.stdout, "stderr": result.stderr})
    return result




@pytest.fixture(scope="module")
def runs(pytestconfig):
    return early.result("exercises", pytestconfig)


@pytest.mark.parametrize("test_file", EXERCISES, ids=[exercise_id(p) for p in EXERCISES])
def test_solution_passes(test_file, runs):
    result = runs[exercise_id(test_file), "solution"]
    assert result.returncode == 0, result.stdout + result.stderr
    # With mlp_ref installed (as here) nothing may be skipped: the comparisons really ran.
    assert "skipped" not in outcome_counts(result), result.stdout + result.stderr


@pytest.mark.parametrize("test_file", EXERCISES, ids=[exercise_id(p) for p in EXERCISES])
def test_solution_passes_without_mlp_ref(test_file, runs):
    with_ref = outcome_counts(runs[exercise_id(test_file), "solution"])
    result = runs[exercise_id(test_file), "without mlp_ref"]
    output = result.stdout + result.stderr
    counts = outcome_counts(result)
    assert result.returncode == 0, f"{test_file.name} does not pass without mlp_ref:\n{output}"
    assert counts.get("skipped", 0) >= 1, f"{test_file.name}: no test skipped without mlp_ref (blocker not used?)\n{output}"
    # Every test that does not need mlp_ref still ran and passed.
    assert counts["passed"] + counts["skipped"] == with_ref["passed"], output
    skip_lines = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skip_lines) >= 1, f"no skip reason printed with -ra:\n{output}"
    hint = INSTALL_HINT_RU if is_russian(test_file) else INSTALL_HINT  # in the reader's language
    for line in skip_lines:
        assert hint in line, f"a skip reason does not say how to install mlp_ref: {line!r}"


@pytest.mark.parametrize("test_file", EXERCISES, ids=[exercise_id(p) for p in EXERCISES])
def test_untouched_starter_fails(test_file, runs):
    result = runs[exercise_id(test_file), "starter"]
    # Exit code 1 means tests ran and failed; 2-5 would mean they could not even run.
    assert result.returncode == 1, result.stdout + result.stderr


def test_a_kept_run_is_keyed_on_everything_it_depends_on(tmp_path):
    """Any edit of the files a run reads, or hiding mlp_ref, gives a new key: no old run is reused."""
    shutil.copytree(pagekit.ROOT / "mlp_ref", tmp_path / "mlp_ref", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(pagekit.ROOT / "requirements.txt", tmp_path / "requirements.txt")
    test_file = EXERCISES[0]
    shutil.copytree(test_file.parent, tmp_path / "exercise")
    job = (tmp_path / "exercise" / test_file.name, tmp_path / "exercise" / "solution" / solution_of(test_file).name,
           tmp_path / "run", None)
    keys = {run_key(job, tmp_path)}
    for path in (job[1], job[0], tmp_path / "mlp_ref" / "activations.py", tmp_path / "requirements.txt"):
        path.write_text(path.read_text(encoding="utf-8") + "\n# one more line\n", encoding="utf-8")
        keys.add(run_key(job, tmp_path))
    keys.add(run_key((*job[:3], {"PYTHONPATH": "blocker"}), tmp_path))
    assert len(keys) == 6


def _code_of(path: Path) -> str:
    """A Python file's code without its words: comments dropped, every string literal (docstrings,
    messages) emptied, except the patterns of ``pytest.raises(match=...)``, which are code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kept = {id(k.value) for node in ast.walk(tree) if isinstance(node, ast.Call)
            for k in node.keywords if k.arg == "match"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in kept:
            node.value = ""
    return ast.dump(tree, include_attributes=False)


TWINS = [p for p in sorted((pagekit.DOCS / "exercises").glob("*/*.py")) if not is_russian(p)]


@pytest.mark.parametrize("english", TWINS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_starter_and_test_file_has_a_russian_twin_with_the_same_code(english):
    """The Russian reader downloads the same exercise: only docstrings, comments and messages differ."""
    russian = english.with_name(english.name.removesuffix(".py") + ".ru.py")
    assert russian.is_file(), f"no Russian twin {russian.relative_to(pagekit.DOCS)}"
    assert _code_of(russian) == _code_of(english), f"{russian.name}: its code differs from {english.name}'s"
    text = russian.read_text(encoding="utf-8")
    assert re.search(r"[А-Яа-яЁё]", ast.get_docstring(ast.parse(text)) or ""), f"{russian.name}: its docstring is not Russian"


def test_a_twin_with_other_code_is_found(tmp_path):
    en, ru = tmp_path / "f.py", tmp_path / "f.ru.py"
    en.write_text('"""Doc."""\nx = 1  # one\nraise ValueError("bad x")\n', encoding="utf-8")
    ru.write_text('"""Док."""\nx = 1  # один\nraise ValueError("плохой x")\n', encoding="utf-8")
    assert _code_of(en) == _code_of(ru)
    ru.write_text('"""Док."""\nx = 2\nraise ValueError("плохой x")\n', encoding="utf-8")
    assert _code_of(en) != _code_of(ru)
    en.write_text('with pytest.raises(ValueError, match="X"):\n    f()\n', encoding="utf-8")
    ru.write_text('with pytest.raises(ValueError, match="Х"):\n    f()\n', encoding="utf-8")
    assert _code_of(en) != _code_of(ru)


# --- what a failing run says (issue 36) ---------------------------------------------------------
# The starter's run says once which functions are still the starter's, in a few lines, instead of
# the same NotImplementedError once per test; a wrong gradient is said in words, without array dumps.
STARTER_LINES = 40  # at most this many lines of output from an untouched starter's run


@pytest.mark.parametrize("test_file", EXERCISES, ids=[exercise_id(p) for p in EXERCISES])
def test_the_untouched_starter_says_once_what_is_left_to_write(test_file, runs):
    result = runs[exercise_id(test_file), "starter"]
    output = result.stdout + result.stderr
    counts = outcome_counts(result)
    messages = re.findall(r"""raise NotImplementedError\(["'](.*?)["']\)\s*$""",
                          starter_of(test_file).read_text(encoding="utf-8"), re.MULTILINE)
    problems = []
    if counts.get("failed") != 1 or set(counts) - {"failed", "skipped"}:
        problems.append(f"expected 1 failed test (the one that names what is left to write) and the rest skipped, "
                        f"found {counts}")
    for message in messages:
        said = len(re.findall(rf"""NotImplementedError\(["']{re.escape(message)}["']\)""", output))
        if said != 1:
            problems.append(f"the starter's NotImplementedError({message!r}) is said {said} times, expected once")
    if output.count("NotImplementedError") != len(messages):
        problems.append(f"NotImplementedError is said {output.count('NotImplementedError')} times, expected once for "
                        f"each of the starter's {len(messages)} functions")
    if len(output.splitlines()) > STARTER_LINES:
        problems.append(f"{len(output.splitlines())} lines of output, expected at most {STARTER_LINES}")
    assert problems == [], f"{test_file.name} on the untouched starter: " + "; ".join(problems) + f"\n{output}"


# The lesson 5 solution with one mistake: relu' taken at the layer's output A instead of Z (the
# same here, both > 0 where on), so the mistake is a dropped factor: each hidden delta halved.
WRONG_BACKWARD = ("delta = (delta @ weights[l].T) * (Z[l - 1] > 0.0)", "delta = 0.5 * (delta @ weights[l].T) * (Z[l - 1] > 0.0)")


@pytest.mark.parametrize("test_file", [p for p in EXERCISES if p.parent.name == "lesson05-backprop"],
                         ids=lambda p: exercise_id(p))
def test_a_wrong_gradient_is_said_in_words(test_file, tmp_path):
    """A backward pass with one wrong factor: the gradient check names the gradient, its relative
    error and the bound, and says where to look, in the reader's language; no array is dumped."""
    solution = solution_of(test_file).read_text(encoding="utf-8")
    assert WRONG_BACKWARD[0] in solution, f"{solution_of(test_file)} no longer has the line {WRONG_BACKWARD[0]!r}"
    wrong = tmp_path / "backward.py"
    wrong.write_text(solution.replace(*WRONG_BACKWARD), encoding="utf-8")
    result = run_reader_tests(test_file, wrong, tmp_path / "run")
    output = result.stdout + result.stderr
    said = (re.search(r"относительная ошибка dW1 равна [\d.e+-]+ \(ожидалось < 1e-6\)", output) if is_russian(test_file)
            else re.search(r"relative error of dW1 is [\d.e+-]+ \(expected < 1e-6\): check", output))
    assert result.returncode == 1 and said, f"{test_file.name} on a backward pass with halved hidden deltas: " \
        f"no sentence naming dW1's relative error and its bound:\n{output}"
    dumps = [line for line in output.splitlines() if re.search(r"np\.float64\(|array\(\[|Max absolute difference", line)]
    assert dumps == [], f"{test_file.name}: the failure dumps numbers instead of saying them: {dumps[:5]}"


BLOCK = ("MODULE", "left_to_write", "LEFT_TO_WRITE", "names_used", "test_every_function_is_written", "skip_until_written")


def left_to_write_block(path: Path) -> list[str]:
    """The code of the block that names what is left to write, in a test file (its words emptied)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        names = [node.name] if isinstance(node, ast.FunctionDef) else [t.id for t in getattr(node, "targets", [])
                                                                        if isinstance(t, ast.Name)]
        for name in set(names) & set(BLOCK):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    inner.value = ""
            found[name] = ast.dump(node, include_attributes=False)
    return [found.get(name, f"no {name}") for name in BLOCK]


def test_every_exercise_has_the_same_left_to_write_block():
    """The block is copied into each exercise's tests (a reader downloads only the test file and the
    starter): every copy has the same code as lesson 5's English one."""
    reference = pagekit.DOCS / "exercises" / "lesson05-backprop" / "test_backward.py"
    expected = left_to_write_block(reference)
    differ = {p.relative_to(pagekit.DOCS).as_posix(): [name for name, a, b in zip(BLOCK, left_to_write_block(p), expected)
                                                        if a != b]
              for p in EXERCISES}
    differ = {path: names for path, names in differ.items() if names}
    assert differ == {}, f"these copies of {reference.name}'s left-to-write block differ from it: {differ}"
