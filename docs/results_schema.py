"""Write the results schema page (``results.md``) from the store's schema and its descriptions.

The tables and columns come from the store's own schema (SQLite's account of it), their meaning
from :data:`faircompare.results.columns.COLUMNS`: a column without a description stops the build.
"""

from __future__ import annotations

_HEAD = """# Results schema

A results folder holds one SQLite database, `results.sqlite`, written by one run at a time
(a lock file, `.faircompare.lock`, says which process holds it), and, once written, the report
(`report/`) and the exports (`export/`). Every table below is keyed by the run's `key`; a run is
stored whole or not at all, in one transaction, as it finishes. This page is written from the
store's own schema and `faircompare.results.columns`, so it cannot lag behind them.
"""

_RECIPES = """
## Recipes

**Read a store with pandas.** `ResultStore` gives each table as a frame with the runs'
identifying columns (and `setting`: `defaults`, or the parameters as JSON):

```python
from faircompare.results import ResultStore

with ResultStore("results", readonly=True) as store:
    runs = store.runs()                   # one row per run
    measures = store.measures()           # test measures, long form
    audits = store.audits()               # details read back as dicts
```

Without faircompare, `sqlite3.connect("results/results.sqlite")` and
`pandas.read_sql("SELECT * FROM measures", connection)` read the same tables.

**Join measures and audits.** Both are keyed by the run: a run's accuracy beside the p-value of
its permutation test of the positive rate against the privileged group:

```python
accuracy = measures.query("measure == 'accuracy' and group == ''")
tested = audits.query("audit == 'permutation' and metric == 'positive_rate' and scope == 'rest'")
joined = accuracy.merge(tested[["key", "statistic", "pvalue"]], on="key")
```

**Where the group is.** A per-group value has its group in the `group` column of `measures`
(as text; the aggregate has the empty group `''`), and an audit row names whom it concerns in
`scope`.

**Each algorithm's mean, as the report shows it.** A store holds every setting of every
algorithm: each grid value, and the post-processed frontiers' thirteen points per split
(`unprocessed-*`). The report shows one setting per algorithm
(`faircompare.analysis.tidy.representative`: its defaults, else its grid tuned for accuracy on
validation data, else its grid pooled, named in `setting`), and reads a ratio such as `DIbinary`
on its bounded gap, 1 - min(r, 1/r), whose mean one run near a zero rate cannot wreck (a mean
of raw ratios can be in the hundreds):

```python
from faircompare.analysis import tidy
from faircompare.measures import MEASURES

with ResultStore("results", readonly=True) as store:
    shown = tidy.representative(store.measures(), store.measures("validation"))
aggregate = shown[shown["group"] == ""]
by = ["dataset", "sensitive_attribute", "variant", "algorithm", "setting"]
accuracy = aggregate[aggregate["measure"] == "accuracy"].groupby(by)["value"].mean()
di = aggregate[aggregate["measure"] == "DIbinary"]
di_gap = di.assign(gap=MEASURES["DIbinary"].gap(di["value"])).groupby(by)["gap"].mean()
```

**In SQL.** `group` is an SQL keyword: quote it (`"group"`). This mean is over every stored
run of an algorithm, whatever its setting (the recipe above chooses them as the report does):

```sql
SELECT runs.dataset, runs.algorithm, avg(measures.value) AS accuracy, count(*) AS runs
FROM measures JOIN runs USING (key)
WHERE measures.measure = 'accuracy' AND measures."group" = '' AND measures.part = 'test'
GROUP BY runs.dataset, runs.algorithm
```

**Merge two stores made on different machines.** Not supported: a store records the inputs of
its own runs and checks them against its plan, and two stores may hold the same run computed
from other inputs. Analyse each store's frames and concatenate them (the `key` tells the same
run apart), or run the whole study into one results folder: on a cluster, every worker reports
to the one coordinator that writes it ({doc}`guide/cluster`).
"""


def schema_page() -> str:
    """Return the page: each table's columns with type and meaning, the exports, the recipes.

    Raises
    ------
    ValueError
        For a table or column of the store that has no description.
    """
    from faircompare.results.columns import COLUMNS, EXPORTS, schema

    types = schema()
    page = [_HEAD]
    for table, columns in types.items():
        described = COLUMNS.get(table, {})
        page += [f"\n## `{table}`\n", "| column | type | meaning |", "|---|---|---|"]
        for column, kind in columns.items():
            if column not in described:
                raise ValueError(f"column {table}.{column} of the store has no description")
            page.append(f"| `{column}` | {kind or 'any'} | {described[column]} |")
    page += [
        "\n## Exports\n",
        "`faircompare export` writes these files (CSV, or Parquet with pyarrow):\n",
        "| file | holds |",
        "|---|---|",
        *(f"| `{name}` | {text} |" for name, text in EXPORTS.items()),
        _RECIPES,
    ]
    return "\n".join(page)
