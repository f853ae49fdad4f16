"""Command-line interface: ``faircompare run | list | fetch-data``.

``python benchmark.py ARGS`` is the same as ``faircompare run ARGS``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click
import pandas as pd

from faircompare import __version__
from faircompare.datasets import BUILTIN, Dataset, DatasetSpec, load_dataset, read_spec
from faircompare.exceptions import FaircompareError
from faircompare.measures import MEASURES
from faircompare.preprocessing import VARIANTS, make_splits, prepare
from faircompare.registry import Algorithm, algorithms, get_algorithm, load_plugin_file

_DATA_DIR = click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="FAIRCOMPARE_DATA_MIRROR",
    help="Local mirror of the raw data files, tried before downloading "
    "[env: FAIRCOMPARE_DATA_MIRROR].",
)
_CACHE_DIR = click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="FAIRCOMPARE_DATA",
    help="Where verified raw files are cached [env: FAIRCOMPARE_DATA; default: user cache dir].",
)
_DATASETS = click.option(
    "--dataset",
    "datasets",
    multiple=True,
    type=click.Choice(list(BUILTIN)),
    help="A built-in dataset (repeatable; default: all five).",
)
_PLUGINS = click.option(
    "--plugins",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A folder of plugin files (Python files defining FairEstimator subclasses).",
)
_SPECS = click.option(
    "--spec",
    "specs",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A TOML specification of your own dataset (repeatable).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="faircompare")
def cli() -> None:
    """Compare fairness interventions on the same data, splits and measures."""


@cli.group(name="list")
def list_() -> None:
    """List what faircompare provides."""


@list_.command(name="datasets")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@_SPECS
@_DATA_DIR
@_CACHE_DIR
def list_datasets(
    as_json: bool, specs: tuple[Path, ...], data_dir: Path | None, cache_dir: Path | None
) -> None:
    """List the datasets: rows, label, sensitive attributes and privileged values."""
    loaded = [
        load_dataset(spec, cache=cache_dir, mirror=data_dir, report=_progress)
        for spec in _selected((), specs)
    ]
    described = [dataset.describe() for dataset in loaded]
    if as_json:
        click.echo(json.dumps(described, indent=2))
        return
    rows = [
        {
            "dataset": d["name"],
            "rows": d["rows"],
            "label": f"{d['label']} = {d['positive_label']!r}",
            "sensitive (privileged)": ", ".join(
                f"{attribute} ({info['privileged']})" for attribute, info in d["sensitive"].items()
            ),
        }
        for d in described
    ]
    click.echo(pd.DataFrame(rows).to_string(index=False))


@list_.command(name="measures")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_measures(as_json: bool) -> None:
    """List the measures: kind, ideal value, the paper's name and what each measures."""
    rows = [
        {
            "measure": m.name,
            "kind": m.kind,
            "ideal": m.ideal,
            "paper name": m.paper_name("", "{attribute}") or "",
            "needs scores": m.needs_scores,
            "description": m.description,
        }
        for m in MEASURES.values()
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        click.echo(pd.DataFrame(rows).drop(columns="needs scores").to_string(index=False))


@list_.command(name="algorithms")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@_PLUGINS
def list_algorithms(as_json: bool, plugins: Path | None) -> None:
    """List the algorithms: source, supported variants, parameter grid, availability."""
    described = [algorithm.describe() for algorithm in algorithms(plugins).values()]
    if as_json:
        click.echo(json.dumps(described, indent=2))
        return
    rows = [
        {
            "algorithm": d["name"],
            "variants": ", ".join(d["supports"]) or "-",
            "grid": ", ".join(f"{k} ({len(v)})" for k, v in d["param_grid"].items()) or "-",
            "source": d["source"] if d["available"] else f"UNAVAILABLE: {d['reason']}",
        }
        for d in described
    ]
    click.echo(pd.DataFrame(rows).to_string(index=False))


@cli.command(name="check-plugin")
@click.argument("target")
@_PLUGINS
def check_plugin(target: str, plugins: Path | None) -> None:
    """Check that the algorithms in a plugin FILE (or a registered algorithm) keep the contract.

    The checks: valid declared variants and parameter grid, clone round-trip, well-formed fit
    and predict outputs on each declared variant, determinism, and no use of the sensitive
    attribute at prediction time unless declared.
    """
    from faircompare.algorithms.contract import check_estimator

    path = Path(target)
    chosen = load_plugin_file(path) if path.suffix == ".py" else [get_algorithm(target, plugins)]
    failed = passed = 0
    for algorithm in chosen:
        checks = _contract(algorithm, check_estimator)
        for check in checks:
            mark = "PASS" if check.passed else "FAIL"
            click.echo(f"{mark}  {algorithm.name}: {check.name}")
            if check.detail:
                click.echo("      " + check.detail.replace("\n", "\n      "))
        failed += sum(not check.passed for check in checks)
        passed += sum(check.passed for check in checks)
    click.echo(f"{passed} passed, {failed} failed")
    if failed:
        sys.exit(1)


def _contract(algorithm: Algorithm, check_estimator) -> list:
    from faircompare.algorithms.contract import Check

    if algorithm.make is None:
        return [Check("loads", False, algorithm.unavailable or "unavailable")]
    return check_estimator(algorithm.make)


@cli.command(name="fetch-data")
@_DATASETS
@_DATA_DIR
@_CACHE_DIR
def fetch_data(datasets: tuple[str, ...], data_dir: Path | None, cache_dir: Path | None) -> None:
    """Fetch and verify the raw files of the built-in datasets, so later runs need no network."""
    for spec in _selected(datasets, ()):
        dataset = load_dataset(spec, cache=cache_dir, mirror=data_dir, report=_progress)
        click.echo(f"{spec.name}: verified, {len(dataset.frame):,} rows after cleaning")


@cli.command()
@_DATASETS
@_SPECS
@click.option("--splits", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0))
@_DATA_DIR
@_CACHE_DIR
def run(
    datasets: tuple[str, ...],
    specs: tuple[Path, ...],
    splits: int,
    seed: int,
    data_dir: Path | None,
    cache_dir: Path | None,
) -> None:
    """Run the benchmark's data stages on each dataset and summarise them.

    Fetches and cleans each dataset, prepares every preprocessing variant for every sensitive
    attribute, and draws the seeded train/test splits that every algorithm shares.
    """
    for spec in _selected(datasets, specs):
        dataset = load_dataset(spec, cache=cache_dir, mirror=data_dir, report=_progress)
        click.echo(_summary(dataset, splits, seed))


def _selected(datasets: Sequence[str], specs: Sequence[Path]) -> list[DatasetSpec]:
    """Return the named built-ins and the user specs; all built-ins when neither is given."""
    chosen = [BUILTIN[name] for name in datasets] + [read_spec(path) for path in specs]
    return chosen or list(BUILTIN.values())


def _summary(dataset: Dataset, n_splits: int, seed: int) -> str:
    """Prepare every variant for every sensitive attribute, draw the splits, describe them."""
    info = dataset.describe()
    rows = []
    for attribute in dataset.spec.sensitive_attributes:
        prepared = {variant: prepare(dataset, variant, attribute) for variant in VARIANTS}
        rows.append(
            {
                "attribute": attribute,
                "privileged": info["sensitive"][attribute]["privileged"],
                "groups": len(info["sensitive"][attribute]["groups"]),
                **{f"features ({v})": p.X.shape[1] for v, p in prepared.items()},
            }
        )
    # Splits depend on the dataset only, so one variant's splits are every variant's.
    splits = make_splits(prepared["numerical"], n_splits, base_seed=seed)
    header = (
        f"{info['name']}: {info['rows']:,} rows, label {info['label']} "
        f"(base rate {info['base_rate']:.3f}), {len(splits)} splits of "
        f"{len(splits[0].y_train):,} train / {len(splits[0].y_test):,} test"
    )
    return f"{header}\n{pd.DataFrame(rows).to_string(index=False)}\n"


def _progress(line: str) -> None:
    click.echo(line, err=True)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; faircompare's own errors are printed without a traceback."""
    try:
        code = cli.main(args=list(argv) if argv is not None else None, standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except FaircompareError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
    if isinstance(code, int) and code:  # click's Exit code, e.g. from --help
        sys.exit(code)
