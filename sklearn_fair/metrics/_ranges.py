"""The range of a scorer's values: a cache entry or a results file holding a score outside it
(an accuracy of 1.5, a negated error above 0) is refused (``model_selection/_nested/_cache.py``).
"""

import math
import sys

from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.utils._param_validation import validate_parameter_constraints

from ..utils._provenance import qualified_name
from ._scorer import get_scorer, get_scorer_names

_INF = math.inf
# errors, losses and deviances in [0, inf): lower is better
_UNBOUNDED_ERRORS = (
    "log_loss",
    "hinge_loss",
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_error",
    "median_absolute_error",
    "max_error",
    "mean_squared_log_error",
    "root_mean_squared_log_error",
    "mean_absolute_percentage_error",
    "mean_poisson_deviance",
    "mean_gamma_deviance",
    "mean_tweedie_deviance",
    "mean_pinball_loss",
    "negative_likelihood_ratio",
    "coverage_error",  # multilabel: at least the mean number of true labels, at best
)
# The metric functions of scikit-learn and of sklearn_fair.metrics, by name, and their ranges
# (of the metric itself: a scorer's sign is applied below).
_RANGES = {
    **dict.fromkeys(
        (
            "accuracy_score",
            "balanced_accuracy_score",
            "precision_score",
            "recall_score",
            "f1_score",
            "fbeta_score",
            "jaccard_score",
            "roc_auc_score",
            "average_precision_score",
            "top_k_accuracy_score",
            "hamming_loss",
            "zero_one_loss",
            "rand_score",
            "fowlkes_mallows_score",
            "normalized_mutual_info_score",
            "v_measure_score",
            "homogeneity_score",
            "completeness_score",
            "sensitivity",
            "specificity",
            "ppv",
            "npv",
            "label_ranking_loss",
            "label_ranking_average_precision_score",
            "ndcg_score",
        ),
        (0.0, 1.0),
    ),
    **dict.fromkeys(
        (
            "matthews_corrcoef",
            "cohen_kappa_score",
            "kappa",
            "adjusted_rand_score",
            "concordance_correlation_coefficient",
        ),
        (-1.0, 1.0),
    ),
    "brier_score_loss": (0.0, 2.0),  # multiclass, unscaled: up to 2
    **dict.fromkeys(
        (
            "r2_score",
            "explained_variance_score",
            "d2_absolute_error_score",
            "d2_pinball_score",
            "d2_tweedie_score",
            "d2_log_loss_score",
            "d2_brier_score",
            "adjusted_mutual_info_score",  # at most 1; its least value depends on the data
        ),
        (-_INF, 1.0),
    ),
    **dict.fromkeys(
        (*_UNBOUNDED_ERRORS, "mutual_info_score", "positive_likelihood_ratio"), (0.0, _INF)
    ),
    "dcg_score": (-_INF, _INF),  # higher is better; negative relevances give negative DCGs
}
_MODULES = ("sklearn.metrics", "sklearn_fair.metrics")
# The metrics of _RANGES where lower is better (errors, losses, deviances, LR-); higher is
# better for every other one there.
_LOWER_IS_BETTER = frozenset(
    (*_UNBOUNDED_ERRORS, "hamming_loss", "zero_one_loss", "brier_score_loss", "label_ranking_loss")
)

# ``score`` methods that are accuracy (or R^2) though not the mixin's own: they only check their
# input and call ``super().score``, or (MultiOutputClassifier's) compute accuracy_score's subset
# accuracy of a multilabel y themselves. By qualified name, so that no module is imported to
# compare.
_ACCURACY_METHODS = {
    "sklearn.dummy.DummyClassifier.score",
    "sklearn.multioutput.MultiOutputClassifier.score",
    "sklearn.neighbors._classification.KNeighborsClassifier.score",
    "sklearn.neighbors._classification.RadiusNeighborsClassifier.score",
    "sklearn_fair.graph._classifier.GraphClassifier.score",
}
_R2_METHODS = {"sklearn.dummy.DummyRegressor.score"}
# ``score`` methods that return the final step's score (the steps before transform X).
_PIPELINE_METHODS = {"sklearn.pipeline.Pipeline.score", "imblearn.pipeline.Pipeline.score"}
_SEARCH_METHOD = "sklearn.model_selection._search.BaseSearchCV.score"
_LOGISTIC_CV_METHOD = "sklearn.linear_model._logistic.LogisticRegressionCV.score"


def default_score_metric(estimator):
    """What ``estimator.score`` computes: "accuracy", "r2", or None when that is not known.

    ``ClassifierMixin.score`` is accuracy and ``RegressorMixin.score`` R^2, but an estimator
    may override ``score``: ``LogisticRegressionCV.score`` uses its own ``scoring`` (accuracy
    only when that is None), a search's ``score`` its ``scoring`` (the estimator's score when
    that is None), a pipeline's the final step's, a GLM's is D^2. Only the mixins' own methods,
    the few that just call them, and these wrappers around them are named here.
    """
    method = getattr(type(estimator), "score", None)
    if estimator is None or method is None:
        return None
    if method is ClassifierMixin.score:
        return "accuracy"
    if method is RegressorMixin.score:
        return "r2"
    qualified = qualified_name(method)
    if qualified in _ACCURACY_METHODS:
        return "accuracy"
    if qualified in _R2_METHODS:
        return "r2"
    if qualified in _PIPELINE_METHODS:
        steps = getattr(estimator, "steps", None) or []
        final = steps[-1][1] if steps else None
        return None if final is None or isinstance(final, str) else default_score_metric(final)
    if qualified == _SEARCH_METHOD:
        if getattr(estimator, "scoring", None) is None:
            return default_score_metric(getattr(estimator, "estimator", None))
        return None
    if qualified == _LOGISTIC_CV_METHOD:
        # LogisticRegressionCV._get_scorer: get_scorer(self.scoring or "accuracy")
        scoring = getattr(estimator, "scoring", None)
        return "accuracy" if scoring in (None, "warn", "accuracy") else None
    return None


def metric_direction(function):
    """1 where a higher value of the metric ``function`` is better, -1 where a lower one is,
    None for a function not known here: known only by identity, as the function that a module
    of scikit-learn's or of sklearn_fair's metrics defines under its name (a user's own
    ``mean_absolute_error`` is not known)."""
    name = _known_name(function)
    if name is None or getattr(sys.modules.get(function.__module__), name, None) is not function:
        return None
    return -1 if name in _LOWER_IS_BETTER else 1


def _known_name(function):
    """The name of ``function`` among :data:`_RANGES` where a module of scikit-learn's or of
    sklearn_fair's metrics defines it, else None."""
    name = getattr(function, "__name__", None)
    module = getattr(function, "__module__", None) or ""
    return name if name in _RANGES and module.startswith(_MODULES) else None


def _metric_range(function, kwargs):
    name = _known_name(function)
    if name is None:
        return (-_INF, _INF)
    if kwargs.get("normalize") is False:  # accuracy_score, zero_one_loss: counts
        return (0.0, _INF)
    if name == "balanced_accuracy_score" and kwargs.get("adjusted"):
        return (-1.0, 1.0)
    return _RANGES[name]


def score_range(scorer):
    """The interval ``(low, high)`` that every value of ``scorer`` lies in.

    Parameters
    ----------
    scorer : str or callable
        A scorer name, resolved by :func:`get_scorer` (ours or scikit-learn's), a scorer made
        by :func:`sklearn.metrics.make_scorer` or :func:`get_scorer` from a metric of
        scikit-learn or of sklearn-fair (the sign of a negated error applied:
        ``"neg_log_loss"`` lies in ``(-inf, 0]``; its keyword arguments too:
        ``adjusted=True`` puts balanced accuracy in ``[-1, 1]``), or an estimator's default
        ``score`` (accuracy's or R^2's range only where ``score`` is known to compute them;
        ``LogisticRegressionCV(scoring="neg_log_loss").score`` is of unknown range).

    Returns
    -------
    low, high : float
        ``(-inf, inf)`` for a scorer of unknown range (the user's own metric).

    Raises
    ------
    ValueError
        For a name that :func:`get_scorer` does not know, listing the valid ones.
    sklearn.utils._param_validation.InvalidParameterError
        For a ``scorer`` that is neither a str nor a callable (a ``TypeError`` and a
        ``ValueError``): ``score_range(5)`` is a mistake, not a scorer of unknown range.

    Examples
    --------
    >>> from sklearn_fair.metrics import get_scorer, score_range
    >>> score_range(get_scorer("accuracy"))
    (0.0, 1.0)
    >>> score_range(get_scorer("neg_root_mean_squared_error"))
    (-inf, 0.0)
    >>> score_range("neg_log_loss")
    (-inf, 0.0)
    >>> score_range(lambda estimator, X, y: 0.5)
    (-inf, inf)
    """
    validate_parameter_constraints(
        {"scorer": [str, callable]}, {"scorer": scorer}, caller_name="score_range"
    )
    if isinstance(scorer, str):
        if scorer not in get_scorer_names():
            raise ValueError(
                "The 'scorer' parameter of score_range must be a valid scorer name or a "
                f"scorer. Got {scorer!r} instead. Valid names: {', '.join(get_scorer_names())}."
            )
        scorer = get_scorer(scorer)
    estimator = getattr(scorer, "_estimator", None)  # check_scoring's estimator.score
    if estimator is not None and not hasattr(scorer, "_score_func"):
        # unknown for an overridden score: LogisticRegressionCV(scoring=...), a GLM
        kind = default_score_metric(estimator)
        return {"accuracy": (0.0, 1.0), "r2": (-_INF, 1.0)}.get(kind, (-_INF, _INF))
    function = getattr(scorer, "_score_func", None)
    if function is None:
        return (-_INF, _INF)
    kwargs = getattr(scorer, "_kwargs", None) or {}
    low, high = _metric_range(function, kwargs)
    if getattr(scorer, "_sign", 1) < 0:
        low, high = -high, -low
    return (float(low) + 0.0, float(high) + 0.0)  # + 0.0: no negative zero
