"""The flipset figure: the transparency report of a study's largest FlipTest flipset (Black et al.).

FlipTest (Black et al. 2020, §4) maps each member of one group to their counterpart in the
other by optimal transport; the flipset F+ holds those the model predicts negative whose
counterparts it predicts positive (F- the reverse). Its transparency report ranks the features
by how much they move under the map: the mean of x - G(x) over the flipset, a bar each, with
its 95 % sampling interval where the map was fitted to samples of a large group.

The run shown is the headline among the selected runs (each grid value and split a run): of
those with at least :data:`~faircompare.choices.FLIPSET_MIN_ROWS` test rows, predicting both
classes in every group and with no measure flagged (:mod:`~faircompare.analysis.flags`), the
largest flipset whose demographic-parity test rejects after Holm's adjustment; where no such
run rejects, the largest flipset, and :attr:`FlipsetFrames.significant` says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from faircompare._validation import check_choice
from faircompare.analysis import flags, tidy
from faircompare.analysis.audit_figures import plot_transparency_report
from faircompare.analysis.canvas import Layout
from faircompare.analysis.kinds._panels import run_name, shown_audits
from faircompare.analysis.selection import Selection, StudyFrames
from faircompare.analysis.tables import KEY_MEASURES
from faircompare.choices import FLIPSET_MIN_ROWS
from faircompare.results import ResultStore
from faircompare.stats.individual import MONTE_CARLO_Z

__all__ = ["FLIPSETS", "FlipsetFrames", "LEADING", "NAMES_MEASURES", "draw", "frames"]

#: Whether ``x`` names a stored measure: here it names a flipset (F+ or F-).
NAMES_MEASURES = False

#: The features shown, those that move most.
LEADING = 10
#: The flipsets: those predicted negative whose counterparts are predicted positive, and back.
FLIPSETS = ("F+", "F-")


@dataclass(frozen=True)
class FlipsetFrames:
    """What the flipset figure shows.

    Attributes
    ----------
    transparency
        The flipset's transparency report as FlipTest writes it
        (:attr:`~faircompare.stats.FlipTestResult.transparency`): one row per leading feature,
        ``flipset``, ``feature``, ``mean_difference``, ``rank_difference`` and
        ``monte_carlo_error`` (None where the map is exact).
    flipset
        ``"F+"`` or ``"F-"``.
    run
        The run's name: dataset, attribute, variant, algorithm and split.
    rate
        The flipset's share of its group.
    rate_error
        The rate's Monte Carlo error (0 where the map is exact).
    significant
        Whether the run's demographic-parity test rejects (Holm); False where no run shown
        rejects.
    """

    transparency: pd.DataFrame
    flipset: str
    run: str
    rate: float
    rate_error: float
    significant: bool

    @property
    def rate_text(self) -> str:
        """The rate as a percentage, with its 95 % sampling interval where it has one."""
        interval = f" ± {MONTE_CARLO_Z * self.rate_error:.1%}" if self.rate_error else ""
        return f"{self.rate:.1%}{interval}"


def frames(
    study: StudyFrames, selection: Selection, x: str | None = None, y: str | None = None
) -> FlipsetFrames:
    """Find the selected runs' headline flipset and its transparency report.

    Parameters
    ----------
    study
        The study's frames, read from an open store (the runs' sizes and predictions are read
        from it).
    selection
        The runs considered and their names.
    x
        The flipset (``F+``, or ``F-``).
    y
        Not used: the bars are the features.

    Returns
    -------
    FlipsetFrames
        The run and its leading features.

    Raises
    ------
    ValueError
        Where no selected run of fair size has a FlipTest, or the frames hold no store.
    """
    flipset = check_choice(x or "F+", FLIPSETS, what="flipset")
    if study.store is None:
        raise ValueError("the flipset figure reads the runs' sizes: read the frames from a store")
    audits = tidy.pooled_audits(shown_audits(study, selection, every=True))
    runs = study.store.runs()
    fair = runs.loc[~tidy.is_degenerate(runs) & (runs["n_test"] >= FLIPSET_MIN_ROWS), "key"]
    flips = audits[(audits["audit"] == "fliptest") & (audits["metric"] == flipset)]
    flips = flips[flips["key"].isin(fair)]
    parity = audits[(audits["audit"] == "permutation") & (audits["metric"] == "positive_rate")]
    rejects = flips["key"].map(parity.set_index("key")["adjusted_pvalue"]).astype(float) < 0.05
    for pool, significant in ((flips[rejects], True), (flips, False)):
        for _, run in pool.sort_values(["statistic", "key"], ascending=[False, True]).iterrows():
            if not _flagged(study.store, run["key"]):
                return _report(run, flipset, selection, significant)
    raise ValueError(
        f"no selected run has a FlipTest {flipset} with {FLIPSET_MIN_ROWS} test rows or more, both "
        "classes predicted in every group and no measure flagged"
    )


def _flagged(store: ResultStore, key: str) -> bool:
    """Whether a run has a measure of the report's flagged (:func:`.flags.run_flags`)."""
    return not flags.run_flags(store, [key], KEY_MEASURES).empty


def _report(run: pd.Series, flipset: str, selection: Selection, significant: bool) -> FlipsetFrames:
    """Return a FlipTest row's transparency report as FlipTest writes it."""
    details = run["details"]
    leading = details["leading_features"]
    errors = details.get("leading_errors", {})  # a map fitted on samples
    transparency = pd.DataFrame(
        {
            "flipset": flipset,
            "feature": list(leading),
            "mean_difference": list(leading.values()),
            "monte_carlo_error": [errors.get(feature) for feature in leading],
        }
    ).assign(rank_difference=lambda f: f["mean_difference"].abs().rank(ascending=False))
    return FlipsetFrames(transparency, flipset, run_name(run, selection), float(run["statistic"]),
                         float(details.get("monte_carlo_error") or 0.0), significant)  # fmt: skip


def draw(frames: FlipsetFrames, layout: Layout | None = None, ax: Axes | None = None) -> Figure:
    """Draw the flipset figure.

    Parameters
    ----------
    frames
        What it shows (:func:`frames`).
    layout
        Its size and look; a column's by default.
    ax
        Axes of your own to draw into.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    title = f"{frames.flipset} of {frames.run}: {frames.rate_text}"
    return plot_transparency_report(frames.transparency, frames.flipset, LEADING, ax,
                                    layout=layout, title=title)  # fmt: skip
