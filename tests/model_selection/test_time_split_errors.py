"""The errors of a time-ordered run that cannot select give advice that can help: groups that
interleave in time, and a regressor validated on one row at a time."""

import re
import warnings

import numpy as np
import pytest
from sklearn.linear_model import Ridge
from sklearn.model_selection import LeaveOneOut, TimeSeriesSplit, cross_validate

from sklearn_fair.model_selection import nested_cross_validate

GRID = {"alpha": [0.1, 1.0]}


def _series(n):
    t = np.arange(n)
    rng = np.random.RandomState(0)
    X = np.c_[np.sin(t / 10), np.cos(t / 7), rng.randn(n)]
    return X, X @ [1.0, 2.0, 0.5] + rng.randn(n) * 0.3


def _error(**params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError) as caught:
            nested_cross_validate(Ridge(), param_grid=GRID, n_jobs=1, random_state=0, **params)
    return str(caught.value)


# -- TIME-4: groups interleaved in time ------------------------------------------------------


@pytest.mark.parametrize("n_splits", [3, 2])  # first training folds of 450 and 600 rows
def test_groups_interleaved_in_time_are_said_so_with_advice_that_can_help(n_splits):
    X, y = _series(1800)
    groups = np.arange(1800) % 3  # 3 stores, one row each in turn
    message = _error(X=X, y=y, groups=groups, cv=TimeSeriesSplit(n_splits))
    assert message.startswith(
        "the default inner hold-out (inner_cv=None) could not split outer training fold 0:"
    )
    assert "the groups interleave in time (the rows of group 0 are not contiguous" in message
    assert "(inner_cv=TimeSeriesSplit(k))" in message
    assert "groups that are whole blocks of time" in message
    assert "first training fold is longer" not in message  # no length can help
    assert "inner_cv could not split" not in message  # none was given


def test_the_advice_given_works():
    X, y = _series(1800)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = nested_cross_validate(
            Ridge(), X, y, groups=np.arange(1800) % 3, param_grid=GRID, cv=TimeSeriesSplit(3),
            inner_cv=TimeSeriesSplit(3), n_jobs=1, random_state=0,
        )  # fmt: skip
    assert np.isfinite(result["test_score"]).all()


def test_groups_in_whole_blocks_of_time_keep_the_first_fold_advice():
    # contiguous groups of 200 rows; the first training fold of 150 rows holds one group only
    X, y = _series(600)
    message = _error(X=X, y=y, groups=np.arange(600) // 200, cv=TimeSeriesSplit(3))
    assert "interleave" not in message
    assert "every cut point falls inside a group" in message
    assert "an outer_cv whose first training fold is longer" in message


# -- TIME-5: a regressor with LeaveOneOut inner --------------------------------------------------


def test_one_row_validation_sets_of_a_regressor_get_regression_advice_and_a_short_list():
    X, y = _series(200)
    outer = TimeSeriesSplit(2, test_size=20)
    # by hand: the first outer training fold holds 160 rows, LeaveOneOut 160 one-row splits
    n_train = len(next(outer.split(X))[0])
    assert n_train == 160
    message = _error(X=X, y=y, cv=outer, inner_cv=LeaveOneOut())
    listed = re.findall(r"inner split \d+ validates on 1 row\(s\)", message)
    assert listed == [f"inner split {s} validates on 1 row(s)" for s in range(3)]
    assert f"and {n_train - 3} more inner splits." in message
    assert len(message) < 2500  # it was 7,125 characters, listing all 160
    assert "StratifiedKFold" not in message and "one class." not in message
    assert "a scorer that is defined on one row" in message
    assert "'neg_mean_absolute_error'" in message
    assert "a time-ordered inner_cv, as the outer splits are (e.g. TimeSeriesSplit(k)" in message


def test_the_scorer_advised_selects_on_one_row_validation_sets():
    # R^2 is NaN on every one-row validation set (as in scikit-learn's own loop), the mean
    # absolute error is not: with it the same run selects, and scores every outer fold
    X, y = _series(60)
    outer = TimeSeriesSplit(2, test_size=10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r2 = cross_validate(Ridge(), X[:10], y[:10], cv=LeaveOneOut(), scoring="r2")
        result = nested_cross_validate(
            Ridge(), X, y, param_grid=GRID, cv=outer, inner_cv=LeaveOneOut(),
            scoring="neg_mean_absolute_error", n_jobs=1, random_state=0,
        )  # fmt: skip
    assert np.isnan(r2["test_score"]).all()
    assert np.isfinite(result["test_score"]).all() and (result["test_score"] < 0).all()
