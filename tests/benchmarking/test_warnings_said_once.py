"""benchmark says each warning of its cells once, naming the cells it concerns."""

import warnings

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import benchmark
from sklearn_fair.exceptions import RowOrderWarning


def _data(n_datasets, shuffled=()):
    """Data sets of 60 rows; those named in ``shuffled`` have groups whose index is in
    another order than X's (the groups' row 0 is X's row ``offset``)."""
    rng = np.random.RandomState(0)
    data = {}
    for d in range(n_datasets):
        X = pd.DataFrame(rng.normal(size=(60, 3)))
        y = pd.Series((X[0] > 0).astype(int))
        groups = pd.Series(np.arange(60) % 10)
        if f"d{d}" in shuffled:
            groups.index = np.roll(np.arange(60), d + 1)
        data[f"d{d}"] = (X, y, groups)
    return data


def _caught(models, data):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        benchmark(models, data, outer_cv=3, inner_cv=3, n_refits=1, random_state=0)
    return [str(w.message) for w in caught]


def test_a_models_own_configuration_is_said_once_for_every_data_set():
    # the search's own cv, replaced by inner_cv: said three times, once per data set
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=KFold(3))
    said = [m for m in _caught({"lr": search}, _data(3)) if "its own cv" in m]
    assert len(said) == 1
    assert said[0].startswith("benchmark (model 'lr' on data sets 'd0', 'd1' and 'd2') got ")


def test_the_groups_of_a_data_set_in_another_row_order_name_it():
    # the groups of d1 alone are in another row order: their warning (raised in each model's
    # plan, where it did not say which data set) names d1 and both models, once
    models = {"lr": LogisticRegression(), "tree": DecisionTreeClassifier(random_state=0)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        benchmark(models, _data(2, {"d1"}), outer_cv=3, inner_cv=3, n_refits=1, random_state=0)
    said = [w for w in caught if issubclass(w.category, RowOrderWarning)]
    assert len(said) == 1
    assert str(said[0].message).startswith(
        "benchmark (models 'lr' and 'tree' on data set 'd1'): X and groups hold the same row "
        "labels in different orders"
    )
    assert said[0].filename == __file__  # the user's line


def test_warnings_in_other_words_are_each_said():
    # both data sets' groups out of order, at other rows: two warnings, one per data set
    said = [
        m
        for m in _caught({"lr": LogisticRegression()}, _data(2, {"d0", "d1"}))
        if "X and groups" in m
    ]
    assert len(said) == 2
    assert said[0].startswith("benchmark (model 'lr' on data set 'd0'): ")
    assert "groups's row 59" in said[0]
    assert said[1].startswith("benchmark (model 'lr' on data set 'd1'): ")
    assert "groups's row 58" in said[1]


def test_a_warning_said_in_several_folds_of_a_cell_names_each_data_set_once():
    # review_30: scikit-learn's "least populated class" warning comes once per outer fold; with
    # one model's cells on one data set taken from previous=, each model is named apart, and
    # its data sets were listed once per fold ('d1', 'd1', 'd1', 'd2', ...)
    rng = np.random.RandomState(0)
    y = np.r_[np.zeros(30, int), np.ones(27, int), np.full(3, 2)]
    data = {d: (rng.normal(size=(60, 3)), y) for d in ("d1", "d2")}
    models = {"a": (LogisticRegression(), {"C": [1.0]}), "b": (DecisionTreeClassifier(), {})}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        previous = benchmark({"a": models["a"]}, {"d1": data["d1"]}, outer_cv=3, inner_cv=3,
                             n_refits=1, random_state=0)  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        benchmark(models, data, outer_cv=3, inner_cv=3, n_refits=1, previous=previous)
    said = sorted(
        str(w.message).split(":")[0] for w in caught if "least populated" in str(w.message)
    )
    assert said == [
        "benchmark (model 'a' on data set 'd2')",
        "benchmark (model 'b' on data sets 'd1' and 'd2')",
    ]
