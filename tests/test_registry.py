"""The algorithm registry: built-ins, entry points, plugin folders, and the plugin contract."""

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from faircompare.algorithms.contract import check_contract
from faircompare.exceptions import ChoiceError, FaircompareError
from faircompare.registry import AlgorithmUnavailableError, algorithms, get_algorithm

ROOT = Path(__file__).resolve().parents[1]
PAPER = ["svm", "decision-tree", "gaussian-nb", "logistic-regression", "feldman-svm", "kamishima",
         "calders", "zafar-fairness", "zafar-accuracy", "reductions-eg-dp", "reductions-gs-eo"]  # fmt: skip
EXTRAS = ["threshold-optimizer", "aif360-reweighing", "aif360-calibrated-eo"]


def test_builtins_and_entry_point_extras_are_registered():
    registry = algorithms()
    assert set(PAPER) <= set(registry)
    for name in EXTRAS:
        assert registry[name].source.startswith("entry point faircompare.algorithms.")


# Their default training takes thousands of steps; tests/algorithms/test_neural.py checks the
# same contract with short training in the default run.
NEURAL = {"neural-network", "project-network", "sensr"}


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n in NEURAL else n for n in sorted(algorithms())],
)
def test_every_registered_algorithm_keeps_the_contract(name):
    algorithm = get_algorithm(name)
    if algorithm.make is None:
        pytest.skip(f"{name} is unavailable here: {algorithm.unavailable}")
    failures = [f"{c.name}: {c.detail}" for c in check_contract(algorithm.make) if not c.passed]
    assert failures == []


def test_parameters_are_set_and_unknown_ones_listed():
    assert get_algorithm("kamishima").create(eta=30.0).eta == 30.0
    assert get_algorithm("feldman-svm").create(estimator__C=2.0).estimator.C == 2.0
    with pytest.raises(
        ChoiceError, match="unknown parameter of kamishima 'etta'.*did you mean 'eta'"
    ):
        get_algorithm("kamishima").create(etta=1.0)


def write_plugin(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return path


LEAKY = """
    import numpy as np
    from faircompare.algorithms import FairEstimator

    class Leaky(FairEstimator):
        name = "leaky"

        def fit(self, X, y, *, sensitive_features):
            self.classes_ = np.array([0, 1])
            return self

        def predict(self, X, *, sensitive_features=None):
            if sensitive_features is None:
                return np.zeros(len(X), dtype=int)
            return (np.asarray(sensitive_features) == np.asarray(sensitive_features)[0]).astype(int)
"""


def test_a_plugin_folder_adds_its_algorithms(tmp_path):
    write_plugin(tmp_path, "leaky", LEAKY)
    assert get_algorithm("leaky", plugins=tmp_path).source == str(tmp_path / "leaky.py")


def test_a_plugin_with_a_missing_dependency_is_listed_as_unavailable(tmp_path):
    write_plugin(tmp_path, "needs_missing", "import faircompare_no_such_package\n")
    algorithm = algorithms(tmp_path)["needs_missing"]
    assert (
        algorithm.unavailable
        == "ModuleNotFoundError: No module named 'faircompare_no_such_package'"
    )
    with pytest.raises(
        AlgorithmUnavailableError, match="'needs_missing' is unavailable: ModuleNotFoundError"
    ):
        algorithm.create()


def test_a_name_registered_twice_is_an_error(tmp_path):
    write_plugin(tmp_path, "dup", LEAKY.replace('name = "leaky"', 'name = "svm"'))
    with pytest.raises(
        FaircompareError, match="'svm' is registered twice: by built-in and by .*dup.py"
    ):
        algorithms(tmp_path)


def cli(*args):
    return subprocess.run(["faircompare", *args], cwd=ROOT, capture_output=True, text=True)


def test_check_plugin_passes_the_example_plugin():
    result = cli("check-plugin", "examples/plugins/group_threshold.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("11 passed, 0 failed")


def test_check_plugin_catches_an_undeclared_use_of_the_sensitive_attribute(tmp_path):
    result = cli("check-plugin", str(write_plugin(tmp_path, "leaky", LEAKY)))
    assert result.returncode == 1
    assert "FAIL  leaky: sensitive attribute at predict (numerical)" in result.stdout
    assert "declare uses_sensitive_at_predict" in result.stdout


def test_list_algorithms_json_marks_availability(tmp_path):
    write_plugin(tmp_path, "broken", "raise RuntimeError('broken on purpose')\n")
    result = cli("list", "algorithms", "--json", "--plugins", str(tmp_path))
    listed = {a["name"]: a for a in json.loads(result.stdout)}
    assert listed["kamishima"]["supports"] == ["numerical+binary"]
    assert listed["kamishima"]["param_grid"]["eta"][-1] == 300.0
    assert listed["broken"]["available"] is False
    assert listed["broken"]["reason"] == "RuntimeError: broken on purpose"


SLEEPY = """
import time

from faircompare.algorithms import FairEstimator


class Sleepy(FairEstimator):
    name = "sleepy"

    def fit(self, X, y, *, sensitive_features):
        time.sleep(600)
"""


def test_check_plugin_stops_a_check_at_its_time_limit(tmp_path):
    result = subprocess.run(
        ["faircompare", "check-plugin", str(write_plugin(tmp_path, "sleepy", SLEEPY)),
         "--timeout", "0.5"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 1  # today's main hung for 600 s per check
    assert "FAIL  sleepy: fit and predict on numerical" in result.stdout
    assert "took longer than 0.5 s and was stopped" in result.stdout


def test_check_contract_checks_the_audit_hooks_a_plugin_provides():
    from faircompare.algorithms.baselines import LogisticRegressionBaseline

    class WrongCoefficients(LogisticRegressionBaseline):
        """Claims log-odds that its probabilities do not have."""

        def logit_coefficients(self):
            coef, intercept = super().logit_coefficients()
            return 2 * coef, intercept

    checks = {c.name: c for c in check_contract(WrongCoefficients)}
    hook = checks["audit hooks well formed (numerical+binary)"]
    assert not hook.passed and hook.detail == "logit_coefficients disagree with predict_proba"
    assert checks["audit hooks well formed (numerical)"].passed is False
    assert all(c.passed for c in check_contract(LogisticRegressionBaseline))
