"""The parameter texts that NestedCV and its functional forms share, written once.

Each docstring that says ``{name}`` gets ``PARAMETER_DOCS[name]`` there
(:func:`~sklearn_fair.utils.fill_doc`).
"""

__all__ = ["PARAMETER_DOCS"]

PARAMETER_DOCS = {
    "estimator": """estimator : estimator object
    The model to tune and assess; it is cloned, never modified. It may itself be a
    scikit-learn search (``GridSearchCV``, ``HalvingGridSearchCV``, ...) when no search space
    is given here: that search becomes the inner model selection, with its own ``scoring``
    and ``refit``. GridSearchCV and RandomizedSearchCV are taken apart into independent
    fits; any other search (or one with a callable ``refit``) is fitted whole inside each
    outer training fold, its unset ``random_state`` parameters seeded from
    ``random_state``; its own refit is left out where one metric selects (``refit=True``
    with one ``scoring``), and costs one extra fit per fold where ``refit`` names a metric
    or is a callable. The search's ``refit`` is
    never what is scored: its best parameters are refitted here (``n_refits`` times), so a
    search with ``refit=False`` gets outer scores, where ``cross_validate(search)`` scores
    NaN (a search that does not refit cannot predict).""",
    "X": """X : array-like, sparse matrix, DataFrame or sequence of graphs
    The data. Graph data (items with a ``.y``) may come without ``y``.""",
    "y": """y : array-like of shape (n_samples,), default=None
    The target. It reaches every ``fit`` and scorer in the container given (a list, a
    pandas Series), indexed by rows, as in ``cross_validate``.""",
    "groups": """groups : array-like of shape (n_samples,), default=None
    Group labels (patients, sites, molecules...). Unlike ``cross_validate``, which ignores
    them for an int ``cv``, every split the protocol makes keeps each group on one side,
    outer and inner: an int ``cv`` (or the default) becomes ``StratifiedGroupKFold`` for a
    classifier, ``GroupKFold`` otherwise, and so does an int ``inner_cv`` or the own ``cv``
    of a search taken apart; the default inner hold-out holds out whole groups; a splitter
    you pass that puts a group on both sides of an outer split gets a
    :class:`~sklearn_fair.exceptions.GroupLeakageWarning`. A search run whole splits by its
    own ``cv`` (by an ``inner_cv`` given in its place, an int made group-aware as above) and
    gets the groups only as scikit-learn's idiom gives them (``params={"groups": groups}``);
    where its splits ignore them, a
    :class:`~sklearn_fair.exceptions.SplitLeakageWarning` says so. With metadata routing
    enabled, pass them in ``params`` instead, as in ``cross_validate``.""",
    "param_grid": """param_grid : dict or list of dicts, default=None
    Candidates with :class:`~sklearn.model_selection.ParameterGrid` semantics, pipeline
    steps swapped in the grid included (``{"reduce": [PCA(5), "passthrough"]}``). With
    neither ``param_grid`` nor ``param_distributions`` (and no search as estimator)
    there is one candidate, the estimator as given: it is then only assessed.""",
    "param_distributions": """param_distributions : dict or list of dicts, default=None
    Candidates sampled with :class:`~sklearn.model_selection.ParameterSampler`. They are
    drawn once, before any fit, so every outer fold and the final selection try the same
    candidates; so do those of a RandomizedSearchCV given as the estimator, even with
    ``random_state=None``, where ``cross_validate(RandomizedSearchCV(random_state=None))``
    draws other ones in each fold. Where any value is a distribution, the draws are with
    replacement (as scikit-learn's), so a candidate may come more than once.""",
    "n_iter": """n_iter : int, default=10
    Number of candidates sampled from ``param_distributions``; any other value than the
    default is refused without it (a search given as the estimator draws its own).""",
    "outer_cv": """outer_cv : int, cross-validation generator or iterable, default=10
    Outer resampling that estimates the risk.
    {outer_splits}""",
    "cv": """cv : int, cross-validation generator or iterable, default=None
    The outer resampling; None means 5 folds, as in ``cross_validate``.
    {outer_splits}""",
    "outer_cv_alias": """outer_cv : int, cross-validation generator or iterable, default=None
    Alias of ``cv``.""",
    "outer_splits": """\
    An int gives (Stratified)KFold as in scikit-learn (stratified for classifiers, not
    shuffled); with ``groups`` it gives ``StratifiedGroupKFold`` (classifiers) or
    ``GroupKFold``, so that no group is on both sides of a split (``cross_validate``
    ignores groups for an int ``cv``). A splitter that puts a group on both sides gets a
    :class:`~sklearn_fair.exceptions.GroupLeakageWarning`. An iterable of ``(train,
    test)`` index pairs is checked for out-of-range, duplicated and overlapping indices. A
    splitter with a ``get_inner_splits(fold)`` method (e.g. predefined split files)
    supplies each fold's inner splits, which are then used as they are.""",
    "inner_cv": """inner_cv : int, cross-validation generator or iterable, default=None
    Inner resampling that selects the hyper-parameters, applied to each outer training
    fold. ``None`` is one 90%/10% hold-out (:class:`HoldoutSplit`), seeded from
    ``random_state`` and shaped like the outer splitter: stratified for classifiers;
    grouped (no group on both sides) when ``groups`` are given (an int is then a
    ``StratifiedGroupKFold`` or ``GroupKFold``, as for the outer one); validating on the
    most recent 10% after a time-ordered outer splitter (``TimeSeriesSplit``,
    :class:`RollingOrigin`, or given splits that each test only rows after all their
    training rows). A given ``inner_cv`` that puts a group on both sides, or
    validates on the past, while the outer splits do not, gets a
    :class:`~sklearn_fair.exceptions.SplitLeakageWarning`. A search given as the estimator
    keeps its own ``cv`` (scikit-learn's 5-fold where it has none) unless ``inner_cv`` is
    given: that replaces it, in a search run whole too (an int made a group splitter as
    above), with a :class:`~sklearn_fair.exceptions.SklearnFairWarning` where the search's
    ``cv`` was set and differs.""",
    "scoring": """scoring : str, callable, list, dict or None, default=None
    As in GridSearchCV. Names may be scikit-learn's or ours ("kappa", "ppv", ...).
    ``None`` uses the estimator's ``score``. Every metric is reported per fold. With a
    ``param_grid`` (or ``param_distributions``) it scores both the inner validation splits,
    where the metric named by ``refit`` selects, and the outer test folds. With a search
    as the estimator, the search selects with its own ``scoring`` and ``refit``, as in
    ``cross_validate(search, scoring=...)``, and this ``scoring`` only scores the outer
    test folds; ``None`` scores them as ``search.score`` does, with the metric that
    selects.""",
    "refit": """refit : bool or str, default=True
    With several metrics, the name of the one that selects the hyper-parameters; with
    ``True`` (no name), the first one (the first key of a dict, the first name of a list,
    the first key that a callable returns).""",
    "n_refits": """n_refits : int, default=3
    How many times the selected configuration is retrained, with different seeds, on each
    outer training fold. Every ``random_state`` parameter left at ``None``, nested ones
    included, gets the seed; one the user set (``SGDClassifier(random_state=0)``, a seeded
    step) is kept in every fit, so with ``n_refits=1`` the results equal
    ``cross_validate(GridSearchCV(...))`` fold by fold. Seeds are spent only where they
    change something: with no ``random_state`` left unset, each fold is trained once; else
    each fold trains two refits with different seeds first, keeps those two when, both
    fitted and scored, they give identical predictions (their labels and their
    probabilities or decision values) and scores on its test fold (``SVC()``,
    ``Ridge()``), and trains every refit otherwise. Each fold decides for itself, as
    whether a seed changes a model depends on the rows it trains on (a tree breaks ties
    between equally good features by its seed); ``outer_results_[i]["refits"]`` says what
    each fold did. A sampler's unset ``random_state`` (an object with ``fit_resample``)
    always counts: it draws the rows each refit trains on, so every fold gets every refit.
    The final model gets the selection seed in either case.""",
    "n_jobs": """n_jobs : int, default=None
    Number of worker processes; ``None`` means 1 unless in a ``joblib.parallel_config``
    (or ``parallel_backend``) context, whose backend is then used (loky, threading or
    dask). Every fit of every fold is one task of a single pool.""",
    "random_state": """random_state : int, RandomState instance, Generator or None, default=None
    {seeds}
    Pass an int for reproducible results.""",
    "random_state_fixed": """random_state : int, RandomState instance, Generator or None, \
default=None
    {seeds}
    ``None`` is a fixed seed (that of ``random_state=0``): every call gives the same
    result, as ``cross_validate`` does. Pass other ints to see how much the result
    depends on them.""",
    "seeds": """\
    Seeds the default inner hold-out, the sampling of ``param_distributions``, the refit
    seeds, the early-stopping hold-outs, and the ``random_state`` parameters that the
    estimator leaves at ``None`` (values set explicitly are kept in every fit). Each seed
    is derived from it by what it is for, so the results are the same whatever ``n_jobs``
    and the backend.""",
    "error_score": """error_score : 'raise' or float, default=np.nan
    Score given to a fit (or a scorer) that fails; ``'raise'`` re-raises the error. Failed
    fits are summarised in one FitFailedWarning. An outer fold in which every fit failed
    gets no refit and the test score ``error_score``, as in
    ``cross_validate(GridSearchCV(...))``. So does an outer fold in which no candidate's mean
    validation score is finite (with two or more candidates), typically as the scorer
    returns NaN on a validation split that holds one class: here this differs from
    ``cross_validate(GridSearchCV(...))``, whose search ranks every candidate first and
    refits the first one with a warning, a choice the validation data did not make. When
    every outer fold fails, a ValueError says why for the first. A search given as the
    estimator scores its inner fits with its own ``error_score``, as in
    ``cross_validate(search)``.""",
    "verbose": """verbose : int, default=0
    ``1`` reports progress with an ETA: a bar on a terminal, a plain line at every tenth
    of the run elsewhere (a log file).""",
    "params": """params : dict, default=None
    Fit parameters (e.g. ``sample_weight``, sparse ones included), indexed with the rows of
    each fit when they have one entry per sample, and routed as in ``cross_validate``
    (without routing, ``sample_weight`` also weights the inner selection's scores, as
    scikit-learn's searches do; the outer test scores are unweighted, as
    ``cross_validate``'s).""",
    "pre_dispatch": """pre_dispatch : int or str, default="2*n_jobs"
    Accepted for compatibility. The task pool never pre-dispatches: it keeps exactly as
    many tasks in flight as there are workers, so that the schedule (critical path first)
    decides what runs next; the value changes nothing.""",
    "cache_dir": """cache_dir : str or path-like, default=None
    Folder of a resumable cache. Every finished task (its scores, timings and the warnings
    its fit raised, shown again when it is served) is written there at once, as JSON,
    atomically, under a key that covers the data, the estimator's parameters and code, the
    scorers' code, the library versions, the rows and the seed: a run interrupted and run
    again recomputes only the missing tasks, with identical results, and a change
    invalidates only the entries it affects. Failed tasks and fitted
    models are not stored, nor is a search given as the estimator that runs whole (one
    NestedCV cannot take apart: a halving search, a callable ``refit``), whose fits are
    made again on every run; nothing is ever unpickled from the folder. Use an int
    ``random_state`` with it: unseeded runs draw new seeds every time.""",
    "early_stopping_split": """early_stopping_split : {"auto", "protocol", "estimator"}, \
default="auto"
    What an estimator that early-stops on validation data (``fit(X, y, X_val=...,
    y_val=...)``, as HistGradientBoosting and :class:`~sklearn_fair.graph.GraphClassifier`)
    stops on. ``"protocol"``: each inner fit on its inner validation rows (which also
    score it, as in Errica et al.: optimistic, which :attr:`NestedCV.optimism_
    <sklearn_fair.NestedCV.optimism_>` measures), each refit on a hold-out of its outer
    training fold (the fold's stored inner split, else a seeded 90%/10% hold-out).
    ``"estimator"``: nothing is passed; the estimator holds out what it likes. ``"auto"``:
    ``"protocol"`` for an estimator whose ``fit`` takes (with metadata routing: requests)
    ``X_val`` and ``y_val`` and whose ``early_stopping``, if any, is True, else
    ``"estimator"``. Decided per candidate: one whose early stopping is off
    (GraphClassifier's ``patience=None``) gets no validation rows and trains on them.
    ``X_val``/``y_val`` given to ``fit`` as well are refused (they would be replaced).""",
    "fit_timeout": """fit_timeout : float, default=None
    Time limit in seconds for each fit (and its scoring). A fit that runs over is
    recorded as failed (``error_score``, with a ``FitTimeoutError``). On loky (the default,
    and with ``n_jobs=1`` too: the fits then run in one loky worker process) a timer signal
    in the worker stops it at the limit, blocking calls included, and a worker stuck in
    compiled code is killed shortly after (2 s, a quarter of the limit, at most 30 s). On
    threads and Dask the fit's thread gets the exception at its next Python instruction: a
    fit that never returns holds its thread. A cached fit that took longer than the limit
    is run again under it. See the guide "Resumable and distributed runs".""",
    "reuse_prefix": """reuse_prefix : bool, default=True
    Fit a pipeline step once per worker when several fits of the run train it with the
    same parameters on the same rows (a grid over a Pipeline's last step refits its
    earlier steps for every candidate otherwise), and reuse it and its output; only steps
    whose fit is repeatable (no ``random_state`` left unseeded, no routed fit parameters).
    Results are identical either way for steps that follow scikit-learn's contract:
    ``transform`` leaves the fitted state unchanged; a step that breaks it is found when it
    is served again, and is then fitted for every fit, with a ``ReproducibilityWarning``.
    See the nested-CV guide, "What is fitted once".""",
    "select": """select : {"best", "one_se"}, default="best"
    How a fold's winner is picked. ``"best"``: the best mean validation score, ties to the
    first candidate, as in GridSearchCV. ``"one_se"`` (in the spirit of tidymodels'
    ``select_by_one_std_err``): the first candidate whose mean is within one standard error
    (``ddof=1``, over the inner splits: it needs a k-fold ``inner_cv``) of the best. First
    in the order of the candidates, :class:`~sklearn.model_selection.ParameterGrid`'s: the
    dicts of a list one after the other; within a dict, its parameter *names* sorted
    alphabetically, whatever the order of its keys, the last name varying fastest, and
    each parameter's values in the order given. So the parameter whose name sorts first
    decides first which candidate is simpler: in ``{"select__k": [1, 2], "clf__C": [0.01,
    0.1]}`` it is ``clf__C``, and renaming a pipeline step can change the pick. List each
    parameter's values from the simplest model to the most complex; to rank a parameter
    first, give one dict per value of it, simplest first (``[{"select__k": [1], "clf__C":
    [0.01, 0.1]}, {"select__k": [2], "clf__C": [0.01, 0.1]}]``), or name the steps so
    that its name sorts first. With ``param_distributions`` (or a RandomizedSearchCV as
    the estimator) the order is that in which the candidates were sampled: random.""",
}
