"""NestedCV's errors: bad input is refused before the first fit; failing fits are reported."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.exceptions import InvalidSplitError, NonFiniteScoreWarning

X, y = make_classification(n_samples=60, n_features=4, random_state=0)


class BadFit(RuntimeError):
    """The error a failing fit raises."""


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """Majority vote that counts its fits; fails with BadFit when ``C`` is negative."""

    n_fits = 0

    def __init__(self, C=1.0, random_state=None):
        self.C = C
        self.random_state = random_state

    def fit(self, X, y):
        type(self).n_fits += 1
        if self.C < 0:
            raise BadFit(f"C must be >= 0, got C={self.C}")
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


@pytest.fixture(autouse=True)
def _reset_counter():
    CountingClassifier.n_fits = 0


def _nested(**params):
    return NestedCV(CountingClassifier(), **{"outer_cv": 3, "inner_cv": 2, **params})


# --- refused before the first fit ---------------------------------------------------------------


@pytest.mark.parametrize(
    "params, match",
    [
        pytest.param({"param_grid": []}, "'param_grid' parameter of NestedCV is empty", id="[]"),
        pytest.param({"param_grid": {"C": []}}, "param_grid", id="empty-values"),
        pytest.param({"param_grid": {"C": [1.0], "gamma": [1]}}, "'gamma'", id="unknown"),
        pytest.param(
            {"param_distributions": {"alpha": [1, 2]}}, "'alpha'", id="unknown-distribution"
        ),
        pytest.param({"n_refits": 0}, "'n_refits' parameter", id="n_refits=0"),
        pytest.param({"n_refits": -1}, "'n_refits' parameter", id="n_refits=-1"),
        pytest.param({"n_refits": 1.5}, "'n_refits' parameter", id="n_refits=1.5"),
        pytest.param({"n_refits": True}, "'n_refits' parameter", id="n_refits=True"),
        pytest.param(
            {"param_grid": {"C": [1.0]}, "param_distributions": {"C": [1.0]}},
            "either 'param_grid' or 'param_distributions'",
            id="grid-and-distributions",
        ),
        pytest.param(
            {"param_distributions": {"C": [1.0, 2.0]}, "n_iter": 0}, "'n_iter'", id="n_iter=0"
        ),
        pytest.param(
            {"scoring": ["accuracy", "balanced_accuracy"]},
            r"must name the metric.*\['accuracy', 'balanced_accuracy'\]",
            id="multimetric-refit-true",
        ),
        pytest.param(
            {"scoring": {"a": "accuracy", "b": "recall"}, "refit": "c"},
            "must name the metric",
            id="multimetric-refit-unknown",
        ),
        pytest.param({"scoring": {}}, "empty dict", id="empty-scoring"),
        pytest.param({"error_score": "ignore"}, "'error_score' parameter", id="error_score"),
        pytest.param(
            {"outer_cv": [(np.arange(0, 40), np.arange(30, 60))]},
            "both its training and test set",
            id="overlapping-outer",
        ),
    ],
)
def test_bad_parameters_are_refused_before_any_fit(params, match):
    with pytest.raises(ValueError, match=match):
        _nested(**params).fit(X, y)
    assert CountingClassifier.n_fits == 0


def test_unknown_parameter_message_lists_the_valid_names():
    with pytest.raises(ValueError, match=r"'gamma'.*Valid parameters are: \['C', 'random_state'\]"):
        _nested(param_grid={"C": [1.0], "gamma": [1]}).fit(X, y)
    # once, where scikit-learn's set_params listed them already (it read them twice, "..")
    from sklearn.tree import DecisionTreeClassifier

    with pytest.raises(ValueError) as raised:
        NestedCV(DecisionTreeClassifier(), {"C": [1.0]}).fit(X, y)
    assert str(raised.value).count("Valid parameters are") == 1
    assert ".." not in str(raised.value)
    # where scikit-learn lists a step's own names, the names a grid can set follow
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline

    with pytest.raises(ValueError, match=r"The names a grid can set are: \['clf', 'clf__C'"):
        NestedCV(Pipeline([("clf", LogisticRegression())]), {"clf__Cc": [1.0]}).fit(X, y)


def test_invalid_outer_split_is_an_invalid_split_error():
    with pytest.raises(InvalidSplitError, match="out of range"):
        _nested(outer_cv=[(np.arange(50), np.arange(50, 70))]).fit(X, y)
    assert CountingClassifier.n_fits == 0


@pytest.mark.parametrize("label", [2, "rare"])
def test_class_too_small_for_the_outer_stratified_split_warns_as_sklearn(label):
    # issue 23.3: StratifiedKFold warns when some class has fewer members than folds, and
    # cross_validate goes on; so does NestedCV (the warning is scikit-learn's own)
    labels = np.array(["a"] * 29 + ["b"] * 29 + ["rare"] * 2, dtype=object)
    if label == 2:
        labels = np.array([0] * 29 + [1] * 29 + [2] * 2)
    with pytest.warns(UserWarning, match="least populated class in y has only 2 members"):
        nested = _nested(outer_cv=3, inner_cv=KFold(2), refit=False).fit(X, labels)
    assert nested.outer_scores_.shape == (3,) and CountingClassifier.n_fits > 0


def test_every_class_too_small_for_the_outer_stratified_split_is_refused():
    # where scikit-learn's splitter raises, NestedCV says which class, before any fit
    labels = np.repeat(np.arange(30), 2)
    with pytest.raises(ValueError, match=r"outer_cv.*class 0 has only 2 member"):
        _nested(outer_cv=3).fit(X, labels)
    assert CountingClassifier.n_fits == 0


@pytest.mark.parametrize("inner_cv", [3, StratifiedKFold(4)], ids=["int", "skf"])
def test_class_too_small_for_the_inner_k_fold_warns_as_sklearn(inner_cv):
    # 3 members: every 3-fold outer training fold keeps 2 of them
    labels = np.array([0] * 29 + [1] * 28 + [2] * 3)
    with pytest.warns(UserWarning, match="least populated class in y has only 2 members"):
        _nested(outer_cv=3, inner_cv=inner_cv, refit=False).fit(X, labels)


def test_class_too_small_for_the_default_inner_hold_out_is_refused():
    labels = np.array([0] * 29 + [1] * 29 + [2] * 2)  # outer folds keep 1 of 2
    nested = _nested(outer_cv=StratifiedKFold(2), inner_cv=None)
    with pytest.raises(ValueError, match=r"outer training fold \d+: class 2 has only \d member"):
        nested.fit(X, labels)
    assert CountingClassifier.n_fits == 0


@pytest.mark.parametrize("bad", [np.nan, None])
def test_missing_labels_are_refused(bad):
    labels = y.astype(object if bad is None else float)
    labels[[3, 7]] = bad
    with pytest.raises(ValueError, match=r"y contains 2 NaN .*\[3, 7\]"):
        _nested().fit(X, labels)
    assert CountingClassifier.n_fits == 0


def test_inconsistent_lengths_are_refused():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        _nested().fit(X, y[:-1])
    assert CountingClassifier.n_fits == 0


def test_nested_cross_validate_refuses_bad_input_before_any_fit():
    with pytest.raises(ValueError, match="'n_refits' parameter"):
        nested_cross_validate(CountingClassifier(), X, y, n_refits=0)
    assert CountingClassifier.n_fits == 0


# --- fits that fail -----------------------------------------------------------------------------


def test_failing_candidate_gets_error_score_and_one_warning():
    nested = _nested(param_grid={"C": [-1.0, 1.0]}, n_refits=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y)
    fit_failed = [w for w in caught if issubclass(w.category, FitFailedWarning)]
    assert len(fit_failed) == 1
    message = str(fit_failed[0].message)
    # 3 outer folds + the final selection, 2 inner splits each: 8 failed fits
    assert message.startswith("8 of the")
    assert "C must be >= 0, got C=-1.0" in message
    assert nested.best_params_per_fold_ == [{"C": 1.0}] * 3
    assert nested.best_params_ == {"C": 1.0}
    failed = nested.cv_results_["param_C"] == -1.0
    assert np.isnan(nested.cv_results_["mean_test_score"][failed]).all()
    assert (nested.cv_results_["rank_test_score"][~failed] == 1).all()
    assert not np.isnan(nested.outer_scores_).any()


def test_numeric_error_score_is_recorded():
    nested = _nested(param_grid={"C": [-1.0, 1.0]}, error_score=-5.0)
    with pytest.warns(FitFailedWarning, match="error_score=-5.0"):
        nested.fit(X, y)
    failed = nested.cv_results_["param_C"] == -1.0
    np.testing.assert_array_equal(nested.cv_results_["mean_test_score"][failed], -5.0)
    assert nested.best_params_per_fold_ == [{"C": 1.0}] * 3


def test_run_where_every_candidate_fails_raises_with_the_error():
    # every outer fold fails: scikit-learn's "All the n fits failed", carrying the error
    with pytest.raises(ValueError, match=r"(?s)All the 3 fits failed.*C must be >= 0") as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FitFailedWarning)
            _nested(param_grid={"C": [-1.0, -2.0]}, refit=False).fit(X, y)
    assert "outer fold 0" in str(info.value)
    # the final selection on all the data cannot be skipped: it raises too
    with pytest.raises(ValueError, match=r"(?s)candidate\(s\) failed in the selection on all"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FitFailedWarning)
            _nested(param_grid={"C": [-1.0, -2.0]}).fit(X, y)


def test_fold_where_every_candidate_fails_is_scored_error_score_with_a_warning():
    # issue 23.3: as cross_validate(GridSearchCV(...)): the fold gets error_score, and warns
    marked = X.copy()
    marked[0, 0] = 1e6  # row 0 makes every fit that trains on it fail

    class FailsOnRowZero(CountingClassifier):
        def fit(self, X, y):
            if np.max(X[:, 0]) > 1e5:
                raise ValueError("trained on row 0")
            return super().fit(X, y)

    nested = NestedCV(
        FailsOnRowZero(), {"C": [1.0, 2.0]}, outer_cv=KFold(3), inner_cv=KFold(2), refit=False
    )
    # folds 1 and 2 train on row 0: every candidate has a failed inner fit, none is selected
    with pytest.warns(FitFailedWarning, match=r"(?s)2 fits failed out of a total of 3"):
        nested.fit(marked, y)
    assert np.isfinite(nested.outer_scores_[0]) and np.isnan(nested.outer_scores_[1:]).all()
    assert nested.best_params_per_fold_[1:] == [None, None]
    assert "no refit" in nested.outer_results_[1]["refits"]


class FailsForOneSeed(ClassifierMixin, BaseEstimator):
    """A random tree whose fit on 40 rows or more fails with ``random_state=bad_seed`` unless
    row 0 (marked) is among them: with KFold(3) on 60 rows, in outer fold 0's refits only."""

    def __init__(self, max_depth=None, random_state=None, bad_seed=None):
        self.max_depth = max_depth
        self.random_state = random_state
        self.bad_seed = bad_seed

    def fit(self, X, y):
        if self.random_state == self.bad_seed and len(X) >= 40 and np.max(X[:, 0]) < 1e5:
            raise BadFit("this seed fails")
        self.tree_ = DecisionTreeClassifier(
            max_depth=self.max_depth, max_features=1, random_state=self.random_state
        ).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def test_a_fold_with_a_failed_refit_is_scored_error_score_not_an_average_with_it():
    marked = X.copy()
    marked[0, 0] = 1e6

    def run(**params):
        return NestedCV(
            FailsForOneSeed(**params),
            {"max_depth": [2, 4]},
            outer_cv=KFold(3),
            inner_cv=KFold(2),
            n_refits=3,
            refit=False,
            random_state=0,
            error_score=0.0,
        ).fit(marked, y)

    clean = run()
    with pytest.warns(FitFailedWarning, match=r"(?s)1 fits failed out of a total of 3"):
        failing = run(bad_seed=clean.refit_seeds_[1])
    fold = failing.outer_results_[0]
    assert fold["refits_failed"] == 1
    # error_score, as the warning says; not (a + 0.0 + b) / 3 of the two refits that succeeded
    np.testing.assert_array_equal(fold["test_scores"], [0.0, 0.0, 0.0])
    assert fold["test_score"] == failing.outer_scores_[0] == 0.0
    assert clean.outer_scores_[0] > 0.0
    np.testing.assert_array_equal(failing.outer_scores_[1:], clean.outer_scores_[1:])
    # the mean of the folds is that of no fold failing: none, as summary() and the reports say
    # (it was the mean with error_score's 0.0 in it)
    assert np.isnan([failing.score_mean_, failing.score_std_, failing.optimism_]).all()
    assert np.isnan(failing.summary().mean)
    assert clean.score_mean_ == pytest.approx(np.mean(clean.outer_scores_))
    # a refit failing in every fold fails every fold: the error says that most refits ran
    marked[0, 0] = X[0, 0]
    with pytest.raises(ValueError, match=r"(?s)All the 3 fits failed.*3 of the 9 refits failed"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FitFailedWarning)
            run(bad_seed=clean.refit_seeds_[1])


def test_error_score_raise_reraises_the_original_exception():
    with pytest.raises(BadFit, match="C=-1.0"):
        _nested(param_grid={"C": [-1.0, 1.0]}, error_score="raise").fit(X, y)


def test_a_search_whose_own_scorer_gives_nan_names_its_metric_as_results_do():
    # the search selects with its own scorer, the outer folds are scored with another: the
    # message names the selecting metric as results show it, not by an internal key
    from sklearn.model_selection import GridSearchCV

    def nan_scorer(estimator, X_test, y_test):
        return float("nan")

    search = GridSearchCV(CountingClassifier(), {"C": [1.0, 2.0]}, cv=2, scoring=nan_scorer)
    with pytest.warns(NonFiniteScoreWarning) as caught:
        with pytest.raises(ValueError, match="no hyper-parameters can be selected") as info:
            nested_cross_validate(search, X, y, cv=3, scoring="accuracy")
    assert "mean validation score is NaN" in str(info.value)
    assert "selection:" not in str(info.value)
    assert "scored {'score': nan}" in str(caught[0].message)


def test_a_search_with_error_score_raise_whose_scorer_raises_fails_as_in_scikit_learn():
    # GridSearchCV(error_score="raise") raises when its scorer raises, so every outer fold of
    # cross_val_score(search) fails; a scorer that raised in the inner fits was recorded as NaN
    # and the search's candidates selected among the others, as if error_score were NaN.
    from sklearn.model_selection import GridSearchCV, cross_val_score

    from sklearn_fair import nested_cross_val_score

    def picky(estimator, X_test, y_test):
        if estimator.C == 2.0:
            raise RuntimeError("picky scorer")
        return float(np.mean(estimator.predict(X_test) == y_test))

    search = GridSearchCV(
        CountingClassifier(), {"C": [1.0, 2.0]}, cv=KFold(2), scoring=picky, error_score="raise"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="All the 3 fits failed") as expected:
            cross_val_score(search, X, y, cv=KFold(3))
        assert "picky scorer" in str(expected.value)
        with pytest.raises(ValueError, match="error_score='raise'") as got:
            nested_cross_val_score(search, X, y, cv=KFold(3), n_refits=1)
    assert "picky scorer" in str(got.value)


def _scores_or_error(function, *args, **kwargs):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return function(*args, **kwargs)
    except (BadFit, ValueError) as error:  # BadFit itself, or "All the 3 fits failed" with it
        return type(error), "C must be >= 0" in str(error)


@pytest.mark.parametrize("outer_error_score", [np.nan, "raise"])
@pytest.mark.parametrize("search_error_score", [np.nan, -1.0, 1.0, "raise"])
def test_a_search_keeps_its_own_error_score_for_its_inner_fits(
    search_error_score, outer_error_score
):
    # as cross_val_score(search, error_score=...): the search's error_score scores its inner
    # fits (a failing candidate may even win with 1.0, and its refit fails); the function's
    # scores the outer folds. Before, the function's also scored (or raised in) the inner fits
    from sklearn.model_selection import GridSearchCV, cross_val_score

    from sklearn_fair import nested_cross_val_score

    search = GridSearchCV(
        CountingClassifier(), {"C": [-1.0, 1.0]}, cv=KFold(2), error_score=search_error_score
    )
    expected = _scores_or_error(cross_val_score, search, X, y, cv=KFold(3),
                                error_score=outer_error_score)  # fmt: skip
    got = _scores_or_error(nested_cross_val_score, search, X, y, cv=KFold(3), n_refits=1,
                           error_score=outer_error_score)  # fmt: skip
    if isinstance(expected, tuple):
        assert got == expected
    else:
        np.testing.assert_allclose(got, expected)


@pytest.mark.parametrize("outer_error_score", ["raise", -5.0])
def test_the_warning_names_the_error_score_the_failed_inner_fits_were_given(outer_error_score):
    # a search's inner fits keep its own error_score (nan); the warning said they "were given
    # error_score='raise'", the function's, which none of them got
    from sklearn.model_selection import GridSearchCV

    search = GridSearchCV(CountingClassifier(), {"C": [-1.0, 1.0]}, cv=KFold(2))
    with pytest.warns(FitFailedWarning) as caught:
        result = nested_cross_validate(
            search, X, y, cv=KFold(3), n_refits=1, error_score=outer_error_score,
            return_nested_info=True,
        )  # fmt: skip
    messages = [str(w.message) for w in caught if issubclass(w.category, FitFailedWarning)]
    assert len(messages) == 1
    assert (
        "6 of the 15 fits of nested_cross_validate failed and were given the search's own "
        in (messages[0])
    )
    assert (
        "error_score=nan." in messages[0]
        and f"error_score={outer_error_score!r}" not in (messages[0])
    )
    assert np.isnan(np.asarray(result["validation_score"], dtype=float)).sum() == 0


def _always_failing_search(search_error_score):
    """A search run whole (its refit a callable), every fit of whose estimator fails."""
    from sklearn.model_selection import GridSearchCV

    return GridSearchCV(
        CountingClassifier(), {"C": [-1.0, -2.0]}, cv=KFold(2), refit=lambda results: 0,
        error_score=search_error_score,
    )  # fmt: skip


@pytest.mark.parametrize("search_error_score", ["raise", np.nan])
@pytest.mark.parametrize("runner", ["nested_cross_validate", "NestedCV"])
def test_error_score_raise_reraises_the_error_of_a_search_run_whole(search_error_score, runner):
    # cross_validate(search, error_score="raise") raises what the search's fit raised: the
    # estimator's BadFit (the search's own error_score="raise") or the search's "All the 4
    # fits failed". The fold without a refit was given the score "raise": "could not convert
    # string to float: 'raise'"
    from sklearn.model_selection import cross_validate

    search = _always_failing_search(search_error_score)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as expected:
            cross_validate(search, X, y, cv=KFold(3), error_score="raise")
        with pytest.raises(Exception) as got:
            if runner == "NestedCV":
                NestedCV(search, outer_cv=KFold(3), n_refits=1, error_score="raise").fit(X, y)
            else:
                nested_cross_validate(search, X, y, cv=KFold(3), n_refits=1, error_score="raise")
    assert got.type is expected.type
    assert got.type is (BadFit if search_error_score == "raise" else ValueError)
    assert "C must be >= 0" in str(got.value) and "C must be >= 0" in str(expected.value)
    assert "convert" not in str(got.value)


def test_error_score_raise_where_no_candidate_can_be_selected_raises_the_reason():
    # every inner validation split (12 rows or fewer) is scored NaN: no candidate has a finite
    # mean. With error_score=nan each fold fails and the run raises "All the 3 outer folds
    # failed"; with "raise" the fold was given the score "raise" ("could not convert string
    # to float"); it now raises the reason, for the first fold
    def nan_on_small(estimator, X_test, y_test):
        return np.nan if len(y_test) < 15 else float(np.mean(estimator.predict(X_test) == y_test))

    kwargs = dict(param_grid={"C": [1.0, 2.0]}, inner_cv=KFold(5), cv=KFold(3), n_refits=1,
                  scoring=nan_on_small)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="All the 3 outer folds failed"):
            nested_cross_validate(CountingClassifier(), X, y, **kwargs)
        with pytest.raises(ValueError) as info:
            nested_cross_validate(CountingClassifier(), X, y, error_score="raise", **kwargs)
    message = str(info.value)
    assert message.startswith("No hyper-parameters could be selected in outer fold 0 of ")
    assert "error_score='raise'" in message
    assert "Every candidate's mean validation score is NaN in outer fold 0" in message
    assert CountingClassifier.n_fits == 2 * 5 * 3 * 2  # no refit: only the two runs' inner fits


def _with_set_scoring(where):
    from sklearn.model_selection import GridSearchCV

    from sklearn_fair import benchmark, nested_cross_val_predict, nested_cross_val_score

    metrics = {"accuracy", "balanced_accuracy"}
    grid = {"C": [1.0, 2.0]}
    if where == "NestedCV":
        return lambda: _nested(param_grid=grid, scoring=metrics, refit="accuracy").fit(X, y)
    if where == "search":  # a search given: GridSearchCV's own fit refuses a set
        search = GridSearchCV(CountingClassifier(), grid, scoring=metrics, refit="accuracy")
        return lambda: nested_cross_validate(search, X, y, cv=3)
    if where == "benchmark":
        models = {"counting": (CountingClassifier(), grid)}
        return lambda: benchmark(models, {"d": (X, y)}, outer_cv=3, inner_cv=2, scoring=metrics)
    function = {
        "nested_cross_validate": nested_cross_validate,
        "nested_cross_val_score": nested_cross_val_score,
        "nested_cross_val_predict": nested_cross_val_predict,
    }[where]
    return lambda: function(CountingClassifier(), X, y, param_grid=grid, scoring=metrics)


@pytest.mark.parametrize(
    "where",
    ["NestedCV", "nested_cross_validate", "nested_cross_val_score", "nested_cross_val_predict",
     "benchmark", "search"],
)  # fmt: skip
def test_scoring_as_a_set_is_refused_before_any_fit(where):
    # as GridSearchCV and cross_validate refuse it: the first metric of a set, which selects
    # with refit=True (and orders the results), follows PYTHONHASHSEED, so one call with
    # random_state=0 selected other models in another process
    from sklearn.utils._param_validation import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="'scoring' parameter of") as info:
        _with_set_scoring(where)()
    assert "not a set" in str(info.value) and "pass a list or a dict" in str(info.value)
    assert CountingClassifier.n_fits == 0


class _FailsOnTheOuterTrainingRows(ClassifierMixin, BaseEstimator):
    """Fails on 66 rows: the outer training folds of KFold(3) on 100 rows, not the inner."""

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        if len(X) == 66:
            raise BadFit("the outer training rows")
        self.tree_ = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def test_a_callable_scoring_of_several_metrics_has_no_mean_of_a_failed_fold():
    from sklearn.metrics import accuracy_score, balanced_accuracy_score

    def scores(estimator, X, y):
        predicted = estimator.predict(X)
        return {"acc": accuracy_score(y, predicted), "bal": balanced_accuracy_score(y, predicted)}

    X100, y100 = make_classification(100, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        nested = NestedCV(_FailsOnTheOuterTrainingRows(), {"C": [0.1, 1.0]}, outer_cv=KFold(3),
                          inner_cv=KFold(2), error_score=0.5, scoring=scores, random_state=0,
                          refit="acc").fit(X100, y100)  # fmt: skip
    assert nested.refit_metric_ == "acc" and 0.5 in nested.outer_scores_
    # before: 0.742, error_score's 0.5 averaged in, where summary() says the fold failed
    assert np.isnan([nested.score_mean_, nested.score_std_, nested.optimism_]).all()
    assert np.isnan(nested.summary()["acc"].mean)
