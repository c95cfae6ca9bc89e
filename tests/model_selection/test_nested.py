"""NestedCV's core behaviour: equality with scikit-learn's nested idiom, refit seeds,
fitted attributes, default splits, search spaces and determinism across n_jobs."""

import joblib
import numpy as np
import pandas as pd
import pytest
from scipy.stats import loguniform
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score
from sklearn.model_selection import (
    GridSearchCV,
    HalvingGridSearchCV,
    KFold,
    RandomizedSearchCV,
    StratifiedKFold,
    cross_validate,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import HoldoutSplit
from sklearn_fair.model_selection._nested._resampling import default_inner_cv

X, y = make_classification(n_samples=60, n_features=5, n_informative=3, random_state=0)
X_reg, y_reg = make_regression(n_samples=60, n_features=5, noise=5.0, random_state=0)
OUTER = StratifiedKFold(5, shuffle=True, random_state=0)

DETERMINISTIC = [
    pytest.param(SVC(), {"C": [0.1, 1.0, 10.0]}, id="svc"),
    pytest.param(LogisticRegression(), {"C": [0.01, 1.0]}, id="logreg"),
    pytest.param(KNeighborsClassifier(), {"n_neighbors": [1, 5, 9]}, id="knn"),
]
INNER = [
    pytest.param(KFold(3), id="kfold3"),
    pytest.param(HoldoutSplit(test_size=0.2, random_state=0), id="holdout"),
]


@pytest.fixture(autouse=True)
def _one_blas_thread():
    # Tiny lbfgs fits are many times slower when BLAS threads fight over shared cores.
    with threadpool_limits(limits=1):
        yield


class SeedScorer(ClassifierMixin, BaseEstimator):
    """Predicts the first class; its score is the random_state it was fitted with."""

    def __init__(self, random_state=None, C=1.0):
        self.random_state = random_state
        self.C = C

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.fitted_seed_ = self.random_state
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])

    def score(self, X, y, sample_weight=None):
        return float(self.fitted_seed_)


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """KNN-like majority vote without random_state; counts fits in a class variable."""

    n_fits = 0
    train_class_counts = []

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        type(self).n_fits += 1
        self.classes_, counts = np.unique(y, return_counts=True)
        type(self).train_class_counts.append(tuple(counts))
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


class CountingRegressor(RegressorMixin, BaseEstimator):
    train_sizes = []

    def fit(self, X, y):
        type(self).train_sizes.append(len(y))
        self.mean_ = float(np.mean(y))
        return self

    def predict(self, X):
        return np.full(len(X), self.mean_)


@pytest.fixture(autouse=True)
def _reset_counters():
    CountingClassifier.n_fits = 0
    CountingClassifier.train_class_counts = []
    CountingRegressor.train_sizes = []


# --- equality with cross_validate(GridSearchCV(...)) ----------------------------------------


@pytest.mark.parametrize("estimator, grid", DETERMINISTIC)
@pytest.mark.parametrize("inner", INNER)
def test_per_fold_equality_with_sklearn_nested_idiom(estimator, grid, inner):
    reference = cross_validate(
        GridSearchCV(estimator, grid, cv=inner), X, y, cv=OUTER, return_estimator=True
    )
    nested = NestedCV(estimator, grid, outer_cv=OUTER, inner_cv=inner, n_refits=1).fit(X, y)

    np.testing.assert_allclose(nested.outer_scores_, reference["test_score"])
    assert nested.best_params_per_fold_ == [s.best_params_ for s in reference["estimator"]]
    np.testing.assert_allclose(
        nested.validation_scores_, [s.best_score_ for s in reference["estimator"]]
    )
    for fold, (train, test) in enumerate(OUTER.split(X, y)):
        np.testing.assert_array_equal(nested.outer_results_[fold]["train_indices"], train)
        np.testing.assert_array_equal(nested.outer_results_[fold]["test_indices"], test)


def test_per_fold_equality_multimetric_with_refit_name():
    scoring = {"acc": "accuracy", "bacc": "balanced_accuracy"}
    grid = {"C": [0.01, 0.1, 10.0]}
    search = GridSearchCV(SVC(), grid, cv=KFold(3), scoring=scoring, refit="bacc")
    reference = cross_validate(search, X, y, cv=OUTER, scoring=scoring, return_estimator=True)
    nested = NestedCV(
        SVC(), grid, outer_cv=OUTER, inner_cv=KFold(3), scoring=scoring, refit="bacc", n_refits=1
    ).fit(X, y)

    np.testing.assert_allclose(nested.outer_scores_, reference["test_bacc"])
    np.testing.assert_allclose(
        [f["test_scores_per_metric"]["acc"][0] for f in nested.outer_results_],
        reference["test_acc"],
    )
    assert nested.best_params_per_fold_ == [s.best_params_ for s in reference["estimator"]]
    np.testing.assert_allclose(
        nested.validation_scores_, [s.best_score_ for s in reference["estimator"]]
    )
    assert nested.multimetric_ and set(nested.scorer_) == {"acc", "bacc"}
    assert nested.refit_metric_ == "bacc"


# --- a scikit-learn search as the estimator ---------------------------------------------------


@pytest.mark.parametrize("inner", [KFold(3), 4, HoldoutSplit(test_size=0.2, random_state=0)])
def test_wrapped_grid_search_equals_unwrapped(inner):
    grid = {"C": [0.1, 1.0, 10.0]}
    wrapped = NestedCV(GridSearchCV(SVC(), grid, cv=inner), outer_cv=OUTER, n_refits=1)
    plain = NestedCV(SVC(), grid, outer_cv=OUTER, inner_cv=inner, n_refits=1)
    wrapped.fit(X, y)
    plain.fit(X, y)
    np.testing.assert_allclose(wrapped.outer_scores_, plain.outer_scores_)
    np.testing.assert_allclose(wrapped.validation_scores_, plain.validation_scores_)
    assert wrapped.best_params_per_fold_ == plain.best_params_per_fold_


def test_wrapped_grid_search_with_default_cv_is_its_five_fold():
    # GridSearchCV(cv=None) means 5-fold (stratified for classifiers): taken apart inside
    # NestedCV it must stay so, not fall back to NestedCV's own 90/10 hold-out.
    search = GridSearchCV(SVC(), {"C": [0.1, 1.0, 10.0]})
    reference = cross_validate(search, X, y, cv=OUTER, return_estimator=True)
    nested = NestedCV(search, outer_cv=OUTER, n_refits=1).fit(X, y)
    np.testing.assert_allclose(nested.outer_scores_, reference["test_score"])
    np.testing.assert_allclose(
        nested.validation_scores_, [s.best_score_ for s in reference["estimator"]]
    )
    # 5 outer folds x 3 candidates, then the 3 of the selection on all the data
    assert nested.cv_results_["split4_test_score"].shape == (5 * 3 + 3,)


def test_best_index_reads_the_final_selection_in_cv_results_as_in_grid_search():
    # GridSearchCV's idiom: cv_results_[...][best_index_] is the winner's row
    grid = {"C": [0.01, 0.1, 1.0, 10.0]}
    search = GridSearchCV(SVC(), grid, cv=KFold(3)).fit(X, y)
    nested = NestedCV(SVC(), grid, outer_cv=OUTER, inner_cv=KFold(3), n_refits=1).fit(X, y)
    assert nested.best_params_ == search.best_params_
    for results, index in ((nested.cv_results_, nested.best_index_),
                           (search.cv_results_, search.best_index_)):  # fmt: skip
        assert results["params"][index] == search.best_params_
        assert results["mean_test_score"][index] == pytest.approx(search.best_score_)
        assert results["rank_test_score"][index] == 1
    assert nested.best_score_ == pytest.approx(search.best_score_)


def test_wrapped_randomized_search_uses_its_space_and_seed():
    search = RandomizedSearchCV(
        SVC(), {"C": loguniform(1e-2, 1e2)}, n_iter=3, cv=KFold(3), random_state=0
    )
    reference = cross_validate(search, X, y, cv=OUTER, return_estimator=True)
    nested = NestedCV(search, outer_cv=OUTER, n_refits=1).fit(X, y)
    np.testing.assert_allclose(nested.outer_scores_, reference["test_score"])
    assert nested.best_params_per_fold_ == [s.best_params_ for s in reference["estimator"]]


def test_halving_search_as_inner_selection():
    search = HalvingGridSearchCV(
        SVC(), {"C": [0.01, 0.1, 1.0, 10.0]}, cv=3, factor=2, random_state=0
    )
    reference = cross_validate(search, X, y, cv=OUTER, return_estimator=True)
    nested = NestedCV(search, outer_cv=OUTER, n_refits=1).fit(X, y)

    np.testing.assert_allclose(nested.outer_scores_, reference["test_score"])
    assert nested.best_params_per_fold_ == [s.best_params_ for s in reference["estimator"]]
    np.testing.assert_allclose(
        nested.validation_scores_, [s.best_score_ for s in reference["estimator"]]
    )
    assert nested.best_params_ == search.fit(X, y).best_params_
    results = pd.DataFrame(nested.cv_results_)
    selected = results[results["selected"]]
    assert list(selected["outer_fold"]) == [*range(5), -1]  # -1: the selection on all the data
    assert list(selected["params"]) == [*nested.best_params_per_fold_, nested.best_params_]
    # as in HalvingGridSearchCV itself, the winner is the best of the last iteration, which
    # need not have the best mean over all iterations (rank 1)
    for fold, model in enumerate(reference["estimator"]):
        assert selected["candidate"].iloc[fold] == model.best_index_


# --- refit seeds ------------------------------------------------------------------------------


@pytest.mark.parametrize("n_refits", [1, 2, 4])
def test_refits_get_distinct_seeds_and_the_fold_score_is_their_mean(n_refits):
    nested = NestedCV(
        SeedScorer(), {"C": [1.0, 2.0]}, outer_cv=3, inner_cv=2, n_refits=n_refits, random_state=0
    ).fit(X, y)

    seeds = nested.refit_seeds_
    assert len(seeds) == n_refits == len(set(seeds))
    assert all(isinstance(seed, int) for seed in seeds)
    for fold in nested.outer_results_:
        # SeedScorer's test score is the seed it was refitted with.
        np.testing.assert_array_equal(fold["test_scores"], np.array(seeds, dtype=float))
        assert fold["test_score"] == pytest.approx(np.mean(seeds))
        assert fold["refit_seeds"] == seeds
    np.testing.assert_allclose(
        nested.outer_scores_, [np.mean(f["test_scores"]) for f in nested.outer_results_]
    )


def test_seeds_are_deterministic_given_random_state():
    def seeds(random_state):
        nested = NestedCV(
            SeedScorer(), outer_cv=2, inner_cv=2, n_refits=3, random_state=random_state
        )
        return nested.fit(X, y).refit_seeds_

    assert seeds(0) == seeds(0)
    assert seeds(np.random.RandomState(7)) == seeds(np.random.RandomState(7))
    assert seeds(0) != seeds(1)


def test_pipeline_step_random_state_receives_the_seed():
    pipe = Pipeline([("scale", StandardScaler()), ("clf", SeedScorer())])
    nested = NestedCV(pipe, {"clf__C": [1.0, 2.0]}, outer_cv=2, inner_cv=2, n_refits=2)
    nested.fit(X, y)
    for fold in nested.outer_results_:
        np.testing.assert_array_equal(fold["test_scores"], nested.refit_seeds_)


def test_explicit_random_state_is_kept_by_the_refits():
    # issue 23.4: a seed the user set is never overwritten; nothing is left to vary, so one
    # refit (its score is the seed it was fitted with: the user's 5)
    nested = NestedCV(SeedScorer(random_state=5), outer_cv=2, inner_cv=2, n_refits=2)
    nested.fit(X, y)
    assert nested.refit_seeds_ == [None]
    for fold in nested.outer_results_:
        np.testing.assert_array_equal(fold["test_scores"], [5.0])
        assert "no random_state left unset" in fold["refits"]
    assert nested.best_estimator_.fitted_seed_ == 5


def test_selection_fits_seed_unset_random_state_but_keep_explicit_one():
    nested = NestedCV(SeedScorer(), {"C": [1.0, 2.0]}, outer_cv=2, inner_cv=2, random_state=0)
    nested.fit(X, y)
    inner = nested.cv_results_["mean_test_score"]
    # one seed for every selection fit, not None and not one of the refit seeds
    assert len(np.unique(inner)) == 1 and not np.isnan(inner[0])
    assert inner[0] not in nested.refit_seeds_

    explicit = NestedCV(SeedScorer(random_state=5), {"C": [1.0, 2.0]}, outer_cv=2, inner_cv=2)
    np.testing.assert_array_equal(explicit.fit(X, y).cv_results_["mean_test_score"], 5.0)


def test_every_nested_random_state_receives_the_seed():
    from sklearn_fair import nested_cross_validate

    bagging = BaggingClassifier(estimator=DecisionTreeClassifier(), n_estimators=2)
    results = nested_cross_validate(
        bagging,
        X,
        y,
        outer_cv=2,
        inner_cv=2,
        n_refits=2,
        return_estimator=True,
        random_state=0,
        return_nested_info=True,
    )
    for models, seeds in zip(results["estimator"], results["refit_seeds"]):
        first_seed, params = seeds[0], models[0].get_params()
        # the first by name gets the refit's seed, the other one a seed of its own
        assert params["estimator__random_state"] == first_seed
        assert isinstance(params["random_state"], int)
        assert params["random_state"] not in (first_seed, None)


def test_estimator_without_random_state_is_trained_once():
    n_outer, n_candidates, n_inner = 3, 2, 2
    nested = NestedCV(
        CountingClassifier(), {"C": [1.0, 2.0]}, outer_cv=n_outer, inner_cv=n_inner, n_refits=5
    ).fit(X, y)
    assert nested.refit_seeds_ == [None]
    assert all(len(f["test_scores"]) == 1 for f in nested.outer_results_)
    # selection in every outer fold and on all the data, one refit per fold, one final fit
    selection = (n_outer + 1) * n_candidates * n_inner
    assert CountingClassifier.n_fits == selection + n_outer + 1


# --- fitted attributes --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fitted():
    with threadpool_limits(limits=1):
        return NestedCV(
            LogisticRegression(),
            {"C": [0.01, 0.1, 1.0]},
            outer_cv=4,
            inner_cv=3,
            n_refits=2,
            random_state=0,
        ).fit(X, y)


def test_fitted_attribute_shapes_and_definitions(fitted):
    n_outer = 4
    assert fitted.n_splits_ == n_outer
    assert fitted.outer_scores_.shape == fitted.validation_scores_.shape == (n_outer,)
    assert len(fitted.best_params_per_fold_) == len(fitted.outer_results_) == n_outer
    for fold, result in enumerate(fitted.outer_results_):
        for key in (
            "best_params",
            "validation_score",
            "test_scores",
            "train_indices",
            "test_indices",
            "fit_time",
        ):
            assert key in result
        assert result["best_params"] == fitted.best_params_per_fold_[fold]
        assert result["validation_score"] == fitted.validation_scores_[fold]
        assert result["test_score"] == pytest.approx(np.mean(result["test_scores"]))
        assert fitted.outer_scores_[fold] == pytest.approx(result["test_score"])
        assert result["fit_time"] > 0
        assert np.intersect1d(result["train_indices"], result["test_indices"]).size == 0
        assert result["train_indices"].size + result["test_indices"].size == len(y)
    assert fitted.score_mean_ == pytest.approx(np.mean(fitted.outer_scores_))
    assert fitted.score_std_ == pytest.approx(np.std(fitted.outer_scores_))
    assert fitted.optimism_ == pytest.approx(
        np.mean(fitted.validation_scores_) - np.mean(fitted.outer_scores_)
    )


def test_cv_results_one_row_per_fold_and_candidate(fitted):
    results = pd.DataFrame(fitted.cv_results_)
    assert len(results) == 4 * 3 + 3  # then the candidates of the selection on all the data
    assert list(results["outer_fold"].unique()) == [0, 1, 2, 3, -1]
    assert {"split0_test_score", "split2_test_score", "param_C"} <= set(results)
    best_params = [*fitted.best_params_per_fold_, fitted.best_params_]
    best_scores = [*fitted.validation_scores_, fitted.best_score_]
    for fold, rows in results.groupby("outer_fold", sort=False):
        assert list(rows["candidate"]) == [0, 1, 2]
        selected = rows[rows["selected"]]
        assert len(selected) == 1
        assert selected["rank_test_score"].item() == 1
        assert selected["params"].item() == best_params[fold]
        assert selected["mean_test_score"].item() == pytest.approx(best_scores[fold])
        splits = rows[[f"split{k}_test_score" for k in range(3)]].to_numpy()
        np.testing.assert_allclose(rows["mean_test_score"], splits.mean(axis=1))


def test_cv_results_param_columns_have_grid_searchs_dtypes_and_masks():
    grid = [
        {"max_depth": [1, None], "criterion": ["gini"], "min_samples_leaf": [1, 2]},
        {"max_depth": [2], "min_impurity_decrease": [0.0, 0.01], "class_weight": [None, {0: 2}]},
        {"max_depth": [3], "ccp_alpha": [0.0, 0.5], "min_samples_split": [2, 3]},
    ]
    cv = StratifiedKFold(2)
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=cv).fit(X, y)
    nested = NestedCV(
        DecisionTreeClassifier(random_state=0), grid, outer_cv=2, inner_cv=cv, refit=False
    ).fit(X, y)
    first_fold = nested.cv_results_["outer_fold"] == 0
    expected = {k: v for k, v in search.cv_results_.items() if k.startswith("param_")}
    assert expected.keys() == {k for k in nested.cv_results_ if k.startswith("param_")}
    for key, column in expected.items():
        ours = nested.cv_results_[key]
        assert ours.dtype == column.dtype, key
        np.testing.assert_array_equal(np.ma.getmaskarray(ours[first_fold]), column.mask)
        assert list(ours[first_fold].compressed()) == list(column.compressed()), key


def test_refit_true_gives_the_final_model_of_grid_search(fitted):
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 0.1, 1.0]}, cv=3).fit(X, y)
    assert fitted.best_params_ == search.best_params_
    assert fitted.best_score_ == pytest.approx(search.best_score_)
    np.testing.assert_array_equal(fitted.predict(X), search.predict(X))
    np.testing.assert_allclose(fitted.predict_proba(X), search.predict_proba(X))
    np.testing.assert_allclose(fitted.decision_function(X), search.decision_function(X))
    assert fitted.score(X, y) == pytest.approx(search.score(X, y))
    np.testing.assert_array_equal(fitted.classes_, [0, 1])
    assert fitted.n_features_in_ == X.shape[1]


def test_refit_false_has_no_final_model():
    nested = NestedCV(KNeighborsClassifier(), {"n_neighbors": [1, 3]}, outer_cv=2, refit=False)
    nested.fit(X, y)
    assert nested.outer_scores_.shape == (2,)
    assert not hasattr(nested, "best_estimator_")
    assert not hasattr(nested, "best_params_")
    with pytest.raises(AttributeError):
        nested.predict(X)


# --- default and integer splits -----------------------------------------------------------------


def test_default_inner_cv_is_a_stratified_90_10_holdout_for_classifiers():
    y_imbalanced = np.array([0] * 45 + [1] * 15)
    nested = NestedCV(CountingClassifier(), outer_cv=StratifiedKFold(3), n_refits=1, refit=False)
    nested.fit(X, y_imbalanced)
    # outer training folds hold 30 + 10 samples; a stratified 10% hold-out takes 3 + 1 of them
    counts = [tuple(map(int, c)) for c in CountingClassifier.train_class_counts]
    assert sorted(counts) == [(27, 9)] * 3 + [(30, 10)] * 3  # 3 selection fits, 3 refits
    assert nested.cv_results_["split0_test_score"].shape == (3,)
    assert "split1_test_score" not in nested.cv_results_
    assert default_inner_cv(LogisticRegression(), StratifiedKFold(3), 0, y).stratify is True
    assert default_inner_cv(LogisticRegression(), StratifiedKFold(3), 0, y).test_size == 0.1


def test_default_inner_cv_is_an_unstratified_holdout_for_regressors():
    assert default_inner_cv(Ridge(), KFold(3), 0, y_reg).stratify is False
    NestedCV(CountingRegressor(), outer_cv=KFold(3), n_refits=1, refit=False).fit(X_reg, y_reg)
    # 40 training samples, 4 held out: 3 selection fits on 36, 3 refits on 40
    assert sorted(CountingRegressor.train_sizes) == [36] * 3 + [40] * 3


def test_int_cv_means_stratified_kfold_for_classifiers():
    nested = NestedCV(SVC(), {"C": [0.1, 10.0]}, outer_cv=3, inner_cv=4, n_refits=1).fit(X, y)
    for fold, (train, test) in enumerate(StratifiedKFold(3).split(X, y)):
        np.testing.assert_array_equal(nested.outer_results_[fold]["test_indices"], test)
        search = GridSearchCV(SVC(), {"C": [0.1, 10.0]}, cv=StratifiedKFold(4))
        assert nested.validation_scores_[fold] == pytest.approx(
            search.fit(X[train], y[train]).best_score_
        )
    assert "split3_test_score" in nested.cv_results_


def test_int_cv_means_kfold_for_regressors():
    grid = {"alpha": [0.1, 10.0]}
    nested = NestedCV(Ridge(), grid, outer_cv=3, inner_cv=4, n_refits=1).fit(X_reg, y_reg)
    for fold, (train, test) in enumerate(KFold(3).split(X_reg)):
        np.testing.assert_array_equal(nested.outer_results_[fold]["test_indices"], test)
        search = GridSearchCV(Ridge(), grid, cv=KFold(4)).fit(X_reg[train], y_reg[train])
        assert nested.validation_scores_[fold] == pytest.approx(search.best_score_)


def test_iterable_of_pairs_as_outer_cv():
    splits = list(KFold(3, shuffle=True, random_state=1).split(X))
    nested = NestedCV(KNeighborsClassifier(), outer_cv=iter(splits), n_refits=1).fit(X, y)
    assert nested.n_splits_ == 3
    for result, (train, test) in zip(nested.outer_results_, splits):
        np.testing.assert_array_equal(result["train_indices"], train)
        np.testing.assert_array_equal(result["test_indices"], test)


def test_param_distributions_sample_n_iter_candidates_deterministically():
    def candidates(random_state):
        nested = NestedCV(
            LogisticRegression(),
            param_distributions={"C": loguniform(1e-2, 1e2)},
            n_iter=4,
            outer_cv=2,
            inner_cv=2,
            n_refits=1,
            refit=False,
            random_state=random_state,
        ).fit(X, y)
        results = nested.cv_results_
        assert len(results["params"]) == 2 * 4
        per_fold = [list(results["param_C"][results["outer_fold"] == f]) for f in (0, 1)]
        assert per_fold[0] == per_fold[1]  # the same candidates in every outer fold
        assert all(1e-2 <= c <= 1e2 for c in per_fold[0])
        assert len(set(per_fold[0])) == 4
        return per_fold[0]

    assert candidates(0) == candidates(0)
    assert candidates(0) != candidates(1)


# --- determinism across n_jobs and backends -----------------------------------------------------


def test_results_do_not_depend_on_n_jobs_or_backend():
    def run(n_jobs):
        return NestedCV(
            RandomForestClassifier(n_estimators=5),
            {"max_depth": [2, None]},
            outer_cv=3,
            inner_cv=2,
            n_refits=2,
            n_jobs=n_jobs,
            random_state=0,
            refit=False,
        ).fit(X, y)

    sequential, parallel = run(1), run(2)
    with joblib.parallel_backend("threading", n_jobs=2):
        threaded = run(None)
    # joblib's multiprocessing backend (an experiment file's backend = "multiprocessing"):
    # NestedCV runs on loky's worker processes (it raised AttributeError '_workers')
    with joblib.parallel_backend("multiprocessing", n_jobs=2):
        processes = run(None)
    for other in (parallel, threaded, processes):
        np.testing.assert_array_equal(other.outer_scores_, sequential.outer_scores_)
        np.testing.assert_array_equal(other.validation_scores_, sequential.validation_scores_)
        assert other.best_params_per_fold_ == sequential.best_params_per_fold_
        assert other.refit_seeds_ == sequential.refit_seeds_


# --- progress bar -------------------------------------------------------------------------------


@pytest.mark.parametrize("verbose, shown", [(0, False), (1, True)])
def test_verbose_shows_a_progress_bar_with_the_number_of_fits(capsys, verbose, shown):
    NestedCV(
        KNeighborsClassifier(), {"n_neighbors": [1, 3]}, outer_cv=3, inner_cv=2, verbose=verbose
    ).fit(X, y)
    # (3 outer folds + the final selection) x 2 candidates x 2 inner splits, 3 refits, 1 final
    total = 4 * 2 * 2 + 3 + 1
    err = capsys.readouterr().err
    assert ("NestedCV fits" in err) is shown
    assert (f"{total}/{total}" in err) is shown


class _WithoutScore(BaseEstimator):
    """A classifier of the user's with fit and predict and no score method."""

    _estimator_type = "classifier"

    def __init__(self, C=1.0):
        self.C = C

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        return tags

    def fit(self, X, y):
        self.model_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def test_score_is_there_with_a_scoring_for_an_estimator_without_score():
    # as GridSearchCV's score, which scores with its scoring whatever the estimator has
    from sklearn.model_selection import cross_val_score

    grid = {"C": [0.01, 1.0]}
    search = GridSearchCV(_WithoutScore(), grid, cv=KFold(3), scoring="accuracy")
    nested = NestedCV(_WithoutScore(), grid, inner_cv=KFold(3), outer_cv=3, n_refits=1,
                      scoring="accuracy")  # fmt: skip
    assert nested.fit(X, y).score(X, y) == accuracy_score(y, nested.predict(X))
    assert nested.score(X, y) == search.fit(X, y).score(X, y)
    np.testing.assert_allclose(
        cross_val_score(nested, X, y, cv=OUTER), cross_val_score(search, X, y, cv=OUTER)
    )
    assert not hasattr(NestedCV(_WithoutScore(), grid), "score")  # scoring=None: its own
