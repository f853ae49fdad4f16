"""The references kept beside the code: their BibTeX and text, one key per work, and the works a
registry entry, a dataset spec and an audit name."""

from dataclasses import replace

import pandas as pd
import pytest

from faircompare.algorithms.calders import CALDERS_VERWER_2010
from faircompare.algorithms.feldman import FELDMAN_2015
from faircompare.algorithms.libraries import SCIKIT_LEARN
from faircompare.bibliography import FAIRCOMPARE, Reference, as_record, bibtex, reference_from
from faircompare.citing import every_reference, study_citation
from faircompare.datasets import get_spec
from faircompare.datasets.loading import fingerprint
from faircompare.datasets.spec import read_spec
from faircompare.exceptions import FaircompareError, SpecError
from faircompare.registry import get_algorithm


def test_an_article_s_bibtex_as_written_by_hand():
    # Calders & Verwer, DMKD 21(2), 277-292: the entry a reader would type from the journal page
    assert CALDERS_VERWER_2010.bibtex() == (
        "@article{calders2010three,\n"
        "  author = {Calders, Toon and Verwer, Sicco},\n"
        "  title = {{Three naive Bayes approaches for discrimination-free classification}},\n"
        "  journal = {Data Mining and Knowledge Discovery},\n"
        "  year = {2010},\n"
        "  volume = {21},\n"
        "  number = {2},\n"
        "  pages = {277--292},\n"
        "  doi = {10.1007/s10618-010-0190-x},\n"
        "  url = {https://doi.org/10.1007/s10618-010-0190-x}\n"
        "}"
    )


def test_the_short_and_full_forms_name_the_authors_year_venue_and_link():
    assert CALDERS_VERWER_2010.short == "Calders & Verwer (2010)"
    assert FELDMAN_2015.short == "Feldman et al. (2015)"
    assert FAIRCOMPARE.short.startswith("The faircompare developers (")
    assert CALDERS_VERWER_2010.text() == (
        "Calders, T. & Verwer, S. (2010). Three naive Bayes approaches for discrimination-free "
        "classification. *Data Mining and Knowledge Discovery*, 21(2), 277-292. "
        "<https://doi.org/10.1007/s10618-010-0190-x>"
    )
    # an organisation is braced so that BibTeX does not read it as a family and given name
    assert "author = {{The faircompare developers}}" in FAIRCOMPARE.bibtex()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"key": "Feldman 2015"}, "must be lower case"),
        ({"kind": "book"}, "is not one of"),
        ({"doi": "", "url": ""}, "needs a DOI or a URL"),
        ({"authors": ()}, "names no author"),
    ],
)
def test_a_reference_that_cannot_be_cited_is_refused(change, message):
    with pytest.raises(ValueError, match=message):
        Reference(**(as_record(FELDMAN_2015) | change))


def test_a_key_names_one_work_and_a_repeated_work_is_listed_once():
    text = bibtex([FELDMAN_2015, SCIKIT_LEARN, FELDMAN_2015])
    assert text.count("@inproceedings{feldman2015certifying,") == 1 and text.count("@") == 2
    impostor = Reference(**(as_record(FELDMAN_2015) | {"year": 2016}))
    with pytest.raises(ValueError, match="feldman2015certifying"):
        bibtex([FELDMAN_2015, impostor])


def test_a_stored_record_reads_back_as_the_same_reference():
    assert reference_from(as_record(FELDMAN_2015)) == FELDMAN_2015


def test_every_built_in_work_has_one_key_and_every_paper_method_its_paper():
    works = every_reference()
    listed = [r for part in works.values() for refs in part.values() for r in refs]
    bibtex(listed)  # raises on two works of one key
    methods = works["algorithms"]
    for name, paper in [
        ("feldman-svm", "feldman2015certifying"),
        ("kamishima", "kamishima2012fairness"),
        ("calders", "calders2010three"),
        ("zafar-fairness", "zafar2017fairness"),
        ("reductions-eg-dp", "agarwal2018reductions"),
    ]:
        assert paper in [r.key for r in methods[name]]
    assert all(works["datasets"].values()) and all(works["audits"].values())


def test_a_pipeline_cites_its_method_and_the_model_it_trains():
    described = get_algorithm("feldman-svm").describe()
    assert [r["key"] for r in described["references"]] == [
        "feldman2015certifying",
        "pedregosa2011scikit",
    ]


def test_a_dataset_spec_names_its_source_in_toml_and_a_bad_one_is_refused(tmp_path):
    assert [r.key for r in get_spec("german").references] == ["hofmann1994statlog"]
    spec = tmp_path / "toy.toml"
    head = (
        'name = "toy"\nfile = "toy.csv"\nlabel = "y"\npositive_label = 1\nsensitive = ["s"]\n'
        "[privileged]\ns = 1\n"
    )
    spec.write_text(
        head + '[[references]]\nkey = "doe2020toy"\nauthors = ["Doe, Jane"]\ntitle = "Toy"\n'
        'year = 2020\nvenue = "Nowhere"\nkind = "misc"\nurl = "https://example.org/toy"\n'
    )
    (reference,) = read_spec(spec).references
    assert reference.bibtex().startswith("@misc{doe2020toy,")
    spec.write_text(head + '[[references]]\nkey = "doe2020toy"\ntitle = "Toy"\n')
    with pytest.raises(SpecError, match="'references'"):
        read_spec(spec)


def test_a_dataset_s_references_leave_its_fingerprint_and_so_its_stored_runs_alone():
    # the fingerprint decides whether stored runs are reused: a new citation must not make a
    # study's every run stale (it did, before "references" was left out of the rules)
    german = get_spec("german")
    uncited = replace(german, references=())
    assert fingerprint(uncited) == fingerprint(german)
    assert fingerprint(replace(german, missing=("?",))) != fingerprint(german)


class _Store:
    """The three frames study_citation reads, as a store written by hand would hold them."""

    def runs(self):
        return pd.DataFrame({
            "status": ["done", "done", "failed"],
            "algorithm": ["svm", "my_lab_method", "kamishima"],
            "dataset": ["german", "my-data", "german"],
            "sensitive_attribute": "sex",
            "variant": "numerical+binary",
            "split_id": [0, 1, 0],
            "versions": ['{"faircompare": "0.1.0"}'] * 3,
        })  # fmt: skip

    def algorithms(self):
        return {"my_lab_method": {"family": "in-processing", "references": []}}

    def audits(self):
        return pd.DataFrame({"audit": pd.Series([], dtype=str)})


class _OneSplit(_Store):
    """A study of one split: the report compares nothing."""

    def runs(self):
        return super().runs().assign(split_id=0)


def test_a_study_cites_what_its_done_runs_used_and_names_what_declares_nothing():
    cited = study_citation(_Store())
    assert cited.software.note == "Version 0.1.0"  # the release that ran it, not this one
    assert list(cited.algorithms) == ["my_lab_method", "svm"]  # the failed run's is not cited
    assert cited.uncited == ["algorithm my_lab_method", "dataset my-data"]
    sentence = cited.sentence()
    assert r"\texttt{my\_lab\_method} (no reference)" in sentence and "2 random" in sentence
    # the report's first measures, each with the works that define it (DI: Feldman et al.'s)
    assert r"\texttt{DIbinary}~\citep{feldman2015certifying, friedler2019comparative}" in sentence
    # no frontier ran: the comparison at equal fairness is not among the statistics; nor are
    # the ranks across datasets, which need three algorithms on two (#81: cite named them)
    assert "cruz2024unprocessing" not in sentence and "nadeau2003inference" in sentence
    assert "demsar2006statistical" not in sentence
    text = cited.text()
    assert "% No reference is declared for: algorithm my_lab_method, dataset my-data." in text
    # one split: no comparison ran, and the paragraph names none
    assert "compared" not in study_citation(_OneSplit()).sentence()
    assert text.count("@") == len(cited.references)


def test_an_article_s_biblatex_as_the_biblatex_manual_types_it():
    # biblatex's data model (its manual, section 2.2): journaltitle, and the year as a date
    assert CALDERS_VERWER_2010.biblatex() == (
        "@article{calders2010three,\n"
        "  author = {Calders, Toon and Verwer, Sicco},\n"
        "  title = {{Three naive Bayes approaches for discrimination-free classification}},\n"
        "  journaltitle = {Data Mining and Knowledge Discovery},\n"
        "  date = {2010},\n"
        "  volume = {21},\n"
        "  number = {2},\n"
        "  pages = {277--292},\n"
        "  doi = {10.1007/s10618-010-0190-x},\n"
        "  url = {https://doi.org/10.1007/s10618-010-0190-x}\n"
        "}"
    )
    report = Reference(**(as_record(CALDERS_VERWER_2010) | {"kind": "techreport"}))
    assert report.biblatex().startswith("@report{calders2010three,")
    assert "  institution = {Data Mining" in report.biblatex() and "type = {techreport}" in (
        report.biblatex()
    )


def test_a_study_s_paragraph_cites_with_the_commands_of_its_style_and_names_their_package():
    cited = study_citation(_Store())
    natbib, biblatex = cited.text("bibtex"), cited.text("biblatex")
    assert natbib.startswith(r"% For the methods section (its commands need \usepackage{natbib}")
    assert r"\citep{faircompare}" in natbib and r"\parencite" not in natbib
    assert biblatex.startswith(r"% For the methods section (its commands need \usepackage[style")
    assert r"\parencite{faircompare}" in biblatex and r"\textcite{friedler2019" in biblatex
    assert r"\citep" not in biblatex and "journaltitle" not in biblatex.split("\n\n", 1)[0]
    # the same works, each once, in both
    assert natbib.count("\n@") == biblatex.count("\n@") == len(cited.references)
    with pytest.raises(FaircompareError, match="unknown citation style 'ris'; choose one of"):
        cited.text("ris")


def test_a_study_s_citation_file_cites_the_release_that_ran_it_and_the_works_it_used():
    yaml = pytest.importorskip("yaml")
    cited = study_citation(_Store())
    cff = yaml.safe_load(cited.text("cff"))
    assert cff["cff-version"] == "1.2.0" and cff["version"] == "0.1.0"  # not the installed one
    assert cff["preferred-citation"]["authors"] == [{"name": "The faircompare developers"}]
    titles = [r.title for r in cited.references if r.key != "faircompare"]
    assert [r["title"] for r in cff["references"]] == titles
    assert "No reference is declared for: algorithm my_lab_method" in cff["message"]
