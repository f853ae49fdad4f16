"""Compare the individual audit of Feldman pipelines: surrogate gradient against derivative-free.

A Feldman pipeline's repair is a step function of each feature, so until audit version 6 the
individual audit attacked every ``feldman-*`` pipeline without a gradient: two or more attacks of
Gaussian-smoothed estimates (``replicated_fairness_test``). Since version 6 a pipeline whose
classifier has an input gradient (the RBF SVM, logistic regression) is attacked once along
its surrogate gradient, the chain rule through the repair's piecewise-linear smoothing
(``FeldmanClassifier.input_gradient``). For every such run of a profile (the ``default`` study
by default, all its splits), the script audits the same fitted model both ways, with the audit's
own code (the old way through a wrapper that hides the gradient), and prints per (dataset,
algorithm): the runs, the CPU seconds of each audit and their ratio, and for T_n and T~_n how
many verdicts both audits decide and on how many of those they agree; then each run where a
decided verdict differs, with both statistics. One thread; run it on an idle machine.

    FAIRCOMPARE_MIRROR=../shared/data python perf/feldman_surrogate.py [--profile default]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pandas as pd
from individual_gradient import audited
from threadpoolctl import threadpool_limits

from faircompare.audits import AuditedRun
from faircompare.audits.individual import IndividualAudit
from faircompare.audits.protocol import AuditOptions
from faircompare.benchmark import make_plan
from faircompare.config import PROFILES

KINDS = ("surrogate", "derivative-free")


class WithoutGradient:
    """A fitted model seen through its predictions alone, as the audit saw Feldman pipelines."""

    def __init__(self, model: Any) -> None:
        self.model = model
        for method in ("predict_proba", "decision_function", "predict"):
            if hasattr(model, method):
                setattr(self, method, getattr(model, method))


def verdicts(run: AuditedRun) -> tuple[dict[str, Any], float]:
    """The audit's rows as {statistic: (value, reject, undecided)}, and its CPU seconds."""
    start = time.process_time()
    rows = IndividualAudit()(run, AuditOptions())
    seconds = time.process_time() - start
    found = {row.metric: (row.statistic, row.details.get("reject"), row.details.get("undecided"))
             for row in rows}  # fmt: skip
    return found, seconds


def compared(spec: Any) -> dict[str, Any] | None:
    """Audit one run's model both ways; None where its classifier has no gradient."""
    run = audited(spec)
    if getattr(run.model, "gradient_kind", None) is None:  # trees, or repair level 0
        return None
    surrogate, surrogate_seconds = verdicts(run)
    hidden = AuditedRun(run.split, WithoutGradient(run.model), run.y_pred, run.scores, run.seed)
    free, free_seconds = verdicts(hidden)
    row: dict[str, Any] = {
        "dataset": spec.dataset,
        "algorithm": spec.algorithm,
        "run": f"{spec.sensitive_attribute}/{spec.variant} split {spec.split_id}",
        "surrogate s": surrogate_seconds,
        "derivative-free s": free_seconds,
    }
    for metric, name in (("loss-ratio", "T_n"), ("error-ratio", "T~_n")):
        (new, new_reject, _), (old, old_reject, old_open) = surrogate[metric], free[metric]
        decided = new_reject is not None and old_reject is not None and not old_open
        decided = decided and not (np.isnan(new) or np.isnan(old))
        agree = decided and new_reject == old_reject
        row |= {f"{name} surrogate": new, f"{name} derivative-free": old,
                f"{name} decided": decided, f"{name} agree": agree}  # fmt: skip
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="default")
    parser.add_argument("--datasets", nargs="+", help="the profile's by default")
    parser.add_argument("--splits", type=int, help="the profile's by default")
    args = parser.parse_args()
    config = PROFILES[args.profile]
    changes = {"datasets": args.datasets, "splits": args.splits}
    config = config.overridden(**{key: value for key, value in changes.items() if value})
    specs = [r for r in make_plan(config).runs if r.algorithm.startswith("feldman-")]
    rows = [row for spec in specs if (row := compared(spec)) is not None]
    frame = pd.DataFrame(rows)
    table = frame.groupby(["dataset", "algorithm"], sort=False).agg(
        runs=("run", "size"),
        surrogate_s=("surrogate s", "mean"),
        derivative_free_s=("derivative-free s", "mean"),
        **{
            f"{name} {kind}": (f"{name} {kind}", "sum")
            for name in ("T_n", "T~_n")
            for kind in ("decided", "agree")
        },  # fmt: skip
    )
    table["speed-up"] = table["derivative_free_s"] / table["surrogate_s"]
    with pd.option_context("display.width", 200, "display.max_rows", None):
        print(f"{args.profile} profile, {len(frame)} Feldman runs with a gradient:\n")
        print(table.round(2).to_string())
        for name in ("T_n", "T~_n"):
            decided, agree = frame[f"{name} decided"].sum(), frame[f"{name} agree"].sum()
            print(f"\n{name}: {agree} of {decided} verdicts decided both ways agree "
                  f"({agree / max(decided, 1):.1%}); differing:")  # fmt: skip
            differing = frame[frame[f"{name} decided"] & ~frame[f"{name} agree"]]
            columns = ["dataset", "algorithm", "run", *(f"{name} {kind}" for kind in KINDS)]
            print(differing[columns].round(3).to_string(index=False) if len(differing) else "none")
        total_new, total_old = frame["surrogate s"].sum(), frame["derivative-free s"].sum()
        print(f"\nCPU: surrogate {total_new:.1f} s, derivative-free {total_old:.1f} s "
              f"({total_old / total_new:.2f}x)")  # fmt: skip


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
