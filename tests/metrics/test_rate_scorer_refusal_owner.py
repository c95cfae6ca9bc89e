"""The refusal of a scorer of class 1 against the rest on a multiclass y names the function
the user called, and reaches the searches inside the estimator.

Before, ``audit(..., scoring="sensitivity")`` and ``permutation_check`` on iris were refused
as "The 'scoring' parameter of nested_cross_validate names 'sensitivity', ...", a function
the user did not call; and a GridSearchCV selecting by ``get_scorer("sensitivity")`` as a step
of a pipeline ran on iris (outer scores [0.98 0.96 0.96]), its C chosen by class 1's
sensitivity, while the same search given as the estimator was refused."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.feature_selection import SequentialFeatureSelector
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV
from sklearn.metrics import recall_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV, audit
from sklearn_fair.leakage import permutation_check
from sklearn_fair.metrics import get_scorer, make_sensitivity_scorer

X, Y = load_iris(return_X_y=True)
CLASS_1 = "which scores class 1 against the rest (pos_label=1), but y holds 3 classes"


def _lr():
    return LogisticRegression(max_iter=500)


def _search(scoring):
    return GridSearchCV(_lr(), {"C": [0.1, 1.0]}, scoring=scoring, cv=2)


@pytest.mark.parametrize("check", [audit, permutation_check], ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "scoring", ["sensitivity", get_scorer("sensitivity")], ids=["name", "scorer"]
)
def test_the_leakage_checks_name_themselves(check, scoring):
    with pytest.raises(ValueError) as error:
        check(_lr(), X, Y, scoring=scoring, n_permutations=2, random_state=0)
    message = str(error.value)
    given = "names 'sensitivity'" if isinstance(scoring, str) else "gives a 'sensitivity' scorer"
    assert message.startswith(f"The 'scoring' parameter of {check.__name__} {given}, {CLASS_1}")
    assert "nested_cross_validate" not in message


def test_audit_checks_the_labels_that_prepare_returns():
    # y == 1 through prepare is the advice of the refusal: class 1's rate, on purpose
    def class_1_against_the_rest(X, y):
        return X, (np.asarray(y) == 1).astype(int)

    result = audit(
        KNeighborsClassifier(), X, Y, cv=3, scoring="sensitivity", prepare=class_1_against_the_rest,
        n_permutations=2, checks=("permutation",), random_state=0,
    )  # fmt: skip
    # an int cv is an unshuffled StratifiedKFold, and the model has no randomness
    reference = cross_val_score(
        KNeighborsClassifier(), X, Y == 1, cv=StratifiedKFold(3), scoring="recall"
    )
    assert result.permutation.estimate == pytest.approx(reference.mean(), abs=1e-12)


def _refusal(estimator, grid=None):
    nested = NestedCV(estimator, grid, scoring="accuracy", outer_cv=3, inner_cv=2, n_jobs=1)
    with pytest.raises(ValueError) as error:
        nested.fit(X, Y)
    return str(error.value)


def test_a_search_that_is_a_pipeline_step_is_refused():
    pipe = make_pipeline(StandardScaler(), _search(get_scorer("sensitivity")))
    message = _refusal(pipe, {"standardscaler__with_mean": [True]})
    assert message.startswith(
        "The 'scoring' parameter of the GridSearchCV 'gridsearchcv' in the estimator gives a "
        f"'sensitivity' scorer, {CLASS_1}"
    )


def test_a_search_inside_the_search_given_is_refused_by_its_path():
    inner = make_pipeline(StandardScaler(), _search(make_sensitivity_scorer()))
    outer = GridSearchCV(inner, {"standardscaler__with_mean": [True, False]}, cv=2)
    message = _refusal(outer)
    assert message.startswith(
        "The 'scoring' parameter of the GridSearchCV 'estimator__gridsearchcv' in the "
        f"estimator gives a 'sensitivity' scorer, {CLASS_1}"
    )


SELECTOR = SequentialFeatureSelector(_lr(), n_features_to_select=2, scoring=get_scorer("ppv"), cv=2)


@pytest.mark.parametrize(
    "estimator, where",
    [
        (
            make_pipeline(SELECTOR, _lr()),
            "the SequentialFeatureSelector 'sequentialfeatureselector' in the estimator gives a "
            "'ppv' scorer",
        ),
        (
            LogisticRegressionCV(Cs=2, cv=2, scoring=make_sensitivity_scorer()),
            "the LogisticRegressionCV given as estimator gives a 'sensitivity' scorer",
        ),
    ],
    ids=["feature-selector-step", "cv-estimator"],
)
def test_other_parts_that_select_by_a_scoring_are_refused(estimator, where):
    assert _refusal(estimator).startswith(f"The 'scoring' parameter of {where}, {CLASS_1}")


def test_a_search_that_a_candidate_puts_in_place_is_refused():
    grid = {"logisticregression": [_lr(), _search(get_scorer("specificity"))]}
    message = _refusal(make_pipeline(StandardScaler(), _lr()), grid)
    assert message.startswith(
        "The 'scoring' parameter of the GridSearchCV 'logisticregression' of a candidate "
        f"gives a 'specificity' scorer, {CLASS_1}"
    )


def test_a_search_under_one_vs_rest_is_not_refused():
    # OneVsRestClassifier fits the search on binary labels, class k against the rest: the
    # sensitivity it selects by is class k's, as meant
    knn = KNeighborsClassifier()
    search = GridSearchCV(knn, {"n_neighbors": [1, 15]}, scoring=get_scorer("sensitivity"), cv=2)
    ovr = OneVsRestClassifier(search)
    outer = StratifiedKFold(3)
    nested = NestedCV(ovr, scoring="accuracy", outer_cv=outer, n_refits=1, n_jobs=1).fit(X, Y)
    reference = cross_val_score(ovr, X, Y, cv=outer, scoring="accuracy")
    np.testing.assert_allclose(nested.outer_scores_, reference, rtol=0, atol=1e-12)
    # and the selection is by each class's own sensitivity: class 1's binary recall
    fitted = ovr.fit(X, Y).estimators_[1]
    assert fitted.scorer_(fitted, X, Y == 1) == pytest.approx(
        recall_score(Y == 1, fitted.predict(X))
    )
