"""NestedCV: model selection inside, model assessment outside."""

from copy import deepcopy

import numpy as np
from sklearn.base import BaseEstimator, MetaEstimatorMixin
from sklearn.utils import get_tags
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ._engine import run_nested
from ._planning import make_plan, metadata_router, resolve_scorers

__all__ = ["NestedCV"]


def _final_estimator_has(attr):
    def check(self):
        if hasattr(self, "best_estimator_"):
            return hasattr(self.best_estimator_, attr)
        return hasattr(self.estimator, attr)

    return check


class NestedCV(MetaEstimatorMixin, BaseEstimator):
    """Nested cross-validation: an honest estimate of a tuned model's performance.

    The protocol of Errica et al. (2020), for any scikit-learn estimator. An outer
    k-fold estimates the risk. Inside every outer training fold, an inner hold-out
    (or k-fold) selects the hyper-parameters among the candidates. The selected
    configuration is then trained ``n_refits`` times on the whole outer training fold,
    each time with a different seed, and scored once on the outer test fold; the
    fold's test score is the mean of those refits. Test data never takes part in the
    selection, so :attr:`outer_scores_` are honest, and :attr:`optimism_` shows how
    far the validation scores (what is too often reported) overstate them.

    All fits of all outer folds are one flat set of independent tasks run with joblib,
    so every core stays busy; the results do not depend on ``n_jobs`` or the backend.

    Parameters
    ----------
    estimator : estimator object
        The model to tune and assess; it is cloned, never modified. It may itself be a
        scikit-learn search (``GridSearchCV``, ``RandomizedSearchCV``, ``HalvingGridSearchCV``,
        ...) when no search space is given here: that search becomes the inner model
        selection. GridSearchCV and RandomizedSearchCV are taken apart into their
        estimator, space, ``cv`` and ``scoring`` and run as independent fits; any other
        search is fitted whole inside each outer training fold (its own ``refit`` then
        costs one extra fit per fold).
    param_grid : dict or list of dicts, default=None
        Candidates with :class:`~sklearn.model_selection.ParameterGrid` semantics. With
        neither ``param_grid`` nor ``param_distributions`` (and no search as estimator)
        there is one candidate, the estimator as given: NestedCV then only assesses it.
    param_distributions : dict or list of dicts, default=None
        Candidates sampled with :class:`~sklearn.model_selection.ParameterSampler`.
    n_iter : int, default=10
        Number of candidates sampled from ``param_distributions``.
    outer_cv : int, cross-validation generator or iterable, default=10
        Outer resampling that estimates the risk. An int gives (Stratified)KFold as in
        scikit-learn (stratified for classifiers). An iterable of ``(train, test)`` index
        pairs is checked for out-of-range, duplicated and overlapping indices. A splitter
        with a ``get_inner_splits(fold)`` method (e.g. predefined split files) supplies each
        fold's inner splits, which are then used as they are.
    inner_cv : int, cross-validation generator or iterable, default=None
        Inner resampling that selects the hyper-parameters, applied to each outer training
        fold. ``None`` is one 90%/10% hold-out, stratified for classifiers
        (:class:`HoldoutSplit` with ``test_size=0.1``), seeded from ``random_state``. An
        iterable gives positions within each outer training fold.
    scoring : str, callable, list, dict or None, default=None
        As in GridSearchCV. Names may be scikit-learn's or ours ("kappa", "ppv", ...).
        ``None`` uses the estimator's ``score``. Every metric is reported per fold.
    refit : bool or str, default=True
        With several metrics, the name of the one that selects the hyper-parameters.
        When truthy, a final model is also selected and fitted on all the data
        (:attr:`best_estimator_`), so ``predict`` and friends work.
    n_refits : int, default=3
        How many times the selected configuration is retrained (with different seeds) on
        each outer training fold. Every parameter named ``random_state``, nested ones
        included, gets the seed. An estimator with no ``random_state`` anywhere is
        deterministic, so it is trained once whatever ``n_refits`` says.
    n_jobs : int, default=None
        Number of parallel jobs (joblib); ``None`` means 1 unless in a
        ``joblib.parallel_backend`` context.
    random_state : int, RandomState instance or None, default=None
        Seeds the default inner hold-out, the sampling of ``param_distributions``, the
        refit seeds, and the ``random_state`` parameters that the estimator leaves at
        ``None`` during the selection fits and the final fit (values set explicitly are
        kept there). Pass an int for reproducible results, whatever ``n_jobs`` is.
    error_score : 'raise' or float, default=np.nan
        Score given to a fit that fails; ``'raise'`` re-raises the error. Failed fits are
        summarised in one FitFailedWarning. An outer fold in which every candidate fails
        raises a ValueError carrying the first error.
    verbose : int, default=0
        ``1`` shows a progress bar with an ETA over all fits.
    cache_dir : str or path-like, default=None
        Folder of a resumable cache. Every finished task (an inner fit and its validation
        scores, a refit and its test scores) is written there at once, as JSON, atomically,
        under a hash of the data, the estimator's parameters, the split and the seed. Running
        the same fit again, after an interruption or a crash, recomputes only the tasks that
        are missing and gives identical results; a change to the data, a parameter or the
        splits only invalidates the entries it affects. Failed tasks are not stored (they are
        retried), nor are fitted models: the final model (``refit=True``) is always refitted,
        and nothing is ever unpickled from the folder.

    Attributes
    ----------
    outer_scores_ : ndarray of shape (n_outer,)
        Test score of each outer fold (mean over the refits) for the selecting metric.
    validation_scores_ : ndarray of shape (n_outer,)
        The winner's mean inner validation score in each outer fold.
    best_params_per_fold_ : list of dict
        The hyper-parameters selected in each outer fold.
    outer_results_ : list of dict
        Per outer fold: ``best_params``, ``validation_score``, ``test_scores`` (one per refit),
        ``test_score``, ``test_scores_per_metric``, ``refit_seeds``, ``train_indices``,
        ``test_indices``, ``fit_time`` and ``score_time`` (seconds summed over the fold's fits).
    score_mean_, score_std_ : float
        Mean and standard deviation (``np.std``, as scikit-learn and the paper report) of
        :attr:`outer_scores_`.
    optimism_ : float
        Mean validation score minus mean test score.
    cv_results_ : dict of ndarray
        One row per outer fold and candidate (loadable with ``pandas.DataFrame``).
    refit_seeds_ : list
        The seeds of the refits (``[None]`` when the estimator has no ``random_state``).
    n_splits_ : int
        Number of outer folds.
    best_params_, best_estimator_ : dict, estimator
        With ``refit``: the inner selection run on all the data, and the model fitted with
        its winner (``random_state`` parameters left at ``None`` are seeded from
        ``random_state``; values set explicitly are kept).
    best_score_ : float
        With ``refit``: the winner's mean validation score in that final selection.
    scorer_ : callable or dict
        The scorer(s) used.
    multimetric_ : bool
        Whether several metrics were given.
    failed_tasks_ : list of dict
        Every task that raised: its key (``outer_fold``, ``candidate``, ``inner_split``,
        ``refit_seed``) and the traceback text. Their scores are ``error_score``.
    cache_info_ : dict or None
        With ``cache_dir``: ``hits`` (tasks read from the cache) and ``computed``.

    See Also
    --------
    nested_cross_validate : The same protocol as a function, in the style of cross_validate.
    HoldoutSplit : The default inner split.

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

    def fit(self, X, y=None, *, groups=None, **params):
        """Run the nested protocol on ``X, y``.

        Parameters
        ----------
        X : array-like, DataFrame or sequence of graphs
            Training data. Graph data (items with a ``.y``) may come without ``y``.
        y : array-like of shape (n_samples,), default=None
            Target.
        groups : array-like of shape (n_samples,), default=None
            Group labels for group-aware splitters (outer and inner).
        **params : dict
            Fit parameters of the estimator (e.g. ``sample_weight``), indexed along with the
            data. With scikit-learn's metadata routing enabled they are routed to the
            estimator, the scorers and the splitters as each requested them.

        Returns
        -------
        self : NestedCV
        """
        plan, y, n_samples, multimetric = make_plan(
            type(self).__name__,
            self.estimator,
            X,
            y,
            param_grid=self.param_grid,
            param_distributions=self.param_distributions,
            n_iter=self.n_iter,
            outer_cv=self.outer_cv,
            inner_cv=self.inner_cv,
            scoring=self.scoring,
            refit=self.refit,
            n_refits=self.n_refits,
            n_jobs=self.n_jobs,
            random_state=self.random_state,
            error_score=self.error_score,
            verbose=self.verbose,
            groups=groups,
            params=params,
            final=bool(self.refit),
            cache_dir=self.cache_dir,
        )
        result = run_nested(plan, X, y, n_samples)
        self._store(plan, result, multimetric)
        return self

    def _store(self, plan, result, multimetric):
        folds = result["outer_results"]
        self.outer_results_ = folds
        self.outer_scores_ = np.array([f["test_score"] for f in folds])
        self.validation_scores_ = np.array([f["validation_score"] for f in folds])
        self.best_params_per_fold_ = [f["best_params"] for f in folds]
        self.score_mean_ = float(np.mean(self.outer_scores_))
        self.score_std_ = float(np.std(self.outer_scores_))
        self.optimism_ = float(np.mean(self.validation_scores_) - self.score_mean_)
        self.cv_results_ = _cv_results(plan, result["selection"][: plan.n_outer])
        self.refit_seeds_ = list(plan.refit_seeds)
        self.n_splits_ = plan.n_outer
        self.multimetric_ = multimetric
        self.scorer_ = plan.scorers if multimetric else plan.scorers["score"]
        self.refit_metric_ = plan.refit_metric
        self.failed_tasks_ = result["failed_tasks"]
        self.cache_info_ = result["cache_info"]
        if result["final"] is not None:
            final = result["final"]
            self.best_params_ = final["best_params"]
            self.best_score_ = final["validation_score"]
            self.best_estimator_ = final["estimator"]
            if hasattr(self.best_estimator_, "n_features_in_"):
                self.n_features_in_ = self.best_estimator_.n_features_in_
            if hasattr(self.best_estimator_, "feature_names_in_"):
                self.feature_names_in_ = self.best_estimator_.feature_names_in_

    def summary(self):
        """Summary statistics of :attr:`outer_scores_` (see :func:`sklearn_fair.stats.summarize`).

        Returns
        -------
        summary : object
            Mean, standard deviation, standard error, normal 95% interval, median, IQM
            and the bootstrap interval of the IQM; prints as a short table.
        """
        from ..stats import summarize

        check_is_fitted(self, "outer_scores_")
        return summarize(self.outer_scores_)

    @available_if(_final_estimator_has("predict"))
    def predict(self, X):
        """Predict with :attr:`best_estimator_`."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    @available_if(_final_estimator_has("predict_proba"))
    def predict_proba(self, X):
        """Class probabilities from :attr:`best_estimator_`."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_proba(X)

    @available_if(_final_estimator_has("predict_log_proba"))
    def predict_log_proba(self, X):
        """Log class probabilities from :attr:`best_estimator_`."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_log_proba(X)

    @available_if(_final_estimator_has("decision_function"))
    def decision_function(self, X):
        """Decision function of :attr:`best_estimator_`."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)

    @available_if(_final_estimator_has("transform"))
    def transform(self, X):
        """Transform with :attr:`best_estimator_`."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.transform(X)

    def score(self, X, y=None, **params):
        """Score :attr:`best_estimator_` on ``X, y`` with the selecting metric.

        Parameters
        ----------
        X : array-like
            Test data.
        y : array-like, default=None
            True targets.
        **params : dict
            Passed to the scorer (e.g. ``sample_weight``).

        Returns
        -------
        score : float
        """
        check_is_fitted(self, "best_estimator_")
        scorer = self.scorer_[self.refit_metric_] if self.multimetric_ else self.scorer_
        return scorer(self.best_estimator_, X, y, **params)

    @property
    def classes_(self):
        """Class labels of :attr:`best_estimator_`."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.classes_

    def get_metadata_routing(self):
        """Routing of fit metadata to the estimator, the scorers and the splitters.

        Returns
        -------
        routing : MetadataRouter
        """
        scorers, _ = resolve_scorers(self.estimator, self.scoring)
        return metadata_router(
            type(self).__name__, self.estimator, scorers, self.outer_cv, self.inner_cv
        )

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


def _cv_results(plan, selection):
    """One row per outer fold x candidate, as a dict of arrays."""
    rows = []
    max_inner = max(values.shape[1] for sel in selection for values in sel["inner_scores"].values())
    suffix = {name: name for name in plan.scorers}
    for fold, selected in enumerate(selection):
        for index, params in enumerate(selected["candidates"]):
            row = {"outer_fold": fold, "candidate": index, "params": params}
            for name, values in selected["inner_scores"].items():
                scores = values[index]
                for k in range(max_inner):
                    row[f"split{k}_validation_{suffix[name]}"] = (
                        scores[k] if k < scores.size else np.nan
                    )
                row[f"mean_validation_{suffix[name]}"] = float(np.mean(scores))
                row[f"std_validation_{suffix[name]}"] = float(np.std(scores))
            row["mean_fit_time"] = float(np.mean(selected["selection_fit_time"][index]))
            row["mean_score_time"] = float(np.mean(selected["selection_score_time"][index]))
            row["selected"] = index == selected["best_index"]
            rows.append(row)
    names = list(dict.fromkeys(key for row in rows for key in row))
    param_names = sorted({p for row in rows for p in row["params"]})
    results = {}
    for name in names:
        values = [row.get(name, np.nan) for row in rows]
        results[name] = np.array(values, dtype=object if name == "params" else None)
    for param in param_names:
        results[f"param_{param}"] = np.array(
            [row["params"].get(param) for row in rows], dtype=object
        )
    for name in plan.scorers:
        results[f"rank_validation_{name}"] = _rank_within_folds(
            results["outer_fold"], results[f"mean_validation_{name}"]
        )
    return results


def _rank_within_folds(folds, means):
    from scipy.stats import rankdata

    ranks = np.zeros(len(means), dtype=np.int32)
    for fold in np.unique(folds):
        mask = folds == fold
        values = means[mask].astype(float)
        if np.all(np.isnan(values)):
            ranks[mask] = 1
            continue
        values = np.where(np.isnan(values), np.nanmin(values) - 1, values)
        ranks[mask] = rankdata(-values, method="min").astype(np.int32)
    return ranks
