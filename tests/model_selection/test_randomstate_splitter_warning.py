"""A seeded NestedCV warns (ReproducibilityWarning) where its outer splitter shuffles with a
RandomState or Generator as its seed: each split() draws from it and moves it on, so every fit
of the same NestedCV tests on other folds. An inner splitter is split by a copy in each outer
fold, and benchmark's cells by copies of the outer one: they split alike on every fit, and
get no warning."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.exceptions import ReproducibilityWarning
from sklearn_fair.model_selection import QuantileStratifiedKFold

X, Y = load_diabetes(return_X_y=True)
X, Y = X[:150], Y[:150]
GENERATORS = {
    "RandomState": lambda: np.random.RandomState(0),
    "Generator": lambda: np.random.default_rng(0),
}


def _splitter(kind, seed):
    # scikit-learn's splitters take no Generator; the library's do
    if kind == "Generator":
        return QuantileStratifiedKFold(3, shuffle=True, random_state=seed)
    return KFold(3, shuffle=True, random_state=seed)


def _nested(outer_cv, inner_cv=3):
    return NestedCV(
        Ridge(), {"alpha": [0.1, 1.0, 10.0]}, outer_cv=outer_cv, inner_cv=inner_cv,
        n_refits=1, random_state=0,
    )  # fmt: skip


def _fit_twice(nested):
    """The reproducibility warnings of two fits of ``nested``, and each fit's outer test
    indices and validation scores."""
    fits = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            nested.fit(X, Y)
            tests = [np.sort(f["test_indices"]) for f in nested.outer_results_]
            fits.append((tests, nested.cv_results_["mean_test_score"].copy()))
    said = [str(w.message) for w in caught if issubclass(w.category, ReproducibilityWarning)]
    return said, fits


def _same_folds(first, second):
    return all(np.array_equal(a, b) for a, b in zip(first, second))


@pytest.mark.parametrize("kind", GENERATORS)
def test_outer_splitter_seeded_by_a_generator_warns(kind):
    said, (first, second) = _fit_twice(_nested(_splitter(kind, GENERATORS[kind]())))
    assert len(said) == 2  # once a fit
    (message,) = set(said)
    assert "'outer_cv' of NestedCV" in message and f"shuffles with a {kind}" in message
    assert "Give the splitter an int random_state" in message
    # the fact it warns of: the second fit of the same object tests on other folds
    assert not _same_folds(first[0], second[0])


@pytest.mark.parametrize("kind", GENERATORS)
def test_int_seed_no_warning_same_folds(kind):
    said, (first, second) = _fit_twice(_nested(_splitter(kind, 0)))
    assert said == []
    assert _same_folds(first[0], second[0])


@pytest.mark.parametrize("kind", GENERATORS)
def test_inner_splitter_seeded_by_a_generator_is_copied_not_warned(kind):
    seed = GENERATORS[kind]()
    before = repr(seed.bit_generator.state if kind == "Generator" else seed.get_state())
    said, (first, second) = _fit_twice(_nested(KFold(3), _splitter(kind, seed)))
    assert said == []
    # each fit splits the inner folds from the same state: the user's generator never moves
    after = repr(seed.bit_generator.state if kind == "Generator" else seed.get_state())
    assert after == before
    np.testing.assert_array_equal(first[1], second[1])


def test_benchmark_splits_copies_of_its_outer_splitter():
    seed = np.random.RandomState(0)
    cv = KFold(3, shuffle=True, random_state=seed)
    models = {"ridge": (Ridge(), {"alpha": [0.1, 1.0]}), "strong": (Ridge(10.0), None)}
    runs = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            result = benchmark(
                models, {"d": (X, Y)}, outer_cv=cv, inner_cv=3, n_refits=1, random_state=0
            )
            runs.append([result.cells["d", m].test_indices for m in models])
    assert not [w for w in caught if issubclass(w.category, ReproducibilityWarning)]
    # every cell of both calls on the folds of one split of a fresh RandomState(0)
    expected = [t for _, t in KFold(3, shuffle=True, random_state=0).split(X)]
    for run in runs:
        for tests in run:
            assert _same_folds([np.sort(t) for t in tests], expected)


def test_the_functional_forms_warn_of_a_generator_seeded_splitter_too():
    # each call splits with the splitter as given: its RandomState moves on, and the outer
    # test folds of two calls differ (the fact the warning is about, from return_indices)
    from sklearn_fair import nested_cross_validate

    X, y = load_diabetes(return_X_y=True)
    X, y = X[:80], y[:80]
    cv = KFold(5, shuffle=True, random_state=np.random.RandomState(0))
    tests = []
    for _ in range(2):
        with pytest.warns(ReproducibilityWarning, match="every call of nested_cross_validate"):
            result = nested_cross_validate(
                Ridge(), X, y, param_grid={"alpha": [0.1, 1.0]}, cv=cv, inner_cv=2,
                random_state=0, return_indices=True,
            )  # fmt: skip
        tests.append(result["indices"]["test"][0])
    assert not np.array_equal(tests[0], tests[1])


@pytest.mark.parametrize("name", ["cv", "outer_cv"])
def test_the_functional_forms_warning_names_the_parameter_as_given(name):
    from sklearn_fair import nested_cross_validate

    X, y = load_diabetes(return_X_y=True)
    cv = KFold(3, shuffle=True, random_state=np.random.RandomState(0))
    # before: "The 'cv' of nested_cross_validate" for a splitter given as outer_cv
    with pytest.warns(ReproducibilityWarning, match=f"^The '{name}' of nested_cross_validate"):
        nested_cross_validate(Ridge(), X[:60], y[:60], param_grid={"alpha": [0.1, 1.0]},
                              inner_cv=2, random_state=0, **{name: cv})  # fmt: skip
