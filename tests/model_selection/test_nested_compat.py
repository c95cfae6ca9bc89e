"""NestedCV as a scikit-learn citizen: common checks, parameters, pandas, metadata routing."""

import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import GroupKFold, KFold, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks
from threadpoolctl import threadpool_limits

from sklearn_fair import NestedCV

X, y = make_classification(n_samples=60, n_features=4, random_state=0)
GROUPS = np.repeat(np.arange(12), 5)


@pytest.fixture(autouse=True)
def _one_blas_thread():
    # Tiny lbfgs fits are many times slower when BLAS threads fight over shared cores.
    with threadpool_limits(limits=1):
        yield


# --- scikit-learn's common checks ---------------------------------------------------------------

_ALL_FAIL_IS_VALUE_ERROR = (
    "A fit error is recorded as error_score, as in GridSearchCV; when no outer fold (or the "
    "final selection) can select a candidate, NestedCV raises a ValueError that carries the "
    "original TypeError's message, as cross_validate's 'All the n fits failed' does. The "
    "check wants the bare TypeError (error_score='raise' gives it)."
)
# check_fit2d_1sample passes: a single-class y is refused as "y holds 1 class", one of the
# check's phrases
CLASSIFIER_EXPECTED_FAILURES = {"check_dtype_object": _ALL_FAIL_IS_VALUE_ERROR}
_CONSTANT_VALIDATION_TARGET = (
    "The check's y is sorted ([0] * 5 + [1] * 5, or iris' labels): unshuffled 2-fold splits leave "
    "every inner validation fold a single target value, where R^2 is undefined. NestedCV scores "
    "it NaN (scikit-learn's force_finite gives 0.0 to every candidate, and GridSearchCV takes "
    "the first of the tie), so no candidate can be selected and fit raises."
)
REGRESSOR_EXPECTED_FAILURES = {
    "check_dtype_object": _ALL_FAIL_IS_VALUE_ERROR,
    "check_estimators_nan_inf": _CONSTANT_VALIDATION_TARGET,
    "check_positive_only_tag_during_fit": _CONSTANT_VALIDATION_TARGET,
}


def _expected_failed_checks(estimator):
    if isinstance(estimator.estimator, Ridge):
        return REGRESSOR_EXPECTED_FAILURES
    return CLASSIFIER_EXPECTED_FAILURES


@parametrize_with_checks(
    [
        NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=2, inner_cv=2, n_refits=1),
        NestedCV(Ridge(), {"alpha": [0.1, 1.0]}, outer_cv=2, inner_cv=2, n_refits=1),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_clone_get_params_set_params_round_trip():
    nested = NestedCV(
        LogisticRegression(C=2.0),
        {"C": [0.1, 1.0]},
        outer_cv=3,
        inner_cv=KFold(2),
        n_refits=2,
        random_state=0,
    )
    params = nested.get_params()
    assert params["estimator__C"] == 2.0 and params["n_refits"] == 2
    assert params["param_grid"] == {"C": [0.1, 1.0]}
    copy = clone(nested)
    assert copy.get_params(deep=False).keys() == nested.get_params(deep=False).keys()
    assert copy.estimator is not nested.estimator
    assert copy.param_grid == nested.param_grid

    copy.set_params(n_refits=1, estimator__C=5.0, outer_cv=2)
    assert (copy.n_refits, copy.estimator.C, copy.outer_cv) == (1, 5.0, 2)
    assert (nested.n_refits, nested.estimator.C, nested.outer_cv) == (2, 2.0, 3)


def test_fit_does_not_mutate_the_given_estimator_or_grid():
    estimator = LogisticRegression()
    grid = {"C": [0.1, 1.0]}
    nested = NestedCV(estimator, grid, outer_cv=2, inner_cv=2).fit(X, y)
    assert estimator.get_params() == LogisticRegression().get_params()
    assert not hasattr(estimator, "coef_")
    assert grid == {"C": [0.1, 1.0]}
    assert nested.best_estimator_ is not estimator


# --- pandas -------------------------------------------------------------------------------------


@pytest.mark.parametrize("string_labels", [False, True])
def test_pandas_input_gives_the_same_scores_as_numpy(string_labels):
    labels = np.where(y == 1, "yes", "no") if string_labels else y
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    series = pd.Series(labels, name="target")

    def run(data, target):
        return NestedCV(
            LogisticRegression(),
            {"C": [0.01, 1.0]},
            outer_cv=3,
            inner_cv=3,
            n_refits=1,
            random_state=0,
        ).fit(data, target)

    from_numpy, from_pandas = run(X, labels), run(frame, series)
    np.testing.assert_allclose(from_pandas.outer_scores_, from_numpy.outer_scores_)
    np.testing.assert_allclose(from_pandas.validation_scores_, from_numpy.validation_scores_)
    assert from_pandas.best_params_per_fold_ == from_numpy.best_params_per_fold_
    np.testing.assert_array_equal(from_pandas.predict(frame), from_numpy.predict(X))
    np.testing.assert_array_equal(from_pandas.feature_names_in_, frame.columns)
    if string_labels:
        np.testing.assert_array_equal(from_pandas.classes_, ["no", "yes"])


# --- metadata --------------------------------------------------------------------------------


class GroupRecorder(ClassifierMixin, BaseEstimator):
    """Majority vote that records the group ids (column 0 of X) of every training set."""

    training_groups = []

    def fit(self, X, y):
        type(self).training_groups.append(frozenset(X[:, 0].astype(int)))
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


@pytest.mark.parametrize("routing", [False, True])
def test_groups_reach_outer_and_inner_group_splitters(routing):
    GroupRecorder.training_groups = []
    X_grouped = np.column_stack([GROUPS, X])
    nested = NestedCV(
        GroupRecorder(), outer_cv=GroupKFold(3), inner_cv=GroupKFold(2), n_refits=1, refit=False
    )
    with sklearn.config_context(enable_metadata_routing=routing):
        nested.fit(X_grouped, y, groups=GROUPS)
    for result in nested.outer_results_:
        outer_train = set(GROUPS[result["train_indices"]])
        assert outer_train.isdisjoint(GROUPS[result["test_indices"]])
    # 2 inner fits per outer fold and 1 refit per fold, in whatever order they ran
    recorded = GroupRecorder.training_groups
    assert len(recorded) == 3 * 2 + 3
    for result in nested.outer_results_:
        outer_train = frozenset(GROUPS[result["train_indices"]])
        assert recorded.count(outer_train) == 1  # the refit
        inner = [groups for groups in recorded if groups < outer_train]
        # two inner training sets that each leave out whole groups and together cover the fold
        assert any(
            a | b == outer_train and (outer_train - a).isdisjoint(outer_train - b)
            for i, a in enumerate(inner)
            for b in inner[i + 1 :]
        )


@pytest.mark.parametrize("routing", [False, True])
def test_functions_given_groups_in_params_split_by_group_with_int_cvs(routing):
    # with routing on, scikit-learn's functions take groups in params; they reached only the
    # splitters that requested them, so an int cv and inner_cv stayed KFold: every outer test
    # group and every inner validation group was also trained on, without a warning
    from sklearn_fair.model_selection import nested_cross_validate

    X_grouped = np.column_stack([GROUPS, X])
    given = {"params": {"groups": GROUPS}} if routing else {"groups": GROUPS}
    GroupRecorder.training_groups = []
    with sklearn.config_context(enable_metadata_routing=routing):
        result = nested_cross_validate(
            GroupRecorder(), X_grouped, y, cv=3, inner_cv=2, param_grid={}, n_refits=1,
            return_indices=True, **given,
        )  # fmt: skip
    for train, test in zip(result["indices"]["train"], result["indices"]["test"]):
        assert set(GROUPS[train]).isdisjoint(GROUPS[test])
    recorded = GroupRecorder.training_groups
    assert len(recorded) == 3 * 2 + 3
    for train in result["indices"]["train"]:
        outer_train = frozenset(GROUPS[train])
        inner = [groups for groups in recorded if groups < outer_train]
        # two inner training sets that each leave out whole groups and together cover the fold
        assert any(
            a | b == outer_train and (outer_train - a).isdisjoint(outer_train - b)
            for i, a in enumerate(inner)
            for b in inner[i + 1 :]
        )


def test_without_groups_a_group_splitter_complains():
    with pytest.raises(ValueError, match="groups"):
        NestedCV(KNeighborsClassifier(), outer_cv=GroupKFold(3)).fit(X, y)


class WeightRecorder(ClassifierMixin, BaseEstimator):
    """Majority vote (weighted when given weights) that records the weights it was given."""

    def fit(self, X, y, sample_weight=None):
        self.classes_ = np.unique(y)
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight)
        self.majority_ = self.classes_[np.argmax([weights[y == c].sum() for c in self.classes_])]
        self.fit_weight_sum_ = float(weights.sum())
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def _weights():
    # heavy weights on class 1 so that a weighted fit and a weighted score both differ
    return np.where(y == 1, 5.0, 1.0) * np.linspace(0.5, 1.5, len(y))


def test_sample_weight_is_routed_to_fit_and_scorer_when_requested():
    weights = _weights()
    outer = StratifiedKFold(3)
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_scorer(accuracy_score).set_score_request(sample_weight=True)
        estimator = LogisticRegression(C=0.01).set_fit_request(sample_weight=True)
        nested = NestedCV(
            estimator, outer_cv=outer, inner_cv=2, scoring=scorer, n_refits=1, refit=False
        ).fit(X, y, sample_weight=weights)
        unweighted_score = NestedCV(
            estimator,
            outer_cv=outer,
            inner_cv=2,
            scoring=make_scorer(accuracy_score).set_score_request(sample_weight=False),
            n_refits=1,
            refit=False,
        ).fit(X, y, sample_weight=weights)
    expected, expected_unweighted_score = [], []
    for train, test in outer.split(X, y):
        model = LogisticRegression(C=0.01).fit(X[train], y[train], sample_weight=weights[train])
        prediction = model.predict(X[test])
        expected.append(accuracy_score(y[test], prediction, sample_weight=weights[test]))
        expected_unweighted_score.append(accuracy_score(y[test], prediction))
    np.testing.assert_allclose(nested.outer_scores_, expected)
    np.testing.assert_allclose(unweighted_score.outer_scores_, expected_unweighted_score)
    assert not np.allclose(expected, expected_unweighted_score)


def test_fit_without_metadata_under_routing_equals_fit_without_routing():
    def run():
        return NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=3, inner_cv=2).fit(X, y)

    with sklearn.config_context(enable_metadata_routing=True):
        routed = run()
    np.testing.assert_array_equal(routed.outer_scores_, run().outer_scores_)


@pytest.mark.parametrize("as_search", [True, False])
def test_sample_weight_without_routing_weights_the_selection_as_a_search_does(as_search):
    # scikit-learn's searches (1.7 and later) give sample_weight to their scorers without
    # routing; cross_validate scores the outer test folds unweighted. The inner selection was
    # scored unweighted: other depths were selected, and other outer scores came out
    from sklearn.model_selection import GridSearchCV, cross_validate
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_fair.model_selection import nested_cross_validate

    X_noisy, y_noisy = make_classification(
        n_samples=120, flip_y=0.3, n_informative=3, random_state=1
    )
    weights = np.random.RandomState(1).choice([0.1, 1.0, 10.0], 120)
    grid = {"max_depth": [1, 2, 3, 5, None]}
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=3)
    theirs = cross_validate(
        search, X_noisy, y_noisy, cv=3, params={"sample_weight": weights}, return_estimator=True
    )
    given = (
        {"estimator": search}
        if as_search
        else {
            "estimator": DecisionTreeClassifier(random_state=0),
            "param_grid": grid,
            "inner_cv": 3,
        }
    )
    ours = nested_cross_validate(
        **given, X=X_noisy, y=y_noisy, cv=3, params={"sample_weight": weights},
        return_nested_info=True, n_refits=1,
    )  # fmt: skip
    assert ours["best_params"] == [model.best_params_ for model in theirs["estimator"]]
    np.testing.assert_array_equal(ours["test_score"], theirs["test_score"])
    final = clone(search).fit(X_noisy, y_noisy, sample_weight=weights)
    nested = NestedCV(given.pop("estimator"), outer_cv=3, n_refits=1, **given)
    nested.fit(X_noisy, y_noisy, sample_weight=weights)
    assert nested.best_params_ == final.best_params_
    assert nested.best_score_ == pytest.approx(final.best_score_)


def test_sample_weight_without_routing_names_a_scorer_that_cannot_take_it():
    def unweighted(estimator, X, y):
        return accuracy_score(y, estimator.predict(X))

    estimator = LogisticRegression()
    with pytest.warns(UserWarning, match="The scoring score=.* does not take sample_weight"):
        NestedCV(estimator, param_grid={"C": [0.1, 1.0]}, scoring=unweighted, n_refits=1).fit(
            X, y, sample_weight=np.ones(len(y))
        )


def test_unrequested_sample_weight_is_refused_under_routing():
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match="sample_weight"):
            NestedCV(LogisticRegression(), outer_cv=2, inner_cv=2).fit(
                X, y, sample_weight=_weights()
            )


def test_fit_params_reach_fit_without_routing():
    weights = _weights()
    nested = NestedCV(WeightRecorder(), outer_cv=StratifiedKFold(3), inner_cv=2, n_refits=1)
    nested.fit(X, y, sample_weight=weights)
    assert nested.best_estimator_.fit_weight_sum_ == pytest.approx(weights.sum())
    unweighted = NestedCV(WeightRecorder(), outer_cv=StratifiedKFold(3), inner_cv=2, n_refits=1)
    assert unweighted.fit(X, y).best_estimator_.fit_weight_sum_ == len(y)
    # weights of 5 on class 1 make it the weighted majority of every training fold
    for result in nested.outer_results_:
        test = result["test_indices"]
        assert result["test_score"] == pytest.approx(np.mean(y[test] == 1))


def test_metadata_routing_lists_estimator_scorers_and_splitters():
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_scorer(accuracy_score).set_score_request(sample_weight=True)
        estimator = LogisticRegression().set_fit_request(sample_weight=True)
        routing = NestedCV(
            estimator, outer_cv=GroupKFold(2), inner_cv=GroupKFold(2), scoring=scorer
        ).get_metadata_routing()
        consumed = routing.consumes("fit", ["sample_weight", "groups"])
    assert consumed == {"sample_weight", "groups"}
