"""Where faircompare departs from the original benchmark, each departure a switch away.

Each :class:`Departure` says what the original did, what faircompare does instead and why, and
the parameters that make faircompare's algorithm do as the original did (its *switch*).
``faircompare reproduce --as-published`` runs every cell with each switch that concerns it,
alone and all together, so that the reproduction table shows which departure a difference comes
from. Defects of the original that are not reproduced (they are not settings of a method) are
recognised in the published numbers themselves (:func:`one_class_everywhere`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["DEPARTURES", "Departure", "one_class_everywhere", "switches"]

_BASELINES = ("svm", "logistic-regression", "decision-tree", "gaussian-nb")


@dataclass(frozen=True)
class Departure:
    """One way faircompare departs from the original benchmark, and its switch.

    Attributes
    ----------
    name
        A short name, as the reproduction table's ``cause`` column writes it.
    original
        What the original benchmark did.
    here
        What faircompare does instead, and why.
    switch
        For each algorithm it concerns, the parameters that make it do as the original did.
    """

    name: str
    original: str
    here: str
    switch: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


#: The departures faircompare can undo, by name.
DEPARTURES: dict[str, Departure] = {
    departure.name: departure
    for departure in (
        Departure(
            "unscaled SVM",
            original="an RBF SVM on the features as they are, gamma = 1 / d (scikit-learn "
            "0.19's SVC(), its gamma 'auto')",
            here="the features standardised on the training rows, gamma 'scale': an RBF kernel "
            "on unscaled features is dominated by the widest feature (on German the original's "
            "SVM predicts almost only the positive class)",
            switch={"svm": {"scale": False}, "feldman-svm": {"estimator__scale": False}},
        ),
        Departure(
            "test set repaired on its own",
            original="Feldman's repair fitted again on the test rows and applied to them, so "
            "a test row's repair depends on the other test rows",
            here="the repair fitted on the training rows and applied to the test rows, as "
            "anything fitted is (a person's prediction depends on that person alone)",
            switch={f"feldman-{name}": {"test_repair": "own"} for name in _BASELINES},
        ),
        Departure(
            "Calders' numeric features by value",
            original="every feature given to the authors' two naive Bayes as a discrete one, "
            "each distinct value of a numeric feature a category (its prior spread over the "
            "values of the training and the test rows)",
            here="a numeric feature modelled by a Gaussian per class and group: a value unseen "
            "in training still has a likelihood, and no test row informs the model",
            switch={"calders": {"numeric": "values"}},
        ),
        Departure(
            "Calders' groups coded by first sight",
            original="the groups and the labels coded 0 and 1 in the order they first appear "
            "in the training rows; the authors' loop removes discrimination against group code "
            "0 only, so it did nothing unless the first training row was privileged and "
            "positive, or neither",
            here="the loop removes the discrimination against the groups other than the "
            "privileged one, whatever the rows' order",
            switch={"calders": {"group_codes": "first-seen"}},
        ),
        Departure(
            "Kamishima's features unscaled",
            original="the prejudice remover fitted on the features as they are",
            here="the features standardised on the training rows: the L2 penalty (C = 1) then "
            "weighs every feature alike, whatever its unit",
            switch={"kamishima": {"scale": False}},
        ),
        Departure(
            "Kamishima's fit that never moved",
            original="the authors' train_pr.py started from one logistic regression per group "
            "(liblinear, C = 1) and its conjugate gradients never left it: their line search "
            "failed at the first step, the code's gradient disagreeing with its objective "
            "(on Adult, sex, split 0: a maximum difference of 2.5e5 against a gradient of "
            "2.0e5), so its eta had no effect (but on ProPublica by race, where the published "
            "sweep moves as eta grows: the switch keeps the start there too)",
            here="L-BFGS to convergence on the objective, with its analytic gradient (checked "
            "against finite differences), so eta weighs the prejudice index as the paper says",
            switch={"kamishima": {"solver": "start"}},
        ),
        Departure(
            "Zafar's SLSQP",
            original="the authors' train_model: SLSQP from a random start on the summed "
            "log-loss of every column but the label, raw, the sensitive attribute among them, "
            "and whatever point it stops at (its gradients by finite differences; exact in the "
            "switch, which is the same problem)",
            here="each problem solved exactly (L-BFGS on the constraint's hyperplane) on the "
            "standardised features, which never include the sensitive attribute: the "
            "covariance bound holds, and the two problems' solutions are their optima",
            switch={name: {"solver": "slsqp"} for name in ("zafar-fairness", "zafar-accuracy")},
        ),
    )
}


def switches(algorithm: str) -> dict[str, Mapping[str, Any]]:
    """Return the switches of the departures that concern an algorithm, by departure name.

    Parameters
    ----------
    algorithm
        faircompare's name of an algorithm.

    Returns
    -------
    dict
        Departure name to the parameters that undo it; empty where none concerns the algorithm.
    """
    return {
        name: departure.switch[algorithm]
        for name, departure in DEPARTURES.items()
        if algorithm in departure.switch
    }


def one_class_everywhere(runs: pd.DataFrame) -> bool:
    """Whether published runs predicted one class on every split (TPR and TNR 0 and 1).

    Parameters
    ----------
    runs
        One cell's published rows: ``split``, ``measure`` and ``value``, TPR and TNR among them.

    Returns
    -------
    bool
        True when every split has TPR = 1 and TNR = 0, or TPR = 0 and TNR = 1.
    """
    rates = runs[runs["measure"].isin(["TPR", "TNR"])].pivot_table(
        index="split", columns="measure", values="value"
    )
    if rates.empty or set(rates.columns) != {"TPR", "TNR"}:
        return False
    one_class = ((rates["TPR"] == 1) & (rates["TNR"] == 0)) | (
        (rates["TPR"] == 0) & (rates["TNR"] == 1)
    )
    return bool(one_class.all())
