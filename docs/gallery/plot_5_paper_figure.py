"""
A figure for a two-column paper
===============================

The report draws every figure of a study at a screen's size. A paper needs one of them at the
width of its column (3.5 inches), over the methods it discusses, under the names it gives them,
and the table beside it. :func:`faircompare.analysis.paper.draw` and
:func:`faircompare.analysis.paper_tables.table` make them from the results folder, without
rewriting the report; ``faircompare figure`` and ``faircompare table`` do the same from the
command line.
"""

# %%
# A plugin's runs beside the study's
# ----------------------------------
# The first example stored the ``quick`` study in ``quick-study`` (run again, it runs nothing).
# The repository's example plugin, ``group-quantile-threshold`` (a threshold per group on a
# logistic regression's scores), joins it on German credit: its runs go to the same store.
from dataclasses import replace
from pathlib import Path

from faircompare.benchmark import run_benchmark
from faircompare.config import PROFILES

results = Path("quick-study")
run_benchmark(PROFILES["quick"].overridden(jobs=2), results, report=False)
plugin = replace(
    PROFILES["quick"],
    datasets=("german",),
    algorithms=("group-quantile-threshold",),
    plugins="../../examples/plugins",
)
summary = run_benchmark(plugin.overridden(jobs=2), results, report=False)
print(f"{summary.done} runs of the plugin stored")

# %%
# The tradeoff, 3.5 inches wide
# -----------------------------
# The selection names the methods in the legend's order; ``labels`` gives the paper's names,
# for measures too. The figure's height follows from its panel and its legend; it is saved as
# the paper needs it (PDF, text kept as text). From the command line::
#
#     faircompare figure tradeoff --results quick-study --dataset german \
#         --algorithm group-quantile-threshold --algorithm logistic-regression \
#         --label group-quantile-threshold=Ours --width 3.5 --out tradeoff.pdf
from faircompare.analysis import paper

methods = ["group-quantile-threshold", "logistic-regression", "reductions-gs-dp", "zafar-fairness"]
names = {
    "group-quantile-threshold": "Ours",
    "logistic-regression": "Logistic regression",
    "reductions-gs-dp": "Reductions (DP)",
    "zafar-fairness": "Zafar et al.",
    "DIbinary": "DI",
}
tradeoff = paper.draw(
    "tradeoff", results, datasets=["german"], algorithms=methods, labels=names, width=3.5
)
tradeoff.savefig(results / "tradeoff.pdf")
print(f"tradeoff.pdf: {tradeoff.get_size_inches().round(2)} inches")

# %%
# At equal fairness
# -----------------
# Each method against the post-processed logistic regression at its own violation of each
# constraint (Cruz & Hardt 2024): a point above the black line beats that frontier.
equal = paper.draw(
    "equal-fairness", results, datasets=["german"], algorithms=methods, labels=names, width=3.5
)

# %%
# The table beside them
# ---------------------
# Means over splits with their corrected 95% intervals, the best of each column in bold:
# ``\usepackage{booktabs}`` is all it needs. ``faircompare table intervals ... --out t.tex``
# writes the same file.
from faircompare.analysis.paper_tables import table

intervals = table(
    "intervals",
    results,
    datasets=["german"],
    algorithms=methods,
    labels=names,
    measures=["accuracy", "DIbinary"],
)
print(intervals.latex())

# %%
# Every other kind, at a column's width
# -------------------------------------
# ``faircompare figure --list`` names them. The intervals of one measure:
accuracy = paper.draw(
    "intervals", results, datasets=["german"], algorithms=methods, labels=names, width=3.5
)

# %%
# Each method's mean and spread over splits, on Friedler et al.'s Fig. 7 axes (CV and
# accuracy), a panel per dataset, each with its own range:
stability = paper.draw(
    "stability",
    results,
    datasets=["german", "ricci"],
    algorithms=methods,
    labels={**names, "german": "German credit", "ricci": "Ricci"},
    width=7,
)

# %%
# Demšar's critical-difference diagram: average ranks over the datasets (Ricci and German
# here; a paper ranks over more), a bar joining the methods the Nemenyi test cannot tell apart.
ranks = paper.draw(
    "critical-difference",
    results,
    algorithms=["logistic-regression", "reductions-gs-dp", "zafar-fairness", "calders"],
    labels=names,
    width=3.5,
)

# %%
# How the measures move together across every run of German credit:
correlations = paper.draw("correlations", results, datasets=["german"], labels=names, width=3.5)

# %%
# A figure of your own
# --------------------
# A one-panel kind draws into your axes (its legend inside them):
import matplotlib.pyplot as plt

figure, (left, right) = plt.subplots(1, 2, figsize=(7, 2.6), layout="constrained")
paper.draw("tradeoff", results, datasets=["german"], algorithms=methods, labels=names, ax=left)
paper.draw("intervals", results, datasets=["german"], algorithms=methods, labels=names, ax=right)
plt.show()
