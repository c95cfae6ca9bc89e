"""nested_cv_interval: checked against Bates, Hastie & Tibshirani's formulas written out naively.

The reference below follows the paper's Algorithm 1 and Section 4 loop by loop, with
scikit-learn models fitted directly and scipy's normal quantile: nothing of the implementation
is reused except the fold assignment it reports (``result.folds``), which the reference
checks is a partition into K folds of near-equal size.
"""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair.model_selection import NestedCVInterval, nested_cv_interval

from ..stats._ncv_reference import ncv_by_hand


def _pointwise(name, y_true, y_pred):
    if name == "zero_one":
        return (y_true != y_pred).astype(float)
    if name == "squared_error":
        return (y_true - y_pred) ** 2
    return np.abs(y_true - y_pred)


def reference(estimator, X, y, folds, loss, confidence):
    """Bates et al.'s NCV estimate and interval, by the book, from the fold assignment: every
    model fitted here, its pointwise losses handed to the paper's arithmetic
    (``ncv_by_hand``, written out on raw losses)."""
    K = int(folds.max()) + 1
    outer_losses, inner_losses = [], []
    for fold in folds:
        outer_row, inner_rows = [], []
        for k in range(K):
            outer = clone(estimator).fit(X[fold != k], y[fold != k])
            outer_row.append(_pointwise(loss, y[fold == k], outer.predict(X[fold == k])))
            row = []
            for j in range(K):
                if j == k:
                    row.append(None)  # not read
                    continue
                train = (fold != k) & (fold != j)
                model = clone(estimator).fit(X[train], y[train])
                row.append(_pointwise(loss, y[fold == j], model.predict(X[fold == j])))
            inner_rows.append(row)
        outer_losses.append(outer_row)
        inner_losses.append(inner_rows)
    return ncv_by_hand(outer_losses, inner_losses, len(y), confidence)


def check_partition(folds, n_folds):
    for assignment in folds:
        sizes = np.bincount(assignment, minlength=n_folds)
        assert len(sizes) == n_folds
        assert sizes.max() - sizes.min() <= 1


@pytest.mark.parametrize(
    "estimator, loss, n_folds, n_repetitions",
    [
        (LogisticRegression(solver="liblinear"), "zero_one", 3, 2),
        (Ridge(alpha=1.0), "squared_error", 4, 1),
        (Ridge(alpha=1.0), "absolute_error", 3, 2),
    ],
)
def test_matches_the_papers_formulas_computed_naively(estimator, loss, n_folds, n_repetitions):
    if loss == "zero_one":
        X, y = make_classification(n_samples=40, n_features=4, flip_y=0.2, random_state=1)
    else:
        X, y = make_regression(n_samples=41, n_features=4, noise=20.0, random_state=1)
    result = nested_cv_interval(
        estimator,
        X,
        y,
        loss=loss,
        n_folds=n_folds,
        n_repetitions=n_repetitions,
        confidence=0.9,
        random_state=3,
    )
    check_partition(result.folds, n_folds)
    expected = reference(estimator, X, y, result.folds, loss, 0.9)
    for name, value in expected.items():
        assert getattr(result, name) == pytest.approx(value, rel=1e-10, abs=1e-12), name
    # the outer fold losses are an ordinary K-fold CV, repetition by repetition
    for r, assignment in enumerate(result.folds):
        for k in range(n_folds):
            model = clone(estimator).fit(X[assignment != k], y[assignment != k])
            losses = _pointwise(loss, y[assignment == k], model.predict(X[assignment == k]))
            assert result.fold_losses[r, k] == pytest.approx(losses.mean(), rel=1e-12)


def test_clamping_bounds_hold_and_are_named():
    X, y = make_classification(n_samples=60, n_features=5, flip_y=0.2, random_state=0)
    seen = set()
    for seed in range(6):
        result = nested_cv_interval(
            DecisionTreeClassifier(max_depth=2), X, y, n_folds=3, n_repetitions=1, random_state=seed
        )
        low, high = result.naive_standard_error, math.sqrt(3) * result.naive_standard_error
        assert low - 1e-15 <= result.standard_error <= high + 1e-15
        raw = math.sqrt(2 / 3 * max(result.mse, 0.0))
        expected = "lower" if raw < low else "upper" if raw > high else "none"
        assert result.clamped == expected
        if expected == "none":
            assert result.standard_error == pytest.approx(raw)
        seen.add(result.clamped)
    assert "lower" in seen  # with one repetition the MSE estimate is often below the naive one


def test_width_grows_with_confidence_by_the_normal_quantile():
    X, y = make_classification(n_samples=45, n_features=4, flip_y=0.2, random_state=2)
    args = dict(n_folds=3, n_repetitions=1, random_state=5)
    model = LogisticRegression(solver="liblinear")
    r80 = nested_cv_interval(model, X, y, confidence=0.8, **args)
    r95 = nested_cv_interval(model, X, y, confidence=0.95, **args)
    assert r80.estimate == r95.estimate and r80.standard_error == r95.standard_error
    assert r95.high - r95.low > r80.high - r80.low > 0
    ratio = (r95.high - r95.low) / (r80.high - r80.low)
    assert ratio == pytest.approx(stats.norm.ppf(0.975) / stats.norm.ppf(0.9))


def test_reproducible_with_random_state_and_seeds_randomised_estimators():
    X, y = make_classification(n_samples=45, n_features=6, flip_y=0.1, random_state=4)
    tree = DecisionTreeClassifier(max_features=1)  # random splits, random_state left at None
    args = dict(n_folds=3, n_repetitions=2)
    first = nested_cv_interval(tree, X, y, random_state=11, **args)
    second = nested_cv_interval(tree, X, y, random_state=11, **args)
    np.testing.assert_array_equal(first.folds, second.folds)
    np.testing.assert_array_equal(first.fold_losses, second.fold_losses)
    assert (first.estimate, first.low, first.high) == (second.estimate, second.low, second.high)
    other = nested_cv_interval(tree, X, y, random_state=12, **args)
    assert not np.array_equal(first.folds, other.folds)
    assert tree.get_params()["random_state"] is None  # the user's estimator is untouched


def test_n_jobs_does_not_change_the_result():
    X, y = make_classification(n_samples=40, n_features=4, flip_y=0.2, random_state=6)
    tree = DecisionTreeClassifier(max_features=2, max_depth=3)
    args = dict(n_folds=3, n_repetitions=1, random_state=8)
    one = nested_cv_interval(tree, X, y, n_jobs=1, **args)
    two = nested_cv_interval(tree, X, y, n_jobs=2, **args)
    for name in ("estimate", "low", "high", "mse", "bias", "standard_error"):
        assert getattr(one, name) == getattr(two, name), name
    np.testing.assert_array_equal(one.fold_losses, two.fold_losses)


def test_a_search_is_the_procedure():
    X, y = make_classification(n_samples=48, n_features=4, flip_y=0.1, random_state=7)
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, cv=2)
    result = nested_cv_interval(search, X, y, n_folds=3, n_repetitions=1, random_state=0)
    expected = reference(search, X, y, result.folds, "zero_one", 0.95)
    assert result.estimate == pytest.approx(expected["estimate"])
    assert result.high == pytest.approx(expected["high"])


def test_losses_auto_callable_and_sqrt():
    X, y = make_regression(n_samples=36, n_features=3, noise=10.0, random_state=0)
    args = dict(n_folds=3, n_repetitions=1, random_state=1)
    auto = nested_cv_interval(Ridge(), X, y, **args)
    assert auto.loss == "squared_error"

    def absolute(y_true, y_pred):
        return np.abs(y_true - y_pred)

    by_name = nested_cv_interval(Ridge(), X, y, loss="absolute_error", **args)
    by_callable = nested_cv_interval(Ridge(), X, y, loss=absolute, **args)
    assert by_callable.loss == "absolute"
    assert by_callable.interval == pytest.approx(by_name.interval)
    estimate, low, high = auto.sqrt()
    assert (estimate, low, high) == pytest.approx(
        (math.sqrt(auto.estimate), math.sqrt(max(auto.low, 0)), math.sqrt(auto.high))
    )
    Xc, yc = make_classification(n_samples=30, random_state=0)
    assert nested_cv_interval(DummyClassifier(), Xc, yc, **args).loss == "zero_one"


def test_a_constant_added_to_the_loss_moves_only_the_estimate():
    # pooled from sums of squares, the variances of losses near 1e9 would lose every digit
    X, y = make_regression(n_samples=36, n_features=3, noise=10.0, random_state=0)
    args = dict(n_folds=3, n_repetitions=2, random_state=1)

    def shifted(y_true, y_pred):
        return 1e9 + np.abs(y_true - y_pred)

    plain = nested_cv_interval(Ridge(), X, y, loss="absolute_error", **args)
    offset = nested_cv_interval(Ridge(), X, y, loss=shifted, **args)
    assert offset.estimate - 1e9 == pytest.approx(plain.estimate, abs=1e-5)
    for name in ("mse", "naive_standard_error", "cv_standard_error", "standard_error", "bias"):
        assert getattr(offset, name) == pytest.approx(getattr(plain, name), rel=1e-6), name


def test_result_prints_its_method_and_target():
    X, y = make_classification(n_samples=30, random_state=0)
    result = nested_cv_interval(DummyClassifier(), X, y, n_folds=3, n_repetitions=1, random_state=0)
    assert isinstance(result, NestedCVInterval)
    text = str(result)
    assert "Bates" in text and "Err_XY" in text and "95%" in text
    low, high = result
    assert (low, high) == result.interval
    as_dict = result.to_dict()
    assert as_dict["fold_losses"] == result.fold_losses.tolist()
    assert len(as_dict["folds"][0]) == 30
    # a loss of 1e-8 printed 0.0000 for the estimate and both ends of its interval
    from dataclasses import replace

    tiny = replace(result, estimate=1.5e-8, low=1.2e-8, high=1.9e-8)
    assert "1.5000e-08, 95% interval [1.2000e-08, 1.9000e-08]" in str(tiny)
    assert f"{result.estimate:.4f}, 95% interval [{result.low:.4f}, {result.high:.4f}]" in text


class _Failing(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        raise RuntimeError("boom")

    def predict(self, X):
        return np.zeros(len(X))


def test_errors_before_and_after_the_fits():
    X, y = make_classification(n_samples=20, random_state=0)
    with pytest.raises(InvalidParameterError, match="n_folds"):
        nested_cv_interval(LogisticRegression(), X, y, n_folds=2)
    with pytest.raises(InvalidParameterError, match="confidence"):
        nested_cv_interval(LogisticRegression(), X, y, n_folds=3, confidence=1.5)
    with pytest.raises(InvalidParameterError, match="loss"):
        nested_cv_interval(LogisticRegression(), X, y, n_folds=3, loss="log_loss")
    with pytest.raises(ValueError, match="n_samples >= 22"):
        nested_cv_interval(LogisticRegression(), X, y, n_folds=11)
    with pytest.raises(RuntimeError, match="(?s)9 of the 9 fits.*failed.*boom"):
        nested_cv_interval(_Failing(), X, y, n_folds=3, n_repetitions=1)
    with pytest.raises(RuntimeError, match="one loss per row"):
        nested_cv_interval(
            LogisticRegression(),
            X,
            y,
            n_folds=3,
            n_repetitions=1,
            loss=lambda t, p: np.mean(t != p),
        )


def test_fits_run_on_nested_cvs_scheduler_with_its_phases(monkeypatch):
    """Every fit is a task of a NestedSchedule (run_plan): the outer fits are refits and the
    inner fits selection fits of plan folds numbered r * K + k, no phase or key of its own."""
    from sklearn_fair.model_selection import _bates
    from sklearn_fair.model_selection._nested._scheduling import NestedSchedule
    from sklearn_fair.model_selection._nested._tasks import Phase

    schedules = []

    def spy(plan, **kwargs):
        schedule = run_plan(plan, **kwargs)
        schedules.append(schedule)
        return schedule

    run_plan = _bates.run_plan
    monkeypatch.setattr(_bates, "run_plan", spy)
    X, y = make_classification(n_samples=40, random_state=0)
    nested_cv_interval(DecisionTreeClassifier(), X, y, n_folds=4, n_repetitions=2, random_state=0)
    (schedule,) = schedules
    assert isinstance(schedule, NestedSchedule)
    keys = list(schedule.results)
    assert len(keys) == 2 * 4 * 4
    assert {type(key.phase) for key in keys} == {Phase}
    assert sorted({key.outer_fold for key in keys}) == list(range(8))
    refits = [key for key in keys if key.phase == Phase.REFIT]
    assert sorted(key.outer_fold for key in refits) == list(range(8))
    selection = [key for key in keys if key.phase == Phase.SELECTION]
    assert sorted({key.inner_split for key in selection}) == [0, 1, 2]


def test_every_estimator_gets_the_same_folds_from_the_same_random_state():
    # Two models' intervals are compared on the same resamples. The fold seeds came after one
    # draw per unset random_state of the estimator, so a forest (one) and a k-NN (none) got
    # different folds from random_state=0. Each repetition's folds are drawn by name now.
    from sklearn.decomposition import PCA
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline

    X, y = make_classification(n_samples=36, n_features=4, random_state=0)
    args = dict(n_folds=3, n_repetitions=2, random_state=0)
    models = [
        KNeighborsClassifier(3),
        RandomForestClassifier(n_estimators=3),
        make_pipeline(PCA(2), RandomForestClassifier(n_estimators=3)),
    ]
    folds = [nested_cv_interval(model, X, y, **args).folds for model in models]
    for other in folds[1:]:
        np.testing.assert_array_equal(folds[0], other)
    # each row a K-fold assignment: every fold holds a third of the rows
    assert all(np.bincount(row).tolist() == [12, 12, 12] for row in folds[0])
    assert not np.array_equal(folds[0][0], folds[0][1])  # the repetitions differ


def test_an_estimate_below_zero_is_clipped_at_the_losses_floor():
    # near-separable data, 1-NN: the bias correction overshoots, as the paper's arithmetic has
    # it, to a negative misclassification rate, which was printed as such (-0.0278)
    from sklearn.neighbors import KNeighborsClassifier

    X, y = make_classification(n_samples=30, n_features=6, n_informative=2, class_sep=1.5,
                               flip_y=0.0, random_state=4)  # fmt: skip
    knn = KNeighborsClassifier(1)
    result = nested_cv_interval(knn, X, y, n_folds=3, n_repetitions=1, random_state=4)
    expected = reference(knn, X, y, result.folds, "zero_one", 0.95)
    assert expected["estimate"] < 0 and expected["low"] < 0 < expected["high"]
    assert result.clipped_at_zero
    assert (result.estimate, result.low) == (0.0, 0.0)
    assert result.high == pytest.approx(expected["high"], rel=1e-10)
    # what was clipped is said, and can be recomputed
    assert result.ncv_estimate - result.bias == pytest.approx(expected["estimate"], rel=1e-10)
    assert "clipped at 0" in str(result) and f"{expected['estimate']:.4f}" in str(result)


def _frame(y):
    pandas = pytest.importorskip("pandas")
    return pandas.DataFrame({"target": y})


@pytest.mark.parametrize("as_column", [lambda y: y.reshape(-1, 1), _frame], ids=["array", "frame"])
def test_a_one_column_target_is_one_target(as_column):
    # a (n, 1) y broadcast against (n,) predictions into (n, n) losses: every fit failed,
    # blaming the 'loss' parameter, where scikit-learn's cross_val_score takes such a y
    X, y = make_regression(n_samples=41, n_features=4, noise=20.0, random_state=1)
    result = nested_cv_interval(
        Ridge(), X, as_column(y), n_folds=3, n_repetitions=1, random_state=3
    )
    expected = reference(Ridge(), X, y, result.folds, "squared_error", 0.95)
    for name in ("ncv_estimate", "cv_estimate", "mse", "standard_error"):
        assert getattr(result, name) == pytest.approx(expected[name], rel=1e-10), name


def test_an_interval_wholly_below_zero_says_its_bounds_before():
    # the bound before clipping was read from the clipped high: 2 * estimate for a low
    from scipy.special import ndtri

    result = NestedCVInterval(
        estimate=0.0, low=0.0, high=0.0, confidence=0.9, standard_error=0.01, method="m",
        target="Err_XY: ...", loss="zero_one", ncv_estimate=0.1, cv_estimate=0.15, bias=0.15,
        mse=0.0, naive_standard_error=0.01, cv_standard_error=0.01, clamped="none",
        n_samples=30, n_folds=3, n_repetitions=1, fold_losses=np.zeros((1, 3)),
        folds=np.zeros((1, 30), dtype=int), clipped_at_zero=True,
    )  # fmt: skip
    low = -0.05 - float(ndtri(0.95)) * 0.01  # the estimate ncv - bias, less z * SE
    assert f"estimate, low before: -0.0500, {low:.4f}" in str(result)
