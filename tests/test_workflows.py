"""The GitHub workflows pass zizmor and actionlint, pin every action to a commit, and use no retired runtime.

Both tools are pinned in requirements.txt and run offline, so this costs well under a second.
zizmor (security: unpinned actions, credentials left in ``.git/config``, excessive
permissions, template injection, ...) runs with its pedantic persona and fails on any finding
above "informational"; actionlint (syntax, expressions, action inputs, runtimes) fails on any
finding. actionlint knows each popular action's runtime only by its tag (``@v7``), never by a
commit, so the runtime check lints a copy of each ``uses:`` line at the major version that its
comment names.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import pagekit

WORKFLOWS = pagekit.ROOT / ".github" / "workflows"
ZIZMOR_CONFIG = pagekit.ROOT / ".github" / "zizmor.yml"
BIN = Path(sys.executable).parent
# owner/repo[/path]@<40 hex> # vMAJOR[.MINOR[.PATCH]]
PINNED = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<action>[\w.-]+/[\w./-]+)@(?P<ref>\S+)(?:\s+#\s*(?P<version>\S+))?\s*$")


def tool(name: str) -> str:
    path = BIN / name
    if not path.is_file():
        pytest.fail(f"{name} is not installed in {BIN}: it is pinned in requirements.txt (run make test, "
                    "which installs the pins)", pytrace=False)
    return str(path)


def uses_lines() -> list[tuple[str, re.Match]]:
    """Every ``uses:`` line of every workflow, as (``file:line``, match)."""
    found = []
    for workflow in sorted(WORKFLOWS.glob("*.y*ml")):
        for number, line in enumerate(workflow.read_text(encoding="utf-8").splitlines(), start=1):
            if re.match(r"^\s*(?:-\s+)?uses:", line):
                match = PINNED.match(line)
                assert match, f"{workflow.name}:{number}: cannot read this uses: line: {line.strip()}"
                found.append((f"{workflow.name}:{number}", match))
    return found


def zizmor_findings(path: Path) -> list[str]:
    """zizmor's findings above "informational" on the workflows under ``path``, one line each."""
    result = subprocess.run([tool("zizmor"), "--offline", "--persona", "pedantic", "--config", str(ZIZMOR_CONFIG),
                             "--min-severity", "low", "--format", "json", "--no-progress", str(path)],
                            capture_output=True, text=True, timeout=120)
    if result.returncode not in (0, 11, 12, 13, 14):  # 1x: findings, whose highest severity is x
        pytest.fail(f"zizmor failed to run (exit {result.returncode}):\n{result.stderr[-3000:]}", pytrace=False)
    return [f"{finding['ident']} ({finding['determinations']['severity']}): {finding['desc']}: "
            + "; ".join(f"line {loc['concrete']['location']['start_point']['row'] + 1}: {loc['concrete']['feature']}"
                        for loc in finding["locations"] if loc["symbolic"]["kind"] == "Primary")
            for finding in json.loads(result.stdout or "[]")]


def actionlint_findings(cwd: Path) -> list[str]:
    """actionlint's findings on the workflows of the repository at ``cwd``, one line each."""
    result = subprocess.run([tool("actionlint"), "-oneline", "-no-color"], cwd=cwd, capture_output=True,
                            text=True, timeout=120)
    if result.returncode not in (0, 1):  # 1: findings
        pytest.fail(f"actionlint failed to run (exit {result.returncode}):\n{result.stderr[-3000:]}", pytrace=False)
    return result.stdout.splitlines()


def test_zizmor_finds_nothing_above_informational():
    assert zizmor_findings(WORKFLOWS) == []


def test_actionlint_finds_nothing():
    assert actionlint_findings(pagekit.ROOT) == []


def test_every_action_is_pinned_to_a_commit_with_its_release_in_a_comment():
    lines = uses_lines()
    assert lines, "no uses: line found: has the workflow folder moved?"
    bad = [f"{where}: {match['action']}@{match['ref']} # {match['version']}" for where, match in lines
           if not re.fullmatch(r"[0-9a-f]{40}", match["ref"]) or not re.fullmatch(r"v\d+(\.\d+){0,2}",
                                                                                  match["version"] or "")]
    assert bad == [], "pin each action to a full commit SHA with its release tag as a comment ('@<sha> # v1.2.3')"


def test_no_action_runs_on_a_deprecated_runtime(tmp_path):
    """Each pinned action, at the major release its comment names, is known to actionlint and not deprecated.

    A made-up input makes actionlint prove that it knows the action (it lists the inputs of the
    actions it knows); a runtime it knows to be deprecated or retired is reported as well.
    """
    # An action pinned by tag alone (which the test above rejects) names its release in the ref.
    actions = sorted({(match["action"], (match["version"] or match["ref"]).split(".")[0]) for _, match in uses_lines()})
    steps = "".join(f"      - uses: {action}@{major}\n        with: {{no-such-input: 1}}\n" for action, major in actions)
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "runtimes.yml").write_text(f"on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n{steps}",
                                            encoding="utf-8")
    subprocess.run(["git", "init", "--quiet", str(tmp_path)], check=True)  # actionlint looks for the repository root
    findings = actionlint_findings(tmp_path)
    unknown = [f"{action}@{major}" for action, major in actions
               if not any(f'"no-such-input" is not defined in action "{action}@{major}"' in line for line in findings)]
    assert unknown == [], "actionlint does not know these actions, so it cannot check their runtime"
    # The probe passes only the made-up input, so an action's required inputs are reported missing.
    assert [line for line in findings if "no-such-input" not in line and "missing input" not in line] == []


def test_only_the_test_workflow_restores_a_cache():
    """The published site is built from nothing: a restored cache could answer for pages with
    another run's outputs. The test workflow restores .cache/ (its entries are content-keyed)."""
    restoring = {where.split(":")[0] for where, match in uses_lines() if match["action"] == "actions/cache"}
    pages = (WORKFLOWS / "pages.yml").read_text(encoding="utf-8")
    assert restoring == {"ci.yml"}
    assert not re.search(r"^\s*cache(-dependency-path)?:", pages, re.M), "setup-python's cache: in pages.yml"
