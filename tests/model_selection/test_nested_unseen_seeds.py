"""Randomness that a seeded NestedCV used to leave unseeded, or unwarned: the estimators that a
search run whole puts in place from its own space, and a shuffling splitter among the
estimator's parameters."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier, StackingClassifier, VotingClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV, KFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.exceptions import ReproducibilityWarning


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=120, n_features=8, flip_y=0.2, random_state=0)


def _pipe():
    return Pipeline([("sc", StandardScaler()), ("clf", KNeighborsClassifier())])


def _grid():
    return {"clf": [RandomForestClassifier(n_estimators=3)], "clf__max_depth": [2, 3]}


def _first_of_best(cv_results):  # a callable refit: the search runs whole
    return int(np.argmax(cv_results["mean_test_score"]))


def test_whole_search_seeds_its_grid_estimators_as_taken_apart(data):
    # The same search once taken apart (GridSearchCV) and once run whole (a callable refit
    # choosing the same winner): the same seeds on the same fits give the same numbers.
    X, y = data
    grid = _grid()
    apart = NestedCV(
        GridSearchCV(_pipe(), grid, cv=KFold(2)), outer_cv=KFold(3), n_refits=3, random_state=0
    ).fit(X, y)
    whole = NestedCV(
        GridSearchCV(_pipe(), grid, cv=KFold(2), refit=_first_of_best),
        outer_cv=KFold(3),
        n_refits=3,
        random_state=0,
    ).fit(X, y)
    np.testing.assert_array_equal(whole.outer_scores_, apart.outer_scores_)
    assert len(whole.refit_seeds_) == 3
    assert whole.refit_seeds_ == apart.refit_seeds_
    for params in whole.best_params_per_fold_:
        # the value given, not the seeded copy: each refit seeds it with its own seed
        assert params["clf"].random_state is None
    assert grid["clf"][0].random_state is None  # the user's object is left as it was


def test_whole_halving_search_is_reproducible(data):
    X, y = data
    search = HalvingGridSearchCV(_pipe(), _grid(), cv=KFold(2), factor=2, min_resources=30)
    runs = [
        NestedCV(search, outer_cv=KFold(3), n_refits=3, random_state=0).fit(X, y) for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0].outer_scores_, runs[1].outer_scores_)
    assert len(runs[0].refit_seeds_) == 3
    assert (
        runs[0].best_estimator_["clf"].random_state == runs[1].best_estimator_["clf"].random_state
    )
    assert runs[0].best_estimator_["clf"].random_state is not None


def _stacking(cv):
    return StackingClassifier(
        [("a", DecisionTreeClassifier(max_depth=2, random_state=0)), ("b", LogisticRegression())],
        cv=cv,
    )


def _calibrated(cv):
    return CalibratedClassifierCV(DecisionTreeClassifier(max_depth=3, random_state=0), cv=cv)


@pytest.mark.parametrize(
    "make, grid",
    [(_stacking, {"b__C": [1.0]}), (_calibrated, {"method": ["sigmoid"]})],
)
def test_shuffling_splitter_among_estimator_params_warns(data, make, grid):
    X, y = data
    nested = NestedCV(make(KFold(3, shuffle=True)), grid, outer_cv=2, inner_cv=2, random_state=0)
    with pytest.warns(ReproducibilityWarning, match=r"'estimator\.cv' of NestedCV shuffles"):
        nested.fit(X, y)


def test_shuffling_splitter_of_wrapped_search_estimator_warns(data):
    X, y = data
    search = GridSearchCV(_stacking(KFold(3, shuffle=True)), {"b__C": [1.0]}, cv=2)
    with pytest.warns(ReproducibilityWarning, match=r"'estimator\.estimator\.cv'"):
        NestedCV(search, outer_cv=2, random_state=0).fit(X, y)


@pytest.mark.parametrize(
    "cv, random_state",
    [
        (KFold(3, shuffle=True, random_state=1), 0),
        (KFold(3), 0),
        (3, 0),
        (KFold(3, shuffle=True), None),
    ],
)
def test_seeded_or_unshuffled_estimator_splitter_does_not_warn(data, cv, random_state):
    # nothing to warn about: a seeded or unshuffled splitter, or a run without random_state
    X, y = data
    nested = NestedCV(
        _stacking(cv), {"b__C": [1.0]}, outer_cv=2, inner_cv=2, random_state=random_state
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        nested.fit(X, y)


class _SeedParameter(ClassifierMixin, BaseEstimator):
    """A user's classifier whose randomness is its ``seed`` parameter (no random_state)."""

    def __init__(self, seed=None, max_depth=2):
        self.seed, self.max_depth = seed, max_depth

    def fit(self, X, y):
        rng = np.random.RandomState(self.seed)
        self.model_ = DecisionTreeClassifier(max_depth=self.max_depth, max_features=1,
                                             random_state=rng.randint(2**31)).fit(X, y)  # fmt: skip
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def _outer_scores(estimator, data, random_state=0):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(estimator, {"max_depth": [2, 3]}, outer_cv=3, inner_cv=2, n_refits=2,
                          random_state=random_state, refit=False).fit(*data)  # fmt: skip
    return nested.outer_scores_, [w for w in caught if w.category is ReproducibilityWarning]


def test_a_seed_parameter_no_random_state_controls_is_warned_about(data):
    first, caught = _outer_scores(_SeedParameter(), data)
    # the warning is true: the same random_state gives other scores on another run
    runs = [first, *(_outer_scores(_SeedParameter(), data)[0] for _ in range(4))]
    assert any(not np.array_equal(runs[0], other) for other in runs[1:])
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "_SeedParameter (its parameter 'seed')" in message
    assert "change on every run although NestedCV has a random_state" in message
    # seeded by the user, it gives the same scores every run, without a word
    seeded, quiet = _outer_scores(_SeedParameter(seed=3), data)
    np.testing.assert_array_equal(seeded, _outer_scores(_SeedParameter(seed=3), data)[0])
    assert quiet == []


def test_a_skorch_net_without_random_state_is_warned_about(data):
    torch = pytest.importorskip("torch")
    skorch = pytest.importorskip("skorch")
    X, y = data

    class Module(torch.nn.Module):
        def __init__(self, hidden=4):
            super().__init__()
            self.layers = torch.nn.Sequential(torch.nn.Linear(8, hidden), torch.nn.ReLU(),
                                              torch.nn.Linear(hidden, 2))  # fmt: skip

        def forward(self, X):
            return self.layers(X)

    net = skorch.NeuralNetClassifier(Module, max_epochs=2, criterion=torch.nn.CrossEntropyLoss,
                                     train_split=None, verbose=0)  # fmt: skip
    with pytest.warns(ReproducibilityWarning, match="NeuralNetClassifier in the estimator"):
        NestedCV(net, {"module__hidden": [3, 5]}, outer_cv=2, inner_cv=2, n_refits=2,
                 random_state=0, refit=False).fit(X.astype(np.float32), y)  # fmt: skip


def test_a_grid_value_that_cannot_be_pickled_is_probed(data):
    # a lambda in the grid: the seed probe compared the folds' selections by their pickled
    # hash, and raised PicklingError; the outer scores are scikit-learn's
    X, y = data
    value = Pipeline([("f", FunctionTransformer(lambda x: x)), ("lr", LogisticRegression())])
    grid = {"clf": [value], "clf__lr__C": [0.1, 1.0]}
    base = Pipeline([("clf", KNeighborsClassifier())])
    nested = NestedCV(base, grid, outer_cv=KFold(3), inner_cv=KFold(3), n_refits=3,
                      random_state=0, refit=False).fit(X, y)  # fmt: skip
    search = GridSearchCV(Pipeline([("clf", KNeighborsClassifier())]), grid, cv=KFold(3))
    np.testing.assert_allclose(nested.outer_scores_, cross_val_score(search, X, y, cv=KFold(3)))


def test_only_the_estimators_of_a_search_space_are_enumerated():
    from sklearn_fair.model_selection._nested._candidates import _points

    # 10**5 numeric points bring no random_state of their own: one point, not 10**5 clones
    numbers = {name: list(range(10)) for name in ("a", "b", "c", "d", "e")}
    assert _points(numbers) == [{}]
    forests = [RandomForestClassifier(3), RandomForestClassifier(5)]
    points = _points([{**numbers, "clf": forests}, {"clf": [DecisionTreeClassifier()]}])
    assert [p["clf"] for p in points] == [*forests, points[2]["clf"]]
    assert len(points) == 3 and isinstance(points[2]["clf"], DecisionTreeClassifier)


@pytest.mark.parametrize("random_state", [None, 0])
def test_a_benchmark_says_it_has_a_random_state_only_when_given_one(data, random_state):
    # its cells get an int root seed either way: an unseeded benchmark warned that it "has a
    # random_state" of a shuffling splitter, as NestedCV(random_state=None) does not
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = (LogisticRegression(), {"C": [0.1, 1.0]})
        benchmark({"m": model}, {"d": data}, outer_cv=2, inner_cv=KFold(2, shuffle=True),
                  n_refits=1, random_state=random_state)  # fmt: skip
    claims = [w for w in caught if "has a random_state" in str(w.message)]
    assert [w.category for w in claims] == (
        [] if random_state is None else [ReproducibilityWarning]
    )


def test_a_search_run_whole_seeds_estimators_held_in_lists_of_its_space(data):
    # a VotingClassifier's estimators: a list of (name, estimator) in the grid (review_Y)
    X, y = data
    space = {"estimators": [[("rf", RandomForestClassifier(n_estimators=5))]]}
    search = GridSearchCV(VotingClassifier([("knn", KNeighborsClassifier())]), space, cv=2,
                          refit=_first_of_best)  # fmt: skip
    runs = [NestedCV(search, outer_cv=KFold(3), random_state=0, n_refits=3).fit(X, y)
            for _ in range(2)]  # fmt: skip
    assert len(runs[0].refit_seeds_) == 3 and None not in runs[0].refit_seeds_
    np.testing.assert_array_equal(runs[0].outer_scores_, runs[1].outer_scores_)
    assert space["estimators"][0][0][1].random_state is None  # the user's object as it was


def test_a_nested_cv_with_its_own_seed_in_an_unseeded_benchmark_keeps_its_warnings(data):
    # it keeps its random_state in the benchmark: its unseeded splitter is still worth a word
    nested = NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, inner_cv=KFold(2, shuffle=True),
                      random_state=42, n_refits=1)  # fmt: skip
    with pytest.warns(ReproducibilityWarning, match="'inner_cv' .* shuffles without a seed"):
        benchmark({"m": nested}, {"d": data}, outer_cv=3, random_state=None)
