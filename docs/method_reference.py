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
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Method:
    """What the reference says of one method, beside what the registry says of its algorithms.

    ``formula`` is LaTeX, shown as display math, and ``where`` defines each of its symbols once
    (Markdown with inline ``$...$`` math); ``section`` names the paper and the sections the
    code implements, with the paper's short form as its references give it (``Feldman et al.
    (2015), §5.1-5.2``).
    """

    title: str
    names: tuple[str, ...]  # registry names, or prefixes ending in "-" (a pipeline's family)
    what: str
    formula: str
    where: str
    targets: str
    section: str
    assumptions: str
    checked: str


_BASELINE = "none: the baseline the interventions are compared with"
_AIF360 = "Needs the aif360 extra."
_BINARY = "a binary sensitive attribute (the `numerical+binary` variant: privileged 1, others 0)"
METHODS = (
    Method(
        "Baselines",
        ("svm", "decision-tree", "gaussian-nb", "logistic-regression", "gradient-boosting"),
        "scikit-learn's classifiers, as Friedler et al. ran them (the SVM and logistic "
        "regression on standardised features, see the algorithms guide). They never see the "
        "sensitive attribute.",
        r"\min_{f \in \mathcal{F}} \; \frac{1}{n} \sum_{i=1}^{n} \ell\big(f(x_i), y_i\big) "
        r"+ \Omega(f)",
        r"$\mathcal{F}$ is the classifier's model class, $\ell$ its loss and $\Omega$ its "
        "regularisation (none for naive Bayes and the tree's growth rule)",
        _BASELINE,
        "Friedler et al. (2019), §5 (the baselines and their settings)",
        "none on the groups; features standardised with training statistics for the SVM and "
        "logistic regression",
        "`tests/algorithms/test_baselines.py`: the attribute changes nothing; the SVM equals "
        "libsvm on standardised features",
    ),
    Method(
        "Neural network",
        ("neural-network",),
        "A network with one hidden layer of 50 units on the class-balanced log-loss, Maity et "
        "al.'s baseline model. Needs the torch extra.",
        r"\min_{\theta} \; \sum_{i=1}^{n} \frac{1}{n_{y_i}} \,"
        r"\ell_{\log}\big(f_\theta(x_i), y_i\big)",
        r"$f_\theta$ is a network of one hidden layer of 50 ReLU units, $\ell_{\log}$ the "
        r"log-loss and $n_y$ the number of training rows of label $y$",
        _BASELINE,
        "Maity et al. (2021), §4 (the baseline of the case study)",
        "standardised features; trained with Adam for a fixed number of steps",
        "`tests/algorithms/test_neural.py`: written-out gradients against autograd",
    ),
    Method(
        "Disparate-impact repair",
        ("feldman-",),
        "Each feature's distribution within each group is moved toward the groups' median "
        "distribution, by quantiles; the baseline is then trained and applied on the repaired "
        "features. The repair is its authors' (BlackBoxAuditing's, value for value), fitted on "
        "the training rows and applied to the test rows.",
        r"x' = v_{p + \operatorname{round}(\lambda (t - p))}, \qquad "
        r"v_t = \operatorname{median}_h m_h(q)",
        r"$v_0 < v_1 < \dots$ are a feature's distinct values on the training rows, $p$ the "
        r"place of a row's value $x$ among them, $q$ the bucket of $x$ among its group's "
        r"distinct values (each group's cut into as many buckets as the smallest group has "
        r"values), $m_h(q)$ the lower median of group $h$'s values in bucket $q$, $t$ the place "
        r"of their lower median over the groups, and $\lambda$ the `repair_level`",
        "demographic parity, through the features",
        "Feldman et al. (2015), §5.1-5.2 (the repair and the partial repair)",
        "any number of groups; each distinct value of a group is repaired to one value, as the "
        "authors' code does, so a repaired value depends on the value and its group, never on "
        "the rest of its row, and a 0/1 column that every group has keeps its values; a new "
        'value takes its nearest training value\'s repair; `ties="random"` breaks ties at '
        "random instead (each row its own quantile, the draws hashed from the row's tied cells), "
        "which equalises discrete features too. The individual-fairness test sees the "
        "difference: on the `default` study its loss-ratio test rejects "
        "5 of the 60 Feldman pipelines over trees, naive Bayes and gradient boosting, attacked "
        "without a gradient ("
        "5 of its 20 over the tree, "
        "0 of its 20 over each of the others), and "
        "0 of the 40 over the SVM and logistic regression, attacked along their surrogate's "
        "gradient, against "
        "137 of the 440 other models attacked without a gradient "
        "(`docs/measured/feldman_individual.py`); "
        "the levels of a sweep share one fit of the repair; "
        'the paper\'s benchmark repaired the test rows on their own (`test_repair="own"`), '
        "here they take the training rows' repair",
        "`tests/algorithms/test_feldman.py`: the repair by value equals BlackBoxAuditing's on "
        "240 random problems and on German credit, by hand on three groups; the repair with "
        "random ties equalises every feature's group distributions; zero repair is the "
        "identity; moving an untied feature changes no other cell; the smoothing's slopes by "
        "hand and against the finite difference of the mean repair; a refit at another level "
        "equals a fit there",
    ),
    Method(
        "Prejudice remover",
        ("kamishima",),
        "Logistic regression with one model per group, regularised by the prejudice index, the "
        "mutual information between the prediction and the sensitive attribute; `eta` weighs "
        "it.",
        r"\min_{w} \; -\sum_{i} \log P\big[y_i \mid x_i, s_i\big] + \eta\, \mathrm{PI} "
        r"+ \frac{C}{2} \sum_{s} \lVert w_s \rVert^2, \qquad "
        r"\mathrm{PI} = \sum_{i} \sum_{y} P[y \mid x_i, s_i] "
        r"\log \frac{\hat P[y \mid s_i]}{\hat P[y]}",
        r"$P[y = 1 \mid x, s] = \sigma(w_s^\top x)$ is the model of group $s$ (a weight vector "
        'per group, the authors\' "type 4" model), '
        r"$\hat P[y \mid s]$ and $\hat P[y]$ the mean "
        r"predicted probabilities in group $s$ and overall, $\eta$ the prejudice index's weight "
        r"and $C$ the L2 penalty",
        "demographic parity (mutual information)",
        "Kamishima et al. (2012), §4 (eq. 4 and the prejudice index of §4.2)",
        f"{_BINARY}; standardised features; solved by L-BFGS from the $\\eta = 0$ solution with "
        "the analytic gradient",
        "`tests/algorithms/test_kamishima.py`: eta = 0 is a logistic regression per group, "
        "analytic gradients against finite differences",
    ),
    Method(
        "Two naive Bayes",
        ("calders",),
        "A naive Bayes model per group, whose class priors are shifted until the positive "
        "rates' difference reaches its target on the training data, keeping each group's "
        "total.",
        r"\text{move } N(y, s) \text{ until } "
        r"P[\hat Y = 1 \mid S = 1] - P[\hat Y = 1 \mid S = 0] \le \beta",
        r"$N(y, s)$ are the smoothed joint class counts that give each group's priors, "
        r"$S = 1$ the privileged group and $\beta$ the target `max_discrimination` (a CV "
        r"target of $1 - \beta$)",
        "demographic parity (the Calders-Verwer score)",
        "Calders & Verwer (2010), §4.2 (the modification algorithm)",
        f"{_BINARY}; a one-hot categorical feature is modelled as one binary feature per value "
        "(the original: one discrete feature); numeric features as Gaussians",
        "`tests/algorithms/test_calders.py`: reaches its CV target; the priors by hand",
    ),
    Method(
        "Covariance-constrained logistic regression",
        ("zafar-fairness", "zafar-accuracy"),
        "Logistic regression whose decision boundary's covariance with the sensitive attribute "
        "is bounded (fairness) or minimised under a loss budget (accuracy); both problems are "
        "solved exactly.",
        r"\text{fairness: } \min_\theta L(\theta) \ \text{s.t.}\ "
        r"\lvert \operatorname{cov}(z, \theta^\top x) \rvert \le c; \qquad "
        r"\text{accuracy: } \min_\theta \lvert \operatorname{cov}(z, \theta^\top x) \rvert "
        r"\ \text{s.t.}\ L(\theta) \le (1 + \gamma)\, L(\theta^*)",
        r"$\operatorname{cov}(z, \theta^\top x) = \frac{1}{n}\sum_i (z_i - \bar z)\, "
        r"\theta^\top x_i$ is the covariance of the sensitive attribute $z$ with the decision "
        r"values, $L$ the mean log-loss (with a small L2 penalty), $\theta^*$ its unconstrained "
        r"minimiser, $c$ the covariance bound and $\gamma$ the loss budget",
        "demographic parity (decision-boundary covariance)",
        "Zafar et al. (2017), §3.2-3.3",
        f"{_BINARY}; standardised features; the constraint is linear in theta, so both problems "
        "are solved on its hyperplanes exactly (the original used SLSQP)",
        "`tests/algorithms/test_zafar.py`: the covariance bound and the loss budget hold",
    ),
    Method(
        "Reductions",
        ("reductions-",),
        "fairlearn's reductions of fair classification to a sequence of cost-sensitive "
        "problems, on logistic regression: exponentiated gradient (a randomised mixture) and "
        "grid search over the Lagrange multipliers (one deterministic model).",
        r"\min_{Q \in \Delta(\mathcal{H})} \operatorname{err}(Q) \ \text{s.t.}\ "
        r"\lvert \gamma_j(Q) - \gamma(Q) \rvert \le \varepsilon \ \text{for every group } j",
        r"$Q$ is a randomised mixture of the classifiers $\mathcal{H}$ (logistic regressions), "
        r"$\gamma_j(Q)$ the constrained rate in group $j$ (the positive rate; the true and false "
        r"positive rates for equalized odds), $\gamma(Q)$ the overall rate and $\varepsilon$ "
        "fairlearn's constraint slack",
        "demographic parity (`-dp`) or equalized odds (`-eo`)",
        "Agarwal et al. (2018), §3-4 (exponentiated gradient and grid search)",
        "any number of groups; the attribute is read in training only; the mixture's random "
        "choice is drawn per row from a hash of its features",
        "`tests/algorithms/test_reductions.py`: the constraint holds on training data",
    ),
    Method(
        "Correlation remover",
        ("correlation-remover-",),
        "fairlearn's `CorrelationRemover`: the features are projected to remove their linear "
        "correlation with the sensitive attribute (`alpha` of it), then the baseline is "
        "trained on them.",
        r"X' = X - \alpha\, (S - \bar S)\, W^*, \qquad "
        r"W^* = \arg\min_W \lVert X - \bar X - (S - \bar S)\, W \rVert_F^2",
        r"$X$ are the features, $S$ the one-hot sensitive attribute, bars the training means "
        r"and $\alpha$ the share of the correlation removed",
        "demographic parity, through the features (linear)",
        "Weerts et al. (2023) (fairlearn's `CorrelationRemover`)",
        f"{_BINARY}; removes linear correlation only",
        "`tests/algorithms/test_fairlearn_methods.py`: fairlearn's transform, no feature left "
        "correlated",
    ),
    Method(
        "Learned fair representations",
        ("lfr-",),
        "Zemel et al.'s prototypes: each row is mapped to a mixture of k prototypes that keeps "
        "the features and the label and hides the group (`Az` weighs the parity term); the "
        f"baseline is trained on the representation. {_AIF360}",
        r"\min \; A_x L_x + A_y L_y + A_z L_z, \qquad "
        r"L_z = \sum_{k} \lvert M_k^{+} - M_k^{-} \rvert",
        r"$M_k^{+}$ and $M_k^{-}$ are the mean probabilities of prototype $k$ in the "
        r"privileged group and in the rest, $L_x$ the reconstruction error of the features, "
        r"$L_y$ the log-loss of the label predicted from the prototypes, and $A_x, A_y, A_z$ "
        "their weights",
        "demographic parity (statistical parity of the prototypes)",
        "Zemel et al. (2013), §2 (AIF360's `LFR`)",
        f"{_BINARY}; solved with the exact gradient to convergence",
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
        r"\min_{P_{\hat X \hat Y \mid X Y S}} \mathbb{E}\big[\delta(x, y, \hat x, \hat y)\big] "
        r"\ \text{s.t.}\ \max_{s, s'} \big\lvert P[\hat Y = 1 \mid S = s] - "
        r"P[\hat Y = 1 \mid S = s'] \big\rvert \le \epsilon",
        r"$P_{\hat X \hat Y \mid X Y S}$ is the randomised map of a row's binned features and "
        r"label, $\delta$ the distortion of a move (each row's bounded) and $\epsilon$ the "
        "`epsilon` of the parity constraint",
        "demographic parity (of the transformed labels)",
        "Calmon et al. (2017), §2-3",
        "the 3 features most informative of the label, at most 4 quantile bins each; a generic "
        "distortion (no dataset-specific rules)",
        "`tests/algorithms/test_optimized_preprocessing.py`: the linear program reaches "
        "AIF360's `OptTools` optimum (cvxpy)",
    ),
    Method(
        "Reweighing",
        ("aif360-reweighing",),
        "Each training row is weighed so that group and label become independent, then "
        f"logistic regression is fitted on the weighed rows. {_AIF360}",
        r"w(s, y) = \frac{P[S = s]\; P[Y = y]}{P[S = s, Y = y]}",
        r"$w(s, y)$ is the weight of a training row of group $s$ and label $y$, the "
        "probabilities those of the training rows",
        "demographic parity (of the training data)",
        "Kamiran & Calders (2012), §5.2 (AIF360's `Reweighing`)",
        _BINARY,
        "`tests/algorithms/test_aif360_methods.py`",
    ),
    Method(
        "Adversarial debiasing",
        ("adversarial-debiasing",),
        "A predictor trained against an adversary that predicts the sensitive attribute from "
        "its output; `alpha` weighs the adversary's loss. Needs the torch extra.",
        r"\min_{W} \max_{U} \; L_P(W) - \alpha\, L_A(U, W)",
        r"$L_P$ is the predictor's loss, with weights $W$, $L_A$ the adversary's loss in "
        r"predicting the sensitive attribute from the predictor's output, with weights $U$, "
        r"and $\alpha$ the adversary's weight",
        "demographic parity",
        "Zhang et al. (2018), §3 (fairlearn's `AdversarialFairnessClassifier`)",
        "any number of groups; trained with Adam for a fixed number of epochs",
        "`tests/algorithms/test_fairlearn_methods.py`: predicts as fairlearn does",
    ),
    Method(
        "Rich-subgroup fairness",
        ("gerryfair",),
        "Fictitious play between a learner and an auditor that searches for the subgroup "
        "(a linear function of the sensitive features) with the largest false positive rate "
        f"violation. {_AIF360}",
        r"\min_{D} \operatorname{err}(D) \ \text{s.t.}\ \alpha(g)\, "
        r"\big\lvert \mathrm{FP}(D) - \mathrm{FP}(D, g) \big\rvert \le \gamma "
        r"\ \text{for every } g \in \mathcal{G}",
        r"$D$ is a randomised classifier, $\mathcal{G}$ the subgroups (linear threshold "
        r"functions of the sensitive features), $\alpha(g)$ the share of rows in $g$, "
        r"$\mathrm{FP}(D, g)$ the false positive rate in $g$ and $\gamma$ the violation allowed",
        "false positive rate parity over rich subgroups",
        "Kearns et al. (2018), §4 (AIF360's `GerryFairClassifier`)",
        "the sensitive features as the auditor's inputs; fictitious play for a fixed number of "
        "rounds",
        "`tests/algorithms/test_aif360_methods.py`",
    ),
    Method(
        "Meta-algorithm",
        ("metafair",),
        "Celis et al.'s meta-algorithm: the Bayes-optimal classifier under a linear-fractional "
        f"fairness constraint, here the statistical rate. {_AIF360}",
        r"\max_{f} \operatorname{acc}(f) \ \text{s.t.}\ "
        r"\min_{s, s'} \frac{q_s(f)}{q_{s'}(f)} \ge \tau",
        r"$q_s(f) = P[f(X) = 1 \mid S = s]$ is group $s$'s positive rate and $\tau$ the "
        "statistical-rate target",
        "statistical rate (demographic parity as a ratio)",
        "Celis et al. (2019), §3-4 (AIF360's `MetaFairClassifier`)",
        f"{_BINARY}; principal components of the features beyond `max_features`",
        "`tests/algorithms/test_aif360_methods.py`",
    ),
    Method(
        "Sensitive subspace models",
        ("project-network", "sensr"),
        "Maity et al.'s individually fair comparison models: the network on inputs whose "
        "sensitive subspace is projected out, and SenSR, trained against the worst-case moves "
        "within a fair metric's ball. Need the torch extra.",
        r"\min_{\theta} \; \mathbb{E}\Big[\max_{x' :\, d_x(x, x') \le \epsilon} "
        r"\ell\big(f_\theta(x'), y\big)\Big]",
        r"$d_x$ is the fair metric, which treats moves along the sensitive subspace (the "
        r"directions that predict the sensitive attribute) as free, $\epsilon$ the ball's "
        r"radius and $f_\theta$ the network of the neural baseline",
        "individual fairness (the fair metric's transport)",
        "Yurochkin et al. (2020), Algorithm 2; Maity et al. (2021), §4",
        "the sensitive subspace learned from the features (logistic regressions on the "
        "attribute); standardised features",
        "`tests/algorithms/test_neural.py`: SenSR and Project pass the individual test where "
        "the baseline fails",
    ),
    Method(
        "Post-processed frontier",
        ("unprocessed-",),
        "Without a constraint, the baseline itself, fitted on every training row. With one, the "
        "baseline cross-fitted on five folds of the training rows, and group-specific "
        "thresholds fitted on every training row's out-of-fold score: the most accurate whose "
        "rates differ by at most a tolerance, applied to the fold models' mean score. Every "
        "study plans its thirteen points, the yardstick of the equal-fairness comparison.",
        r"\max_{t} \operatorname{acc}(t) \ \text{s.t.}\ "
        r"\max_{s, s'} \big\lvert r_s(t_s) - r_{s'}(t_{s'}) \big\rvert \le \tau",
        r"$t_s$ is group $s$'s (randomised) threshold on the cross-fitted scores, $r_s(t_s)$ the "
        r"constrained rate it gives the group (the positive rate; the true and false positive "
        r"rates for equalized odds) and $\tau$ the `tolerance`",
        "none, demographic parity or equalized odds, at tolerances 0 to 0.2",
        "Cruz & Hardt (2024), §3-4; the thresholds' linear program of Hardt et al. (2016), §4",
        "any number of groups; the folds stratified by group and label, seeded as the "
        "baseline's own runs; the thresholds' randomisation drawn per row from a hash of its "
        "features; a group with one label among its training rows keeps the baseline's "
        "decision, with a warning",
        "`tests/algorithms/test_thresholds.py`: fairlearn's optimum where it solves the same "
        "problem, closed forms by hand; `tests/algorithms/test_unprocessed.py`: without a "
        "constraint, the baseline's predictions; every training row scored out of fold; "
        "`perf/frontier_baseline.py` and `perf/frontier_error_parity.py`: the unconstrained "
        "end against its baseline, the test violations against error-parity's",
    ),
    Method(
        "Threshold optimizer",
        ("threshold-optimizer",),
        "fairlearn's `ThresholdOptimizer` on logistic regression: group-specific (randomised) "
        "thresholds that satisfy the parity exactly on the training data.",
        r"\max_{t} \operatorname{acc}(t) \ \text{s.t.}\ r_s(t_s) = r_{s'}(t_{s'}) "
        r"\ \text{for all groups } s, s'",
        r"$t_s$ is group $s$'s randomised threshold and $r_s$ the constrained rate (for "
        "equalized odds, the true and the false positive rates)",
        "equalized odds (or another parity)",
        "Hardt et al. (2016), §4 (fairlearn's `ThresholdOptimizer`)",
        "any number of groups; the thresholds' randomisation drawn per row from a hash of its "
        "features",
        "`tests/algorithms/test_fairlearn_methods.py`: fairlearn's thresholds",
    ),
    Method(
        "Equalized-odds post-processing",
        ("aif360-eq-odds", "aif360-calibrated-eo"),
        "Logistic regression's labels (or probabilities, calibrated) flipped per group at the "
        f"rates AIF360's linear program fits. {_AIF360}",
        r"\min \operatorname{err}(\tilde Y) \ \text{s.t.}\ "
        r"\mathrm{TPR}_s(\tilde Y) = \mathrm{TPR}_{s'}(\tilde Y),\ "
        r"\mathrm{FPR}_s(\tilde Y) = \mathrm{FPR}_{s'}(\tilde Y)",
        r"$\tilde Y$ is the post-processed label, flipped from the model's with a probability "
        r"per group and label; the calibrated variant equalises one generalized rate (false "
        "negative or false positive) of calibrated probabilities instead",
        "equalized odds; calibrated equalized odds",
        "Hardt et al. (2016), §4; Pleiss et al. (2017), §4",
        f"{_BINARY}; the flips drawn per row from a hash of its features",
        "`tests/algorithms/test_aif360_methods.py`: AIF360's linear program on the same "
        "predictions",
    ),
    Method(
        "Reject option classification",
        ("aif360-reject-option",),
        "Near the decision boundary, the unprivileged group gets the favourable label and the "
        "privileged one the unfavourable; the band is searched so that a fairness metric stays "
        f"within `metric_bound`. {_AIF360}",
        r"\tilde y = \begin{cases} 1 & s \text{ unprivileged and } "
        r"\lvert p(x) - \tfrac{1}{2} \rvert \le \theta \\ 0 & s \text{ privileged and } "
        r"\lvert p(x) - \tfrac{1}{2} \rvert \le \theta \\ \mathbb{1}[p(x) > \tfrac{1}{2}] "
        r"& \text{otherwise} \end{cases}",
        r"$p(x)$ is the model's probability of the favourable label and $\theta$ the critical "
        "region's half-width, searched with the classification threshold",
        "a chosen parity (statistical parity by default)",
        "Kamiran et al. (2012), §3 (AIF360's `RejectOptionClassification`)",
        _BINARY,
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
    return "; ".join(f"`{name}` in {_values(values)}" for name, values in grid.items()) or "-"


def _values(values: list[Any]) -> str:
    """Return a grid's values: all of a short one, a long one's count and ends."""
    if len(values) <= SHOWN_VALUES:
        return json.dumps(values)
    return f"{len(values)} values, {json.dumps(values[0])} to {json.dumps(values[-1])}"


SHOWN_VALUES = 6  # a longer grid (Feldman's 21 levels) is said by its count and its ends


def _space(space: dict[str, str]) -> str:
    return "; ".join(f"`{name}`: {drawn}" for name, drawn in space.items()) or "-"


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


_HEAD = """---
html_theme.sidebar_secondary.remove: true
---

# Methods reference

Every registered algorithm, by method. What each method does, its formula (each symbol defined
below it), the fairness it targets, the paper and sections it implements, what it assumes and
the test that checks it against its reference are written for the method; the rest (the works
to cite, the class and its source, family, library, version, variants, parameter grid, search
space, and whether the sensitive attribute is read when predicting) comes from the registry
itself, so it cannot disagree with the code (`faircompare list algorithms` prints the same).
Every algorithm is a scikit-learn classifier with the sensitive attribute passed by keyword
({doc}`guide/algorithms`). With `--grid`, each grid value is its own run, and the runs tuned on
a validation part let the report choose the parameters for accuracy on data the test never saw;
a method is fitted for a binary label only (`fit` refuses another). A run stores its
algorithm's *version*: a change to the code that changes results raises it, and runs of an
earlier version are computed again. The search space is where a tuner with a budget of trials
may draw each parameter from, the grid's range or wider, a log scale where the values span orders
of magnitude; a pipeline's classifier adds its own (`estimator__C`). {doc}`citing` lists every
work with its BibTeX.
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


def _cited(algorithms: list[dict[str, Any]]) -> str:
    """Return the method's works, each linked to its entry on the Citing page."""
    seen: dict[str, str] = {}
    for algorithm in algorithms:
        for reference in algorithm.get("references", ()):
            seen.setdefault(reference["key"], short_form(reference))
    return ", ".join(f"{{ref}}`{short} <{key}>`" for key, short in seen.items()) or "-"


def short_form(reference: dict[str, Any]) -> str:
    """Return a stored reference's author-year form (as :attr:`Reference.short` gives it)."""
    from faircompare.bibliography import reference_from

    return reference_from(reference).short


def _code(algorithms: list[dict[str, Any]]) -> str:
    """Return the classes the method's algorithms are made of, each linked to its API entry."""
    classes = dict.fromkeys(a["class"] for a in algorithms if a.get("class"))
    links = ", ".join(f"{{py:class}}`~{path}`" for path in classes)
    return f"{links} (each class's page links to its source)" if links else "-"


def _section(method: Method, algorithms: list[dict[str, Any]]) -> str:
    lines = [
        f"## {method.title}\n",
        f"{method.what}\n",
        f"$$\n{method.formula}\n$$\n",
        f"where {method.where}.\n",
        f"- **Targets**: {method.targets}",
        f"- **Implements**: {method.section}",
        f"- **Assumes**: {method.assumptions}",
        f"- **Cite**: {_cited(algorithms)}",
        f"- **Code**: {_code(algorithms)}",
        f"- **Checked**: {method.checked}\n",
        "| algorithm | family | library | version | variants | grid | reads S to predict |",
        "|---|---|---|---|---|---|---|",
    ]
    for a in algorithms:
        library = a["library"] or "-"
        if not a["available"]:
            library += f" (unavailable here: {a['reason']})"
        lines.append(
            f"| `{a['name']}` | {a['family']} | {library} | {a['version'] or '-'} | "
            f"{', '.join(a['supports']) or '-'} | {_grid(a['param_grid'])} | "
            f"{'yes' if a['uses_sensitive_at_predict'] else 'no'} |"
        )
    if not algorithms:
        lines.append("| (none registered here) | | | | | | |")
    spaces = [a for a in algorithms if a.get("search_space")]
    if spaces:  # a tuner's ranges, a table of their own: the one above is as wide as a page
        lines += ["", "| algorithm | search space (a tuner's ranges) |", "|---|---|"]
        lines += [f"| `{a['name']}` | {_space(a['search_space'])} |" for a in spaces]
    return "\n".join(lines) + "\n"


def classes_page(described: Iterable[dict[str, Any]], documented: set[str] = frozenset()) -> str:
    """Return the API page of the algorithms' classes (``api/algorithm-classes.rst``).

    A class the API reference documents already (``documented``, by path) is left out: its
    module's page holds it.
    """
    classes = sorted({a["class"] for a in described if a.get("class")} - set(documented))
    head = (
        "Algorithm classes\n=================\n\n"
        "The class behind each registered algorithm, with its parameters; the methods reference "
        "(:doc:`../methods`) says what each implements. A pipeline's name "
        "(``feldman-svm``) is the class with the baseline it trains.\n\n"
    )
    return head + "".join(f".. autoclass:: {path}\n   :no-members:\n\n" for path in classes)


def described() -> list[dict[str, Any]]:
    """Describe every registered algorithm, with the path of its class (``class``)."""
    from faircompare.registry import algorithms

    return [
        a.describe() | {"class": _path(a.estimator_class) if a.make else None}
        for a in algorithms().values()
    ]


def _path(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def page() -> str:
    """Return the reference of every registered algorithm (``methods.md``)."""
    return reference(described())


def classes() -> str:
    """Return the API page of the algorithms' classes not in the public API already."""
    from api_pages import public_names

    public = public_names(Path(__file__).parent)
    documented = {f"{module}.{name}" for module, names in public.items() for name in names}
    return classes_page(described(), documented)
