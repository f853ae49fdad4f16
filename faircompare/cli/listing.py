"""``faircompare list``: the datasets, measures, algorithms, audits and profiles.

Each listing and its table come from :mod:`faircompare.described`; these commands print them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from faircompare.choices import FAMILIES
from faircompare.cli.options import PLUGINS, data_locations, say, selected_specs, specs_option
from faircompare.datasets.builtin import BUILTIN


def _table(rows: list[dict[str, Any]]) -> str:
    import pandas as pd

    return pd.DataFrame(rows).to_string(index=False)


@click.group(name="list")
def list_() -> None:
    """List what faircompare provides."""


@list_.command(name="datasets")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@specs_option("listed with the built-in datasets")
@data_locations
def list_datasets(
    as_json: bool, dataset_specs: tuple[Path, ...], mirror: Path | None, cache: Path | None
) -> None:
    """List the datasets: rows, label, sensitive attributes and privileged values.

    Needs no network: a dataset whose raw file is neither cached nor in the mirror is listed
    from its specification, its rows and groups left for `faircompare fetch-data`.
    """
    from faircompare.datasets import at_hand, load_dataset
    from faircompare.described import dataset_rows

    described = [
        load_dataset(spec, cache=cache, mirror=mirror, say=say).describe()
        if at_hand(spec, cache=cache, mirror=mirror)
        else spec.describe() | {"rows": None}
        for spec in selected_specs((), dataset_specs)
    ]
    if as_json:
        click.echo(json.dumps(described, indent=2))
        return
    click.echo(_table(dataset_rows(described)))
    click.echo("\n" + "\n".join(f"{d['name']}: {d['description']}" for d in described))
    if missing := [d["name"] for d in described if d["rows"] is None and d["name"] in BUILTIN]:
        options = " ".join(f"--dataset {name}" for name in missing)
        click.echo(f"\nnot fetched (listing uses no network): faircompare fetch-data {options}")


@list_.command(name="measures")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_measures(as_json: bool) -> None:
    """List the measures: kind, ideal, range, the paper's name, definition, and the libraries'.

    The last block says how each measure relates to the measure of its name (or meaning) in
    scikit-learn, fairlearn or AIF360.
    """
    from faircompare.described import measure_listing

    rows = measure_listing()
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    shown = ("needs scores", "peers")
    click.echo(_table([{k: v for k, v in row.items() if k not in shown} for row in rows]))
    click.echo("\nAs in the libraries (the measures reference, docs/guide/measures.md, says more):")
    click.echo("\n".join(f"{row['measure']}: {row['peers']}" for row in rows if row["peers"]))


@list_.command(name="algorithms")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option(
    "--family",
    type=click.Choice(FAMILIES),
    help="Only the algorithms of this family (an unavailable one counts as unspecified).",
)
@PLUGINS
def list_algorithms(as_json: bool, family: str | None, plugins: Path | None) -> None:
    """List the algorithms: family, library, source, variants, parameter grid, availability."""
    from faircompare.described import algorithm_listing, algorithm_rows

    described = algorithm_listing(plugins)
    described = [d for d in described if family in (None, d["family"])]
    described.sort(key=lambda d: FAMILIES.index(d["family"]))  # stable: registry order within
    if as_json:
        click.echo(json.dumps(described, indent=2))
        return
    click.echo(_table(algorithm_rows(described)))
    click.echo("\n" + "\n".join(f"{d['name']}: {d['description']}" for d in described))


@list_.command(name="audits")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_audits(as_json: bool) -> None:
    """List the audits every run gets: name, version and what each tests."""
    from faircompare.described import audit_listing

    rows = audit_listing()
    click.echo(json.dumps(rows, indent=2) if as_json else _table(rows))


@list_.command(name="profiles")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_profiles(as_json: bool) -> None:
    """List the ready-made studies (--profile): datasets, algorithms, splits, grid and audits."""
    from faircompare.described import profile_listing, profile_rows

    described = profile_listing()
    click.echo(json.dumps(described, indent=2) if as_json else _table(profile_rows(described)))
