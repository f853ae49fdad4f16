"""The estimator contract every algorithm follows, and the input checks they share.

Algorithms are scikit-learn classifiers (``__init__`` stores its arguments, fitted state ends in
``_``, ``clone`` round-trips) with the sensitive attribute passed separately and by keyword:
``fit(X, y, *, sensitive_features)`` and ``predict(X, *, sensitive_features=None)``.

Inputs are validated as scikit-learn validates them (:func:`sklearn.utils.validation.
validate_data`), so wrong feature counts, NaN, sparse or empty input and non-binary targets get
scikit-learn's errors; any two label values are accepted, the larger one (``classes_[1]``) being
the positive class, and predictions come back in those values.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import accuracy_score
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from faircompare._deprecations import moved_names
from faircompare.algorithms.search import Dimension
from faircompare.bibliography import Reference
from faircompare.exceptions import FaircompareError
from faircompare.preprocessing import check_dense_size, is_sparse_frame, sparse_matrix
from faircompare.stats.rates import binary_labels as checked_labels

__getattr__ = moved_names(__name__)  # FAMILIES moved to faircompare.choices


class AlgorithmInputError(FaircompareError, ValueError):
    """Data an algorithm cannot use (wrong variant, non-binary sensitive attribute, ...)."""


class FairEstimator(ClassifierMixin, BaseEstimator):
    """Base class of faircompare's algorithms.

    A subclass sets these class attributes to describe itself.

    Attributes
    ----------
    supports
        Preprocessing variants the algorithm accepts.
    param_grid
        Parameter values swept for tradeoff curves; each value is its own run.
    search_space
        Where a tuner may draw each parameter from, beside the grid: a
        :class:`~faircompare.algorithms.search.Real`,
        :class:`~faircompare.algorithms.search.Integer` or
        :class:`~faircompare.algorithms.search.Choice` per parameter, on a log scale where its
        values span orders of magnitude; a pipeline's classifier adds its own
        (:func:`~faircompare.algorithms.search.space_of`). Empty: nothing to tune.
    uses_sensitive_at_predict
        Whether ``predict`` needs ``sensitive_features`` (for example, one model per group).
    uses_sensitive_at_fit
        Whether ``fit`` reads ``sensitive_features``; False for a baseline, whose fitted model
        is then the same for every sensitive attribute and for ``numerical`` and
        ``numerical+binary`` (the same features), so the benchmark fits it once per split.
    version
        The algorithm's version: change it when a change to the code changes its results, so
        that runs stored by the earlier version are recomputed rather than reused.
    family
        Where the intervention acts: ``baseline`` (none), ``pre-processing`` (the training
        data), ``in-processing`` (the learning) or ``post-processing`` (the predictions); one of
        :data:`~faircompare.choices.FAMILIES`, ``unspecified`` for a plugin that does not say.
    library
        The library whose implementation runs (``faircompare``, ``aif360``, ``fairlearn``, ...).
    references : tuple of Reference
        The works to cite for the method (its paper, and the library whose code runs), as
        :class:`~faircompare.bibliography.Reference` objects: ``faircompare cite`` lists them
        for every study that ran it.
    in_default_profile
        Whether the ``default`` profile, a first look at every dataset, runs it; False for an
        algorithm too costly for that (it still runs in the ``extended`` profile and when named).
    sparse_input
        Whether the model fits and predicts from a sparse matrix: a frame of pandas sparse
        columns (a wide one-hot encoding) then reaches it as a SciPy CSR matrix, while other
        algorithms receive it densified (:func:`dense_features`).
    always_planned
        Parameter settings the benchmark plans beside the defaults (or the grid), whether or
        not it sweeps grids: the points of one result that mean little alone, such as the
        tolerances of a frontier.
    refit_params
        Parameters that only the last step of ``fit`` reads (the frontier's thresholds;
        Feldman's classifier, fitted on the data repaired at a level): runs that differ only in
        them share one fit of the rest, each taking its own settings through :meth:`refitted`.
    groups_by_order
        Whether ``fit`` and ``predict`` read ``sensitive_features`` only through the order of
        the groups' sorted values, never their names (or not at all): ``numerical`` and
        ``numerical+binary`` then give the same model where they code the groups alike
        (:func:`~faircompare.preprocessing.variants_agree`), and the benchmark computes their
        two runs once (:attr:`faircompare.records.RunSpec.repeats`). False unless declared.
    """

    supports: ClassVar[frozenset[str]] = frozenset({"numerical", "numerical+binary"})
    param_grid: ClassVar[dict[str, list]] = {}
    search_space: ClassVar[dict[str, Dimension]] = {}
    uses_sensitive_at_predict: ClassVar[bool] = False
    uses_sensitive_at_fit: ClassVar[bool] = True
    version: ClassVar[str] = "1"
    family: ClassVar[str] = "unspecified"
    library: ClassVar[str] = "faircompare"
    references: ClassVar[tuple[Reference, ...]] = ()
    in_default_profile: ClassVar[bool] = True
    sparse_input: ClassVar[bool] = False
    always_planned: ClassVar[tuple[dict[str, Any], ...]] = ()
    refit_params: ClassVar[frozenset[str]] = frozenset()
    groups_by_order: ClassVar[bool] = False

    # scikit-learn's metadata routing: with ``sklearn.set_config(enable_metadata_routing=True)``
    # the sensitive attribute given to ``cross_validate(..., params={"sensitive_features": s})``
    # or a grid search reaches fit, predict and score, split with the rows.
    __metadata_request__fit: ClassVar[dict] = {"sensitive_features": True}
    __metadata_request__predict: ClassVar[dict] = {"sensitive_features": True}
    __metadata_request__score: ClassVar[dict] = {"sensitive_features": True}

    def training_row_limit(self) -> int | None:
        """Return the most training rows this model fits in reasonable time; None for no limit.

        The benchmark plans no run of it on a larger training set, and says so at planning time
        (rather than stopping each run at its time limit).

        Returns
        -------
        int or None
            The limit, or None.
        """
        return None

    def fit_equivalent(self) -> FairEstimator | None:
        """Return an estimator whose fit is this one's at its parameters, or None.

        A setting under which the intervention leaves everything as it is (a repair at level
        0) fits exactly its classifier: the benchmark then fits that classifier once for the
        setting's runs and the classifier's own (their predictions are the same).

        Returns
        -------
        FairEstimator or None
            The estimator, unfitted; None when this setting's fit is its own (the default).
        """
        return None

    def seeded_like(self) -> FairEstimator | None:
        """Return an estimator whose runs' seed this one's runs take, or None.

        A model built on another (a frontier on its baseline) is seeded as that model's own
        runs are, so that the model inside is the very model those runs fit.

        Returns
        -------
        FairEstimator or None
            The estimator, unfitted; None when this one's runs have seeds of their own (the
            default).
        """
        return None

    def refitted(self, **params: Any) -> FairEstimator:
        """Return a copy of this fitted estimator with other :attr:`refit_params`, refitted.

        Only the step that reads those parameters is fitted again; the rest is shared.

        Parameters
        ----------
        **params
            Values of :attr:`refit_params`; one not given takes its default.

        Returns
        -------
        FairEstimator
            A new fitted estimator; this one is unchanged.
        """
        raise NotImplementedError(f"{type(self).__name__} has no parameters to refit")

    def _refit_settings(self, params: dict[str, Any]) -> dict[str, Any]:
        """Return the :attr:`refit_params` of a refit: ``params``, the defaults where not given."""
        defaults = {name: type(self)().get_params()[name] for name in self.refit_params}
        return defaults | params

    def fit(self, X: Any, y: Any, *, sensitive_features: Any) -> FairEstimator:
        """Fit on features ``X``, labels ``y`` (1 positive, 0 other) and the sensitive attribute.

        Parameters
        ----------
        X
            Features, one row per person.
        y
            Labels: 1 for the positive outcome, 0 otherwise.
        sensitive_features
            The sensitive attribute of each row.

        Returns
        -------
        FairEstimator
            The fitted estimator itself.
        """
        raise NotImplementedError

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Predict labels (1 positive, 0 other).

        Parameters
        ----------
        X
            Features, with the columns seen in fit.
        sensitive_features
            The sensitive attribute of each row, for algorithms that use it at prediction time.

        Returns
        -------
        numpy.ndarray
            One label per row.
        """
        raise NotImplementedError

    def score(
        self, X: Any, y: Any, sample_weight: Any = None, *, sensitive_features: Any = None
    ) -> float:
        """Return the accuracy of ``predict(X, sensitive_features=...)`` on ``y``.

        Parameters
        ----------
        X, y
            Features and true labels.
        sample_weight
            Weights of the rows.
        sensitive_features
            The rows' sensitive attribute, for algorithms that use it at prediction time.

        Returns
        -------
        float
            The (weighted) share of correct predictions.
        """
        predicted = self.predict(X, sensitive_features=sensitive_features)
        return float(accuracy_score(y, predicted, sample_weight=sample_weight))

    def validate_fit(self, X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
        """Validate ``fit``'s features and labels the scikit-learn way; call it first in ``fit``.

        Sets ``n_features_in_`` (and ``feature_names_in_`` for a frame) and ``classes_``, which
        :meth:`fitted_features` and :meth:`to_labels` read later.

        Parameters
        ----------
        X
            ``fit``'s features: a frame (the benchmark passes one) or an array.
        y
            ``fit``'s labels, two values.

        Returns
        -------
        tuple of numpy.ndarray
            The features as a finite float matrix (a CSR matrix for a sparse frame when the
            model has ``sparse_input``), and the labels as 0/1, 1 for ``classes_[1]``.

        Raises
        ------
        ValueError
            Scikit-learn's errors for bad input (NaN, empty, sparse, 1-D, no ``y``), and for a
            target that is not binary: "Only binary classification is supported".
        """
        refuse_text_columns(X, type(self).__name__)
        X, sparse = self._input(X)
        features, labels = validate_data(self, X, y, dtype=np.float64, accept_sparse=sparse)
        check_classification_targets(labels)
        self.classes_ = np.unique(labels)
        kind = type_of_target(labels, input_name="y")
        if kind != "binary" or len(self.classes_) != 2:
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {kind}: "
                f"{type(self).__name__} needs two label values (1 positive and 0 other, or any "
                f"two, the larger one positive), got {len(self.classes_)} class(es): "
                f"{self.classes_[:5].tolist()}"
            )
        return features, (labels == self.classes_[1]).astype(np.int64)

    def fitted_features(self, X: Any) -> np.ndarray:
        """Return ``X`` as a float matrix of the width seen in ``fit``; call it in ``predict``.

        Feature names are checked when both ``fit`` and this call saw a frame; an array is taken
        by position (the audits move numeric copies of the rows). A sparse frame comes back as a
        CSR matrix when the model has ``sparse_input``.

        Parameters
        ----------
        X
            ``predict``'s (or ``predict_proba``'s) features.

        Returns
        -------
        numpy.ndarray
            The features as a finite float matrix.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            Scikit-learn's errors for another width, other feature names or bad values.
        """
        check_is_fitted(self)
        refuse_text_columns(X, type(self).__name__)
        X, sparse = self._input(X)
        if isinstance(X, pd.DataFrame) or not hasattr(self, "feature_names_in_"):
            return validate_data(self, X, reset=False, dtype=np.float64, accept_sparse=sparse)
        features = check_array(X, dtype=np.float64, accept_sparse=sparse)
        if features.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {features.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input."
            )
        return features

    def _input(self, X: Any) -> tuple[Any, str | bool]:
        """Return ``X`` densified unless the model takes sparse input, and what it accepts."""
        if self.sparse_input:
            return X, "csr"
        return dense_features(X), False

    def to_labels(self, predicted: Any) -> np.ndarray:
        """Map 0/1 predictions back to the label values seen in ``fit``; ``predict`` returns it.

        Parameters
        ----------
        predicted
            One 0/1 (or boolean) prediction per row, 1 for the positive label.

        Returns
        -------
        numpy.ndarray
            The predictions as ``classes_`` values, in the rows' order.
        """
        return self.classes_[np.asarray(predicted, dtype=np.int64)]

    def sensitive_for_predict(self, X: Any, sensitive_features: Any) -> np.ndarray:
        """Check the sensitive attribute passed to ``predict`` by an algorithm that needs it.

        For a model with ``uses_sensitive_at_predict = True``.

        Parameters
        ----------
        X
            ``predict``'s features (for their number of rows).
        sensitive_features
            ``predict``'s sensitive attribute, one value per row.

        Returns
        -------
        numpy.ndarray
            The attribute as a 1-D array.

        Raises
        ------
        AlgorithmInputError
            If it is missing, or not one value per row.
        """
        if sensitive_features is None:
            raise AlgorithmInputError(
                f"{type(self).__name__}.predict needs sensitive_features: it uses the sensitive "
                "attribute at prediction time"
            )
        return check_sensitive(sensitive_features, np.shape(X)[0])

    def binary_sensitive_for_predict(self, X: Any, sensitive_features: Any) -> np.ndarray:
        """Check ``predict``'s sensitive attribute and return it as 0/1 (1 privileged).

        For a model that needs a binary attribute (the ``numerical+binary`` variant).

        Parameters
        ----------
        X
            ``predict``'s features (for their number of rows).
        sensitive_features
            ``predict``'s sensitive attribute, one value per row.

        Returns
        -------
        numpy.ndarray
            The attribute as integers 0 and 1.

        Raises
        ------
        AlgorithmInputError
            If it is missing, not one value per row, or has more than two values.
        """
        s = self.sensitive_for_predict(X, sensitive_features)
        return binary_sensitive(s, np.shape(X)[0], type(self).__name__)

    # The helpers' names before 0.3.0, used by plugins written from the earlier examples.
    _validate_fit = validate_fit
    _fitted_features = fitted_features
    _labels = to_labels
    _sensitive_for_predict = sensitive_for_predict
    _binary_sensitive_for_predict = binary_sensitive_for_predict


def refuse_text_columns(X: Any, algorithm: str) -> None:
    """Refuse a frame with non-numeric columns, naming the variant the algorithm needs."""
    if isinstance(X, pd.DataFrame):
        text = [c for c, dtype in X.dtypes.items() if not pd.api.types.is_numeric_dtype(dtype)]
        if text:
            raise AlgorithmInputError(
                f"{algorithm} needs numeric features, but {text[:5]} are not numeric: use the "
                "'numerical' or 'numerical+binary' preprocessing variant"
            )


def dense_features(X: Any) -> Any:
    """Return a frame of sparse columns as a dense frame (one float block); other input as is.

    Parameters
    ----------
    X
        Features: a frame, stored sparse where :func:`faircompare.preprocessing.prepare` chose
        so, or any other input.

    Returns
    -------
    Any
        ``X``, densified if every column was sparse: same columns, index and values.

    Raises
    ------
    TooLargeError
        If the dense copy would be too large
        (:func:`~faircompare.preprocessing.check_dense_size`).
    """
    if is_sparse_frame(X):
        check_dense_size(*X.shape)
        dense = sparse_matrix(X).toarray()
        return pd.DataFrame(dense, index=X.index, columns=X.columns, copy=False)
    return X


def numeric_matrix(X: Any, algorithm: str) -> np.ndarray:
    """Return ``X`` as a float matrix, or explain which variant the algorithm needs."""
    refuse_text_columns(X, algorithm)
    matrix = np.asarray(dense_features(X), dtype=float)
    if matrix.ndim != 2 or not np.isfinite(matrix).all():
        raise AlgorithmInputError(f"{algorithm} needs a finite 2-D feature matrix")
    return matrix


def binary_labels(y: Any, n: int) -> np.ndarray:
    """Return ``y`` as an int array of 0 and 1 with ``n`` entries, or raise naming the problem."""
    labels = np.asarray(y)
    if labels.shape != (n,):
        raise AlgorithmInputError(f"y must have one label per row ({n}), got shape {labels.shape}")
    try:
        return checked_labels(labels, "y")
    except ValueError as error:
        raise AlgorithmInputError(str(error)) from None


def check_sensitive(s: Any, n: int) -> np.ndarray:
    """Return the sensitive attribute as an array of ``n`` values, or raise naming the shape."""
    values = np.asarray(s)
    if values.shape != (n,):
        raise AlgorithmInputError(
            f"sensitive_features must have one value per row ({n}), got shape {values.shape}"
        )
    return values


def binary_sensitive(s: Any, n: int, algorithm: str) -> np.ndarray:
    """Return a 0/1 sensitive attribute (1 privileged) with ``n`` entries, or explain."""
    values = check_sensitive(s, n)
    if values.dtype.kind not in "biuf" or not np.isin(values, (0, 1)).all():
        found = pd.unique(values)[:5].tolist()
        raise AlgorithmInputError(
            f"{algorithm} needs a binary sensitive attribute (1 privileged, 0 other), got values "
            f"{found}: use the 'numerical+binary' preprocessing variant"
        )
    return values.astype(np.int64)


def check_fitted_width(X: np.ndarray, n_features: int, algorithm: str) -> None:
    """Refuse a feature matrix whose width differs from the one seen in ``fit``."""
    if X.shape[1] != n_features:
        raise AlgorithmInputError(
            f"{algorithm} was fitted on {n_features} features but got {X.shape[1]}"
        )
