"""What a figure or a table shows: the study's frames, the runs selected and their names.

A figure kind (:mod:`faircompare.analysis.kinds`) or a table for a paper
(:mod:`faircompare.analysis.paper_tables`) reads a :class:`StudyFrames`, the frames of a results
store, through a :class:`Selection`: the datasets, attributes, variants, algorithms and splits
it shows, and the labels it gives them. The report reads the same frames, one dataset,
attribute and variant at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import pandas as pd

from faircompare import registry
from faircompare._validation import closest, quoted
from faircompare.analysis import flags, tidy
from faircompare.analysis.equal_fairness import without_frontiers
from faircompare.analysis.style import Style, study_styles
from faircompare.analysis.tidy import algorithm_of
from faircompare.exceptions import ChoiceError
from faircompare.results import ResultStore

__all__ = ["Selection", "StudyFrames", "algorithm_of", "configurations", "recorded_families"]

_PLURALS = {"dataset": "datasets", "sensitive_attribute": "attributes", "variant": "variants"}


@dataclass(frozen=True, eq=False)
class StudyFrames:
    """The frames of a study that figures read: its test and validation measures, its audits.

    Attributes
    ----------
    measures
        The test measures (long form: :meth:`~faircompare.results.ResultStore.measures`).
    validation
        The validation measures, by which an algorithm run over a grid is tuned.
    audits
        The audit rows (:meth:`~faircompare.results.ResultStore.audits`).
    algorithms
        Every algorithm of the study, whose styles stay the same whatever a figure selects;
        by default those of ``measures``.
    chosen
        The runs shown of each algorithm, where already chosen (:meth:`shown`).
    families
        Each algorithm's family (:func:`families`): with them, a configuration of more than
        eight algorithms is drawn a panel per family; none, one panel.
    store
        The open store the frames were read from, where a kind reads more of a run than its
        measures and audits: its predictions (the threshold figure) or its test size and
        flags (the flipset figure); None where the frames were made otherwise.
    """

    measures: pd.DataFrame
    validation: pd.DataFrame
    audits: pd.DataFrame
    algorithms: tuple[str, ...] = ()
    chosen: pd.DataFrame | None = None
    families: Mapping[str, str] = field(default_factory=dict)
    store: ResultStore | None = None

    @classmethod
    def read(cls, store: ResultStore) -> StudyFrames:
        """Read a study's frames from its store.

        Parameters
        ----------
        store
            The results store, kept open for the kinds that read more of a run.

        Returns
        -------
        StudyFrames
            Its frames.
        """
        measures = store.measures()
        names = measures["algorithm"].unique()
        return cls(measures, store.measures("validation"), store.audits(),
                   families=recorded_families(store, names), store=store)  # fmt: skip

    @cached_property
    def styles(self) -> dict[str, Style]:
        """Each name of each algorithm's colour and marker, the same in every figure."""
        algorithms = self.algorithms or self.measures["algorithm"].unique()
        return study_styles(algorithms, tidy.budgets_run(self.measures))

    def shown(self, measures: pd.DataFrame) -> pd.DataFrame:
        """Return the runs the report shows of each algorithm in ``measures``.

        :func:`~faircompare.analysis.tidy.representative` with the study's validation
        measures: an algorithm run over its grid only is shown tuned for accuracy where its
        runs were tuned, as in the report's tables and figures.

        Parameters
        ----------
        measures
            Selected test measures (:meth:`Selection.measures`).

        Returns
        -------
        pandas.DataFrame
            The chosen runs' measures, a ``setting`` column saying how each was chosen.
        """
        if self.chosen is not None:
            return self.chosen[self.chosen["key"].isin(measures["key"].unique())]
        return tidy.representative(measures, self.validation)

    def comparable(self, chosen: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
        """Return ``chosen`` without its flagged cells of ``names``, as the report compares.

        A cell flagged in the measures table (:mod:`~faircompare.analysis.flags`: one class
        predicted, a rate from few events) is no result: no interval, mark or rank. Read from
        the store's predictions; frames without a store are taken as chosen (the report's
        leave the flagged cells out before a figure reads them).

        Parameters
        ----------
        chosen
            Runs shown (:meth:`shown`).
        names
            The measures compared.

        Returns
        -------
        pandas.DataFrame
            Its rows but those of flagged cells.
        """
        if self.store is None or chosen.empty:
            return chosen
        cells = flags.stored_cell_flags(self.store, chosen, names)
        return chosen[~flags.flagged_rows(chosen, cells)]

    def flagged_runs(self, measures: pd.DataFrame, names: Sequence[str]) -> set[str]:
        """Return the keys of the runs in ``measures`` flagged on any of ``names``.

        A run that predicts one class, or whose measure rests on few events
        (:func:`~faircompare.analysis.flags.run_flags`), is drawn but is no result: a
        Pareto front passes it by, as the report's does. Read from the store's predictions;
        none without a store.

        Parameters
        ----------
        measures
            Selected test measures (:meth:`Selection.measures`).
        names
            The measures judged.

        Returns
        -------
        set of str
            The flagged runs' keys.
        """
        if self.store is None:
            return set()
        return set(flags.run_flags(self.store, measures["key"].unique(), names)["key"])


def _unknown_label(
    name: str, named: set[str], held: dict[str, list[str]], settings: dict[str, str]
) -> str:
    """Say that a label names nothing, and what the results hold, kind by kind."""
    said = {kind: ", ".join(names) for kind, names in held.items()}
    shown = next((n for n in sorted(settings) if settings[n] != n), None)  # calders (grid)
    if shown is not None:
        said["algorithms"] += f" (each also in a setting, as a figure names it: {shown!r}, say)"
    choices = "; ".join(f"{kind} {names}" for kind, names in said.items())
    return f"unknown name to label {quoted(name)}{closest(name, named)}; valid choices: {choices}"


@dataclass(frozen=True)
class Selection:
    """Which runs a figure shows, and the names it gives them.

    Each field left None keeps every value the results hold.

    Attributes
    ----------
    datasets, attributes, variants
        The datasets, sensitive attributes and variants shown.
    algorithms
        The algorithms shown (registry names), in this order: the legend's, and the rows' of
        an intervals panel.
    splits
        The splits shown.
    labels
        Display names: ``{"massaging-lr": "Ours"}`` for algorithms, ``{"DIbinary": "DI"}`` for
        measures. Names without a label keep their own.
    """

    datasets: Sequence[str] | None = None
    attributes: Sequence[str] | None = None
    variants: Sequence[str] | None = None
    algorithms: Sequence[str] | None = None
    splits: Sequence[int] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)

    def measures(self, measures: pd.DataFrame, *, by_algorithm: bool = True) -> pd.DataFrame:
        """Return the measures of the selected runs.

        Parameters
        ----------
        measures
            The store's long measures frame.
        by_algorithm
            Whether to keep the selected algorithms only (False: every algorithm, for a kind
            that compares them with another, such as the equal-fairness frontier).

        Returns
        -------
        pandas.DataFrame
            The selected rows.

        Raises
        ------
        ValueError
            Naming a selected value the results do not hold, and the values they do; or a
            label naming nothing they hold, and the closest name.
        """
        self._check_labels(measures)
        columns = {
            "dataset": self.datasets,
            "sensitive_attribute": self.attributes,
            "variant": self.variants,
            "algorithm": self.algorithms if by_algorithm else None,
            "split_id": self.splits,
        }
        for column, wanted in columns.items():
            if wanted is None:
                continue
            held = sorted(measures[column].unique().tolist())
            missing = [w for w in wanted if w not in held]
            if missing:
                what = {"sensitive_attribute": "attribute", "split_id": "split"}.get(column, column)
                raise ValueError(
                    f"no runs of {what} {', '.join(map(repr, missing))} in these results; "
                    f"they hold: {', '.join(map(str, held))}"
                )
            measures = measures[measures[column].isin(wanted)]
        return measures

    def compared(self, measures: pd.DataFrame) -> pd.DataFrame:
        """Return the measures of the selected methods a figure or a table compares.

        The frontiers (``unprocessed-*``, each a baseline post-processed to its tolerances)
        are the yardstick of the comparison at equal fairness, no method: they are left out
        unless the selection names its algorithms, as the report leaves them out of its
        intervals and rankings.

        Parameters
        ----------
        measures
            The store's long measures frame.

        Returns
        -------
        pandas.DataFrame
            The selected rows (:meth:`measures`), the frontiers' left out where no algorithm
            is named.
        """
        selected = self.measures(measures)
        if self.algorithms is not None:
            return selected
        return without_frontiers(selected)

    def _check_labels(self, measures: pd.DataFrame) -> None:
        """Refuse a label that names nothing the results hold (a mistyped name, say).

        A label may name what this selection leaves out: one mapping of a paper's names
        serves all its figures.
        """
        if not self.labels:
            return
        algorithms = sorted(measures["algorithm"].unique())
        settings = algorithm_of(algorithms, tidy.budgets_run(measures))
        held = {  # the measures last: a long message is cut at its end
            **{_PLURALS[c]: sorted(map(str, measures[c].unique())) for c in tidy.WHERE},
            "algorithms": algorithms,
            "measures": sorted(measures["measure"].unique()),
        }
        named = {*settings, *(name for names in held.values() for name in names)}
        for name in self.labels:
            if name not in named:
                raise ChoiceError(_unknown_label(name, named, held, settings))

    def configuration(self, measures: pd.DataFrame, what: str) -> tuple[str, str, str]:
        """Return the one dataset, attribute and variant of the selected measures.

        Parameters
        ----------
        measures
            The selected measures (:meth:`measures`).
        what
            The figure or table that needs one (``"intervals figure"``), for the message.

        Returns
        -------
        tuple of str
            The dataset, the sensitive attribute and the variant.

        Raises
        ------
        ValueError
            Naming the configurations the selection holds, where it holds other than one.
        """
        found = configurations(measures, self)
        if len(found) != 1:
            listed = "; ".join(", ".join(c) for c in found) or "none"
            raise ValueError(
                f"the {what} shows one dataset, attribute and variant; the selection holds "
                f"{len(found)} ({listed}): choose one with datasets=, attributes= and "
                "variants= (on the command line --dataset, --attribute and --variant)"
            )
        return found[0]

    def arranged(self, found: Iterable[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        """Return configurations in the selection's order: its datasets', then attributes'.

        Parameters
        ----------
        found
            Configurations (dataset, sensitive attribute, variant).

        Returns
        -------
        list of tuple
            Each once, ``--dataset german --dataset adult`` putting German first; sorted where
            the selection names none.
        """
        chosen = (self.datasets, self.attributes, self.variants)

        def place(configuration: tuple[str, str, str]) -> tuple[int, ...]:
            return tuple(
                list(wanted).index(value) if wanted and value in wanted else 0
                for value, wanted in zip(configuration, chosen, strict=True)
            )

        return sorted(sorted(set(found)), key=place)

    def order(self, names: Sequence[str]) -> list[str]:
        """Return algorithms in the selection's order (sorted where it names none).

        Parameters
        ----------
        names
            The algorithms a figure or table holds.

        Returns
        -------
        list of str
            Those the selection names, in its order; all of them sorted when it names none.
        """
        if self.algorithms is None:
            return sorted(set(names))
        return [a for a in self.algorithms if a in set(names)]

    def ranked(self, labels: Sequence[str], algorithm_of: Mapping[str, str]) -> list[str]:
        """Return settings' labels in the selection's order of their algorithms.

        Parameters
        ----------
        labels
            Settings' labels (``zafar-accuracy``), in their own order (best first, say).
        algorithm_of
            Each label's algorithm (:func:`algorithm_of`).

        Returns
        -------
        list of str
            ``labels`` as given where the selection names no algorithms, else in its order.
        """
        if self.algorithms is None:
            return list(labels)
        rank = {a: i for i, a in enumerate(self.algorithms)}
        return sorted(labels, key=lambda label: rank[algorithm_of[label]])

    def label(self, name: str, setting: str | None = None) -> str:
        """Return the display name of a measure, or of an algorithm in a setting.

        Parameters
        ----------
        name
            A measure or an algorithm.
        setting
            The algorithm's setting: without a label, the name the report gives it
            (:func:`~faircompare.analysis.tidy.label`).

        Returns
        -------
        str
            The label given, or the name.
        """
        if name in self.labels or setting is None:
            return self.labels.get(name, name)
        return tidy.label(name, setting)


def recorded_families(store: ResultStore, names: Iterable[str]) -> dict[str, str]:
    """Return each algorithm's family as the store recorded it, else as the registry knows it.

    The store keeps what each algorithm was when it ran (:meth:`~faircompare.results.
    ResultStore.algorithms`), so that a plugin's family is known without the plugin; a store
    written before 0.3.0 holds none, and the registry answers (``unspecified`` where it does
    not know the name).

    Parameters
    ----------
    store
        The study's results.
    names
        The algorithms.

    Returns
    -------
    dict
        ``{algorithm: family}``.
    """
    recorded = store.algorithms()
    names = list(names)
    missing = [n for n in names if n not in recorded]
    known = registry.families(missing) if missing else {}  # loading every algorithm costs seconds
    return {n: recorded[n]["family"] if n in recorded else known[n] for n in names}


def configurations(
    measures: pd.DataFrame, selection: Selection | None = None
) -> list[tuple[str, str, str]]:
    """Return the datasets, attributes and variants of ``measures``, in order.

    Parameters
    ----------
    measures
        Long measures.
    selection
        Whose order to follow (:meth:`Selection.arranged`); sorted without one.

    Returns
    -------
    list of tuple
        Each configuration once: (dataset, sensitive attribute, variant).
    """
    found = [(str(d), str(a), str(v)) for d, a, v in measures[tidy.WHERE].to_numpy()]
    return (selection or Selection()).arranged(found)
