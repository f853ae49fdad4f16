"""Write ``tuned_study.csv`` beside this file: the `tuned` profile's study, read from its store.

The study is the one a user runs (``faircompare run --profile tuned --results DIR``, here with
``--jobs 1``, its results folder outside the repository). From its store:

- the dry run's price of the plan against the run time the store records (the runs' seconds
  summed), the goal being within 20 %, for the whole study and for each split;
- the tuned runs whose searches made exactly their budget's trials;
- how many of the verdicts against the yardstick at the defaults hold at every budget
  (:func:`faircompare.analysis.budgets.verdicts_by_budget`);
- a rerun of one split of German's tuned runs into a new folder, with the same seed: the runs
  whose chosen trial is the stored one.

    FAIRCOMPARE_MIRROR=../shared/data python docs/measured/tuned_study.py /path/to/tuned
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from audit_error_rates import Figure, write  # the script beside this one

from faircompare.analysis.budgets import surviving, verdicts_by_budget
from faircompare.benchmark import make_plan, plan_study, run_plan
from faircompare.config import PROFILES
from faircompare.results import ResultStore

TUNING = "docs/guide/tuning.md"
JOBS = 1  # the study's workers (its dry run prices runs side by side above one)


def priced(results: Path) -> list[Figure]:
    """Return the dry run's price of the profile against the stored run time, and per split."""
    study = plan_study(PROFILES["tuned"])
    with ResultStore(results, readonly=True) as store:
        runs = store.runs()
    measured = runs.groupby("split_id")["total_seconds"].sum()
    by_key = runs.set_index("key")["split_id"]
    expected = {}
    for key, seconds in study.costs.items():
        expected[by_key[key]] = expected.get(by_key[key], 0.0) + seconds
    design = (f"faircompare run --profile tuned --jobs {JOBS}: the dry run's price against the "
              f"stored runs' seconds, {len(runs):,} runs")  # fmt: skip
    figures = []
    total_price, total_run = sum(expected.values()), float(measured.sum())
    error = total_price / total_run - 1
    figures.append(Figure("dry run against the run time", design, len(runs), error,
                          quoted=f"priced {total_price / 3600:.2f} CPU-hours, ran "
                          f"{total_run / 3600:.2f} ({error:+.0%})", page=TUNING))  # fmt: skip
    for split, seconds in measured.items():
        off = expected[split] / seconds - 1
        count = int((runs["split_id"] == split).sum())
        quantity = f"dry run against split {split}'s run time"
        figures.append(Figure(quantity, design, count, off, page=TUNING))
    worst = max(figures[1:], key=lambda f: abs(f.value))
    figures.append(Figure("the split furthest from its price", design, worst.replications,
                          worst.value, quoted=f"each split within {abs(worst.value):.0%} of "
                          "its price", page=TUNING))  # fmt: skip
    return figures


def spent_and_surviving(results: Path) -> list[Figure]:
    """Return the searches that made their budget's trials, and the verdicts that survive."""
    with ResultStore(results, readonly=True) as store:
        runs, trials, measures = store.runs(), store.trials(), store.measures()
    tuned = runs.dropna(subset="budget")
    made = tuned["key"].map(trials.groupby("key").size()).fillna(0)
    exact = int((made == tuned["budget"].astype(int)).sum())
    design = "the tuned study's store"
    verdicts = verdicts_by_budget(measures)
    held = int(verdicts["survives"].sum())
    sentence = surviving(verdicts)
    return [
        Figure("tuned runs that made exactly their budget's trials", design, len(tuned), exact,
               quoted=f"{exact:,} of its {len(tuned):,} tuned runs", page=TUNING),
        Figure("verdicts at the defaults that hold at every budget", design, len(verdicts),
               held, quoted=sentence.split(";")[0], page=TUNING),
    ]  # fmt: skip


def rerun(results: Path) -> Figure:
    """Run German's tuned runs of split 0 again, same seed, into a new folder; compare choices."""
    config = PROFILES["tuned"].overridden(datasets=("german",), splits=1, audits=False,
                                          jobs=JOBS)  # fmt: skip
    runs = [run for run in make_plan(config).runs if run.budget is not None]
    with tempfile.TemporaryDirectory() as folder, ResultStore(folder) as again:
        run_plan(runs, again, config)
        chosen_again = _chosen(again)
    with ResultStore(results, readonly=True) as store:
        chosen = _chosen(store)
    same = sum(chosen_again[key] == chosen.get(key) for key in chosen_again)
    design = "German, split 0, every tuned run again with the same seed"
    quoted = f"{same} of {len(chosen_again)} tuned runs"
    return Figure("a rerun's tuned runs choosing the stored setting", design, len(chosen_again),
                  same, quoted=quoted, page=TUNING)  # fmt: skip


def _chosen(store: ResultStore) -> dict[str, dict]:
    """Each tuned run's chosen setting, by key."""
    trials = store.trials()
    picked = trials[trials["chosen"]]
    return dict(zip(picked["key"], picked["params"].map(json.loads), strict=True))


def main() -> None:
    """Read the study's store, rerun one split's tuned runs, and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="the tuned profile's results folder")
    results = parser.parse_args().results
    figures = [*priced(results), *spent_and_surviving(results), rerun(results)]
    write(figures, "tuned_study.csv", "python docs/measured/tuned_study.py RESULTS")


if __name__ == "__main__":
    main()
