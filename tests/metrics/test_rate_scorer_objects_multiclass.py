"""A scorer of sensitivity, specificity, PPV or NPV with pos_label=1 (``get_scorer("ppv")``,
``make_ppv_scorer()``) is refused on a multiclass y as its name is. Before, the name was
refused but the scorer gave class 1's rate on iris ([1. 1. 0.8 0.9 1.]), printed as plain
"sensitivity" (NestedCV's summary "mean 0.9400", benchmark's table "0.940")."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer, precision_score, recall_score
from sklearn.model_selection import StratifiedKFold, cross_validate

from sklearn_fair import NestedCV, benchmark, nested_cross_validate
from sklearn_fair.metrics import (
    get_scorer,
    make_npv_scorer,
    make_ppv_scorer,
    make_sensitivity_scorer,
    make_specificity_scorer,
)
from sklearn_fair.stats import paired_subsampling_scores

X, Y = load_iris(return_X_y=True)
GRID = {"C": [0.1, 1.0]}
FACTORIES = {
    "sensitivity": make_sensitivity_scorer,
    "specificity": make_specificity_scorer,
    "ppv": make_ppv_scorer,
    "npv": make_npv_scorer,
}


def _estimator():
    return LogisticRegression(max_iter=500)


def _nested_cross_validate(scoring, y=Y):
    nested_cross_validate(
        _estimator(),
        X,
        y,
        param_grid=GRID,
        cv=3,
        inner_cv=2,
        n_refits=1,
        scoring=scoring,
        n_jobs=1,
    )


def _nested_cv_fit(scoring, y=Y):
    nested = NestedCV(_estimator(), GRID, outer_cv=3, inner_cv=2, n_refits=1, scoring=scoring)
    nested.set_params(n_jobs=1).fit(X, y)


def _benchmark(scoring, y=Y):
    models, datasets = {"lr": _estimator()}, {"iris": (X, y)}
    benchmark(models, datasets, outer_cv=3, inner_cv=2, n_refits=1, scoring=scoring, n_jobs=1)


def _paired_subsampling(scoring, y=Y):
    paired_subsampling_scores(
        _estimator(), X, y, scoring=scoring, n_splits=2, n_pairs=1, random_state=0
    )


ENTRIES = [_nested_cross_validate, _nested_cv_fit, _benchmark, _paired_subsampling]


def _message(run, scoring, y=Y):
    with pytest.raises(ValueError) as error:
        run(scoring, y)
    return str(error.value)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.__name__.lstrip("_"))
@pytest.mark.parametrize("name", list(FACTORIES))
@pytest.mark.parametrize("made_by", ["get_scorer", "make_scorer_default"])
def test_a_scorer_of_class_1_is_refused_as_its_name(entry, name, made_by):
    scorer = get_scorer(name) if made_by == "get_scorer" else FACTORIES[name]()
    by_name = _message(entry, name)
    assert f"names {name!r}, which scores class 1 against the rest (pos_label=1)" in by_name
    assert _message(entry, scorer) == by_name.replace(f"names {name!r}", f"gives a {name!r} scorer")


def test_a_scorer_of_class_1_in_a_dict_is_refused():
    # at a prevalence too: the PPV of class 1 alone, which the key would not say
    scoring = {"accuracy": "accuracy", "ppv at 5%": make_ppv_scorer(prevalence=0.05)}
    nested = NestedCV(_estimator(), GRID, outer_cv=3, inner_cv=2, scoring=scoring, refit="accuracy")
    with pytest.raises(ValueError, match=r"NestedCV gives a 'ppv' scorer, which scores class 1 "):
        nested.fit(X, Y)


def test_a_scorer_of_class_1_on_labels_without_it_is_refused():
    labels = np.where(Y == 0, "setosa", "other")
    by_name = _message(_nested_cv_fit, "npv", labels)
    by_scorer = _message(_nested_cv_fit, get_scorer("npv"), labels)
    assert "class 1 is not one of them" in by_scorer
    assert by_scorer == by_name.replace("names 'npv'", "gives a 'npv' scorer")


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (
            make_sensitivity_scorer(pos_label=2),
            make_scorer(recall_score, labels=[2], average="macro"),
        ),
        (make_ppv_scorer(pos_label=2), make_scorer(precision_score, labels=[2], average="macro")),
    ],
    ids=["sensitivity", "ppv"],
)
def test_a_scorer_of_another_class_is_scikit_learns_rate_of_it(ours, theirs):
    # pos_label=2 scores the class 2 against the rest on purpose, as before
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    result = nested_cross_validate(_estimator(), X, Y, cv=cv, n_refits=1, scoring=ours, n_jobs=1)
    reference = cross_validate(_estimator(), X, Y, cv=cv, scoring=theirs, error_score="raise")
    np.testing.assert_allclose(result["test_score"], reference["test_score"])
    assert np.ptp(reference["test_score"]) > 0  # not a constant that any scorer would give


def test_a_scorer_of_class_1_on_a_binary_y_is_taken():
    binary = (Y == 1).astype(int)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    result = nested_cross_validate(
        _estimator(), X, binary, cv=cv, n_refits=1, scoring=get_scorer("sensitivity"), n_jobs=1
    )
    reference = cross_validate(_estimator(), X, binary, cv=cv, scoring="recall")
    np.testing.assert_allclose(result["test_score"], reference["test_score"])


def test_an_explicit_class_1_scorer_is_told_how_to_score_class_1_on_purpose():
    # make_sensitivity_scorer(pos_label=1) cannot be told from the default; the message
    # offered only make_sensitivity_scorer(pos_label=...), refused again for 1 (review38b)
    message = _message(_nested_cv_fit, make_sensitivity_scorer(pos_label=1))
    assert "give the labels as that: y == 1" in message
    # and that way works: class 1 against the rest, scikit-learn's recall of it
    binary = (Y == 1).astype(int)
    scores = nested_cross_validate(
        _estimator(), X, binary, param_grid=GRID, cv=StratifiedKFold(3), inner_cv=2,
        n_refits=1, scoring=make_sensitivity_scorer(pos_label=1), n_jobs=1,
    )["test_score"]  # fmt: skip
    assert np.all((scores >= 0) & (scores <= 1))
