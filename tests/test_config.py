import re

import pytest

from faircompare.config import PROFILES, BenchmarkConfig, ConfigError, load_config
from faircompare.exceptions import ChoiceError


def test_default_profile_without_a_file():
    assert load_config() == PROFILES["default"]


def test_file_overrides_its_profile_and_resolves_paths(tmp_path):
    path = tmp_path / "bench.toml"
    path.write_text(
        'profile = "quick"\nsplits = 3\ndataset_specs = ["loans.toml"]\nplugins = "mine"\n'
    )
    config = load_config(path)
    assert config.splits == 3 and config.datasets == ()  # the specs alone, as --spec runs them
    assert config.dataset_specs == (str(tmp_path / "loans.toml"),)
    assert config.plugins == str(tmp_path / "mine")
    assert load_config(path, profile="paper").grid is True  # the argument wins over the file


def test_a_file_sets_how_the_study_runs_too_its_folders_relative_to_it(tmp_path, monkeypatch):
    # issue #68: the run's settings and the data locations are fields of the one settings object
    path = tmp_path / "bench.toml"
    path.write_text('jobs = 3\nbackend = "inline"\nmirror = "data"\ncache = "cache"\n')
    monkeypatch.chdir(tmp_path.parent)  # the working directory does not matter
    config = load_config(path)
    assert (config.jobs, config.backend) == (3, "inline")
    assert (config.mirror, config.cache) == (str(tmp_path / "data"), str(tmp_path / "cache"))
    assert config.workers(10) == 1  # inline: one run at a time
    made = BenchmarkConfig(mirror="data")  # from Python: absolute at once, as a worker reads it
    assert made.mirror == str(tmp_path.parent / "data")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("split = 3\n", "unknown configuration key in .*'split'.*did you mean 'splits'"),
        (
            'profile = "fast"\n',
            "unknown profile 'fast'.*valid choices: paper, extended, modern, default, tuned, quick",
        ),
        ('datasets = ["adlt"]\n', "unknown dataset 'adlt'"),
        ('variants = ["numeric"]\n', "unknown preprocessing variant 'numeric'"),
        (
            'sensitive_attributes = "some"\n',
            "sensitive_attributes must be 'all' or 'first' or a list of names, got the string "
            "'some'",
        ),
        (
            'splits = "ten"\n',
            "splits must be a whole number from 1 to 1,000 \\(a hundred times the paper's ten\\), got 'ten'",
        ),
        ("mirror = 3\n", "mirror must be a folder name .a string., got 3"),
        ('backend = "loky"\n', "unknown backend 'loky'"),
        ('scheduler = "tcp://h:8786"\n', "pass backend='dask' .--backend dask., not 'processes'"),
        # each read silently on the main of issue #14: "german" as the datasets g, e, r, m, a, n
        (
            'datasets = "german"\n',
            "datasets must be a list of names, got the string 'german': "
            "write datasets = \\['german'\\]",
        ),
        (
            "splits = true\n",
            "splits must be a whole number from 1 to 1,000 \\(a hundred times the paper's ten\\), got True",
        ),
        ("timeout = true\n", "timeout must be a number of seconds, .*, got True"),
        ('algorithms = ["svm", 3]\n', "algorithms must be a list of names, got \\['svm', 3\\]"),
        (
            "splits = 0\n",
            "splits must be a whole number from 1 to 1,000 \\(a hundred times the paper's ten\\), got 0",
        ),
        ("splits = [\n", "cannot read configuration"),
        # a traceback or a late failure on the main of issue #38
        (
            "timeout = nan\n",
            "timeout must be a number of seconds, more than 0 and at most 2,592,000",
        ),
        (
            "timeout = inf\n",
            "timeout must be a number of seconds, more than 0 and at most 2,592,000 \\(30 days\\), "
            "got inf",
        ),
        (
            "permutations = 1000000000\n",
            "permutations must be a whole number from 1 to 1,000,000 .*1,000,000,000",
        ),
        ("seed = 9223372036854775807\n", None),  # the largest seed the store holds is fine
        ("seed = -1\n", "seed must be a whole number from 0 to 9,223,372,036,854,775,807"),
        ("plugins = 5\n", "plugins must be a folder name \\(a string\\), got 5"),
        ("dataset_specs = [1, 2]\n", "dataset_specs must be a list of file names, got \\[1, 2\\]"),
    ],
)
def test_bad_configurations_name_the_problem(tmp_path, text, message):
    path = tmp_path / "bench.toml"
    path.write_text(text)
    if message is None:
        load_config(path)
        return
    with pytest.raises((ConfigError, ChoiceError), match=message) as raised:
        load_config(path)
    assert "\n" not in str(raised.value)


def test_no_dataset_is_an_error():
    with pytest.raises(ConfigError, match="names no dataset"):
        BenchmarkConfig(datasets=())


def test_a_name_given_twice_is_kept_once_in_its_first_place_with_a_warning():
    with pytest.warns(UserWarning, match="algorithms: 'svm' given more than once, planned once"):
        config = BenchmarkConfig(algorithms=("svm", "kamishima", "svm"))
    assert config.algorithms == ("svm", "kamishima")
    assert config.overridden(splits=2).algorithms == ("svm", "kamishima")  # said once


def test_splits_are_bounded_before_a_plan_is_built():
    with pytest.raises(ConfigError, match=r"splits must be a whole number from 1 to 1,000"):
        BenchmarkConfig(splits=10**12)


def test_specs_in_a_file_alone_run_only_the_users_datasets_as_spec_does(tmp_path):
    # on the main of issue #83 the file also ran the five paper datasets
    (tmp_path / "mine.toml").write_text("")
    (tmp_path / "bench.toml").write_text('dataset_specs = ["mine.toml"]\n')
    config = load_config(tmp_path / "bench.toml")
    assert config.datasets == () and config.dataset_specs == (str(tmp_path / "mine.toml"),)
    (tmp_path / "both.toml").write_text('dataset_specs = ["mine.toml"]\ndatasets = ["german"]\n')
    assert load_config(tmp_path / "both.toml").datasets == ("german",)


def test_a_file_starting_with_a_byte_order_mark_reads_as_without_it(tmp_path):
    # "Invalid statement (at line 1, column 1)" on the main of issue #83 (Notepad's UTF-8)
    path = tmp_path / "bench.toml"
    path.write_bytes(b"\xef\xbb\xbfsplits = 3\n")
    assert load_config(path).splits == 3


def test_each_field_carries_its_rule_and_the_command_line_is_made_from_the_fields():
    # issue #84: the rules were a table keyed by field-name strings and the options were named
    # by hand; both are now read from the fields, so a renamed field keeps its check and option
    from dataclasses import fields

    from faircompare.cli.running import run
    from faircompare.config.rules import option_of, rule_of
    from faircompare.config.settings import RULES

    declared = fields(BenchmarkConfig)
    assert list(RULES) == [f.name for f in declared]
    assert all(RULES[f.name] is rule_of(f) for f in declared)
    offered = {f.name for f in declared if option_of(f) is not None}
    parameters = {p.name for p in run.params} - {"former_mirror", "former_cache"}
    assert offered <= parameters  # every offered setting is an option, named as its field
    assert offered == {f.name for f in declared} - {"tune"}  # set by --grid, as its help says


@pytest.mark.parametrize(
    ("field", "flag", "too_far"),
    [("splits", "--splits", "1001"), ("seed", "--seed", "-1"), ("timeout", "--timeout", "0")],
)
def test_an_options_range_is_its_fields_rule(field, flag, too_far):
    from click.testing import CliRunner

    from faircompare.cli import cli
    from faircompare.config.settings import RULES

    rule = RULES[field]
    refused = CliRunner().invoke(cli, ["run", "--dry-run", flag, too_far])
    assert refused.exit_code == 2 and flag in refused.output
    with pytest.raises(ConfigError, match=re.escape(f"{field} must be {rule.phrase()}")):
        BenchmarkConfig(**{field: type(rule.low)(too_far)})


def test_a_keyword_given_alone_on_the_command_line_is_the_keyword():
    from faircompare.cli.options import given_settings

    given = given_settings({"sensitive_attributes": ("all",), "algorithms": ("svm",)})
    assert given == {"sensitive_attributes": "all", "algorithms": ("svm",)}
    assert PROFILES["default"].overridden(**given).sensitive_attributes == "all"


def test_overridden_sets_a_field_back_to_none_and_keeps_the_others_with_a_warning():
    config = BenchmarkConfig(jobs=2, splits=3)
    assert config.overridden(jobs=None).jobs is None  # every core again
    with pytest.warns(DeprecationWarning, match=r"overridden\(splits=None\) is deprecated"):
        assert config.overridden(splits=None).splits == 3  # 0.2's reading, until 0.4.0
