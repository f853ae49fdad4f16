"""Trials of a seeded search at an equal budget (#82): the same seed draws the same trials, a
search resumes where it stopped, the budget is spent exactly, and each objective chooses as the
module states (checked on predictions whose accuracy and DI gap are computed by hand)."""

import numpy as np
import pytest

from faircompare.algorithms.baselines import LogisticRegressionBaseline
from faircompare.algorithms.search import Choice, Integer, Real, space_of
from faircompare.benchmark.trials import Trial, Tuning, search
from faircompare.exceptions import ChoiceError

# Validation rows: 10 of the privileged group "a", all labelled 1, and 10 of "b", all labelled 0.
Y = np.r_[np.ones(10), np.zeros(10)].astype(int)
S = np.repeat(["a", "b"], 10)

# A setting predicts p positives in "a" and q in "b": accuracy (p + 10 - q) / 20, DIbinary q / p,
# its gap 1 - q / p (q <= p). By hand:
SETTINGS = {
    "A": (10, 1),  # accuracy 0.95, gap 0.9
    "B": (10, 5),  # accuracy 0.75, gap 0.5
    "C": (6, 6),  # accuracy 0.50, gap 0.0
    "D": (9, 8),  # accuracy 0.55, gap 1/9
}


def predictions(setting: str) -> np.ndarray:
    p, q = SETTINGS[setting]
    return np.r_[np.ones(p), np.zeros(10 - p), np.ones(q), np.zeros(10 - q)].astype(int)


def scored(params):
    return Y, predictions(params["setting"]), S, "a"


def chosen(objective: str, bound: float = 0.1, settings=tuple(SETTINGS)) -> str:
    space = {"setting": Choice(settings)}
    found = search(space, Tuning(10, objective=objective, bound=bound), scored)
    assert found.exhaustive and len(found.trials) == len(settings)  # each setting once
    return found.chosen.params["setting"]


def test_each_objective_chooses_the_trial_the_module_states():
    searched = search({"setting": Choice(tuple(SETTINGS))}, Tuning(10), scored)
    by_setting = {t.params["setting"]: t for t in searched.trials}
    assert by_setting["A"].accuracy == pytest.approx(0.95) and by_setting["A"].gap == 0.9
    assert by_setting["D"].accuracy == pytest.approx(0.55)
    assert by_setting["D"].gap == pytest.approx(1 / 9)
    assert chosen("accuracy") == "A"  # the most accurate
    assert chosen("constrained", bound=0.15) == "D"  # the most accurate of C and D (gap <= 0.15)
    assert chosen("constrained", bound=0.05) == "C"  # C alone is that fair
    assert chosen("constrained", bound=0.05, settings=("A", "B")) == "B"  # none is: the fairest
    # the Pareto set is all four; accuracy minus gap: A 0.05, B 0.25, D 0.44, C 0.50
    assert chosen("pareto") == "C"


def quadratic(params):
    """Predictions whose accuracy peaks at x = 0.3 (a smooth problem for the samplers)."""
    right = int(round(20 * (1 - (params["x"] - 0.3) ** 2)))
    y_pred = np.where(np.arange(20) < right, Y, 1 - Y)
    return Y, y_pred, S, "a"


@pytest.mark.parametrize("sampler", ["tpe", "random"])
def test_the_same_seed_draws_the_same_trials_and_the_budget_is_spent_exactly(sampler):
    space = {"x": Real(0.0, 1.0), "k": Integer(1, 64, log=True)}
    first = search(space, Tuning(14, sampler=sampler, seed=3), quadratic)
    again = search(space, Tuning(14, sampler=sampler, seed=3), quadratic)
    other = search(space, Tuning(14, sampler=sampler, seed=4), quadratic)
    assert len(first.trials) == 14 and not first.exhaustive  # TPE past its 10 random trials
    assert [t.params for t in first.trials] == [t.params for t in again.trials]
    assert first.chosen == again.chosen
    assert [t.params for t in first.trials] != [t.params for t in other.trials]
    assert all(0 <= t.params["x"] <= 1 and 1 <= t.params["k"] <= 64 for t in first.trials)


def test_an_interrupted_search_resumes_at_its_next_trial_as_if_it_had_not_stopped():
    space = {"x": Real(0.0, 1.0)}
    tuning = Tuning(13, seed=1)
    whole = search(space, tuning, quadratic)
    stored: list[Trial] = []

    def interrupted(params):
        if len(stored) == 11:  # Ctrl-C during the 12th fit, past TPE's random start
            raise KeyboardInterrupt
        return quadratic(params)

    with pytest.raises(KeyboardInterrupt):
        search(space, tuning, interrupted, after=stored.append)
    fitted = []

    def counted(params):
        fitted.append(params)
        return quadratic(params)

    resumed = search(space, tuning, counted, done=stored)
    assert resumed.trials == whole.trials and resumed.chosen == whole.chosen
    assert len(fitted) == 2  # the stored trials are not fitted again


def test_nothing_to_tune_is_one_trial_at_the_defaults_and_a_failed_trial_is_never_chosen():
    (only,) = search({}, Tuning(30), lambda params: (Y, predictions("C"), S, "a")).trials
    assert only.params == {}

    def failing(params):
        if params["setting"] == "A":
            raise ValueError("the solver did not converge")
        return scored(params)

    found = search({"setting": Choice(("A", "B"))}, Tuning(5), failing)
    failed = found.trials[0]
    assert failed.failed and failed.error == "ValueError: the solver did not converge"
    assert found.chosen.params == {"setting": "B"}
    with pytest.raises(ValueError, match="every trial of the search failed; the first: Value"):
        search({"setting": Choice(("A", "B"))}, Tuning(5), always_fails)


def always_fails(params):
    raise ValueError("no fit")


def test_a_tuning_names_what_is_wrong_and_the_valid_choices():
    with pytest.raises(ValueError, match="a tuning budget is a whole number of trials >= 1, got 0"):
        Tuning(0)
    with pytest.raises(ChoiceError, match="'grid'.*tpe, random"):
        Tuning(10, sampler="grid")
    with pytest.raises(ChoiceError, match="'fairness'.*accuracy, constrained, pareto"):
        Tuning(10, objective="fairness")
    with pytest.raises(ValueError, match="a gap's bound lies in \\[0, 1\\], got 2"):
        Tuning(10, bound=2)


def test_a_logistic_regression_is_tuned_on_validation_rows_over_its_declared_space():
    # the search over a built-in algorithm's space (C on a log scale), fitted and scored as the
    # harness will: 20 trials, each within the space, the chosen one the most accurate
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    s = rng.choice(["a", "b"], 300)
    y = (X[:, 0] + 0.5 * rng.normal(size=300) > 0).astype(int)
    train, held = np.arange(200), np.arange(200, 300)
    model = LogisticRegressionBaseline()

    def fitted(params):
        tuned = model.set_params(**params).fit(X[train], y[train], sensitive_features=s[train])
        return y[held], tuned.predict(X[held]), s[held], "a"

    found = search(space_of(model), Tuning(20, seed=0), fitted)
    assert len(found.trials) == 20
    assert all(0.001 <= t.params["C"] <= 1000 for t in found.trials)
    assert found.chosen.accuracy == max(t.accuracy for t in found.trials)


def test_a_tuning_objective_bounds_the_gap_of_a_fairness_measure_of_the_catalogue():
    from faircompare.choices import TUNING_MEASURES
    from faircompare.measures import MEASURES

    assert all(MEASURES[name].kind == "fairness" and MEASURES[name].has_best
               for name in TUNING_MEASURES)  # fmt: skip
    with pytest.raises(ChoiceError, match="unknown fairness measure 'accuracy'"):
        Tuning(10, measure="accuracy")
