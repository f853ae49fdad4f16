"""What writing a study's report costs, and what its comparisons cost against a naive reading.

Times :func:`faircompare.analysis.report.write_report` of a results folder from an empty
report folder (every part drawn), and, in the same run, :func:`faircompare.analysis.compare.
pairwise` on every configuration of the study against a naive version of it (a pandas frame
per pair, ``dropna`` on it, frozen ``scipy.stats.t`` distributions): the way the report
compared pairs until #63, its numbers checked equal here. ::

    python perf/report_time.py --results /tmp/default-study          # the report, 2 processes
    python perf/report_time.py --results /tmp/default-study --jobs 1

The ``default`` study's report (``faircompare run``'s 1,425 runs) took 46.4 s on 2 cores at a
load of about 1 before #63 (43 figures as PDF, SVG and PNG, 57 MB). The load average is
printed beside the timings.
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from faircompare.analysis import compare, tidy
from faircompare.analysis.report import write_report
from faircompare.results import ResultStore


def naive_pairwise(measures: pd.DataFrame, measure: str, rope: float = 0.01) -> pd.DataFrame:
    """Compare every pair as the report did before #63: pandas per pair, frozen distributions."""
    scored = compare.scores(measures, measure)
    by_split = scored.pivot_table(index="split_id", columns="name", values="score")
    rows = []
    for a, b in itertools.combinations(sorted(by_split.columns), 2):
        shared = by_split[[a, b]].dropna()
        if len(shared) < 2:
            continue
        d = (shared[a] - shared[b]).to_numpy()
        mean, sd = d.mean(), d.std(ddof=1)
        scale = sd * np.sqrt(1 / len(d) + compare.TEST_TO_TRAIN)
        statistic = mean / scale if scale > 0 else 0.0
        pvalue = 2 * stats.t.sf(abs(statistic), len(d) - 1)
        if scale > 0:
            posterior = stats.t(len(d) - 1, loc=mean, scale=scale)
            above = float(posterior.sf(rope))
        else:
            above = float(mean > rope)
        rows.append({"a": a, "b": b, "pvalue": pvalue, "p_a_better": above})
    return pd.DataFrame(rows)


def compare_pairs(results: Path) -> None:
    """Time pairwise against its naive version on every configuration, and check they agree."""
    with ResultStore(results, readonly=True) as store:
        chosen = tidy.representative(store.measures(), store.measures("validation"))
    parts = [part for _, part in chosen.groupby(tidy.WHERE) if part["split_id"].nunique() > 1]
    timings = {}
    for name, function in (("pairwise", compare.pairwise), ("naive", naive_pairwise)):
        start = time.perf_counter()
        found = [function(part, m) for part in parts for m in ("accuracy", "DIbinary")]
        timings[name] = time.perf_counter() - start
        if name == "pairwise":
            fast = found
    for ours, theirs in zip(fast, found, strict=True):
        np.testing.assert_allclose(ours["pvalue"], theirs["pvalue"], rtol=1e-9)
        np.testing.assert_allclose(ours["p_a_better"], theirs["p_a_better"], rtol=1e-9, atol=1e-12)
    pairs = sum(len(f) for f in fast)
    print(f"pairwise comparisons: {pairs} pairs in {len(parts)} configurations x 2 measures")
    print(f"  compare.pairwise  {timings['pairwise']:6.2f} s")
    ratio = timings["naive"] / timings["pairwise"]
    print(f"  naive (pandas)    {timings['naive']:6.2f} s   ratio {ratio:.1f}x")


def main() -> None:
    """Time the report and the comparisons, with the load average."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True, help="A study's results folder.")
    parser.add_argument("--jobs", type=int, default=2, help="Processes drawing the report.")
    arguments = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    compare_pairs(arguments.results)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        write_report(arguments.results, out, reuse=False, jobs=arguments.jobs)
        seconds = time.perf_counter() - start
        figures = sorted(Path(out, "figures").iterdir())
        size = sum(f.stat().st_size for f in Path(out).rglob("*") if f.is_file()) / 2**20
    print(
        f"report: {seconds:.1f} s with {arguments.jobs} processes, {len(figures)} figure files, "
        f"{size:.0f} MB (46.4 s before #63 for the default study, 2 processes, load ~1)"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
