"""How candidates are specified and sampled: duplicate draws, an empty space, a search's own
bad parameters, and an ``n_iter`` that would change nothing."""

import re
import warnings

import numpy as np
import pytest
from scipy.stats import loguniform, randint
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    ParameterSampler,
    RandomizedSearchCV,
    StratifiedKFold,
    cross_val_score,
)
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair import NestedCV, nested_cross_val_score, nested_cross_validate
from sklearn_fair.cli import main
from sklearn_fair.exceptions import SelectionTieWarning

OUTER = StratifiedKFold(3, shuffle=True, random_state=1)
INNER = StratifiedKFold(5, shuffle=True, random_state=2)


@pytest.fixture(scope="module")
def data():
    return make_classification(300, 6, n_informative=4, random_state=0)


def _tie_warnings(record):
    return [str(w.message) for w in record if issubclass(w.category, SelectionTieWarning)]


# -- RAND-1: copies of one sampled candidate are not ties --------------------------------------


def test_duplicate_draws_of_a_separable_space_are_not_called_ties(data):
    X, y = data
    space = {"max_depth": randint(1, 3)}
    # scikit-learn's sampler draws with replacement: 6 draws of 2 values
    drawn = list(ParameterSampler(space, 6, random_state=0))
    assert len(drawn) == 6 and {p["max_depth"] for p in drawn} == {1, 2}
    # depth 2 beats depth 1 on the inner splits of every outer training fold
    for train, _ in OUTER.split(X, y):
        means = [
            cross_val_score(
                DecisionTreeClassifier(max_depth=d, random_state=0), X[train], y[train], cv=INNER
            ).mean()
            for d in (1, 2)
        ]
        assert means[1] > means[0]
    search = RandomizedSearchCV(
        DecisionTreeClassifier(random_state=0), space, n_iter=6, cv=INNER, random_state=0
    )
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        nested = NestedCV(search, outer_cv=OUTER, n_refits=1, random_state=0).fit(X, y)
    assert [p["max_depth"] for p in nested.cv_results_["params"][:6]] == [
        p["max_depth"] for p in drawn
    ]
    assert _tie_warnings(record) == []
    # the budget counts what was tried: 2 candidates, as for the same search run whole
    assert nested._tuning_counts["n_candidates"] == 2

    class WholeSearch(RandomizedSearchCV):  # a subclass: run whole in each fold
        pass

    whole = WholeSearch(
        DecisionTreeClassifier(random_state=0), space, n_iter=6, cv=INNER, random_state=0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_whole = NestedCV(whole, outer_cv=OUTER, n_refits=1, random_state=0, refit=False)
        run_whole.fit(X, y)
    assert run_whole._tuning_counts["n_candidates"] == 2


def test_a_tie_among_distinct_candidates_is_counted_without_the_copies():
    X, y = make_classification(60, 4, n_informative=2, random_state=0)
    # trees this data grows stop far above depth 20: every max_depth of 20..23 is one model
    assert DecisionTreeClassifier(random_state=0).fit(X, y).get_depth() < 20
    space = {"max_depth": randint(20, 24)}
    drawn = [p["max_depth"] for p in ParameterSampler(space, 8, random_state=0)]
    n_distinct = len(set(drawn))
    assert len(drawn) == 8 and 3 <= n_distinct < 8
    search = RandomizedSearchCV(
        DecisionTreeClassifier(random_state=0), space, n_iter=8, cv=3, random_state=0
    )
    with pytest.warns(SelectionTieWarning) as record:
        NestedCV(search, outer_cv=3, n_refits=1, random_state=0).fit(X, y)
    (message,) = _tie_warnings(record)
    assert f"up to {n_distinct} of the {n_distinct} distinct tie" in message


# -- RAND-2: an empty list of distributions --------------------------------------------------


@pytest.mark.parametrize(
    "run, owner",
    [
        (
            lambda X, y: NestedCV(LogisticRegression(), param_distributions=[], outer_cv=3).fit(
                X, y
            ),
            "NestedCV",
        ),
        (
            lambda X, y: NestedCV(RandomizedSearchCV(LogisticRegression(), []), outer_cv=3).fit(
                X, y
            ),
            "the RandomizedSearchCV given to NestedCV",
        ),
        (
            lambda X, y: nested_cross_val_score(LogisticRegression(), X, y, param_distributions=[]),
            "nested_cross_val_score",
        ),
    ],
    ids=["NestedCV", "RandomizedSearchCV", "nested_cross_val_score"],
)
def test_an_empty_param_distributions_is_refused(data, run, owner):
    X, y = data
    assert list(ParameterSampler([], 10, random_state=0)) == []  # no candidate to try
    with pytest.raises(ValueError, match=re.escape(f"'param_distributions' parameter of {owner}")):
        run(X, y)


EMPTY_TOML = """\
[experiment]
random_state = 0
progress = false
output_dir = "out"
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 3
inner_cv = 3
n_refits = 1
[models.rs]
estimator = "sklearn.model_selection.RandomizedSearchCV"
params = { estimator = { estimator = "sklearn.tree.DecisionTreeClassifier" }, n_iter = 5, \
param_distributions = [] }
"""


@pytest.mark.parametrize("flags", [["--dry-run"], ["--dry-run", "--no-timing"], []])
def test_the_runner_refuses_an_empty_param_distributions(tmp_path, capsys, flags):
    path = tmp_path / "e.toml"
    path.write_text(EMPTY_TOML)
    assert main(["run", *flags, str(path)]) != 0
    said = capsys.readouterr()
    assert "'param_distributions' parameter of the RandomizedSearchCV" in said.err + said.out
    assert "is empty (got [])" in said.err + said.out
    assert not (tmp_path / "out").exists()


# -- RAND-3: a search's own bad parameters, in scikit-learn's words ----------------------------


@pytest.mark.parametrize(
    "search",
    [
        RandomizedSearchCV(
            LogisticRegression(),
            {"C": loguniform(1e-3, 1)},
            n_iter=3,
            random_state=np.random.default_rng(0),
        ),
        RandomizedSearchCV(LogisticRegression(), {"C": loguniform(1e-3, 1)}, random_state="a"),
        RandomizedSearchCV(LogisticRegression(), {"C": loguniform(1e-3, 1)}, n_iter=0),
        GridSearchCV(LogisticRegression(), {"C": [-1.0, 1.0]}, error_score="x", cv=3),
    ],
    ids=["random_state=Generator", "random_state='a'", "n_iter=0", "error_score='x'"],
)
def test_a_search_given_is_refused_as_its_own_fit_refuses_it(data, search):
    X, y = data
    with pytest.raises(InvalidParameterError) as expected:
        search.fit(X, y)
    name = type(search).__name__
    said = str(expected.value)
    assert f"parameter of {name} must be" in said  # scikit-learn's, naming the search
    with pytest.raises(InvalidParameterError) as got:
        NestedCV(search, outer_cv=3, n_refits=1, random_state=0).fit(X, y)
    assert str(got.value) == said.replace(f"of {name}", f"of the {name} given to NestedCV")
    # a functional form names the search too, not its own parameter of the same name
    with pytest.raises(InvalidParameterError) as got:
        nested_cross_validate(search, X, y, cv=3, n_refits=1)
    assert str(got.value) == said.replace(
        f"of {name}", f"of the {name} given to nested_cross_validate"
    )


# -- RAND-4: n_iter without param_distributions ----------------------------------------------


@pytest.mark.parametrize(
    "run, said",
    [
        (
            lambda X, y: NestedCV(
                RandomizedSearchCV(LogisticRegression(), {"C": loguniform(1e-3, 1e2)}, cv=3),
                n_iter=3,
                outer_cv=3,
            ).fit(X, y),
            "'n_iter' parameter of NestedCV is 3",
        ),
        (
            lambda X, y: NestedCV(
                LogisticRegression(), {"C": [0.01, 0.1, 1, 10, 100]}, n_iter=2, outer_cv=3
            ).fit(X, y),
            "'n_iter' parameter of NestedCV is 2",
        ),
        (
            lambda X, y: nested_cross_validate(
                RandomizedSearchCV(LogisticRegression(), {"C": loguniform(1e-3, 1e2)}, cv=3),
                X,
                y,
                cv=3,
                n_iter=3,
            ),
            "'n_iter' parameter of nested_cross_validate is 3",
        ),
    ],
    ids=["search", "param_grid", "nested_cross_validate"],
)
def test_an_n_iter_that_changes_nothing_is_refused(data, run, said):
    X, y = data
    with pytest.raises(ValueError, match=re.escape(said)) as error:
        run(X, y)
    assert "applies only with 'param_distributions'" in str(error.value)


def test_n_iter_still_sets_the_number_of_draws(data):
    X, y = data
    nested = NestedCV(
        LogisticRegression(),
        param_distributions={"C": loguniform(1e-3, 1e2)},
        n_iter=3,
        outer_cv=OUTER,
        inner_cv=3,
        n_refits=1,
        random_state=0,
    ).fit(X, y)
    assert np.sum(np.asarray(nested.cv_results_["outer_fold"]) == 0) == 3


@pytest.mark.parametrize("scoring", ["kappa", "sensitivity", "ppv"])
def test_a_search_scoring_with_sklearn_fairs_own_names_is_taken(scoring):
    # the search's own parameters are checked as its fit checks them, but its scoring, which
    # the protocol resolves with sklearn-fair's names too; the scores are scikit-learn's
    # cross_validate of the same search scored by the same scorer
    from sklearn_fair.metrics import get_scorer

    X, y = make_classification(n_samples=120, random_state=0)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, scoring=scoring, cv=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(search, outer_cv=3, random_state=0).fit(X, y)
        scorer = get_scorer(scoring)
        reference = cross_val_score(
            GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, scoring=scorer, cv=2),
            X,
            y,
            cv=3,
            scoring=scorer,
        )
    np.testing.assert_allclose(nested.outer_scores_, reference)


def test_a_search_scoring_of_no_metric_is_still_refused():
    X, y = make_classification(n_samples=60, random_state=0)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, scoring="acuracy", cv=2)
    with pytest.raises(ValueError, match="acuracy"):
        NestedCV(search, outer_cv=3, random_state=0).fit(X, y)


@pytest.mark.parametrize("scoring", [3, 2.5])
def test_a_search_scoring_of_another_type_is_refused_as_its_fit_refuses_it(scoring):
    X, y = make_classification(n_samples=60, random_state=0)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, scoring=scoring, cv=2)
    with pytest.raises(InvalidParameterError, match="'scoring' parameter of GridSearchCV"):
        search.fit(X, y)  # scikit-learn's own refusal
    with pytest.raises(InvalidParameterError, match="'scoring' parameter of the GridSearchCV"):
        NestedCV(search, outer_cv=3, random_state=0).fit(X, y)
