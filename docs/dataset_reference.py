"""Write the datasets reference (``datasets.md``) from the built-in specifications and a note each.

The source, label, attributes and cleaning rules come from each dataset's specification
(:data:`faircompare.datasets.BUILTIN`), so they cannot disagree with what runs; what the
specification cannot hold (what is known to be wrong with the data, and where it was shown) from
:data:`CAVEATS`. A built-in dataset without a caveat entry stops the build
(``tests/test_reference_pages.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

_COMPAS = (
    "The label is a new *arrest* within two years, not a new offence: arrests measure policing "
    "as much as crime, and differently by race (the measurement problem Bao et al. 2021, \"It's "
    "COMPASlicated\", NeurIPS Datasets and Benchmarks, set out, with the data's errors and the "
    "two-year window). The rows are those ProPublica kept (Angwin et al. 2016; the filters "
    "above), one county's 2013-2014 pretrial defendants; the COMPAS score itself is among the "
    "columns of the original file but not a feature here. Results on COMPAS speak of this "
    "dataset, not of risk assessment in general."
)

#: What is known to be wrong with each built-in dataset, and where it was shown.
CAVEATS: dict[str, str] = {
    "ricci": (
        "118 candidates of one promotion exam (Ricci v. DeStefano, 557 U.S. 557, 2009). The "
        "label is `Combine` >= 70, and `Combine` (with the oral and written marks it combines) "
        "is a feature: a model can recover the label exactly, so accuracy says little; and the "
        "groups are small (27 Black and 23 Hispanic candidates against 68 White), so every "
        "measure and test on it is noisy."
    ),
    "adult": (
        "A 1994 extract of the US Current Population Survey (Kohavi 1996). The $50,000 "
        "threshold is in 1994 dollars and the population is dated; Ding et al. (NeurIPS 2021, "
        '"Retiring Adult") show that conclusions drawn on it change with the threshold and do '
        "not carry to today's census data (their ACS tasks: `acsincome` below). Several race "
        "groups are small (the `Other` group has few positive rows in a split), which makes "
        "per-group rates and thresholds unstable."
    ),
    "german": (
        "1,000 loans (Hofmann 1994). The attribute `sex` is derived from `personal_status`, "
        'which codes sex and marital status together; Grömping (2019, "South German Credit '
        'Data") shows that the UCI code table of this and other columns is wrong, so the sex '
        "attribute is at best approximate. The `age` threshold at 25 follows Kamiran and "
        "Calders. With 1,000 rows, a test part holds about 300."
    ),
    "propublica-recidivism": _COMPAS,
    "propublica-violent-recidivism": _COMPAS
    + (
        " The violent label has few positive rows (about one in six), so TPR-based measures of "
        "small groups are noisy."
    ),
    "acsincome": (
        "folktables' ACSIncome task (Ding et al., NeurIPS 2021) on the 2018 American Community "
        "Survey, in FairGround's sample of two states: conclusions may not carry to other "
        "states, which differ markedly (Ding et al. §4). The label is income above $50,000; "
        "`RAC1P` has nine groups, several of them small (Alaska Native men: four rows)."
    ),
    "law-school": (
        "The LSAC National Longitudinal Bar Passage Study (Wightman 1998), as Le Quy et al. "
        "(2022) prepare it: students who entered law school in 1991. Most pass the bar (about "
        "nine in ten), so accuracy is high for any model; law school grades (`zfygpa`, `zgpa`, "
        "`decile1b`, `decile3`) are features, observed after admission, which suits predicting "
        "bar passage but not an admission decision. `racetxt` keeps White against the others."
    ),
    "bank": (
        "A Portuguese bank's telemarketing calls, 2008-2010 (Moro et al. 2014). The call's "
        "`duration` is kept, as in FairGround's file, although the dataset's documentation "
        "warns that it is known only after the call and makes the prediction unrealistic: read "
        "bank's accuracy with that in mind. The sensitive attributes (age, marital status) are "
        "choices of the fairness benchmarks (Le Quy et al. 2022), not of the original task."
    ),
    "credit-default": (
        "Credit card clients of a Taiwanese bank in 2005 (Yeh and Lien 2009). The favourable "
        "outcome is *no* default (label 0 of the file, positive here); the payment history "
        "columns (`PAY_*`) carry most of the signal. One sensitive attribute, `SEX`; `EDUCATION` "
        "and `MARRIAGE` hold codes the dataset's documentation does not define (0, 5 and 6; 0)."
    ),
}

_HEAD = """# Datasets reference

Every built-in dataset: its source (a file pinned by its address and SHA-256), its label, its
sensitive attributes and privileged groups, the rules that clean it, and what is known to be
wrong with it. The first four are read from the dataset's specification, so they are what runs;
{doc}`guide/datasets` has the row counts and how to add a dataset of one's own (a TOML
specification beside a CSV file). A dataset with two sensitive attributes also gets their
combination (`race-sex`).
"""


def _rules(spec: Mapping[str, Any]) -> list[str]:
    """Return the cleaning rules of a specification, one line each."""
    rules = [f"rename `{old}` to `{new}`" for old, new in spec["rename"].items()]
    rules += [
        f"recode `{column}`: " + ", ".join(f"`{old}` to `{new}`" for old, new in codes.items())
        for column, codes in spec["recode"].items()
    ]
    rules += [
        f"`{column}` becomes `{cut['below']}` below {cut['at']}, `{cut['above']}` from it"
        for column, cut in spec["thresholds"].items()
    ]
    rules += [f"`{column}` = `{expression}`" for column, expression in spec["derive"].items()]
    rules += [f"keep the rows where `{rule}`" for rule in spec["filters"]]
    if spec["missing"]:
        rules.append("drop the rows holding " + ", ".join(f"`{m}`" for m in spec["missing"]))
    if spec["keep"] is not None:
        rules.append(f"keep {len(spec['keep'])} feature columns: " + ", ".join(spec["keep"]))
    return rules or ["none: every row and column of the file"]


def reference(specs: Mapping[str, Any]) -> str:
    """Return the page for the built-in specifications.

    Raises
    ------
    ValueError
        For a dataset without an entry in :data:`CAVEATS`.
    """
    page = [_HEAD]
    for name, spec in specs.items():
        if name not in CAVEATS:
            raise ValueError(
                f"dataset {name!r} has no entry in the datasets reference "
                "(docs/dataset_reference.py, CAVEATS)"
            )
        fields = asdict(spec)
        attributes = ", ".join(
            f"`{attribute}` (privileged: `{fields['privileged'][attribute]}`)"
            for attribute in fields["sensitive"]
        )
        page += [
            f"\n## `{name}`\n",
            f"{fields['description']}.\n",
            f"- **Source**: <{fields['url']}> (SHA-256 `{fields['sha256']}`)",
            f"- **Label**: `{fields['label']}`, positive `{fields['positive_label']!r}`",
            f"- **Sensitive attributes**: {attributes}",
            f"- **Cleaning**: {'; '.join(_rules(fields))}\n",
            f"**Known problems.** {CAVEATS[name]}",
        ]
    return "\n".join(page) + "\n"


def page() -> str:
    """Return the reference of the built-in datasets (``datasets.md``)."""
    from faircompare.datasets import BUILTIN

    return reference(BUILTIN)
