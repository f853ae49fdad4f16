"""Every deprecated name works at its former place until REMOVED_IN, with one message form.

The tables of :mod:`faircompare._deprecations` are checked entry by entry, and the changelog's
*Deprecated* section against them.
"""

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import numpy as np
import pytest

from faircompare import _deprecations
from faircompare._deprecations import (
    ARGUMENTS,
    ATTRIBUTES,
    ENVIRONMENT,
    FLAGS,
    FOLDED,
    MOVED,
    REMOVED_IN,
    SETTINGS_ARGUMENT,
    SUPERSEDED,
    message,
)
from faircompare.benchmark import RunSettings
from faircompare.config import BenchmarkConfig
from faircompare.exceptions import ChoiceError
from faircompare.stats import fliptest, transport

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"
MOVES = [(old, name, new) for old, names in MOVED.items() for name, new in names.items()]


def said(old: str, new: str) -> str:
    """The one message, as a pattern."""
    return re.escape(message(old, new))


def resolve(qualified: str):
    """The object a table names by module and qualified name (the longest importable module)."""
    parts = qualified.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = inspect.getattr_static(found, attribute)
        return found.__func__ if isinstance(found, classmethod) else found
    raise LookupError(qualified)


def layer(function, marker: str):
    """The innermost wrapper of a function that carries ``marker`` (``functools.wraps`` copies
    it to the wrappers around it), following ``__wrapped__``."""
    found = None
    while function is not None:
        found = function if marker in vars(function) else found
        function = getattr(function, "__wrapped__", None)
    return found


def test_the_message_names_the_old_name_the_release_and_the_new_name():
    assert message("--data-dir", "--mirror") == (
        f"--data-dir is deprecated and will be removed in faircompare {REMOVED_IN}; use --mirror"
    )


@pytest.mark.parametrize(("old", "name", "new"), MOVES)
def test_a_moved_name_is_the_same_object_at_its_former_place_with_a_warning(old, name, new):
    former = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match=said(f"{old}.{name}", f"{new}.{name}")):
        assert getattr(former, name) is getattr(importlib.import_module(new), name)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_name_that_never_was_is_an_attribute_error_naming_the_module(old):
    with pytest.raises(AttributeError, match=f"module '{old}' has no attribute 'no_such_name'"):
        importlib.import_module(old).no_such_name  # noqa: B018


def _flip_inputs():
    rng = np.random.default_rng(0)
    source, target = rng.normal(size=(6, 2)), rng.normal(1, 1, size=(6, 2))
    predictions = (source[:, 0] > 0).astype(int), (target[:, 0] > 1).astype(int)
    return source, target, *predictions, transport(source, target, rng=0)


@pytest.mark.parametrize(("where", "old", "new"), [
    (where, old, new) for where, names in ARGUMENTS.items() for old, new in names.items()
])  # fmt: skip
def test_a_renamed_keyword_is_passed_under_its_new_name_with_a_warning(
    where, old, new, monkeypatch
):
    function = resolve(where)
    wrapper = layer(function, "former")
    assert new in inspect.signature(inspect.unwrap(function)).parameters
    assert old not in inspect.signature(inspect.unwrap(function)).parameters
    calls = []
    monkeypatch.setattr(wrapper, "__wrapped__", lambda *args, **kwargs: calls.append(kwargs))
    name = where.rpartition(".")[2]
    with pytest.warns(DeprecationWarning, match=rf"{name}\({old}=\) is deprecated.*{new}="):
        wrapper(**{old: "given"})
    assert calls == [{new: "given"}]
    with pytest.raises(TypeError, match=f"both {old}= and {new}="):
        wrapper(**{old: 1, new: 2})


@pytest.mark.parametrize(("where", "old", "field"), [
    (where, old, field) for where, names in FOLDED.items() for old, field in names.items()
])  # fmt: skip
def test_a_folded_keyword_becomes_the_field_of_the_settings_with_a_warning(
    where, old, field, monkeypatch, tmp_path
):
    wrapper = layer(resolve(where), "former")
    into = wrapper.former.settings  # the argument that takes the settings
    assert into == SETTINGS_ARGUMENT[where]
    signature = inspect.signature(inspect.unwrap(wrapper))
    calls = []
    monkeypatch.setattr(
        wrapper,
        "__wrapped__",
        lambda *a, **k: calls.append(signature.bind_partial(*a, **k).arguments),
    )
    value = {"jobs": 3, "backend": "inline", "scheduler": None}.get(field, True)
    value = str(tmp_path) if field in ("mirror", "cache") else value
    base = BenchmarkConfig(jobs=2)  # the settings given: the former keyword changes its field
    with pytest.warns(
        DeprecationWarning, match=rf"\({old}=\) is deprecated.*BenchmarkConfig\({field}="
    ):
        wrapper(**{into: base, old: value})
    assert getattr(calls[0][into], field) == value
    assert calls[0][into].jobs == (value if field == "jobs" else 2)


def test_the_former_settings_objects_still_run_a_study_with_a_warning(tmp_path):
    # 0.3 folded RunSettings and Options into BenchmarkConfig: each former form runs until 0.4.0
    from faircompare.benchmark import Options, make_plan, run_benchmark, run_plan
    from faircompare.results import ResultStore

    config = BenchmarkConfig(datasets=("ricci",), algorithms=("gaussian-nb",), splits=1)
    with pytest.warns(DeprecationWarning, match=said("Options()", "BenchmarkConfig(")):
        options = Options(30.0, audits=False)  # positionally, in 0.2's order
    assert (options.timeout, options.audits) == (30.0, False)
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="at most 6 positional"):
        Options(30.0, None, None, None, True, 20, "extra")  # not silently dropped
    with pytest.warns(DeprecationWarning, match=said("Options.from_config()", "config.")):
        assert Options.from_config(config, cache=tmp_path).cache == str(tmp_path)
    seen = []
    with pytest.warns(DeprecationWarning, match=said("RunSettings()", "BenchmarkConfig(")):
        former = RunSettings(jobs=1, backend="inline", progress=lambda *_: seen.append(1))
    with ResultStore(tmp_path / "a") as store:
        summary = run_plan(make_plan(config).runs, store, options, former)
    assert summary.done == 1 and seen == [1]  # the former settings ran the plan, with progress
    with pytest.warns(DeprecationWarning, match=said("run_plan(runs, ..., costs=, cleaning=)",
                                                     "run_plan(study, ...)")):  # fmt: skip
        with ResultStore(tmp_path / "b") as store:
            run_plan(make_plan(config).runs, store, options, costs={}, cleaning={"ricci": {}})
    summary = run_benchmark(config, tmp_path / "c", settings=former, report=False)
    assert summary.done == 1 and seen == [1, 1]
    with pytest.warns(DeprecationWarning), pytest.raises(ChoiceError, match="'procesess'"):
        RunSettings(backend="procesess")  # checked as the settings are


def test_a_warning_names_the_users_line_through_the_decorators_of_former_forms(tmp_path):
    from faircompare.benchmark import make_plan, run_plan
    from faircompare.results import ResultStore

    config = BenchmarkConfig(datasets=("ricci",), algorithms=("gaussian-nb",), splits=1)
    with ResultStore(tmp_path) as store, pytest.warns(DeprecationWarning) as caught:
        run_plan(make_plan(config).runs, store, config, force=True, report=None)
    assert {Path(w.filename).name for w in caught} == {Path(__file__).name}
    assert len(caught) == 2  # force= folded, report= renamed: each by the one decorator


@pytest.mark.parametrize(("where", "new"), SUPERSEDED.items())
def test_a_superseded_callable_warns_at_each_call_naming_what_replaces_it(where, new):
    # #84: one decorator reads the tables; a whole callable's entry warns before it runs
    wrapper = layer(resolve(where), "former")
    assert wrapper.former.superseded == new
    calls = []
    wrapper.__wrapped__, kept = (lambda *a, **k: calls.append(a)), wrapper.__wrapped__
    try:
        with pytest.warns(DeprecationWarning, match=rf"is deprecated.*; use {re.escape(new)}$"):
            wrapper("given")
    finally:
        wrapper.__wrapped__ = kept
    assert calls == [("given",)]


def test_a_figure_function_names_the_kind_that_draws_it_now():
    import pandas as pd

    from faircompare.analysis import figures

    with pytest.warns(DeprecationWarning, match=said(
        "faircompare.analysis.figures.plot_sweep()",
        "faircompare.analysis.kinds.sweep.draw() (or faircompare figure sweep)",
    )):  # fmt: skip
        with pytest.raises(KeyError):  # it runs after the warning: an empty frame has no column
            figures.plot_sweep(pd.DataFrame(), "DIbinary", "accuracy", "x")


def test_a_callable_no_table_names_is_refused_by_the_decorator():
    def never_deprecated():
        return None

    with pytest.raises(KeyError, match="no former form in the deprecation tables"):
        _deprecations.former_forms(never_deprecated)


def test_a_studys_former_options_read_its_settings_with_a_warning():
    from faircompare.benchmark import Study

    study = Study((), {}, {}, BenchmarkConfig(audits=False))
    with pytest.warns(DeprecationWarning, match=said("Study.options", "Study.config")):
        assert study.options is study.config


@pytest.mark.parametrize(("where", "old", "new"), [
    (where, old, new) for where, names in ATTRIBUTES.items() for old, new in names.items()
])  # fmt: skip
def test_a_renamed_attribute_is_a_descriptor_reading_the_new_name(where, old, new):
    descriptor = vars(resolve(where))[old]
    assert isinstance(descriptor, _deprecations.RenamedAttribute)
    assert (descriptor.old, descriptor.new) == (old, new)


def test_the_former_attribute_names_read_the_new_ones_with_a_warning():
    result = fliptest(*_flip_inputs())
    with pytest.warns(DeprecationWarning, match=said("FlipTestResult.report", "FlipTestResult."
                                                     "transparency")):  # fmt: skip
        assert result.report is result.transparency


@pytest.mark.parametrize(("old", "new"), ENVIRONMENT.items())
def test_a_former_environment_variable_is_read_with_a_warning(old, new, tmp_path, monkeypatch):
    from faircompare.datasets.fetch import environment

    monkeypatch.delenv(new, raising=False)
    monkeypatch.setenv(old, str(tmp_path))
    with pytest.warns(DeprecationWarning, match=said(f"${old}", f"${new}")):
        assert environment(new) == str(tmp_path)


@pytest.mark.parametrize(("old", "new"), FLAGS.items())
def test_a_former_flag_works_with_a_warning_line(old, new, tmp_path):
    from click.testing import CliRunner

    from faircompare.cli import cli

    args = ["run", "--dry-run", "--profile", "quick", "--dataset", "ricci", old, str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert f"warning: {message(old, new)}" in result.stderr


def test_every_former_flag_variable_and_keyword_of_the_changelog_is_in_a_table():
    text = CHANGELOG.read_text()
    deprecated = "\n".join(re.findall(r"### Deprecated\n(.*?)\n### ", text, flags=re.S))
    keywords = {n for table in (*ARGUMENTS.values(), *FOLDED.values()) for n in table.items()}
    known = {
        "flag": {n for pair in FLAGS.items() for n in pair},
        "variable": {n for pair in ENVIRONMENT.items() for n in pair},
        "keyword": {n for pair in keywords for n in pair},
    }
    found = {
        "flag": set(re.findall(r"`(--[a-z-]+)`", deprecated)),
        "variable": set(re.findall(r"`\$([A-Z_]+)`", deprecated)),
        "keyword": set(re.findall(r"`([a-z_]+)=`", deprecated)),
    }
    assert all(found.values())  # the patterns read the section
    for kind in known:
        assert found[kind] <= known[kind], kind
    every_old = {*FLAGS, *ENVIRONMENT}
    every_old |= {old for table in (*ARGUMENTS.values(), *FOLDED.values()) for old in table}
    every_old |= {old for table in ATTRIBUTES.values() for old in table}
    missing = {old for old in every_old if old not in deprecated}
    assert missing == set()  # and every table's former name is in the changelog


REMOVED = [  # the names 0.2 deprecated, one of each kind, and the changelog's words for them
    ("module", "faircompare.audits.suite", "faircompare.audits.suite`"),
    ("module", "faircompare.rows", "faircompare.rows`"),
    ("name", "faircompare.audits.permutation_test", "permutation_test`"),
    ("name", "faircompare.benchmark.execute.run_plan", "faircompare.benchmark.execute`"),
    ("attribute", "faircompare.preprocessing.splits.Split.s_train", "Split.s_train`"),
]


@pytest.mark.parametrize(("kind", "name", "said_as"), REMOVED, ids=[r[1] for r in REMOVED])
def test_a_name_deprecated_in_0_2_is_gone_and_the_changelog_says_what_replaces_it(
    kind, name, said_as
):
    release = CHANGELOG.read_text().split("\n## [0.3.0]")[1]  # the release that removed them
    removed = re.search(r"### Removed\n(.*?)\n### ", release, flags=re.S)[1]
    assert f"`{said_as}" in removed
    if kind == "module":
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(name)
        return
    module, _, attribute = name.rpartition(".")
    if kind == "attribute":
        module, cls = module.rpartition(".")[0], module.rpartition(".")[2]
        owner = getattr(importlib.import_module(module), cls)
    else:
        owner = importlib.import_module(module)
    assert not hasattr(owner, attribute)


def test_the_keywords_and_values_deprecated_in_0_2_are_refused_as_unknown(tmp_path):
    from faircompare.config import load_config
    from faircompare.stats import permutation_test

    with pytest.raises(TypeError, match="groups"):
        permutation_test([0, 1], [0, 1], groups=["a", "b"], group_a="a")
    with pytest.raises(ChoiceError, match="'loky'"):
        BenchmarkConfig(backend="loky")
    path = tmp_path / "bench.toml"
    path.write_text('sensitive = "all"\n')
    with pytest.raises(ChoiceError, match="'sensitive' \\(did you mean 'sensitive_attributes'"):
        load_config(path)
