"""``faircompare report``, ``export``, ``cite``, ``figure`` and ``table``: a study's pages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from faircompare.choices import (
    CITATION_STYLES,
    COLUMN,
    FIGURE_KINDS,
    FONT_SIZE,
    FORMATS,
    LEGENDS,
    MOST_INCHES,
    MOST_PIXELS,
    PAGE,
    TABLE_KINDS,
)
from faircompare.cli.options import (
    FOLDER,
    PLUGINS,
    RESULTS,
    output_folder,
    say,
    setting_option,
)
from faircompare.config.settings import cpu_cores


@click.command(name="report")
@RESULTS
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), help="[default: RESULTS/report]"
)
@click.option(
    "--redraw", is_flag=True,
    help="Draw every part again, also those whose runs did not change since the last report.",
)  # fmt: skip
@setting_option("jobs", help="Processes drawing the report's parts at a time.")
@click.option(
    "--adjust", "adjustment", type=click.Choice(["family", "run"]), default="family",
    show_default=True,
    help="Which of a run's permutation tests the audit tables adjust together: each family "
    "(the pooled tests; each metric's groups), each read at 0.05, or every test of the run, "
    "each of its F families read at 0.05 / F (a run rejects anything at most 5% of the time).",
)  # fmt: skip
def report_command(
    results: Path, out: Path | None, redraw: bool, jobs: int | None, adjustment: str
) -> None:
    """Write the figures, tables and HTML report of a results folder.

    A part whose runs and numbers are those of the last report in the same folder is not drawn
    again: after rerunning one algorithm, only the parts that read its changed numbers are.
    The parts are drawn in parallel; the report is the same for any --jobs.
    """
    from faircompare.analysis.report import write_report
    from faircompare.results import ResultStore

    with ResultStore(results, readonly=True) as store:  # a store it cannot read: no folder made
        store.require_runs()
    out = output_folder(out, results, "report")
    workers = min(jobs or cpu_cores(), cpu_cores())  # --jobs checked as a study's jobs
    click.echo(write_report(results, out, say=say, reuse=not redraw, jobs=workers,
                            adjustment=adjustment))  # fmt: skip


@click.command(name="export")
@RESULTS
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="csv", show_default=True)
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), help="[default: RESULTS/export]"
)
def export_command(results: Path, fmt: str, out: Path | None) -> None:
    """Write runs, measures and audits as CSV or Parquet files."""
    from faircompare.results import ResultStore
    from faircompare.results.export import export

    with ResultStore(results, readonly=True) as store:
        store.require_runs()
        for path in export(store, output_folder(out, results, "export"), fmt):
            click.echo(path)


@click.command(name="cite")
@click.option(
    "--results",
    type=FOLDER,
    help="A results folder: cite everything its study used, not faircompare alone.",
)
@click.option(
    "--format",
    "style",
    type=click.Choice(CITATION_STYLES),
    default=CITATION_STYLES[0],
    show_default=True,
    help="bibtex: a .bib for natbib; biblatex: a .bib for biblatex; cff: a CITATION.cff.",
)
@PLUGINS
def cite_command(results: Path | None, style: str, plugins: Path | None) -> None:
    """Print the references of faircompare, or of everything a study used (--results).

    With --results, the references are those of faircompare at the release that ran the study,
    of Friedler et al.'s study, and of every algorithm, dataset and audit the study ran and every
    statistic its report uses. A .bib file starts with a paragraph for a paper's methods section
    that cites them, as a comment that names the LaTeX package its commands need (natbib for
    bibtex, biblatex for biblatex): save the whole output as references.bib, or as CITATION.cff.
    """
    from faircompare.citing import software_citation, study_citation
    from faircompare.results import ResultStore

    if results is None:
        click.echo(software_citation(style), nl=False)
        return
    with ResultStore(results, readonly=True) as store:
        store.require_runs()
        click.echo(study_citation(store, plugins).text(style), nl=False)


def _selection(command: Callable[..., None]) -> Callable[..., None]:
    """Add the options that choose a figure's or a table's runs and names."""
    options = [
        click.option("--dataset", "datasets", multiple=True, help="A dataset shown (repeatable)."),
        click.option("--attribute", "attributes", multiple=True, help="A sensitive attribute."),
        click.option("--variant", "variants", multiple=True, help="A variant shown (repeatable)."),
        click.option("--algorithm", "algorithms", multiple=True,
                     help="An algorithm shown, in this order (repeatable)."),
        click.option("--split", "splits", type=int, multiple=True, help="A split (repeatable)."),
        click.option("--label", "labels", multiple=True, metavar="NAME=LABEL",
                     help="A display name for an algorithm or a measure (repeatable)."),
        click.option("--measure", "measures", multiple=True,
                     help="A measure shown, where the kind lists several (repeatable)."),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


@click.command(name="figure")
@click.argument("kind", required=False)
@RESULTS
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The file; its suffix gives the format (.pdf, .svg, .png). [default: KIND.pdf]",
)
@click.option("--list", "list_kinds", is_flag=True, help="Name the kinds and what each shows.")
@_selection
@click.option("--x", help="The measure on the x axis, where the kind has a choice (--list).")
@click.option("--y", help="The measure on the y axis, where the kind has a choice (--list).")
@click.option(
    "--width", type=click.FloatRange(0, MOST_INCHES, min_open=True), default=COLUMN,
    show_default=True,
    help=f"Inches: {COLUMN:g} for a column of a two-column paper, {PAGE:g} for its page.",
)  # fmt: skip
@click.option(
    "--height", type=click.FloatRange(0, MOST_INCHES, min_open=True),
    help="Inches. [default: the kind's aspect, with its legend's room]",
)  # fmt: skip
@click.option("--font-size", type=click.FloatRange(4, 24), default=FONT_SIZE, show_default=True)
@click.option("--legend", type=click.Choice(LEGENDS), default=LEGENDS[0], show_default=True)
@click.option("--sharey", is_flag=True,
              help="One y range for every panel. [default: each panel its own]")  # fmt: skip
@click.option("--dpi", type=click.IntRange(50, 1200), default=300, show_default=True,
              help="Dots per inch of a PNG.")  # fmt: skip
def figure_command(
    kind: str | None,
    results: Path,
    out: Path | None,
    list_kinds: bool,
    x: str | None,
    y: str | None,
    width: float,
    height: float | None,
    font_size: float,
    legend: str,
    sharey: bool,
    dpi: int,
    **selection: Any,
) -> None:
    """Draw one figure of a study for a paper, at the size and over the runs asked.

    Without rewriting the report, and with the report's drawing code: KIND is one of
    `faircompare figure --list`, drawn from the results folder's store, a panel per dataset,
    attribute and variant selected, e.g. `faircompare figure tradeoff --dataset german
    --dataset adult --width 7 --label massaging-lr=Ours --label german=German --out t.pdf`.
    """
    if list_kinds:
        for name, (shows, axes) in FIGURE_KINDS.items():
            click.echo(f"{name}: {shows}\n    {axes}")
        return
    from faircompare.analysis import paper
    from faircompare.safe_write import replaced

    if kind is None:
        raise click.UsageError("name a figure kind, or --list to see them")
    path = _suffixed(out or Path(f"{kind}.pdf"), (".pdf", ".svg", ".png"))
    try:
        figure = paper.draw(
            kind, results, **_chosen(**selection), x=x, y=y, width=width, height=height,
            font_size=font_size, legend=legend, sharey=sharey,
        )  # fmt: skip
    except ValueError as error:  # an unknown kind or value, or a figure that cannot fit
        raise click.ClickException(str(error)) from None
    size = figure.get_size_inches()
    if path.suffix == ".png" and (pixels := size.prod() * dpi**2) > MOST_PIXELS:
        raise click.ClickException(
            f"a PNG of {size[0]:.2f} x {size[1]:.2f} in at {dpi} dpi is {pixels:,.0f} pixels, "
            f"more than {MOST_PIXELS:,}: lower --dpi or the size, or write .pdf or .svg"
        )
    with replaced(path, path.parent) as temporary:
        figure.savefig(temporary, dpi=dpi)
    click.echo(f"{path} ({size[0]:.2f} x {size[1]:.2f} in)")


@click.command(name="table")
@click.argument("kind", required=False)
@RESULTS
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The file: .tex (booktabs, the best of each column in bold) or .csv. [default: KIND.tex]",
)
@click.option("--list", "list_kinds", is_flag=True, help="Name the kinds and what each shows.")
@_selection
def table_command(
    kind: str | None,
    results: Path,
    out: Path | None,
    list_kinds: bool,
    **selection: Any,
) -> None:
    """Write one table of a study for a paper, as LaTeX or CSV, over the runs asked.

    Without rewriting the report: KIND is one of `faircompare table --list`, e.g. `faircompare
    table intervals --dataset german --measure accuracy --measure DIbinary --out t.tex`. A
    table shows one dataset, attribute and variant: where the results hold several, choose one
    with --dataset, --attribute and --variant (one table per configuration).
    """
    if list_kinds:
        for name, shows in TABLE_KINDS.items():
            click.echo(f"{name}: {shows}")
        return
    if kind is None:
        raise click.UsageError("name a table kind, or --list to see them")
    path = _suffixed(out or Path(f"{kind}.tex"), (".tex", ".csv"))
    from faircompare.analysis.paper_tables import table
    from faircompare.safe_write import write_text

    try:
        made = table(kind, results, **_chosen(**selection))
    except ValueError as error:  # an unknown kind or value, or a selection of several
        raise click.ClickException(str(error)) from None
    write_text(path, made.latex() if path.suffix == ".tex" else made.csv(), path.parent)
    click.echo(f"{path} ({len(made.shown)} rows)")


def _suffixed(path: Path, suffixes: Sequence[str]) -> Path:
    """Return ``path`` where its suffix names one of the formats, else say which it may."""
    if path.suffix.lower() not in suffixes:
        allowed = ", ".join(suffixes)
        raise click.BadParameter(
            f"{path.name!r}: the suffix must be one of {allowed}", param_hint="--out"
        )
    return path


def _chosen(labels: tuple[str, ...], **options: tuple[Any, ...]) -> dict[str, Any]:
    """Return the selection's options as keywords of ``draw`` and ``table`` (None: not given)."""
    return {"labels": _labels(labels)} | {name: value or None for name, value in options.items()}


def _labels(pairs: Sequence[str]) -> dict[str, str]:
    """Return ``NAME=LABEL`` pairs as a mapping, refusing one without ``=``."""
    labels = {}
    for pair in pairs:
        name, sign, label = pair.partition("=")
        if not sign or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=LABEL", param_hint="--label")
        labels[name] = label
    return labels
