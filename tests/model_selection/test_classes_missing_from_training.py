"""A test fold that holds classes its training rows never hold is warned of (hunt SPLITX-1):
the model cannot predict them, and ROC AUC of such a fold can come out inverted (0.357 where
the model's AUC is 0.643), as in scikit-learn's ``cross_validate``, which says nothing."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_classification
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold, KFold, StratifiedKFold

from sklearn_fair import NestedCV, benchmark, nested_cross_validate
from sklearn_fair.exceptions import SklearnFairWarning

GRID = {"C": [0.1, 1]}
NEVER_HELD = "test on classes that their training rows never hold"


def _sites():
    """Three classes from four sites: sites 0 and 1 never record 'cat', 2 and 3 never 'ant';
    outer splits leave one region out, so each test fold holds a class its training lacks."""
    X, codes = make_classification(120, 6, n_informative=4, n_classes=3, random_state=0)
    y = np.array(["ant", "bee", "cat"])[codes]
    rows = np.arange(120)
    site = np.where(y == "ant", rows % 2, np.where(y == "cat", 2 + rows % 2, rows % 4))
    A, B = np.flatnonzero(site < 2), np.flatnonzero(site >= 2)
    return X, y, site, [(A, B), (B, A)]


def _untrained(y, train, test):
    """The reference: the classes of the test rows absent from the training rows, counted."""
    labels, counts = np.unique(y[test], return_counts=True)
    trained = set(y[train].tolist())
    return {label: n for label, n in zip(labels.tolist(), counts.tolist()) if label not in trained}


def _never_held(caught):
    return [w for w in caught if NEVER_HELD in str(w.message)]


def _expected_words(name, untrained):
    return f"{name}: " + ", ".join(f"{label!r} ({n} row(s))" for label, n in untrained.items())


def test_nested_cv_warns_once_naming_the_folds_and_classes_of_an_inverted_auc():
    X, y, site, outer = _sites()
    search = NestedCV(
        LogisticRegression(max_iter=1000), {"C": [0.01, 0.1, 1, 10]}, outer_cv=outer,
        inner_cv=GroupKFold(2), scoring="roc_auc_ovr", n_refits=1, random_state=0,
    )  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y, groups=site)
    heard = _never_held(caught)
    assert len(heard) == 1  # once per run, not once per candidate or fit
    assert heard[0].category is SklearnFairWarning
    message = str(heard[0].message)
    assert message.startswith("In NestedCV, 2 of the 2 outer folds test on classes")
    for fold, (train, test) in enumerate(outer):
        untrained = _untrained(y, train, test)
        assert untrained == ({"cat": 40} if fold == 0 else {"ant": 41})
        assert _expected_words(f"outer fold {fold}", untrained) in message
    assert "inverted" in message and "StratifiedGroupKFold" in message
    # what the warning is about: fold 0 trains on {ant, bee} and tests on {bee, cat}; the
    # model's P(bee) separates bee from cat with AUC 0.643, the score reported is 1 - 0.643
    train, test = outer[0]
    params = search.outer_results_[0]["best_params"]
    model = LogisticRegression(max_iter=1000, **params).fit(X[train], y[train])
    auc = roc_auc_score(y[test] == "bee", model.predict_proba(X[test])[:, 1])
    assert auc == pytest.approx(0.643, abs=1e-3)
    assert search.outer_scores_[0] == pytest.approx(1 - auc)


def test_nested_cross_validate_and_benchmark_warn_too():
    X, y, site, outer = _sites()
    model = LogisticRegression(max_iter=1000)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested_cross_validate(
            model, X, y, groups=site, cv=outer, param_grid=GRID, inner_cv=GroupKFold(2),
            scoring="roc_auc_ovr", n_refits=1, random_state=0,
        )  # fmt: skip
    heard = _never_held(caught)
    assert len(heard) == 1
    assert _expected_words("outer fold 0", {"cat": 40}) in str(heard[0].message)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        benchmark(
            {"lr": (model, GRID)}, {"sites": (X, y, site)}, outer_cv=outer,
            inner_cv=GroupKFold(2), scoring="roc_auc_ovr", n_refits=1, random_state=0,
        )  # fmt: skip
    heard = _never_held(caught)
    assert len(heard) == 1
    message = str(heard[0].message)
    assert message.startswith("In benchmark (model 'lr' on data set 'sites'), 2 of the 2")
    assert _expected_words("outer fold 1", {"ant": 41}) in message


def test_inner_splits_that_validate_on_untrained_classes_are_named():
    # sorted labels: an unshuffled inner KFold validates on classes its training rows lack
    X, y = load_iris(return_X_y=True)
    outer = StratifiedKFold(2, shuffle=True, random_state=0)
    inner = KFold(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search = NestedCV(
            LogisticRegression(max_iter=1000), GRID, outer_cv=outer, inner_cv=inner,
            n_refits=1, refit=False, random_state=0,
        ).fit(X, y)  # fmt: skip
    heard = _never_held(caught)
    assert len(heard) == 1
    message = str(heard[0].message)
    # the reference: scikit-learn's KFold on each outer training fold's rows
    named = []
    for fold, result in enumerate(search.outer_results_):
        rows = result["train_indices"]
        for s, (tr, te) in enumerate(inner.split(rows)):
            untrained = _untrained(y, rows[tr], rows[te])
            if untrained:
                named.append(_expected_words(f"inner split {s} of outer fold {fold}", untrained))
    assert message.startswith(f"In NestedCV, {len(named)} of the 6 inner splits test on")
    assert "outer folds" not in message.split("(")[0]  # every outer fold trains on each class
    for words in named[:3]:
        assert words in message
    assert f"and {len(named) - 3} more" in message


@pytest.mark.parametrize("case", ["stratified", "regression"])
def test_no_warning_where_every_test_class_is_trained_on_or_for_regression(case):
    X, y = load_iris(return_X_y=True)
    # the usual stratified case: every class on each training side
    estimator, grid, cv = LogisticRegression(max_iter=1000), GRID, StratifiedKFold(3)
    if case == "regression":  # integer targets: values absent from training are no classes
        y = np.arange(len(y)) // 10  # 15 values, sorted: each in one unshuffled fold
        estimator, grid, cv = Ridge(), {"alpha": [0.1, 1]}, KFold(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NestedCV(
            estimator, grid, outer_cv=cv, inner_cv=cv, n_refits=1, refit=False, random_state=0
        ).fit(X, y)
    assert not _never_held(caught)


@pytest.mark.parametrize("refit", [True, "callable"])
@pytest.mark.parametrize("search", ["grid", "halving"])
def test_a_search_run_whole_has_its_cvs_splits_checked(search, refit):
    # hunt DOC16-5: a search run whole (a successive-halving one, or one whose refit is a
    # callable) splits by itself, and its splits were not checked: no warning, where the same
    # GridSearchCV taken over by NestedCV warned of 6 of its 9 inner splits
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV

    X, y = load_iris(return_X_y=True)  # sorted by class: unshuffled KFold(3) folds miss one
    kind = HalvingGridSearchCV if search == "halving" else GridSearchCV
    extra = {"random_state": 0} if search == "halving" else {}
    refit = (lambda results: 0) if refit == "callable" else refit
    model = kind(LogisticRegression(max_iter=500), GRID, cv=KFold(3), refit=refit, **extra)
    outer = StratifiedKFold(3)
    expected = sum(
        bool(_untrained(y, train[inner_train], train[inner_test]))
        for train, _ in outer.split(X, y)
        for inner_train, inner_test in KFold(3).split(train)
    )
    assert expected == 6
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NestedCV(model, outer_cv=outer, n_refits=1, refit=False, random_state=0).fit(X, y)
    (warning,) = _never_held(caught)
    assert f"{expected} of the 9 inner splits" in str(warning.message)
