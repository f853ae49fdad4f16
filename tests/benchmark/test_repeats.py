"""A numerical+binary run that repeats its numerical twin: one experiment, computed once."""

import pytest

from faircompare.benchmark import execute, make_plan, plan_study
from faircompare.benchmark.costs import REPEAT_SECONDS
from faircompare.benchmark.execute import execute_run, execute_runs
from faircompare.benchmark.schedule import shared_fits
from faircompare.config import BenchmarkConfig
from faircompare.datasets import load_dataset
from faircompare.preprocessing import prepare, variants_agree

pytestmark = pytest.mark.data

GERMAN = BenchmarkConfig(
    datasets=("german",),
    algorithms=("feldman-decision-tree", "logistic-regression", "kamishima"),
    sensitive_attributes="all",
    variants="supported",
    grid=True,
    tune=True,
    splits=1,
)


def test_the_variants_agree_where_an_attribute_has_two_values_the_privileged_last():
    # values read off the cleaned data: German's sex is female/male (male privileged), its age
    # adult/youth (adult privileged, so first); Adult's race has five values
    german, adult = load_dataset("german"), load_dataset("adult")
    assert variants_agree(german, "sex") and variants_agree(adult, "sex")
    assert not variants_agree(german, "age")  # the codes would be the other way round
    assert not variants_agree(german, "sex-age") and not variants_agree(adult, "race")
    numerical, binary = (prepare(german, v, "sex") for v in ("numerical", "numerical+binary"))
    assert numerical.X.equals(binary.X)
    assert ((numerical.sensitive_features == "male") == (binary.sensitive_features == 1)).all()


def test_a_repeating_run_takes_its_twins_fit_and_seeds_and_its_inputs_say_so():
    plan = make_plan(GERMAN)
    runs = {(r.algorithm, r.sensitive_attribute, r.variant, r.params): r for r in plan.runs}
    marked = {r.key: r for r in plan.with_repeats({"german": load_dataset("german")}).runs}
    for (algorithm, attribute, variant, params), run in runs.items():
        now = marked[run.key]
        repeats = (
            variant == "numerical+binary"
            and attribute == "sex"
            and algorithm != "kamishima"  # no numerical twin, and it reads the groups' names
        )
        assert now.repeats == ("numerical" if repeats else None)
        if not repeats:
            assert now == run  # untouched: its stored results stay valid
            continue
        twin = runs[algorithm, attribute, "numerical", params]
        assert now.seed == twin.seed != run.seed and now.fit_key == twin.fit_key
        assert now.key == run.key and dict(now.inputs)["repeats"] == "numerical"


@pytest.mark.filterwarnings("ignore::faircompare.measures.UndefinedMeasureWarning")
def test_a_repeating_run_records_what_it_computes_alone():
    config = GERMAN.overridden(sensitive_attributes=("sex",))
    plan = make_plan(config).with_repeats({"german": load_dataset("german")})
    runs = [r for r in plan.runs if r.parameters.get("repair_level", 0.5) in (0.5, 1.0)]
    runs = [r for r in runs if r.algorithm != "kamishima"]
    repeating = [r for r in runs if r.repeats]
    assert len(repeating) == 3  # logistic regression, and the repair at two levels
    options = BenchmarkConfig(permutations=50)
    together = {rec.spec.key: rec for g in shared_fits(runs) for rec in execute_runs(g, options)}
    for run in repeating:
        record, alone = together[run.key], execute_run(run, options)  # alone: its own fit
        assert record.status == alone.status == "done"
        assert record.timings["fit"] == record.timings["predict"] == 0.0
        assert alone.timings["fit"] > 0
        assert [(m.part, m.measure, m.group, m.value) for m in record.measures] == [
            (m.part, m.measure, m.group, m.value) for m in alone.measures
        ]  # its own group names (0 and 1), and every value
        assert {m.group for m in record.measures} - {""} == {"0", "1"}
        assert [(a.audit, a.metric, a.scope, a.statistic, a.pvalue) for a in record.audits] == [
            (a.audit, a.metric, a.scope, a.statistic, a.pvalue) for a in alone.audits
        ]
        assert (record.predictions.y_pred == alone.predictions.y_pred).all()
        assert (record.predictions.sensitive_features == alone.predictions.sensitive_features).all()
        assert record.predictions.privileged == alone.predictions.privileged == 1
        twin = together[run.repeated_key]
        assert twin.spec.variant == "numerical" and twin.audits == record.audits


def test_a_repeating_run_whose_twin_failed_fits_its_own_model(monkeypatch):
    config = GERMAN.overridden(algorithms=("feldman-decision-tree",), sensitive_attributes=("sex",))
    plan = make_plan(config).with_repeats({"german": load_dataset("german")})
    level = [r for r in plan.runs if r.parameters["repair_level"] == 0.5]
    twin, repeating = sorted(level, key=lambda r: r.variant)
    real = execute.predict_rows

    def fails_for_the_twin(name, model, split):
        if split.privileged == "male":  # numerical: the twin, once its model is fitted
            raise RuntimeError("the twin fails after its fit")
        return real(name, model, split)

    monkeypatch.setattr(execute, "predict_rows", fails_for_the_twin)
    options = BenchmarkConfig(audits=False)
    records = execute_runs([twin, repeating], options)
    assert records[0].status == "failed" and "after its fit" in records[0].error
    # not the twin's model, which knows the groups as female and male: a fit of its own
    assert records[1].status == "done" and records[1].timings["fit"] > 0
    monkeypatch.undo()
    alone = execute_run(repeating, options)
    assert [m.value for m in records[1].measures] == [m.value for m in alone.measures]


def test_a_repeating_run_costs_its_measures_and_no_audit_setup():
    planned = plan_study(GERMAN.overridden(algorithms=("feldman-decision-tree",)))
    repeating = [r for r in planned.runs if r.repeats]
    assert len(repeating) == 21  # sex: every repair level of the grid
    assert {planned.costs[r.key] for r in repeating} == {REPEAT_SECONDS}
    own = [planned.costs[r.key] for r in planned.runs if not r.repeats]
    assert min(own) > REPEAT_SECONDS  # each has its own fit, predictions and audits
