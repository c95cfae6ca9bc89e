"""How a metric is named in print, and the sign of errors: the one place that decides both.

scikit-learn negates every error so that a higher score is better ("neg_root_mean_squared_error"
scores -0.53 for an RMSE of 0.53); printed numbers show errors as the positive errors they are.
"""

from dataclasses import asdict, dataclass

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.utils._param_validation import validate_params

from ._scorer import get_scorer_names

# Names built from initials, or spelled differently from the scorer's words. Any other
# scorer is named by its words ("balanced_accuracy" -> "balanced accuracy").
_SPELLED = {
    "r2": "R^2",
    "roc_auc": "ROC AUC",
    "f1": "F1",
    "root_mean_squared_error": "RMSE",
    "mean_squared_error": "MSE",
    "mean_absolute_error": "MAE",
    "root_mean_squared_log_error": "RMSLE",
    "mean_squared_log_error": "MSLE",
    "mean_absolute_percentage_error": "MAPE",
    "mean_poisson_deviance": "mean Poisson deviance",
    "brier_score": "Brier score",
    "d2_brier_score": "D^2 Brier score",
    "d2_log_loss_score": "D^2 log loss score",
    "d2_absolute_error_score": "D^2 absolute error score",
    "matthews_corrcoef": "MCC",
    "positive_likelihood_ratio": "LR+",
    "negative_likelihood_ratio": "LR-",
    "top_k_accuracy": "top-k accuracy",
    "adjusted_rand_score": "adjusted Rand score",
    "rand_score": "Rand score",
    "jaccard": "Jaccard",
    "v_measure_score": "V-measure",
    "mutual_info_score": "mutual information",
    "adjusted_mutual_info_score": "adjusted mutual information",
    "normalized_mutual_info_score": "normalized mutual information",
    "fowlkes_mallows_score": "Fowlkes-Mallows score",
    # ours (sklearn_fair.metrics)
    "kappa": "Cohen's kappa",
    "ppv": "PPV",
    "npv": "NPV",
    "ccc": "CCC",
}
# Suffixes of scikit-learn's averaged scorers ("f1_macro", "roc_auc_ovr_weighted").
_AVERAGES = {"macro", "micro", "weighted", "samples"}
_MULTICLASS = {"ovr": "one-vs-rest", "ovo": "one-vs-one"}
_NEGATED = "neg_"


@dataclass(frozen=True)
class MetricName:
    """A metric as it is printed (made by :func:`metric_display_name`; ``str()`` is the name).

    Attributes
    ----------
    name : str
        The name to print, e.g. "accuracy", "ROC AUC (one-vs-rest)", "RMSE".
    scoring : str or None
        The scorer name or the user's metric key it was derived from, as given
        ("neg_root_mean_squared_error"), or None for an estimator's default score.
    sign : int
        1, or -1 when the scores are a negated error: ``sign * score`` is printed.
    note : str
        One sentence that explains the sign or the origin of the name, or "".
    """

    name: str
    scoring: object
    sign: int
    note: str

    @property
    def greater_is_better(self):
        """Whether a higher printed value is better (False for an error such as RMSE)."""
        return self.sign > 0

    def values(self, scores):
        """The printed values of ``scores``: ``sign * scores`` as a float array."""
        return self.sign * np.asarray(scores, dtype=float)

    def to_dict(self):
        """The fields as a JSON-safe dict (``MetricName(**d)`` makes it again)."""
        fields = asdict(self)
        if not (fields["scoring"] is None or isinstance(fields["scoring"], str)):
            fields["scoring"] = repr(fields["scoring"])
        return fields

    def __str__(self):
        return self.name


def _words(stem):
    """The display name of a scorer or metric-function name without its sign."""
    if stem in _SPELLED:
        return _SPELLED[stem]
    parts = stem.split("_")
    qualifiers = []
    while len(parts) > 1 and (parts[-1] in _AVERAGES or parts[-1] in _MULTICLASS):
        last = parts.pop()
        qualifiers.insert(0, _MULTICLASS.get(last, f"{last} average"))
    base = "_".join(parts)
    if qualifiers and base in {"f1", "precision", "recall", "jaccard", "roc_auc"}:
        return f"{_words(base)} ({', '.join(qualifiers)})"
    return stem.replace("_", " ")


def _is_known(stem):
    return stem in _SPELLED or stem in get_scorer_names()


def _from_name(text):
    """(display name, sign) of a scorer name such as "neg_mean_absolute_error"."""
    sign = -1 if text.startswith(_NEGATED) else 1
    stem = text[len(_NEGATED) :] if sign < 0 else text
    if _is_known(text) or _is_known(stem):
        return _words(stem), sign
    return stem, sign  # the user's own key, kept as written


def _from_callable(scorer):
    # A scorer made by make_scorer keeps its metric function and the sign of
    # greater_is_better in attributes scikit-learn does not document (_score_func, _sign);
    # read them when present rather than print an anonymous "custom scorer".
    function = getattr(scorer, "_score_func", None)
    sign = -1 if getattr(scorer, "_sign", 1) < 0 else 1
    label = getattr(function if function is not None else scorer, "__name__", None)
    if label is None:
        return f"custom scorer {scorer!r}", sign
    for stem in (label.removesuffix("_score"), label):
        if _is_known(stem):
            return _words(stem), sign
    return f"custom scorer {label}", sign


def _default_score(estimator):
    if estimator is not None and is_classifier(estimator):
        return "accuracy", "the estimator's default score (scoring=None): accuracy"
    if estimator is not None and is_regressor(estimator):
        return "R^2", "the estimator's default score (scoring=None): R^2"
    return "score", "the estimator's own score method (scoring=None)"


@validate_params(
    {"scoring": [str, callable, None], "estimator": "no_validation", "name": [str, None]},
    prefer_skip_nested_validation=True,
)
def metric_display_name(scoring=None, *, estimator=None, name=None):
    """The name to print for a metric, and the sign that turns its scores into printed values.

    Scorer names become the names people write ("roc_auc_ovr" is "ROC AUC (one-vs-rest)",
    "f1_macro" is "F1 (macro average)", "kappa" is "Cohen's kappa"). A scorer that negates an
    error ("neg_root_mean_squared_error") is named after the error, "RMSE", with ``sign=-1``:
    reports print ``-score``, the positive RMSE, and say so in ``note``.

    Parameters
    ----------
    scoring : str, callable or None, default=None
        A scorer name (scikit-learn's or ours), a scorer (one made by
        :func:`sklearn.metrics.make_scorer` is named after its metric function, with its sign),
        or None for the estimator's default score.
    estimator : estimator, default=None
        With ``scoring=None``: a classifier's default score is accuracy, a regressor's R^2;
        anything else prints as "score".
    name : str, default=None
        The user's own name for the metric (a key of a ``scoring`` dict), printed instead of
        the derived one; without a leading ``neg_`` when the scores are negated.

    Returns
    -------
    MetricName
        ``name``, ``scoring``, ``sign`` and ``note``; ``str()`` is the name.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair.metrics import metric_display_name
    >>> rmse = metric_display_name("neg_root_mean_squared_error")
    >>> rmse.name, rmse.sign
    ('RMSE', -1)
    >>> print(rmse.note)  # doctest: +NORMALIZE_WHITESPACE
    scikit-learn's 'neg_root_mean_squared_error' is the RMSE negated so that higher
    is better; printed here as the positive RMSE, lower is better
    >>> str(metric_display_name("roc_auc_ovr")), str(metric_display_name("kappa"))
    ('ROC AUC (one-vs-rest)', "Cohen's kappa")
    >>> metric_display_name(None, estimator=LogisticRegression()).name
    'accuracy'
    """
    note = ""
    if scoring is None:
        derived, note = _default_score(estimator)
        sign = 1
    elif isinstance(scoring, str):
        derived, sign = _from_name(scoring)
    else:
        derived, sign = _from_callable(scoring)
    if name is not None:
        if sign < 0 and name.startswith(_NEGATED):
            name = name[len(_NEGATED) :]
        derived = _words(name) if _is_known(name) else name
    if sign < 0:
        source = f"'{scoring}'" if isinstance(scoring, str) else "the scorer"
        note = (
            f"scikit-learn's {source} is the {derived} negated so that higher is better; "
            f"printed here as the positive {derived}, lower is better"
        )
    return MetricName(name=derived, scoring=scoring, sign=sign, note=note)
