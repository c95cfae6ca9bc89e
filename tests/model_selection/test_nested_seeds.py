"""Seeds go where they change something, and only on parameters that exist (issues 11.4, 11.7,
12.2, 12.3)."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import make_classification
from sklearn.decomposition import PCA
from sklearn.ensemble import RandomForestClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV, KFold, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, nested_cross_validate

X, y = make_classification(n_samples=90, n_features=6, n_informative=4, random_state=0)
OUTER = StratifiedKFold(3, shuffle=True, random_state=0)
INNER = StratifiedKFold(3, shuffle=True, random_state=1)


def pipeline():
    return Pipeline(
        [("scale", StandardScaler()), ("reduce", PCA(3, random_state=None)), ("clf", SVC())]
    )


GRIDS = {
    "estimator-or-passthrough": {"reduce": [PCA(2), "passthrough"], "clf__C": [0.1, 10.0]},
    "estimator-or-None": {"reduce": [PCA(2), None], "clf__C": [0.1, 10.0]},
    "swap-scalers": {"scale": [StandardScaler(), MinMaxScaler()], "clf__C": [0.1, 10.0]},
    "nested-pipeline": {
        "reduce": [
            Pipeline([("pca", PCA(2)), ("scale", StandardScaler())]),
            "passthrough",
        ],
        "clf__C": [1.0],
    },
    "swap-final-step": {
        # the tree breaks ties at random: seeded here, as NestedCV seeds an unset one and
        # GridSearchCV would not
        "clf": [SVC(), DecisionTreeClassifier(max_depth=2, random_state=0), LogisticRegression()],
    },
}


@pytest.mark.parametrize("grid", GRIDS.values(), ids=GRIDS.keys())
def test_swapped_pipeline_steps_give_grid_search_results(grid):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no FitFailedWarning: no candidate is dropped
        nested = NestedCV(
            pipeline(),
            grid,
            outer_cv=OUTER,
            inner_cv=INNER,
            n_refits=1,
            refit=False,
            random_state=0,
        ).fit(X, y)
    assert nested.failed_tasks_ == []
    for fold, (train, _) in enumerate(OUTER.split(X, y)):
        # PCA's random_state, left at None, is seeded in NestedCV's selection fits; its
        # default full SVD does not use it, so the unseeded reference gives the same scores
        search = GridSearchCV(pipeline(), grid, cv=INNER).fit(X[train], y[train])
        expected = search.cv_results_["mean_test_score"]
        got = nested.cv_results_["mean_test_score"][nested.cv_results_["outer_fold"] == fold]
        np.testing.assert_allclose(got, expected)
        assert nested.best_params_per_fold_[fold].keys() == search.best_params_.keys()


def test_seeds_go_only_to_parameters_of_the_object_in_place():
    # the step in place is a tree (random_state) for one candidate, "passthrough" for the other
    pipe = Pipeline([("select", DecisionTreeClassifier()), ("clf", LogisticRegression())])
    pipe.set_params(select="passthrough")
    grid = {"clf": [LogisticRegression(), RandomForestClassifier(n_estimators=3)]}
    nested = NestedCV(
        pipe, grid, outer_cv=OUTER, inner_cv=INNER, n_refits=2, refit=False, random_state=0
    ).fit(X, y)
    assert nested.failed_tasks_ == []
    assert len(nested.refit_seeds_) == 2  # the forest takes a seed


def test_a_random_state_that_changes_nothing_is_refitted_twice_per_fold():
    svc = NestedCV(
        SVC(), {"C": [0.1, 1.0, 10.0]}, outer_cv=OUTER, inner_cv=INNER, n_refits=3, random_state=0
    ).fit(X, y)
    # each fold's own two refits show that the seed changes nothing there (whether it does
    # depends on the fold's rows too, not only on the C it selected): no third
    assert [len(fold["refit_seeds"]) for fold in svc.outer_results_] == [2] * OUTER.n_splits
    assert all(len(set(fold["test_scores"])) == 1 for fold in svc.outer_results_)
    assert "identical predictions" in svc.outer_results_[1]["refits"]
    # the final model gets the selection seed either way (which changes nothing for SVC)
    assert isinstance(svc.best_estimator_.random_state, int)
    ridge = NestedCV(
        Ridge(), {"alpha": [0.1, 1.0]}, outer_cv=KFold(3), inner_cv=3, n_refits=3, random_state=0
    ).fit(X, y.astype(float))
    assert [len(f["refit_seeds"]) for f in ridge.outer_results_] == [2, 2, 2]


def test_a_random_state_that_matters_gets_every_refit_and_a_seeded_final_model():
    forest = RandomForestClassifier(n_estimators=4)
    nested = NestedCV(
        forest, {"max_depth": [2, 4]}, outer_cv=OUTER, inner_cv=INNER, n_refits=3, random_state=0
    ).fit(X, y)
    assert [len(f["refit_seeds"]) for f in nested.outer_results_] == [3, 3, 3]
    assert "3 seeds" in nested.outer_results_[0]["refits"]
    assert isinstance(nested.best_estimator_.random_state, int)


def test_whole_search_path_is_seeded():
    def run(random_state):
        search = HalvingGridSearchCV(
            DecisionTreeClassifier(max_features=0.5), {"max_depth": [2, 3, 4, 5]}, cv=3, factor=2
        )
        return NestedCV(
            search, outer_cv=OUTER, n_refits=1, refit=False, random_state=random_state
        ).fit(X, y)

    first, second = run(0), run(0)
    np.testing.assert_array_equal(first.validation_scores_, second.validation_scores_)
    np.testing.assert_array_equal(first.outer_scores_, second.outer_scores_)
    different = [run(seed).validation_scores_ for seed in (1, 2, 3)]
    assert any(not np.array_equal(first.validation_scores_, d) for d in different)


@pytest.mark.parametrize(
    "random_state",
    [7, np.random.RandomState(7), np.random.default_rng(7)],
    ids=["int", "RandomState", "Generator"],
)
def test_every_kind_of_random_state_is_accepted_and_reproducible(random_state):
    import copy

    def run(state):
        return nested_cross_validate(
            RandomForestClassifier(n_estimators=3),
            X,
            y,
            param_grid={"max_depth": [2, 3]},
            cv=3,
            n_refits=2,
            random_state=state,
            return_nested_info=True,
        )

    first, second = run(copy.deepcopy(random_state)), run(copy.deepcopy(random_state))
    np.testing.assert_array_equal(first["test_score"], second["test_score"])
    assert first["refit_seeds"] == second["refit_seeds"]


def test_the_seed_bound_is_defined_once():
    # issue 22.3: one bound, utils._random.SEED_BOUND; every other draw goes through _seeds.py
    import re
    from pathlib import Path

    import sklearn_fair

    root = Path(sklearn_fair.__file__).parent
    pattern = re.compile(r"iinfo\(np\.int32\)\.max|2\s*\*\*\s*31")
    defined = sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*.py") if pattern.search(p.read_text())
    )
    assert defined == ["utils/_random.py"]


def test_the_policys_draws_keep_the_users_seeds():
    from sklearn_fair.model_selection._nested._seeds import Seeds, interval_seeds
    from sklearn_fair.utils._random import SEED_BOUND, draw_seeds

    pipe = Pipeline([("reduce", PCA(2, random_state=3)), ("clf", DecisionTreeClassifier())])
    assert interval_seeds(pipe, np.random.RandomState(0), 2).params.keys() == {"clf__random_state"}
    seeds = Seeds.from_random_state(0)
    assert seeds.selection_values(pipe).keys() == {"clf__random_state"}
    assert seeds.refit_values(pipe, 11) == {"clf__random_state": 11}
    values = draw_seeds(np.random.default_rng(0), 1000) + draw_seeds(np.random.RandomState(0), 1000)
    assert all(0 <= v < SEED_BOUND for v in values)


def test_a_generator_seeds_as_its_first_draw_in_every_procedure():
    # One rule turns a random_state into the root of a run's seeds: a Generator gives its first
    # draw below the int32 bound. NestedCV and benchmark() took two draws (a RandomState seeded
    # from the Generator, then that RandomState's draw), unlike GraphClassifier, the permutation
    # check and the statistics, so the same Generator seeded them differently.
    from sklearn_fair.benchmarking import benchmark

    first_draw = int(np.random.default_rng(7).integers(np.iinfo(np.int32).max))
    forest = RandomForestClassifier(n_estimators=3)

    def fold_scores(random_state):
        return nested_cross_validate(
            forest, X, y, param_grid={"max_depth": [2, 3]}, cv=OUTER, n_refits=2,
            random_state=random_state, return_nested_info=True,
        )  # fmt: skip

    from_generator = fold_scores(np.random.default_rng(7))
    from_int = fold_scores(first_draw)
    np.testing.assert_array_equal(from_generator["test_score"], from_int["test_score"])
    assert from_generator["refit_seeds"] == from_int["refit_seeds"]

    def benchmark_scores(random_state):
        result = benchmark(
            {"forest": (forest, {"max_depth": [2, 3]})}, {"data": (X, y)}, outer_cv=OUTER,
            n_refits=2, random_state=random_state,
        )  # fmt: skip
        return result.scores["score"].to_numpy()

    np.testing.assert_array_equal(
        benchmark_scores(np.random.default_rng(7)), benchmark_scores(first_draw)
    )


@pytest.mark.parametrize(
    "make_clf", [lambda: KNeighborsClassifier(1), lambda: DecisionTreeClassifier(random_state=0)]
)
def test_an_unseeded_sampler_gets_every_refit_and_a_seeded_final_model(make_clf):
    # imbalanced-learn's sampler left unseeded draws the rows each refit trains on; on
    # well-separated classes two such refits predict the same labels on the first test fold,
    # which must not stand for "the seed changes nothing"
    from imblearn.pipeline import Pipeline as ImbPipeline
    from imblearn.under_sampling import RandomUnderSampler

    X_sep, y_sep = make_classification(
        n_samples=90, n_features=4, n_informative=2, n_redundant=0, weights=[0.7, 0.3],
        class_sep=3, random_state=0,
    )  # fmt: skip
    pipe = ImbPipeline([("under", RandomUnderSampler()), ("clf", make_clf())])
    outer = StratifiedKFold(3, shuffle=True, random_state=0)
    fits = [
        NestedCV(pipe, outer_cv=outer, inner_cv=3, n_refits=3, random_state=0).fit(X_sep, y_sep)
        for _ in range(2)
    ]
    nested = fits[0]
    assert [len(f["refit_seeds"]) for f in nested.outer_results_] == [3, 3, 3]
    for fold, (train, _) in enumerate(outer.split(X_sep, y_sep)):
        # by hand: the refits' seeds draw different rows of the outer training fold
        drawn = []
        for seed in nested.outer_results_[fold]["refit_seeds"]:
            sampler = RandomUnderSampler(random_state=seed)
            sampler.fit_resample(X_sep[train], y_sep[train])
            drawn.append(tuple(sorted(sampler.sample_indices_)))
        assert len(set(drawn)) == 3
    # the final model's sampler is seeded: the same random_state gives the same model
    seed = nested.best_estimator_.named_steps["under"].random_state
    assert isinstance(seed, int)
    assert pipe.named_steps["under"].random_state is None  # the user's pipeline untouched
    hand = RandomUnderSampler(random_state=seed)
    hand.fit_resample(X_sep, y_sep)
    for fit in fits:
        kept = fit.best_estimator_.named_steps["under"].sample_indices_
        np.testing.assert_array_equal(kept, hand.sample_indices_)


def test_the_final_model_is_seeded_when_two_refits_happen_to_agree():
    # each feature separates the classes: trees of one split on either feature predict the
    # same test labels, so the probe finds no difference, but which feature the final tree
    # splits on is drawn from its seed, and so are its predictions of new points
    rng = np.random.RandomState(0)
    labels = np.array([0, 1] * 45)
    X_two = np.column_stack([labels + rng.normal(0, 0.1, 90), labels + rng.normal(0, 0.1, 90)])
    tree = DecisionTreeClassifier(max_depth=1, max_features=1)
    fits = [
        NestedCV(tree, outer_cv=OUTER, inner_cv=3, n_refits=3, random_state=0).fit(X_two, labels)
        for _ in range(2)
    ]
    assert [len(f["refit_seeds"]) for f in fits[0].outer_results_] == [2, 2, 2]
    seed = fits[0].best_estimator_.random_state
    assert isinstance(seed, int)
    assert tree.random_state is None  # the user's estimator untouched
    # by hand: the tree with that seed, fitted on all the data
    hand = DecisionTreeClassifier(max_depth=1, max_features=1, random_state=seed)
    hand.fit(X_two, labels)
    for fit in fits:
        assert fit.best_estimator_.random_state == seed
        assert fit.best_estimator_.tree_.feature[0] == hand.tree_.feature[0]
        assert fit.best_estimator_.tree_.threshold[0] == hand.tree_.threshold[0]


def test_a_fold_whose_seeds_disagree_gets_every_refit():
    # each fold checks its own two seeds. Fold 1 selected splitter="best", as fold 0, whose
    # two seeds agree, yet fold 1's seeds score 0.90, 0.92 and 0.90: it was trained once, on
    # the strength of fold 0's two refits, and scored 0.90. Fold 3 selected splitter="random"
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier

    X2, y2 = make_classification(200, 6, random_state=0, flip_y=0.1)
    outer = KFold(4, shuffle=True, random_state=3)
    nested = NestedCV(
        DecisionTreeClassifier(),
        {"splitter": ["best", "random"], "max_depth": [3, 6]},
        outer_cv=outer,
        inner_cv=KFold(3, shuffle=True, random_state=1),
        n_refits=3,
        random_state=0,
    ).fit(X2, y2)
    folds = nested.outer_results_
    assert [f["best_params"]["splitter"] for f in folds] == ["best", "best", "best", "random"]
    assert [len(f["refit_seeds"]) for f in folds] == [2, 3, 2, 3]
    for fold, (train, test) in zip(folds, outer.split(X2)):
        # scikit-learn's tree with each seed that ran, by hand
        by_hand = [
            DecisionTreeClassifier(random_state=seed, **fold["best_params"])
            .fit(X2[train], y2[train])
            .score(X2[test], y2[test])
            for seed in fold["refit_seeds"]
        ]
        np.testing.assert_allclose(fold["test_scores"], by_hand)
        assert fold["refit_seeds"] == nested.refit_seeds_[: len(by_hand)]
        kept_two = len(by_hand) == 2
        assert len(set(by_hand[:2])) == (1 if kept_two else 2)
        assert ("identical predictions" in fold["refits"]) == kept_two


class _FixedOrRandom(RegressorMixin, BaseEstimator):
    """``mode="fixed"`` ignores its seed and scores 1 only trained on rows 20-39 (outer fold
    0's training rows); ``"random"`` predicts from its seed and scores about 0.5."""

    def __init__(self, mode="fixed", random_state=None):
        self.mode = mode
        self.random_state = random_state

    def fit(self, X, y):
        self.second_half_ = X[:, 0].min() >= 20
        return self

    def predict(self, X):
        if self.mode == "fixed":
            return np.zeros(len(X))
        return np.random.RandomState(self.random_state).rand(len(X))

    def score(self, X, y):
        if self.mode == "fixed":
            return 1.0 if self.second_half_ else 0.0
        return 0.5 + 0.01 * float(self.predict(X).mean())


@pytest.mark.parametrize("n_refits", [2, 3])
def test_the_note_of_a_fold_that_checked_its_own_seeds_says_what_they_showed(n_refits):
    # with n_refits=2, two refits that disagreed were said to show that a seed changes nothing
    rows = np.arange(40, dtype=float)[:, None]
    nested = NestedCV(
        _FixedOrRandom(), {"mode": ["fixed", "random"]}, outer_cv=KFold(2), inner_cv=KFold(2),
        n_refits=n_refits, random_state=0,
    ).fit(rows, rows.ravel())  # fmt: skip
    first, other = nested.outer_results_
    assert (first["best_params"], other["best_params"]) == ({"mode": "fixed"}, {"mode": "random"})
    assert len(set(other["test_scores"])) == n_refits  # its seeds disagree
    assert other["refits"] == f"trained with {n_refits} seeds"
    assert "identical predictions" in first["refits"]


def test_a_randomized_search_seeded_with_a_random_state_instance_samples_alike_every_fit():
    # its RandomState was drawn from as it is: the user's object moved, and a second fit
    # sampled other candidates (cross_validate clones the search, so every fold starts alike)
    from scipy.stats import loguniform
    from sklearn.model_selection import RandomizedSearchCV, cross_validate

    state = np.random.RandomState(0)
    before = state.get_state()[1].copy()
    search = RandomizedSearchCV(
        LogisticRegression(),
        {"C": loguniform(1e-3, 1e2)},
        n_iter=3,
        cv=KFold(2),
        random_state=state,
    )
    nested = NestedCV(search, outer_cv=KFold(3), n_refits=1, refit=False, random_state=0)
    first = [p["C"] for p in nested.fit(X, y).cv_results_["params"]]
    second = [p["C"] for p in nested.fit(X, y).cv_results_["params"]]
    assert first == second
    np.testing.assert_array_equal(state.get_state()[1], before)
    idiom = cross_validate(search, X, y, cv=KFold(3), return_estimator=True)
    assert first[:3] == list(idiom["estimator"][0].cv_results_["param_C"])
