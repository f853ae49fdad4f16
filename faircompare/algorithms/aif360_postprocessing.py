"""AIF360's post-processing methods, each over logistic regression's training probabilities.

- Pleiss et al. (NeurIPS 2017) calibrated equalized odds,
- Hardt et al. (NeurIPS 2016) equalized odds by randomised label flips,
- Kamiran et al. (ICDM 2012) reject option classification.

Each fits logistic regression (standardised features), scores the training data with it, fits
AIF360's post-processor on the true and the predicted training labels, and applies it to the
test scores; all use the sensitive attribute at prediction time. Reject option classification's
search is AIF360's computed from sorted scores (the same choice, tested): AIF360 builds its
metric objects for each of its 5,000 settings (70 s per fit on Adult). Where AIF360's ``predict``
randomises in row order, so that a person's label depends on the rows predicted with them, the
same probabilities are drawn per row (:mod:`~faircompare.algorithms.rowhash`). They need the
optional ``aif360`` extra; without it the registry lists them as unavailable.
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np
from aif360.algorithms.postprocessing import CalibratedEqOddsPostprocessing, EqOddsPostprocessing

from faircompare._validation import check_choice
from faircompare.algorithms.aif360_data import GROUPS, binary_label_dataset
from faircompare.algorithms.base import FairEstimator, binary_sensitive
from faircompare.algorithms.libraries import AIF360
from faircompare.algorithms.reductions import logistic_regression
from faircompare.algorithms.rowhash import row_uniform
from faircompare.algorithms.search import Dimension, Real
from faircompare.algorithms.thresholds import HARDT_2016
from faircompare.bibliography import Reference

#: Pleiss et al.'s calibrated equalized odds.
PLEISS_2017 = Reference(
    key="pleiss2017fairness",
    authors=(
        "Pleiss, Geoff",
        "Raghavan, Manish",
        "Wu, Felix",
        "Kleinberg, Jon",
        "Weinberger, Kilian Q.",
    ),
    title="On Fairness and Calibration",
    year=2017,
    venue="Advances in Neural Information Processing Systems 30 (NeurIPS 2017)",
    url="https://arxiv.org/abs/1709.02012",
)

#: Kamiran, Karim and Zhang's reject option classification.
KAMIRAN_2012 = Reference(
    key="kamiran2012decision",
    authors=("Kamiran, Faisal", "Karim, Asim", "Zhang, Xiangliang"),
    title="Decision Theory for Discrimination-Aware Classification",
    year=2012,
    venue="2012 IEEE 12th International Conference on Data Mining (ICDM)",
    pages="924-929",
    doi="10.1109/ICDM.2012.45",
)


class _Postprocessed(FairEstimator):
    """Logistic regression, then an AIF360 post-processor fitted on its training predictions."""

    family: ClassVar[str] = "post-processing"
    library: ClassVar[str] = "aif360"
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})
    uses_sensitive_at_predict: ClassVar[bool] = True

    def _postprocessor(self) -> Any:
        raise NotImplementedError

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> _Postprocessed:
        """Fit logistic regression, then the post-processor on its training probabilities."""
        features, labels = self.validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), type(self).__name__)
        self.model_ = logistic_regression().fit(features, labels)
        self._fit_postprocessor(labels, s, self.model_.predict_proba(features)[:, 1])
        return self

    def _fit_postprocessor(self, labels: np.ndarray, s: np.ndarray, scores: np.ndarray) -> None:
        """Fit AIF360's post-processor on the true and the predicted training labels."""
        predicted = binary_label_dataset((scores > 0.5).astype(int), s, scores=scores)
        self.postprocessor_ = self._postprocessor().fit(binary_label_dataset(labels, s), predicted)

    def _scores(self, X: Any, sensitive_features: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the rows as a float matrix, their 0/1 sensitive attribute and their scores."""
        features = self.fitted_features(X)
        s = self.binary_sensitive_for_predict(features, sensitive_features)
        return features, s, self.model_.predict_proba(features)[:, 1]


class _Randomised(_Postprocessed):
    """A post-processor whose labels are drawn per row: its expected prediction is its score."""

    def _positive_probability(self, s: np.ndarray, scores: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Return the probability that the randomised classifier predicts each label.

        Its expected prediction: the scores measured, and the loss the individual test
        attacks (its draws would move that loss at every step of the attack).

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            The rows' sensitive attribute (0/1, 1 privileged).

        Returns
        -------
        numpy.ndarray
            Shape (rows, 2): the probabilities of labels 0 and 1.
        """
        _, s, scores = self._scores(X, sensitive_features)
        positive = self._positive_probability(s, scores)
        return np.column_stack([1.0 - positive, positive])


class AIF360CalibratedEqualizedOdds(_Randomised):
    """Calibrated equalized-odds post-processing of logistic regression's probabilities.

    Parameters
    ----------
    cost_constraint
        ``"fnr"``, ``"fpr"`` or ``"weighted"``: which error rates to equalise.
    random_state
        Seed of the randomised mixing.
    """

    name: ClassVar[str] = "aif360-calibrated-eo"
    references: ClassVar[tuple[Reference, ...]] = (PLEISS_2017, AIF360)
    # 2: mixing drawn per row (row hash); 3: predict_proba, the expected prediction (#80)
    version: ClassVar[str] = "3"

    def __init__(self, cost_constraint: str = "weighted", random_state: int | None = 0) -> None:
        self.cost_constraint = cost_constraint
        self.random_state = random_state

    def _postprocessor(self) -> CalibratedEqOddsPostprocessing:
        return CalibratedEqOddsPostprocessing(
            cost_constraint=self.cost_constraint, seed=self.random_state, **GROUPS
        )

    def _positive_probability(self, s: np.ndarray, scores: np.ndarray) -> np.ndarray:
        # with the group's mixing rate its base rate decides the label, else the row's score
        mix, base = self._mixing(s)
        return mix * (base >= 0.5) + (1 - mix) * (scores >= 0.5)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Mix each group's probabilities as fitted, then threshold at 1/2.

        AIF360's ``predict`` replaces a row's probability by its group's base rate with the
        group's mixing rate; here each row's draw comes from a hash of its features.
        """
        features, s, scores = self._scores(X, sensitive_features)
        mix, base = self._mixing(s)
        mixed = np.where(row_uniform(features, self.random_state) <= mix, base, scores)
        return self.to_labels(mixed >= 0.5)

    def _mixing(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return each row's group's mixing rate and base rate, as fitted.

        AIF360 solves for the mixing rate without bounds, and it can fall outside [0, 1] (-7.2
        on violent recidivism): its draw then mixes never or always, the rate clipped.
        """
        fitted = self.postprocessor_
        mix = np.where(s == 1, fitted.priv_mix_rate, fitted.unpriv_mix_rate)
        base = np.where(s == 1, fitted.base_rate_priv, fitted.base_rate_unpriv)
        return np.clip(mix, 0.0, 1.0), base


class AIF360EqualizedOdds(_Randomised):
    """Hardt et al.'s equalized odds: each group's predicted labels flipped at fitted rates.

    AIF360's ``EqOddsPostprocessing`` solves the linear program of Hardt et al. (§3.2) for the
    probabilities that a predicted positive stays positive and that a predicted negative becomes
    positive, per group, minimising the expected error subject to equal true and false positive
    rates on the training data.

    Parameters
    ----------
    random_state
        Seed of the randomised flips.
    """

    name: ClassVar[str] = "aif360-eq-odds"
    references: ClassVar[tuple[Reference, ...]] = (HARDT_2016, AIF360)
    version: ClassVar[str] = "2"  # 2: predict_proba, the expected prediction (#80)

    def __init__(self, random_state: int | None = 0) -> None:
        self.random_state = random_state

    def _postprocessor(self) -> EqOddsPostprocessing:
        return EqOddsPostprocessing(seed=self.random_state, **GROUPS)

    def positive_probability(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Return each row's probability of a positive label after the flips.

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            The rows' sensitive attribute (0/1, 1 privileged).

        Returns
        -------
        numpy.ndarray
            P(positive | predicted label, group), from the fitted linear program.
        """
        _, s, scores = self._scores(X, sensitive_features)
        return self._positive_probability(s, scores)

    def _positive_probability(self, s: np.ndarray, scores: np.ndarray) -> np.ndarray:
        # AIF360's model_params: privileged (p2p, n2p), then unprivileged (p2p, n2p)
        priv_p2p, priv_n2p, unpriv_p2p, unpriv_n2p = self.postprocessor_.model_params.x
        keep = np.where(s == 1, priv_p2p, unpriv_p2p)
        flip = np.where(s == 1, priv_n2p, unpriv_n2p)
        return np.where(scores > 0.5, keep, flip)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Flip each row's predicted label with its group's fitted probability, drawn per row."""
        features, s, scores = self._scores(X, sensitive_features)
        draws = row_uniform(features, self.random_state)
        return self.to_labels(draws < self._positive_probability(s, scores))


class AIF360RejectOption(_Postprocessed):
    """Kamiran et al.'s reject option classification of logistic regression's probabilities.

    Rows whose score lies within ``margin`` of the threshold (the critical region) get the
    favourable label if unprivileged and the unfavourable one if privileged; the others keep the
    threshold's decision. The threshold and the margin are chosen on the training data as
    AIF360's ``RejectOptionClassification.fit`` chooses them (:func:`reject_option_search`): the
    most balanced accuracy whose fairness metric lies within its bounds. ``predict`` applies
    that rule to the scores as AIF360's ``predict`` does (the same comparisons, tested equal),
    without building an AIF360 dataset per call: the audits predict in many small batches.

    Parameters
    ----------
    metric_name
        The metric held within bounds: ``"Statistical parity difference"``, ``"Average odds
        difference"`` or ``"Equal opportunity difference"``.
    metric_bound
        The bound on the metric's absolute value.
    thresholds, margins
        Sizes of the search grid: classification thresholds in [0.01, 0.99], and margins for
        each threshold (AIF360's ``num_class_thresh`` and ``num_ROC_margin``).
    """

    name: ClassVar[str] = "aif360-reject-option"
    references: ClassVar[tuple[Reference, ...]] = (KAMIRAN_2012, AIF360)
    param_grid: ClassVar[dict[str, list]] = {"metric_bound": [0.01, 0.025, 0.05, 0.1, 0.2]}
    search_space: ClassVar[dict[str, Dimension]] = {"metric_bound": Real(0.01, 0.2, log=True)}

    def __init__(
        self,
        metric_name: str = "Statistical parity difference",
        metric_bound: float = 0.05,
        thresholds: int = 100,
        margins: int = 50,
    ) -> None:
        self.metric_name = metric_name
        self.metric_bound = metric_bound
        self.thresholds = thresholds
        self.margins = margins

    def _fit_postprocessor(self, labels: np.ndarray, s: np.ndarray, scores: np.ndarray) -> None:
        """Choose the threshold and the margin on the training scores."""
        check_choice(self.metric_name, REJECT_OPTION_METRICS, what="reject option metric")
        self.threshold_, self.margin_ = reject_option_search(
            scores, labels, s, self.metric_name, self.metric_bound, self.thresholds, self.margins
        )

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Threshold the scores, with the critical region's decisions by group."""
        _, s, scores = self._scores(X, sensitive_features)
        threshold, margin = self.threshold_, self.margin_
        critical = (scores > threshold - margin) & (scores <= threshold + margin)
        return self.to_labels(np.where(critical, s == 0, scores > threshold))


REJECT_OPTION_METRICS = (
    "Statistical parity difference",
    "Average odds difference",
    "Equal opportunity difference",
)


def reject_option_search(
    scores: np.ndarray,
    labels: np.ndarray,
    s: np.ndarray,
    metric_name: str,
    bound: float,
    thresholds: int,
    margins: int,
) -> tuple[float, float]:
    """Choose the threshold and margin as AIF360's ``RejectOptionClassification.fit`` does.

    Kamiran et al. (ICDM 2012), §4 (reject option based classification), with AIF360's search:
    ``thresholds`` thresholds t in [0.01, 0.99], for each ``margins`` margins m in
    [0, min(t, 1 - t)]; the setting of most balanced accuracy on the training data among those
    whose metric (unprivileged minus privileged) lies in [-bound, bound], the first in AIF360's
    order; if none does, AIF360's fallback, the setting of the lowest metric (with a warning).

    The critical region (t - m, t + m] goes to the unprivileged, so an unprivileged row is
    predicted favourable when its score exceeds t - m and a privileged one when it exceeds
    t + m. Every rate over the grid is then a count of scores above a cut, read from each
    (group, label) cell's sorted scores: the same counts, and the same divisions of them, as
    AIF360's metric objects, built there for every setting.

    Returns
    -------
    tuple of float
        The threshold and the margin.
    """
    threshold = np.linspace(0.01, 0.99, thresholds)
    widest = np.where(threshold <= 0.5, threshold, 1.0 - threshold)
    margin = np.linspace(0.0, widest, margins, axis=1)  # row i: AIF360's margins for threshold i
    threshold = np.broadcast_to(threshold[:, None], margin.shape)
    cuts = (threshold - margin, threshold + margin)  # by group: 0 unprivileged, 1 privileged
    favourable, rows = {}, {}  # counts over the grid, and rows, by (group, label)
    for group, cut in enumerate(cuts):
        for label in (0, 1):
            cell = np.sort(scores[(s == group) & (labels == label)])
            favourable[group, label] = len(cell) - np.searchsorted(cell, cut, side="right")
            rows[group, label] = float(len(cell))
    with np.errstate(divide="ignore", invalid="ignore"):  # an empty cell gives NaN, as in AIF360
        tpr = (favourable[0, 1] + favourable[1, 1]) / (rows[0, 1] + rows[1, 1])
        negatives = rows[0, 0] + rows[1, 0]
        tnr = (negatives - favourable[0, 0] - favourable[1, 0]) / negatives
        balanced = 0.5 * (tpr + tnr)
        group_tpr = [favourable[g, 1] / rows[g, 1] for g in (0, 1)]
        group_fpr = [favourable[g, 0] / rows[g, 0] for g in (0, 1)]
        base_rate = [
            (favourable[g, 1] + favourable[g, 0]) / (rows[g, 1] + rows[g, 0]) for g in (0, 1)
        ]
        metric = {
            "Statistical parity difference": base_rate[0] - base_rate[1],
            "Average odds difference": 0.5
            * ((group_fpr[0] - group_fpr[1]) + (group_tpr[0] - group_tpr[1])),
            "Equal opportunity difference": group_tpr[0] - group_tpr[1],
        }[metric_name]
    within = (metric >= -bound) & (metric <= bound)
    if within.any():
        best = np.flatnonzero(within)[np.argmax(balanced[within])]
    else:
        warnings.warn(
            f"reject option: no threshold and margin keep the {metric_name.lower()} within "
            f"+/-{bound} on the training data; the lowest one is chosen, as in AIF360",
            stacklevel=3,
        )
        best = int(np.argmin(metric))
    return float(threshold.flat[best]), float(margin.flat[best])
