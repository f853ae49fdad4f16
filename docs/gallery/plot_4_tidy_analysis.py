"""
Analysing a results store
=========================

The report is one reading of the store; every analysis behind it is a pure function of the
store's frames (:mod:`faircompare.analysis.tidy`, :mod:`faircompare.analysis.compare`), for
notebooks. This example reads the store of the gallery's first example: the call to
:func:`~faircompare.benchmark.run_benchmark` finds every run stored and runs nothing.
"""

# %%
# The store's frames
# ------------------
# ``measures()`` is long: one row per run, measure and group (``""`` for the whole test set),
# with the run's dataset, attribute, variant, algorithm, parameters (``setting``) and split.
from pathlib import Path

from faircompare.analysis import tidy
from faircompare.benchmark import run_benchmark
from faircompare.config import PROFILES
from faircompare.results import ResultStore

results = Path("quick-study")
summary = run_benchmark(PROFILES["quick"].overridden(jobs=2), results, report=False)
print(f"{summary.planned} runs planned, {summary.skipped} already stored, {summary.done} run now")
with ResultStore(results) as store:
    measures, audits = store.measures(), store.audits()
    validation = store.measures("validation")  # the tuning runs, scored on validation parts
german = measures[(measures["dataset"] == "german") & (measures["variant"] == "numerical+binary")]
print(german[["algorithm", "setting", "split_id", "measure", "group", "value"]].head(8).to_string())

# %%
# Stability over splits (Friedler et al. §7.1)
# --------------------------------------------
# The mean, standard deviation and t interval of each measure over the splits, per algorithm
# and setting.
# One representative per algorithm: its defaults, or, for an algorithm run over a grid, the
# setting with the best validation accuracy in each split (test data never take part).
chosen = tidy.representative(german, validation)
stable = tidy.stability(chosen, ["accuracy", "DIbinary"])
print(stable[["algorithm", "setting", "measure", "splits", "mean", "sd"]].round(3).to_string())

# %%
# The fairness-accuracy tradeoff (Fig. 6)
# ---------------------------------------
# Accuracy against the DI gap of every run, with whether the run's demographic-parity
# permutation test rejects after Holm's correction and the Pareto front: the frame
# :func:`~faircompare.analysis.tidy.tradeoff` computes, and the figure the report draws of it.
# Each figure kind (:mod:`faircompare.analysis.kinds`) has a data step, ``frames``, which
# selects from the store's frames, and a drawing step, ``draw``, at a layout.
from faircompare.analysis import kinds
from faircompare.analysis.canvas import Layout
from faircompare.analysis.selection import Selection, StudyFrames

frame = tidy.tradeoff(german, audits)
print(frame[["algorithm", "split_id", "accuracy", "gap", "significant", "pareto"]].head().round(3))
study = StudyFrames(measures, validation, audits)
shown = kinds.tradeoff.frames(study, Selection(datasets=["german"], variants=["numerical+binary"]))
figure = kinds.tradeoff.draw(shown, Layout(width=7, legend="right"))

# %%
# Is one intervention better than another?
# ----------------------------------------
# The splits share most of their training rows, so a plain paired t-test over them rejects far
# too often; :func:`~faircompare.analysis.compare.pairwise` uses Nadeau and Bengio's corrected
# resampled t-test and Corani and Benavoli's correlated Bayesian t-test, with Holm-adjusted
# p-values. Two splits are the least it needs, and say little: a study for a paper runs ten.
from faircompare.analysis import compare

pairs = compare.pairwise(chosen, "accuracy", rope=0.01)
print(pairs.round(3).head(8).to_string())
