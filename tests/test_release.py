"""What a release ships says one version, one license, and how to cite the work."""

import re
import subprocess
import sys
import tomllib
from importlib.util import find_spec
from pathlib import Path

import pytest

import faircompare

ROOT = Path(faircompare.__file__).resolve().parents[1]


def test_the_version_is_written_once_and_read_by_the_metadata_citation_and_changelog():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "faircompare.__version__"
    }
    citation = (ROOT / "CITATION.cff").read_text()
    assert re.search(r'^version: "(.+)"$', citation, re.M).group(1) == faircompare.__version__
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{faircompare.__version__}]" in changelog


def test_the_license_file_is_the_license_the_metadata_names():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_citation_file_cites_the_four_papers_the_project_implements():
    citation = (ROOT / "CITATION.cff").read_text()
    assert citation.startswith("cff-version: 1.2.0")
    for title in (
        "A comparative study of fairness-enhancing interventions in machine learning",
        "Evaluating Fairness Using Permutation Tests",
        "FlipTest: Fairness Testing via Optimal Transport",
        "Statistical Inference for Individual Fairness",
    ):
        assert f'title: "{title}"' in citation


def test_the_project_url_is_one_address_in_the_metadata_the_citation_file_and_the_code():
    from faircompare.bibliography import FAIRCOMPARE, PROJECT_URL

    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert set(urls.values()) == {PROJECT_URL} == {FAIRCOMPARE.url}
    citation = (ROOT / "CITATION.cff").read_text()
    assert f'\nurl: "{PROJECT_URL}"\n' in citation


def test_the_citation_file_is_the_one_the_code_writes():
    """CITATION.cff is written by docs/citation_file.py from the references kept in the code.

    Where an optional extra is missing and Sphinx cannot mock it, its methods' references are
    unknown here: the file must then hold every reference the code knows, and more.
    """
    written = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "citation_file.py")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    committed = (ROOT / "CITATION.cff").read_text()
    complete = find_spec("sphinx") or all(find_spec(name) for name in ("torch", "aif360"))
    if complete:
        assert committed == written, "run: python docs/citation_file.py > CITATION.cff"
    else:
        head, _, references = written.partition("references:\n")
        assert committed.startswith(head + "references:\n")
        for entry in references.split("  - type: ")[1:]:
            assert "  - type: " + entry in committed


def test_the_citation_file_cites_every_method_dataset_audit_and_statistic_with_a_link():
    yaml = pytest.importorskip("yaml")
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["version"] == faircompare.__version__
    titles = {reference["title"] for reference in citation["references"]}
    for title in (  # a method, a dataset, an audit, a statistic
        "Certifying and Removing Disparate Impact",
        "Statlog (German Credit Data)",
        "FlipTest: Fairness Testing via Optimal Transport",
        "Inference for the Generalization Error",
    ):
        assert title in titles
    for reference in citation["references"]:
        assert reference.get("doi") or reference.get("url"), reference["title"]
        assert reference["authors"] and reference["year"] > 1900
