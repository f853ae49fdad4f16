"""AIF360's methods as faircompare plugins: each method's defining property, and agreement with
AIF360 called directly on the same data (the library is the reference)."""

import numpy as np
import pytest

pytest.importorskip("aif360", reason="the aif360 extra is not installed")

from aif360.algorithms.inprocessing import GerryFairClassifier, MetaFairClassifier  # noqa: E402
from aif360.algorithms.postprocessing import (  # noqa: E402
    EqOddsPostprocessing,
    RejectOptionClassification,
)
from aif360.algorithms.preprocessing import LFR  # noqa: E402
from aif360.algorithms.preprocessing.lfr_helpers.helpers import LFR_optim_objective  # noqa: E402
from scipy.spatial.distance import cdist  # noqa: E402
from scipy.special import softmax  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.linear_model import LinearRegression  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from faircompare.algorithms.aif360_data import GROUPS, binary_label_dataset  # noqa: E402
from faircompare.algorithms.aif360_inprocessing import GerryFair, MetaFair  # noqa: E402
from faircompare.algorithms.aif360_postprocessing import (  # noqa: E402
    REJECT_OPTION_METRICS,
    AIF360CalibratedEqualizedOdds,
    AIF360EqualizedOdds,
    AIF360RejectOption,
    reject_option_search,
)
from faircompare.algorithms.aif360_preprocessing import LearnedFairRepresentations  # noqa: E402
from faircompare.algorithms.base import AlgorithmInputError  # noqa: E402
from faircompare.algorithms.baselines import LogisticRegressionBaseline  # noqa: E402
from faircompare.algorithms.lfr import lfr_objective  # noqa: E402
from faircompare.algorithms.reductions import logistic_regression  # noqa: E402
from faircompare.exceptions import ChoiceError  # noqa: E402
from faircompare.registry import get_algorithm  # noqa: E402


def training_scores(X, y):
    """Logistic regression's training probabilities, as the post-processors see them."""
    return logistic_regression().fit(X.to_numpy(float), y).predict_proba(X.to_numpy(float))[:, 1]


def rates(positive, y, s, group):
    """Expected true and false positive rates of a group, from per-row positive probabilities."""
    rows = s == group
    return positive[rows & (y == 1)].mean(), positive[rows & (y == 0)].mean()


# ---------------------------------------------------------------- equalized odds (Hardt et al.)


def test_eq_odds_solves_aif360s_linear_program_on_the_same_predictions(biased):
    X, y, s = biased
    model = AIF360EqualizedOdds().fit(X, y, sensitive_features=s)
    scores = training_scores(X, y)
    direct = EqOddsPostprocessing(seed=0, **GROUPS).fit(
        binary_label_dataset(y, s),
        binary_label_dataset((scores > 0.5).astype(int), s, scores=scores),
    )
    np.testing.assert_array_equal(model.postprocessor_.model_params.x, direct.model_params.x)


def test_eq_odds_equalises_the_expected_true_and_false_positive_rates_on_training_data(biased):
    X, y, s = biased
    model = AIF360EqualizedOdds().fit(X, y, sensitive_features=s)
    positive = model.positive_probability(X, sensitive_features=s)
    scores = training_scores(X, y)
    before = np.subtract(rates(scores > 0.5, y, s, 1), rates(scores > 0.5, y, s, 0))
    after = np.subtract(rates(positive, y, s, 1), rates(positive, y, s, 0))
    assert np.abs(before).max() > 0.1  # the biased data give logistic regression real gaps
    # Hardt et al. §3.2: the linear program's equality constraints, to the solver's tolerance
    np.testing.assert_allclose(after, 0.0, atol=1e-7)


@pytest.mark.parametrize("algorithm", [AIF360EqualizedOdds, AIF360CalibratedEqualizedOdds])
def test_a_randomised_post_processor_draws_each_row_with_its_probability(biased, algorithm):
    # predict_proba is the expected prediction (the scores, and the loss the individual test
    # attacks): within each of its distinct values, the share of rows predict labels 1 is it
    X, y, s = biased
    model = algorithm().fit(X, y, sensitive_features=s)
    if algorithm is AIF360CalibratedEqualizedOdds:  # a rate AIF360 fitted outside [0, 1], as
        model.postprocessor_.unpriv_mix_rate = -7.2  # on violent recidivism: never mixed
    big = X.sample(20_000, replace=True, random_state=0)
    big += np.random.default_rng(0).normal(scale=1e-9, size=big.shape)  # distinct rows
    groups = s[X.index.get_indexer(big.index)]
    predicted = model.predict(big, sensitive_features=groups)
    expected = model.predict_proba(big, sensitive_features=groups)
    np.testing.assert_allclose(expected.sum(axis=1), 1.0)
    assert ((expected >= 0) & (expected <= 1)).all()
    randomised = 0
    for value in np.unique(expected[:, 1]):
        rows = expected[:, 1] == value
        # Bernoulli draws: the realised share within 4 standard errors of the expectation
        spread = np.sqrt(value * (1 - value) / rows.sum())
        assert abs(predicted[rows].mean() - value) <= 4 * spread + 1e-12
        randomised += 0 < value < 1
    assert randomised  # some rows are drawn, not decided
    alone = [model.predict(big.iloc[[i]], sensitive_features=groups[[i]])[0] for i in range(20)]
    assert alone == predicted[:20].tolist()  # a row's label does not depend on its batch


# ----------------------------------------------------- reject option classification (Kamiran)


def aif360_reject_option(scores, y, s, **settings):
    """AIF360's RejectOptionClassification fitted on the scores, and its predicted dataset."""
    predicted = binary_label_dataset((scores > 0.5).astype(int), s, scores=scores)
    direct = RejectOptionClassification(**settings, **GROUPS)
    return direct.fit(binary_label_dataset(y, s), predicted), predicted


def test_reject_option_predicts_as_aif360_does(biased):
    X, y, s = biased
    model = AIF360RejectOption(thresholds=20, margins=10).fit(X, y, sensitive_features=s)
    direct, predicted = aif360_reject_option(
        training_scores(X, y), y, s,
        num_class_thresh=20, num_ROC_margin=10, metric_ub=0.05, metric_lb=-0.05,
    )  # fmt: skip
    assert (model.threshold_, model.margin_) == (direct.classification_threshold, direct.ROC_margin)
    expected = direct.predict(predicted).labels.ravel()
    np.testing.assert_array_equal(model.predict(X, sensitive_features=s), expected)


@pytest.mark.parametrize("metric_name", REJECT_OPTION_METRICS)
@pytest.mark.parametrize("bound", [0.01, 0.05, 0.2])
def test_reject_option_search_chooses_as_aif360(biased, metric_name, bound):
    # The search from sorted scores against AIF360's fit, which builds its metric objects for
    # every setting: the same threshold and margin, exactly (a 40 x 25 grid; the next test
    # uses AIF360's default 100 x 50).
    X, y, s = biased
    scores = training_scores(X, y)
    direct, _ = aif360_reject_option(
        scores, y, s, metric_name=metric_name, metric_ub=bound, metric_lb=-bound,
        num_class_thresh=40, num_ROC_margin=25,
    )  # fmt: skip
    chosen = reject_option_search(scores, y, s, metric_name, bound, 40, 25)
    assert chosen == (direct.classification_threshold, direct.ROC_margin)


def test_reject_option_without_a_setting_in_bounds_takes_aif360s_fallback(biased):
    # A bound no setting meets (|metric| <= -1): AIF360 warns and takes the setting of the
    # lowest metric, the first in its order; so does the search.
    X, y, s = biased
    scores = training_scores(X, y)
    with pytest.warns(UserWarning, match="Unable to satisy fairness constraints"):
        direct, _ = aif360_reject_option(scores, y, s, metric_ub=-1.0, metric_lb=1.0)
    with pytest.warns(UserWarning, match="the lowest one is chosen, as in AIF360"):
        chosen = reject_option_search(scores, y, s, "Statistical parity difference", -1.0, 100, 50)
    assert chosen == (direct.classification_threshold, direct.ROC_margin)


def test_reject_option_names_the_metrics_it_knows(biased):
    X, y, s = biased
    with pytest.raises(ChoiceError, match="'Disparate impact'.*Statistical parity difference"):
        AIF360RejectOption(metric_name="Disparate impact").fit(X, y, sensitive_features=s)


def test_reject_option_moves_decisions_only_inside_its_critical_region(biased):
    X, y, s = biased
    model = AIF360RejectOption(thresholds=20, margins=10).fit(X, y, sensitive_features=s)
    threshold, margin = model.threshold_, model.margin_
    scores = training_scores(X, y)
    predicted = model.predict(X, sensitive_features=s)
    critical = (scores > threshold - margin) & (scores <= threshold + margin)
    assert margin > 0 and critical.any()
    outside = ~critical
    np.testing.assert_array_equal(predicted[outside], (scores[outside] > threshold).astype(int))
    assert (predicted[critical & (s == 0)] == 1).all()  # unprivileged: favourable
    assert (predicted[critical & (s == 1)] == 0).all()  # privileged: unfavourable


# ------------------------------------------------------ learning fair representations (Zemel)


def parity_term(model, X, s):
    """L_z of Zemel et al.: mean |difference of the groups' mean prototype memberships|."""
    standardised = model.scaler_.transform(X.to_numpy(float))
    with_s = np.column_stack([standardised, s])
    memberships = softmax(-cdist(with_s, model.prototypes_), axis=1)
    return np.abs(memberships[s == 1].mean(0) - memberships[s == 0].mean(0)).mean()


def test_lfr_is_aif360s_representation_with_a_baseline_on_it(biased):
    X, y, s = biased
    model = LearnedFairRepresentations(Az=2.0, max_evaluations=300, gradient="numerical")
    model.fit(X, y, sensitive_features=s)
    standardised = StandardScaler().fit_transform(X.to_numpy(float))
    dataset = binary_label_dataset(y, s, standardised)
    direct = LFR(k=5, Ax=0.01, Ay=1.0, Az=2.0, seed=0, **GROUPS).fit(
        dataset, maxiter=300, maxfun=300
    )
    represented = direct.transform(dataset).features
    np.testing.assert_array_equal(model.transform(X, sensitive_features=s), represented)
    baseline = LogisticRegressionBaseline().fit(represented, y)
    np.testing.assert_array_equal(
        model.predict(X, sensitive_features=s), baseline.predict(represented)
    )


def aif360_objective(parameters, *data):
    LFR_optim_objective.steps = 0  # AIF360 counts its calls on the function
    return LFR_optim_objective(parameters, *data, verbose=0)


@pytest.mark.parametrize(("Ax", "Ay", "Az"), [(0.01, 1.0, 50.0), (1.0, 0.1, 0.5)])
def test_lfr_objective_is_aif360s_and_its_gradient_the_central_differences(Ax, Ay, Az):
    rng = np.random.default_rng(0)
    k, d = 5, 6
    data = (
        rng.normal(size=(40, d)),
        rng.normal(size=(60, d)) + 0.5,
        (rng.random(40) < 0.3).astype(float),
        (rng.random(60) < 0.6).astype(float),
        k,
        Ax,
        Ay,
        Az,
    )
    parameters = np.r_[rng.random(k), rng.normal(size=k * d)]
    value, gradient = lfr_objective(parameters, *data)
    assert value == pytest.approx(aif360_objective(parameters, *data), rel=1e-12)
    h = 1e-6
    central = [
        (lfr_objective(parameters + h * e, *data)[0] - lfr_objective(parameters - h * e, *data)[0])
        / (2 * h)
        for e in np.eye(len(parameters))
    ]
    np.testing.assert_allclose(gradient, central, atol=1e-8)


def test_lfr_with_the_exact_gradient_reaches_a_lower_objective_than_aif360s_fit(biased):
    # Same start, same budget of 300 evaluations: AIF360 spends 31 per gradient (k (d + 1)).
    X, y, s = biased
    fits = {
        gradient: LearnedFairRepresentations(Az=2.0, max_evaluations=300, gradient=gradient).fit(
            X, y, sensitive_features=s
        )
        for gradient in ("analytic", "numerical")
    }
    x = np.column_stack([StandardScaler().fit_transform(X.to_numpy(float)), s])
    data = (x[s == 0], x[s == 1], y[s == 0], y[s == 1], 5, 0.01, 1.0, 2.0)
    objective = {
        gradient: aif360_objective(np.r_[fit.weights_, fit.prototypes_.ravel()], *data)
        for gradient, fit in fits.items()
    }
    assert objective["analytic"] < objective["numerical"]


def test_lfr_parity_weight_shrinks_the_groups_membership_gap(biased):
    X, y, s = biased
    gaps = [
        parity_term(
            LearnedFairRepresentations(Az=Az, max_evaluations=1500).fit(X, y, sensitive_features=s),
            X,
            s,
        )
        for Az in (0.0, 50.0)
    ]
    # Zemel et al. §2: Az weighs L_z in the objective; a large weight drives L_z towards 0
    assert gaps[1] < 0.5 * gaps[0]


# ---------------------------------------------------------------------- GerryFair (Kearns)


def test_gerryfair_predicts_as_aif360_does(biased):
    X, y, s = biased
    model = GerryFair(max_iters=5).fit(X, y, sensitive_features=s)
    dataset = binary_label_dataset(y, s, X.to_numpy(float))
    direct = GerryFairClassifier(max_iters=5, gamma=0.01, C=10, predictor=LinearRegression())
    expected = direct.fit(dataset, early_termination=True).predict(dataset).labels.ravel()
    np.testing.assert_array_equal(model.predict(X, sensitive_features=s), expected)


def test_gerryfair_narrows_the_false_positive_gap_of_its_learner(biased):
    X, y, s = biased
    features = np.column_stack([X.to_numpy(float), s])
    unconstrained = LinearRegression().fit(features, y).predict(features) >= 0.5
    fair = GerryFair(gamma=0.005, max_iters=50).fit(X, y, sensitive_features=s)
    predicted = fair.predict(X, sensitive_features=s)

    def fp_gap(labels):
        return abs(
            rates(labels.astype(float), y, s, 1)[1] - rates(labels.astype(float), y, s, 0)[1]
        )

    assert fp_gap(predicted) < fp_gap(unconstrained)


# ----------------------------------------------------------- MetaFair (Celis et al. 2019)


def statistical_rate(predicted, s):
    """Celis et al.'s statistical rate: the smaller ratio of the groups' positive rates."""
    low, high = sorted([predicted[s == 0].mean(), predicted[s == 1].mean()])
    return low / high


def test_metafair_predicts_as_aif360_does_with_the_attribute_kept_out_of_the_features(biased):
    X, y, s = biased
    model = MetaFair(tau=0.8).fit(X, y, sensitive_features=s)
    dataset = binary_label_dataset(y, s, X.to_numpy(float), sensitive_is_feature=False)
    assert dataset.features.shape == X.shape
    direct = MetaFairClassifier(tau=0.8, type="sr", seed=0).fit(dataset)
    np.testing.assert_array_equal(model.predict(X), direct.predict(dataset).labels.ravel())


def test_metafair_raises_the_statistical_rate_to_its_target(biased):
    X, y, s = biased
    unconstrained = MetaFair(tau=0.0).fit(X, y, sensitive_features=s).predict(X)
    constrained = MetaFair(tau=0.8).fit(X, y, sensitive_features=s).predict(X)
    # measured: 0.56 unconstrained; AIF360 keeps the most accurate classifier whose training
    # statistical rate is at least tau - 0.2
    assert statistical_rate(unconstrained, s) < 0.6 <= statistical_rate(constrained, s)


def test_metafair_fits_aif360s_classifier_on_principal_components_beyond_max_features(biased):
    X, y, s = biased
    model = MetaFair(tau=0.8, max_features=4).fit(X, y, sensitive_features=s)
    components = PCA(4, random_state=0).fit(X.to_numpy(float)).transform(X.to_numpy(float))
    dataset = binary_label_dataset(y, s, components, sensitive_is_feature=False)
    direct = MetaFairClassifier(tau=0.8, type="sr", seed=0).fit(dataset)
    np.testing.assert_array_equal(model.predict(X), direct.predict(dataset).labels.ravel())
    assert MetaFair(max_features=6).fit(X, y, sensitive_features=s).components_ is None


def test_metafair_says_why_when_aif360_finds_no_parameters(biased):
    X, y, s = biased
    # a copy of the group among the features makes the Gaussian singular (measured: AIF360's
    # own fit then raises "cannot unpack non-iterable NoneType object")
    with pytest.raises(AlgorithmInputError, match="found no parameters.*on these 6 features"):
        MetaFair(tau=0.8).fit(X.assign(copy=s.astype(float)), y, sensitive_features=s)


def test_the_new_aif360_methods_are_plugins_of_their_family():
    families = {
        "aif360-eq-odds": "post-processing",
        "aif360-reject-option": "post-processing",
        "lfr-svm": "pre-processing",
        "gerryfair": "in-processing",
        "metafair": "in-processing",
    }
    for name, family in families.items():
        algorithm = get_algorithm(name)
        assert algorithm.source.startswith("entry point faircompare.algorithms.aif360_")
        assert algorithm.describe()["family"] == family
        assert algorithm.describe()["library"] == "aif360"
