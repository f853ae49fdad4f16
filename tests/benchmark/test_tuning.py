"""Tuned variants are chosen on validation measures, never on test measures."""

from faircompare.analysis import tuned
from faircompare.records import MeasureRow, RunRecord, RunSpec
from faircompare.results import ResultStore

SPECS: dict[str, RunSpec] = {}


def stored(name, eta, split_id, validation, test):
    spec = SPECS[name] = RunSpec("d", "s", "v", "kamishima", (("eta", eta),), split_id, 0)
    measures = tuple(
        MeasureRow(part, measure, "", value)
        for part, values in (("validation", validation), ("test", test))
        for measure, value in values.items()
    )
    return RunRecord(spec=spec, status="done", measures=measures)


def keys(*names):
    return {SPECS[name].key for name in names}


def test_choice_follows_validation_not_test(tmp_path):
    with ResultStore(tmp_path) as store:
        # eta 1 is best on validation accuracy, eta 30 on test accuracy; eta 30 has the
        # validation DI closest to 1, eta 1 the test DI closest to 1.
        store.write(
            stored(
                "a", 1.0, 0, {"accuracy": 0.9, "DIbinary": 0.5}, {"accuracy": 0.7, "DIbinary": 1.0}
            )
        )
        store.write(
            stored(
                "b",
                30.0,
                0,
                {"accuracy": 0.8, "DIbinary": 0.95},
                {"accuracy": 0.9, "DIbinary": 0.6},
            )
        )
        store.write(
            stored(
                "c", 1.0, 1, {"accuracy": 0.6, "DIbinary": 1.3}, {"accuracy": 0.5, "DIbinary": 1.0}
            )
        )
        by_accuracy = tuned(store, "accuracy")
        by_di = tuned(store, "DI")
    assert set(by_accuracy["key"]) == keys("a", "c")
    assert set(by_di["key"]) == keys("b", "c")
    assert set(by_di["tuned_by"]) == {"DI"}
    assert set(by_accuracy["measure"]) == {"accuracy", "DIbinary"}  # test measures only
