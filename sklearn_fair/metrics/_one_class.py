"""The refusal of scorers that score class 1 against the rest where ``y`` makes their score
one class's rate passed for a metric of all, or a class absent from ``y``."""

import numbers

import numpy as np
from sklearn.utils.multiclass import type_of_target

from ..utils._validation import labels_1d

#: The scorer names that score class 1 against the rest.
ONE_CLASS_NAMES = ("sensitivity", "specificity", "ppv", "npv")


def check_one_class_names(scorings, y):
    """Refuse the scorings of ``scorings`` (where -> a scoring parameter: a name, a scorer, a
    list or a dict of them) that score class 1 against the rest (:func:`_class_1_rate`), on a
    ``y`` without the class 1 (every score would fail), with two classes of which 1 is the
    lower (``{1, 2}``: the positive class of 'roc_auc' is 2), or with more than two classes
    (scikit-learn's recall_score refuses such a y, and one class's rate would pass for the
    metric of all)."""
    y = labels_1d(y)  # one column of labels: a 1-D y's classes
    kind = None if y is None or y.ndim != 1 else type_of_target(y)
    if kind not in ("binary", "multiclass"):
        return
    classes = np.unique(y)
    if kind == "binary" and classes.size and classes[-1] == 1:  # 1 the binary positive class
        return
    for where, scoring in scorings.items():
        values = scoring.values() if isinstance(scoring, dict) else [scoring]
        if isinstance(scoring, (list, tuple, set)):
            values = scoring
        for name in values:
            rate = _class_1_rate(name)
            if rate is not None:
                given = f"names {name!r}" if isinstance(name, str) else f"gives a {rate!r} scorer"
                if kind != "binary":
                    why = "so one class's rate would pass for a metric of all"
                elif 1 in classes.tolist():
                    why = (
                        "and class 1 is the lower of the two, which scikit-learn's binary "
                        "scorers of scores ('roc_auc', 'average_precision') read as the "
                        "negative class: this score would be the other class's"
                    )
                else:
                    why = "and class 1 is not one of them"
                lower = kind == "binary" and 1 in classes.tolist()
                other = repr(classes.tolist()[-1]) if lower else "..."
                raise ValueError(
                    f"The 'scoring' parameter of {where} {given}, which scores class 1 "
                    f"against the rest (pos_label=1), but y holds {classes.size} classes "
                    f"({_first_labels(classes)}), {why}. Pass make_{rate}_scorer(pos_label="
                    f"{other}) to score another class against the rest, or a metric of every "
                    "class, e.g. 'balanced_accuracy' or 'recall_macro'; to score class 1 "
                    "against the rest on purpose (a scorer of pos_label=1 cannot be told from "
                    "the default), give the labels as that: y == 1."
                )
            pos_label = _scikit_learn_pos_label(name) if kind == "binary" else None
            if pos_label is not None and pos_label not in classes.tolist():
                # every fit would be scored, and fail, before the run said so
                raise ValueError(
                    f"The 'scoring' parameter of {where} names {name!r}, scikit-learn's scorer "
                    f"of the positive class pos_label={pos_label!r}, but y holds the classes "
                    f"{_first_labels(classes)}. Pass make_scorer(..., pos_label=...) of your "
                    "positive class, or a metric of every class, e.g. 'balanced_accuracy', "
                    "'roc_auc' or 'f1_macro'."
                )


def _class_1_rate(scoring):
    """The name in :data:`ONE_CLASS_NAMES` of the rate that ``scoring`` scores of the class 1
    against the rest: that name itself, or a scorer of sklearn-fair's metric of it (at any
    prevalence) with ``pos_label=1``, the default of ``get_scorer("sensitivity")`` and
    ``make_sensitivity_scorer()``; None for any other scoring (a scorer of another class
    included)."""
    if isinstance(scoring, str):
        return scoring if scoring in ONE_CLASS_NAMES else None
    from . import _classification
    from ._names import positive_class, scorer_metric

    function, kwargs = scorer_metric(scoring)
    name = getattr(function, "__name__", None)
    if name not in ONE_CLASS_NAMES or function is not getattr(_classification, name):
        return None
    pos_label = positive_class(function, kwargs)
    return name if isinstance(pos_label, (numbers.Real, np.bool_)) and pos_label == 1 else None


def _scikit_learn_pos_label(name):
    """The positive label of scikit-learn's scorer ``name`` ("f1", "precision", "recall",
    "average_precision", "jaccard": 1), None for a scorer of every class, one that finds its
    positive class from the labels ("neg_brier_score"), another name, or a version whose
    scorers do not say (private API: the scorer's error then comes with the scores)."""
    from sklearn.metrics import get_scorer, get_scorer_names

    if not isinstance(name, str) or name not in get_scorer_names():
        return None
    get_pos_label = getattr(get_scorer(name), "_get_pos_label", None)
    return get_pos_label() if callable(get_pos_label) else None


def _first_labels(classes):
    shown = ", ".join(repr(c) for c in classes[:5].tolist())
    return shown + (", ..." if classes.size > 5 else "")
