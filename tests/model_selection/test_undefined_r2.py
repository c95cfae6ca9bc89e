"""R^2, explained variance and D^2 on a fold whose y_true is constant: NaN with an
UndefinedMetricWarning, not the 0.0 (or, from rounding, about -1e30) that scikit-learn's
force_finite gives; the other folds keep scikit-learn's scores."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import Ridge
from sklearn.metrics import get_scorer, r2_score
from sklearn.model_selection import GroupKFold, KFold, LeaveOneGroupOut, cross_validate

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.exceptions import NonFiniteScoreWarning

pytestmark = pytest.mark.filterwarnings("ignore::sklearn_fair.exceptions.SklearnFairWarning")


def _subject_data(n_subjects=8, per=6, constant=None):
    """A target constant within each subject (the ones in ``constant``; all by default)."""
    rng = np.random.RandomState(0)
    groups = np.repeat(np.arange(n_subjects), per)
    y = (rng.randn(n_subjects) * 3)[groups]
    if constant is not None:
        varying = ~np.isin(groups, constant)
        y[varying] += rng.randn(varying.sum())
    X = y[:, None] + rng.randn(len(y), 3)
    return X, y, groups


def test_constant_test_folds_score_nan_not_zero():
    X, y, groups = _subject_data()
    # what scikit-learn reports on these folds: 0.0, or about -1e30 where the mean of the six
    # equal values rounds off them
    reference = cross_validate(Ridge(), X, y, groups=groups, cv=LeaveOneGroupOut(), scoring="r2")
    assert (reference["test_score"] == 0.0).sum() == 6
    assert (reference["test_score"] < -1e29).sum() == 2
    with pytest.warns(UndefinedMetricWarning, match=r"R\^2 \(r2_score\) is undefined where "):
        with pytest.warns(NonFiniteScoreWarning):
            search = NestedCV(
                Ridge(), {"alpha": [0.1, 10.0]}, outer_cv=LeaveOneGroupOut(),
                inner_cv=GroupKFold(3), scoring="r2", n_refits=1, refit=False,
            ).fit(X, y, groups=groups)  # fmt: skip
    assert np.isnan(search.outer_scores_).all()
    assert all(np.ptp(y[f["test_indices"]]) == 0 for f in search.outer_results_)


@pytest.mark.parametrize("scoring", ["r2", None])
def test_only_the_constant_folds_change(scoring):
    # subjects 2 and 5 have a constant target; the others vary within the subject
    X, y, groups = _subject_data(constant=[2, 5])
    reference = cross_validate(
        Ridge(), X, y, groups=groups, cv=LeaveOneGroupOut(), scoring=scoring
    )["test_score"]
    with pytest.warns(UndefinedMetricWarning, match="y_true is constant on the rows scored"):
        result = nested_cross_validate(
            Ridge(), X, y, groups=groups, cv=LeaveOneGroupOut(), inner_cv=GroupKFold(3),
            param_grid={"alpha": [1.0]}, scoring=scoring, n_refits=1,
        )  # fmt: skip
    scores = result["test_score"]
    assert np.isnan(scores[[2, 5]]).all()
    varying = np.setdiff1d(np.arange(8), [2, 5])
    np.testing.assert_allclose(scores[varying], reference[varying], rtol=1e-12)


def test_constant_validation_folds_name_the_constant_target():
    X, y, groups = _subject_data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="whose target is constant") as info:
            NestedCV(
                Ridge(), {"alpha": [0.1, 10.0]}, outer_cv=GroupKFold(4),
                inner_cv=LeaveOneGroupOut(), scoring="r2", n_refits=1, refit=False,
            ).fit(X, y, groups=groups)  # fmt: skip
    assert "a single target value (R^2, explained variance, D^2)" in str(info.value)


def test_undefined_on_constant_y_by_metric_and_tolerance():
    from sklearn_fair.model_selection._nested._scoring import undefined_on_constant_y

    rng = np.random.RandomState(0)
    X = rng.randn(6, 2)
    model = Ridge().fit(X, rng.randn(6))
    y = np.full(6, 1.2004716251016698)  # its mean rounds off it: r2_score about -5e30
    assert r2_score(y, y + 0.5) < -1e29
    for name in ("r2", "explained_variance", "d2_absolute_error_score"):
        assert undefined_on_constant_y(get_scorer(name), model, y) is not None
    assert undefined_on_constant_y(get_scorer("neg_mean_squared_error"), model, y) is None
    # a spread far above rounding is defined, at any scale
    for scale in (1e-20, 1.0, 1e20):
        spread = y * scale + np.linspace(0, 1e-9, 6) * scale
        assert undefined_on_constant_y(get_scorer("r2"), model, spread) is None
        assert undefined_on_constant_y(get_scorer("r2"), model, y * scale) is not None
    # a large offset whose spread is far above its last bits is defined (1e-12 of it was not)
    offset = 1.7e12 + 0.05 * np.arange(20)
    assert r2_score(offset, offset) == 1.0
    assert undefined_on_constant_y(get_scorer("r2"), model, offset) is None
    # the rows of weight zero are not scored
    varying = np.r_[y[:5], 3.0]
    assert undefined_on_constant_y(get_scorer("r2"), model, varying) is None
    weights = np.r_[np.ones(5), 0.0]
    assert undefined_on_constant_y(get_scorer("r2"), model, varying, weights) is not None
    # one row: scikit-learn's own NaN and warning
    assert undefined_on_constant_y(get_scorer("r2"), model, y[:1]) is None


def test_multioutput_one_constant_column():
    from sklearn.metrics import make_scorer

    from sklearn_fair.model_selection._nested._scoring import undefined_on_constant_y

    rng = np.random.RandomState(0)
    X = rng.randn(6, 2)
    Y = np.c_[np.full(6, 2.0), rng.randn(6)]
    model = Ridge().fit(X, Y)
    # Ridge predicts the constant column exactly: force_finite gives it 1.0, averaged with
    # the other column's R^2
    assert r2_score(Y, model.predict(X)) == pytest.approx(
        (1.0 + r2_score(Y[:, 1], model.predict(X)[:, 1])) / 2
    )
    assert undefined_on_constant_y(get_scorer("r2"), model, Y) is not None
    weighted = make_scorer(r2_score, multioutput="variance_weighted")
    assert undefined_on_constant_y(weighted, model, Y) is None
    assert undefined_on_constant_y(weighted, model, np.c_[Y[:, 0], Y[:, 0]]) is not None


def test_folds_with_varying_y_are_unchanged_and_silent():
    rng = np.random.RandomState(1)
    X = rng.randn(40, 3)
    y = X @ [1.0, -2.0, 0.5] + rng.randn(40)
    reference = cross_validate(Ridge(), X, y, cv=KFold(4), scoring="r2")["test_score"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        result = nested_cross_validate(
            Ridge(), X, y, cv=KFold(4), inner_cv=3, param_grid={"alpha": [1.0]},
            scoring="r2", n_refits=1,
        )  # fmt: skip
    np.testing.assert_allclose(result["test_score"], reference, rtol=1e-12)
