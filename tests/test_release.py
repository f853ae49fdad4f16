"""What a release ships says one version, one license, and how to cite the work."""

import re
import tomllib
from pathlib import Path

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
