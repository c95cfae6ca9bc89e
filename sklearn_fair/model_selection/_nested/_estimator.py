"""NestedCV: model selection inside, model assessment outside."""

import numbers
import os
from collections import Counter
from copy import deepcopy

import numpy as np
from sklearn import get_config
from sklearn.base import (
    BaseEstimator,
    MetaEstimatorMixin,
    _fit_context,
    is_classifier,
    is_regressor,
)
from sklearn.model_selection._search import BaseSearchCV
from sklearn.utils import get_tags
from sklearn.utils._available_if import _AvailableIfDescriptor
from sklearn.utils._param_validation import Options, StrOptions
from sklearn.utils.metadata_routing import UNUSED, process_routing
from sklearn.utils.validation import check_is_fitted

from ...utils import (
    N_JOBS_CONSTRAINTS,
    RANDOM_STATE_CONSTRAINTS,
    EstimatorInstance,
    IntervalNotBool,
    fill_doc,
)
from ...utils._hashing import fingerprint_of_numbers
from ...utils._scaling import mean_of, std_of
from ._candidates import search_space
from ._docs import PARAMETER_DOCS
from ._inputs import graph_labels_unless_given
from ._planning import make_plan
from ._protocol import run_protocol
from ._resampling import warn_generator_seeded_splitters
from ._results import cv_results, undefined_score_notes
from ._scoring import metadata_router, resolve_scoring
from ._selection import tuning_counts

__all__ = ["NestedCV"]


class _MetricsInOrder(Options):
    """Several metrics in an order of their own: a list, tuple or dict, not a set, whose order
    (which decides the metric that selects) follows PYTHONHASHSEED, as scikit-learn refuses it.
    An ``Options``: the kind of constraint scikit-learn's validation takes as it is."""

    def __init__(self):
        super().__init__(object, set())

    def is_satisfied_by(self, val):
        return isinstance(val, (list, tuple, dict))

    def __str__(self):
        return (
            "a list, tuple or dict of metrics (not a set, whose order changes from one Python "
            "process to the next: pass a list or a dict)"
        )


#: The parameters of the protocol, shared by NestedCV and its functional forms.
PROTOCOL_CONSTRAINTS = {
    "estimator": [EstimatorInstance(["fit", "get_params"])],
    "param_grid": [dict, list, None],
    "param_distributions": [dict, list, None],
    "n_iter": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
    "inner_cv": ["cv_object"],
    "scoring": [str, callable, _MetricsInOrder(), None],
    "refit": ["boolean", str],
    "n_refits": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
    "n_jobs": N_JOBS_CONSTRAINTS,
    "random_state": RANDOM_STATE_CONSTRAINTS,
    "error_score": [StrOptions({"raise"}), numbers.Real],
    "verbose": ["verbose"],
    "cache_dir": [str, os.PathLike, None],
    "early_stopping_split": [StrOptions({"auto", "protocol", "estimator"})],
    "fit_timeout": [IntervalNotBool(numbers.Real, 0, None, closed="neither"), None],
    "select": [StrOptions({"best", "one_se"})],
}


class _SaysWhy(_AvailableIfDescriptor):
    """scikit-learn's ``available_if``, except that the check's own AttributeError (saying why,
    e.g. ``refit=False``) reaches the user instead of a bare "has no attribute"."""

    def _check(self, obj, owner):
        if not self.check(obj):
            raise AttributeError(
                f"This {owner.__name__!r} has no attribute {self.attribute_name!r}"
            )


def available_if(check):
    """Like :func:`sklearn.utils.metaestimators.available_if`; see :class:`_SaysWhy`."""
    return lambda fn: _SaysWhy(fn, check, attribute_name=fn.__name__)


# what a fit with refit=True sets: the final model and what is read from it
_FINAL_ATTRIBUTES = (
    "best_params_", "best_index_", "best_score_", "best_estimator_", "refit_time_",
    "n_features_in_", "feature_names_in_",
)  # fmt: skip


def _estimator_has(attr):
    """Whether the final model has ``attr``; with ``refit=False`` there is none, and says why."""

    def check(self):
        if not self.refit:
            raise AttributeError(
                f"This {type(self).__name__} instance was initialized with refit=False, so it "
                f"has no final model and {attr} is not available. Pass refit=True to fit the "
                "selected configuration on all the data, or fit it yourself with the "
                "hyper-parameters in best_params_per_fold_."
            )
        if hasattr(self, "best_estimator_"):
            return hasattr(self.best_estimator_, attr)
        return hasattr(self.estimator, attr)

    return check


def _scorable(self):
    """Whether ``score`` is there: a final model, scored with ``scoring`` when it is given
    (as GridSearchCV's ``score``, which needs no ``score`` of the estimator), else with the
    estimator's own ``score``."""
    return _estimator_has("score")(self) or self.scoring is not None


@fill_doc(PARAMETER_DOCS)
class NestedCV(MetaEstimatorMixin, BaseEstimator):
    """Nested cross-validation: an honest estimate of a tuned model's performance.

    The protocol of Errica et al. (2020), for any scikit-learn estimator. An outer
    k-fold estimates the risk. Inside every outer training fold, an inner hold-out
    (or k-fold) selects the hyper-parameters among the candidates. The selected
    configuration is then trained ``n_refits`` times on the outer training fold, each time
    with a different seed, and scored once on the outer test fold; the fold's test score is
    the mean of those refits. Test data never takes part in the selection, so
    :attr:`outer_scores_` are honest, and :attr:`optimism_` shows how far the validation
    scores (what is too often reported) overstate them.

    The defaults are the paper's, not scikit-learn's: 10 outer folds (``cross_val_score``
    uses 5) and an inner 90%/10% hold-out (``GridSearchCV`` uses a 5-fold), because that is
    the protocol whose numbers the graph-learning literature compares. Pass ``outer_cv=5``
    and ``inner_cv=5`` for scikit-learn's idiom; :func:`nested_cross_validate` and
    :func:`nested_cross_val_score` keep ``cross_validate``'s defaults.

    All fits of all outer folds are one pool of tasks (a fold's refits start as soon as its
    selection is complete); the results do not depend on ``n_jobs`` or the backend.

    Parameters
    ----------
    {estimator}
    {param_grid}
    {param_distributions}
    {n_iter}
    {outer_cv}
    {inner_cv}
    {scoring}
    refit : bool or str, default=True
        With several metrics, the name of the one that selects the hyper-parameters (with a
        search as the estimator: the one of :attr:`outer_scores_`; default the search's
        selecting metric, else the first). When truthy, a final model is also selected and
        fitted on all the data (:attr:`best_estimator_`), so ``predict`` and friends work.
    {n_refits}
    {n_jobs}
    {random_state}
    {error_score}
        Failed fits are listed in :attr:`failed_tasks_`; a failed selection on all the data
        (``refit=True``) raises too.
    {verbose}
    {cache_dir}
    {early_stopping_split}
    {fit_timeout}
    {reuse_prefix}
    {select}
    keep_predictions : bool, default=False
        Keep what each refit predicted for its outer test fold (cached with its scores, but
        for date labels, which JSON cannot hold), in
        ``outer_results_[i]["predictions"]``: for the reports' plots of what the model
        predicted (:func:`~sklearn_fair.report.nested_cv_report`), and
        :meth:`BenchmarkResult.plot_predictions <sklearn_fair.BenchmarkResult.plot_predictions>`.
        None for a failed fold (a refit that failed, or a selecting metric it could not
        score), as :func:`nested_cross_val_predict` has no model for it.

    Attributes
    ----------
    outer_scores_ : ndarray of shape (n_outer,)
        Test score of each outer fold (mean over the refits) for the selecting metric.
    validation_scores_ : ndarray of shape (n_outer,)
        The winner's mean inner validation score in each outer fold, in the metric that
        selects (:attr:`selection_metric_`).
    best_params_per_fold_ : list of dict
        The hyper-parameters selected in each outer fold.
    outer_results_ : list of dict
        Per outer fold: ``best_params``, ``best_index``, ``validation_score``,
        ``test_scores`` (one per refit), ``test_score``, ``test_scores_per_metric``,
        ``refit_seeds`` (those that ran), ``refits`` (why that many), ``train_indices``,
        ``test_indices``, ``fit_time`` and ``score_time`` (seconds summed over the fold's
        fits), ``tied_candidates`` (the indices of the candidates whose mean validation
        score ties with the best, the best included), ``selection_failed`` (why no candidate
        could be selected, else None), ``refits_failed`` (how many refits raised),
        ``refit_scores_failed`` (how many have no score of the selecting metric: their fit
        or their scorer raised), ``failed_metrics`` (the metric keys of
        ``test_scores_per_metric`` the fold has no score of), ``undefined_metrics`` where a
        test score is not a measurement but the value its scorer sets where the metric is
        undefined (recall's ``zero_division`` on a test fold without positives, with an
        ``UndefinedMetricWarning``; kept, as ``cross_validate`` keeps it, and noted by
        :meth:`summary`): metric key -> the warning's message, and, when refits early-stop,
        ``early_stopping_indices`` (the rows they stop on) and ``early_stopping_train_indices``
        (the rows they train on, in the order they were given: a seeded GNN shuffles its
        graphs from that order, so a refit is rebuilt with these rows in this order). A fold
        whose selection failed, or with a refit without a score, is scored ``error_score``:
        every entry of its ``test_scores`` (and of that metric's ``test_scores_per_metric``)
        is ``error_score``, not averaged with the refits that succeeded; every output
        (reports, tables, :func:`~sklearn_fair.stats.compare`) treats it as a failed fold of
        that metric, whatever number ``error_score`` is.
    score_mean_, score_std_ : float
        Mean and standard deviation (``np.std``, as scikit-learn and the paper report) of
        :attr:`outer_scores_`; NaN when an outer fold failed (its score is not finite, or is
        ``error_score`` whatever number that is, as in :meth:`summary` and the reports).
    optimism_ : float
        Mean validation score minus mean test score (0.0 where the two are equal but for
        floating-point rounding, as the reports print it); NaN when a search given as the
        estimator selects with another metric than :attr:`refit_metric_`, when the validation
        scores are weighted by ``sample_weight`` and the test scores are not, or when an outer
        fold failed.
    validation_comparable_ : bool
        Whether :attr:`validation_scores_` are of the metric of :attr:`outer_scores_`, so
        that :attr:`optimism_` subtracts like from like; False when a search given as the
        estimator selects with its own scoring, and when ``sample_weight`` weighted the
        selection's scores but not the outer test scores (without metadata routing, as in
        scikit-learn's searches and ``cross_validate``): :attr:`selection_metric_` then
        names a metric "weighted by sample_weight".
    cv_results_ : dict of ndarray
        One row per outer fold and candidate, with GridSearchCV's key names (``params``,
        ``param_<name>``, ``split<k>_test_<metric>``, ``mean_test_<metric>``,
        ``rank_test_<metric>`` (within the fold), ``mean_fit_time``, ...; "test" is the
        inner validation split, as in GridSearchCV) plus ``outer_fold``, ``candidate`` and
        ``selected``; with ``refit``, then one row per candidate of the selection on all the
        data, whose ``outer_fold`` is -1 (``best_index_`` is its winner's row, as in
        GridSearchCV). Loadable with ``pandas.DataFrame``.
    refit_seeds_ : list
        The seeds drawn for the refits (``[None]`` when no ``random_state`` is left unset).
    random_state_root_ : int
        The int root every seed of the run was derived from: ``random_state`` itself when an
        int, else the one drawn (fresh for None, from the RandomState or Generator given).
        ``random_state=random_state_root_`` reproduces the run (with the same data, splitters
        and versions).
    n_splits_ : int
        Number of outer folds.
    outer_cv_ : cross-validation generator
        The splitter that made the outer folds: ``outer_cv``, or the splitter an int became
        (with ``groups``, ``StratifiedGroupKFold`` for a classifier, else ``GroupKFold``).
    resampling_ : dict
        How the splits were made, in words, under ``"outer"`` and ``"inner"`` (e.g.
        ``"5-fold StratifiedGroupKFold (cv=5 with groups) on groups (no group on both
        sides)"``), as the reports print it; with ``select="one_se"``, the rule that picked
        each fold's candidate under ``"selection"``.
    best_params_, best_estimator_, best_index_ : dict, estimator, int
        With ``refit``: the inner selection run on all the data, its winner's row in
        ``cv_results_`` (``cv_results_["params"][best_index_] == best_params_``), and the
        model fitted with it. The final model keeps the ``random_state`` values the user
        gave; one left at ``None`` is seeded from ``random_state`` (the selection's seed,
        whatever the seed probe of ``n_refits`` showed), so that the same ``random_state``
        gives the same model.
    best_score_ : float
        With ``refit``: the winner's mean validation score in that final selection.
    refit_time_ : float
        With ``refit``: seconds spent fitting the final model.
    scorer_ : callable or dict
        The scorer(s) used.
    multimetric_ : bool
        Whether several metrics were given.
    refit_metric_ : str
        The metric of :attr:`outer_scores_` (a key of :attr:`metrics_`; "score" for a single
        metric); the one that selects too, unless a search given selects with its own.
    selection_metric_ : MetricName
        The metric that selected the hyper-parameters, as printed: ``metrics_[refit_metric_]``,
        or a search's own scoring when it selects with another one.
    metrics_ : dict
        Metric key (as in :attr:`scorer_` and ``test_scores_per_metric``) ->
        :class:`~sklearn_fair.metrics.MetricName`: how each metric is named in print, and
        whether scikit-learn's sign was flipped (``neg_root_mean_squared_error`` is printed as a
        positive RMSE).
    failed_tasks_ : list of dict
        Every task that raised, or scored NaN or infinity without raising: its key
        (``phase``, ``outer_fold``, ``candidate``, ``inner_split``, ``refit``) and the
        traceback or reason. Their scores are ``error_score`` (or the non-finite value).
    cache_info_ : dict or None
        With ``cache_dir``: ``hits`` (tasks read from the cache) and ``computed``.

    See Also
    --------
    nested_cross_validate : The same protocol as a function, in the style of cross_validate.
    HoldoutSplit : The default inner split.

    Notes
    -----
    Ties between candidates (equal mean validation scores) go to the first one in the order of
    the search space, as in GridSearchCV; the reference code of Errica et al. keeps the last
    best one, which differs only for tied validation scores. A small validation split ties
    often (15 rows can only tell accuracies 1/15 apart): when most candidates tie in at least
    half of the outer folds, a :class:`~sklearn_fair.exceptions.SelectionTieWarning` says so,
    and a winner on the edge of its grid that tied with other values does not count towards
    the :class:`~sklearn_fair.exceptions.SearchSpaceEdgeWarning`.

    References
    ----------
    F. Errica, M. Podda, D. Bacciu, A. Micheli. A Fair Comparison of Graph Neural Networks
    for Graph Classification. ICLR 2020.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair import NestedCV
    >>> X, y = load_iris(return_X_y=True)
    >>> nested = NestedCV(LogisticRegression(max_iter=1000), {"C": [0.01, 1.0]},
    ...                   outer_cv=5, random_state=0).fit(X, y)
    >>> nested.outer_scores_.shape
    (5,)
    >>> 0.9 < nested.score_mean_ <= 1.0
    True
    >>> sorted(nested.best_params_per_fold_[0])
    ['C']
    >>> nested.predict(X[:2])
    array([0, 0])
    """

    _parameter_constraints = {
        **PROTOCOL_CONSTRAINTS,
        "outer_cv": ["cv_object"],
        "reuse_prefix": ["boolean"],  # issue 27.1 (h7)
        "keep_predictions": ["boolean"],
    }

    def __init__(
        self,
        estimator,
        param_grid=None,
        *,
        param_distributions=None,
        n_iter=10,
        outer_cv=10,
        inner_cv=None,
        scoring=None,
        refit=True,
        n_refits=3,
        n_jobs=None,
        random_state=None,
        error_score=np.nan,
        verbose=0,
        cache_dir=None,
        early_stopping_split="auto",
        fit_timeout=None,
        reuse_prefix=True,
        select="best",
        keep_predictions=False,
    ):
        self.estimator = estimator
        self.param_grid = param_grid
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.outer_cv = outer_cv
        self.inner_cv = inner_cv
        self.scoring = scoring
        self.refit = refit
        self.n_refits = n_refits
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.error_score = error_score
        self.verbose = verbose
        self.cache_dir = cache_dir
        self.early_stopping_split = early_stopping_split
        self.fit_timeout = fit_timeout
        self.reuse_prefix = reuse_prefix
        self.select = select
        self.keep_predictions = keep_predictions

    @_fit_context(prefer_skip_nested_validation=False)
    @fill_doc(PARAMETER_DOCS)
    def fit(self, X, y=None, *, groups=None, **params):
        """Run the nested protocol on ``X, y``.

        Parameters
        ----------
        {X}
        {y}
        groups : array-like of shape (n_samples,), default=None
            Group labels (patients, sites, molecules...). Every split the protocol makes
            keeps each group on one side, outer and inner (an int ``outer_cv`` or
            ``inner_cv`` becomes a group k-fold, the default inner hold-out holds out whole
            groups); a splitter you pass that ignores them gets a warning. With
            scikit-learn's metadata routing enabled, groups that nothing requests (every
            splitter you pass ignores them, as ``KFold`` does, and neither the estimator nor
            a scorer requests them) raise a TypeError instead, as
            ``GridSearchCV.fit(X, y, groups=...)`` does.
        **params : dict
            Fit parameters of the estimator (e.g. ``sample_weight``), indexed along with the
            data. With scikit-learn's metadata routing enabled they are routed to the
            estimator, the scorers and the splitters as each requested them; without it,
            ``sample_weight`` also weights the inner selection's scores (as scikit-learn's
            searches do), not the outer test scores (as ``cross_validate``).

        Returns
        -------
        self : NestedCV
        """
        plan = make_plan(
            self, X, y, groups, params, final=bool(self.refit), return_estimator=False,
            owner=type(self).__name__, keep_predictions=self.keep_predictions,
        )  # fmt: skip
        if plan.seeds.seeded:  # its own outer_cv splits as given (benchmark's cells: copies)
            warn_generator_seeded_splitters(type(self).__name__, {"outer_cv": self.outer_cv})
        (run,) = run_protocol(
            [plan], cache_dir=self.cache_dir, n_jobs=self.n_jobs, verbose=self.verbose,
            reuse_prefix=self.reuse_prefix,
        )  # fmt: skip
        store_fitted(self, run, params)
        return self

    def summary(self, interval="corrected_t", *, confidence=0.95, half_scores=None):
        """Summary statistics of the outer test scores (see :func:`sklearn_fair.stats.summarize`).

        Parameters
        ----------
        interval : {"t", "normal", "corrected_t", "conservative_z"} or MeanInterval, \
                default="corrected_t"
            The interval of the mean. "corrected_t" (Nadeau and Bengio's corrected
            resampled t) takes the training and test sizes from the outer folds: over one
            run of 5-fold CV, the narrowest interval that reached its nominal level (90% and
            95%) in every setting of the coverage benchmark (docs: Honest uncertainty),
            where Student's "t" under-covered; over 5 times repeated 5-fold CV it
            under-covered (87-97% at nominal 95%), and the summary says so;
            "conservative_z" needs ``half_scores``.
        confidence : float, default=0.95
            Level of the intervals.
        half_scores : array-like of shape (M, 2) or (M, 2, J), default=None
            For ``interval="conservative_z"``: the half-sample scores of
            :func:`sklearn_fair.stats.paired_subsampling_scores`, run with the outer
            folds' test size.

        Returns
        -------
        summary : Summary or dict of Summary
            Mean, standard deviation, standard error, interval of the mean (its method
            named), median, IQM and the bootstrap interval of the IQM (drawn with
            :func:`~sklearn_fair.stats.summarize`'s seed 0: a report draws each cell's from a
            generator of its data set's and model's names, so its bounds can differ in their
            last digits), under the metric's printed name; prints as a short table, with a
            note when fits failed. With several metrics, a dict of one summary per metric.
            Where outer folds failed (their score is ``error_score``, whatever number it is)
            nothing that needs every fold's score is computed: the statistics are NaN and
            ``ci_method`` names the failed folds, as the reports print such a result.
        """
        from ...stats._interval import (
            ONE_ROW_TESTS_NOTE,
            corrected_t_notes,
            fold_sizes,
            times_tested,
        )
        from ...stats._summary import summary_of_resamples

        check_is_fitted(self, "outer_scores_")
        notes, folds = self._failure_notes(), self.outer_results_
        if len(folds) < 2:
            raise ValueError(
                f"NestedCV.summary needs at least 2 outer folds to estimate a spread; "
                f"outer_cv={self.outer_cv!r:.200} gave {len(folds)}. Fit with an outer_cv of "
                "at least 2 splits (an int >= 2, KFold(5), ShuffleSplit(n_splits=10)), or read "
                "the one outer score in outer_scores_."
            )
        per_metric = {
            name: np.array([mean_of(f["test_scores_per_metric"][name]) for f in folds])
            for name in self.metrics_
        }
        sizes = {}
        train, test = ([f[f"{part}_indices"] for f in folds] for part in ("train", "test"))
        each_row_tested = times_tested(train, test)
        if interval == "corrected_t":
            sizes = fold_sizes(train, test)
            outer = getattr(self, "resampling_", {}).get("outer", "")
            notes = (*notes, *corrected_t_notes(train, test, outer))
        if all(np.unique(fold).size == 1 for fold in test):  # LeaveOneOut's
            notes = (*notes, ONE_ROW_TESTS_NOTE)
        summaries = {}
        for name, scores in per_metric.items():
            failed = _failed_outer_folds(folds, scores, name)
            metric = self.metrics_[name]
            metric_notes = (*notes, *undefined_score_notes(folds, name, metric))
            summaries[name] = (
                _not_computed(scores, failed, metric, metric_notes, interval, confidence)
                if failed.any()
                else summary_of_resamples(
                    scores,
                    metric=metric,
                    notes=metric_notes,
                    interval=interval,
                    confidence=confidence,
                    half_scores=half_scores,
                    times_tested=each_row_tested,
                    **sizes,
                )
            )
        return summaries if self.multimetric_ else summaries["score"]

    def _failure_notes(self):
        """Sentences on the fits that failed, for the summary and the reports."""
        failed = self.failed_tasks_
        if not failed:
            return ()
        phases = Counter(task["key"]["phase"] for task in failed)
        parts = [f"{n} {phase} fit(s)" for phase, n in sorted(phases.items())]
        candidates = sorted(
            {t["key"]["candidate"] for t in failed if t["key"]["candidate"] is not None}
        )
        # the fit's, not one set since for the next fit (a fit before it was recorded: its own)
        error_score = fit_settings(self)["error_score"]
        text = (
            f"{', '.join(parts)} failed or scored NaN (error_score={error_score!r}); "
            "see failed_tasks_"
        )
        if candidates:
            text += f"; candidates that failed somewhere: {candidates}"
        return (text,)

    def _final(self, method):
        check_is_fitted(self, "best_estimator_")
        return getattr(self.best_estimator_, method)

    @available_if(_estimator_has("predict"))
    def predict(self, X):
        """Predict with :attr:`best_estimator_`."""
        return self._final("predict")(X)

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X):
        """Class probabilities from :attr:`best_estimator_`."""
        return self._final("predict_proba")(X)

    @available_if(_estimator_has("predict_log_proba"))
    def predict_log_proba(self, X):
        """Log class probabilities from :attr:`best_estimator_`."""
        return self._final("predict_log_proba")(X)

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X):
        """Decision function of :attr:`best_estimator_`."""
        return self._final("decision_function")(X)

    @available_if(_estimator_has("transform"))
    def transform(self, X):
        """Transform with :attr:`best_estimator_`."""
        return self._final("transform")(X)

    @available_if(_estimator_has("inverse_transform"))
    def inverse_transform(self, X):
        """Inverse transform with :attr:`best_estimator_`."""
        return self._final("inverse_transform")(X)

    @available_if(_estimator_has("score_samples"))
    def score_samples(self, X):
        """Score samples with :attr:`best_estimator_`."""
        return self._final("score_samples")(X)

    @available_if(_scorable)
    def score(self, X, y=None, **params):
        """Score :attr:`best_estimator_` on ``X, y`` with the metric of :attr:`outer_scores_`
        (:attr:`refit_metric_`; a search given that selects with its own scoring still
        selects with it, and is scored here as the outer folds are).

        Parameters
        ----------
        X : array-like
            Test data.
        y : array-like, default=None
            True targets; for graphs (a PyG dataset, a list of ``Data``, a
            :class:`~sklearn_fair.graph.GraphCollection`) None reads their labels, as
            :meth:`fit` does.
        **params : dict
            Passed to the scorer (e.g. ``sample_weight``); with metadata routing, as the
            scorer requests them.

        Returns
        -------
        score : float
        """
        check_is_fitted(self, "best_estimator_")
        several = isinstance(self.scorer_, dict)
        scorer = self.scorer_[self.refit_metric_] if several else self.scorer_
        if get_config().get("enable_metadata_routing", False):  # as GridSearchCV.score
            routed = process_routing(self, "score", **params)
            params = routed[f"scorer_{self.refit_metric_ if several else 'score'}"].score
        y = graph_labels_unless_given(X, y)  # graphs hold their labels, as in fit
        score = scorer(self.best_estimator_, X, y, **params)
        # a callable scoring that returns a dict: its refit metric, as scikit-learn's searches
        return score[self.refit_metric_] if isinstance(score, dict) else score

    @property
    def classes_(self):
        """Class labels of :attr:`best_estimator_`."""
        _estimator_has("classes_")(self)  # with refit=False, says why there are none
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.classes_

    def get_metadata_routing(self):
        """Routing of fit metadata to the estimator, the scorers and the splitters, and of
        ``groups`` to ``fit`` itself as :meth:`set_fit_request` asks.

        Returns
        -------
        routing : MetadataRouter
        """
        owner = type(self).__name__
        space = search_space(self, owner)
        # the scorers of the run (make_plan's); which one selects matters not here
        scoring = resolve_scoring(
            space.base_estimator, space.scoring, space.refit, owner, first_selects=True,
            search=space.search_scoring,
        )  # fmt: skip
        router = metadata_router(
            owner, self.estimator, scoring.scorers, self.outer_cv, self.inner_cv
        )
        # fit takes the groups itself (an int or None outer_cv or inner_cv splits by them): a
        # consumer, whose unset request refuses them, as scikit-learn's are. Where a splitter
        # or the estimator requests them, they reach fit through it, unset request or not.
        request = self._get_metadata_request()
        if request.fit.requests.get("groups", False) is None and router.consumes("fit", ["groups"]):
            request.fit.add_request(param="groups", alias=UNUSED)
        return router.add_self_request(request)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator)
        tags.estimator_type = inner.estimator_type
        tags.classifier_tags = deepcopy(inner.classifier_tags)
        tags.regressor_tags = deepcopy(inner.regressor_tags)
        tags.input_tags.pairwise = inner.input_tags.pairwise
        tags.input_tags.sparse = inner.input_tags.sparse
        tags.input_tags.allow_nan = inner.input_tags.allow_nan
        tags.target_tags.multi_output = inner.target_tags.multi_output
        return tags


def store_fitted(nested, run, params=None):
    """Set ``nested``'s fitted attributes from a :class:`~._protocol.ProtocolRun` of its plan
    (NestedCV.fit, and each cell of benchmark()); ``params``: the fit parameters its fit was
    given, by name (None: none, as a benchmark's cell)."""
    from ...stats._checks import mean_difference

    plan, folds, final = run.plan, run.results["outer_results"], run.results["final"]
    nested.outer_results_ = folds
    nested.outer_scores_ = np.array([f["test_score"] for f in folds])
    nested.validation_scores_ = np.array([f["validation_score"] for f in folds])
    nested.best_params_per_fold_ = [f["best_params"] for f in folds]
    comparable = plan.validation_comparable
    nested.validation_comparable_ = bool(comparable)
    nested.cv_results_ = cv_results(plan, run.schedule.selections)
    nested.refit_seeds_ = list(plan.refit_seeds)
    nested.random_state_root_ = int(plan.seeds.entropy)
    # what the outer folds' tuning spent, whole searches included (the reports' budget)
    nested._tuning_counts = tuning_counts(plan, run.schedule.results)
    # what this fit ran with, for its records (result_to_dict, the reports, the card, the
    # summary's notes): set_params may have set other values for the next fit since
    task = "regression" if is_regressor(plan.estimator) else None
    nested._fit_settings = {
        "random_state": nested.random_state,
        "error_score": plan.error_score,
        "task": "classification" if plan.classifier else task,
        "fit_metadata": _fit_metadata(plan, params or {}),
    }
    nested.n_splits_ = plan.n_outer
    # a callable scoring that returns a dict scores several metrics, as in scikit-learn's
    # searches (their multimetric_), under the keys it returns
    keys = list(dict.fromkeys(key for f in folds for key in f["test_scores_per_metric"]))
    returned_dict = not plan.scoring.multimetric and bool(keys) and keys != ["score"]
    nested.multimetric_ = plan.scoring.multimetric or returned_dict
    outer = {key: plan.scorers[key] for key in plan.scoring.outer_keys or plan.scorers}
    nested.scorer_ = outer if plan.scoring.multimetric else outer["score"]
    nested.refit_metric_ = plan.outer_metric(keys) if returned_dict else plan.refit_metric
    # no mean to report where a fold failed, as in summary() and the reports
    failed = _failed_outer_folds(folds, nested.outer_scores_, nested.refit_metric_).any()
    nested.score_mean_ = np.nan if failed else float(mean_of(nested.outer_scores_))
    nested.score_std_ = np.nan if failed else float(std_of(nested.outer_scores_))
    # validation and test scores of two different metrics (or one weighted, the other not)
    # have no difference to report
    nested.optimism_ = (
        mean_difference(mean_of(nested.validation_scores_), nested.score_mean_)
        if comparable
        else np.nan
    )
    nested.metrics_ = plan.metric_names(keys if returned_dict else None)
    nested.selection_metric_ = plan.selection_metric_name()
    nested.outer_cv_ = plan.outer_cv
    nested.resampling_ = dict(plan.resampling)
    nested.failed_tasks_ = run.results["failed_tasks"]
    nested.cache_info_ = run.results["cache_info"]
    if final is None:  # refit=False: nothing of a previous fit's final model stays
        for name in _FINAL_ATTRIBUTES:
            nested.__dict__.pop(name, None)
    else:
        nested.best_params_ = final["best_params"]
        # its row in cv_results_, whose final selection's rows come last
        first_final_row = int(np.flatnonzero(nested.cv_results_["outer_fold"] == -1)[0])
        nested.best_index_ = first_final_row + final["best_index"]
        nested.best_score_ = final["validation_score"]
        nested.best_estimator_ = final["estimator"]
        nested.refit_time_ = final["fit_time"]
        for name in ("n_features_in_", "feature_names_in_"):
            nested.__dict__.pop(name, None)  # a previous fit's, if this model has none
            if hasattr(nested.best_estimator_, name):
                setattr(nested, name, getattr(nested.best_estimator_, name))


def _fit_metadata(plan, params):
    """Name -> fingerprint of each fit parameter a run was given (``params``, and the groups
    of ``plan``) that the estimator's fit, a scorer or a search run whole received, by the
    name given to ``fit``: routed to the estimator and a scorer as their ``sample_weight``,
    ``fit(X, y, fit_weight=w, score_weight=v)`` records ``fit_weight`` and ``score_weight``,
    each once however many received it (routing passes the values given on, renamed, never
    copied). Groups that only split are not recorded. Two runs that differ only by their
    weights are told apart by their records, and the same numbers in a pandas Series or an
    array are one record (:func:`~sklearn_fair.utils._hashing.fingerprint_of_numbers`, as a
    weighted metric's note). A value that cannot be fingerprinted (a lambda) by its type."""
    data = plan.data
    received = {
        id(value)
        for routed in (
            data.search_params,
            *data.score_params.values(),
            *(data.selection_score_params or {}).values(),
            data.fit_params,
        )
        for value in routed.values()
    }
    recorded = {}
    for name, value in sorted({**params, "groups": plan.groups}.items()):
        if value is None or id(value) not in received:
            continue
        try:
            recorded[name] = fingerprint_of_numbers(value)
        except Exception:  # any failure to pickle (a live connection): after every fit
            recorded[name] = f"a {type(value).__name__}, not fingerprinted"
    return recorded


def _failed_outer_folds(folds, scores, key):
    """Which outer folds failed in metric ``key``: those whose score (of ``scores``, one per
    fold of ``outer_results_`` ``folds``) is not finite, or which were scored ``error_score``
    in it (whatever number it is: their ``failed_metrics`` lists ``key``). The one rule of
    :attr:`NestedCV.score_mean_` and :meth:`NestedCV.summary`, as the reports'
    (:meth:`~sklearn_fair.report._results.NestedResult.n_failed_folds`)."""
    listed = [key in fold.get("failed_metrics", ()) for fold in folds]
    return ~np.isfinite(scores) | np.array(listed, dtype=bool)


def _not_computed(scores, failed, metric, notes, interval, confidence):
    """The summary of fold ``scores`` of which some (where ``failed``) are those of failed
    outer folds: every statistic NaN, and which folds failed in place of an interval's
    method."""
    from ...metrics import metric_display_name
    from ...stats import Summary

    if isinstance(metric, str):
        metric = metric_display_name(metric)
    failed = np.flatnonzero(failed)
    folds = ", ".join(f"{fold} ({scores[fold]})" for fold in failed)
    why = (
        f"not computed: {failed.size} of {scores.size} outer folds failed (outer fold(s) "
        f"{folds}; see failed_tasks_)"
    )
    return Summary(
        n=int(scores.size),
        **dict.fromkeys(
            ("mean", "std", "sem", "ci_low", "ci_high", "median", "iqm", "iqm_ci_low"), np.nan
        ),
        iqm_ci_high=np.nan,
        confidence=float(confidence),
        interval=getattr(interval, "method", interval),
        ci_method=why,
        iqm_ci_method="not computed",
        metric=None if metric is None else metric.name,
        sign=1 if metric is None else metric.sign,
        metric_note="" if metric is None else metric.note,
        notes=tuple(notes),
    )


def fit_settings(nested):
    """The ``random_state``, ``error_score`` and task (``"classification"``,
    ``"regression"`` or None) a fitted NestedCV's fit ran with, as :func:`store_fitted`
    recorded them: its parameters may have been set for the next fit since. A NestedCV fitted
    before it recorded them: its parameters."""
    recorded = getattr(nested, "_fit_settings", None)
    if recorded is not None:
        return recorded
    params = nested.get_params(deep=False)
    return {
        "random_state": params.get("random_state"),
        "error_score": params.get("error_score"),
        "task": _task(nested),
    }


def _task(nested):
    """The task of a NestedCV's estimator (a search's own, where the search scores)."""
    params = nested.get_params(deep=False)
    estimator = params.get("estimator")
    if params.get("scoring") is None and isinstance(estimator, BaseSearchCV):
        estimator = estimator.estimator
    if is_classifier(estimator):
        return "classification"
    return "regression" if is_regressor(estimator) else None
