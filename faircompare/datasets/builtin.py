"""The built-in datasets: Friedler et al.'s five (2019, §4) and four of today's benchmarks.

The paper's five are cleaned as the paper's benchmark cleans them, from the raw files of the
fairness-comparison repository at a pinned commit; the modern four are in
:mod:`faircompare.datasets.modern`. Each raw file is verified by its SHA-256 before use.
"""

from faircompare.bibliography import Reference
from faircompare.datasets.modern import MODERN
from faircompare.datasets.spec import DatasetSpec, Threshold

RAW_URL = (
    "https://raw.githubusercontent.com/algofairness/fairness-comparison/"
    "80b34d25bb9b0387691c6cb8651f0e40edd262c8/fairness/data/raw/{file}"
)

_PROPUBLICA_FEATURES = (
    "sex", "age", "age_cat", "race", "juv_fel_count", "juv_misd_count", "juv_other_count",
    "priors_count", "c_charge_degree", "c_charge_desc",
)  # fmt: skip

# ProPublica's own screening of the COMPAS data ("Compas Analysis" notebook): charges within
# 30 days of the screening, known recidivism status, ordinary offences, a COMPAS score.
_PROPUBLICA_FILTERS = (
    "days_b_screening_arrest <= 30",
    "days_b_screening_arrest >= -30",
    "is_recid != -1",
    "c_charge_degree != 'O'",
    "score_text != 'N/A'",
)


#: The court case whose promotion exams the Ricci data are.
RICCI_2009 = Reference(
    key="ricci2009",
    authors=("Supreme Court of the United States",),
    title="Ricci v. DeStefano",
    year=2009,
    venue="United States Reports",
    kind="misc",
    url="https://supreme.justia.com/cases/federal/us/557/557/",
    note="557 U.S. 557",
)

#: The Adult census income data, in the UCI repository.
ADULT_1996 = Reference(
    key="becker1996adult",
    authors=("Becker, Barry", "Kohavi, Ronny"),
    title="Adult",
    year=1996,
    venue="UCI Machine Learning Repository",
    kind="misc",
    doi="10.24432/C5XW20",
)

#: The German credit data, in the UCI repository.
GERMAN_1994 = Reference(
    key="hofmann1994statlog",
    authors=("Hofmann, Hans",),
    title="Statlog (German Credit Data)",
    year=1994,
    venue="UCI Machine Learning Repository",
    kind="misc",
    doi="10.24432/C5NC77",
)

#: ProPublica's analysis of COMPAS, whose data both recidivism datasets are.
PROPUBLICA_2016 = Reference(
    key="angwin2016machine",
    authors=("Angwin, Julia", "Larson, Jeff", "Mattu, Surya", "Kirchner, Lauren"),
    title="Machine Bias",
    year=2016,
    venue="ProPublica",
    kind="misc",
    url="https://www.propublica.org/article/machine-bias-risk-assessments-in-criminal-sentencing",
)


def _propublica(name: str, sha256: str, description: str) -> DatasetSpec:
    return DatasetSpec(
        name=name,
        file=f"{name}.csv",
        url=RAW_URL.format(file=f"{name}.csv"),
        sha256=sha256,
        label="two_year_recid",
        positive_label=1,
        sensitive=("sex", "race"),
        privileged={"sex": "Male", "race": "Caucasian"},
        categorical=("age_cat", "c_charge_degree", "c_charge_desc"),
        keep=_PROPUBLICA_FEATURES,
        filters=_PROPUBLICA_FILTERS,
        description=description,
        references=(PROPUBLICA_2016,),
    )


PAPER: dict[str, DatasetSpec] = {
    spec.name: spec
    for spec in (
        DatasetSpec(
            name="ricci",
            file="ricci.csv",
            url=RAW_URL.format(file="ricci.csv"),
            sha256="f6f7eb66c88f5ec047c81cd0d1bf68536988c38b9212715c33109f1f08592b29",
            label="Class",
            positive_label=True,
            derive={"Class": "Combine >= 70"},
            sensitive=("Race",),
            privileged={"Race": "W"},
            categorical=("Position",),
            description="New Haven fire department promotion exams (Ricci v. DeStefano)",
            references=(RICCI_2009,),
        ),
        DatasetSpec(
            name="adult",
            file="adult.csv",
            url=RAW_URL.format(file="adult.csv"),
            sha256="c30ce1e55a965b04950321870db74c19f4aa437120a692f32e72f6a4fa31c418",
            label="income-per-year",
            positive_label=">50K",
            sensitive=("race", "sex"),
            privileged={"race": "White", "sex": "Male"},
            categorical=(
                "workclass",
                "education",
                "marital-status",
                "occupation",
                "relationship",
                "native-country",
            ),  # fmt: skip
            keep=(
                "age",
                "workclass",
                "education",
                "education-num",
                "marital-status",
                "occupation",
                "relationship",
                "capital-gain",
                "capital-loss",
                "hours-per-week",
                "native-country",
            ),  # fmt: skip
            missing=("?",),
            description="UCI Adult census income, 1994",
            references=(ADULT_1996,),
        ),
        DatasetSpec(
            name="german",
            file="german.csv",
            url=RAW_URL.format(file="german.csv"),
            sha256="532082711a8ec4df65cf60775eb7d59d3a5e3458c5a88695630beffd96dfff86",
            label="credit",
            positive_label=1,
            rename={"personal_status": "sex"},
            recode={
                "sex": {
                    "A91": "male",
                    "A93": "male",
                    "A94": "male",
                    "A92": "female",
                    "A95": "female",
                }  # fmt: skip
            },
            thresholds={"age": Threshold(at=25, below="youth", above="adult")},
            sensitive=("sex", "age"),
            privileged={"sex": "male", "age": "adult"},
            categorical=(
                "status",
                "credit_history",
                "purpose",
                "savings",
                "employment",
                "other_debtors",
                "property",
                "installment_plans",
                "housing",
                "skill_level",
                "telephone",
                "foreign_worker",
            ),  # fmt: skip
            description="UCI Statlog German credit",
            references=(GERMAN_1994,),
        ),
        _propublica(
            "propublica-recidivism",
            "c451db85908b2f7fef1d83203bedf6b71ecda0d5af468d82ae62178f91d0cc7d",
            "ProPublica COMPAS two-year recidivism, Broward County",
        ),
        _propublica(
            "propublica-violent-recidivism",
            "918e218ba181d4db8a7266977d23ca7a5ecf1bc7d5defd7b2f27bf3cbd9763e3",
            "ProPublica COMPAS two-year violent recidivism, Broward County",
        ),
    )
}

#: The paper's five datasets, by name: the default profile's.
PAPER_DATASETS = tuple(PAPER)
#: Every built-in dataset's specification by name: the paper's five, then the modern four.
BUILTIN: dict[str, DatasetSpec] = {**PAPER, **MODERN}
