"""The label-permutation check: the whole protocol re-run on permuted labels."""

import copy
import numbers
import warnings
from collections import Counter
from dataclasses import dataclass

import numpy as np
from sklearn import get_config
from sklearn.base import is_classifier, is_regressor
from sklearn.model_selection._search import BaseSearchCV
from sklearn.utils._param_validation import InvalidParameterError, validate_params

from .. import metrics
from ..exceptions import GroupLeakageWarning, ReproducibilityWarning, SklearnFairWarning
from ..metrics._names import MetricName
from ..metrics._one_class import check_one_class_names
from ..metrics._ranges import default_score_metric
from ..model_selection import PredefinedSplits, SavedSplits, nested_cross_validate
from ..model_selection._engine import (
    aligned_params,
    check_labels,
    resolve_scorers,
    search_selecting_scoring,
    take,
)
from ..model_selection._nested._data import handed_out
from ..stats import mean_interval
from ..stats._bounds import range_text
from ..stats._summary import _within_range
from ..utils import (
    RANDOM_STATE_CONSTRAINTS,
    EstimatorInstance,
    IntervalNotBool,
    draw_seeds,
    fill_doc,
)
from ..utils._random import named_generator, seed_root
from ..utils._splits import generator_seeded, reusable_splits
from ..utils._validation import labels_1d
from ._duplicates import sample_digests

#: The parameters that audit and permutation_check share.
PERMUTATION_CONSTRAINTS = {
    "estimator": [EstimatorInstance(["fit", "get_params"])],
    "X": ["array-like", "sparse matrix"],
    "y": ["array-like", None],
    "prepare": [callable, None],
    "groups": ["array-like", None],
    # an interval needs two estimates
    "n_permutations": [IntervalNotBool(numbers.Integral, 2, None, closed="left")],
    "chance": [IntervalNotBool(numbers.Real, None, None, closed="neither"), None],
    "tolerance": [IntervalNotBool(numbers.Real, 0, None, closed="left")],
    "confidence": [IntervalNotBool(numbers.Real, 0, 1, closed="neither")],
    "random_state": RANDOM_STATE_CONSTRAINTS,
}
#: Their texts, for :func:`~sklearn_fair.utils.fill_doc`.
PERMUTATION_DOCS = {
    "prepare": """prepare : callable, default=None
    ``prepare(X, y) -> (X, y)``: what you do to the whole data set before splitting
    (selecting features, resampling on all the data). It is re-run on every permutation,
    which shows a step that reads the labels; a step that does not (scaling, imputation,
    PCA fitted on all rows) returns the same ``X`` for every permutation and goes unseen:
    fit it inside the pipeline, where each training fold fits it.""",
    "n_permutations": """n_permutations : int, default=5
    Number of label permutations, at least 2.""",
    "chance": """chance : float, default=None
    The metric's no-skill value, in the range of the scorer's values where it is known
    (accuracy's [0, 1]); by default :func:`chance_level` (0.5 for ROC AUC, 0 for
    kappa, ...) or, for a metric whose no-skill value depends on the model's predictions
    (accuracy and R², whose chance level is only the most a model without skill scores;
    balanced accuracy, 1/k only where every test fold holds all k classes; recall, F1,
    average precision, a custom scorer, an estimator's own ``score``, ...), the model's
    own: the mean score of each permuted run's outer models against shufflings of their
    test folds' labels, which keeps the model's predictions and breaks their link to the
    labels (a model that predicts the minority class too scores below the majority rate,
    and a leak could lift it up to there unseen). Its test folds must hold at least 2
    labels: shuffling a fold of one label leaves it in place (leave-one-out, or
    LeaveOneGroupOut with one label a group), and the model's own chance would be its score,
    leak or not; pass ``chance`` then.""",
    "tolerance": """tolerance : float, default=0.05
    How far above chance the interval's lower bound must be to flag, in the metric's
    units (0.05, not 5 percent): at least 0, and with ``chance`` (given, or of a fixed
    no-skill value such as ROC AUC's 0.5) below the top of the scorer's range, which no
    lower bound exceeds.""",
    "confidence": """confidence : float, default=0.95
    Level of the Student-t interval of the mean permuted-label estimate.""",
}

# metrics whose no-skill value does not depend on the data
_FIXED_CHANCE = dict.fromkeys(
    ["kappa", "matthews_corrcoef", "r2", "explained_variance", "ccc"], 0.0
)
_FIXED_CHANCE |= {
    f"roc_auc{kind}": 0.5 for kind in ("", "_ovr", "_ovo", "_ovr_weighted", "_ovo_weighted")
}

#: Metrics whose chance_level is only the most a model with no skill scores (the majority rate,
#: the mean's 0): one that predicts the minority class too, or noise, scores less, and a leak
#: can lift it up to that level unseen, so the check compares with the model's own. Balanced
#: accuracy averages the recalls of the classes a test fold holds: a fold without a rare class
#: gives the majority predictor 1/2 of 2 classes present, not 1/3, so it too takes the model's.
_CHANCE_AT_MOST = {"accuracy", "r2", "explained_variance", "balanced_accuracy"}

#: The parameters of nested_cross_validate that permutation_check sets itself.
_SET_BY_THE_CHECK = {"n_refits", "return_estimator", "return_indices"}
_SET_BY_THE_CHECK_DOC = (
    "one refit per outer fold; the outer models and their test indices only when it estimates "
    "the model's own chance"
)

#: Shufflings of each test fold's labels that estimate a model's own no-skill value.
_N_SHUFFLES = 10

#: How much larger the share of rows that keep their label, permuted among the groups of each
#: size, may be than that of a permutation of all rows. In a simulation (an honest signal in X,
#: 16 groups of 4 rows and 16 of 8, each size's groups k:16-k of labels 0:1 and the other
#: 16-k:k), 0.06 more lifted the permuted accuracy less than 0.02 above chance, 0.17 more up
#: to 0.08 and 0.34 more (15:1, 88% of the rows against 54%) 0.14 to 0.22, flagged; labels
#: drawn at random for groups of 2 to 4 sizes, 8 to 16 groups a size, gave more than 0.05 in
#: 2% to 30% of the draws (those are permuted row by row).
_KEPT_TOLERANCE = 0.05


@dataclass(frozen=True)
class PermutationReport:
    """Result of :func:`permutation_check`.

    Attributes
    ----------
    scoring : str
        The metric's name. With ``scoring=None``, that of the estimator's own score:
        ``"accuracy"`` or ``"r2"``, a search's own ``scoring`` (its metric that selects), or
        ``"score"`` for a ``score`` method not known to be accuracy or R² (its chance is then
        the model's own).
    chance : float
        The no-skill value the permuted-label estimates are compared with.
    estimate : float or None
        The nested estimate on the real labels (mean over outer folds), when computed.
    permuted_estimates : ndarray of shape (n_permutations,)
        The nested estimate on each permutation of the labels.
    ci_low, ci_high : float
        Student-t interval of the mean permuted-label estimate, clipped to the range of the
        scorer's values where it reaches past it (accuracy's [0, 1], as
        :func:`~sklearn_fair.stats.summarize` clips it; ``ci_method`` then says so).
    confidence : float
        The interval's level.
    tolerance : float
        How far above chance the interval's lower bound must be to flag.
    ci_method : str
        How the interval was made, in words.
    prepare_reads_labels : bool or None
        Whether ``prepare`` returned another ``X`` for some permutation of the labels than
        for the labels as given; None without ``prepare``, or where its ``X`` cannot be
        compared (a ragged list). Where it did not, whatever it does to ``X`` (scaling,
        imputation, PCA fitted on all rows) is the same in every run, and the check cannot
        see it. A ``prepare`` that draws anew on every call (unseeded noise) returns another
        ``X`` too, and counts as reading the labels.
    """

    scoring: str
    chance: float
    estimate: object
    permuted_estimates: np.ndarray
    ci_low: float
    ci_high: float
    confidence: float
    tolerance: float
    ci_method: str = ""
    prepare_reads_labels: object = None

    @property
    def permuted_mean(self):
        """Mean of :attr:`permuted_estimates`."""
        return float(np.mean(self.permuted_estimates))

    @property
    def leaks(self):
        """Whether the permuted-label estimate sits clearly above chance."""
        return bool(self.ci_low > self.chance + self.tolerance)

    @property
    def inconclusive(self):
        """Whether only the permuted mean is more than ``tolerance`` above chance, not the
        interval's lower bound: too few permutations to tell."""
        return not self.leaks and self.permuted_mean > self.chance + self.tolerance

    @property
    def verdict(self):
        """``"leak"`` where the interval's lower bound is more than ``tolerance`` above
        chance; ``"inconclusive: ..."`` where only the permuted mean is (the interval of so
        few permutations is too wide to tell: run more); ``"no leak"`` otherwise."""
        if self.leaks:
            return "leak"
        if self.inconclusive:
            return (
                f"inconclusive: the permuted mean is above chance but "
                f"{len(self.permuted_estimates)} permutations cannot tell (run more)"
            )
        return "no leak"


class _PreparedX:
    """Whether the ``X`` that ``prepare`` returns differs between runs, from the digests of
    its samples: one run's kept, each later run's compared with them and dropped, none taken
    once two differ. ``differ`` is None where an ``X`` cannot be digested (a ragged list)."""

    def __init__(self):
        self._first, self.differ = None, False

    def add(self, X):
        if self.differ is not False:  # decided: they differ, or cannot be told apart
            return
        try:
            digests = sample_digests(X)
        except (TypeError, ValueError):
            self.differ = self._first = None
            return
        if self._first is None:
            self._first = digests
        elif not np.array_equal(digests, self._first):
            self.differ, self._first = True, None


@validate_params(
    {
        "scoring": [str, callable, None],
        "y": ["array-like"],
        "classifier": ["boolean"],
        "pos_label": [numbers.Real, str, "boolean"],
    },
    prefer_skip_nested_validation=True,
)
def chance_level(scoring, y, *, classifier=True, pos_label=1):
    """The score of a model with no skill, for a metric and the labels it is scored on.

    Parameters
    ----------
    scoring : str or None
        The metric's name; ``None`` is the estimator's own ``score``, accuracy for a
        classifier and R² for a regressor.
    y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        The labels. 2-D labels (multilabel, multi-output) only for accuracy (subset
        accuracy), the metrics of fixed chance (ROC AUC, R², ...) and those without a known
        chance level.
    classifier : bool, default=True
        Whether ``scoring=None`` means accuracy (True) or R² (False).
    pos_label : int, float, bool or str, default=1
        The positive class of the precision-like metrics; one of the labels in ``y``.

    Returns
    -------
    chance : float or None
        Accuracy: the majority-class rate (the most a model with no skill scores on
        average); for 2-D labels, the rate of the most frequent row (label set), as subset
        accuracy scores a row right only as a whole. Balanced accuracy: ``1 / n_classes``
        (of a test set that holds every class: scikit-learn averages the recalls of the
        classes present, so :func:`permutation_check` takes the model's own).
        ROC AUC: 0.5. Precision and PPV: the prevalence of ``pos_label``. Kappa, Matthews
        correlation, R², explained variance and CCC: 0. ``None`` for a metric whose no-skill
        value depends on the model's predictions: recall, F1 (a model that predicts more
        positives scores more), average precision (a random ranking of ``k`` positives among
        ``n`` scores more than the prevalence ``k / n``: 0.30 for 5 among 24) and any other;
        :func:`permutation_check` then estimates it from the model itself.

    Raises
    ------
    ValueError
        For precision or PPV when ``pos_label`` is not among the labels, as scikit-learn's
        precision raises; for 2-D labels with balanced accuracy, precision or PPV, and for
        labels of more than two dimensions; for labels that are empty or hold NaN (a missing
        label is no class) where the chance level is read from them.

    Examples
    --------
    >>> from sklearn_fair.leakage import chance_level
    >>> chance_level("accuracy", [0, 0, 0, 1]), chance_level("roc_auc", [0, 0, 0, 1])
    (0.75, 0.5)
    """
    if scoring is None:
        scoring = "accuracy" if classifier else "r2"
    if not isinstance(scoring, str):
        return None
    if scoring in _FIXED_CHANCE:
        return _FIXED_CHANCE[scoring]
    y = np.asarray(y)
    if y.size == 0:
        raise ValueError(
            f"The 'y' parameter of chance_level must hold at least one label for {scoring!r}. "
            f"Got an empty array of shape {y.shape} instead."
        )
    check_labels(y, "The 'y' parameter of chance_level")
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim > 2 or (y.ndim == 2 and scoring in ("balanced_accuracy", "precision", "ppv")):
        raise ValueError(
            f"The 'y' parameter of chance_level must be of shape (n_samples,) for "
            f"{scoring!r}; only accuracy, ROC AUC, R² and explained variance take 2-D labels "
            f"(n_samples, n_outputs). Got an array of shape {y.shape} instead."
        )
    if scoring == "accuracy":
        if y.ndim == 2:  # subset accuracy: a row (label set) is right only as a whole
            counts = np.asarray(list(Counter(map(tuple, y.tolist())).values()))
        else:
            _, counts = np.unique(y, return_counts=True)
        return float(counts.max() / counts.sum())
    if scoring == "balanced_accuracy":
        return float(1 / np.unique(y).size)
    if scoring in ("precision", "ppv"):
        labels = np.unique(y).tolist()  # Python values, whatever the array's dtype
        if pos_label not in labels:
            # scikit-learn's precision refuses it; its prevalence here would be 0
            raise ValueError(
                f"The 'pos_label' parameter of chance_level must be one of the labels {labels} "
                f"for {scoring!r}. Got {pos_label!r} instead."
            )
        return float(np.mean(y == pos_label))
    return None


def check_scoring_labels(estimator, scoring, y, owner):
    """Raise, before any fit, when a metric named by ``scoring`` scores a positive label
    (``pos_label=1`` by default: precision, recall, F1, average precision, PPV, ...) that is not
    among the labels, as scikit-learn's scorers raise for a classifier."""
    if not isinstance(scoring, str) or is_regressor(estimator):
        return
    scorer = resolve_scorers(estimator, scoring, owner)[0]["score"]
    # scikit-learn's own reading (private API: where a version lacks it, the scorer's error
    # comes later, after the fits, as before)
    get_pos_label = getattr(scorer, "_get_pos_label", None)
    pos_label = get_pos_label() if callable(get_pos_label) else None
    if pos_label is None:
        return
    labels = np.unique(y).tolist()  # Python values, whatever the array's dtype
    if pos_label not in labels:
        label = labels[-1]
        make = f"make_{scoring}_scorer"
        function = getattr(getattr(scorer, "_score_func", None), "__name__", "your_metric")
        response = getattr(scorer, "_response_method", None)
        example = (
            f"sklearn_fair.metrics.{make}(pos_label={label!r})"
            if hasattr(metrics, make)
            else f"sklearn.metrics.make_scorer({function}, "
            + (f"response_method={response!r}, " if response else "")
            + f"pos_label={label!r})"
        )
        raise ValueError(
            f"The 'scoring' parameter of {owner} must score one of the labels "
            f"{labels}. Got {scoring!r} instead, whose positive label (pos_label="
            f"{pos_label!r}) is not among them. Pass a scorer of your positive label, e.g. "
            f"scoring={example}."
        ) from None


def check_chance_range(estimator, scoring, chance, tolerance, owner):
    """``(metric, name, bounds)``: what the check's runs score with (``scoring``, else the
    estimator's own score: :func:`_default_scoring`), its name and the range of its scorer's
    values; raise, before any fit, where a ``chance`` given lies outside that range, or where
    ``chance + tolerance`` (``chance`` given or fixed, ROC AUC's 0.5; else the range's low
    end) reaches its top, which no interval's lower bound exceeds: no leak could be flagged.
    A scorer of unknown range (the user's own metric) refuses neither."""
    metric = scoring if scoring is not None else _default_scoring(estimator)
    name = metric if isinstance(metric, str) else getattr(metric, "__name__", "score")
    scorers, multimetric = resolve_scorers(estimator, metric, owner)
    # several metrics: the runs refuse them (one score is compared with chance)
    bounds = (-np.inf, np.inf) if multimetric else metrics.score_range(scorers["score"])
    low, high = bounds
    if chance is not None and not low <= chance <= high:
        raise ValueError(
            f"The 'chance' parameter of {owner} must lie in {range_text(bounds)}, the range of "
            f"the {name!r} scores. Got {chance!r} instead."
        )
    fixed = _FIXED_CHANCE.get(metric) if isinstance(metric, str) else None
    floor = chance if chance is not None else fixed
    if (low if floor is None else floor) + tolerance >= high:
        given = f"chance {floor!r}" if floor is not None else f"a chance of at least {low!r}"
        raise ValueError(
            f"The 'tolerance' parameter of {owner} must keep chance + tolerance below {high!r}, "
            f"the top of {range_text(bounds)}, the range of the {name!r} scores: a leak is "
            "flagged where the interval's lower bound exceeds chance + tolerance, and none "
            f"could be. Got {tolerance!r} with {given} instead (tolerance is in the metric's "
            "units: 0.05, not 5 percent)."
        )
    return metric, name, bounds


def _default_scoring(estimator):
    """The metric that ``scoring=None`` scores the nested runs with, as NestedCV reads it: the
    estimator's own score (``"accuracy"``, ``"r2"``) or a search's own ``scoring`` (its metric
    that selects); None when it is not known."""
    metric = default_score_metric(estimator)
    if metric is not None or not isinstance(estimator, BaseSearchCV):
        return metric
    return search_selecting_scoring(estimator, "permutation_check")  # NestedCV's own rule


def _unpinned(cv, X, y):
    """Saved splits pinned to their labels (a labels fingerprint, or the stratified test folds
    of a gnn-comparison file), checked once against the true ``y`` and then replayed without
    it: permuted labels are the same labels in another order, which the fingerprint (of
    labels in their order) refuses and which the file's folds do not stratify."""
    saved = cv.splits if isinstance(cv, PredefinedSplits) else cv
    if not isinstance(saved, SavedSplits) or (
        saved.labels_fingerprint is None and saved.file_format != "gnn-comparison"
    ):
        return cv
    PredefinedSplits(saved).split(X, y)  # raises SplitsMismatchError for other data
    return PredefinedSplits(
        SavedSplits(
            saved.folds,
            inner_splits=saved.inner_splits,
            n_samples=saved.n_samples,
            kfold=saved.kfold,
            allow_overlap=saved.allow_overlap,
        )
    )


def _replayable(key, value, X, y):
    """A resampling of the protocol that every run can use: a generator of splits (used up by
    the first run) as a list, as scikit-learn's ``check_cv`` keeps it, and saved splits
    :func:`_unpinned`."""
    if key not in ("cv", "outer_cv", "inner_cv"):
        return value
    value = reusable_splits(value)
    return _unpinned(value, X, y) if key in ("cv", "outer_cv") else value


def _per_sample_metadata(groups, params, n_samples):
    """How the metadata with one entry per sample is named: ``'groups'``, and ``'params'``
    with the names of those that nested_cross_validate indexes by the rows of a fold."""
    params = params if isinstance(params, dict) else {}  # nested_cross_validate checks it
    # aligned_params indexes those (here by no row) and hands the others back as they are
    indexed = aligned_params(params, np.array([], dtype=int), n_samples)
    names = [name for name, value in params.items() if indexed[name] is not value]
    return (["'groups'"] if groups is not None else []) + (
        [f"'params' ({', '.join(names)})"] if names else []
    )


def _check_prepare_keeps_rows(per_sample, X, labels, X_prepared, y_prepared):
    """Raise where ``prepare`` returned other rows than given, or in another order, while
    metadata with one entry per sample (``per_sample``: the parameters that hold it) labels the
    rows as given: it cannot follow them. The rows count as kept where ``prepare`` returned
    ``X`` itself, or as many labels as given, each a monotone function of the label given
    (the same, a LabelEncoder's codes, a scaled or log-transformed target)."""
    if not per_sample:
        return
    y_prepared = np.asarray(y_prepared)
    n, n_prepared = len(labels), (len(y_prepared) if y_prepared.ndim else 0)
    if n_prepared == n and (X_prepared is X or _monotone_in(labels, y_prepared)):
        return
    done = (
        f"turned the {n} samples into {n_prepared}"
        if n_prepared != n
        else f"returned {n} samples whose labels are not those it was given, in their order"
    )
    several = len(per_sample) > 1
    raise ValueError(
        f"The {' and '.join(per_sample)} parameter{'s' if several else ''} of "
        f"permutation_check hold{'' if several else 's'} metadata with one entry per sample, "
        "which cannot go with a 'prepare' that returns other rows than those given: prepare "
        "returns X and y only, so the metadata cannot follow its rows and would pair each row "
        f"with another row's. Got a prepare that {done}. Pass a prepare that keeps the rows in "
        "their order (selecting features, scaling), resample inside the pipeline (an "
        "imbalanced-learn sampler), or leave out the per-sample metadata."
    )


def _monotone_in(labels, prepared):
    """Whether ``prepared`` (as many values as ``labels``) is a monotone function of
    ``labels``, row by row: equal labels give equal values, and ordered by label the values
    never both rise and fall. A shuffle of the rows is not one (but for chance)."""
    labels, prepared = labels_1d(np.asarray(labels)), labels_1d(prepared)
    if prepared.shape != labels.shape or labels.ndim != 1:
        return np.array_equal(prepared, labels)
    try:
        old = np.unique(labels, return_inverse=True)[1].ravel()
        new = np.unique(prepared, return_inverse=True)[1].ravel()
    except TypeError:  # values that cannot be ordered
        return np.array_equal(prepared, labels)
    if len(np.unique(np.c_[old, new], axis=0)) != old.max(initial=-1) + 1:
        return False  # one label given two values: not a function of the label
    steps = np.diff(new[np.argsort(old, kind="stable")])
    return bool((steps >= 0).all() or (steps <= 0).all())


def _nested_mean(
    estimator, X, y, groups, seed, protocol, chance_rng=None, scorer=None, repeat=False
):
    """The outer folds without a score, the nested estimate (the mean over every outer fold)
    and, given ``chance_rng``, the outer models' own no-skill value: each scored by ``scorer``
    against ``_N_SHUFFLES`` shufflings of its test fold's labels (its predictions kept, their
    link to the labels broken, leak or not), averaged, with the folds where that is not finite.
    Each scoring gets the test rows as they were (a model may write into its input).
    Raises where a test fold holds one label, whose shuffling leaves it in place. ``repeat``:
    a run after the first of one check, whose warning that a splitter drew from numpy's
    global random state the first run gave.
    """
    # a splitter seeded with a RandomState or Generator would split each run otherwise (its
    # split() moves the generator on): each run splits a copy, from the same state
    protocol = {
        key: copy.deepcopy(value) if key in ("cv", "outer_cv") and generator_seeded(value)
        else value
        for key, value in protocol.items()
    }  # fmt: skip
    with warnings.catch_warnings():
        # nested_cross_validate's warning that each call splits otherwise: not of these copies
        warnings.filterwarnings(
            "ignore",
            r"The '(outer_)?cv' of nested_cross_validate \([^)]*\) shuffles with a ",
            ReproducibilityWarning,
        )
        if repeat:  # the same splitters draw alike on every run: said once per check
            # and leave the same groups on both sides of a split
            warnings.filterwarnings("ignore", category=GroupLeakageWarning)
            warnings.filterwarnings(
                "ignore",
                r"The '(outer_|inner_)?cv' of nested_cross_validate \([^)]*\) drew random "
                "numbers from numpy's global random state",
                ReproducibilityWarning,
            )
        results = nested_cross_validate(
            estimator, X, y, groups=groups, random_state=seed, n_refits=1,
            return_estimator=chance_rng is not None, return_indices=chance_rng is not None,
            **protocol,
        )  # fmt: skip
    if "test_score" not in results:  # a scoring callable that returned a dict of metrics
        names = sorted(key[len("test_") :] for key in results if key.startswith("test_"))
        raise ValueError(
            f"The 'scoring' parameter of permutation_check and audit must give one score, "
            f"which the check compares with chance. Got {protocol.get('scoring')!r} instead, "
            f"which returned the metrics {names}. Pass a scorer of one of them."
        )
    scores = np.asarray(results["test_score"], dtype=float)
    failed = ~np.isfinite(scores)
    for fold, keys in enumerate(results.get("failed_metrics", ())):
        failed[fold] |= bool(keys)  # a number given as error_score stands in for the score
    estimate, chance, chance_failed = float(np.mean(scores)), None, []
    if chance_rng is not None:
        shuffled = []
        _refuse_single_label_folds(results["indices"]["test"], y, protocol)
        for model, test in zip(results["estimator"], results["indices"]["test"]):
            X_test, y_test = take(X, test), np.asarray(y)[test]
            shuffled += [
                np.nan if model is None else scorer(model, rows, chance_rng.permutation(y_test))
                for rows in handed_out(X_test, _N_SHUFFLES)
            ]
        shuffled = np.asarray(shuffled, dtype=float)
        chance = float(np.mean(shuffled))
        chance_failed = np.flatnonzero(
            ~np.isfinite(shuffled.reshape(-1, _N_SHUFFLES)).all(axis=1)
        ).tolist()
    return np.flatnonzero(failed).tolist(), scores.size, estimate, chance, chance_failed


def _refuse_single_label_folds(tests, y, protocol):
    """Raise where an outer test fold holds one label (one sample, or one group's rows under
    LeaveOneGroupOut): shuffling its labels leaves them in place, so the model's own chance
    would be its score (a leak lifting both alike)."""
    y = np.asarray(y)
    single = [f for f, test in enumerate(tests) if len(np.unique(sample_digests(y[test]))) < 2]
    if not single:
        return
    shown = f"{single[:5]}" + (f" and {len(single) - 5} more" if len(single) > 5 else "")
    outer_cv = protocol.get("outer_cv")
    cv = f" (outer_cv={outer_cv!r})" if hasattr(outer_cv, "split") else ""
    raise ValueError(
        f"permutation_check cannot estimate the model's own chance level on outer test folds "
        f"of one label: fold(s) {shown} of the {len(tests)} outer folds{cv} hold a single "
        "label (one sample, or one group's rows). Shuffling a fold's labels, which breaks "
        "their link with the model's predictions, leaves them in place: the 'chance' would "
        "be the score itself, and a leak would lift both alike. Pass chance, the metric's "
        "no-skill value (chance_level(scoring, y) gives the majority-class rate for "
        "accuracy), or an outer cv whose test folds hold several labels."
    )


def _reordered(y_given, labels, order):
    """The labels that ``prepare`` gets: ``labels`` (``y`` taken at ``order``; None: as given)
    in the user's type, a pandas Series or DataFrame with its index, name (columns) and dtypes,
    its values taken at ``order``."""
    if not hasattr(y_given, "iloc"):
        return labels
    if order is None:
        return y_given
    reordered = y_given.iloc[order].copy()
    reordered.index = y_given.index
    return reordered


def _label_per_group(groups, y):
    """``(first, codes, strata)`` where every group holds one label, some group several
    samples, every group shares its size with groups of another label and, permuted among the
    groups of each size, about as many rows keep their label as in a permutation of all rows
    (:func:`_shares_kept`): each group's first row, each row's group (its number in ``first``)
    and the groups of each size (their labels are permuted among groups of one size, which
    keeps every label's share of the rows: permuted among groups of unequal sizes, five groups
    of 20 rows of class 0 among 60 single rows of class 1 gave class 1 to 92% of the rows, not
    62%, and a model without skill was flagged); None otherwise, with a warning where the
    labels vary within a group, a group could not take another label among the groups of its
    size (none other has its size, or they all hold one label: it would keep its real labels in
    every permutation), or one label holds most groups of a size (15 of 16 groups of 4 rows of
    label 0, 15 of 16 of 8 rows of label 1: 88% of the rows would keep their label, against 54%,
    and an honest model was flagged)."""
    group_digests, label_digests = sample_digests(np.asarray(groups)), sample_digests(y)
    _, first, codes = np.unique(group_digests, return_index=True, return_inverse=True)
    codes = codes.ravel()
    if len(first) == len(codes):  # one sample a group: the rows are the groups
        return None
    varies = np.flatnonzero(label_digests[first][codes] != label_digests)
    otherwise = (
        "; with one label per group, each label about as common among the groups of each size "
        "as among all rows, the check permutes the labels among the groups of each size"
    )
    if varies.size:
        mixed = np.unique(codes[varies])
        example = np.asarray(groups)[first[mixed[:1]]].tolist()[0]
        why = (
            f"The labels vary within {mixed.size} of the {len(first)} groups given to the "
            f"permutation check (group {example!r} among them)"
        )
    else:
        sizes = np.bincount(codes)
        strata = [np.flatnonzero(sizes == size) for size in np.unique(sizes)]
        # a group alone in its size, or among groups of its own label only, would keep its
        # real labels in every permutation among the groups of its size
        stuck = np.concatenate(
            [s for s in strata if len(np.unique(label_digests[first[s]])) < 2]
            + [np.array([], dtype=int)]
        )
        kept, kept_by_rows = _shares_kept(strata, sizes, label_digests[first], label_digests)
        if stuck.size:
            example = np.asarray(groups)[first[stuck[:1]]].tolist()[0]
            why = (
                f"{stuck.size} of the {len(first)} groups given to the permutation check (group "
                f"{example!r} among them, of {sizes[stuck[0]]} samples) have a number of samples "
                "that no group of another label has: permuted among the groups of their size "
                "they would keep their real labels, and permuted among whole groups of unequal "
                "sizes the labels' shares of the rows would change"
            )
        elif kept > kept_by_rows + _KEPT_TOLERANCE:
            why = (
                f"The labels of the {len(first)} groups given to the permutation check are not "
                "spread over the groups' sizes as over all rows: permuted among the groups of "
                f"each size, {kept:.0%} of the rows would keep their label, against "
                f"{kept_by_rows:.0%} for a permutation of all rows, and permuted among whole "
                "groups of unequal sizes the labels' shares of the rows would change"
            )
        else:
            return first, codes, strata
    warnings.warn(
        f"{why}, so it permutes the labels row by row, which breaks the link between a group "
        "and its rows' labels: a leak through the groups' labels (a target encoding of the "
        "group computed on all rows in prepare) scores at chance on permuted labels and goes "
        f"unseen. Fit such steps inside the pipeline, where each training fold fits them"
        f"{otherwise} and sees such a leak.",
        SklearnFairWarning,
        stacklevel=3,
    )
    return None


def _shares_kept(strata, sizes, group_labels, labels):
    """The expected share of the rows that keep their label: permuted among the groups of each
    of ``strata`` (the groups of one size, ``sizes`` their rows, ``group_labels`` their
    labels), the sum over the sizes of their share of the rows times that of their labels'
    squared shares; permuted row by row, the sum of the squared shares of ``labels``."""
    kept = 0.0
    for stratum in strata:
        shares = np.unique(group_labels[stratum], return_counts=True)[1] / len(stratum)
        kept += sizes[stratum].sum() / len(labels) * np.sum(shares**2)
    shares = np.unique(labels, return_counts=True)[1] / len(labels)
    return float(kept), float(np.sum(shares**2))


def _refuse_failed_folds(message, rerun):
    """Raise that ``message``'s runs have folds without a score, with the reason: the error
    that the first such run raises when re-run with ``error_score='raise'``, or a scorer that
    returned NaN."""
    advice = (
        "Each estimate is the mean over every outer fold: make the fits and the scorer "
        "succeed on every fold (an error_score stands in for a score, it is not one)."
    )
    try:
        rerun()
    except Exception as error:  # whatever failed (a fit, the scorer) is the reason
        raise ValueError(
            f"{message}, as the fits or the scorer failed: {type(error).__name__}: {error}. "
            f"{advice}"
        ) from error
    raise ValueError(f"{message}, as the scorer returned NaN or an infinite score. {advice}")


@validate_params(
    {**PERMUTATION_CONSTRAINTS, "y": ["array-like"], "with_estimate": ["boolean"]},
    # **protocol goes unchecked to nested_cross_validate, which must check it
    prefer_skip_nested_validation=False,
)
@fill_doc(PERMUTATION_DOCS)
def permutation_check(
    estimator,
    X,
    y,
    *,
    prepare=None,
    groups=None,
    n_permutations=5,
    chance=None,
    tolerance=0.05,
    confidence=0.95,
    with_estimate=True,
    random_state=None,
    **protocol,
):
    """Run the nested protocol on permuted labels and compare the estimates with chance.

    Parameters
    ----------
    estimator : estimator object
        The estimator or pipeline.
    X, y : data and labels
        ``y`` is permuted; ``X`` is kept. ``prepare`` gets ``y`` as given: a pandas Series
        (or DataFrame) keeps its index, name and dtype, its values permuted.
    {prepare}
    groups : array-like, default=None
        Group labels for the splitters (not permuted themselves). With ``prepare``, where
        every group holds one label and some group more than one sample (a patient's
        diagnosis on each of its rows), the labels are permuted among the groups of the same
        size (which keeps each label's share of the rows), each group keeping one label: a
        row-level permutation would break the link between a group and its label, and with
        it a leak through the groups' labels (a target encoding of the group computed on all
        rows in ``prepare``). Where the labels vary within a group, some group shares its
        size with no group of another label (among groups of its size it would keep its
        real labels), or where the share of the rows that keep their label, permuted among
        the groups of each size, would exceed that of a permutation of all rows by more than
        0.05 (one label holding most groups of a size), they are all permuted row by row, with
        a warning that such a leak goes unseen.
        With metadata routing on, they reach the splitters that request them, as
        ``params={"groups": groups}`` would.
    {n_permutations}
    {chance}
    {tolerance}
    {confidence}
    with_estimate : bool, default=True
        Also compute the estimate on the real labels.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the permutations and the nested runs.
    **protocol
        Passed to :func:`~sklearn_fair.nested_cross_validate` (``outer_cv``, ``inner_cv``,
        ``param_grid``, ``scoring``, ``n_jobs``, ...), but for ``n_refits``,
        ``return_estimator`` and ``return_indices``, which it sets itself (one refit per outer
        fold): passing one raises.

    Returns
    -------
    report : PermutationReport

    Raises
    ------
    ValueError
        Where an outer fold of the run on the real labels or of a permuted run has no finite
        score (its fit or scorer failed, or ``error_score`` stands in for it), naming the runs,
        the folds and the error: each estimate is the mean over every outer fold. Where
        ``groups`` or ``params`` with one entry per sample go with a ``prepare`` that
        returns other rows than those given, or in another order (neither ``X`` itself nor
        the labels it was given, in their order): the metadata cannot follow its rows.
    """
    set_here = sorted(_SET_BY_THE_CHECK & protocol.keys())
    if set_here:
        given = ", ".join(f"{key}={protocol[key]!r}" for key in set_here)
        raise InvalidParameterError(
            f"permutation_check sets the {sorted(_SET_BY_THE_CHECK)} parameters of "
            f"nested_cross_validate itself ({_SET_BY_THE_CHECK_DOC}) and takes the others. "
            f"Got {given} instead."
        )
    y_given, y = y, np.asarray(y)
    check_scoring_labels(estimator, protocol.get("scoring"), y, "permutation_check")
    scoring = protocol.get("scoring")
    # None: what the runs score with (a search's own scoring); still None when not known
    metric, name, bounds = check_chance_range(
        estimator, scoring, chance, tolerance, "permutation_check"
    )
    # before routing moves the groups into params
    # a leak through the groups' labels comes from prepare (the pipeline refits its steps on
    # each training fold): without it the rows are permuted, as before
    rows_of_group = None if groups is None or prepare is None else _label_per_group(groups, y)
    protocol = {key: _replayable(key, value, X, y) for key, value in protocol.items()}
    per_sample = (
        [] if prepare is None else _per_sample_metadata(groups, protocol.get("params"), len(y))
    )
    if groups is not None and get_config().get("enable_metadata_routing", False):
        # with routing, nested_cross_validate (as cross_validate) takes groups among params
        params = protocol.get("params") or {}
        if isinstance(params, dict) and "groups" in params:
            raise ValueError(
                "permutation_check takes the group labels as 'groups' or as params['groups'], "
                "not both. Got both: pass one of them."
            )
        protocol["params"], groups = {**params, "groups": groups}, None
    # Seeds by name: permutation i and its run get the same seeds whatever n_permutations and
    # with_estimate are.
    root = seed_root(random_state)
    seed = draw_seeds(named_generator(root, "estimate"))

    classifier = is_classifier(estimator)
    # a metric without a known no-skill value (None whatever the labels), or with only its
    # most, gets its model's own
    own_chance = chance is None and (
        metric is None
        or (isinstance(metric, str) and metric in _CHANCE_AT_MOST)
        or chance_level(metric, y) is None
    )
    scorer = (
        resolve_scorers(estimator, metric, "permutation_check")[0]["score"] if own_chance else None
    )

    runs_started = []
    prepared = _PreparedX()

    def run(order, run_seed, chance_rng=None, run_protocol=protocol):
        labels = y if order is None else y[order]
        X_run, y_run = (
            (X, labels) if prepare is None else prepare(X, _reordered(y_given, labels, order))
        )
        if prepare is not None:
            prepared.add(X_run)
        _check_prepare_keeps_rows(per_sample, X, labels, X_run, y_run)
        # NestedCV's check, before the first fit, of the labels the run scores: named here
        check_one_class_names({"permutation_check": scoring}, y_run)
        repeat = bool(runs_started)
        runs_started.append(True)
        scores = _nested_mean(
            estimator, X_run, y_run, groups, run_seed, run_protocol, chance_rng, scorer, repeat
        )
        return *scores, y_run

    def rerun(*run_args):  # a run again, raising the error of a failed fit or scorer
        return lambda: run(*run_args, run_protocol={**protocol, "error_score": "raise"})

    # a failed fold leaves no estimate (the mean over every outer fold), no interval and no
    # verdict: say which folds and why, as NestedCV's score_mean_ is NaN and its summary
    # refuses; at the first failed run, the others not run for nothing
    cannot = f"permutation_check could not compare the {name!r} scores with chance"
    no_score = "no finite score (NaN or infinite, or error_score in its place)"
    estimate, y_scored = None, y
    if with_estimate:
        real_failed, n_folds, estimate, _, _, y_scored = run(None, seed)
        if real_failed:
            _refuse_failed_folds(
                f"{cannot}: the run on the real labels has {no_score} on outer fold(s) "
                f"{real_failed} of {n_folds}",
                rerun(None, seed),
            )
    elif prepare is not None:
        X_real, y_scored = prepare(X, _reordered(y_given, y, None))
        prepared.add(X_real)
    permuted, chances, chance_failures = [], [], {}
    for i in range(n_permutations):
        generator = named_generator(root, "permutation", i)
        if rows_of_group is None:
            order = generator.permutation(len(y))
        else:  # each group takes the label of another group of its size, on every row
            first, codes, strata = rows_of_group
            taken = np.empty(len(first), dtype=int)
            for stratum in strata:  # every group is in one
                taken[stratum] = stratum[generator.permutation(len(stratum))]
            order = first[taken][codes]
        seeds_of_run = draw_seeds(named_generator(root, "run", i))
        chance_rng = named_generator(root, "chance", i) if own_chance else None
        failed, n_folds, score, run_chance, chance_failed, _ = run(order, seeds_of_run, chance_rng)
        if failed:
            _refuse_failed_folds(
                f"{cannot}: permuted-label run {i} (of {n_permutations}) has {no_score} on "
                f"outer fold(s) {failed} of {n_folds}",
                rerun(order, seeds_of_run),
            )
        if chance_failed:
            chance_failures[i] = chance_failed
        permuted.append(score)
        chances.append(run_chance)
    permuted = np.asarray(permuted)
    if chance_failures:
        folds = "; ".join(f"permutation {i}: {failed}" for i, failed in chance_failures.items())
        raise ValueError(
            f"{cannot}: the scorer returned NaN or an infinite score for the outer models "
            f"against shufflings of their test folds' labels ({folds}, of {n_folds} outer "
            "folds), which estimate the model's own chance level. Pass chance, the metric's "
            "no-skill value, or a scorer defined on every fold."
        )

    if own_chance:
        chance = float(np.mean(chances))
    elif chance is None:
        chance = chance_level(metric, y_scored, classifier=classifier)
    # n_permutations >= 2; in the range of the scorer's values (printed as they are, under
    # its name), clipped and said so as summarize does
    ci = mean_interval(permuted, confidence=confidence)
    ci = _within_range(ci, MetricName(name, metric, 1, ""), bounds)
    low, high, method = ci.low, ci.high, ci.description
    # the same X for every permutation: what prepare does to it does not depend on the labels
    reads_labels = None if prepare is None else prepared.differ
    return PermutationReport(
        name, float(chance), estimate, permuted, low, high, confidence, tolerance, method,
        reads_labels,
    )  # fmt: skip
