"""Scorers for our metrics, and name resolution beside scikit-learn's scorers."""

import copy

from sklearn.metrics import get_scorer as _sklearn_get_scorer
from sklearn.metrics import get_scorer_names as _sklearn_get_scorer_names
from sklearn.metrics import make_scorer
from sklearn.utils._param_validation import validate_params

from ..utils import fill_doc
from ._checks import BINARY, DOCS, PREDICTIVE
from ._classification import (
    KAPPA_WEIGHTS,
    check_kappa_labels,
    kappa,
    npv,
    ppv,
    sensitivity,
    specificity,
)
from ._regression import concordance_correlation_coefficient


# The factories check their parameters when they are called, not in the middle of a search.
@validate_params(
    {"weights": KAPPA_WEIGHTS, "labels": ["array-like", None]},
    prefer_skip_nested_validation=True,
)
@fill_doc(DOCS)
def make_kappa_scorer(*, weights=None, labels=None):
    """Make a scorer of Cohen's kappa for scikit-learn's searches and cross-validation.

    Parameters
    ----------
    weights : {None, "linear", "quadratic"}, default=None
        Passed to :func:`~sklearn_fair.metrics.kappa`.
    labels : array-like, default=None
        Passed to :func:`~sklearn_fair.metrics.kappa`; required with weights, in their
        order: each fold's kappa then measures distances on one scale, where a fold without
        one of the labels would otherwise score on a scale of its own.

    {scorer}

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair.metrics import make_kappa_scorer
    >>> X, y = [[0], [1], [2], [3]], [0, 0, 1, 1]
    >>> scorer = make_kappa_scorer(weights="linear", labels=[0, 1])
    >>> scorer(LogisticRegression().fit(X, y), X, y)
    1.0
    """
    if weights is not None and labels is None:
        raise ValueError(
            f"make_kappa_scorer(weights={weights!r}) needs the 'labels' parameter, the "
            f"ordered scale: without it each fold's kappa measures distances between the "
            f"labels that fold holds, so a fold without one of them scores on another scale. "
            f"Got labels=None."
        )
    if labels is not None:
        check_kappa_labels(labels)
    return make_scorer(kappa, weights=weights, labels=labels)


@validate_params(BINARY, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def make_sensitivity_scorer(*, pos_label=1, zero_division="warn"):
    """Make a scorer of :func:`~sklearn_fair.metrics.sensitivity`.

    Parameters
    ----------
    {pos_label}
    {zero_division}

    {scorer}

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn_fair.metrics import make_sensitivity_scorer
    >>> X, y = [[0], [1], [2], [3]], ["a", "b", "b", "b"]
    >>> make_sensitivity_scorer(pos_label="b")(DummyClassifier().fit(X, y), X, y)
    1.0
    """
    return make_scorer(sensitivity, pos_label=pos_label, zero_division=zero_division)


@validate_params(BINARY, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def make_specificity_scorer(*, pos_label=1, zero_division="warn"):
    """Make a scorer of :func:`~sklearn_fair.metrics.specificity`.

    Parameters
    ----------
    {pos_label}
    {zero_division}

    {scorer}

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn_fair.metrics import make_specificity_scorer
    >>> X, y = [[0], [1], [2], [3]], ["a", "b", "b", "b"]
    >>> make_specificity_scorer(pos_label="b")(DummyClassifier().fit(X, y), X, y)
    0.0
    """
    return make_scorer(specificity, pos_label=pos_label, zero_division=zero_division)


@validate_params(PREDICTIVE, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def make_ppv_scorer(*, prevalence=None, pos_label=1, zero_division="warn"):
    """Make a scorer of :func:`~sklearn_fair.metrics.ppv`, optionally at a prevalence.

    Parameters
    ----------
    {prevalence}
    {pos_label}
    {zero_division}

    {scorer}

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn_fair.metrics import make_ppv_scorer
    >>> X, y = [[0], [1], [2], [3]], [1, 1, 1, 0]  # all predicted 1: sensitivity 1, specificity 0
    >>> make_ppv_scorer(prevalence=0.2)(DummyClassifier().fit(X, y), X, y)
    0.2
    """
    return make_scorer(ppv, pos_label=pos_label, prevalence=prevalence, zero_division=zero_division)


@validate_params(PREDICTIVE, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def make_npv_scorer(*, prevalence=None, pos_label=1, zero_division="warn"):
    """Make a scorer of :func:`~sklearn_fair.metrics.npv`, optionally at a prevalence.

    Parameters
    ----------
    {prevalence}
    {pos_label}
    {zero_division}

    {scorer}

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn_fair.metrics import make_npv_scorer
    >>> X, y = [[0], [1], [2], [3]], [1, 0, 0, 0]
    >>> make_npv_scorer(prevalence=0.5)(DummyClassifier().fit(X, y), X, y)
    0.5
    """
    return make_scorer(npv, pos_label=pos_label, prevalence=prevalence, zero_division=zero_division)


@validate_params({"bias": ["boolean"]}, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def make_ccc_scorer(*, bias=True):
    """Make a scorer of Lin's concordance correlation coefficient for regressors.

    Parameters
    ----------
    bias : bool, default=True
        See :func:`~sklearn_fair.metrics.concordance_correlation_coefficient`.

    {scorer}

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_fair.metrics import make_ccc_scorer
    >>> X, y = [[0], [1], [2], [3]], [0.0, 2.0, 4.0, 6.0]
    >>> round(make_ccc_scorer()(LinearRegression().fit(X, y), X, y), 6)
    1.0
    """
    return make_scorer(concordance_correlation_coefficient, bias=bias)


_SCORERS = {
    "kappa": make_kappa_scorer(),
    "sensitivity": make_sensitivity_scorer(),
    "specificity": make_specificity_scorer(),
    "ppv": make_ppv_scorer(),
    "npv": make_npv_scorer(),
    "ccc": make_ccc_scorer(),
}


def get_scorer_names():
    """All the scorer names that :func:`get_scorer` accepts: ours and scikit-learn's.

    Returns
    -------
    list of str
        Sorted names.

    Examples
    --------
    >>> from sklearn_fair.metrics import get_scorer_names
    >>> names = get_scorer_names()
    >>> "ppv" in names and "roc_auc" in names
    True
    """
    return sorted(set(_SCORERS) | set(_sklearn_get_scorer_names()))


@validate_params({"scoring": [str, callable, None]}, prefer_skip_nested_validation=True)
def get_scorer(scoring):
    """Return the scorer for a name: ours ("kappa", "ppv", ...) or any of scikit-learn's.

    Our names are "kappa", "sensitivity", "specificity", "ppv", "npv" and "ccc", with default
    parameters (``pos_label=1``, prevalence from the data, ``bias=True``); the
    ``make_*_scorer`` factories make others. Every other name, a callable or None goes to
    :func:`sklearn.metrics.get_scorer`.

    Parameters
    ----------
    scoring : str, callable or None
        The scorer's name, or a scorer.

    Returns
    -------
    scorer : callable
        A fresh copy, ``scorer(estimator, X, y)``, greater is better.

    Raises
    ------
    ValueError
        For an unknown name, listing the valid ones.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair.metrics import get_scorer
    >>> X, y = make_classification(n_samples=60, random_state=0)
    >>> model = LogisticRegression().fit(X, y)
    >>> 0.5 < get_scorer("kappa")(model, X, y) <= 1.0
    True
    >>> get_scorer("accuracy")(model, X, y) == model.score(X, y)
    True
    """
    if isinstance(scoring, str):
        if scoring in _SCORERS:
            return copy.deepcopy(_SCORERS[scoring])
        if scoring not in _sklearn_get_scorer_names():
            raise ValueError(
                f"The 'scoring' parameter must be a valid scorer name. Got {scoring!r} "
                f"instead. Valid names: {', '.join(get_scorer_names())}."
            )
    return _sklearn_get_scorer(scoring)
