"""What every column of the results store means: its tables, their columns, types and units.

The documentation's results schema page is written from :data:`COLUMNS` and the store's own
schema (:func:`schema`), and ``tests/results/test_columns.py`` checks that the two name the same
tables and columns, so that no column goes undescribed.
"""

from __future__ import annotations

import sqlite3

from faircompare.results.store import SCHEMA

__all__ = ["COLUMNS", "EXPORTS", "schema"]

_KEY = "The run's key: 20 hex digits of a SHA-256 of its dataset, attribute, variant, "
_KEY += "algorithm, parameters, split and base seed, and a tuned run's budget (`RunSpec.key`)."
_IDENTIFYING = {
    "dataset": "The dataset's name (`ricci`, `adult`, or a specification's `name`).",
    "sensitive_attribute": "The sensitive attribute's column (`race`, `sex`, `race-sex`, ...).",
    "variant": "The preprocessing variant: `original`, `numerical` or `numerical+binary`.",
    "algorithm": "The algorithm's registry name.",
    "params": "The run's parameters as a JSON object; `{}` for the algorithm's defaults.",
    "split_id": "The train/test split, from 0.",
    "base_seed": "The configuration's seed, from which the split's and the run's derive.",
}
_BUDGET = {
    "budget": "A tuned run's budget: the trials of the seeded search that chose its parameters "
    "(its `params` are then those it kept, a frontier's point, and the key includes the budget); "
    "NULL for a run at its parameters. Added in 0.4.0 to the schema 4 (a store written before "
    "gains the column when it is next written).",
}

#: Each table of the store (``RESULTS/results.sqlite``) and each of its columns.
COLUMNS: dict[str, dict[str, str]] = {
    "meta": {
        "name": "`schema_version`, `cleaning:DATASET` for a dataset's cleaning record, or "
        "`algorithm:NAME` for what an algorithm was when it last ran.",
        "value": "The schema's version; for a cleaning record, a JSON object of the rows each "
        "cleaning step removed; for an algorithm, a JSON object of its `family`, `library`, "
        "`version` and `description` (the report reads a plugin's family from it).",
    },
    "plan": {
        "key": _KEY,
        **_IDENTIFYING,
        **_BUDGET,
    },
    "runs": {
        "key": _KEY,
        **_IDENTIFYING,
        "seed": "The run's own seed (the algorithm's and the audits' randomness).",
        "status": "`done` or `failed`.",
        "error": "Why a failed run failed: the exception's type and message (at most 2,000 "
        "characters); NULL for a done run.",
        "traceback": "A failed run's traceback (its first and last 50,000 characters).",
        "fit_seconds": "Wall-clock seconds of the fit (0 for a run that reused a shared fit).",
        "predict_seconds": "Wall-clock seconds of the predictions on the test part.",
        "total_seconds": "Wall-clock seconds of the whole run: split, fit, predictions, "
        "measures and audits.",
        "started_at": "When the run started, in seconds since 1970-01-01 UTC (Unix time).",
        "finished_at": "When the run ended, in Unix time.",
        "n_train": "Rows of the training part.",
        "n_test": "Rows of the test part.",
        "versions": "A JSON object of the versions of faircompare and its libraries that ran it.",
        "warnings": "A JSON list of the distinct warnings the run raised.",
        "inputs": "A JSON object of what the run was computed from (data fingerprint, rules, "
        "algorithm version, audit versions and settings, faircompare's version): a stored run "
        "whose inputs differ from the planned run's is stale.",
        "audit_errors": "A JSON object of the audits that failed on a done run, by audit, with "
        "their errors; NULL when none failed.",
        **_BUDGET,
    },
    "measures": {
        "key": _KEY,
        "part": "`test`, or `validation` for the scores of a tuning fit on the validation part.",
        "measure": "The measure's name (the measures reference).",
        "group": "The group a per-group value belongs to, as text; the empty string `''` for "
        "the aggregate.",
        "value": "The measure's value; NULL where it is undefined (an empty group).",
    },
    "audits": {
        "key": _KEY,
        "audit": "`permutation`, `fliptest`, `individual`, or a plugin audit's name.",
        "metric": "What was tested or measured: a rate (`positive_rate`, `TPR`, ...), a flipset "
        "(`F+`, `F-`), `loss-ratio` or `error-ratio`.",
        "scope": "Whom it concerns: `rest` (against the privileged group), `unprivileged`, "
        "`all`, or one group.",
        "statistic": "The test statistic or measured value; NULL when the test could not run.",
        "pvalue": "The p-value; NULL for a measurement that is not a test.",
        "adjusted_pvalue": "The p-value adjusted for the run's family of tests (Holm's for the "
        "permutation tests, max-T's over a metric's groups); NULL where there is no family.",
        "details": "A JSON object of what is particular to the audit (its Monte Carlo interval, "
        "group sizes, flipset sizes, ...); `faircompare.results.audit_details` reads it back.",
    },
    "predictions": {
        "key": _KEY,
        "test_index": "A zlib-compressed int64 array: the test rows' positions in the dataset.",
        "y_true": "A zlib-compressed int8 array: each test row's label (1 positive).",
        "y_pred": "A zlib-compressed int8 array: each test row's prediction.",
        "scores": "A zlib-compressed float64 array of the positive outcome's scores; NULL for a "
        "model without scores.",
        "sensitive_features": "A zlib-compressed JSON list: each test row's group.",
        "privileged": "The privileged group, as JSON.",
    },
    "trials": {
        "key": "The tuned run whose search this trial is: every trial of its search up to its "
        "budget (a smaller budget's trials are the first of a larger one's, its search being "
        "the same).",
        "number": "The trial's place in the search, from 0.",
        "params": "The trial's setting as a JSON object (nested names for a pipeline's "
        "classifier: `estimator__C`).",
        "accuracy": "Its accuracy on the validation rows (carved from the training part; the "
        "test rows are never read); NULL where the trial failed.",
        "gap": "Its fairness measure's distance from parity on the validation rows "
        "(`Measure.gap`; the measure is the run's inputs' `tuning`); NULL where undefined or "
        "failed.",
        "error": "Why the trial's fit or predictions failed; NULL for a trial that ran.",
        "chosen": "`1` for the trial the objective chose, whose setting the run fitted on every "
        "training row and tested; `0` otherwise.",
    },
}

#: Each file ``faircompare export`` writes (``.csv`` or ``.parquet``), and what it holds. Each
#: has, after ``params``, the column ``setting``: ``defaults``, or the parameters as JSON.
EXPORTS: dict[str, str] = {
    "runs": "The `runs` table, every column.",
    "measures": "The test measures of done runs: `key`, the identifying columns (`dataset`, "
    "`sensitive_attribute`, `variant`, `algorithm`, `params`, `setting`, `split_id`), "
    "`measure`, `group`, `value`.",
    "measures_validation": "The same for the validation part of tuned runs.",
    "audits": "The audits of done runs: `key`, the identifying columns, `audit`, `metric`, "
    "`scope`, `statistic`, `pvalue`, `adjusted_pvalue`, `details` (JSON text in a CSV file).",
    "trials": "The trials of the tuned runs' searches: `key`, the identifying columns, "
    "`budget`, `number`, `params` (the trial's setting), `accuracy`, `gap`, `error`, `chosen`.",
}


def schema() -> dict[str, dict[str, str]]:
    """Return each table of the results store, in order, with its columns and their SQL types.

    Returns
    -------
    dict of str to dict of str to str
        Read from the store's own schema, created in memory, as SQLite reports it.
    """
    with sqlite3.connect(":memory:") as db:
        db.executescript(SCHEMA)
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            table: {row[1]: row[2] for row in db.execute(f"PRAGMA table_info({table})")}
            for table in tables
        }
