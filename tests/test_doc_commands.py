"""Every shell command of the README and the docs, run as a reader types it.

Each command of a ``bash`` block meets exactly one rule of :data:`RULES`, so a command added to
the docs without a way to run it fails here, and a renamed flag or subcommand fails the command
that shows it. A ``run`` that would take long runs with ``--dry-run`` added (every option and
value parsed and planned, nothing run); the quick study also runs in full under ``-m slow``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.cli

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
HOST = "127.0.0.1"  # the docs' HOST placeholder: a dry run plans without reaching it


def shown_commands() -> dict[str, list[str]]:
    """Return each command of the docs' bash blocks, with the documents that show it."""
    found: dict[str, list[str]] = {}
    for document in DOCUMENTS:
        for block in re.findall(r"```bash\n(.*?)```", document.read_text(), re.S):
            for line in block.splitlines():
                code = re.sub(r"\s+#.*$", "", line).strip()
                if not code or code.startswith("#"):
                    continue
                for part in code.split(" && "):
                    for command in _optional_forms(part.strip()):
                        found.setdefault(command, []).append(document.name)
    return found


def _optional_forms(command: str) -> list[str]:
    """Return a command with an optional ``[--flag]`` both without and with the flag."""
    optional = re.search(r" \[(--[\w-]+)\]", command)
    if not optional:
        return [command]
    return [command.replace(optional[0], ""), command.replace(optional[0], f" {optional[1]}")]


@dataclass(frozen=True)
class Rule:
    """How the docs test treats the commands a pattern matches."""

    pattern: str
    how: str  # "run", "dry-run", "help", "extras", "dask-help" or "elsewhere"
    why: str = ""


RULES = [
    Rule(r"python -m pip install -e (\S+)", "extras", "installs: its extras must exist"),
    Rule(r"python -m pytest", "elsewhere", "the suite itself"),
    Rule(r"python -m sphinx .*", "elsewhere", "the documentation build: .ci/run's step 4"),
    Rule(r"dask (scheduler|worker)\b.*", "dask-help", "a cluster: its options are dask's"),
    Rule(r"faircompare run .*--spec acsincome-us\.toml.*", "help", "needs the ACS download"),
    Rule(r"(faircompare run|python benchmark\.py)\b.*", "dry-run"),
    Rule(r"nohup faircompare run .* &", "dry-run", "the cluster recipe's detached coordinator"),
    Rule(r"faircompare new-plugin .*", "run"),
    Rule(
        r"faircompare reproduce .*",
        "help",
        "the whole reproduction runs for an hour; test_commands.py runs one on four algorithms",
    ),
    Rule(r"python -m pytest plugins/tests", "run"),
    Rule(r"faircompare (figure|table) .*massaging-lr.*", "help", "a reader's own plugin study"),
    Rule(
        r"faircompare figure .*--dataset german --dataset adult.*",
        "help",
        "a reader's study of German credit and Adult",
    ),  # fmt: skip
    Rule(
        r"faircompare (list|status|export|report|figure|table|check-plugin|fetch-data|audit|cite)"
        r"\b.*",
        "run",
    ),
]


def rule_of(command: str) -> Rule:
    matching = [rule for rule in RULES if re.fullmatch(rule.pattern, command)]
    assert matching, f"no rule says how to run {command!r}: add one to RULES"
    return matching[0]


COMMANDS = shown_commands()


def test_every_shown_command_has_a_rule():
    assert len(COMMANDS) >= 25
    for command in COMMANDS:
        rule_of(command)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A folder where the docs' commands find what they name: a study, a TOML, a plugin."""
    folder = tmp_path_factory.mktemp("reader")
    shutil.copy(ROOT / "examples" / "plugins" / "group_threshold.py", folder / "my_algorithm.py")
    toml = re.search(r"```toml\n(.*?)```", (ROOT / "docs/guide/running.md").read_text(), re.S)
    (folder / "bench.toml").write_text(toml[1])  # the configuration file the guide shows
    study = [
        "faircompare", "run", "--dataset", "ricci", "--algorithm", "logistic-regression",
        "--splits", "1", "--no-audits", "--no-report", "--jobs", "1",
    ]  # fmt: skip
    subprocess.run(study, cwd=folder, check=True, capture_output=True)
    # the plugin page's command sequence starts with new-plugin
    subprocess.run(
        ["faircompare", "new-plugin", "my-method", "--kind", "in-processing"],
        cwd=folder, check=True, capture_output=True,
    )  # fmt: skip
    return folder


def as_typed(command: str, folder: Path) -> list[str]:
    """Return the command's words, run from ``folder`` as from the repository root."""
    mirror = os.environ.get("FAIRCOMPARE_MIRROR", str(ROOT.parent / "shared" / "data"))
    command = command.replace("HOST", HOST).replace("../shared/data", mirror)
    # the cluster recipe's shared folders: the mirror, and the plugins the workspace holds
    command = command.replace("/shared/data", mirror).replace("/shared/plugins", "plugins")
    words = command.split()
    if words[0] == "nohup":  # a detached command: the command itself, without its redirections
        words = words[1 : min(words.index(w) for w in (">", "&") if w in words)]
    if words[:2] == ["python", "benchmark.py"]:
        return [sys.executable, str(ROOT / "benchmark.py"), *words[2:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    return words


DRY_RUNS = [c for c in COMMANDS if rule_of(c).how == "dry-run"]
RUNS = [c for c in COMMANDS if rule_of(c).how == "run" and "new-plugin" not in c]


@pytest.mark.data
@pytest.mark.parametrize("command", DRY_RUNS)
def test_a_shown_run_plans_as_written(workspace, command):
    result = subprocess.run(
        [*as_typed(command, workspace), "--dry-run"],
        cwd=workspace, env=os.environ, capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, f"{command} ({COMMANDS[command]}): {result.stderr[-2000:]}"
    assert re.search(r"^[\d,]+ runs( to do)?, about ", result.stdout, re.M)  # some stored


@pytest.mark.data
@pytest.mark.parametrize("command", RUNS)
def test_a_shown_command_runs_as_written(workspace, command):
    if "fetch-data" in command and "FAIRCOMPARE_MIRROR" not in os.environ:
        pytest.skip("needs a local mirror: this test must not download")
    result = subprocess.run(
        as_typed(command, workspace), cwd=workspace, env=os.environ, capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, f"{command} ({COMMANDS[command]}): {result.stderr[-2000:]}"
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [c for c in COMMANDS if "new-plugin" in c])
def test_a_shown_new_plugin_command_writes_a_plugin_that_keeps_the_contract(tmp_path, command):
    # in a folder of its own: the workspace holds the plugin the other commands use
    written = subprocess.run(command.split(), cwd=tmp_path, capture_output=True, text=True)
    assert written.returncode == 0, f"{command} ({COMMANDS[command]}): {written.stderr}"
    [plugin] = (tmp_path / "plugins").glob("*.py")
    checked = subprocess.run(
        ["faircompare", "check-plugin", str(plugin)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout[-2000:]


@pytest.mark.parametrize("command", [c for c in COMMANDS if rule_of(c).how == "help"])
def test_a_shown_command_that_needs_a_readers_own_file_has_valid_options(command):
    words = as_typed(command, ROOT)
    result = subprocess.run([*words, "--help"], capture_output=True, text=True)
    assert result.returncode == 0, f"{command} ({COMMANDS[command]}): {result.stderr}"
    for option in (word for word in words if word.startswith("--")):
        assert option in result.stdout


@pytest.mark.parametrize("command", [c for c in COMMANDS if rule_of(c).how == "dask-help"])
def test_a_shown_dask_command_uses_options_dask_has(command):
    if shutil.which("dask") is None:
        pytest.skip("dask's command line is not installed")
    words = command.replace("HOST", HOST).split()
    result = subprocess.run([words[0], words[1], "--help"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for option in (word for word in words if word.startswith("--")):
        assert option in result.stdout, f"{command}: dask has no {option}"


@pytest.mark.parametrize("command", [c for c in COMMANDS if rule_of(c).how == "extras"])
def test_a_shown_install_names_extras_that_exist(command):
    target = re.fullmatch(RULES[0].pattern, command)[1].strip('"')
    extras = re.fullmatch(r"\.(?:\[([\w,]+)\])?", target)
    assert extras, f"{command}: installs {target}, not this project"
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for extra in (extras[1] or "").split(","):
        assert not extra or extra in declared["optional-dependencies"], command


@pytest.mark.slow
@pytest.mark.data
def test_the_shown_quick_study_runs_in_full(workspace):
    command = "faircompare run --profile quick --jobs 2"
    assert command in COMMANDS
    result = subprocess.run(
        [*command.split(), "--results", "quick"], cwd=workspace, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "276 runs done and 0 failed in this session" in result.stdout
