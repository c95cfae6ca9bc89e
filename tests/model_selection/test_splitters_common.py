"""What every splitter of this issue shares: scikit-learn's splitter contract.

scikit-learn has no ``parametrize_with_checks`` for splitters, so this file
applies the checks its own ``test_split.py`` makes of every splitter: a repr
built from the constructor, ``check_cv`` passing the object through,
``get_n_splits`` agreeing with ``split``, integer index arrays into the data,
deterministic splits for an int ``random_state``, list and DataFrame inputs,
and use as ``cv`` of ``cross_validate`` and ``GridSearchCV``.
"""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, ShuffleSplit, check_cv, cross_validate
from sklearn.tree import DecisionTreeRegressor

from sklearn_fair.model_selection import (
    Bootstrap,
    HoldoutSplit,
    PredefinedSplits,
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
    RollingOrigin,
    StratifiedGraphKFold,
)

N_SAMPLES = 60
CLASSES = np.arange(N_SAMPLES) % 3
OUTCOME = np.random.default_rng(0).lognormal(size=N_SAMPLES)
FEATURES = np.column_stack([CLASSES + np.random.default_rng(1).normal(size=N_SAMPLES), OUTCOME])

# (splitter, "classification" or "regression"): small, fast parameters.
SPLITTERS = [
    (StratifiedGraphKFold(n_splits=4, random_state=0), "classification"),
    (Bootstrap(n_resamples=3, random_state=0), "classification"),
    (Bootstrap(n_resamples=3, stratify=True, random_state=0), "classification"),
    (HoldoutSplit(test_size=0.2, random_state=0), "classification"),
    (HoldoutSplit(test_size=0.2, shuffle=False), "regression"),
    (QuantileStratifiedKFold(n_splits=3, n_bins=4, random_state=0), "regression"),
    (RepeatedQuantileStratifiedKFold(n_splits=3, n_repeats=2, random_state=0), "regression"),
    (RollingOrigin(initial=40, assess=5, skip=4), "regression"),
    (RollingOrigin(initial=30, assess=10, cumulative=False, skip=9, lag=2), "regression"),
    (
        PredefinedSplits([(np.arange(20, 60), np.arange(20)), (np.arange(40), np.arange(40, 60))]),
        "classification",
    ),
]
IDS = [repr(cv) for cv, _ in SPLITTERS]


def target(task):
    return CLASSES if task == "classification" else OUTCOME


@pytest.mark.parametrize("cv, task", SPLITTERS, ids=IDS)
def test_splitter_contract(cv, task):
    y = target(task)
    assert check_cv(cv, y, classifier=task == "classification") is cv
    assert repr(cv).startswith(type(cv).__name__ + "(")
    splits = list(cv.split(FEATURES, y))
    assert len(splits) == cv.get_n_splits(FEATURES, y)
    for train, test in splits:
        for indices in (train, test):
            assert indices.dtype.kind == "i" and indices.ndim == 1 and indices.size
            assert indices.min() >= 0 and indices.max() < N_SAMPLES
    # An int random_state (or none needed) gives the same splits on every call.
    for (train_a, test_a), (train_b, test_b) in zip(splits, cv.split(FEATURES, y)):
        np.testing.assert_array_equal(train_a, train_b)
        np.testing.assert_array_equal(test_a, test_b)


@pytest.mark.parametrize("cv, task", SPLITTERS, ids=IDS)
def test_list_and_dataframe_inputs(cv, task):
    y = target(task)
    expected = [test for _, test in cv.split(FEATURES, y)]
    for X, labels in [(FEATURES.tolist(), y.tolist()), (pd.DataFrame(FEATURES), pd.Series(y))]:
        for test_a, (_, test_b) in zip(expected, cv.split(X, labels)):
            np.testing.assert_array_equal(test_a, test_b)


@pytest.mark.parametrize("cv, task", SPLITTERS, ids=IDS)
def test_cross_validate_and_grid_search(cv, task):
    y = target(task)
    if task == "classification":
        estimator, grid = LogisticRegression(max_iter=200), {"C": [0.1, 1.0]}
    else:
        estimator, grid = DecisionTreeRegressor(random_state=0), {"max_depth": [1, 2]}
    result = cross_validate(estimator, FEATURES, y, cv=cv)
    assert len(result["test_score"]) == cv.get_n_splits(FEATURES, y)
    assert np.all(np.isfinite(result["test_score"]))
    search = GridSearchCV(estimator, grid, cv=cv).fit(FEATURES, y)
    assert search.n_splits_ == cv.get_n_splits(FEATURES, y)


def test_stratified_graph_kfold_in_grid_search_on_graph_labels():
    graphs = [SimpleNamespace(y=[label]) for label in CLASSES]
    cv = StratifiedGraphKFold(n_splits=3, random_state=0)
    from_graphs = [test for _, test in cv.split(graphs)]
    search = GridSearchCV(LogisticRegression(), {"C": [1.0]}, cv=cv).fit(FEATURES, CLASSES)
    assert search.n_splits_ == 3
    for test_a, (_, test_b) in zip(from_graphs, cv.split(FEATURES, CLASSES)):
        np.testing.assert_array_equal(test_a, test_b)


# Every splitter of ours that takes a random_state, built with a given one.
SEEDED = {
    "StratifiedGraphKFold": lambda rs: StratifiedGraphKFold(n_splits=4, random_state=rs),
    "Bootstrap": lambda rs: Bootstrap(n_resamples=3, random_state=rs),
    "Bootstrap-stratified": lambda rs: Bootstrap(n_resamples=3, stratify=True, random_state=rs),
    "QuantileStratifiedKFold": lambda rs: QuantileStratifiedKFold(n_splits=3, random_state=rs),
    "RepeatedQuantileStratifiedKFold": lambda rs: RepeatedQuantileStratifiedKFold(
        n_splits=3, n_repeats=2, random_state=rs
    ),
    "HoldoutSplit": lambda rs: HoldoutSplit(test_size=0.2, random_state=rs),
}
REGRESSION = {"QuantileStratifiedKFold", "RepeatedQuantileStratifiedKFold"}


@pytest.mark.parametrize("name", SEEDED)
def test_random_state_takes_int_random_state_and_generator(name):
    y = target("regression" if name in REGRESSION else "classification")

    def tests(random_state):
        return [test for _, test in SEEDED[name](random_state).split(FEATURES, y)]

    by_seed = {}
    for kind, make in [
        ("int", lambda seed: seed),
        ("RandomState", np.random.RandomState),
        ("Generator", np.random.default_rng),
    ]:
        first, again, other = tests(make(0)), tests(make(0)), tests(make(1))
        for a, b in zip(first, again):
            np.testing.assert_array_equal(a, b)
        assert not all(np.array_equal(a, b) for a, b in zip(first, other)), kind
        by_seed[kind] = first
    # an int and a RandomState of that seed draw the same (scikit-learn's convention)
    if name != "HoldoutSplit":  # which draws an int seed from a RandomState, as before
        for a, b in zip(by_seed["int"], by_seed["RandomState"]):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", SEEDED)
@pytest.mark.parametrize("bad", [-1, 1.5, "0", True])
def test_random_state_refuses_what_no_generator_takes(name, bad):
    y = target("regression" if name in REGRESSION else "classification")
    cv = SEEDED[name](bad)
    match = f"The 'random_state' parameter of {type(cv).__name__} must be .*Got {bad!r} instead"
    with pytest.raises(ValueError, match=match):
        list(cv.split(FEATURES, y))


# A bool where a count or a size is meant is a mistake, not 1 or 0; a string is no flag.
BAD_PARAMETERS = [
    (lambda: Bootstrap(n_resamples=True), "n_resamples"),
    (lambda: Bootstrap(stratify=1), "stratify"),
    (lambda: HoldoutSplit(test_size=True), "test_size"),
    (lambda: HoldoutSplit(shuffle="yes"), "shuffle"),
    (lambda: QuantileStratifiedKFold(n_bins=True), "n_bins"),
    (lambda: RepeatedQuantileStratifiedKFold(n_repeats=True), "n_repeats"),
    (lambda: RepeatedQuantileStratifiedKFold(n_splits=True), "n_splits"),
    (lambda: RepeatedQuantileStratifiedKFold(n_bins=2.0), "n_bins"),
    (lambda: RollingOrigin(initial=True), "initial"),
    (lambda: RollingOrigin(initial=3, skip=False), "skip"),
    (lambda: RollingOrigin(initial=3, lag=True), "lag"),
    (lambda: RollingOrigin(initial=3, cumulative=1), "cumulative"),
    (lambda: PredefinedSplits(5), "splits"),
]


@pytest.mark.parametrize("make, name", BAD_PARAMETERS)
def test_bad_parameters_are_refused_naming_the_splitter(make, name):
    cv = make()
    y = target(
        "regression"
        if isinstance(cv, (QuantileStratifiedKFold, RepeatedQuantileStratifiedKFold, RollingOrigin))
        else "classification"
    )
    bad = getattr(cv, name)
    match = f"The '{name}' parameter of {type(cv).__name__} must be .*Got {bad!r} instead"
    with pytest.raises(ValueError, match=match):
        list(cv.split(FEATURES, y))


# scikit-learn's splitters that take no groups warn when given some (ShuffleSplit,
# TimeSeriesSplit, StratifiedKFold, PredefinedSplit), naming themselves, once per call: a
# group on both sides of a split would otherwise go unnoticed
GROUPS = np.arange(N_SAMPLES) // 3


IGNORING_GROUPS = [(cv, task) for cv, task in SPLITTERS if not isinstance(cv, HoldoutSplit)]


@pytest.mark.parametrize("cv, task", IGNORING_GROUPS, ids=[repr(cv) for cv, _ in IGNORING_GROUPS])
def test_splitters_that_ignore_groups_say_so_as_scikit_learn_does(cv, task):
    with pytest.warns(UserWarning, match="^The groups parameter is ignored by ShuffleSplit$"):
        list(ShuffleSplit(2, random_state=0).split(FEATURES, CLASSES, GROUPS))
    with pytest.warns(UserWarning) as record:
        list(cv.split(FEATURES, target(task), GROUPS))
    messages = [str(warning.message) for warning in record]
    assert messages == [f"The groups parameter is ignored by {type(cv).__name__}"]
