"""Warnings whose claim and advice hold: no warning where nothing is wrong, the parameter the
user set named, and advice that the library accepts when followed."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    TimeSeriesSplit,
    check_cv,
)
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.exceptions import (
    ReproducibilityWarning,
    SelectionTieWarning,
    SklearnFairWarning,
    SplitLeakageWarning,
)
from sklearn_fair.model_selection import HoldoutSplit


@pytest.fixture(scope="module")
def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return X[::2], y[::2]


def _lr():
    return make_pipeline(StandardScaler(), LogisticRegression())


def test_int_inner_cv_that_splits_as_the_search_cv_does_not_warn(breast_cancer):
    X, y = breast_cancer
    own = StratifiedKFold(n_splits=5)
    # scikit-learn: an int 5 for a classifier is exactly this splitter
    assert repr(check_cv(5, y, classifier=True)) == repr(own)
    search = GridSearchCV(_lr(), {"logisticregression__C": [0.1, 1, 10]}, cv=own)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        given = NestedCV(search, outer_cv=3, inner_cv=5, random_state=0).fit(X, y)
    assert not [w for w in caught if "the search's cv is not used" in str(w.message)]
    kept = NestedCV(search, outer_cv=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(given.outer_scores_, kept.outer_scores_)
    assert given.best_params_per_fold_ == kept.best_params_per_fold_


def test_an_int_search_cv_that_splits_as_inner_cv_does_not_warn(breast_cancer):
    """The mirror case: the search's cv an int, inner_cv the splitter it becomes."""
    X, y = breast_cancer
    search = GridSearchCV(_lr(), {"logisticregression__C": [0.1, 1, 10]}, cv=5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        given = NestedCV(search, outer_cv=3, inner_cv=StratifiedKFold(5), random_state=0)
        given.fit(X, y)
    assert not [w for w in caught if "the search's cv is not used" in str(w.message)]
    kept = NestedCV(search, outer_cv=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(given.outer_scores_, kept.outer_scores_)
    # a splitter that splits otherwise still warns, naming the search's cv as given
    with pytest.warns(SklearnFairWarning, match=r"its own cv=5 and inner_cv=StratifiedKFold"):
        NestedCV(search, outer_cv=3, inner_cv=StratifiedKFold(3), random_state=0).fit(X, y)


def test_int_inner_cv_that_splits_otherwise_still_warns(breast_cancer):
    X, y = breast_cancer
    search = GridSearchCV(_lr(), {"logisticregression__C": [0.1, 1]}, cv=StratifiedKFold(3))
    with pytest.warns(SklearnFairWarning, match="the search's cv is not used"):
        NestedCV(search, outer_cv=3, inner_cv=5, random_state=0).fit(X, y)


def test_unseeded_search_cv_is_named_as_the_search_cv(breast_cancer):
    X, y = breast_cancer
    search = GridSearchCV(
        _lr(), {"logisticregression__C": [0.1, 1]}, cv=StratifiedKFold(3, shuffle=True)
    )
    outer = StratifiedKFold(3, shuffle=True, random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested_cross_validate(search, X, y, cv=outer)
    messages = [str(w.message) for w in caught if issubclass(w.category, ReproducibilityWarning)]
    assert any("'estimator.cv'" in m for m in messages), messages
    assert not any("'inner_cv'" in m for m in messages), messages


def _time_ordered_data():
    rng = np.random.default_rng(0)
    n = 200
    X = np.column_stack([np.sin(np.arange(n) / 15), rng.normal(size=(n, 3))])
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.8, size=n) > 0).astype(int)
    return X, y


def test_tie_advice_keeps_time_order():
    X, y = _time_ordered_data()
    grid = {"logisticregression__C": [0.01, 0.1, 1, 10]}
    with pytest.warns(SelectionTieWarning) as caught:
        NestedCV(_lr(), grid, outer_cv=TimeSeriesSplit(n_splits=5), random_state=0).fit(X, y)
    ties = [str(w.message) for w in caught if issubclass(w.category, SelectionTieWarning)]
    assert ties
    for message in ties:
        assert "inner_cv=5" not in message and "random_state=0)" not in message
        assert "k-fold" not in message
        assert "HoldoutSplit(test_size=0.3, shuffle=False)" in message
        assert "TimeSeriesSplit(n_splits=3)" in message
    # the advice, followed, is not flagged as seeing the future
    for inner in (HoldoutSplit(test_size=0.3, shuffle=False), TimeSeriesSplit(n_splits=3)):
        with warnings.catch_warnings(record=True) as followed:
            warnings.simplefilter("always")
            NestedCV(
                _lr(), grid, outer_cv=TimeSeriesSplit(n_splits=5), inner_cv=inner, random_state=0
            ).fit(X, y)
        assert not [w for w in followed if issubclass(w.category, SplitLeakageWarning)]


def test_early_stopping_advice_names_transform_input(breast_cancer):
    X, y = breast_cancer
    grid = {"histgradientboostingclassifier__learning_rate": [0.1, 0.3]}
    hgb = HistGradientBoostingClassifier(early_stopping=True, max_iter=20, random_state=0)
    with pytest.warns(SklearnFairWarning, match="cannot hand the protocol's validation rows") as w:
        NestedCV(make_pipeline(StandardScaler(), hgb), grid, outer_cv=3, random_state=0).fit(X, y)
    advice = [str(x.message) for x in w if "cannot hand" in str(x.message)]
    assert all("transform_input=['X_val']" in m for m in advice), advice
    assert all("'standardscaler'" in m for m in advice), advice
    # the advice, followed in full, is taken
    with sklearn.config_context(enable_metadata_routing=True):
        step = hgb.set_fit_request(X_val=True, y_val=True)
        pipe = Pipeline(
            [("standardscaler", StandardScaler()), ("histgradientboostingclassifier", step)],
            transform_input=["X_val"],
        )
        with warnings.catch_warnings(record=True) as followed:
            warnings.simplefilter("always")
            NestedCV(pipe, grid, outer_cv=3, random_state=0).fit(X, y)
    assert not [x for x in followed if "cannot hand" in str(x.message)]


def test_early_stopping_advice_without_transforming_steps_has_no_transform_input(
    breast_cancer,
):
    X, y = breast_cancer
    grid = {"histgradientboostingclassifier__learning_rate": [0.1, 0.3]}
    hgb = HistGradientBoostingClassifier(early_stopping=True, max_iter=20, random_state=0)
    with pytest.warns(SklearnFairWarning, match="cannot hand the protocol's validation rows") as w:
        NestedCV(make_pipeline(hgb), grid, outer_cv=3, random_state=0).fit(X, y)
    advice = [str(x.message) for x in w if "cannot hand" in str(x.message)]
    assert advice and not any("transform_input" in m for m in advice)
