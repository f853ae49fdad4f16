"""Trials of a seeded search at an equal budget: every method tuned with the same number of fits.

Whether one intervention beats another depends on how hard each was tuned: Aequitas Flow
(Jesus et al., JMLR 2024) gives every method the same number of trials of a seeded search and
chooses on validation data, and studies that tune each method (ManyFairHPO, AIES 2024; "Different
horses for different courses", 2024) report that the budget decides much of a published
ranking. :func:`search` draws ``budget`` settings of an algorithm's search space
(:func:`~faircompare.algorithms.search.space_of`) with Optuna's TPE sampler (Bergstra et al.
2011) or at random, each fitted on the training rows of a validation split and scored on its
validation rows (:func:`~faircompare.preprocessing.validation_split`: the test rows are never
read), and chooses one by the objective:

- ``accuracy``: the most accurate trial;
- ``constrained``: the most accurate trial whose fairness gap (the measure's
  :meth:`~faircompare.measures.Measure.gap`, DIbinary's 1 - min(r, 1/r) by default) is at most
  the bound; the sampler sees a trial beyond the bound score minus its gap, below every trial
  within it, so it looks for fair settings first; where no trial is within the bound, the
  fairest;
- ``pareto``: the two objectives searched together (multi-objective TPE); of the Pareto set of
  accuracy and gap, the trial with the largest accuracy minus gap, an equal weight on each.

A space of a few discrete values (or none: an algorithm with nothing to tune) smaller than the
budget is searched whole, each setting once, and the search says so (:attr:`Search.exhaustive`).
Trial ``n`` is drawn by a sampler seeded by the seed and ``n`` from the trials before it, so the
same seed draws the same trials, and a search interrupted after ``n`` trials resumes at its next
trial as if it had never stopped (``done``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from faircompare._validation import check_choice
from faircompare.algorithms.search import Choice, Dimension, Integer, Real
from faircompare.bibliography import Reference
from faircompare.choices import TUNING_MEASURES, TUNING_OBJECTIVES, TUNING_SAMPLERS
from faircompare.measures import MEASURES
from faircompare.records import Trial

__all__ = [
    "AKIBA_2019",
    "BERGSTRA_2011",
    "JESUS_2024",
    "REFERENCES",
    "Search",
    "Trial",
    "Tuning",
    "search",
]

#: Aequitas Flow: every method tuned with the same budget of a seeded search, chosen on
#: validation data.
JESUS_2024 = Reference(
    key="jesus2024aequitasflow",
    authors=("Jesus, Sérgio", "Saleiro, Pedro", "Oliveira e Silva, Inês", "Jorge, Beatriz M.",
             "Ribeiro, Rita P.", "Gama, João", "Bizarro, Pedro", "Ghani, Rayid"),
    title="Aequitas Flow: Streamlining Fair ML Experimentation",
    year=2024,
    venue="Journal of Machine Learning Research",
    kind="article",
    volume="25",
    url="https://arxiv.org/abs/2405.05809",
)  # fmt: skip
#: Optuna, the library that draws the trials.
AKIBA_2019 = Reference(
    key="akiba2019optuna",
    authors=("Akiba, Takuya", "Sano, Shotaro", "Yanase, Toshihiko", "Ohta, Takeru",
             "Koyama, Masanori"),
    title="Optuna: A Next-generation Hyperparameter Optimization Framework",
    year=2019,
    venue="Proceedings of the 25th ACM SIGKDD International Conference on Knowledge Discovery "
    "and Data Mining (KDD '19)",
    pages="2623-2631",
    doi="10.1145/3292500.3330701",
)  # fmt: skip
#: The tree-structured Parzen estimator, the ``tpe`` sampler.
BERGSTRA_2011 = Reference(
    key="bergstra2011algorithms",
    authors=("Bergstra, James", "Bardenet, Rémi", "Bengio, Yoshua", "Kégl, Balázs"),
    title="Algorithms for Hyper-Parameter Optimization",
    year=2011,
    venue="Advances in Neural Information Processing Systems 24 (NIPS 2011)",
    pages="2546-2554",
    url="https://papers.nips.cc/paper/4443-algorithms-for-hyper-parameter-optimization",
)
#: The works behind a tuned study, by what they describe (``faircompare cite`` names them for a
#: study with tuned runs).
REFERENCES: dict[str, tuple[Reference, ...]] = {
    "the same tuning budget for every method, searched with Optuna's TPE sampler": (
        JESUS_2024, AKIBA_2019, BERGSTRA_2011,
    ),
}  # fmt: skip


@dataclass(frozen=True)
class Tuning:
    """How every algorithm of a study is tuned: the budget, the sampler and the objective.

    Attributes
    ----------
    budget
        Trials per algorithm, configuration and split: the same for every method.
    sampler
        ``"tpe"`` (Optuna's seeded TPE; its first ten trials are random) or ``"random"``.
    objective
        ``"accuracy"``, ``"constrained"`` or ``"pareto"`` (the module says how each chooses).
    measure
        The fairness measure whose gap the ``constrained`` and ``pareto`` objectives read.
    bound
        The largest gap the ``constrained`` objective accepts.
    seed
        Seeds the sampler (with each trial's number).
    """

    budget: int
    sampler: str = TUNING_SAMPLERS[0]
    objective: str = TUNING_OBJECTIVES[0]
    measure: str = "DIbinary"
    bound: float = 0.1
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.budget, int) or isinstance(self.budget, bool) or self.budget < 1:
            raise ValueError(
                f"a tuning budget is a whole number of trials >= 1, got {self.budget!r}"
            )
        check_choice(self.sampler, TUNING_SAMPLERS, what="sampler")
        check_choice(self.objective, TUNING_OBJECTIVES, what="tuning objective")
        check_choice(self.measure, TUNING_MEASURES, what="fairness measure")
        if not 0 <= self.bound <= 1:
            raise ValueError(f"a gap's bound lies in [0, 1], got {self.bound!r}")


@dataclass(frozen=True)
class Search:
    """A finished search: every trial, and the one chosen.

    Attributes
    ----------
    trials
        Every trial, in the order drawn.
    chosen
        The trial the objective chose: the setting fitted on every training row and tested.
    tuning
        The search's budget, sampler and objective.
    exhaustive
        Whether the space was searched whole, in fewer trials than the budget (a few discrete
        values, or nothing to tune).
    """

    trials: tuple[Trial, ...]
    chosen: Trial
    tuning: Tuning
    exhaustive: bool = False


def search(
    space: dict[str, Dimension],
    tuning: Tuning,
    score: Callable[[dict[str, Any]], tuple[np.ndarray, np.ndarray, np.ndarray, Any]],
    *,
    done: Sequence[Trial] = (),
    after: Callable[[Trial], None] | None = None,
) -> Search:
    """Search an algorithm's space with the tuning's budget, sampler and objective.

    Parameters
    ----------
    space
        The algorithm's search space (:func:`~faircompare.algorithms.search.space_of`).
    tuning
        The budget, sampler, objective and seed.
    score
        Fits a setting on the training rows and predicts the validation rows: returns the
        validation labels, the predictions, the sensitive attribute and the privileged group.
        An exception is the trial's failure, recorded with its message.
    done
        The trials of an interrupted search, resumed from: they are not fitted again.
    after
        Called with each new trial as it ends (to store it).

    Returns
    -------
    Search
        Every trial and the one chosen.

    Raises
    ------
    ValueError
        Where every trial failed (nothing to choose), naming the first failure.
    """
    grid = _whole(space, tuning.budget)
    trials = list(done)
    for number in range(len(trials), len(grid) if grid is not None else tuning.budget):
        params = grid[number] if grid is not None else _drawn(space, tuning, trials, number)
        trial = _tried(number, params, tuning, score)
        trials.append(trial)
        if after is not None:
            after(trial)
    fitted = [t for t in trials if not t.failed]
    if not fitted:
        raise ValueError(f"every trial of the search failed; the first: {trials[0].error}")
    return Search(tuple(trials), _chosen(fitted, tuning), tuning, exhaustive=grid is not None)


def _whole(space: dict[str, Dimension], budget: int) -> list[dict[str, Any]] | None:
    """Return every setting of a discrete space no larger than the budget, else None."""
    values = []
    for dimension in space.values():
        if isinstance(dimension, Choice):
            values.append(list(dimension.values))
        elif isinstance(dimension, Integer) and dimension.high - dimension.low < budget:
            values.append(list(range(dimension.low, dimension.high + 1)))
        else:
            return None
    if math.prod(len(v) for v in values) > budget:
        return None
    return [dict(zip(space, setting, strict=True)) for setting in itertools.product(*values)]


def _tried(
    number: int,
    params: dict[str, Any],
    tuning: Tuning,
    score: Callable[[dict[str, Any]], tuple[np.ndarray, np.ndarray, np.ndarray, Any]],
) -> Trial:
    """Fit and score one setting; a failure is the trial's, with its message."""
    try:
        y_true, y_pred, sensitive, privileged = score(params)
    except Exception as error:  # a trial's fit may fail as a run's may: recorded, not raised
        return Trial(number, params, math.nan, math.nan, f"{type(error).__name__}: {error}")
    measure = MEASURES[tuning.measure]
    value = measure(y_true, y_pred, sensitive, privileged=privileged)
    accuracy = float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))
    return Trial(number, params, accuracy, float(measure.gap(value)))


def _chosen(trials: list[Trial], tuning: Tuning) -> Trial:
    """Return the trial the objective chooses (the first drawn among equals)."""
    if tuning.objective == "accuracy":
        return max(trials, key=lambda t: (t.accuracy, -t.number))
    if tuning.objective == "constrained":
        fair = [t for t in trials if t.gap <= tuning.bound]
        if fair:
            return max(fair, key=lambda t: (t.accuracy, -t.number))
        return min(trials, key=lambda t: (_gap(t), t.number))
    front = [t for t in trials if not any(_dominates(o, t) for o in trials)]
    return max(front, key=lambda t: (t.accuracy - _gap(t), -t.number))


def _gap(trial: Trial) -> float:
    """Return a trial's gap, an undefined one counted as the largest."""
    return trial.gap if math.isfinite(trial.gap) else 1.0


def _dominates(one: Trial, other: Trial) -> bool:
    """Whether ``one`` is at least as accurate and as fair as ``other``, and better in one."""
    at_least = one.accuracy >= other.accuracy and _gap(one) <= _gap(other)
    return at_least and (one.accuracy > other.accuracy or _gap(one) < _gap(other))


def _drawn(space: dict[str, Dimension], tuning: Tuning, trials: list[Trial], number: int) -> dict:
    """Draw trial ``number``'s setting from a sampler seeded by the seed and the number.

    The sampler is made anew and told the trials before this one, so that the draw depends on
    them and on the seed alone: a resumed search draws what the uninterrupted one drew.
    """
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    seed = int(np.random.SeedSequence([tuning.seed, number]).generate_state(1)[0])
    pareto = tuning.objective == "pareto"
    sampler = (
        optuna.samplers.TPESampler(seed=seed)
        if tuning.sampler == "tpe"
        else optuna.samplers.RandomSampler(seed=seed)
    )
    directions: list[Literal["maximize", "minimize"]] = ["maximize"]
    if pareto:
        directions.append("minimize")  # the gap
    study = optuna.create_study(directions=directions, sampler=sampler)
    distributions = {name: _distribution(d) for name, d in space.items()}
    for trial in trials:
        study.add_trial(_told(trial, distributions, tuning))
    return dict(study.ask(distributions).params)


def _told(trial: Trial, distributions: dict[str, Any], tuning: Tuning) -> Any:
    """Return a past trial as Optuna keeps it: its setting and its objective's values."""
    import optuna

    if trial.failed:
        state = optuna.trial.TrialState.FAIL
        return optuna.trial.create_trial(state=state, params=trial.params,
                                         distributions=distributions)  # fmt: skip
    if tuning.objective == "pareto":
        values = [trial.accuracy, _gap(trial)]
    elif tuning.objective == "constrained" and _gap(trial) > tuning.bound:
        values = [-_gap(trial)]  # below every trial within the bound
    else:
        values = [trial.accuracy]
    return optuna.trial.create_trial(values=values, params=trial.params,
                                     distributions=distributions)  # fmt: skip


def _distribution(dimension: Dimension) -> Any:
    """Return a dimension as Optuna's distribution."""
    from optuna.distributions import (
        CategoricalDistribution,
        FloatDistribution,
        IntDistribution,
    )

    if isinstance(dimension, Real):
        return FloatDistribution(dimension.low, dimension.high, log=dimension.log)
    if isinstance(dimension, Integer):
        return IntDistribution(dimension.low, dimension.high, log=dimension.log)
    return CategoricalDistribution(dimension.values)
