"""How a metric is named in print, and the sign of errors: the one place that decides both.

scikit-learn negates every error so that a higher score is better ("neg_root_mean_squared_error"
scores -0.53 for an RMSE of 0.53); printed numbers show errors as the positive errors they are.
"""

import functools
import inspect
import math
import numbers
import re
import warnings
from dataclasses import asdict, dataclass, replace

import numpy as np
from sklearn.utils._param_validation import validate_params

from ..exceptions import SklearnFairWarning
from ..utils._hashing import fingerprint_of_numbers
from ..utils._printing import plain
from ..utils._provenance import qualified_name
from ..utils._stacklevel import external_stacklevel
from ._ranges import (
    _PIPELINE_METHODS,
    _SEARCH_METHOD,
    default_score_metric,
    metric_direction,
    score_range,
)
from ._scorer import get_scorer, get_scorer_names

# Names built from initials, or spelled differently from the scorer's words. Any other
# scorer is named by its words ("balanced_accuracy" -> "balanced accuracy").
_SPELLED = {
    "r2": "R^2",
    "roc_auc": "ROC AUC",
    "f1": "F1",
    "fbeta": "F-beta",
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
# Metric functions named otherwise than their scorer: the scorer name that names them.
_FUNCTION_STEMS = {
    "concordance_correlation_coefficient": "ccc",
    "cohen_kappa_score": "kappa",
    "r2_score": "r2",
    "fbeta_score": "fbeta",
}
# Keyword arguments printed in words (others as key=value).
_WORDED = {
    "average": lambda value: f"{value} average" if value in _AVERAGES else None,
    "multi_class": lambda value: _MULTICLASS.get(value) if isinstance(value, str) else None,
    "weights": lambda value: f"{value} weights" if value in ("linear", "quadratic") else None,
}
_LONGEST_VALUE = 40
_OWN_SCORE = "the estimator's own score method (scoring=None)"
# how a weighted metric's note records the weights its scorer received: a short fingerprint
_WEIGHTS = "scored with the sample_weight "
_WEIGHTED = " weighted by sample_weight"
# The parameters by which scikit-learn's own score methods choose their metric
# (LogisticRegressionCV's and a search's scoring, TweedieRegressor's power).
_SCORE_PARAMETERS = ("scoring", "power")
# A default repr's address differs from one run to the next, for the same function.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
# scikit-learn's repr of a scorer, "make_scorer(f1_score, response_method='predict', ...)",
# and the ", " before each of its keyword arguments (a value may hold ", " itself: [0, 1])
_MAKE_SCORER = re.compile(r"make_scorer\((.*)\)", re.DOTALL)
_ARGUMENT = re.compile(r", (?=\w+=)")
# NumPy's str of a 1-D array, "[0 1 2]" or "['a' 'b']" (a list's repr has commas), and its
# elements
_ARRAY = re.compile(r"\[([^\[\],]*\s[^\[\],]*)\]")
_ELEMENT = re.compile(r"'[^']*'|\"[^\"]*\"|[^\s'\"]+")
# the classes whose score runs another's (a pipeline's last step's, a search's estimator's)
_DELEGATES = re.compile(
    r"(Pipeline|GridSearchCV|RandomizedSearchCV|HalvingGridSearchCV|HalvingRandomSearchCV)"
    r"\.score"
)


def score_range_problem(scoring, bounds):
    """Why ``bounds`` cannot be the ``score_range`` of a :class:`MetricName` of ``scoring``, in
    words ("must be ..."); None where they can: None, or where ``scoring`` is a saved scorer
    object's repr (a str that names no scorer, which alone does not say its range), two
    numbers (not NaN), None for an unbounded end, low first."""
    if bounds is None:
        return None
    if not isinstance(scoring, str) or scoring in get_scorer_names():
        return (
            "must be None but for a saved scorer object (its scoring the text of its repr): "
            "a scorer name or object decides its own range"
        )
    real = (numbers.Real, np.floating, np.integer)
    if (
        not isinstance(bounds, (list, tuple))
        or len(bounds) != 2
        or not all(
            b is None or (isinstance(b, real) and not isinstance(b, bool) and not math.isnan(b))
            for b in bounds
        )
    ):
        return "must be two numbers (not NaN), None for an unbounded end"
    if None not in bounds and bounds[0] > bounds[1]:
        return "must be low first"
    return None


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
    score_range : tuple of float or None, default=None
        ``(low, high)`` of the scorer's values (:func:`~sklearn_fair.metrics.score_range`,
        in the scorer's units) as a saved result records it for a scorer object, whose
        ``scoring`` is saved as its repr (an unbounded end saved as None: strict JSON has no
        infinity); None where ``scoring`` decides (in memory, or a scorer name) or in a
        result saved before sklearn-fair recorded it.
    """

    name: str
    scoring: object
    sign: int
    note: str
    score_range: tuple = None

    def __post_init__(self):
        problem = score_range_problem(self.scoring, self.score_range)
        if problem is not None:
            raise ValueError(
                f"The 'score_range' parameter of MetricName {problem}. Got "
                f"{self.score_range!r:.80} for scoring={self.scoring!r:.80}."
            )
        if self.score_range is not None:  # a saved [low, high], None for an unbounded end
            low, high = self.score_range
            bounds = (
                -math.inf if low is None else float(low),
                math.inf if high is None else float(high),
            )
            object.__setattr__(self, "score_range", bounds)

    @property
    def greater_is_better(self):
        """Whether a higher printed value is better (False for an error such as RMSE)."""
        return self.sign > 0

    def values(self, scores):
        """The printed values of ``scores``: ``sign * scores`` as a float array."""
        return self.sign * np.asarray(scores, dtype=float)

    def to_dict(self):
        """The fields as a JSON-safe dict (``MetricName(**d)`` makes it again): a scorer
        object as its repr, with the range of its values (``score_range``), which the repr
        does not say."""
        fields = asdict(self)
        bounds = fields.pop("score_range")
        if not (self.scoring is None or isinstance(self.scoring, str)):
            fields["scoring"] = repr(self.scoring)
            bounds = score_range(self.scoring) if callable(self.scoring) else None
        if bounds is not None:
            fields["score_range"] = [None if math.isinf(bound) else bound for bound in bounds]
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
    if text.startswith(_NEGATED) and text in get_scorer_names():
        return _words(text[len(_NEGATED) :]), -1
    if _is_known(text):
        return _words(text), 1
    # the user's own name, kept as written: "neg_kappa" is no scorer of a negated kappa
    return text, 1


def _same(value, default):
    if value is default:
        return True
    try:
        return type(value) is type(default) and bool(value == default)
    except (TypeError, ValueError):  # arrays: ambiguous truth value
        return False


def _qualifiers(function, kwargs):
    """The printed qualifiers of a scorer's keyword arguments that differ from the defaults.

    ``make_scorer(balanced_accuracy_score, adjusted=True)`` is "adjusted=True", an averaged
    scorer "macro average", a one-vs-rest ROC AUC "one-vs-rest", a weighted kappa "quadratic
    weights", the averaging first as in the scorer names ("roc_auc_ovr_weighted").
    """
    if not kwargs:
        return []
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        parameters = {}
    kwargs = dict(kwargs)
    if kwargs.get("average") not in (None, "binary"):
        kwargs.pop("pos_label", None)  # ignored by an averaged metric ("f1_macro" sets None)
    order = ["multi_class", "average"]
    keys = [key for key in order if key in kwargs] + [key for key in kwargs if key not in order]
    qualifiers = []
    for key in keys:
        value = kwargs[key]
        default = getattr(parameters.get(key), "default", inspect.Parameter.empty)
        if default is not inspect.Parameter.empty and _same(value, default):
            continue
        worded = _WORDED[key](value) if key in _WORDED else None
        if worded is None:
            text = repr(plain(value))
            if len(text) > _LONGEST_VALUE:
                text = text[: _LONGEST_VALUE - 3] + "..."
            worded = f"{key}={text}"
        qualifiers.append(worded)
    return qualifiers


def _function_stem(label):
    """The scorer-name stem of a metric function's name, or None when it is not one we know."""
    if label in _FUNCTION_STEMS:
        return _FUNCTION_STEMS[label]
    for stem in (label.removesuffix("_score"), label, label.removesuffix("_loss")):
        if _is_known(stem) or _is_known(_NEGATED + stem):
            return stem
    return None


def _is_score(stem):
    """Whether the metric of the scorer-name stem ``stem`` is higher-is-better: a scorer name
    (every scorer is), or a metric of no negated scorer ("fbeta"); not an error whose scorer
    name negates it ("mean_squared_error", "brier_score", "max_error")."""
    return stem in get_scorer_names() or _NEGATED + stem not in get_scorer_names()


@functools.cache
def _scorer_names_of(function, sign):
    """The scorer names whose scorer computes ``function`` with ``sign``, shortest first."""
    names = []
    for name in get_scorer_names():
        scorer = get_scorer(name)
        if getattr(scorer, "_score_func", None) is function and scorer._sign == sign:
            names.append(name)
    return sorted(names, key=lambda name: (len(name), name))


def check_scorer_direction(scorer, owner, key=None, *, selects=True):
    """Raise a ValueError where ``scorer`` is made from a metric known to be better lower (an
    error) with ``greater_is_better=True``, or from one known to be better higher with
    ``greater_is_better=False``: it would select the worst candidates and reverse every
    comparison. ``owner`` is the function or class whose ``scoring`` parameter it was given
    to, ``key`` its key in a ``scoring`` dict, if any. A metric that does not select
    (``selects=False``: another key of the dict selects) is only reported, compared and
    ranked, as scikit-learn's ``cross_validate`` reports it: a warning says its comparisons
    are reversed. Scorers of other functions (the user's own) are left alone."""
    function = getattr(scorer, "_score_func", None)
    sign = getattr(scorer, "_sign", None)
    if function is None or not isinstance(sign, numbers.Real) or sign == 0:
        return
    direction = metric_direction(function)
    if direction is None or (sign > 0) == (direction > 0):
        return
    label = function.__name__
    stem = _function_stem(label)
    metric = f"{_words(stem)} ({label})" if stem is not None else label
    names = _scorer_names_of(function, direction)
    shown = _ADDRESS.sub("", repr(scorer))
    given = f"The 'scoring' parameter of {owner} " + (
        f"is {shown}" if key is None else f"maps {key!r} to {shown}"
    )
    if direction < 0:
        what = f"maximises {metric}, an error: lower is better"
        fix = f"make_scorer({label}, greater_is_better=False)"
    else:
        what = f"minimises {metric}, a score: higher is better"
        fix = f"make_scorer({label}) (greater_is_better=True, the default)"
    instead = f"Pass {fix}" + (f", or the scorer name {names[0]!r}" if names else "") + " instead."
    if not selects:
        warnings.warn(
            f"{given}, which {what}. It does not select the hyper-parameters here, but every "
            f"comparison and rank of it would be reversed. {instead}",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )
        return
    raise ValueError(
        f"{given}, which {what}. Every selection would pick the worst candidate and every "
        f"comparison would be reversed. {instead}"
    )


# Metric functions that compute one metric under two names: a recall (of one class against the
# rest) is the sensitivity, a precision the PPV without a prevalence, and of the labels 0 and 1
# the specificity is the recall of pos_label=0, the NPV its precision; an F-beta of beta=1 is
# the F1, sklearn-fair's kappa scikit-learn's. A key of one over a scorer of the other names the
# metric the scorer computes, a key over any other metric does not ("balanced_accuracy" over a
# recall, "npv" over a PPV, "ppv" over a PPV at a prevalence: each is another number). A
# pos_label other than 0 and 1 ("yes") is the key's positive class: {"sensitivity":
# make_scorer(recall_score, pos_label="yes")} is the sensitivity of "yes", not a specificity.
_RATES = {
    "recall_score": "sensitivity",
    "sensitivity": "sensitivity",
    "specificity": "specificity",
    "precision_score": "ppv",
    "ppv": "ppv",
    "npv": "npv",
}
# a rate of the class 0 against the class 1 is the other rate of the class 1 against the class 0
_OF_THE_OTHER_CLASS = {"specificity": "sensitivity", "npv": "ppv"}


def _default_of(function, parameter):
    try:
        default = inspect.signature(function).parameters[parameter].default
    except (KeyError, TypeError, ValueError):
        return None
    return None if default is inspect.Parameter.empty else default


def _is_0_or_1(label):
    return isinstance(label, (numbers.Real, np.bool_)) and label in (0, 1)


def _metric_of(function, kwargs):
    """The metric that a scorer of ``function`` with ``kwargs`` computes as (metric, class),
    the same for two functions that compute one metric; the class scored against the rest
    where the metric is one class's rate, else None."""
    name = function.__name__
    if name == "cohen_kappa_score":
        return "kappa", None
    beta = kwargs.get("beta")
    if name == "fbeta_score" and isinstance(beta, numbers.Real) and beta == 1:
        return "f1_score", None
    average = kwargs.get("average", _default_of(function, "average") or "binary")
    if name not in _RATES or average != "binary" or kwargs.get("prevalence") is not None:
        return name, None
    return _RATES[name], positive_class(function, kwargs)


def positive_class(function, kwargs):
    """The class that a scorer of ``function`` with ``kwargs`` scores against the rest: its
    ``pos_label``, else the default of ``function`` (None where it has no ``pos_label``)."""
    return kwargs.get("pos_label", _default_of(function, "pos_label"))


def _of_class_1(metric):
    """A (metric, class) of the labels 0 and 1 as the rate of the class 1 it is (the
    specificity of 1 is the sensitivity of 0), another as it is."""
    rate, positive = metric
    if rate in _OF_THE_OTHER_CLASS and _is_0_or_1(positive):
        return _OF_THE_OTHER_CLASS[rate], 1 - int(positive)
    return metric


def _scorer_of(scoring):
    """The scorer of the scorer name ``scoring`` (or of its negation, "mean_absolute_error"
    is "neg_mean_absolute_error"'s), a scorer as given, or None for a name of no scorer."""
    if not isinstance(scoring, str):
        return scoring
    for candidate in (scoring, _NEGATED + scoring):
        try:
            return get_scorer(candidate)
        except ValueError:
            continue
    return None


def _under_key(scoring, derived, name, key):
    """The printed name of ``scoring`` (printed ``derived`` alone) under ``key`` of a scoring
    dict, a known scorer name (``name`` without the "neg_" of a negated error): the key's words
    where it names the metric the scorer computes, with the scorer's parameters
    ({"kappa": make_kappa_scorer(weights="quadratic")} is not the plain "kappa"), else the
    scorer's metric with the key ({"kappa": make_scorer(f1_score)} scores F1)."""
    named, scorer = _scorer_of(name), _scorer_of(scoring)
    functions = [getattr(s, "_score_func", None) for s in (named, scorer)]
    known = all(f is not None and metric_direction(f) is not None for f in functions)
    if known and functions[0] is not functions[1]:
        kwargs = getattr(scorer, "_kwargs", None) or {}
        metrics = [_metric_of(functions[0], getattr(named, "_kwargs", None) or {})]
        metrics.append(_metric_of(functions[1], kwargs))
        absorbed = {"beta"} | ({"pos_label", "average"} if metrics[1][1] is not None else set())
        if _of_class_1(metrics[0]) != _of_class_1(metrics[1]):
            # the key's rate of another positive class, printed with it ({"sensitivity":
            # make_scorer(recall_score, pos_label="yes")}); of the labels 0 and 1 the other
            # class's rate is another metric ("sensitivity" over a recall of 0: a specificity)
            positive = metrics[1][1]
            if metrics[0][0] != metrics[1][0] or positive is None or _is_0_or_1(positive):
                return f"{derived} (under the key {key!r})"
            absorbed -= {"pos_label"}
        # the key's metric, with the parameters of the scorer but those that make it the
        # key's ({"specificity": make_scorer(recall_score, pos_label=0)})
        qualifiers = _qualifiers(
            functions[1], {k: v for k, v in kwargs.items() if k not in absorbed}
        )
        response = _from_response(scorer, functions[1])
        qualifiers += [response] if response else []
        derived = _words(_function_stem(functions[0].__name__))
        if qualifiers:
            derived = f"{derived} ({', '.join(qualifiers)})"
    return derived if derived.startswith(f"{_words(name)} (") else _words(name)


def _methods(response_method):
    if isinstance(response_method, str):
        return (response_method,)
    return tuple(response_method)


# The responses that rank the rows (scikit-learn's "roc_auc" takes the first of
# decision_function and predict_proba an estimator has): one kind, whatever their order.
# What each response method gives: labels, probabilities (log ones too) or decision values.
_RESPONSE_KINDS = {
    "predict": "labels",
    "predict_proba": "probabilities",
    "predict_log_proba": "probabilities",
    "decision_function": "decision values",
}


def _response_kind(response_method):
    """The kinds of response that ``response_method`` may score (:data:`_RESPONSE_KINDS`; a
    method of another name stands for itself): ("predict_proba", "predict") scores labels
    where the estimator has no predict_proba."""
    return frozenset(_RESPONSE_KINDS.get(m, m) for m in _methods(response_method))


@functools.cache
def _named_responses(function):
    """The kinds of response (:func:`_response_kind`) of the scorer names whose scorer
    computes ``function``."""
    responses = set()
    for name in get_scorer_names():
        scorer = get_scorer(name)
        response = getattr(scorer, "_response_method", None)
        if getattr(scorer, "_score_func", None) is function and response is not None:
            responses.add(_response_kind(response))
    return frozenset(responses)


def _from_response(scorer, function):
    """The qualifier "from predicted labels" (or "from predict_proba", ...) where ``scorer``
    scores ``function`` from another kind of response of the estimator than every scorer name
    of it does (scikit-learn's make_scorer(log_loss) scores the predicted labels, "neg_log_loss"
    the probabilities), else None. A response among those a scorer name takes is its own:
    "roc_auc" scores decision values or probabilities, whichever the estimator has, while
    "neg_log_loss" scores probabilities only."""
    method = getattr(scorer, "_response_method", None)
    named = _named_responses(function)
    if method is None or not named or any(_response_kind(method) <= kinds for kinds in named):
        return None
    method = _methods(method)
    return "from predicted labels" if method == ("predict",) else f"from {' or '.join(method)}"


def scorer_metric(scorer):
    """The metric function and keyword arguments of a scorer made by
    :func:`sklearn.metrics.make_scorer`, from the attributes scikit-learn does not document
    (``_score_func``, ``_kwargs``); ``(None, {})`` for another callable."""
    return getattr(scorer, "_score_func", None), getattr(scorer, "_kwargs", None) or {}


def _from_callable(scorer):
    # A scorer made by make_scorer keeps its metric function, the sign of greater_is_better
    # and its keyword arguments in attributes scikit-learn does not document (_score_func,
    # _sign, _kwargs); read them when present rather than print an anonymous "custom scorer".
    function, kwargs = scorer_metric(scorer)
    if function is None and getattr(scorer, "_estimator", None) is not None:
        return _default_score(scorer._estimator)[0], 1  # check_scoring(estimator)
    sign = -1 if getattr(scorer, "_sign", 1) < 0 else 1
    label = getattr(function if function is not None else scorer, "__name__", None)
    if label is None:
        return f"custom scorer {scorer!r}", sign
    stem = _function_stem(label)
    if function is None and stem is not None and not _is_score(stem):
        # the user's scorer(estimator, X, y) named after an error returns it negated, higher
        # is better: printed as that error, "MSE", its values would read as the error's
        stem = None
    name = _words(stem) if stem is not None else f"custom scorer {label}"
    qualifiers = []
    if function is not None:
        qualifiers = _qualifiers(function, kwargs)
        response = _from_response(scorer, function)
        qualifiers += [response] if response else []
    if qualifiers:
        name = f"{name} ({', '.join(qualifiers)})"
    return name, sign


def _score_owner(estimator):
    """Whose score method scores ``estimator`` with scoring=None, in words: the class whose
    ``score`` runs (a pipeline's final step's, a search's estimator's when the search has no
    scoring of its own) with the parameters that choose its metric, and what it runs through:
    "PoissonRegressor.score (through Pipeline.score)", "TweedieRegressor.score with
    power=1.5"."""
    through = []
    while True:
        method = qualified_name(getattr(type(estimator), "score", None))
        if method in _PIPELINE_METHODS:
            steps = getattr(estimator, "steps", None) or [(None, None)]
            inner = steps[-1][1]
        elif method == _SEARCH_METHOD and getattr(estimator, "scoring", None) is None:
            inner = getattr(estimator, "estimator", None)
        else:
            inner = None
        if inner is None or isinstance(inner, str):
            break
        through.append(f"{type(estimator).__name__}.score")
        estimator = inner
    try:
        parameters = estimator.get_params(deep=False)
    except Exception:  # not a scikit-learn estimator: its class alone
        parameters = {}
    chosen = ", ".join(
        f"{key}={_ADDRESS.sub('', repr(parameters[key]))}"
        for key in _SCORE_PARAMETERS
        if key in parameters
    )
    owner = f"{type(estimator).__name__}.score" + (f" with {chosen}" if chosen else "")
    return f"{owner} (through {', '.join(through)})" if through else owner


def _default_score(estimator):
    name = {"accuracy": "accuracy", "r2": "R^2"}.get(default_score_metric(estimator))
    if name is not None:
        return name, f"the estimator's default score (scoring=None): {name}"
    if estimator is not None and hasattr(estimator, "score"):
        return "score", (
            f"{_OWN_SCORE}: {_score_owner(estimator)}, "
            "not known to be accuracy or R^2, so of unknown range"
        )
    return "score", _OWN_SCORE


def weighted_metric(metric, weights):
    """``metric`` scored with ``weights`` as ``sample_weight``: "R^2 weighted by
    sample_weight", which neither compares nor subtracts as plain R^2, with a short
    fingerprint of the weights in its note, so that metrics weighted by different weights are
    not :func:`same_metric` (of their numbers: a pandas Series and an array of the same
    weights are one weighting)."""
    mark = _WEIGHTS + fingerprint_of_numbers(weights)[: len("sha256:") + 12]
    note = f"{metric.note}; {mark}" if metric.note else mark
    return replace(metric, name=metric.name + _WEIGHTED, note=note)


def _weights_in(note):
    """The short fingerprint of the weights that ``note`` records (:func:`weighted_metric`),
    or None: unweighted, or weighted before sklearn-fair recorded which weights."""
    _, found, weights = note.rpartition(_WEIGHTS)
    return weights if found else None


def _owner_in(note):
    """Whose score method the note of an estimator's own score names (what it runs through
    left out: a pipeline's score is its final step's), "" where it names none, or None for
    the note of another metric."""
    note = note.split(f"; {_WEIGHTS}")[0]
    if not note.startswith(_OWN_SCORE):
        return None
    owner = note[len(_OWN_SCORE) :].removeprefix(": ").split(", not known")[0]
    if " (through " not in owner and _DELEGATES.fullmatch(owner):
        return ""  # a note of an earlier version: the class given, whose score runs another's
    return owner.split(" (through ")[0]


def metric_source(metric):
    """What ``metric``'s scores measure, as far as its record says, or None where it does not.

    Two metrics print alike when a ``scoring`` dict gives them the same key, or when two
    estimators' own score methods, each a different metric, are both "score": their sources
    tell them apart. A scorer's source is the scorer as scikit-learn prints it (a name is
    resolved first, so that "accuracy" and ``get_scorer("accuracy")`` are one), a default
    score of accuracy or R^2 that of "accuracy" or "r2", another estimator's own score the
    class whose score it is, as its :attr:`MetricName.note` names it ("PoissonRegressor.score",
    a pipeline's its final step's). Only fields that a saved result keeps are read, so that a
    result read back has the source of the one that was saved (a callable's address, which
    differs from one run to the next, is left out).
    """
    scoring = metric.scoring
    if scoring is None:
        scoring = {"accuracy": "accuracy", "R^2": "r2"}.get(metric.name)
        if scoring is None:
            return _owner_in(metric.note) or None
    if isinstance(scoring, str):
        try:
            scoring = get_scorer(scoring)
        except ValueError:  # the repr of a saved callable, or a user's own key
            return _canonical(scoring)
    return _canonical(repr(scoring))


def _canonical(text):
    """A scorer's repr as one metric prints it whatever the order of its keyword arguments,
    without a pos_label that an averaged metric ignores ("f1_macro" carries ``pos_label=None``,
    ``make_scorer(f1_score, average="macro")`` none) or a callable's address."""
    text = _ADDRESS.sub("", text)
    match = _MAKE_SCORER.fullmatch(text)
    if match is None:
        return text
    function, *arguments = _ARGUMENT.split(match.group(1))
    averaged = any(a.startswith("average=") and a != "average=binary" for a in arguments)
    if averaged:
        arguments = [a for a in arguments if not a.startswith("pos_label=")]
    # a keyword at the default of the metric, scikit-learn's ("f1" spells average=binary
    # out) or ours ("ppv" spells prevalence=None out, make_scorer(ppv) does not)
    defaults = _metric_defaults(function)
    arguments = [_listed(a) for a in arguments if a not in defaults]
    return f"make_scorer({', '.join([function, *sorted(arguments)])})"


def _listed(argument):
    """A keyword argument whose value is a NumPy array printed as a list is: a scorer's repr
    prints ``labels=np.array([0, 1, 2])`` as "labels=[0 1 2]", ``labels=[0, 1, 2]`` as
    "labels=[0, 1, 2]"."""
    key, _, value = argument.partition("=")
    match = _ARRAY.fullmatch(value)
    if match is None:
        return argument
    return f"{key}=[{', '.join(_ELEMENT.findall(match.group(1)))}]"


@functools.cache
def _metric_defaults(function):
    """``"name=default"`` of each keyword of the metric named ``function``, scikit-learn's or
    ours, as a scorer's repr prints it (empty for another function)."""
    import sklearn.metrics

    from .. import metrics

    metric = getattr(sklearn.metrics, function, None) or getattr(metrics, function, None)
    try:
        parameters = inspect.signature(metric).parameters.values()
    except (TypeError, ValueError):
        return frozenset()
    return frozenset(
        f"{p.name}={p.default}" for p in parameters if p.default is not inspect.Parameter.empty
    )


def same_metric(metrics):
    """Whether every one of ``metrics`` (MetricName) is one metric: the same printed name and
    sign, and the same :func:`metric_source` and weights where each records them (a result
    saved without its metric, or before sklearn-fair recorded whose score it is or which
    weights, by name and sign only)."""
    metrics = list(metrics)
    if len({(metric.name, metric.sign) for metric in metrics}) > 1:
        return False
    if len({_weights_in(metric.note) for metric in metrics} - {None}) > 1:
        return False
    sources = {metric_source(metric) for metric in metrics} - {None}
    # an earlier version named a class's own score without the parameter that chooses its
    # metric ("TweedieRegressor.score"): one with the parameter named says more of it
    sources -= {s.split(" with ")[0] for s in sources if " with " in s}
    return len(sources) <= 1


def how_to_score_alike(metrics):
    """What to do about ``metrics`` (MetricName) that are not one metric (:func:`same_metric`)
    but one metric weighted differently or printed alike: the same weights where their
    weighting differs (one weighted, one not, or different weights), else one common scoring;
    None where they are different metrics."""
    if len({metric.name.removesuffix(_WEIGHTED) for metric in metrics}) > 1:
        return None
    weightings = {(metric.name.endswith(_WEIGHTED), _weights_in(metric.note)) for metric in metrics}
    if len(weightings) > 1:
        return (
            "their scorers were given different sample_weight (or none): fit and score every "
            "result with the same sample_weight, or score them all with the same unweighted "
            "scorer"
        )
    return "score them with one common 'scoring' (a scorer name or scorer, the same for each)"


def describe_metric(metric):
    """``metric`` in words for a message that names metrics printed alike: its name and what
    it scored as the user gave it, "error (scoring='neg_mean_squared_error')", and the
    weights it was scored with where recorded."""
    weights = _weights_in(metric.note)
    weights = "" if weights is None else f", sample_weight {weights}"
    if metric.scoring is not None:
        scoring = metric.scoring if isinstance(metric.scoring, str) else repr(metric.scoring)
        return f"{metric.name} (scoring={scoring!r}{weights})"
    owner = _owner_in(metric.note)
    return f"{metric.name} (scoring=None{': ' + owner if owner else ''}{weights})"


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
        :func:`sklearn.metrics.make_scorer` is named after its metric function, with its sign
        and its keyword arguments that differ from the function's defaults:
        "balanced accuracy (adjusted=True)", "PPV (prevalence=0.05)", and the response it
        scores where every scorer name of the function scores another kind, predicted labels
        against probabilities or decision values: ``make_scorer(log_loss)`` scores the
        predicted labels, "log loss (from predicted labels)"), or None for the estimator's
        default score. A name that is no scorer's is
        printed as written, not negated ("neg_kappa" is not Cohen's kappa negated).
    estimator : estimator, default=None
        With ``scoring=None``: an estimator whose ``score`` is scikit-learn's
        ``ClassifierMixin.score`` prints as "accuracy", ``RegressorMixin.score`` as "R^2"
        (through pipelines and searches with ``scoring=None``); one that overrides ``score``
        (``LogisticRegressionCV(scoring="neg_log_loss")`` scores with its own ``scoring``)
        prints as "score", of unknown range.
    name : str, default=None
        The user's own name for the metric (a key of a ``scoring`` dict), printed instead of
        the derived one; without a leading ``neg_`` when the scores are negated. A scorer's
        name is printed as that scorer is, with the parameters of the scorer given:
        ``{"kappa": make_kappa_scorer(weights="quadratic", labels=[0, 1, 2])}`` prints
        "Cohen's kappa (quadratic weights, labels=[0, 1, 2])", not "Cohen's kappa". A scorer
        name that names another metric than the scorer computes is printed with the key:
        ``{"accuracy": "roc_auc"}`` prints "ROC AUC (under the key 'accuracy')". A rate of a
        positive class other than 0 and 1 is the key's rate of that class:
        ``{"sensitivity": make_scorer(recall_score, pos_label="yes")}`` prints "sensitivity
        (pos_label='yes')".

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
        key = name
        if sign < 0 and name.startswith(_NEGATED):
            name = name[len(_NEGATED) :]
        # a scorer of the user's own under the key of an error ({"max_error": my_scorer})
        # returns it negated, higher is better: the key as written, not the error's name
        own = callable(scoring) and getattr(scoring, "_score_func", None) is None
        if not (_is_known(name) or _is_known(_NEGATED + name)) or (own and not _is_score(name)):
            derived = name
        else:
            derived = _under_key(scoring, derived, name, key)
    if sign < 0:
        source = f"scikit-learn's '{scoring}'" if isinstance(scoring, str) else "the scorer"
        metric = derived if name is None else derived.removesuffix(f" (under the key {key!r})")
        note = (
            f"{source} is the {metric} negated so that higher is better; "
            f"printed here as the positive {metric}, lower is better"
        )
    return MetricName(name=derived, scoring=scoring, sign=sign, note=note)
