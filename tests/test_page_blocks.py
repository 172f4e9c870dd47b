"""The one run of the page blocks (mlp_site.block_runner) and the items that report it (tests/page_blocks.py)."""

from __future__ import annotations

import hashlib

import pytest

from tests import page_blocks, pagekit

from mlp_site import block_run, block_runner, verification

PAGE = """\
```python
print(6 * 7)
```

<!--mlp:expected-output-->

```text
42
```
"""


def run(*codes: str) -> list[dict]:
    """One segment: each block continuing the one before."""
    return block_runner.run_segment([{"code": code, "needs": None} for code in codes])


def test_a_continued_block_runs_in_the_namespace_the_block_before_left():
    results = run("x = [1]\n", "x.append(2)\nprint(x)\n", "x.append(3)\nprint(x)\n")
    assert [r["output"] for r in results] == ["", "[1, 2]\n", "[1, 2, 3]\n"]
    assert run("print(__name__)\n")[0]["output"] == "__main__\n"  # as a reader's script


def test_a_block_that_raises_stops_its_segment():
    first, second = run("x = 1\nraise RuntimeError('half run')\n", "print(x)\n")
    assert "RuntimeError: half run" in first["error"]
    assert second["skipped"] == "an earlier block of its chain raised an error" and second["output"] == ""


def test_a_warning_is_an_error_and_a_missing_module_skips_the_rest_of_the_segment():
    assert "UserWarning" in run("import warnings; warnings.warn('careful')\n")[0]["error"]
    first, second = block_runner.run_segment([{"code": "print(1)\n", "needs": "no_such_module_here"},
                                              {"code": "print(2)\n", "needs": None}])
    assert first["skipped"] == second["skipped"] == "needs no_such_module_here, which is not installed"


def test_what_a_block_writes_to_stderr_is_recorded_and_fails_the_build(caplog, block):
    """A reader sees stderr beside the output (a terminal, a notebook's red box); the page does not show it."""
    assert run("import sys\nprint('slow', file=sys.stderr)\n")[0]["stderr"] == "slow\n"
    record = verification.PageRecord("made-up.md", source="docs/made-up.md")
    result = {"output": "42\n", "stderr": "slow\n", "seconds": 0.0, "error": None, "skipped": None}
    verification.check_blocks(record, [(block, result)])
    assert record.failed == ["block 1 (line 1) wrote to stderr, which the page does not show"]
    assert record.runs[0]["verdict"] == "wrote to stderr" and "slow" in caplog.text  # a warning fails --strict


def entry(block, **changes) -> dict:
    """The build's record of ``block`` (mlp_site.verification's check_blocks) as if it matched."""
    return {"page": "made-up.md", "line": block.lineno, "code_sha256": hashlib.sha256(block.code.encode()).hexdigest(),
            "expected": block.expected, "output": block.expected, "error": None, "skipped": None,
            "verdict": "matched", "why": "printed exactly what the page shows", "detail": ""} | changes


def judged(block, **result) -> dict:
    """The record's entry that the build's own verdict (verification.check_blocks) makes of ``result``."""
    record = verification.PageRecord("made-up.md", source="docs/made-up.md")
    verification.check_blocks(record, [(block, {"output": "", "stderr": "", "seconds": 0.0, "error": None,
                                                "skipped": None} | result)])
    return record.runs[0]


@pytest.fixture
def block():
    return pagekit.page_code.page_blocks(PAGE, "docs/made-up.md")[0]


def test_an_item_passes_when_the_build_printed_what_the_page_shows(block):
    page_blocks.check(block, entry(block))


def test_an_item_fails_with_page_line_and_diff_when_the_output_differs(block):
    with pytest.raises(page_blocks.BlockFailure) as failure:
        page_blocks.check(block, judged(block, output="43\n"))
    assert str(failure.value).startswith("docs/made-up.md:1: printed output differs from the page")
    assert "-42\n+43" in str(failure.value)


def test_an_item_fails_with_the_traceback_when_the_block_raised(block):
    with pytest.raises(page_blocks.BlockFailure, match=r"(?s)docs/made-up.md:1: raised an error.*ValueError: no"):
        page_blocks.check(block, entry(block, output="", error="Traceback ...\nValueError: no\n", verdict="raised",
                                       why="raised an error", detail="Traceback ...\nValueError: no\n"))


def test_an_item_fails_without_its_entry_or_with_another_blocks_code(block):
    with pytest.raises(page_blocks.BlockFailure, match="has no entry for this block\nthe build failed"):
        page_blocks.check(block, None, "the build failed")
    with pytest.raises(page_blocks.BlockFailure, match="the build ran other code at this line"):
        page_blocks.check(block, entry(block, code_sha256="0" * 64))


def test_an_item_is_skipped_when_its_block_needed_a_missing_module(monkeypatch):
    block = pagekit.page_code.page_blocks("<!--mlp:importorskip(torch)-->\n" + PAGE, "docs/made-up.md")[0]
    monkeypatch.delenv("MLP_REQUIRE_OPTIONAL", raising=False)
    with pytest.raises(pytest.skip.Exception, match="needs torch"):
        page_blocks.check(block, judged(block, skipped="needs torch, which is not installed"))
    monkeypatch.setenv("MLP_REQUIRE_OPTIONAL", "1")
    with pytest.raises(pytest.fail.Exception, match="MLP_REQUIRE_OPTIONAL is set"):
        page_blocks.check(block, judged(block, skipped="needs torch, which is not installed"))


def test_an_item_fails_when_its_block_did_not_run_after_an_earlier_block_raised():
    chained = PAGE + "\n<!--mlp:cont-->\n\n```python\nprint(1)\n```\n"
    first, second = pagekit.page_code.page_blocks(chained, "docs/made-up.md")
    with pytest.raises(page_blocks.BlockFailure, match="did not run\nan earlier block of its chain raised"):
        page_blocks.check(second, entry(second, output="", skipped="an earlier block of its chain raised an error",
                                        verdict="not run", why="an earlier block of its chain raised an error"))


def test_a_blocks_key_reads_its_code_mlp_ref_the_runner_and_the_pins_not_the_prose_or_the_plugin():
    """A word of the verification line (site_plugin/mlp_site/words.py, verification.py) or of prose/ runs
    no block again; an edit of an mlp_ref module the code imports, of the runner or of the pins does."""
    code = block_run.runs_text(pagekit.page_code.page_blocks(PAGE.replace("print(", "import mlp_ref\nprint("),
                                                                "docs/made-up.md"))
    inputs = set(block_run.block_inputs(code))
    root, plugin = pagekit.ROOT, pagekit.ROOT / "site_plugin" / "mlp_site"
    assert {root / "mlp_ref" / "activations.py", plugin / "block_runner.py", root / "requirements.txt"} <= inputs
    assert not inputs & {plugin / "verification.py", plugin / "words.py", root / "mkdocs.yml"}
    assert not [path for path in inputs if path.is_relative_to(root / "prose")]


def test_a_check_of_the_whole_site_waits_for_a_build_that_passed(monkeypatch, tmp_path):
    """A failed page is reported by its own items and the build's report; a check of the whole site is
    skipped in one line that names it (each would fail again on it), and fails if no site was written."""
    builds = {"passed": page_blocks.Build(tmp_path, 8000, None),
              "failed": page_blocks.Build(tmp_path, 8000, "exit 1", ["docs/lessons/04-x.md: boom", "no page"]),
              "stopped": page_blocks.Build(tmp_path, None, "exit 1")}
    monkeypatch.setattr(page_blocks.early, "result", lambda name, config: builds[config])
    assert page_blocks.site_and_port("passed") == (tmp_path, 8000)
    with pytest.raises(pytest.skip.Exception, match=r"the strict build failed \(tests/test_site_build\.py"):
        page_blocks.site_and_port("failed")
    with pytest.raises(pytest.fail.Exception, match="stopped before it wrote every page"):
        page_blocks.site_and_port("stopped")


def test_a_page_is_judged_as_soon_as_its_last_block_has_run(tmp_path):
    # Page B's block waits for a file that the callback of page A's end writes: if the build heard of
    # a page's end only when every page had run, B would give up waiting and print so.
    signal = tmp_path / "a-ended"
    wait = (f"import pathlib, time\nfor _ in range(300):\n    if pathlib.Path({str(signal)!r}).exists(): break\n"
            "    time.sleep(0.1)\nprint('A was judged first' if pathlib.Path(" + repr(str(signal)) + ").exists() "
            "else 'B ran before A was judged')\n")
    pages = {name: pagekit.page_code.segments(pagekit.page_code.page_blocks(f"```python\n{code}```\n", name))
             for name, code in (("a.md", "print('a')\n"), ("b.md", wait))}
    ended = []

    def judged(src, pairs):
        ended.append(src)
        if src == "a.md":
            signal.write_text("")

    results = block_run.BlockRun(pages, ended=judged).results()
    assert ended == ["a.md", "b.md"]
    assert results["b.md"][0][1]["output"] == "A was judged first\n", results["b.md"][0][1]
