"""A callable ``scoring`` that returns a dict scores several metrics, as in scikit-learn's
searches (``multimetric_``, ``score`` of the refit metric): NestedCV's summary and score read
its keys, checked against ``cross_validate`` of a GridSearchCV and GridSearchCV itself."""

import re

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score, cross_validate
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, nested_cross_val_score, nested_cross_validate
from sklearn_fair.exceptions import CacheWarning

X, y = make_classification(n_samples=90, n_features=6, n_informative=3, random_state=1, flip_y=0.15)
OUTER, INNER = KFold(3, shuffle=True, random_state=0), KFold(3, shuffle=True, random_state=1)
GRID = {"max_depth": [1, 2, 3, 5]}


def two_metrics(estimator, X, y):
    predicted = estimator.predict(X)
    return {"acc": float(np.mean(predicted == y)), "kap": cohen_kappa_score(y, predicted)}


def test_nested_cv_reads_the_keys_a_callable_returns():
    tree = DecisionTreeClassifier(random_state=0)
    nested = NestedCV(
        tree, GRID, outer_cv=OUTER, inner_cv=INNER, scoring=two_metrics, refit="kap", n_refits=1
    ).fit(X, y)
    search = GridSearchCV(tree, GRID, cv=INNER, scoring=two_metrics, refit="kap")
    reference = cross_validate(search, X, y, cv=OUTER, scoring=two_metrics)
    assert nested.multimetric_ and nested.refit_metric_ == "kap"
    summaries = nested.summary()
    assert set(summaries) == {"acc", "kap"}
    for key in ("acc", "kap"):
        assert summaries[key].mean == pytest.approx(np.mean(reference[f"test_{key}"]))
    search.fit(X, y)
    assert search.multimetric_
    assert nested.score(X, y) == pytest.approx(search.score(X, y))


def test_nested_cross_val_score_refuses_a_dict_as_cross_val_score_does():
    tree = DecisionTreeClassifier(random_state=0)
    with pytest.raises(ValueError, match="must return a number"):
        cross_val_score(tree, X, y, cv=3, scoring=two_metrics)
    with pytest.raises(ValueError, match=r"returned a dict of the metrics \['acc', 'kap'\]"):
        nested_cross_val_score(tree, X, y, param_grid=GRID, cv=3, scoring=two_metrics, n_refits=1)


@pytest.mark.parametrize("entry", ["NestedCV", "nested_cross_validate"])
def test_refit_false_with_a_dict_callable_asks_for_a_name_as_a_list_does(entry):
    # refit=False names no metric: a list of the same metrics is refused, so is the dict a
    # callable returns (it selected with its first key, without a word)
    tree = DecisionTreeClassifier(random_state=0)
    for scoring, metrics in (
        (["accuracy", "f1"], "['accuracy', 'f1']"),
        (two_metrics, "['acc', 'kap']"),
    ):
        with pytest.raises(
            ValueError, match=rf"must name .* one of {re.escape(metrics)}\. Got False"
        ):
            if entry == "NestedCV":
                NestedCV(tree, GRID, outer_cv=OUTER, inner_cv=INNER, scoring=scoring,
                         refit=False, n_refits=1).fit(X, y)  # fmt: skip
            else:
                nested_cross_validate(tree, X, y, param_grid=GRID, cv=OUTER, inner_cv=INNER,
                                      scoring=scoring, refit=False, n_refits=1)  # fmt: skip


def with_score(estimator, X, y):
    return {
        "score": two_metrics(estimator, X, y)["acc"],
        "kap": two_metrics(estimator, X, y)["kap"],
    }


@pytest.mark.parametrize("scoring", [two_metrics, with_score], ids=["keys", "a 'score' key"])
def test_a_cached_run_serves_the_keys_a_callable_returns(tmp_path, scoring):
    # the cache's check of an entry expected the one metric "score" of a single scorer: a
    # rerun recomputed every fit and warned that the entries "failed their checks"
    import warnings

    tree = DecisionTreeClassifier(random_state=0)
    runs = []
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheWarning)
            runs.append(
                NestedCV(
                    tree, GRID, outer_cv=OUTER, inner_cv=INNER, scoring=scoring,
                    refit="kap", n_refits=1, random_state=0, cache_dir=tmp_path,
                ).fit(X, y)
            )  # fmt: skip
    first, second = runs
    assert first.cache_info_["hits"] == 0
    assert second.cache_info_["computed"] < first.cache_info_["computed"] / 4
    assert (
        second.cache_info_["hits"] + second.cache_info_["computed"]
        == (first.cache_info_["computed"])
    )
    np.testing.assert_array_equal(second.outer_scores_, first.outer_scores_)


def test_a_cached_run_serves_the_train_scores_a_callable_returns(tmp_path):
    # with return_train_score, the check of the train scores asked for the range of each key
    # (KeyError: 'acc' on the rerun, in a first fix)
    import warnings

    from sklearn_fair import nested_cross_validate

    runs = []
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheWarning)  # no entry failed its checks
            runs.append(
                nested_cross_validate(
                    DecisionTreeClassifier(random_state=0), X, y, param_grid=GRID, cv=OUTER,
                    inner_cv=INNER, scoring=two_metrics, refit="kap", n_refits=1,
                    random_state=0, cache_dir=tmp_path, return_train_score=True,
                )
            )  # fmt: skip
    first, second = runs
    assert {"test_acc", "test_kap", "train_acc", "train_kap"} <= set(second)
    for key in ("test_acc", "test_kap", "train_acc", "train_kap"):
        np.testing.assert_array_equal(second[key], first[key])


@pytest.mark.parametrize(
    "scoring, match",
    [("accuracy", "the one metric 'accuracy'"), (None, "the estimator's score method")],
)
def test_refit_naming_another_metric_than_the_one_scoring_is_refused(scoring, match):
    # refit="balanced_accuracy" with scoring="accuracy" selected with accuracy, without a word
    # (scikit-learn's searches read a refit name with one metric as refit=True)
    tree = DecisionTreeClassifier(random_state=0)
    with pytest.raises(ValueError, match=rf"'refit' .* names the metric 'kap', .*{match}"):
        NestedCV(tree, GRID, outer_cv=OUTER, inner_cv=INNER, scoring=scoring, refit="kap").fit(X, y)
    if scoring is not None:  # naming the one metric is that metric
        named = NestedCV(tree, GRID, outer_cv=OUTER, inner_cv=INNER, scoring=scoring,
                         refit=scoring, n_refits=1).fit(X, y)  # fmt: skip
        reference = cross_validate(GridSearchCV(tree, GRID, cv=INNER, scoring=scoring), X, y,
                                   cv=OUTER, scoring=scoring)  # fmt: skip
        np.testing.assert_allclose(named.outer_scores_, reference["test_score"])
