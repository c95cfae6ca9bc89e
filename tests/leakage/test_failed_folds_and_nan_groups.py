"""permutation_check and audit: an outer fold without a score is refused, not averaged away
(the estimate is the mean over every outer fold), and audit refuses NaN groups whichever
checks it runs, as NestedCV refuses them."""

import re
import sys
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV, KFold, cross_validate

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.leakage import audit, permutation_check

X, y = make_classification(120, 4, random_state=0)
GRID = {"C": [0.1, 1.0]}


def _holds_row_0(X_):
    """Whether these are the test rows of the outer fold that holds row 0 (40 of 120)."""
    return len(X_) == 40 and np.array_equal(X_[0], X[0])


def nan_on_fold_0(estimator, X_, y_):
    return np.nan if _holds_row_0(X_) else accuracy_score(y_, estimator.predict(X_))


def nan_on_real_fold_0(estimator, X_, y_):
    """NaN on the test rows of outer fold 0 with their real labels (not permuted)."""
    if _holds_row_0(X_) and np.array_equal(y_, y[:40]):
        return np.nan
    return accuracy_score(y_, estimator.predict(X_))


def raises_on_fold_0(estimator, X_, y_):
    if _holds_row_0(X_):
        raise RuntimeError("the scorer broke on this fold")
    return accuracy_score(y_, estimator.predict(X_))


def _protocol(scoring):
    return dict(outer_cv=KFold(3), inner_cv=3, param_grid=GRID, scoring=scoring)


def test_a_nan_fold_of_the_real_labels_is_refused_not_dropped():
    # the reference: outer fold 0 has no score, so the mean over the outer folds has none
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = nested_cross_validate(
            LogisticRegression(), X, y, cv=KFold(3), inner_cv=3, param_grid=GRID,
            scoring=nan_on_real_fold_0, random_state=0, n_refits=1,
        )["test_score"]  # fmt: skip
    assert np.isnan(reference[0]) and np.isfinite(reference[1:]).all()
    # the estimate was np.nanmean of the two folds that scored, with nothing said
    match = (
        r"'nan_on_real_fold_0' scores with chance: the run on the real labels has no finite "
        r"score .* on outer fold\(s\) \[0\] of 3, as the scorer returned NaN"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=match):
            permutation_check(
                LogisticRegression(), X, y, n_permutations=2, chance=0.5, random_state=0,
                **_protocol(nan_on_real_fold_0),
            )  # fmt: skip


def test_an_error_score_in_place_of_a_fold_is_refused_with_the_error():
    # error_score=0.0 stood in for fold 0's score: the estimate was the mean of 0.0, 0.9, 0.925
    # the real labels' run is refused first, and no permuted run is made after it
    match = (
        r"with chance: the run on the real labels has no finite score .* on outer fold\(s\) "
        r"\[0\] of 3, as the fits or the scorer failed: RuntimeError: the scorer broke on this "
        r"fold"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=match):
            permutation_check(
                LogisticRegression(), X, y, n_permutations=2, chance=0.5, random_state=0,
                error_score=0.0, **_protocol(raises_on_fold_0),
            )  # fmt: skip


def test_a_nan_fold_of_a_permuted_run_is_refused():
    # the permuted runs' estimates were the means of the folds that scored
    # refused at the first permuted run that fails, the others not run for nothing
    match = (
        r"'nan_on_fold_0' scores with chance: permuted-label run 0 \(of 2\) has no finite "
        r"score .* on outer fold\(s\) \[0\] of 3, as the scorer returned NaN"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=match):
            permutation_check(
                LogisticRegression(), X, y, n_permutations=2, chance=0.5, with_estimate=False,
                random_state=0, **_protocol(nan_on_fold_0),
            )  # fmt: skip


def test_audit_refuses_a_nan_fold_of_its_permutation_check():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"real labels has no finite score .* \[0\] of 3"):
            audit(
                LogisticRegression(), X, y, cv=KFold(3), inner_cv=3, param_grid=GRID,
                scoring=nan_on_fold_0, checks=("permutation",), n_permutations=2, chance=0.5,
                random_state=0,
            )  # fmt: skip


def nan_on_shuffles_of_fold_0(estimator, X_, y_):
    """NaN where the check scores the outer model of fold 0 against shuffled test labels (its
    own chance level), the accuracy everywhere else (the nested runs)."""
    caller = sys._getframe(1)  # the check's own scoring, or a comprehension of it (3.11)
    own_chance = "_nested_mean" in (caller.f_code.co_name, caller.f_back.f_code.co_name)
    if own_chance and _holds_row_0(X_):
        return np.nan
    return accuracy_score(y_, estimator.predict(X_))


def test_a_nan_own_chance_of_a_fold_is_refused():
    # the model's own chance level was np.nanmean over the shufflings: fold 0's dropped
    match = (
        r"the scorer returned NaN or an infinite score for the outer models against shufflings "
        r"of their test folds' labels \(permutation 0: \[0\]; permutation 1: \[0\], of 3 outer "
        r"folds\), which estimate the model's own chance level"
    )
    with pytest.raises(ValueError, match=match):
        permutation_check(
            LogisticRegression(), X, y, n_permutations=2, with_estimate=False, random_state=0,
            **_protocol(nan_on_shuffles_of_fold_0),
        )  # fmt: skip


def test_without_a_failed_fold_the_estimate_is_the_mean_over_the_outer_folds():
    report = permutation_check(
        LogisticRegression(), X, y, n_permutations=2, chance=0.5, random_state=0,
        **_protocol("accuracy"),
    )  # fmt: skip
    # the same protocol in scikit-learn: a grid search inside each outer fold
    folds = cross_validate(GridSearchCV(LogisticRegression(), GRID, cv=3), X, y, cv=KFold(3))
    assert report.estimate == pytest.approx(np.mean(folds["test_score"]), abs=1e-12)
    nested = nested_cross_validate(
        LogisticRegression(), X, y, cv=KFold(3), inner_cv=3, param_grid=GRID, random_state=0,
        n_refits=1,
    )  # fmt: skip
    assert report.estimate == pytest.approx(np.mean(nested["test_score"]), abs=1e-12)


def _nan_groups():
    groups = np.repeat(np.arange(12.0), 10)
    groups[::13] = np.nan  # 10 rows without a group
    return groups


@pytest.mark.parametrize("as_objects", [False, True])
def test_audit_refuses_nan_groups_whichever_checks_it_runs(as_objects):
    groups = _nan_groups()
    if as_objects:  # patient identifiers, some missing
        groups = np.array([None if g != g else f"p{g:.0f}" for g in groups], dtype=object)
    # the reference: NestedCV's refusal of the same groups
    with pytest.raises(ValueError) as refused:
        NestedCV(LogisticRegression(), GRID, outer_cv=KFold(3)).fit(X, y, groups=groups)
    message = str(refused.value)
    assert message.startswith("groups contains 10 NaN or missing value(s)")
    # with checks=("duplicates",) audit counted them as a group, groups_on_both_sides (0, 13)
    for checks in [("duplicates",), ("prefit",), ("duplicates", "permutation")]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
                audit(
                    LogisticRegression(), X, y, groups=groups, cv=KFold(3), checks=checks,
                    n_permutations=2, random_state=0,
                )  # fmt: skip


def test_a_failed_run_stops_the_check_there():
    # before: every permuted run was made after the real labels' run had failed (20
    # permutations: 732 scorer calls against 84 for 2) and each was listed in the message
    calls = []

    def counted(estimator, X_, y_):
        calls.append(1)
        return nan_on_real_fold_0(estimator, X_, y_)

    counted.__name__ = "counted"
    made = []
    for n_permutations in (2, 20):
        calls.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(ValueError, match="the run on the real labels") as info:
                permutation_check(
                    LogisticRegression(), X, y, n_permutations=n_permutations, chance=0.5,
                    random_state=0, **_protocol(counted),
                )  # fmt: skip
        made.append(len(calls))
        assert "permutation 1" not in str(info.value)
    assert made[0] == made[1]
