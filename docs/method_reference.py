"""Write the methods reference (``methods.md``) from the registry and a note per method.

What the code knows of an algorithm (family, library, variants, parameter grid, whether it reads
the sensitive attribute when it predicts, availability) comes from the registry; what it
cannot know (the method in two sentences and one formula, the fairness it targets, the paper,
the test that checks it against its reference) from :data:`METHODS`. Every registered algorithm
must belong to a method: one that does not stops the build (``tests/test_reference_pages.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Method:
    """What the reference says of one method, beside what the registry says of its algorithms."""

    title: str
    names: tuple[str, ...]  # registry names, or prefixes ending in "-" (a pipeline's family)
    what: str
    formula: str
    targets: str
    paper: str
    checked: str


_BASELINE = "none: the baseline the interventions are compared with"
METHODS = (
    Method(
        "Baselines",
        ("svm", "decision-tree", "gaussian-nb", "logistic-regression", "gradient-boosting"),
        "scikit-learn's classifiers, as Friedler et al. ran them (the SVM and logistic "
        "regression on standardised features, see the algorithms guide). They never see the "
        "sensitive attribute.",
        "min over f of the classifier's own loss on (X, y)",
        _BASELINE,
        "Pedregosa et al., JMLR 12 (2011); Friedler et al., FAT* 2019, §5",
        "`tests/algorithms/test_baselines.py`: the attribute changes nothing; the SVM equals "
        "libsvm on standardised features",
    ),
    Method(
        "Neural network",
        ("neural-network",),
        "A network with one hidden layer of 50 units on the class-balanced log-loss, Maity et "
        "al.'s baseline model. Needs the torch extra.",
        "min over theta of the class-balanced log-loss of a 50-unit ReLU network",
        _BASELINE,
        "Maity et al., ICLR 2021, §4",
        "`tests/algorithms/test_neural.py`: written-out gradients against autograd",
    ),
    Method(
        "Disparate-impact repair",
        ("feldman-",),
        "Each feature's distribution within each group is moved toward the groups' median "
        "distribution, by quantiles; the baseline is then trained and applied on the repaired "
        "features. The repair is fitted on training data and applied to the test rows.",
        "x' = (1 - lambda) x + lambda F_med^-1(F_s(x)), F_s group s's training quantiles",
        "demographic parity, through the features",
        "Feldman et al., KDD 2015",
        "`tests/algorithms/test_feldman.py`: full repair equalises every feature's group "
        "distributions, zero repair is the identity, a test value's repair by hand",
    ),
    Method(
        "Prejudice remover",
        ("kamishima",),
        "Logistic regression with one model per group, regularised by the prejudice index, the "
        "mutual information between the prediction and the sensitive attribute; `eta` weighs "
        "it.",
        "min -log L(theta) + eta PI(Y_hat; S) + (C / 2) ||theta||^2",
        "demographic parity (mutual information)",
        "Kamishima et al., ECML PKDD 2012",
        "`tests/algorithms/test_kamishima.py`: eta = 0 is a logistic regression per group, "
        "analytic gradients against finite differences",
    ),
    Method(
        "Two naive Bayes",
        ("calders",),
        "A naive Bayes model per group, whose class priors are shifted until the positive "
        "rates' difference reaches its target on the training data, keeping each group's "
        "total.",
        "CV = 1 - (P[+ | priv] - P[+ | rest]) driven to 1 - beta by moving the priors",
        "demographic parity (the Calders-Verwer score)",
        "Calders & Verwer, DMKD 21 (2010), §4.2",
        "`tests/algorithms/test_calders.py`: reaches its CV target; the priors by hand",
    ),
    Method(
        "Covariance-constrained logistic regression",
        ("zafar-fairness", "zafar-accuracy"),
        "Logistic regression whose decision boundary's covariance with the sensitive attribute "
        "is bounded (fairness) or minimised under a loss budget (accuracy); both problems are "
        "solved exactly.",
        "min L(theta) s.t. |cov(z, theta'x)| <= c; or min |cov(z, theta'x)| s.t. "
        "L(theta) <= (1 + gamma) L*",
        "demographic parity (decision-boundary covariance)",
        "Zafar et al., AISTATS 2017, §3.2-3.3",
        "`tests/algorithms/test_zafar.py`: the covariance bound and the loss budget hold",
    ),
    Method(
        "Reductions",
        ("reductions-",),
        "fairlearn's reductions of fair classification to a sequence of cost-sensitive "
        "problems, on logistic regression: exponentiated gradient (a randomised mixture) and "
        "grid search over the Lagrange multipliers (one deterministic model).",
        "min over Q of err(Q) s.t. |gamma_j(Q) - gamma(Q)| <= eps for each group j",
        "demographic parity (`-dp`) or equalized odds (`-eo`)",
        "Agarwal et al., ICML 2018",
        "`tests/algorithms/test_reductions.py`: the constraint holds on training data",
    ),
    Method(
        "Correlation remover",
        ("correlation-remover-",),
        "fairlearn's `CorrelationRemover`: the features are projected to remove their linear "
        "correlation with the sensitive attribute (`alpha` of it), then the baseline is "
        "trained on them.",
        "X' = X - alpha (S - mean S) W*, W* the least-squares fit of X on S",
        "demographic parity, through the features (linear)",
        "fairlearn's CorrelationRemover (Bird et al., 2020)",
        "`tests/algorithms/test_fairlearn_methods.py`: fairlearn's transform, no feature left "
        "correlated",
    ),
    Method(
        "Learned fair representations",
        ("lfr-",),
        "Zemel et al.'s prototypes: each row is mapped to a mixture of k prototypes that keeps "
        "the features and the label and hides the group (`Az` weighs the parity term); the "
        "baseline is trained on the representation. Needs the aif360 extra.",
        "min Ax Lx + Ay Ly + Az Lz, Lz = sum over k of |M_k(priv) - M_k(rest)|",
        "demographic parity (statistical parity of the prototypes)",
        "Zemel et al., ICML 2013; AIF360's `LFR`",
        "`tests/algorithms/test_aif360_methods.py`: AIF360's objective and its fit",
    ),
    Method(
        "Optimized pre-processing",
        ("optimized-preprocessing-",),
        "A randomised map of (binned features, label) that keeps the groups' favourable rates "
        "within `epsilon` of each other at the least expected distortion, solved as a linear "
        "program; the baseline is trained on the transformed rows. The map needs few discrete "
        "features: the 3 most informative of the label, at most 4 bins each. On Adult they are "
        "three marital and relationship indicators, and no cell of them has a favourable rate "
        "above one half (married husbands: 0.465 on split 0's training rows), so the baselines "
        "trained on them predict the unfavourable label for everyone: the report lists those "
        "runs as degenerate. Calmon et al. ran Adult on age, education, sex and race, with "
        "distortion rules written for that encoding; the generic form here has none. Run as "
        "they ran it (AIF360's `OptimPreproc` with its Adult encoding and distortion function, "
        "epsilon 0.05, race; a 2/3 split of the same 30,162 rows), logistic regression on the "
        "transformed rows predicts >50K for 15.7 % of the test rows, accuracy 0.803, DI 0.57 "
        "(`tests/algorithms/test_optimized_preprocessing.py`, marked slow): the collapse is the "
        "generic encoding's, not the method's.",
        "min E[distortion] s.t. max over s, s' of |P[y' = 1 | s] - P[y' = 1 | s']| <= epsilon, "
        "each row's distortion bounded",
        "demographic parity (of the transformed labels)",
        "Calmon et al., NeurIPS 2017",
        "`tests/algorithms/test_optimized_preprocessing.py`: the linear program reaches "
        "AIF360's `OptTools` optimum (cvxpy)",
    ),
    Method(
        "Reweighing",
        ("aif360-reweighing",),
        "Each training row is weighed so that group and label become independent, then "
        "logistic regression is fitted on the weighed rows. Needs the aif360 extra.",
        "w(s, y) = P(s) P(y) / P(s, y)",
        "demographic parity (of the training data)",
        "Kamiran & Calders, KAIS 33 (2012); AIF360's `Reweighing`",
        "`tests/algorithms/test_aif360_methods.py`",
    ),
    Method(
        "Adversarial debiasing",
        ("adversarial-debiasing",),
        "A predictor trained against an adversary that predicts the sensitive attribute from "
        "its output; `alpha` weighs the adversary's loss. Needs the torch extra.",
        "min over W of L_P(W) - alpha L_A(U, W), the adversary's loss L_A maximised over U",
        "demographic parity",
        "Zhang et al., AIES 2018; fairlearn's `AdversarialFairnessClassifier`",
        "`tests/algorithms/test_fairlearn_methods.py`: predicts as fairlearn does",
    ),
    Method(
        "Rich-subgroup fairness",
        ("gerryfair",),
        "Fictitious play between a learner and an auditor that searches for the subgroup "
        "(a linear function of the sensitive features) with the largest false positive rate "
        "violation. Needs the aif360 extra.",
        "min over D of err(D) s.t. alpha(g) |FP(D) - FP(D, g)| <= gamma for every g",
        "false positive rate parity over rich subgroups",
        "Kearns et al., ICML 2018; AIF360's `GerryFairClassifier`",
        "`tests/algorithms/test_aif360_methods.py`",
    ),
    Method(
        "Meta-algorithm",
        ("metafair",),
        "Celis et al.'s meta-algorithm: the Bayes-optimal classifier under a linear-fractional "
        "fairness constraint, here the statistical rate. Needs the aif360 extra.",
        "max accuracy s.t. min over s, s' of q_s / q_s' >= tau",
        "statistical rate (demographic parity as a ratio)",
        "Celis et al., FAT* 2019; AIF360's `MetaFairClassifier`",
        "`tests/algorithms/test_aif360_methods.py`",
    ),
    Method(
        "Sensitive subspace models",
        ("project-network", "sensr"),
        "Maity et al.'s individually fair comparison models: the network on inputs whose "
        "sensitive subspace is projected out, and SenSR, trained against the worst-case moves "
        "within a fair metric's ball. Need the torch extra.",
        "SenSR: min over theta of E[max over x' with d_x(x, x') <= eps of loss(theta, x', y)]",
        "individual fairness (the fair metric's transport)",
        "Yurochkin, Bower & Sun, ICLR 2020, Algorithm 2; Maity et al., ICLR 2021",
        "`tests/algorithms/test_neural.py`: SenSR and Project pass the individual test where "
        "the baseline fails",
    ),
    Method(
        "Post-processed frontier",
        ("unprocessed-",),
        "The baseline fitted on two thirds of the training rows, then group-specific thresholds "
        "fitted on the last third: the most accurate whose rates differ by at most a tolerance. "
        "Every study plans its thirteen points, the yardstick of the equal-fairness comparison.",
        "max accuracy over group thresholds t_s s.t. max over s, s' of |r_s(t_s) - r_s'(t_s')| "
        "<= tolerance",
        "none, demographic parity or equalized odds, at tolerances 0 to 0.2",
        "Cruz & Hardt, ICLR 2024",
        "`tests/algorithms/test_thresholds.py`: fairlearn's optimum where it solves the same "
        "problem, closed forms by hand",
    ),
    Method(
        "Threshold optimizer",
        ("threshold-optimizer",),
        "fairlearn's `ThresholdOptimizer` on logistic regression: group-specific (randomised) "
        "thresholds that satisfy the parity exactly on the training data.",
        "max accuracy over randomised group thresholds s.t. equal rates across groups",
        "equalized odds (or another parity)",
        "Hardt, Price & Srebro, NeurIPS 2016; fairlearn's `ThresholdOptimizer`",
        "`tests/algorithms/test_fairlearn_methods.py`: fairlearn's thresholds",
    ),
    Method(
        "Equalized-odds post-processing",
        ("aif360-eq-odds", "aif360-calibrated-eo"),
        "Logistic regression's labels (or probabilities, calibrated) flipped per group at the "
        "rates AIF360's linear program fits. Needs the aif360 extra.",
        "min error s.t. equal TPR and FPR across groups (Hardt et al.); calibrated: equal "
        "generalized FNR or FPR (Pleiss et al.)",
        "equalized odds; calibrated equalized odds",
        "Hardt, Price & Srebro, NeurIPS 2016; Pleiss et al., NeurIPS 2017",
        "`tests/algorithms/test_aif360_methods.py`: AIF360's linear program on the same "
        "predictions",
    ),
    Method(
        "Reject option classification",
        ("aif360-reject-option",),
        "Near the decision boundary, the unprivileged group gets the favourable label and the "
        "privileged one the unfavourable; the band is searched so that a fairness metric stays "
        "within `metric_bound`. Needs the aif360 extra.",
        "y' = favourable for the unprivileged if |p(x) - 0.5| <= theta, unfavourable for the "
        "privileged",
        "a chosen parity (statistical parity by default)",
        "Kamiran, Karim & Zhang, ICDM 2012; AIF360's `RejectOptionClassification`",
        "`tests/algorithms/test_aif360_methods.py`: predicts and searches as AIF360 does",
    ),
)


def method_of(name: str) -> Method | None:
    """Return the method a registry name belongs to, or None."""
    for method in METHODS:
        if any(name == key or (key.endswith("-") and name.startswith(key)) for key in method.names):
            return method
    return None


def _grid(grid: dict[str, Any]) -> str:
    return "; ".join(f"`{name}` in {json.dumps(values)}" for name, values in grid.items()) or "-"


def reference(described: Iterable[dict[str, Any]]) -> str:
    """Return the page of the algorithms described (as ``list algorithms --json`` gives them).

    Raises
    ------
    ValueError
        For an algorithm that belongs to no method of :data:`METHODS`.
    """
    by_method: dict[str, list[dict[str, Any]]] = {method.title: [] for method in METHODS}
    for algorithm in described:
        method = method_of(algorithm["name"])
        if method is None:
            raise ValueError(
                f"algorithm {algorithm['name']!r} has no entry in the methods reference "
                "(docs/method_reference.py, METHODS)"
            )
        by_method[method.title].append(algorithm)
    page = [_HEAD, _summary(by_method)]
    for method in METHODS:
        page.append(_section(method, by_method[method.title]))
    return "\n".join(page) + "\n"


_HEAD = """# Methods reference

Every registered algorithm, by method. What each method does, its formula, the fairness it
targets, its paper and the test that checks it against its reference are written for the method;
the rest (family, library, variants, parameter grid, and whether the sensitive attribute is
read when predicting) comes from the registry itself, so it cannot disagree with the code
(`faircompare list algorithms` prints the same). Every algorithm is a scikit-learn classifier
with the sensitive attribute passed by keyword ({doc}`guide/algorithms`). With `--grid`, each
grid value is its own run, and the runs tuned on a validation part let the report choose the
parameters for accuracy on data the test never saw; a method is fitted for a binary label only
(`fit` refuses another).
"""


def _summary(by_method: dict[str, list[dict[str, Any]]]) -> str:
    """Return the table of the methods, the fairness each targets, its family, what it reads."""
    rows = ["## Methods at a glance\n", "| method | family | targets | reads S to predict |"]
    rows.append("|---|---|---|---|")
    for method in METHODS:
        algorithms = by_method[method.title]
        families = sorted({a["family"] for a in algorithms}) or ["-"]
        reads = sorted({"yes" if a["uses_sensitive_at_predict"] else "no" for a in algorithms})
        rows.append(
            f"| [{method.title}](#{_anchor(method.title)}) | {', '.join(families)} | "
            f"{method.targets} | {', '.join(reads) or '-'} |"
        )
    return "\n".join(rows) + "\n"


def _anchor(title: str) -> str:
    return title.lower().replace(" ", "-").replace(",", "")


def _section(method: Method, algorithms: list[dict[str, Any]]) -> str:
    lines = [
        f"## {method.title}\n",
        f"{method.what}\n",
        f"- **Formula**: {method.formula}",
        f"- **Targets**: {method.targets}",
        f"- **Paper**: {method.paper}",
        f"- **Checked**: {method.checked}\n",
        "| algorithm | family | library | variants | grid | reads S to predict |",
        "|---|---|---|---|---|---|",
    ]
    for a in algorithms:
        library = a["library"] or "-"
        if not a["available"]:
            library += f" (unavailable here: {a['reason']})"
        lines.append(
            f"| `{a['name']}` | {a['family']} | {library} | {', '.join(a['supports']) or '-'} | "
            f"{_grid(a['param_grid'])} | {'yes' if a['uses_sensitive_at_predict'] else 'no'} |"
        )
    if not algorithms:
        lines.append("| (none registered here) | | | | | |")
    return "\n".join(lines) + "\n"


def page() -> str:
    """Return the reference of every registered algorithm (``methods.md``)."""
    from faircompare.registry import algorithms

    return reference(a.describe() for a in algorithms().values())
