"""Every stored number stays the same: a small audited benchmark against a checked-in reference.

The reference (``expected/reference_run.csv``) holds the measures and audits of Ricci and German
(first sensitive attribute, numerical+binary, one split, four algorithms: a gradient model, a
Feldman pipeline, a tree audited derivative-free, Calders' naive Bayes). Regenerate it only when
a change is meant to alter numbers, and say so: ``python -m tests.benchmark.test_reference``.
It was produced by the code before the run path was redesigned (#13), and regenerated when the
decision tree's seed came to derive from what its fit depends on (#30: the tree's rows changed,
and the AUC tests' p-values took the sampler #19 introduced; nothing else), and when Feldman's
repair came to break training ties with a stream per block of columns and group (#31: the 143
rows of ``feldman-gaussian-nb`` changed; nothing else), and when the individual audit came to
attack a model without gradients twice within the metric's free directions (#52, audit version
4: the 12 individual rows of the three derivative-free models changed, and the 4 rows of the
logistic regression only in their details, which gained the Monte Carlo error and the verdict;
nothing else), and when FlipTest came to read the flipsets the randomised map gives in
expectation (#52, audit version 3: the 16 FlipTest rows changed in their rates, where the groups
differ in size, and in their details, which gained the sampling error; nothing else), and when
the audits came to need 30 test rows in each group and the permutation tests to be sequential,
and T_n's critical value to be the bootstrap-t's (#64, #66, permutation and individual version
5, FlipTest version 4: Ricci's 36 audit rows became rows that say "too few rows", German's 20
permutation rows took their sequential p-values, intervals and draws, and its 4 loss-ratio
rows their bootstrap-t bound, p-value and interval; no measure and no other row changed), and
when Feldman's repair came to repair each distinct value of a group to one value, as its
authors' code does (#78, Feldman version 5: the 118 rows of ``feldman-gaussian-nb``, its
measures and audits on both datasets, changed; nothing else), and when T_n's critical value
came to be the bootstrap draw its p-value's count puts at alpha, not a quantile interpolated
between draws, and a derivative-free attack to be repeated until both verdicts are decided
(#80, individual version 7: German's 2 loss-ratio rows changed in T_n and its interval, their
p-values not at all; nothing else), and when each permutation test came to store the families
of its run that a run-wide reading divides alpha by (#80, permutation version 6: German's 20
permutation rows gained ``families`` = 1 in their details; nothing else).

One kind of row depends on the processor: the individual audit's loss ratios (T_n, its p-value and
its details) come out of 100 steps of an attack that amplifies the last bits of matrix products,
which OpenBLAS computes with a kernel chosen for the processor. Run under four kernels
(``python -m tests.benchmark.test_reference --spread``: Haswell, SkylakeX, Sandybridge, Zen),
they differ from the reference by at most 2.0e-6 relative (Calders' naive Bayes on Ricci,
attacked derivative-free, under SkylakeX) and every other number not at all (below 1e-14), so
those rows are compared to :data:`KERNEL_RTOL` (50 times the measured spread) and the rest to
1e-9. ``.ci/run`` runs the numeric tests once more under a second kernel.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from faircompare.benchmark import make_plan, run_plan
from faircompare.config import BenchmarkConfig
from faircompare.results import ResultStore

pytestmark = pytest.mark.data

EXPECTED = Path(__file__).parent / "expected" / "reference_run.csv"
CONFIG = BenchmarkConfig(
    datasets=("ricci", "german"),
    algorithms=("logistic-regression", "feldman-gaussian-nb", "decision-tree", "calders"),
    sensitive_attributes="first",
    variants=("numerical+binary",),
    splits=1,
    permutations=200,
)
IDENTITY = ["dataset", "sensitive_attribute", "algorithm", "params", "split_id"]
KERNEL_DEPENDENT = "individual:loss-ratio"  # amplifies the BLAS kernel's last bits
KERNEL_RTOL = 1e-4  # 50 x the largest relative spread measured across four kernels (2.0e-6)
KERNELS = ("Haswell", "SkylakeX", "Sandybridge", "Zen")


def reference_frame(folder: Path) -> pd.DataFrame:
    """Run the reference plan into ``folder`` and return its measures and audits, one table."""
    options = BenchmarkConfig(permutations=CONFIG.permutations)
    with ResultStore(folder) as store:
        summary = run_plan(make_plan(CONFIG).runs, store, options.overridden(jobs=1))
        assert summary.failed == 0, store.runs()["error"].dropna().tolist()
        measures = store.measures("test").assign(kind="measure")
        audits = store.audits().assign(kind="audit")
    measures = measures.rename(columns={"measure": "name", "value": "statistic"})
    audits["name"] = audits["audit"] + ":" + audits["metric"]
    # The reference predates the adjusted p-value's own column and the scope's name (#27): it
    # kept Holm's p-value among the details, and the scope as the group.
    audits["details"] = [
        json.dumps(details | ({} if pd.isna(holm) else {"holm_pvalue": holm}))
        for details, holm in zip(audits["details"], audits["adjusted_pvalue"], strict=True)
    ]
    audits = audits.rename(columns={"scope": "group"})
    columns = [*IDENTITY, "kind", "name", "group", "statistic", "pvalue", "details"]
    frame = pd.concat([measures, audits], ignore_index=True).reindex(columns=columns)
    return frame.sort_values(IDENTITY + ["kind", "name", "group"], ignore_index=True)


def _details(text: object) -> dict:
    return json.loads(text) if isinstance(text, str) and text else {}


def _assert_close(got: object, want: object, where: str, rtol: float = 1e-9) -> None:
    """Compare parsed JSON: numbers to a relative ``rtol``, everything else exactly."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), where
        for name in want:
            _assert_close(got[name], want[name], f"{where}.{name}", rtol)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            _assert_close(g, w, f"{where}[{i}]", rtol)
    elif isinstance(want, float | int) and not isinstance(want, bool):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-12, err_msg=where)
    else:
        assert got == want, where


def test_a_small_audited_benchmark_stores_the_reference_numbers(tmp_path):
    expected = pd.read_csv(EXPECTED, dtype=str, keep_default_na=False)
    actual = reference_frame(tmp_path / "results")
    keys = IDENTITY + ["kind", "name", "group"]
    pd.testing.assert_frame_equal(
        actual[keys].astype(str), expected[keys].astype(str), check_dtype=False
    )
    # Exactly equal but for the last bits a BLAS may change (the bare and full CI environments
    # install different wheels): a relative 1e-9 is far below any printed digit; the attack's
    # loss ratios within the spread measured across BLAS kernels.
    kernel = (expected["name"] == KERNEL_DEPENDENT).to_numpy()
    for column in ("statistic", "pvalue"):
        got = actual[column].astype(float)
        want = pd.to_numeric(expected[column].replace("", np.nan))
        for rows, rtol in ((~kernel, 1e-9), (kernel, KERNEL_RTOL)):
            np.testing.assert_allclose(got[rows], want[rows], rtol=rtol, atol=1e-12)
    for row, (got, want) in enumerate(zip(actual["details"], expected["details"], strict=True)):
        got, want = _details(got), _details(want)
        _assert_close(got, want, f"details of row {row}", KERNEL_RTOL if kernel[row] else 1e-9)


def kernel_spread() -> None:
    """Print each number kind's largest relative difference from the reference per BLAS kernel."""
    import os
    import subprocess
    import tempfile

    expected = pd.read_csv(EXPECTED)
    for kernel in KERNELS:
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "frame.csv"
            code = (
                "import sys; from pathlib import Path; from tests.benchmark.test_reference "
                f"import reference_frame; reference_frame(Path({folder!r}) / 'results')"
                f".to_csv({str(out)!r}, index=False)"
            )
            env = os.environ | {"OPENBLAS_CORETYPE": kernel}
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
            got = pd.read_csv(out)
        spread = (got["statistic"] - expected["statistic"]).abs() / expected["statistic"].abs()
        by_kind = spread.fillna(0).groupby(expected["name"]).max().sort_values()
        print(f"{kernel}: {by_kind.index[-1]} {by_kind.iloc[-1]:.1e}; others <= "
              f"{by_kind.iloc[:-1].max():.1e}")  # fmt: skip


if __name__ == "__main__":  # regenerate the reference from the current code, or measure
    import tempfile

    if sys.argv[1:] == ["--spread"]:
        kernel_spread()
        sys.exit()
    with tempfile.TemporaryDirectory() as folder:
        reference_frame(Path(folder)).to_csv(EXPECTED, index=False)
    print(f"wrote {EXPECTED}", file=sys.stderr)
