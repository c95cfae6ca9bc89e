"""Classification metrics: Cohen's kappa, sensitivity, specificity, PPV and NPV."""

import numbers
import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import cohen_kappa_score
from sklearn.utils._param_validation import StrOptions, validate_params

from ..utils import fill_doc
from ..utils._stacklevel import external_stacklevel
from ._checks import (
    BINARY,
    DOCS,
    PREDICTIVE,
    TARGETS,
    check_labels,
    check_pos_label,
    check_targets,
)

#: The ``weights`` of Cohen's kappa.
KAPPA_WEIGHTS = [StrOptions({"linear", "quadratic"}), None]


def check_kappa_labels(labels):
    """Raise a ValueError when ``labels`` repeats a label: the repeat would add an empty step to
    the scale of weighted kappa, and change it."""
    values = np.asarray(labels).tolist()
    repeated = []
    for value in values:
        if values.count(value) > 1 and value not in repeated:
            repeated.append(value)
    if repeated:
        raise ValueError(
            f"The 'labels' parameter must hold each label once. Got {values!r}, which "
            f"repeats {repeated!r}."
        )


@validate_params(
    {**TARGETS, "labels": ["array-like", None], "weights": KAPPA_WEIGHTS},
    prefer_skip_nested_validation=True,
)
@fill_doc(DOCS)
def kappa(y_true, y_pred, *, labels=None, weights=None, sample_weight=None):
    """Cohen's kappa: agreement between two labelings, corrected for chance.

    A checked front end to :func:`sklearn.metrics.cohen_kappa_score`.

    Parameters
    ----------
    {y_true_pred}
    labels : array-like, default=None
        Labels to index the confusion matrix, each once, each label of ``y_true`` and
        ``y_pred`` among them; by default those in ``y_true`` or ``y_pred``, sorted. With
        ordinal weights, give them in their order: a label that neither holds moves the others
        closer, and labels that are not numbers are required (their sorted order is
        alphabetical).
    weights : {None, "linear", "quadratic"}, default=None
        None for the unweighted kappa; "linear" or "quadratic" for the weighted kappa of ordinal
        labels, where a disagreement costs its distance (or squared distance) in ``labels``.
    {sample_weight}

    Returns
    -------
    float
        Kappa, 1 for perfect agreement, 0 for chance-level agreement. NaN, with scikit-learn's
        :class:`~sklearn.exceptions.UndefinedMetricWarning`, where kappa is undefined: both
        labelings give every sample the same one label, so chance agreement is 1 and kappa
        is 0/0 (weighted or not); not 0 or 1, which would claim an agreement beyond chance
        that one label cannot measure. A test fold whose labels and predictions are all one
        label scores NaN.

    Examples
    --------
    >>> from sklearn_fair.metrics import kappa
    >>> kappa([0, 0, 1, 1], [0, 0, 1, 0])
    0.5
    >>> round(kappa([0, 1, 2, 2], [0, 2, 2, 2], weights="quadratic"), 4)  # 5/6
    0.8333
    """
    y_true, y_pred, sample_weight = check_targets(y_true, y_pred, sample_weight)
    present = check_labels(y_true, y_pred)
    if labels is not None:
        check_kappa_labels(labels)
        given = set(np.asarray(labels).tolist())
        absent = [label for label in present.tolist() if label not in given]
        if absent:  # scikit-learn drops their samples: kappa of the others only
            raise ValueError(
                f"The 'labels' parameter must hold every label of y_true and y_pred; "
                f"{absent!r} are not among {sorted(given, key=str)!r}, and their samples "
                f"would be left out of kappa."
            )
    elif weights is not None and not all(
        isinstance(label, numbers.Number) for label in present.tolist()
    ):
        raise ValueError(
            f"kappa with weights={weights!r} reads the labels as an ordered scale; "
            f"{present.tolist()!r} are not numbers, and sorted they are in alphabetical "
            f"order. Pass 'labels' in their order."
        )
    return float(
        cohen_kappa_score(
            y_true, y_pred, labels=labels, weights=weights, sample_weight=sample_weight
        )
    )


def _divide(numerator, denominator, metric, why, zero_division):
    if denominator > 0:
        return float(numerator / denominator)
    if isinstance(zero_division, str):
        warnings.warn(
            f"{metric} is ill-defined ({why}) and is set to 0.0. Use the 'zero_division' "
            "parameter to control this.",
            UndefinedMetricWarning,
            stacklevel=external_stacklevel(),
        )
        return 0.0
    return float(zero_division)


def _checked(y_true, y_pred, pos_label, sample_weight):
    """Checked ``y_true``, ``y_pred``, ``sample_weight``, with ``pos_label`` among the labels."""
    y_true, y_pred, sample_weight = check_targets(y_true, y_pred, sample_weight)
    check_labels(y_true, y_pred)
    check_pos_label(pos_label, y_true, y_pred)
    return y_true, y_pred, sample_weight


def _rate(y_true, y_pred, pos_label, sample_weight, zero_division, *, negative):
    """The sensitivity (or specificity) of ``pos_label``, from the (weighted) counts of
    :func:`_counts`, as imbalanced-learn defines it; an undefined one by ``zero_division``.

    imbalanced-learn's own function is not called: its import (pulled in here, after the
    user made routing requests) adds ``fit_resample`` to scikit-learn's methods, and every
    request made before it then fails to copy; and its weighted true negatives count
    ``len(y_true)`` minus weighted counts (a specificity of 0.765 for 0.831 in
    tests/metrics/test_classification.py)."""
    tn, fp, fn, tp = _counts(y_true, y_pred, pos_label, sample_weight)
    if negative:
        metric, why, numerator, denominator = "Specificity", "no negative samples", tn, tn + fp
    else:
        metric, why, numerator, denominator = "Sensitivity", "no positive samples", tp, tp + fn
    return _divide(numerator, denominator, metric, why, zero_division)


def _counts(y_true, y_pred, pos_label, sample_weight):
    """Return (tn, fp, fn, tp) of ``pos_label`` against all other labels, each the sum of its
    own rows' weights. (scikit-learn's multilabel confusion matrix takes the weighted true
    negatives as the total minus the other three: a rounding residue, 3.6e-15, where there
    are none, made a specificity of a fold without negatives 1.0, not undefined.)"""
    y_true, y_pred, sample_weight = _checked(y_true, y_pred, pos_label, sample_weight)
    weights = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight)
    true, predicted = y_true == pos_label, y_pred == pos_label
    return tuple(
        float(weights[rows].sum())
        for rows in (~true & ~predicted, ~true & predicted, true & ~predicted, true & predicted)
    )


_BINARY_CONSTRAINTS = {**TARGETS, **BINARY}
_PREDICTIVE_CONSTRAINTS = {**TARGETS, **PREDICTIVE}


@validate_params(_BINARY_CONSTRAINTS, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def sensitivity(y_true, y_pred, *, pos_label=1, sample_weight=None, zero_division="warn"):
    """Sensitivity (recall, true positive rate): TP / (TP + FN).

    :func:`imblearn.metrics.sensitivity_score` of ``pos_label`` against the rest (computed
    from the weighted counts, without importing it), with the undefined case (no positive samples)
    decided by ``zero_division``.

    Parameters
    ----------
    {y_true_pred}
    {pos_label}
    {sample_weight}
    {zero_division}

    Returns
    -------
    float
        The fraction of positive samples predicted positive.

    Examples
    --------
    >>> from sklearn_fair.metrics import sensitivity
    >>> y_true = [1, 1, 1, 0, 0, 0, 0, 0]
    >>> y_pred = [1, 1, 0, 1, 0, 0, 0, 0]
    >>> round(sensitivity(y_true, y_pred), 4)
    0.6667
    >>> sensitivity(["ill", "ill", "well"], ["ill", "well", "well"], pos_label="ill")
    0.5
    """
    return _rate(y_true, y_pred, pos_label, sample_weight, zero_division, negative=False)


@validate_params(_BINARY_CONSTRAINTS, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def specificity(y_true, y_pred, *, pos_label=1, sample_weight=None, zero_division="warn"):
    """Specificity (true negative rate): TN / (TN + FP).

    :func:`imblearn.metrics.specificity_score` of ``pos_label`` against the rest, with the
    undefined case (no negative samples) decided by ``zero_division``; from the weighted
    counts of true and false negatives (imbalanced-learn 0.14 counts TN unweighted).

    Parameters
    ----------
    {y_true_pred}
    {pos_label}
    {sample_weight}
    {zero_division}

    Returns
    -------
    float
        The fraction of negative samples predicted negative.

    Examples
    --------
    >>> from sklearn_fair.metrics import specificity
    >>> y_true = [1, 1, 1, 0, 0, 0, 0, 0]
    >>> y_pred = [1, 1, 0, 1, 0, 0, 0, 0]
    >>> specificity(y_true, y_pred)
    0.8
    """
    return _rate(y_true, y_pred, pos_label, sample_weight, zero_division, negative=True)


def _predictive_value(
    y_true, y_pred, prevalence, pos_label, sample_weight, zero_division, positive
):
    prevalence = None if prevalence is None else float(prevalence)
    tn, fp, fn, tp = _counts(y_true, y_pred, pos_label, sample_weight)
    name = "PPV" if positive else "NPV"
    if prevalence is None:
        if positive:
            return _divide(tp, tp + fp, name, "no positive predictions", zero_division)
        return _divide(tn, tn + fn, name, "no negative predictions", zero_division)
    if tp + fn == 0 or tn + fp == 0:
        return _divide(0, 0, name, "sensitivity or specificity undefined", zero_division)
    sens = tp / (tp + fn)
    spec = tn / (tn + fp)
    if positive:
        numerator = sens * prevalence
        denominator = numerator + (1.0 - spec) * (1.0 - prevalence)
    else:
        numerator = spec * (1.0 - prevalence)
        denominator = numerator + (1.0 - sens) * prevalence
    return _divide(numerator, denominator, name, "denominator of Bayes' rule is 0", zero_division)


@validate_params(_PREDICTIVE_CONSTRAINTS, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def ppv(y_true, y_pred, *, prevalence=None, pos_label=1, sample_weight=None, zero_division="warn"):
    """Positive predictive value (precision), optionally at a given prevalence.

    With ``prevalence=None`` it is TP / (TP + FP). With a prevalence ``p`` it is Bayes' rule,
    ``sens * p / (sens * p + (1 - spec) * (1 - p))``.

    Parameters
    ----------
    {y_true_pred}
    {prevalence}
    {pos_label}
    {sample_weight}
    {zero_division}

    Returns
    -------
    float
        The probability that a sample predicted positive is positive.

    Examples
    --------
    >>> from sklearn_fair.metrics import ppv
    >>> y_true = [1, 1, 1, 0, 0, 0, 0, 0]
    >>> y_pred = [1, 1, 0, 1, 0, 0, 0, 0]
    >>> round(ppv(y_true, y_pred), 4)
    0.6667
    >>> round(ppv(y_true, y_pred, prevalence=0.1), 4)  # a rarer disease
    0.2703
    """
    return _predictive_value(
        y_true, y_pred, prevalence, pos_label, sample_weight, zero_division, positive=True
    )


@validate_params(_PREDICTIVE_CONSTRAINTS, prefer_skip_nested_validation=True)
@fill_doc(DOCS)
def npv(y_true, y_pred, *, prevalence=None, pos_label=1, sample_weight=None, zero_division="warn"):
    """Negative predictive value, optionally at a given prevalence.

    With ``prevalence=None`` it is TN / (TN + FN). With a prevalence ``p`` it is Bayes' rule,
    ``spec * (1 - p) / (spec * (1 - p) + (1 - sens) * p)``.

    Parameters
    ----------
    {y_true_pred}
    {prevalence}
    {pos_label}
    {sample_weight}
    {zero_division}

    Returns
    -------
    float
        The probability that a sample predicted negative is negative.

    Examples
    --------
    >>> from sklearn_fair.metrics import npv
    >>> y_true = [1, 1, 1, 0, 0, 0, 0, 0]
    >>> y_pred = [1, 1, 0, 1, 0, 0, 0, 0]
    >>> npv(y_true, y_pred)
    0.8
    >>> round(npv(y_true, y_pred, prevalence=0.1), 4)
    0.9558
    """
    return _predictive_value(
        y_true, y_pred, prevalence, pos_label, sample_weight, zero_division, positive=False
    )
