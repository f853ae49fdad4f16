"""Calders & Verwer (DMKD 2010) two naive Bayes.

One naive Bayes model per sensitive value, with the class priors of the two models shifted until
the predictions stop discriminating.

Each group s has its own feature model P(x | y, s) (binary features: frequencies smoothed by a
Dirichlet prior of beta / 2 per value; numeric features: Gaussians) and smoothed joint class
counts N(y, s) + alpha / 2, the priors of the authors' implementation (Kamishima's ``fadm``,
``CaldersVerwerTwoNaiveBayes``: alpha / n_classes per class, beta / n_values per value of a
discrete feature). A one-hot encoded categorical feature is modelled here as one binary feature
per value, where the original models it as one discrete feature. The joint class counts
N(y, s) are then adjusted as in Calders & Verwer's modification algorithm: while the discrimination
disc = P(y_hat = 1 | s = 1) - P(y_hat = 1 | s = 0) of the training predictions exceeds its
target, move ``delta`` of the counts toward the positive class in the deprived group when the
model predicts fewer positives than the data hold, and toward the negative class in the favoured
group otherwise. The counts of each group keep their total.

Only the class priors change between iterations, so each row's feature log-likelihood ratio is
computed once and an iteration costs one comparison per row. CV = 1 - disc, so the target
``max_discrimination`` is a CV target of 1 - max_discrimination.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from scipy.special import expit

from faircompare._validation import check_choice
from faircompare.algorithms.base import (
    FairEstimator,
    binary_sensitive,
)
from faircompare.bibliography import Reference

#: Calders and Verwer's two naive Bayes (§4.2).
CALDERS_VERWER_2010 = Reference(
    key="calders2010three",
    authors=("Calders, Toon", "Verwer, Sicco"),
    title="Three naive Bayes approaches for discrimination-free classification",
    year=2010,
    venue="Data Mining and Knowledge Discovery",
    kind="article",
    volume="21(2)",
    pages="277-292",
    doi="10.1007/s10618-010-0190-x",
)


#: How :class:`TwoNaiveBayes` models a feature that is not binary.
NUMERIC = ("gaussian", "values")
#: How :class:`TwoNaiveBayes` codes the groups and labels for its loop.
GROUP_CODES = ("privileged", "first-seen")


class TwoNaiveBayes(FairEstimator):
    """Calders & Verwer's two naive Bayes, with their discrimination-removing class priors.

    Parameters
    ----------
    beta
        Prior count of each binary feature, shared by its two values (beta / 2 each; default 1,
        as the original implementation).
    alpha
        Prior count of the classes, shared by the two (alpha / 2 each; default 1, as the
        original).
    delta
        Share of a class count moved at each iteration.
    max_discrimination
        Stop once P(y_hat = 1 | privileged) - P(y_hat = 1 | other) is at most this.
    max_iter
        Iteration limit.
    var_smoothing
        Share of the largest variance added to the Gaussian variances, for stability.
    numeric
        How a feature that is not binary is modelled: ``"gaussian"`` (the default), or
        ``"values"``, each distinct training value a category (smoothed by beta / K, K its
        values and one for a value unseen in training), as the paper's benchmark gave the
        authors' code every feature.
    group_codes
        ``"privileged"`` (the default): the loop removes discrimination against the groups
        other than the privileged one; ``"first-seen"``: the groups and the labels coded 0 and
        1 by the order they first appear in the training rows, as the paper's benchmark coded
        them for the authors' code, whose loop runs only while code 1's positive rate in group
        code 1 exceeds group code 0's: it removes the discrimination where the first training
        row is privileged and positive, or neither, and does nothing otherwise.
    """

    family: ClassVar[str] = "in-processing"
    references: ClassVar[tuple[Reference, ...]] = (CALDERS_VERWER_2010,)
    supports: ClassVar[frozenset[str]] = frozenset({"numerical+binary"})
    param_grid: ClassVar[dict[str, list]] = {"beta": [1.0]}  # Friedler et al. use beta = 1
    uses_sensitive_at_predict: ClassVar[bool] = True

    version: ClassVar[str] = "2"  # 2: the original's priors, beta / 2 and alpha / 2

    def __init__(
        self,
        beta: float = 1.0,
        alpha: float = 1.0,
        delta: float = 0.01,
        max_discrimination: float = 0.0,
        max_iter: int = 10_000,
        var_smoothing: float = 1e-9,
        numeric: str = "gaussian",
        group_codes: str = "privileged",
    ) -> None:
        self.beta = beta
        self.alpha = alpha
        self.delta = delta
        self.max_discrimination = max_discrimination
        self.max_iter = max_iter
        self.var_smoothing = var_smoothing
        self.numeric = numeric
        self.group_codes = group_codes

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> TwoNaiveBayes:
        """Fit both feature models, then adjust the class counts on the training data."""
        features, labels = self.validate_fit(X, y)
        s = binary_sensitive(sensitive_features, len(features), "TwoNaiveBayes")
        check_choice(self.numeric, NUMERIC, what="numeric")
        check_choice(self.group_codes, GROUP_CODES, what="group_codes")
        # coded by first sight, the first row's group and label are 0: the loop sees the
        # discrimination's sign flipped once for each, and runs only when it is positive
        flips = (s[0] == 1) != (labels[0] == 1)
        self.swapped_ = self.group_codes == "first-seen" and bool(flips)
        s = 1 - s if self.swapped_ else s
        self.binary_ = np.isin(features, (0, 1)).all(axis=0)
        self.by_value_ = ~self.binary_ if self.numeric == "values" else np.zeros_like(self.binary_)
        self._fit_feature_models(features, labels, s)
        counts = np.array(
            [[np.sum((labels == c) & (s == g)) for g in (0, 1)] for c in (0, 1)], dtype=float
        )  # counts[class, group]
        self.class_counts_, self.n_iter_ = self._balance(counts, self._log_ratio(features, s), s)
        self.discrimination_ = self._discrimination(features, s)
        return self

    def _fit_feature_models(self, X: np.ndarray, y: np.ndarray, s: np.ndarray) -> None:
        """Per (class, group): Bernoulli probabilities of binary features, Gaussians of others.

        With ``numeric="values"``, the others' values' probabilities instead.
        """
        binary, continuous = X[:, self.binary_], X[:, self._gaussian]
        self._fit_values(X[:, self.by_value_], y, s)
        shape = (2, 2)
        self.p_one_ = np.empty(shape + (binary.shape[1],))
        self.mean_ = np.empty(shape + (continuous.shape[1],))
        self.var_ = np.empty(shape + (continuous.shape[1],))
        epsilon = max(self.var_smoothing * continuous.var(0).max(initial=0.0), 1e-12)
        for c in (0, 1):
            for g in (0, 1):
                rows = (y == c) & (s == g)
                count = rows.sum()
                self.p_one_[c, g] = (binary[rows].sum(0) + self.beta / 2) / (count + self.beta)
                self.mean_[c, g] = continuous[rows].mean(0) if count else continuous.mean(0)
                spread = continuous[rows].var(0) if count > 1 else continuous.var(0)
                self.var_[c, g] = spread + epsilon

    @property
    def _gaussian(self) -> np.ndarray:
        """The features modelled by Gaussians: neither binary nor taken by value."""
        return np.asarray(~self.binary_ & ~self.by_value_)

    def _fit_values(self, X: np.ndarray, y: np.ndarray, s: np.ndarray) -> None:
        """Per feature taken by value: its training values and their log-probabilities.

        ``log_p_values_[j][c, g, k]``: value k's for class c and group g, smoothed by beta / K
        (K the values and one more, the last, for a value unseen in training).
        """
        self.values_ = [np.unique(column) for column in X.T]
        self.log_p_values_ = []
        for values, column in zip(self.values_, X.T, strict=True):
            codes, k = np.searchsorted(values, column), len(values) + 1
            table = np.empty((2, 2, k))
            for c in (0, 1):
                for g in (0, 1):
                    rows = (y == c) & (s == g)
                    counts = np.bincount(codes[rows], minlength=k)
                    table[c, g] = np.log((counts + self.beta / k) / (rows.sum() + self.beta))
            self.log_p_values_.append(table)

    def _log_ratio(self, X: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Log P(x | y = 1, s) - log P(x | y = 0, s) for each row, under its group's model."""
        binary, continuous = X[:, self.binary_], X[:, self._gaussian]
        log_ratio = self._values_log_ratio(X[:, self.by_value_], s)
        for g in (0, 1):
            rows = s == g
            log_p1 = np.log(self.p_one_[:, g])
            log_p0 = np.log1p(-self.p_one_[:, g])
            b = binary[rows]
            log_ratio[rows] += b @ (log_p1[1] - log_p1[0]) + (1 - b) @ (log_p0[1] - log_p0[0])
            x = continuous[rows]
            for c, sign in ((1, 1.0), (0, -1.0)):
                mean, var = self.mean_[c, g], self.var_[c, g]
                log_density = -0.5 * (np.log(2 * np.pi * var) + (x - mean) ** 2 / var)
                log_ratio[rows] += sign * log_density.sum(1)
        return log_ratio

    def _values_log_ratio(self, X: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Return the log-likelihood ratio of the features taken by value (0 where none are)."""
        log_ratio = np.zeros(len(X))
        for values, table, column in zip(self.values_, self.log_p_values_, X.T, strict=True):
            place = np.minimum(np.searchsorted(values, column), len(values) - 1)
            codes = np.where(values[place] == column, place, len(values))  # unseen: the last
            log_ratio += table[1, s, codes] - table[0, s, codes]
        return log_ratio

    def _prior_log_odds(self, counts: np.ndarray) -> np.ndarray:
        """Log P(y = 1 | s) - log P(y = 0 | s) per group, from smoothed class counts."""
        return np.log(counts[1] + self.alpha / 2) - np.log(counts[0] + self.alpha / 2)

    def _balance(
        self, counts: np.ndarray, log_ratio: np.ndarray, s: np.ndarray
    ) -> tuple[np.ndarray, int]:
        """Calders & Verwer's loop: shift class counts until the discrimination is small."""
        actual_positives = counts[1].sum()
        for iteration in range(self.max_iter):
            predicted = log_ratio + self._prior_log_odds(counts)[s] > 0
            rates = [predicted[s == g].mean() for g in (0, 1)]
            if rates[1] - rates[0] <= self.max_discrimination:
                return counts, iteration
            moved = counts.copy()
            if predicted.sum() < actual_positives:  # more positives for the deprived group
                step = self.delta * counts[0, 1]
                moved[1, 0] += step
                moved[0, 0] -= step
            else:  # fewer positives for the favoured group
                step = self.delta * counts[1, 0]
                moved[0, 1] += step
                moved[1, 1] -= step
            if (moved < 0).any():
                return counts, iteration
            counts = moved
        return counts, self.max_iter

    def _discrimination(self, X: np.ndarray, s: np.ndarray) -> float:
        predicted = self._scores(X, s) > 0
        return float(predicted[s == 1].mean() - predicted[s == 0].mean())

    def _scores(self, X: np.ndarray, s: np.ndarray) -> np.ndarray:
        return self._log_ratio(X, s) + self._prior_log_odds(self.class_counts_)[s]

    def _inputs(self, X: Any, sensitive_features: Any) -> tuple[np.ndarray, np.ndarray]:
        features = self.fitted_features(X)
        s = self.binary_sensitive_for_predict(features, sensitive_features)
        return features, 1 - s if self.swapped_ else s

    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Posterior log-odds of label 1 under each row's group model and adjusted priors."""
        return self._scores(*self._inputs(X, sensitive_features))

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Class probabilities, columns for labels 0 and 1."""
        p = expit(self.decision_function(X, sensitive_features=sensitive_features))
        return np.column_stack([1 - p, p])

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict label 1 (``classes_[1]``) where the posterior log-odds are positive."""
        return self.to_labels(self.decision_function(X, sensitive_features=sensitive_features) > 0)
