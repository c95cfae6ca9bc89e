"""benchmark(): every model on every data set, nested, on shared splits, in one task pool."""

import unicodedata
import warnings
from dataclasses import replace

import numpy as np
from sklearn.base import clone
from sklearn.utils import indexable
from sklearn.utils._param_validation import (
    InvalidParameterError,
    validate_parameter_constraints,
)
from sklearn.utils.validation import _num_samples

from ..exceptions import CacheWarning
from ..metrics._names import describe_metric, same_metric
from ..model_selection import NestedCV
from ..model_selection._engine import (
    REFIT,
    check_dense_y,
    check_rows_line_up,
    is_search,
    make_plan,
    run_protocol,
    shared_root_seed,
    store_fitted,
)
from ..model_selection._nested._inputs import groups_1d
from ..report._card import RECORDED_EXTRA
from ..report._results import as_result
from ..stats._checks import check_same_splits
from ..utils import UnhashableError, describe, is_graph_data, package_versions
from ..utils._printing import quoted_names, unclear_name
from ..utils._random import check_random_state_param
from ..utils._splits import reusable_splits
from ._extend import (
    check_previous,
    check_previous_plans,
    check_protocol,
    check_same,
    data_fingerprint,
    merged,
    model_fingerprint,
    protocol_fingerprints,
    recorded_sizes,
    sklearn_fingerprints,
)
from ._said_once import SaidOnce, cell_owner


def _same(a, b):
    """Whether two parameter values have the same content (undescribable: the same object)."""
    try:
        return a is b or describe(a) == describe(b)
    except UnhashableError:
        return False


#: NestedCV's own default outer_cv: a NestedCV model left at it takes the benchmark's.
_DEFAULT_OUTER_CV = NestedCV(None).outer_cv


def _check_own_settings(name, nested, outer_cv, refit):
    """Refuse a NestedCV model whose own outer resampling (other than NestedCV's default) or
    selecting metric differs from the benchmark's, which every model of a data set shares and
    which would silently replace it."""
    own = nested.outer_cv
    benchmarks = outer_cv.values() if isinstance(outer_cv, dict) else [outer_cv]
    if not _same(own, _DEFAULT_OUTER_CV) and not all(_same(own, cv) for cv in benchmarks):
        raise ValueError(
            f"The 'models' parameter of benchmark maps {name!r} to a NestedCV with outer_cv="
            f"{own!r}, but benchmark assesses every model of a data set on its own outer_cv="
            f"{outer_cv!r:.200}, which would replace it. Pass that outer resampling as "
            "benchmark's outer_cv, or leave the NestedCV's outer_cv at its default "
            f"({_DEFAULT_OUTER_CV})."
        )
    if isinstance(nested.refit, str) and refit is not None and nested.refit != refit:
        raise ValueError(
            f"The 'models' parameter of benchmark maps {name!r} to a NestedCV with refit="
            f"{nested.refit!r}, but benchmark selects and compares every model with its refit="
            f"{refit!r}, which would replace it. Pass the same metric to both, or give the "
            "NestedCV refit=True (the benchmark's metric)."
        )


def _nested_for(name, spec, *, outer_cv, inner_cv, n_refits, scoring, refit, random_state,
                fit_timeout, error_score, reuse_prefix, select):  # fmt: skip
    """The NestedCV (a clone, never the user's object) that runs model ``name``; its
    ``refit`` only names the selecting metric (a benchmark fits no final model)."""
    # a dict's outer_cv is replaced by each data set's own in benchmark
    shared = dict(outer_cv=_DEFAULT_OUTER_CV if isinstance(outer_cv, dict) else outer_cv,
                  n_jobs=None, verbose=0, cache_dir=None)  # fmt: skip
    if isinstance(spec, NestedCV):
        _check_own_settings(name, spec, outer_cv, refit)
        nested = clone(spec).set_params(**shared)
        if refit is not None or not isinstance(nested.refit, str):
            _check_refit_names_metric(name, nested.scoring or scoring, refit)
            nested.set_params(refit=refit if refit is not None else False)
        unset = {"random_state": random_state, "fit_timeout": fit_timeout, "scoring": scoring}
        nested.set_params(**{k: v for k, v in unset.items() if getattr(nested, k) is None})
        # error_score: NaN, the default of both, leaves it unset
        own = nested.error_score
        own_set, given = (not (isinstance(v, (float, np.floating)) and np.isnan(v))
                          for v in (own, error_score))  # fmt: skip
        if given and not own_set:
            nested.set_params(error_score=error_score)
        elif given and not (isinstance(own, str) == isinstance(error_score, str)
                            and own == error_score):  # fmt: skip
            raise ValueError(
                f"The 'models' parameter of benchmark maps {name!r} to a NestedCV with "
                f"error_score={own!r}, but benchmark has error_score={error_score!r}, and a "
                "cell scores its failed fits with one. Pass the same error_score to both, or "
                "leave one of them at its default (np.nan)."
            )
        if not reuse_prefix:
            nested.set_params(reuse_prefix=False)
        return nested
    _check_refit_names_metric(name, scoring, refit)
    common = dict(
        shared, refit=refit if refit is not None else False, inner_cv=inner_cv,
        n_refits=n_refits, scoring=scoring, random_state=random_state, fit_timeout=fit_timeout,
        error_score=error_score, reuse_prefix=reuse_prefix, select=select,
    )  # fmt: skip
    if is_search(spec):
        return NestedCV(clone(spec), **common)
    if isinstance(spec, tuple) and len(spec) == 2 and hasattr(spec[0], "fit"):
        estimator, grid = spec
        if grid is not None and not isinstance(grid, (dict, list)):
            raise ValueError(
                f"The 'models' parameter of benchmark maps {name!r} to an (estimator, "
                f"param_grid) pair whose param_grid is {grid!r}; it must be a dict, a list of "
                "dicts or None."
            )
        return NestedCV(clone(estimator), grid, **common)
    if hasattr(spec, "fit") and hasattr(spec, "get_params"):
        return NestedCV(clone(spec), **common)
    raise ValueError(
        f"The 'models' parameter of benchmark maps {name!r} to {spec!r}; each value must be a "
        "scikit-learn search (GridSearchCV, RandomizedSearchCV, a halving search), an "
        "(estimator, param_grid) pair, a NestedCV or an estimator."
    )


def _check_refit_names_metric(name, scoring, refit):
    """Refuse several named metrics without a ``refit`` naming the one that selects (the
    NestedCV that runs a model would name its own ``refit=False``, not the user's None)."""
    if refit is None and isinstance(scoring, (list, tuple, dict)) and len(scoring) > 1:
        raise ValueError(
            "With several metrics in 'scoring', the 'refit' parameter of benchmark must name "
            f"the metric that selects the hyper-parameters (and that its tables compare), one "
            f"of {sorted(map(str, scoring))}, for model {name!r}. Got None."
        )


def _own_seed(spec):
    """Whether a model brings a random_state of its own (a NestedCV keeps it)."""
    return isinstance(spec, NestedCV) and spec.random_state is not None


def _check_shared_splits(outer_cv, sizes, reached=None):
    """Refuse one list of (train, test) splits for data sets of different sizes: it cannot
    split both (the larger one's rows beyond the other's would never be tested). ``reached``:
    the data sets of a previous benchmark not loaded here -> the rows their recorded splits
    reach (:func:`~._extend.recorded_sizes`)."""
    reached = {k: v for k, v in (reached or {}).items() if k not in sizes}
    if isinstance(outer_cv, (list, tuple)) and len({*sizes.values(), *reached.values()}) > 1:
        shown = ", ".join(
            [f"{name!r}: {n} rows" for name, n in sizes.items()]
            + [f"{name!r} of the previous benchmark: splits reaching {n} rows"
               for name, n in reached.items()]
        )  # fmt: skip
        raise ValueError(
            f"The 'outer_cv' parameter of benchmark is one list of splits for data sets of "
            f"different sizes ({shown}). Give each data set its own splits: outer_cv as a dict "
            "(data set name -> splits), or a splitter."
        )


def _load(name, spec):
    """``(X, y, groups)`` of data set ``name``: a tuple, graph data, or a callable giving one."""
    if callable(spec) and not is_graph_data(spec) and not hasattr(spec, "shape"):
        spec = spec()
    # (graphs, y) is a pair, not a sequence of graphs: its first item is a whole data set
    pair = isinstance(spec, tuple) and len(spec) in (2, 3) and is_graph_data(spec[0])
    if is_graph_data(spec) and not pair:
        return spec, None, None
    if isinstance(spec, (tuple, list)) and len(spec) in (2, 3):
        X, y, *rest = spec
        groups = rest[0] if rest else None
        check_dense_y(y, f"The y of data set {name!r}")
        # here, as y loses its index below (NestedCV's own check still sees the groups')
        check_rows_line_up(X, [("y", y)], of=f" of data set {name!r}")
        # made indexable once, as NestedCV would make it, so that every model's plan holds the
        # same arrays and the pool ships them once
        X, y, groups = indexable(X, y, groups)
        return X, (None if y is None else np.asarray(y)), groups
    raise ValueError(
        f"The 'datasets' parameter of benchmark maps {name!r} to {type(spec).__name__} "
        f"{spec!r:.80}; each value must be (X, y), (X, y, groups), graph data (a sequence of "
        "graphs with a .y), or a callable without arguments that returns one of them."
    )


def _check_mapping(value, what):
    if not isinstance(value, dict) or not value:
        raise ValueError(
            f"The '{what}' parameter of benchmark must be a non-empty dict mapping names to "
            f"{'models' if what == 'models' else 'data sets'}. Got {value!r:.80} instead."
        )
    bad = [key for key in value if not isinstance(key, str)]
    if bad:
        raise ValueError(
            f"The '{what}' parameter of benchmark must have str keys (names). Got {bad[0]!r} "
            "instead."
        )
    _check_names_apart(value, what)


def _control_name(names):
    """``(name, None, why)``, as :func:`~sklearn_fair.utils._printing.unclear_name` gives it,
    for the first of ``names`` holding a control character (Unicode category Cc: a tab, a
    newline, a BEL, an ESC, a DEL, U+0085), which a terminal acts on and a page drops; None
    where none does."""
    for name in names:
        control = next((c for c in name if unicodedata.category(c) == "Cc"), None)
        if control is not None:
            return name, None, f"holds U+{ord(control):04X}, a control character"
    return None


def _check_names_apart(names, what):
    """Refuse a name of ``what`` that a table would not show as itself and apart from the
    others: one holding a control character (:func:`_control_name`), or one that
    :func:`~sklearn_fair.utils._printing.unclear_name` finds."""
    unclear = _control_name(names) or unclear_name(names)
    if unclear is not None:
        name, other, why = unclear
        shown = " and ".join(quoted_names([n for n in (other, name) if n is not None]))
        raise ValueError(
            f"The '{what}' parameter of benchmark must have names that a table shows apart: "
            "none starting or ending with white space or holding an invisible or control "
            f"character, and no two shown alike. Got {shown}, which {why}; rename "
            f"{'it' if other is None else 'one of them'}."
        )


def _check_own_params(**params):
    """Check the parameters that benchmark keeps to itself, its errors naming benchmark: those
    that NestedCV has too by NestedCV's constraints, ``baseline_floor`` as a bool."""
    constraints = {"baseline_floor": ["boolean"]}
    constraints.update(
        (name, NestedCV._parameter_constraints[name]) for name in params if name not in constraints
    )
    validate_parameter_constraints(constraints, params, caller_name="benchmark")


def _validate_settings(nested, model, settings):
    """NestedCV's checks of what ``benchmark`` gives the model ``model``, their errors naming
    benchmark: a parameter of its own (one of ``settings``) as its, another (the model's
    grid) as the model's."""
    try:
        nested._validate_params()
    except InvalidParameterError as exc:
        param = str(exc).split("'")[1] if str(exc).startswith("The '") else None
        owner = "benchmark" if param in settings else f"benchmark (model {model!r})"
        message = str(exc).replace(" parameter of NestedCV ", f" parameter of {owner} ", 1)
        raise InvalidParameterError(message) from None


def check_same_outer_splits(dataset, plans):
    (first_name, first), *others = plans.items()
    for name, plan in others:
        check_same_splits(
            first_name, tuple(zip(*first.outer_splits)), name, tuple(zip(*plan.outer_splits)),
            who=f"benchmark (data set {dataset!r})",
            fix="every model must be assessed on the same splits (an unseeded shuffling "
            "splitter, or models of different kinds, classifier and regressor, under an int "
            "outer_cv, give each its own): pass a seeded splitter or explicit (train, test) "
            "index pairs as outer_cv",
        )  # fmt: skip


def check_two_outer_splits(dataset, plans, outer_cv):
    """Refuse, before any fit, outer splits too few for a result: a report needs the spread of
    at least 2 outer scores."""
    n_outer = next(iter(plans.values())).n_outer
    if n_outer < 2:
        given = outer_cv[dataset] if isinstance(outer_cv, dict) else outer_cv
        if isinstance(given, (list, tuple)):  # index arrays: their count, not their repr
            given = f"a list of {len(given)} (train, test) pair(s)"
        else:
            given = f"{given!r:.200}"
        raise ValueError(
            f"The 'outer_cv' parameter of benchmark is {given}, which gives "
            f"{n_outer} outer split(s) of data set {dataset!r}; benchmark needs at least 2 to "
            "estimate a spread. Pass an int >= 2, a splitter of at least 2 splits (KFold(5), "
            "ShuffleSplit(n_splits=10)) or at least 2 (train, test) index pairs."
        )


def metrics_apart(metrics):
    """``(alike, shown)`` where the models' ``metrics`` (name -> MetricName) are not one metric
    (:func:`~sklearn_fair.metrics._names.same_metric`): whether they print alike, and each in
    words (by what computes it where they print alike); None where they are one."""
    if same_metric(metrics.values()):
        return None
    alike = len({metric.name for metric in metrics.values()}) == 1
    shown = ", ".join(
        f"{name!r}: {describe_metric(m) if alike else m}" for name, m in metrics.items()
    )
    return alike, shown


def _one_metric(dataset, plans):
    """Refuse, before any fit, a data set whose models would be scored with different metrics
    (the tables and tests compare one metric per data set), those printed alike too."""
    apart = metrics_apart(
        {model: plan.metric_names()[plan.refit_metric] for model, plan in plans.items()}
    )
    if apart is None:
        return
    alike, shown = apart
    own_methods = all(plan.scoring.scoring is None for plan in plans.values())
    why = (
        "two scorers under one key of 'scoring', or the own score methods of two estimators "
        "(scoring=None), which compute different metrics. The tables and tests compare one "
        "metric per data set: pass benchmark a common 'scoring'"
        if alike
        else "each model scores with its own score method (scoring=None), and these compute "
        "different metrics. The tables and tests compare one metric per data set: pass "
        "benchmark a common 'scoring'"
        if own_methods
        else "a search or NestedCV model scores with its own 'scoring', the others with "
        "benchmark's. The tables and tests compare one metric per data set: pass benchmark "
        "the 'scoring' to compare (a search then still selects with its own),"
    )
    raise ValueError(
        f"The models of benchmark would score data set {dataset!r} with different metrics"
        f"{' under one name' if alike else ''} ({shown}): {why} and give a NestedCV model that "
        "scoring or none."
    )


def _budget(nested, schedule):
    """What a cell spent on tuning and refitting: candidates, fits and seconds; its counts of
    candidates and inner fits those its NestedCV recorded (:func:`store_fitted`), as
    result_to_dict saves them."""
    results = schedule.results
    phases = [key.phase for key in results]
    return {
        **nested._tuning_counts,
        "n_refit_fits": phases.count(REFIT),
        "fit_time": float(sum(r["fit_time"] for r in results.values())),
    }


def benchmark(
    models,
    datasets,
    *,
    outer_cv=10,
    inner_cv=None,
    n_refits=3,
    scoring=None,
    refit=None,
    baseline=None,
    baseline_floor=False,
    random_state=None,
    n_jobs=None,
    cache_dir=None,
    verbose=0,
    fit_timeout=None,
    error_score=np.nan,
    reuse_prefix=True,
    select="best",
    previous=None,
    keep_predictions=False,
):
    """Assess every model on every data set with nested cross-validation, on shared splits.

    Each cell (a model on a data set) is the nested protocol of :class:`~sklearn_fair.NestedCV`
    without the final model on all the data, and gives NestedCV's results on that cell alone
    with the same parameters. On one data set every model is assessed on the same outer splits
    and, where its inner resampling is the same, selects on the same inner splits with the same
    refit seeds. All the fits of all the cells form one pool of tasks (one scheduler, one cache,
    one progress bar): a benchmark killed half-way and run again with the same ``cache_dir``
    computes only what is missing.

    Parameters
    ----------
    models : dict
        Name -> model: a scikit-learn search (``GridSearchCV``, ``RandomizedSearchCV``, a
        halving search; its ``cv`` is the inner resampling unless ``inner_cv`` is given, which
        replaces it), an
        ``(estimator, param_grid)`` pair, an estimator (assessed as it is), or a
        :class:`~sklearn_fair.NestedCV`, which keeps its own search space, ``inner_cv``,
        ``n_refits``, ``scoring``, ``refit`` metric and ``error_score``, takes the benchmark's
        ``random_state``, ``fit_timeout`` and ``scoring`` where it leaves them at None, its
        ``error_score`` where it leaves it at NaN (and ``refit`` where its own is a bool), and
        is assessed on the benchmark's ``outer_cv``: one with an ``outer_cv`` other than its
        default (10) and the benchmark's, or a ``refit`` metric other than the benchmark's, is
        refused, as the benchmark's would replace it, and so is one whose ``error_score``
        differs from the benchmark's, neither being NaN. Its ``n_jobs``, ``verbose`` and
        ``cache_dir`` give way to the benchmark's (they change no result).
    datasets : dict
        Name -> data: ``(X, y)``, ``(X, y, groups)`` (a third element is always the groups,
        never weights: ``benchmark`` does not weight rows; weighted results are put together
        with :meth:`BenchmarkResult.from_results
        <sklearn_fair.benchmarking.BenchmarkResult.from_results>`), graph data (a sequence
        of graphs with a ``.y``, e.g. a PyG ``TUDataset``), or a callable without arguments
        that returns one of these (called once, before any fit: every data set is held in
        memory until the benchmark returns, so its peak memory is that of all of them
        together, a callable's too; data sets too large for that run one at a time, each
        call adding its cells to the last one's result: ``benchmark(models, {name: data},
        previous=result)``). A model's or a data set's name that a table would not show
        as itself and apart is refused: one that starts or ends with white space or a
        blank letter (a Hangul filler), shows as nothing, holds a control
        character (Unicode category Cc, such as a tab, a newline, an ESC or U+0085)
        or an invisible character (Unicode category Cf, such as a zero-width space; a
        zero-width non-joiner or joiner between two visible characters, as Persian, Indic
        scripts and emoji write them, is taken), and two that are alike once NFC-normalised,
        without their format characters and other Default_Ignorable code points (a combining
        grapheme joiner, a Hangul filler, a variation selector), with their full-width and
        half-width forms as the characters they are forms of (``"ｋｎｎ"`` is ``"knn"``) and
        their runs of white space as one; superscripts, Roman numerals and ligatures are told
        apart (``"x²"`` from ``"x2"``). The message shows the names with their hidden
        characters escaped.
    outer_cv : int, cross-validation generator, iterable or dict, default=10
        The outer resampling, as in NestedCV, the same for every model of a data set (a
        splitter that would give two models different splits is refused); a dict gives each
        data set its own (name -> outer_cv), e.g. a published comparison's split files.
    inner_cv : int, cross-validation generator or iterable, default=None
        The inner resampling of every model but a NestedCV (which keeps its own): it replaces
        the ``cv`` of a search given as a model, with a
        :class:`~sklearn_fair.exceptions.SklearnFairWarning` where the search's ``cv`` was set
        and differs. None keeps a search's own ``cv``, and is NestedCV's default (a 90%/10%
        hold-out seeded from ``random_state``) for the other models.
    n_refits : int, default=3
        Refits of the selected configuration per outer fold (see NestedCV).
    scoring : str, callable, list, dict or None, default=None
        As in NestedCV, for every model but a NestedCV with a scoring of its own; a search with
        its own ``scoring`` selects with it and is scored with this one (with its own where
        this is None). The models of a data set must share the metric (other metrics are
        refused before any fit). Scores are the scorers' values (higher is better).
    refit : str, default=None
        With several metrics in ``scoring``, the one that selects the hyper-parameters and that
        the tables and tests compare (as NestedCV's ``refit``).
    baseline : str, default=None
        The model the others are compared with by default (:meth:`BenchmarkResult.compare_to`).
    baseline_floor : bool, default=False
        Declare the baseline a chance-level floor (a ``DummyClassifier``), compared with but not
        tuned like the models: its small budget raises no
        :class:`~sklearn_fair.exceptions.UnequalBudgetWarning`. With ``previous`` and no
        ``baseline``, it declares the previous baseline a floor (one already a floor stays one);
        ``True`` without any baseline is refused.
    random_state : int, RandomState instance, Generator or None, default=None
        One seed for every cell (drawn once when not an int), so all models share inner splits
        and refit seeds. Pass an int for reproducible and resumable runs.
    n_jobs : int, default=None
        Workers of the one pool, as in NestedCV (loky, threading or Dask under a
        ``joblib.parallel_config`` context).
    cache_dir : str or path-like, default=None
        Folder of NestedCV's resumable cache, shared by all the cells.
    verbose : int, default=0
        ``1`` shows one progress bar for the whole benchmark.
    fit_timeout : float, default=None
        Time limit in seconds for each fit (see NestedCV); a NestedCV model that sets its
        own keeps it. Each fit is held to its own model's limit: a model left without one
        (``fit_timeout=None`` here and in it) is never stopped.
    error_score : 'raise' or float, default=np.nan
        Score of a fit that fails (see NestedCV), for every model but a NestedCV with an
        ``error_score`` of its own (other than NaN).
    reuse_prefix : bool, default=True
        Fit a pipeline step once where several fits of a cell train it alike, and reuse it (see
        NestedCV), never across cells. Results are identical either way for steps that follow
        scikit-learn's contract (``transform`` leaves the fitted state unchanged); a step that
        breaks it is found and refitted, with a warning. ``False`` turns it off for every
        cell, as does a NestedCV model with ``reuse_prefix=False`` for its own.
    select : {"best", "one_se"}, default="best"
        How each fold's winner is picked (see NestedCV), for every model but a NestedCV.
    keep_predictions : bool, default=False
        Keep every refit's predictions on its outer test fold (cached with its scores, but for
        date labels, which JSON cannot hold), for
        :meth:`BenchmarkResult.plot_predictions`, :attr:`BenchmarkResult.predictions` and the
        report's plots of what each model predicted.
    previous : BenchmarkResult, default=None
        A finished benchmark (from this function or :meth:`BenchmarkResult.load`) to extend:
        only the cells of ``models`` on ``datasets`` that it lacks are computed, as if all had
        run at once. Pass the previous settings, and the models and data sets the new cells
        need (a new model needs every previous data set, a new data set every previous model);
        one given again must be the one the previous run had (checked by fingerprint, as each
        data set's outer splits and metric are), and so must ``inner_cv``, ``n_refits``,
        ``scoring``, ``refit``, ``fit_timeout``, ``error_score`` and ``select`` (each cell
        records their fingerprints; a file saved before it did is extended with an
        :class:`~sklearn_fair.exceptions.UncheckedResultWarning`), and scikit-learn's global
        settings that change results (``transform_output``, ``enable_metadata_routing``...,
        recorded in each cell; run inside ``sklearn.config_context`` with the previous ones);
        ``reuse_prefix``, ``keep_predictions`` and a NestedCV's own may differ (they change no
        result).
        ``random_state=None`` takes the seed the previous cells ran with (refused where they
        record none or several, as a result made by hand from cells may: pass it). Cells that
        ran under other versions of sklearn-fair, scikit-learn, NumPy or SciPy give a
        :class:`~sklearn_fair.exceptions.ReproducibilityWarning`.

    Returns
    -------
    BenchmarkResult
        Scores, tables, comparisons with the baseline, rank tests, aggregates across data
        sets, tuning budgets, plots and the HTML report.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer, load_wine
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_fair import benchmark
    >>> models = {
    ...     "prior": DummyClassifier(),
    ...     "logistic": (make_pipeline(StandardScaler(), LogisticRegression()),
    ...                  {"logisticregression__C": [0.1, 1.0]}),
    ... }
    >>> datasets = {"wine": load_wine(return_X_y=True),
    ...             "cancer": load_breast_cancer(return_X_y=True)}
    >>> result = benchmark(models, datasets, outer_cv=3, n_refits=1, baseline="prior",
    ...                    random_state=0)
    >>> result.scores.shape
    (12, 5)
    >>> comparison = result.compare_to()
    >>> list(comparison["model"]), bool(comparison["significant"].all())
    (['logistic', 'logistic'], True)
    """
    _check_mapping(models, "models")
    _check_mapping(datasets, "datasets")
    check_random_state_param(random_state, "benchmark")
    _check_own_params(
        reuse_prefix=reuse_prefix, keep_predictions=keep_predictions, n_jobs=n_jobs,
        verbose=verbose, cache_dir=cache_dir, baseline_floor=baseline_floor,
    )  # fmt: skip
    if isinstance(outer_cv, dict) and set(outer_cv) != set(datasets):
        raise ValueError(
            "The 'outer_cv' parameter of benchmark, when a dict, must give the outer "
            f"resampling of every data set {sorted(datasets)}. Got one for {sorted(outer_cv)}."
        )
    if baseline is not None and (
        not isinstance(baseline, str)  # one name: a dict or list is not a baseline per data set
        or (
            baseline not in models
            and baseline not in (previous.models if previous is not None else ())
        )
    ):
        raise ValueError(
            f"The 'baseline' parameter of benchmark must be one of the models' names "
            f"{sorted(models)} or None. Got {baseline!r} instead."
        )
    todo = None
    if previous is not None:
        random_state, todo = check_previous(previous, models, datasets, random_state)
        _check_names_apart([*previous.models, *models], "models")
        _check_names_apart([*previous.datasets, *datasets], "datasets")
    if baseline_floor and baseline is None and (previous is None or previous.baseline is None):
        raise ValueError(
            f"The 'baseline_floor' parameter of benchmark is {baseline_floor!r}, but there is "
            "no baseline to declare a chance-level floor: pass the floor model's name as "
            "'baseline'"
            + (", as the previous benchmark has none" if previous is not None else "")
            + ", or baseline_floor=False."
        )
    # splits given as a generator (TimeSeriesSplit(3).split(X)) are read once, for every model
    if isinstance(outer_cv, dict):
        outer_cv = {name: reusable_splits(cv) for name, cv in outer_cv.items()}
    outer_cv = reusable_splits(outer_cv)
    seed, seeded = shared_root_seed(random_state)
    if cache_dir is not None and not seeded:
        warnings.warn(
            "benchmark has random_state=None, so its seeds differ on every run and cache "
            "entries of earlier runs cannot be reused. Pass an int random_state to resume runs.",
            CacheWarning,
            stacklevel=2,
        )
    settings = dict(
        outer_cv=outer_cv, inner_cv=inner_cv, n_refits=n_refits, scoring=scoring, refit=refit,
        random_state=seed, fit_timeout=fit_timeout, error_score=error_score,
        reuse_prefix=reuse_prefix, select=select,
    )  # fmt: skip
    nesteds = {name: _nested_for(name, spec, **settings) for name, spec in models.items()}
    model_fingerprints, data_fingerprints = {}, {}
    protocol = protocol_fingerprints(settings)
    for name, nested in nesteds.items():
        _validate_settings(nested, name, settings)
        model_fingerprints[name] = model_fingerprint(nested)
        check_same(previous, "model", name, model_fingerprints[name], nested=nested,
                   protocol=protocol, settings=settings)  # fmt: skip
    check_protocol(previous, protocol, settings)

    cells, plans, sizes = [], [], {}
    reached = recorded_sizes(previous) if previous is not None else {}
    heard = SaidOnce()  # a model's warning on every data set is said once, naming them
    try:
        for dataset, spec in datasets.items():
            if todo is not None and not any(d == dataset for d, _ in todo):
                continue
            X, y, groups = _load(dataset, spec)
            sizes[dataset] = _num_samples(X)
            _check_shared_splits(outer_cv, sizes, reached)
            # one column of groups (df[["patient"]]) is that column, as NestedCV reads it; a
            # benchmark saved before fingerprinted the column as given
            column = groups_1d(groups)
            data_fingerprints[dataset] = data_fingerprint(X, y, column)
            former = () if column is groups else (data_fingerprint(X, y, groups),)
            check_same(previous, "data", dataset, data_fingerprints[dataset], former=former)
            dataset_plans = {}
            for model, template in nesteds.items():
                if todo is not None and (dataset, model) not in todo:
                    continue
                nested = clone(template)
                if isinstance(outer_cv, dict):  # a copy, as clone gives the others theirs
                    nested.set_params(outer_cv=clone(outer_cv[dataset], safe=False))
                keep = bool(keep_predictions or nested.keep_predictions)  # or its NestedCV's own
                with heard.cell(model, dataset):
                    plan = make_plan(
                        nested, X, y, groups, {}, final=False, return_estimator=False,
                        owner=cell_owner(model, dataset), keep_predictions=keep,
                        seeded=seeded or _own_seed(models[model]),
                    )  # fmt: skip
                dataset_plans[model] = plan
                cells.append((dataset, model, nested))
                plans.append(plan)
            check_same_outer_splits(dataset, dataset_plans)
            check_two_outer_splits(dataset, dataset_plans, outer_cv)
            _one_metric(dataset, dataset_plans)
            check_previous_plans(previous, dataset, dataset_plans, outer_cv)
    finally:
        heard.say()

    reuse = [nested.reuse_prefix for _, _, nested in cells]
    # a cell never warns that it is unseeded (it gets the int root seed): the one warning,
    # above, is the benchmark's
    runs = run_protocol(
        plans, cache_dir=cache_dir, n_jobs=n_jobs, verbose=verbose, label="benchmark fits",
        reuse_prefix=reuse, all_failed="keep",
    )  # fmt: skip
    # the versions that ran the fits (the card's table), taken now: a later upgrade or edit
    # must not be saved, nor printed, as theirs
    versions = package_versions(RECORDED_EXTRA)
    results, recorded = {}, {}
    for (dataset, model, nested), run in zip(cells, runs):
        store_fitted(nested, run)
        result = as_result(model, nested, dataset=dataset, budget=_budget(nested, run.schedule))
        results[dataset, model] = replace(result, versions=dict(versions))
        recorded[dataset, model] = {
            "data": data_fingerprints[dataset],
            "model": model_fingerprints[model],
            **protocol,
            **sklearn_fingerprints(),
        }
    return merged(previous, results, recorded, baseline=baseline, baseline_floor=baseline_floor,
                  random_state=seed)  # fmt: skip
