"""The measure catalogue: Friedler et al. (2019) §6 and the modern group metrics.

Each measure yields long-form values ``{group: value}``; the group is ``""`` for the aggregate,
so per-group values are data rather than extra measures. The paper's families are generated for
each rate X in accuracy, TPR, TNR, FPR, FNR, calibration+ and calibration-:

- ``sensitive-X``: X in each group (the paper's s-X) and, as the aggregate, their unweighted
  mean (the paper's sensitive-X);
- ``comparative-sensitive-X-ratio``: X_s / X_privileged for each unprivileged group s, and
  their mean;
- ``comparative-sensitive-X-diff``: 1 - (X_privileged - X_s) for each unprivileged group s, and
  their mean.

As in the paper's benchmark, comparative means run over the unprivileged groups only, so the
binary and multi-valued cases agree when there are two groups. Two definitions follow the paper
where its benchmark's code differs: BCR is (TPR + TNR) / 2, as the code computes it (Definition
6.1 leaves out the halving, but the paper normalises every measure so 1 is ideal); and
calibration- is 1 - P[Y = 1 | Y_hat = 0, S = s] (Definition 6.6), where the code computes
P[Y = 1 | Y_hat = 0, S = s] without the complement.

Paper names (``Measure.paper_name``): ``accuracy``, ``TPR``, ``TNR``, ``BCR``, ``MCC``,
``DIbinary``, ``DIavgall``, ``CV`` as themselves; for attribute ``sex`` and X = TPR,
``sensitive-TPR`` is ``sex-TPR`` (per group ``Female-TPR``), the comparative ratio and
difference are ``sex-TPRRatio`` and ``sex-TPRDiff``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from faircompare._validation import check_choice
from faircompare.measures.group_stats import GroupStats, warn_undefined
from faircompare.records import MeasureRow

Values = dict[str, float]
Formula = Callable[[GroupStats, str], Values]

#: The rates measured per group, with their mean and comparative variants.
GROUP_RATES = ("accuracy", "TPR", "TNR", "FPR", "FNR", "calibration+", "calibration-")


INF = float("inf")  # the upper bound of a ratio of rates


@dataclass(frozen=True)
class Measure:
    """One measure of accuracy or fairness.

    Attributes
    ----------
    name
        Identifier in results and on the command line.
    kind
        ``"accuracy"`` or ``"fairness"``.
    ideal
        The value of a perfect (or perfectly fair) classifier.
    description
        One line saying what is measured.
    formula
        Computes the values ``{group: value}`` from a :class:`GroupStats` (``""`` is the
        aggregate); receives the measure's name for its warnings.
    paper
        The paper's name of the aggregate, with ``{attribute}`` for the sensitive attribute.
    paper_group
        The paper's name of a per-group value, with ``{group}``.
    needs_scores
        Whether the measure needs scores (AUC) rather than predictions only.
    ratio
        Whether the measure is a ratio of rates (ideal 1): its distance from the ideal is then
        read on a bounded scale, 1 - min(r, 1/r) (see :meth:`gap`).
    bounds
        The smallest and largest values the measure takes (``inf`` for an unbounded ratio).
    peers
        How the measure relates to the measure of the same name (or meaning) in scikit-learn,
        fairlearn or AIF360: ``= fairlearn``, ``= -AIF360 average_odds_difference``, ...;
        empty where no library has it. ``tests/measures/test_peers.py`` checks each relation.
    math
        The definition in LaTeX, in the notation of the measures reference (:data:`NOTATION`),
        which renders it.
    rates
        The rates of :data:`~faircompare.stats.rates.RATES` the measure reads in each group;
        empty for an overall measure. A rate from few rows, or a ratio of rates from few
        events, makes the report flag a cell (:mod:`faircompare.analysis.flags`).
    pooled
        Whether the measure compares the privileged group with the other groups pooled into
        one (DIbinary, CV), rather than group by group.
    """

    name: str
    kind: str
    ideal: float
    description: str
    formula: Formula
    paper: str | None = None
    paper_group: str | None = None
    needs_scores: bool = False
    ratio: bool = False
    bounds: tuple[float, float] = (0.0, 1.0)
    peers: str = ""
    math: str = ""
    rates: tuple[str, ...] = ()
    pooled: bool = False

    @property
    def has_best(self) -> bool:
        """Whether one value of the measure is better than another (a table's best in bold).

        A group-conditioned measure (``sensitive-TPR``: each group's rate, and their mean)
        has none: a higher mean rate is neither fairer nor more accurate.
        """
        return self.paper_group is None

    @property
    def interval(self) -> str:
        """The measure's range as an interval: ``[0, 1]``, ``[-1, 1]``, ``[0, inf)``."""
        low, high = self.bounds
        return f"[{low:g}, {high:g}]" if high != INF else f"[{low:g}, inf)"

    def gap(self, values: Any) -> np.ndarray:
        """Return each value's distance from the ideal, bounded for a ratio.

        A ratio r of rates (ideal 1) is 1 - min(r, 1/r), in [0, 1]: r and 1/r are equally far
        from parity, and a rate near 0 in the denominator cannot make it huge (|r - 1| would be
        560 for a privileged rate 1/560 of the other's). Any other measure: |value - ideal|.

        Parameters
        ----------
        values
            The measure's values.

        Returns
        -------
        numpy.ndarray
            The distances (NaN where the value is).
        """
        values = np.asarray(values, dtype=float)
        if not self.ratio:
            return np.abs(values - self.ideal)
        with np.errstate(divide="ignore"):
            return 1 - np.minimum(values, 1 / values)

    def values(self, stats: GroupStats) -> Values:
        """Return ``{group: value}`` with ``""`` for the aggregate.

        Parameters
        ----------
        stats
            The predictions' per-group statistics.

        Returns
        -------
        dict
            The value of each group and of the aggregate.
        """
        return self.formula(stats, self.name)

    def __call__(
        self,
        y_true: Any,
        y_pred: Any,
        sensitive_features: Any,
        *,
        privileged: Any,
        scores: Any = None,
    ) -> float:
        """Return the measure's aggregate value for one set of predictions.

        Parameters
        ----------
        y_true, y_pred, sensitive_features, privileged, scores
            As for :func:`evaluate`.

        Returns
        -------
        float
            The aggregate value (group ``""``).
        """
        stats = GroupStats.from_predictions(
            y_true, y_pred, sensitive_features, privileged=privileged, scores=scores
        )
        return self.values(stats)[""]

    def paper_name(self, group: str, attribute: str) -> str | None:
        """Return the paper's name of this measure's value for ``group``, if it has one.

        Parameters
        ----------
        group
            The group's value as text; ``""`` for the aggregate.
        attribute
            The sensitive attribute's name.

        Returns
        -------
        str or None
            For example ``sex-TPRRatio``; None where the paper has no name for it.
        """
        template = self.paper if group == "" else self.paper_group
        return template.format(attribute=attribute, group=group) if template else None


def _mean(values: np.ndarray) -> float:
    """Unweighted mean; NaN if any value is NaN (an undefined group is never skipped)."""
    return float(np.mean(values)) if len(values) else float("nan")


def _overall(rate: str) -> Formula:
    return lambda stats, name: {"": stats.overall(rate, name)}


def _bcr(stats: GroupStats, name: str) -> Values:
    return {"": (stats.overall("TPR", name) + stats.overall("TNR", name)) / 2}


def _mcc(stats: GroupStats, name: str) -> Values:
    tn, fp, fn, tp = stats.counts.sum(0).astype(float)
    denominator = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    if denominator == 0:
        warn_undefined(name, "all", "a row or column of the confusion matrix is empty")
        return {"": float("nan")}
    return {"": float((tp * tn - fp * fn) / np.sqrt(denominator))}


def _auc(stats: GroupStats, name: str) -> Values:
    return {"": stats.overall_auc(name)}


def _sensitive_auc(stats: GroupStats, name: str) -> Values:
    auc = stats.auc(name)
    return {**dict(zip(stats.groups, auc.tolist(), strict=True)), "": _mean(auc)}


def _ratio(
    numerator: float,
    denominator: float,
    name: str,
    group: str,
    reason: str = "the privileged group's value is 0",
) -> float:
    """Return ``numerator / denominator``; NaN, with a warning, for a zero denominator."""
    if np.isnan(numerator) or np.isnan(denominator):
        return float("nan")
    if denominator == 0:
        warn_undefined(name, group, reason)
        return float("nan")
    return float(numerator / denominator)


def _di_binary(stats: GroupStats, name: str) -> Values:
    privileged, others = stats.binary("positive_rate", name)
    return {"": _ratio(others, privileged, name, "all unprivileged")}


def _cv_binary(stats: GroupStats, name: str) -> Values:
    privileged, others = stats.binary("positive_rate", name)
    return {"": 1 - (privileged - others)}


def _comparative(rate: str, how: str) -> Formula:
    """Compare each unprivileged group with the privileged one, by ratio or by 1 - difference."""

    def formula(stats: GroupStats, name: str) -> Values:
        values = stats.rate(rate, name)
        reference = values[stats.privileged_index]
        compared = {
            stats.groups[g]: (
                _ratio(values[g], reference, name, stats.groups[g])
                if how == "ratio"
                else 1 - (reference - values[g])
            )
            for g in stats.unprivileged
        }
        return {**compared, "": _mean(np.array(list(compared.values())))}

    return formula


def _sensitive(rate: str) -> Formula:
    def formula(stats: GroupStats, name: str) -> Values:
        values = stats.rate(rate, name)
        return {**dict(zip(stats.groups, values.tolist(), strict=True)), "": _mean(values)}

    return formula


def _spread(*rates: str, ratio: bool = False) -> Formula:
    """Spread between groups as fairlearn defines it: max - min (or min / max), worst rate."""

    def formula(stats: GroupStats, name: str) -> Values:
        spreads = []
        for rate in rates:
            values = stats.rate(rate, name)
            low, high = np.min(values), np.max(values)
            spreads.append(
                _ratio(low, high, name, "all", "every group's value is 0") if ratio else high - low
            )
        return {"": float(max(spreads))}

    return formula


def _average_odds(stats: GroupStats, name: str) -> Values:
    tpr = stats.binary("TPR", name)
    fpr = stats.binary("FPR", name)
    return {"": ((tpr[0] - tpr[1]) + (fpr[0] - fpr[1])) / 2}


#: The symbols of the measures' definitions (:attr:`Measure.math`), each defined once.
NOTATION = {
    "S": "the sensitive attribute",
    "G": "the set of its groups",
    "p": "the privileged group",
    r"U = G \setminus \{p\}": "the other groups",
    r"\bar p": "the other groups pooled into one",
    "Y": "the label (1 favourable)",
    r"\hat Y": "the prediction",
    r"f(X)": "the model's score (AUC only)",
    r"r_s = P[\hat Y = 1 \mid S = s]": "group $s$'s positive rate",
    r"R_s": (
        r"a rate $R$ on group $s$'s rows: $\mathrm{acc}_s = P[\hat Y = Y \mid S = s]$, "
        r"$\mathrm{TPR}_s = P[\hat Y = 1 \mid Y = 1, S = s]$, "
        r"$\mathrm{TNR}_s = P[\hat Y = 0 \mid Y = 0, S = s]$, "
        r"$\mathrm{FPR}_s = 1 - \mathrm{TNR}_s$, $\mathrm{FNR}_s = 1 - \mathrm{TPR}_s$, "
        r"$\mathrm{cal}^{+}_s = P[Y = 1 \mid \hat Y = 1, S = s]$, "
        r"$\mathrm{cal}^{-}_s = P[Y = 0 \mid \hat Y = 0, S = s]$"
    ),
    r"\mathrm{TP}, \mathrm{FP}, \mathrm{TN}, \mathrm{FN}": (
        "the counts of true and false positives and negatives"
    ),
}

_RATE_SYMBOLS = {
    "accuracy": r"\mathrm{acc}",
    "TPR": r"\mathrm{TPR}",
    "TNR": r"\mathrm{TNR}",
    "FPR": r"\mathrm{FPR}",
    "FNR": r"\mathrm{FNR}",
    "calibration+": r"\mathrm{cal}^{+}",
    "calibration-": r"\mathrm{cal}^{-}",
}
_EACH_OTHER = r"\ \text{for each } s \in U\text{, and their mean}"


def _per_group(rate: str) -> str:
    symbol = _RATE_SYMBOLS[rate]
    return (
        rf"{symbol}_s \ \text{{for each }} s \in G\text{{, and }} "
        rf"\tfrac{{1}}{{\lvert G \rvert}} \textstyle\sum_{{s \in G}} {symbol}_s"
    )


def _catalogue() -> list[Measure]:
    accuracy = [
        Measure(
            "accuracy", "accuracy", 1, "P[Y_hat = Y]", _overall("accuracy"), "accuracy",
            peers="= scikit-learn accuracy_score, = AIF360 accuracy", math=r"P[\hat Y = Y]",
        ),
        Measure(
            "TPR", "accuracy", 1, "P[Y_hat = 1 | Y = 1]", _overall("TPR"), "TPR",
            peers="= AIF360 true_positive_rate", math=r"P[\hat Y = 1 \mid Y = 1]",
        ),
        Measure(
            "TNR", "accuracy", 1, "P[Y_hat = 0 | Y = 0]", _overall("TNR"), "TNR",
            peers="= AIF360 true_negative_rate", math=r"P[\hat Y = 0 \mid Y = 0]",
        ),
        Measure(
            "BCR", "accuracy", 1, "(TPR + TNR) / 2", _bcr, "BCR",
            math=r"\tfrac{1}{2}(\mathrm{TPR} + \mathrm{TNR})",
        ),
        Measure(
            "balanced_accuracy", "accuracy", 1, "scikit-learn's name for BCR", _bcr,
            peers="= scikit-learn balanced_accuracy_score",
            math=r"\tfrac{1}{2}(\mathrm{TPR} + \mathrm{TNR}) \ \text{(BCR)}",
        ),
        Measure(
            "MCC", "accuracy", 1, "Matthews correlation coefficient", _mcc, "MCC",
            bounds=(-1.0, 1.0), peers="= scikit-learn matthews_corrcoef",
            math=(
                r"\frac{\mathrm{TP}\,\mathrm{TN} - \mathrm{FP}\,\mathrm{FN}}{\sqrt{(\mathrm{TP} "
                r"+ \mathrm{FP})(\mathrm{TP} + \mathrm{FN})(\mathrm{TN} + \mathrm{FP})"
                r"(\mathrm{TN} + \mathrm{FN})}}"
            ),
        ),
        Measure(
            "AUC", "accuracy", 1, "area under the ROC curve", _auc, needs_scores=True,
            peers="= scikit-learn roc_auc_score",
            math=r"P[f(X) > f(X') \mid Y = 1, Y' = 0] \ \text{(ties count one half)}",
        ),
    ]  # fmt: skip
    base_rates = [
        Measure(
            "DIbinary", "fairness", 1, "P[Y_hat = 1 | S != priv] / P[Y_hat = 1 | S = priv]",
            _di_binary, "DIbinary", ratio=True, bounds=(0.0, INF),
            peers="= AIF360 disparate_impact", math=r"r_{\bar p} / r_p",
            rates=("positive_rate",), pooled=True,
        ),
        Measure(
            "DIavgall", "fairness", 1, "mean over unprivileged s of P[+ | S = s] / P[+ | priv]",
            _comparative("positive_rate", "ratio"), "DIavgall", ratio=True, bounds=(0.0, INF),
            math=r"\tfrac{1}{\lvert U \rvert} \textstyle\sum_{s \in U} r_s / r_p",
            rates=("positive_rate",),
        ),
        Measure(
            "CV", "fairness", 1, "1 - (P[Y_hat = 1 | S = priv] - P[Y_hat = 1 | S != priv])",
            _cv_binary, "CV", bounds=(0.0, 2.0),
            peers="= 1 + AIF360 statistical_parity_difference", math=r"1 - (r_p - r_{\bar p})",
            rates=("positive_rate",), pooled=True,
        ),
        Measure(
            "CVavgall", "fairness", 1, "mean over unprivileged s of 1 - (P[+ | priv] - P[+ | s])",
            _comparative("positive_rate", "diff"), bounds=(0.0, 2.0),
            math=r"\tfrac{1}{\lvert U \rvert} \textstyle\sum_{s \in U} \big(1 - (r_p - r_s)\big)",
            rates=("positive_rate",),
        ),
    ]  # fmt: skip
    group_conditioned = []
    for rate in GROUP_RATES:
        symbol = _RATE_SYMBOLS[rate]
        group_conditioned += [
            Measure(
                # an error rate's ideal is 0; every other rate's, 1
                f"sensitive-{rate}", "fairness", 0 if rate in ("FPR", "FNR") else 1,
                f"{rate} per group and its mean",
                _sensitive(rate), f"{{attribute}}-{rate}", f"{{group}}-{rate}",
                math=_per_group(rate), rates=(rate,),
            ),
            Measure(
                f"comparative-sensitive-{rate}-ratio", "fairness", 1,
                f"{rate} of each unprivileged group / privileged, and the mean",
                _comparative(rate, "ratio"), f"{{attribute}}-{rate}Ratio", ratio=True,
                bounds=(0.0, INF), math=rf"{symbol}_s / {symbol}_p{_EACH_OTHER}", rates=(rate,),
            ),
            Measure(
                f"comparative-sensitive-{rate}-diff", "fairness", 1,
                f"1 - ({rate} privileged - {rate} of each unprivileged group), and the mean",
                _comparative(rate, "diff"), f"{{attribute}}-{rate}Diff", bounds=(0.0, 2.0),
                math=rf"1 - ({symbol}_p - {symbol}_s){_EACH_OTHER}", rates=(rate,),
            ),
        ]  # fmt: skip
    modern = [
        Measure(
            "demographic_parity_difference", "fairness", 0,
            "max - min positive rate over groups (fairlearn)", _spread("positive_rate"),
            peers="= fairlearn demographic_parity_difference",
            math=r"\max_{s \in G} r_s - \min_{s \in G} r_s", rates=("positive_rate",),
        ),
        Measure(
            "demographic_parity_ratio", "fairness", 1,
            "min / max positive rate over groups (fairlearn)", _spread("positive_rate", ratio=True),
            ratio=True, peers="= fairlearn demographic_parity_ratio",
            math=r"\min_{s \in G} r_s / \max_{s \in G} r_s", rates=("positive_rate",),
        ),
        Measure(
            "equalized_odds_difference", "fairness", 0,
            "larger of the TPR and FPR spreads over groups (fairlearn)", _spread("TPR", "FPR"),
            peers=(
                "= fairlearn equalized_odds_difference; with two groups = AIF360 "
                "equalized_odds_difference (AIF360 pools the unprivileged groups)"
            ),
            math=(
                r"\max\big(\max_s \mathrm{TPR}_s - \min_s \mathrm{TPR}_s,\ "
                r"\max_s \mathrm{FPR}_s - \min_s \mathrm{FPR}_s\big)"
            ),
            rates=("TPR", "FPR"),
        ),
        Measure(
            "equal_opportunity_difference", "fairness", 0,
            "max - min TPR over groups (fairlearn)", _spread("TPR"),
            peers=(
                "= fairlearn equal_opportunity_difference; with two groups = |AIF360 "
                "equal_opportunity_difference| (AIF360: TPR of the unprivileged groups pooled "
                "- TPR privileged, signed)"
            ),
            math=r"\max_{s \in G} \mathrm{TPR}_s - \min_{s \in G} \mathrm{TPR}_s",
            rates=("TPR",),
        ),
        Measure(
            "average_odds_difference", "fairness", 0,
            "((TPR_priv - TPR_rest) + (FPR_priv - FPR_rest)) / 2 (Maity et al. App. F)",
            _average_odds, bounds=(-1.0, 1.0),
            peers="= -AIF360 average_odds_difference (AIF360: unprivileged - privileged)",
            math=(
                r"\tfrac{1}{2}\big((\mathrm{TPR}_p - \mathrm{TPR}_{\bar p}) + "
                r"(\mathrm{FPR}_p - \mathrm{FPR}_{\bar p})\big)"
            ),
            rates=("TPR", "FPR"), pooled=True,
        ),
        Measure(
            "sensitive-AUC", "fairness", 1, "AUC per group and its mean", _sensitive_auc,
            needs_scores=True,
            math=(
                r"\mathrm{AUC}_s \ \text{for each } s \in G\text{, and } "
                r"\tfrac{1}{\lvert G \rvert} \textstyle\sum_{s \in G} \mathrm{AUC}_s"
            ),
            rates=("TPR", "TNR"),  # an AUC ranks each positive against each negative
        ),
    ]  # fmt: skip
    return accuracy + base_rates + group_conditioned + modern


#: Every measure of the catalogue by name (``faircompare list measures``).
MEASURES: Mapping[str, Measure] = {measure.name: measure for measure in _catalogue()}


def get_measures(names: Iterable[str] | None = None, *, scores: bool = True) -> list[Measure]:
    """Return the named measures.

    Parameters
    ----------
    names
        Measure names; every measure when None.
    scores
        Whether scores are available; without them, score-based measures (AUC) are left out
        of the default list.

    Returns
    -------
    list of Measure
        The measures, in the catalogue's order by default.
    """
    if names is None:
        return [m for m in MEASURES.values() if scores or not m.needs_scores]
    return [MEASURES[check_choice(name, MEASURES, what="measure")] for name in names]


def evaluate(
    y_true: Any,
    y_pred: Any,
    sensitive_features: Any,
    *,
    privileged: Any,
    scores: Any = None,
    measures: Iterable[str] | None = None,
) -> pd.DataFrame:
    """Compute measures from one pass over the predictions, in long form.

    Parameters
    ----------
    y_true, y_pred
        Labels and predictions, 1 for the positive outcome and 0 otherwise.
    sensitive_features
        The sensitive attribute's value for each row.
    privileged
        The privileged value of the sensitive attribute.
    scores
        Scores of the positive outcome; score-based measures (AUC) are computed only with them.
    measures
        Names of the measures to compute; all by default.

    Returns
    -------
    pandas.DataFrame
        Columns ``measure``, ``group`` (``""`` for aggregates) and ``value``; a value that is
        undefined (an empty group) is NaN, with an :class:`UndefinedMeasureWarning`.
    """
    rows = measure_rows(
        y_true, y_pred, sensitive_features, privileged=privileged, scores=scores, measures=measures
    )
    frame = pd.DataFrame([row[1:] for row in rows], columns=["measure", "group", "value"])
    return frame.astype({"value": float})


def measure_rows(
    y_true: Any,
    y_pred: Any,
    sensitive_features: Any,
    *,
    privileged: Any,
    scores: Any = None,
    measures: Iterable[str] | None = None,
    part: str = "test",
) -> tuple[MeasureRow, ...]:
    """Compute measures as the rows a run stores (see :func:`evaluate` for the parameters).

    Parameters
    ----------
    y_true, y_pred, sensitive_features, privileged, scores, measures
        As for :func:`evaluate`.
    part
        What the predictions are scored on: ``"test"``, or ``"validation"``.

    Returns
    -------
    tuple of MeasureRow
        One row per measure and group, in the catalogue's order.
    """
    stats = GroupStats.from_predictions(
        y_true, y_pred, sensitive_features, privileged=privileged, scores=scores
    )
    return tuple(
        MeasureRow(part, measure.name, group, float(value))
        for measure in get_measures(measures, scores=scores is not None)
        for group, value in measure.values(stats).items()
    )
