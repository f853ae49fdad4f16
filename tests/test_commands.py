"""Every command and output form, run as a user types it: the console script, in a subprocess.

The commands are read from the command line's own group, so a new command without a test of its
``--help`` fails here. ``list algorithms`` crashed after printing its table on the main of issue
#51, and no test ran it.
"""

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from string import Template

import click
import pandas as pd
import pytest

import faircompare
from faircompare.cli import cli
from faircompare.plugin_template import PLUGIN_KINDS
from tests.conftest import SHARED

pytestmark = pytest.mark.cli

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = ROOT / "examples" / "plugins"


def faircompare_(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run the installed console script as a user would."""
    return subprocess.run(
        ["faircompare", *args], cwd=cwd, env=os.environ, capture_output=True, text=True
    )


def ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return result.stdout


def commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += commands(command, (*path, name))
        else:
            found.append((*path, name))
    return found


NO_DEFAULT = (None, False, (), getattr(click.core, "UNSET", None))  # click 8.2+: UNSET


@pytest.mark.parametrize("command", commands(), ids=lambda c: " ".join(c) or "faircompare")
def test_every_command_answers_help_and_shows_its_options_defaults(command):
    text = ok(faircompare_(*command, "--help"))
    assert text.startswith(f"Usage: {' '.join(('faircompare', *command))} ")
    target = cli
    for name in command:
        target = target.commands[name]
    for parameter in target.params:
        if isinstance(parameter, click.Option) and not parameter.hidden:
            assert parameter.opts[-1] in text
            # a default that is not "nothing" is shown, by click or in the help's own words
            if parameter.default not in NO_DEFAULT and not parameter.is_flag:
                assert "default" in (parameter.help or "") or parameter.show_default, parameter


def test_run_help_shows_the_profile_defaults_of_the_audits_and_splits():
    text = " ".join(ok(faircompare_("run", "--help")).split())
    assert "Audit each run (permutation tests, FlipTest, individual fairness). [default: the " \
        "profile's; on in 'default']" in text  # fmt: skip
    assert "Number of train/test splits. [default: the profile's; 5 in 'default']" in text


def test_python_dash_m_faircompare_is_the_command():
    result = subprocess.run(
        [sys.executable, "-m", "faircompare", "--version"], capture_output=True, text=True
    )
    assert ok(result).strip() == f"faircompare, version {faircompare.__version__}"
    usage = subprocess.run(
        [sys.executable, "-m", "faircompare", "list", "--help"], capture_output=True, text=True
    )
    assert ok(usage).startswith("Usage: faircompare list ")


LISTED = {
    # kind: (a column of the table, a name every install lists)
    "algorithms": ("algorithm", "logistic-regression"),
    "measures": ("measure", "DIbinary"),
    "audits": ("audit", "permutation"),
    "profiles": ("profile", "quick"),
    "datasets": ("dataset", "ricci"),
}


@pytest.mark.parametrize("kind", sorted(LISTED))
def test_every_list_prints_its_table_and_its_json(kind):
    column, name = LISTED[kind]
    table = ok(faircompare_("list", kind))
    assert table.split()[0] == column and name in table
    listed = json.loads(ok(faircompare_("list", kind, "--json")))
    names = listed if isinstance(listed, dict) else [next(iter(row.values())) for row in listed]
    assert name in names


def test_list_algorithms_describes_each_algorithm_in_a_line():
    # on the main of issue #51: the table, then KeyError: 'description' and exit 1
    text = ok(faircompare_("list", "algorithms", "--family", "post-processing"))
    lines = dict(line.split(": ", 1) for line in text.split("\n\n", 1)[1].splitlines())
    assert lines["threshold-optimizer"].startswith("Equalized odds")
    assert "logistic-regression" not in lines  # a baseline, filtered out


def test_list_algorithms_with_plugins_lists_them_in_both_forms():
    table = ok(faircompare_("list", "algorithms", "--plugins", str(PLUGINS)))
    assert "group-quantile-threshold: Logistic regression with one threshold per group" in table
    listed = json.loads(ok(faircompare_("list", "algorithms", "--plugins", str(PLUGINS), "--json")))
    [plugin] = [d for d in listed if d["name"] == "group-quantile-threshold"]
    assert (plugin["family"], plugin["version"], plugin["library"]) == (
        "post-processing", "1", "scikit-learn"
    )  # fmt: skip
    assert plugin["source"] == str(PLUGINS / "group_threshold.py")


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """A small study stored as a user makes it: Ricci, the baseline and a plugin, one split."""
    folder = tmp_path_factory.mktemp("study")
    ok(
        faircompare_(
            "run",
            "--dataset",
            "ricci",
            "--algorithm",
            "logistic-regression",
            "--algorithm",
            "group-quantile-threshold",
            "--plugins",
            str(PLUGINS),
            "--splits",
            "1",
            "--no-audits",
            "--jobs",
            "1",
            "--no-report",
            "--results",
            str(folder / "results"),
            cwd=folder,
        )  # fmt: skip
    )
    return folder


@pytest.mark.data
def test_status_prints_its_table_and_its_json(study):
    text = ok(faircompare_("status", cwd=study))  # the default --results folder
    assert text.splitlines()[0].split() == ["done", "failed", "pending"]
    assert text.rstrip().endswith("total: 2 done, 0 failed, 0 pending")
    counted = json.loads(ok(faircompare_("status", "--json", cwd=study)))
    assert counted["total"] == {"done": 2, "failed": 0, "pending": 0}
    assert {row["algorithm"] for row in counted["runs"]} == {
        "logistic-regression", "group-quantile-threshold"
    }  # fmt: skip


@pytest.mark.data
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_export_writes_every_table_in_each_format(study, fmt):
    out = study / f"export-{fmt}"
    written = ok(faircompare_("export", "--format", fmt, "--out", str(out), cwd=study)).split()
    assert {Path(path).name for path in written} >= {f"runs.{fmt}", f"measures.{fmt}"}
    read = pd.read_csv if fmt == "csv" else pd.read_parquet
    assert len(read(out / f"runs.{fmt}")) == 2


@pytest.mark.data
def test_report_writes_the_html_report_and_prints_its_path(study):
    drawn = faircompare_("report", "--out", str(study / "report"), "--jobs", "2", cwd=study)
    printed = ok(drawn).strip()
    assert printed.endswith("report.html") and Path(printed).stat().st_size > 10_000
    assert "parts in 2 processes" in drawn.stderr  # drawn in parallel, as asked


@pytest.mark.data
def test_cite_prints_a_bib_file_of_everything_the_study_used(study):
    text = ok(faircompare_("cite", "--results", "results", cwd=study))  # no --plugins
    comment = " ".join(line[2:] for line in text.splitlines() if line.startswith("% "))
    entries = re.findall(r"^@(\w+)\{([^,]+),$", text, re.M)
    keys = [key for _, key in entries]
    assert len(keys) == len(set(keys))
    cited = {k.strip() for group in re.findall(r"\\cite[pt]\{([^}]+)\}", comment)
             for k in group.split(",")}  # fmt: skip
    assert cited == set(keys)  # every citation has its entry, and every entry is cited
    # the plugin's references are read from the store: its folder is not given
    assert r"\texttt{group-quantile-threshold}, \texttt{logistic-regression}" in comment
    assert r"\citep{pedregosa2011scikit}" in comment and "ricci2009" in keys
    assert f"faircompare {faircompare.__version__}" in comment and "1 random train/test" in comment
    alone = ok(faircompare_("cite", cwd=study))
    assert re.findall(r"^@\w+\{([^,]+),$", alone, re.M) == [
        "faircompare", "friedler2019comparative"
    ]  # fmt: skip
    # the same works in biblatex's entries, cited with its commands, and as a CITATION.cff
    biblatex = ok(faircompare_("cite", "--results", "results", "--format", "biblatex", cwd=study))
    assert re.findall(r"^@\w+\{([^,]+),$", biblatex, re.M) == keys
    assert r"\parencite{pedregosa2011scikit}" in biblatex and "  date = {" in biblatex
    cff = ok(faircompare_("cite", "--results", "results", "--format", "cff", cwd=study))
    assert cff.startswith("cff-version: 1.2.0") and cff.count("\n  - type: ") == len(keys) - 1
    missing = faircompare_("cite", "--results", "nothing", cwd=study)
    assert missing.returncode == 1 and "no results in nothing" in missing.stderr


@pytest.mark.data
def test_check_plugin_by_file_and_by_name(study):
    by_file = ok(faircompare_("check-plugin", str(PLUGINS / "group_threshold.py"), cwd=study))
    by_name = ok(
        faircompare_(
            "check-plugin", "group-quantile-threshold", "--plugins", str(PLUGINS), cwd=study
        )  # fmt: skip
    )
    for text in (by_file, by_name):
        assert text.rstrip().endswith("passed, 0 failed") and "WARN" not in text


def test_check_plugin_warns_of_a_version_and_library_left_to_their_defaults(tmp_path):
    source = (PLUGINS / "group_threshold.py").read_text()
    bare = "\n".join(
        line for line in source.splitlines()
        if not line.lstrip().startswith(("version:", "library:"))
    )  # fmt: skip
    (tmp_path / "bare.py").write_text(bare)
    text = ok(faircompare_("check-plugin", "bare.py", cwd=tmp_path))
    assert "WARN  group-quantile-threshold: does not declare 'version' (inherits '1')" in text
    assert "does not declare 'library' (inherits 'faircompare')" in text
    assert text.rstrip().endswith(", 0 failed")  # a warning does not fail the check


@pytest.mark.data
def test_fetch_data_verifies_a_dataset(tmp_path):
    if "FAIRCOMPARE_MIRROR" not in os.environ:
        pytest.skip("needs a local mirror: this test must not download")
    text = ok(faircompare_("fetch-data", "--dataset", "german", "--cache", str(tmp_path)))
    assert "german: verified, 1,000 rows after cleaning" in text


def test_run_dry_run_says_what_it_audits_and_prices_a_small_study_in_seconds(tmp_path):
    text = ok(faircompare_("run", "--profile", "quick", "--dry-run", "--jobs", "2", cwd=tmp_path))
    resolved, header, *_, total = text.strip().splitlines()
    # the settings the profile resolved to come first (issue #85: none were echoed)
    assert resolved.startswith("settings: ") and "; seed 0; time limit 600 s a run; " in resolved
    assert header.startswith("plan: 2 splits; ") and header.endswith(
        "audits: permutation (sequential, at most 300,000 permutations), fliptest, individual"
    )
    assert "runs also tuned on a validation part" in header
    # under a minute of CPU time: in CPU-seconds, not "about 0.0 CPU-hours"
    assert total.startswith("276 runs, about ") and "CPU-seconds: about" in total
    bare = ok(faircompare_("run", "--profile", "quick", "--dry-run", "--no-audits", cwd=tmp_path))
    assert bare.splitlines()[1].endswith("audits: none")
    # more workers asked than can work: the dry run says how many will, and why
    many = ok(
        faircompare_("run", "--profile", "quick", "--dry-run", "--jobs", "100000", cwd=tmp_path)
    )
    assert re.search(
        r" workers? \(processes, 100,000 asked: (\d+ cores here|276 runs to share)\)", many
    )
    assert not (tmp_path / "results").exists()


@pytest.mark.data
def test_a_new_plugin_of_each_kind_passes_its_checks_and_its_tests_and_runs_in_a_study(tmp_path):
    for kind in PLUGIN_KINDS:
        said = ok(faircompare_("new-plugin", f"my-{kind}", "--kind", kind, cwd=tmp_path))
        module = f"my_{kind.replace('-', '_')}"
        assert said.startswith(f"wrote plugins/{module}.py and plugins/tests/test_{module}.py")
        checked = ok(faircompare_("check-plugin", f"plugins/{module}.py", cwd=tmp_path))
        assert checked.rstrip().endswith("18 passed, 0 failed") and "WARN" not in checked
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "plugins/tests"],
        cwd=tmp_path, capture_output=True, text=True,
    )  # fmt: skip
    assert tested.returncode == 0 and "9 passed" in tested.stdout, tested.stdout[-3000:]
    ran = ok(
        faircompare_(
            "run",
            "--profile",
            "quick",
            "--dataset",
            "ricci",
            "--splits",
            "1",
            "--no-audits",
            "--no-report",
            "--plugins",
            "plugins",
            *(f"--algorithm=my-{kind}" for kind in PLUGIN_KINDS),
            cwd=tmp_path,
        )  # fmt: skip
    )
    assert "0 failed in this session" in ran
    refused = faircompare_("new-plugin", "my-in-processing", cwd=tmp_path)
    assert refused.returncode == 1 and "exists already" in refused.stderr


@pytest.mark.parametrize("name", ["My Method", "a" * 65])
def test_new_plugin_refuses_a_name_that_is_not_hyphenated_lower_case(tmp_path, name):
    # 65 characters: issue #83 (new-plugin wrote files that check-plugin then refused)
    result = faircompare_("new-plugin", name, cwd=tmp_path)
    assert result.returncode == 1
    assert (
        f"error: plugin name '{name}' must be lower-case words joined by hyphens, at most 64 "
        "characters" in result.stderr
    )
    assert not (tmp_path / "plugins").exists()


def imported_private_names(source: str) -> list[str]:
    """Return the names starting with one underscore that ``source`` imports from a module."""
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_imported_private_names_finds_them():
    found = imported_private_names("from a.b import c, _d\nfrom __future__ import annotations")
    assert found == ["a.b._d"]


def test_no_example_gallery_script_template_or_algorithm_imports_a_private_name():
    # the plugin contract is the public API: the helpers plugins use are public names
    sources = {
        path: path.read_text()
        for path in [
            *(ROOT / "examples").rglob("*.py"),
            *(ROOT / "docs" / "gallery").glob("*.py"),
            *(ROOT / "faircompare" / "algorithms").glob("*.py"),
        ]
    }
    for kind in PLUGIN_KINDS:  # the templates as new-plugin writes them
        path = ROOT / "faircompare" / "plugin_templates" / f"{kind}.tmpl"
        sources[path] = Template(path.read_text()).substitute(cls="Mine", name="mine", kind=kind)
    private = {
        str(path.relative_to(ROOT)): names
        for path, source in sources.items()
        if (names := imported_private_names(source))
    }
    assert not private


@pytest.mark.data
def test_a_plugin_installed_by_the_reference_page_s_entry_point_is_found_checked_and_run(tmp_path):
    # the pyproject.toml of the plugin reference, laid out as pip installs it: the module and a
    # dist-info folder whose entry_points.txt holds the page's entry point
    page = (ROOT / "docs" / "guide" / "plugins.md").read_text()
    project = tomllib.loads(re.search(r"```toml\n(.*?)```", page, re.S)[1])["project"]
    [(name, target)] = project["entry-points"]["faircompare.algorithms"].items()
    ok(faircompare_("new-plugin", name, "--out", "src", cwd=tmp_path))
    site = tmp_path / "site"
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (site / f"{target.split(':')[0]}.py").write_text(
        (tmp_path / "src" / "my_method.py").read_text()
    )
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    (info / "entry_points.txt").write_text(f"[faircompare.algorithms]\n{name} = {target}\n")
    env = {**os.environ, "PYTHONPATH": str(site)}

    def installed(*args: str) -> str:
        return ok(subprocess.run(["faircompare", *args], cwd=tmp_path, env=env,
                                 capture_output=True, text=True))  # fmt: skip

    assert f"source: entry point {target}" in installed("list", "algorithms", "--json").replace(
        '"source": "', "source: "
    )  # fmt: skip
    assert installed("check-plugin", name).rstrip().endswith("18 passed, 0 failed")
    ran = installed("run", "--dataset", "ricci", "--algorithm", name, "--splits", "1",
                    "--no-audits", "--no-report")  # fmt: skip
    assert "1 runs done and 0 failed in this session" in ran


@pytest.mark.data
def test_reproduce_sets_published_cells_beside_ours_with_their_causes(tmp_path):
    # Four of German's published algorithms (sex), three splits each, with the departures'
    # switches: the table's published side is the file's own numbers, and the unscaled SVM
    # explains the SVM's difference (the original's SVM predicts almost only "good").
    source = SHARED / "fairness-comparison-results" / "german_sex_numerical-binsensitive.csv"
    if not source.is_file():
        pytest.skip("the original's published results are not here")
    raw = pd.read_csv(source)
    kept = raw[raw["algorithm"].isin(["LR", "SVM", "Feldman-LR", "Kamishima"])]
    (tmp_path / "published").mkdir()
    kept.to_csv(tmp_path / "published" / source.name, index=False)
    out = ok(
        faircompare_(
            "reproduce", "--published", str(tmp_path / "published"), "--as-published",
            "--splits", "3", "--jobs", "1", "--results", str(tmp_path / "study"),
        )
    )  # fmt: skip
    table = pd.read_csv(tmp_path / "study" / "reproduction.csv", keep_default_na=False)
    assert len(table) == 4 * 5 and (table["ours_n"] == 3).all()
    for original, cells in table.groupby("original"):
        for measure, value in zip(cells["measure"], cells["published_mean"], strict=True):
            own = raw.loc[raw["algorithm"] == original, measure].mean()
            assert value == pytest.approx(own, rel=1e-12)
    svm = table[(table["original"] == "SVM") & (table["measure"] == "TNR")].iloc[0]
    assert svm["verdict"] == "differs" and svm["cause"] == "unscaled SVM"
    assert "default parameters, accuracy and DIbinary:" in out
    assert f"table: {tmp_path / 'study' / 'reproduction.csv'}" in out


@pytest.mark.slow  # three reproductions in a row: minutes on a busy 2-core machine
@pytest.mark.data
def test_a_reproduction_redoes_its_failed_runs_when_asked(tmp_path):
    # the unscaled SVM on Adult can outlast a run's limit on a busy machine: --retry-failed
    # runs what failed again, as `faircompare run --retry-failed` does
    source = SHARED / "fairness-comparison-results" / "german_sex_numerical-binsensitive.csv"
    if not source.is_file():
        pytest.skip("the original's published results are not here")
    raw = pd.read_csv(source)
    (tmp_path / "published").mkdir()
    raw[raw["algorithm"] == "LR"].to_csv(tmp_path / "published" / source.name, index=False)
    reproduce = ("reproduce", "--published", str(tmp_path / "published"), "--no-sweeps",
                 "--splits", "2", "--jobs", "1", "--results", str(tmp_path / "study"))  # fmt: skip
    failed = faircompare_(*reproduce, "--timeout", "0.001")
    assert failed.returncode == 1 and "2 planned runs have failed" in failed.stderr
    assert faircompare_(*reproduce).returncode == 1  # stored as failed: not run again
    ok(faircompare_(*reproduce, "--retry-failed"))
    table = pd.read_csv(tmp_path / "study" / "reproduction.csv", keep_default_na=False)
    assert (table["ours_n"] == 2).all()
