"""What the metric functions and scorer factories share: constraints, parameter texts and the
checks that depend on the data (NaN labels, lengths, a ``pos_label`` not among the labels)."""

import numbers

import numpy as np
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import type_of_target, unique_labels

from ..utils import IntervalNotBool, OptionsNotBool

#: None (estimate it from the data) or a prevalence strictly between 0 and 1.
PREVALENCE = [IntervalNotBool(numbers.Real, 0, 1, closed="neither"), None]
#: The value of an undefined metric, as in scikit-learn.
ZERO_DIVISION = [StrOptions({"warn"}), OptionsNotBool(numbers.Real, {0.0, 1.0}), "nan"]
#: A label: a number, a str or a bool.
POS_LABEL = [numbers.Real, str, "boolean"]
#: The options of sensitivity, specificity, PPV and NPV and of their scorers.
BINARY = {"pos_label": POS_LABEL, "zero_division": ZERO_DIVISION}
#: The options of PPV and NPV and of their scorers: the binary ones and a prevalence.
PREDICTIVE = {**BINARY, "prevalence": PREVALENCE}
#: The arguments of every metric function.
TARGETS = {
    "y_true": ["array-like"],
    "y_pred": ["array-like"],
    "sample_weight": ["array-like", None],
}

#: The texts of the parameters above, for :func:`~sklearn_fair.utils.fill_doc`.
DOCS = {
    "y_true_pred": """y_true : array-like of shape (n_samples,)
    True labels.
y_pred : array-like of shape (n_samples,)
    Predicted labels.""",
    "pos_label": """pos_label : int, float, bool or str, default=1
    The positive class; every other label counts as negative (one against the rest when
    there are more than two classes). It must be one of the labels in ``y_true`` or
    ``y_pred`` when these hold two or more; with a single label (a fold without positives)
    any ``pos_label`` is accepted, as in scikit-learn.""",
    "sample_weight": """sample_weight : array-like of shape (n_samples,), default=None
    Sample weights.""",
    "zero_division": """zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
    The value returned when the metric is undefined (a zero denominator); "warn" returns
    0.0 with an ``UndefinedMetricWarning``, as scikit-learn's metrics do.""",
    "prevalence": """prevalence : float in (0, 1), default=None
    The prevalence of the positive class in the population where the classifier will be
    used. None takes it from the data, giving the plain ratio of counts; a number applies
    Bayes' rule to the observed sensitivity and specificity with that prevalence, as
    needed when the evaluation sample was enriched in positives (a case-control study).""",
    "scorer": """Returns
-------
scorer : callable
    ``scorer(estimator, X, y)``, greater is better.""",
}


def _has_nan(array):
    """Whether ``array`` holds a NaN (or a None), for numeric and object arrays alike."""
    if array.dtype.kind in "fc":
        return bool(np.isnan(array).any())
    if array.dtype.kind == "O":
        return any(_missing(value) for value in array.ravel())
    return False


def _missing(value):
    if value is None:
        return True
    try:  # NaN is the only value that differs from itself
        return bool(value != value)
    except TypeError:  # pandas.NA: its comparisons are NA, whose truth is ambiguous
        return True


def _as_1d(name, values):
    array = np.asarray(values)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array.ravel()
    if array.ndim != 1:
        raise ValueError(
            f"The '{name}' parameter must be a 1-D array-like. Got an array of shape "
            f"{array.shape} instead."
        )
    if _has_nan(array):
        raise ValueError(f"The '{name}' parameter contains NaN or None; remove or impute it first.")
    return array


def check_targets(y_true, y_pred, sample_weight=None):
    """``y_true``, ``y_pred`` and ``sample_weight`` as checked 1-D arrays."""
    y_true = _as_1d("y_true", y_true)
    y_pred = _as_1d("y_pred", y_pred)
    if y_true.shape[0] != y_pred.shape[0]:
        raise ValueError(
            "The 'y_true' and 'y_pred' parameters must have the same length. Got "
            f"{y_true.shape[0]} and {y_pred.shape[0]} instead."
        )
    if y_true.shape[0] == 0:
        raise ValueError("The 'y_true' and 'y_pred' parameters are empty; need at least 1 sample.")
    if sample_weight is not None:
        sample_weight = _as_1d("sample_weight", sample_weight).astype(float)
        if sample_weight.shape[0] != y_true.shape[0]:
            raise ValueError(
                "The 'sample_weight' parameter must have one weight per sample "
                f"({y_true.shape[0]}). Got {sample_weight.shape[0]} instead."
            )
        if not np.isfinite(sample_weight).all() or (sample_weight < 0).any():
            raise ValueError(
                "The 'sample_weight' parameter must hold finite, non-negative weights."
            )
        if not sample_weight.any():  # scikit-learn's metrics refuse them too
            raise ValueError(
                "The 'sample_weight' parameter must hold at least one non-zero weight; got "
                f"{sample_weight.shape[0]} zeros."
            )
    return y_true, y_pred, sample_weight


def check_labels(y_true, y_pred):
    """The labels of ``y_true`` and ``y_pred``, sorted; a ValueError, with scikit-learn's
    messages, for targets that are not the labels of one classification task: continuous
    values, or strings mixed with numbers (``[1, 0]`` against ``["1", "0"]``)."""
    type_true = type_of_target(y_true, input_name="y_true")
    type_pred = type_of_target(y_pred, input_name="y_pred")
    types = {type_true, type_pred}
    if types == {"binary", "multiclass"}:
        types = {"multiclass"}
    if len(types) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {type_true} and {type_pred} targets"
        )
    if type_true not in ("binary", "multiclass"):
        raise ValueError(f"{type_true} is not supported")
    return unique_labels(y_true, y_pred)


def check_pos_label(pos_label, y_true, y_pred):
    """Raise a ValueError when the data hold two or more labels and ``pos_label`` is not one.

    scikit-learn's rule (``_check_set_wise_labels`` of :func:`sklearn.metrics.precision_score`
    and :func:`~sklearn.metrics.recall_score`): with a single label present (a test fold with
    no positive sample and no positive prediction) ``pos_label`` is accepted, since the
    metric is still defined (specificity TN / (TN + FP) = 1), or undefined and decided by
    ``zero_division`` (sensitivity, with no positive samples).
    """
    labels = np.union1d(np.unique(y_true), np.unique(y_pred))
    if labels.shape[0] < 2:
        return
    try:
        present = bool(np.isin(pos_label, labels))
    except TypeError:
        present = False
    if not present:
        raise ValueError(
            f"The 'pos_label' parameter must be one of the labels {labels.tolist()}. "
            f"Got {pos_label!r} instead."
        )
