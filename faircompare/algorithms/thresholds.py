"""Group-specific randomised thresholds that maximise accuracy under a relaxed parity constraint.

Hardt, Price & Srebro (NeurIPS 2016, §4) post-process a score by a threshold per group, drawn at
random between two thresholds where the optimum needs it: each group's achievable (false
positive rate, true positive rate) pairs are the convex hull of its ROC curve, and the most
accurate pairs that satisfy the parity constraint solve a linear program. Cruz & Hardt
("Unprocessing seven years of algorithmic fairness", ICLR 2024, §3) relax the constraint to a
tolerance: the rates may differ between groups by at most ``tolerance``. The frontier that the
tolerances trace is the yardstick of :mod:`faircompare.algorithms.unprocessed`.

The linear program is solved exactly (HiGHS, through :func:`scipy.optimize.linprog`), over the
vertices of each group's ROC hull:

- variables: a weight ``w[g, v] >= 0`` per group ``g`` and hull vertex ``v`` (the rule "label 1
  where the score is at least the vertex's threshold"), ``sum_v w[g, v] = 1``, and the lower
  edge ``b[m]`` of a band of width ``tolerance`` per constrained rate ``m``;
- objective: the accuracy ``sum_g n_g / n sum_v w[g, v] accuracy[g, v]``;
- constraints: ``b[m] <= sum_v w[g, v] rate_m[g, v] <= b[m] + tolerance`` for every group.

The program fixes each group's point (FPR, TPR), and with it the group's accuracy and rates, but
not the mix of rules that reaches it: where the point lies inside the hull, many mixes do, and
the solver's vertex may mix far-apart thresholds, which generalise poorly in a small group
(Adult's race "Other", equalized odds at tolerance 0: thresholds 0.08, 0.25 and 0.95). Each
group's point is then reached with the least randomisation, as Cruz & Hardt's ``error-parity``
does: the two adjacent rules of the hull's upper chain at the point's FPR, mixed, where the
point lies below that chain, with labels drawn at random at that FPR (the hull's diagonal: the
rules "nobody" and "everybody"). The rates, and so the accuracy, are the same to rounding.

Demographic parity constrains the selection rate (fairlearn's
``demographic_parity_difference`` is then at most ``tolerance`` on the data fitted), equalized
odds the true and the false positive rates (``equalized_odds_difference``). fairlearn's
:class:`~fairlearn.postprocessing.ThresholdOptimizer` relaxes demographic parity on a grid of
rates but refuses to relax equalized odds (fairlearn 0.15: "Relaxation is not supported for
equalized odds"), so one exact program serves both constraints and every tolerance here; the
tests check it against fairlearn wherever fairlearn solves the same problem.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from faircompare.bibliography import Reference

__all__ = [
    "CONSTRAINTS",
    "GroupThresholds",
    "RocHull",
    "fit_group_thresholds",
    "roc_hull",
]

#: The parity constraints a tolerance relaxes, and the rates each keeps within it.
CONSTRAINTS: dict[str, tuple[str, ...]] = {
    "demographic_parity": ("selection_rate",),
    "equalized_odds": ("FPR", "TPR"),
}

_NEGLIGIBLE = 1e-9  # a vertex weight below this is rounding in the solver's answer


#: Hardt, Price and Srebro's group thresholds (§4).
HARDT_2016 = Reference(
    key="hardt2016equality",
    authors=("Hardt, Moritz", "Price, Eric", "Srebro, Nathan"),
    title="Equality of Opportunity in Supervised Learning",
    year=2016,
    venue="Advances in Neural Information Processing Systems 29 (NeurIPS 2016)",
    pages="3315-3323",
    url="https://arxiv.org/abs/1610.02413",
)


@dataclass(frozen=True)
class RocHull:
    """The vertices of one group's ROC hull, each a threshold rule.

    Attributes
    ----------
    thresholds
        Rule ``v`` labels 1 where the score is at least ``thresholds[v]`` (``inf``: nobody).
    FPR, TPR, selection_rate, accuracy
        The rule's rates on the rows it was computed from.
    upper
        Whether the vertex lies on the hull's upper chain, from the rule that labels nobody 1
        to the one that labels everyone (the ROC curve's concave majorant).
    """

    thresholds: np.ndarray
    FPR: np.ndarray
    TPR: np.ndarray
    selection_rate: np.ndarray
    accuracy: np.ndarray
    upper: np.ndarray | None = None


def roc_hull(scores: np.ndarray, labels: np.ndarray) -> RocHull:
    """Return the vertices of the convex hull of one group's ROC curve.

    Every rule "label 1 where score >= t" is a point (FPR, TPR) of the ROC curve; randomising
    between rules reaches any point of the curve's convex hull, and an optimum of the linear
    program lies on a vertex mix. The hull is found by Andrew's monotone chain: the ROC points
    are already sorted by FPR, then TPR.

    Parameters
    ----------
    scores
        The group's scores (higher: more likely label 1).
    labels
        Its 0/1 labels, both present.

    Returns
    -------
    RocHull
        The hull's vertices, from the rule that labels nobody 1 to the one that labels everyone.
    """
    order = np.argsort(-scores, kind="stable")
    ranked, ranked_labels = scores[order], labels[order]
    last_of_value = np.r_[ranked[1:] != ranked[:-1], True]  # a threshold per distinct score
    tp = np.r_[0, np.cumsum(ranked_labels)[last_of_value]]
    fp = np.r_[0, np.cumsum(1 - ranked_labels)[last_of_value]]
    thresholds = np.r_[np.inf, ranked[last_of_value]]
    positives, negatives = tp[-1], fp[-1]
    fpr, tpr = fp / negatives, tp / positives
    vertices, upper = _hull_vertices(fpr, tpr)
    n = positives + negatives
    return RocHull(
        thresholds=thresholds[vertices],
        FPR=fpr[vertices],
        TPR=tpr[vertices],
        selection_rate=(tp + fp)[vertices] / n,
        accuracy=(tp + negatives - fp)[vertices] / n,
        upper=np.isin(vertices, upper),
    )


def _hull_vertices(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the hull's vertices of points sorted by x, then y, and its upper chain (indices)."""

    def chain(indices: range) -> list[int]:
        kept: list[int] = []
        for i in indices:
            while len(kept) >= 2:
                a, b = kept[-2], kept[-1]
                turn = (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a])
                if turn < 0:  # a clockwise turn keeps b on this chain
                    break
                kept.pop()
            kept.append(i)
        return kept

    n = len(x)
    upper = chain(range(n))  # counter-clockwise turns dropped: the chain above the points
    lower = chain(range(n - 1, -1, -1))
    return np.unique(np.r_[upper, lower]), np.array(upper)


@dataclass(frozen=True)
class GroupThresholds:
    """Randomised group thresholds: per group, rules and the probability of each.

    Attributes
    ----------
    groups
        The groups, sorted.
    thresholds, weights
        Per group, the thresholds of its rules (ascending) and the probability of each rule.
    rates
        Per constrained rate name, each group's rate on the fitted rows.
    accuracy
        The accuracy on the fitted rows.
    """

    groups: np.ndarray
    thresholds: tuple[np.ndarray, ...]
    weights: tuple[np.ndarray, ...]
    rates: dict[str, np.ndarray]
    accuracy: float

    def positive_probability(self, scores: np.ndarray, groups: np.ndarray) -> np.ndarray:
        """Return each row's probability of label 1, from its score and group.

        Parameters
        ----------
        scores
            The rows' scores.
        groups
            Their groups, each one of :attr:`groups`.

        Returns
        -------
        numpy.ndarray
            The total weight of the group's rules whose threshold the score reaches.
        """
        probability = np.zeros(len(scores))
        for group, thresholds, weights in zip(
            self.groups, self.thresholds, self.weights, strict=True
        ):
            rows = groups == group
            reached = np.searchsorted(thresholds, scores[rows], side="right")
            probability[rows] = np.r_[0.0, np.cumsum(weights)][reached]
        return np.clip(probability, 0.0, 1.0)

    def violation(self) -> float:
        """Return the largest spread of a constrained rate over groups on the fitted rows.

        Returns
        -------
        float
            0 when nothing was constrained.
        """
        spreads = [float(np.ptp(rate)) for rate in self.rates.values()]
        return max(spreads, default=0.0)


def fit_group_thresholds(
    scores: np.ndarray,
    labels: np.ndarray,
    groups: np.ndarray,
    constraint: str | None,
    tolerance: float = 0.0,
) -> GroupThresholds:
    """Fit the most accurate group thresholds whose rates differ by at most ``tolerance``.

    Parameters
    ----------
    scores
        Each row's score.
    labels
        Its 0/1 label; every group needs both labels.
    groups
        Its group.
    constraint
        ``"demographic_parity"``, ``"equalized_odds"`` (:data:`CONSTRAINTS`), or None for the
        most accurate thresholds of each group alone.
    tolerance
        The largest difference allowed between two groups' constrained rates.

    Returns
    -------
    GroupThresholds
        The rules, their probabilities, the rates reached and the accuracy.

    Raises
    ------
    ValueError
        For an unknown constraint, a tolerance outside [0, 1], or a group with one label.
    """
    if constraint is not None and constraint not in CONSTRAINTS:
        raise ValueError(
            f"unknown constraint {constraint!r}; valid: {', '.join(map(repr, CONSTRAINTS))} or None"
        )
    if not 0 <= tolerance <= 1:
        raise ValueError(f"the tolerance must lie in [0, 1], got {tolerance!r}")
    names, group_of_row = np.unique(groups, return_inverse=True)
    hulls = []
    for g, name in enumerate(names):
        rows = group_of_row == g
        if np.unique(labels[rows]).size < 2:
            raise ValueError(f"group {name.item()!r} has one label only: it has no ROC curve")
        hulls.append(roc_hull(scores[rows], labels[rows]))
    shares = np.bincount(group_of_row) / len(labels)
    rates = CONSTRAINTS[constraint] if constraint is not None else ()
    weights = [
        _least_randomised(hull, w)
        for hull, w in zip(hulls, _solve(hulls, shares, rates, tolerance), strict=True)
    ]
    reached = {
        rate: np.array([w @ getattr(h, rate) for w, h in zip(weights, hulls, strict=True)])
        for rate in rates
    }
    accuracy = sum(s * (w @ h.accuracy) for s, w, h in zip(shares, weights, hulls, strict=True))
    rules = [_rules(h.thresholds, w) for h, w in zip(hulls, weights, strict=True)]
    return GroupThresholds(
        groups=names,
        thresholds=tuple(t for t, _ in rules),
        weights=tuple(w for _, w in rules),
        rates=reached,
        accuracy=float(accuracy),
    )


def _solve(
    hulls: list[RocHull], shares: np.ndarray, rates: tuple[str, ...], tolerance: float
) -> list[np.ndarray]:
    """Solve the linear program of the module's docstring; return each group's vertex weights."""
    sizes = [len(h.thresholds) for h in hulls]
    starts = np.r_[0, np.cumsum(sizes)]
    n_weights, n_bands = starts[-1], len(rates)
    gains = [share * hull.accuracy for share, hull in zip(shares, hulls, strict=True)]
    objective = np.r_[-np.concatenate(gains), np.zeros(n_bands)]
    equalities = np.zeros((len(hulls), n_weights + n_bands))
    for g in range(len(hulls)):
        equalities[g, starts[g] : starts[g + 1]] = 1.0
    rows, bounds_above = [], []
    for m, rate in enumerate(rates):
        for g, hull in enumerate(hulls):
            row = np.zeros(n_weights + n_bands)
            row[starts[g] : starts[g + 1]] = getattr(hull, rate)
            row[n_weights + m] = -1.0
            rows += [row, -row]  # rate - band <= tolerance, band - rate <= 0
            bounds_above += [tolerance, 0.0]
    solution = linprog(
        objective,
        A_ub=np.array(rows) if rows else None,
        b_ub=np.array(bounds_above) if rows else None,
        A_eq=equalities,
        b_eq=np.ones(len(hulls)),
        bounds=(0.0, 1.0),
        method="highs",
    )
    if solution.status != 0:  # the program is always feasible: every group labelling nobody
        raise RuntimeError(f"the threshold program failed: {solution.message}")
    return [solution.x[starts[g] : starts[g + 1]] for g in range(len(hulls))]


def _least_randomised(hull: RocHull, weights: np.ndarray) -> np.ndarray:
    """Reach the point that ``weights`` mix with the fewest and nearest rules (module docstring).

    The point (f, t) is projected up onto the upper chain, between its vertices a and b with
    FPR(a) <= f < FPR(b), and mixed with the diagonal's (f, f) where it lies below the chain.
    A point below the diagonal (never better than the diagonal above it) keeps its weights.
    """
    f, t = float(weights @ hull.FPR), float(weights @ hull.TPR)
    if hull.upper is None or t < f - _NEGLIGIBLE:
        return weights
    chain = np.flatnonzero(hull.upper)  # by FPR, then TPR: "nobody" first, "everybody" last
    position = int(np.searchsorted(hull.FPR[chain], f + _NEGLIGIBLE, side="right")) - 1
    a, b = chain[position], chain[min(position + 1, len(chain) - 1)]
    share = 0.0 if b == a else min(max((f - hull.FPR[a]) / (hull.FPR[b] - hull.FPR[a]), 0.0), 1.0)
    above = (1 - share) * hull.TPR[a] + share * hull.TPR[b]  # the chain's TPR at FPR f
    on_chain = 1.0 if above - f <= _NEGLIGIBLE else min(max((t - f) / (above - f), 0.0), 1.0)
    mixed = np.zeros_like(weights)
    mixed[a] += on_chain * (1 - share)
    mixed[b] += on_chain * share
    mixed[chain[0]] += (1 - on_chain) * (1 - f)  # the diagonal: nobody, or everybody
    mixed[chain[-1]] += (1 - on_chain) * f
    return mixed


def _rules(thresholds: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keep the rules with weight, sorted by threshold, their weights summing to one."""
    used = weights > _NEGLIGIBLE
    order = np.argsort(thresholds[used])
    kept = weights[used][order]
    return thresholds[used][order], kept / kept.sum()
