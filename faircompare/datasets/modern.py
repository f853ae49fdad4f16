"""Four datasets of today's fairness benchmarks, from the FairGround collection's cache.

FFB (Han et al. 2024), ABCFair (2025) and Aequitas Flow (2024) benchmark on folktables' ACS
tasks and on a few tabular sets the older studies did not use. The files are FairGround's
(``fairml-datasets``) redistributable datasets at their "loaded" stage, as Parquet, pinned to one
commit of its cache repository and verified by SHA-256 like the paper's five.

- ``acsincome``: folktables' ACSIncome task (Ding et al. 2021), FairGround's two-state sample
  (245,673 person records). Income above $50,000 is favourable. ``SEX`` and ``RAC1P``, whose
  nine codes (FairGround re-encodes folktables' 1..9 as 0..8, in order) are named here; the
  ``numerical+binary`` variant reads RAC1P as White alone against everyone else, ``numerical``
  keeps its nine groups, and ``SEX-RAC1P`` has eighteen. Occupation (529 codes) and place of
  birth (222) are categorical, so one-hot encoding gives about 780 columns.
- ``law-school``: the LSAC bar passage study (Wightman 1998) as Le Quy et al. (2022) prepared
  it: passing the bar is favourable; ``male`` and ``racetxt`` (White or not).
- ``bank``: UCI bank marketing (Moro et al. 2014): subscribing a term deposit is favourable;
  ``age`` (25 or older privileged, as the literature uses it) and ``marital``.
- ``credit-default``: UCI default of credit card clients (Yeh & Lien 2009): not defaulting is
  favourable; ``SEX``. ``ID`` is a row number and is dropped.
"""

from faircompare.bibliography import Reference
from faircompare.datasets.spec import DatasetSpec, Threshold

FAIRGROUND_URL = (
    "https://raw.githubusercontent.com/reliable-ai/fairground-dataset-cache/"
    "0cc2074d4caa5b98d7a24f6c8f2d880b9f49eb59/fairground_cache/{file}"
)

# folktables' RAC1P codes 1..9, re-encoded 0..8 by FairGround (ACS PUMS data dictionary)
RAC1P = {
    0: "White", 1: "Black", 2: "American Indian", 3: "Alaska Native",
    4: "AIAN tribes", 5: "Asian", 6: "Pacific Islander", 7: "Other", 8: "Two or more",
}  # fmt: skip

_CREDIT_FEATURES = (
    "LIMIT_BAL", "EDUCATION", "MARRIAGE", "AGE",
    *(f"PAY_{i}" for i in (0, 2, 3, 4, 5, 6)),
    *(f"BILL_AMT{i}" for i in range(1, 7)),
    *(f"PAY_AMT{i}" for i in range(1, 7)),
)  # fmt: skip


#: folktables' ACS tasks.
FOLKTABLES_2021 = Reference(
    key="ding2021retiring",
    authors=("Ding, Frances", "Hardt, Moritz", "Miller, John", "Schmidt, Ludwig"),
    title="Retiring Adult: New Datasets for Fair Machine Learning",
    year=2021,
    venue="Advances in Neural Information Processing Systems 34 (NeurIPS 2021)",
    url="https://arxiv.org/abs/2108.04884",
)

#: The survey whose preparation of the law school data FairGround serves.
LE_QUY_2022 = Reference(
    key="lequy2022survey",
    authors=(
        "Le Quy, Tai",
        "Roy, Arjun",
        "Iosifidis, Vasileios",
        "Zhang, Wenbin",
        "Ntoutsi, Eirini",
    ),
    title="A survey on datasets for fairness-aware machine learning",
    year=2022,
    venue="WIREs Data Mining and Knowledge Discovery",
    kind="article",
    volume="12(3)",
    pages="e1452",
    doi="10.1002/widm.1452",
)

#: The LSAC bar passage study, the law school data's source.
WIGHTMAN_1998 = Reference(
    key="wightman1998lsac",
    authors=("Wightman, Linda F.",),
    title="LSAC National Longitudinal Bar Passage Study",
    year=1998,
    venue="Law School Admission Council",
    kind="techreport",
    url="https://eric.ed.gov/?id=ED469370",
    note="LSAC Research Report Series",
)

#: The bank marketing data's source.
MORO_2014 = Reference(
    key="moro2014data",
    authors=("Moro, Sérgio", "Cortez, Paulo", "Rita, Paulo"),
    title="A data-driven approach to predict the success of bank telemarketing",
    year=2014,
    venue="Decision Support Systems",
    kind="article",
    volume="62",
    pages="22-31",
    doi="10.1016/j.dss.2014.03.001",
)

#: The credit card default data's source.
YEH_LIEN_2009 = Reference(
    key="yeh2009comparisons",
    authors=("Yeh, I-Cheng", "Lien, Che-hui"),
    title="The comparisons of data mining techniques for the predictive accuracy of probability "
    "of default of credit card clients",
    year=2009,
    venue="Expert Systems with Applications",
    kind="article",
    volume="36(2)",
    pages="2473-2480",
    doi="10.1016/j.eswa.2007.12.007",
)


def _fairground(file: str, sha256: str, **rules) -> DatasetSpec:
    return DatasetSpec(file=file, url=FAIRGROUND_URL.format(file=file), sha256=sha256, **rules)


MODERN: dict[str, DatasetSpec] = {
    spec.name: spec
    for spec in (
        _fairground(
            "folktables_acsincome_small.parquet",
            "dc68ed3a539ea63857edc4e3aed9f17c87205dba23a01808d0bdc9813d16b731",
            name="acsincome",
            label="PINCP",
            positive_label=1,
            recode={"SEX": {0: "male", 1: "female"}, "RAC1P": RAC1P},
            sensitive=("SEX", "RAC1P"),
            privileged={"SEX": "male", "RAC1P": "White"},
            categorical=("COW", "MAR", "OCCP", "POBP", "RELP"),
            description="folktables ACSIncome, two US states (FairGround's sample)",
            references=(FOLKTABLES_2021,),
        ),
        _fairground(
            "law_school_lequy.parquet",
            "e9b17525fc6f3536405050d698c7e14f792b56b87d4fdc59a6a60d49bca2343f",
            name="law-school",
            label="pass_bar",
            positive_label="1",
            recode={"male": {1.0: "male", 0.0: "female"}, "racetxt": {"1": "White", "0": "other"}},
            sensitive=("male", "racetxt"),
            privileged={"male": "male", "racetxt": "White"},
            categorical=("tier",),
            description="LSAC bar passage (Le Quy et al.'s preparation)",
            references=(WIGHTMAN_1998, LE_QUY_2022),
        ),
        _fairground(
            "bank_full.parquet",
            "52b51dbecc822aaac79befe24bb365e573d7d3b8ef9d7505e5f69c2d9e2203a2",
            name="bank",
            label="y",
            positive_label="yes",
            thresholds={"age": Threshold(at=25, below="young", above="adult")},
            sensitive=("age", "marital"),
            privileged={"age": "adult", "marital": "married"},
            categorical=(
                "job",
                "education",
                "default",
                "housing",
                "loan",
                "contact",
                "month",
                "poutcome",
            ),
            description="UCI bank marketing: term deposit subscriptions",
            references=(MORO_2014,),
        ),
        _fairground(
            "creditcard.parquet",
            "f8792a487afbe9606fa754cf22b09ad4dfa0eb767fa954958a956d3126c49e16",
            name="credit-default",
            rename={"default payment next month": "default"},
            label="default",
            positive_label=0,
            recode={"SEX": {1: "male", 2: "female"}},
            sensitive=("SEX",),
            privileged={"SEX": "male"},
            categorical=("EDUCATION", "MARRIAGE"),
            keep=_CREDIT_FEATURES,
            description="UCI default of credit card clients, Taiwan 2005",
            references=(YEH_LIEN_2009,),
        ),
    )
}
