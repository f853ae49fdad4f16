"""
A study from Python, and its report
===================================

:func:`~faircompare.benchmark.run_benchmark` runs the study ``faircompare run`` runs: it plans
the runs, fetches and verifies the data, runs each algorithm on each split in watched worker
processes, stores every result as it finishes, and writes the report. Here, the ``quick``
profile: Ricci and German, seven algorithms of every kind with their grids, two splits, every
model audited.
"""

# %%
# Run the study
# -------------
# The results folder is where the store lives; a second call with the same folder runs nothing
# that is already stored (the last example of this gallery relies on it).
from pathlib import Path

from faircompare.benchmark import run_benchmark
from faircompare.config import PROFILES

results = Path("quick-study")
summary = run_benchmark(PROFILES["quick"].overridden(jobs=2), results)
print(f"{summary.done} runs done, {len(summary.failures)} failed; report: {summary.report}")

# %%
# The report
# ----------
# ``report/report.html`` is one self-contained page; its figures are also written as PNG, PDF
# and SVG under ``report/figures``, named ``<kind>-<dataset>-<attribute>-<variant>``. Three of
# them: the stability of accuracy and fairness over the splits (the paper's Fig. 7), the
# fairness-accuracy tradeoff of every run with its Pareto front (Fig. 6), and the share of
# splits in which each audit rejects.
import matplotlib.image as mpimg
import matplotlib.pyplot as plt

figures = summary.report.parent / "figures"
print(len(list(figures.glob("*.png"))), "figures, for example:")
for kind in ("stability", "tradeoff", "audits"):
    image = mpimg.imread(figures / f"{kind}-german-sex-numerical-binary.png")
    figure, ax = plt.subplots(figsize=(image.shape[1] / 100, image.shape[0] / 100), dpi=100)
    ax.imshow(image)
    ax.set_axis_off()
    figure.subplots_adjust(0, 0, 1, 1)
plt.show()

# %%
# The guide's :doc:`report page <../guide/report>` goes through every figure of this report.
