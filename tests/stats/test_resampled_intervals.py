"""The corrected resampled t and the conservative Z, checked against their formulas by hand."""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold

from sklearn_fair import NestedCV
from sklearn_fair.stats import (
    PairedSubsamplingScores,
    mean_interval,
    paired_subsampling_scores,
    summarize,
)

SCORES = np.array([0.81, 0.84, 0.79, 0.88, 0.83, 0.86, 0.80, 0.85, 0.82, 0.87])


@pytest.mark.parametrize("confidence", [0.9, 0.95])
@pytest.mark.parametrize("n_train, n_test", [(90, 10), (80, 20), (45.5, 4.5)])
def test_corrected_t_is_nadeau_and_bengios_formula(confidence, n_train, n_test):
    # Nadeau & Bengio (2003), eq. (17): Var(mean) = (1/J + n2/n1) s^2, Student t with J - 1
    # df; mlr3inferr's ci.cor_t: sd(mus) * sqrt(1/J + n2/n1) * qt(1 - alpha/2, J - 1).
    J = SCORES.size
    s = math.sqrt(sum((x - sum(SCORES) / J) ** 2 for x in SCORES) / (J - 1))
    half = stats.t.ppf(1 - (1 - confidence) / 2, J - 1) * s * math.sqrt(1 / J + n_test / n_train)
    centre = sum(SCORES) / J
    interval = mean_interval(
        SCORES, method="corrected_t", n_train=n_train, n_test=n_test, confidence=confidence
    )
    assert (interval.low, interval.high) == pytest.approx((centre - half, centre + half), rel=1e-12)
    assert interval.method == "corrected_t"
    assert f"{J - 1} df" in interval.description and "Nadeau & Bengio" in interval.description


def test_corrected_t_is_wider_than_t_by_the_factor():
    naive = mean_interval(SCORES)
    corrected = mean_interval(SCORES, method="corrected_t", n_train=90, n_test=10)
    factor = math.sqrt(1 + 10 * 10 / 90)  # sqrt((1/J + n2/n1) / (1/J)) with J = 10
    assert corrected.high - corrected.low == pytest.approx(factor * (naive.high - naive.low))


@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_conservative_z_is_nadeau_and_bengios_formula(confidence):
    rng = np.random.default_rng(3)
    per_split = rng.normal(0.8, 0.03, size=(6, 2, 4))  # M = 6 pairs of halves, J = 4 splits
    mu = per_split.mean(axis=2)
    # Section 4.2: sigma^2 = sum_m (mu_1m - mu_2m)^2 / (2M); mean -/+ z sigma (ci.con_z).
    sigma = math.sqrt(sum((a - b) ** 2 for a, b in mu) / (2 * 6))
    z = stats.norm.ppf(1 - (1 - confidence) / 2)
    centre = SCORES.mean()
    for half_scores in (per_split, mu):
        interval = mean_interval(
            SCORES, method="conservative_z", half_scores=half_scores, confidence=confidence
        )
        assert (interval.low, interval.high) == pytest.approx(
            (centre - z * sigma, centre + z * sigma), rel=1e-12
        )
        assert "6 pairs of half-sample estimates" in interval.description


def test_summarize_offers_both_and_prints_them():
    summary = summarize(SCORES, interval="corrected_t", n_train=90, n_test=10)
    assert summary.interval == "corrected_t"
    assert summary.ci == tuple(mean_interval(SCORES, method="corrected_t", n_train=90, n_test=10))
    assert "corrected resampled t" in str(summary)
    half = [[0.80, 0.84], [0.83, 0.82], [0.86, 0.81]]
    summary = summarize(SCORES, interval="conservative_z", half_scores=half)
    assert summary.interval == "conservative_z" and "conservative Z" in str(summary)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"interval": "corrected_t"}, "'corrected_t' interval needs the 'n_train' parameter"),
        ({"interval": "corrected_t", "n_train": 90}, "needs the 'n_test' parameter"),
        ({"interval": "conservative_z"}, "needs the 'half_scores' parameter"),
        ({"interval": "t", "n_train": 90, "n_test": 10}, "'n_train' parameter is used only by"),
        ({"interval": "t", "half_scores": [[0.8, 0.9]]}, "only by the 'conservative_z'"),
        ({"interval": "corrected_t", "n_train": 0, "n_test": 10}, "'n_train' parameter of"),
        ({"interval": "corrected_t", "n_train": True, "n_test": 10}, "'n_train' parameter of"),
        ({"interval": "conservative_z", "half_scores": [0.8, 0.9]}, "shape \\(M, 2\\)"),
        ({"interval": "conservative_z", "half_scores": [[0.8, np.nan]]}, "NaN"),
        ({"interval": "conservative_z", "half_scores": np.ones((0, 2))}, "M >= 1"),
    ],
)
def test_what_each_interval_needs_is_checked(kwargs, match):
    with pytest.raises(ValueError, match=match):
        summarize(SCORES, **kwargs)


class _Recorder(ClassifierMixin, BaseEstimator):
    """Predicts the majority class; records the rows of every fit."""

    fits = []

    def fit(self, X, y):
        _Recorder.fits.append(X[:, -1].astype(int))
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(X.shape[0], self.majority_)


def test_paired_subsampling_runs_nadeau_and_bengios_design():
    X, y = make_classification(n_samples=101, random_state=0)
    X = np.column_stack([X, np.arange(101)])  # the last column names the row
    _Recorder.fits = []
    result = paired_subsampling_scores(
        _Recorder(), X, y, n_splits=3, n_pairs=2, test_size=0.2, random_state=0
    )
    fits = _Recorder.fits
    assert len(fits) == 3 * (2 * 2 + 1)  # J (2M + 1)
    assert result.n_test == 20 and result.n_train == 81 and result.n_train_half == 50 - 20
    assert [len(rows) for rows in fits[:3]] == [81] * 3
    assert all(len(rows) == 30 for rows in fits[3:])
    for pair in range(2):
        first = np.concatenate(fits[3 + 6 * pair : 6 + 6 * pair])
        second = np.concatenate(fits[6 + 6 * pair : 9 + 6 * pair])
        assert not set(first) & set(second)  # the halves are disjoint
    assert result.half_scores.shape == (2, 2, 3)
    assert result.interval() == mean_interval(
        result.scores, method="conservative_z", half_scores=result.half_scores
    )
    again = paired_subsampling_scores(
        _Recorder(), X, y, n_splits=3, n_pairs=2, test_size=0.2, random_state=0
    )
    assert np.array_equal(again.half_scores, result.half_scores)


def test_paired_subsampling_refuses_a_test_size_that_leaves_no_half_to_train_on():
    X, y = make_classification(n_samples=40, random_state=0)
    with pytest.raises(ValueError, match="'test_size' parameter gives 20 test rows of 40"):
        paired_subsampling_scores(LogisticRegression(), X, y, test_size=0.5)


@pytest.mark.parametrize("test_size", [1, 2, 38])
def test_paired_subsampling_refuses_fewer_test_or_training_rows_than_classes(test_size):
    # a classifier's splits are stratified: StratifiedShuffleSplit refused such sizes from
    # inside scikit-learn, after our own check let them through
    from sklearn.model_selection import StratifiedShuffleSplit

    X, y = make_classification(n_samples=81, n_classes=3, n_informative=4, random_state=0)
    with pytest.raises(ValueError):  # the reference: a test fold or a half too small for 3
        next(StratifiedShuffleSplit(test_size=test_size).split(X[:40], y[:40]))
    with pytest.raises(ValueError, match="'test_size' parameter gives .* at least 3 of each"):
        paired_subsampling_scores(LogisticRegression(), X, y, test_size=test_size)


def test_paired_subsampling_names_a_class_too_rare_for_a_half():
    # a class of 3 rows keeps one in a half; scikit-learn's own refusal of that half said
    # nothing of halves, and the same data split whole is fine
    from sklearn.model_selection import StratifiedShuffleSplit

    X = np.random.default_rng(0).normal(size=(200, 4))
    y = np.r_[np.zeros(120), np.ones(77), np.full(3, 2)].astype(int)
    next(StratifiedShuffleSplit(test_size=0.1, random_state=0).split(X, y))  # whole: splits
    with pytest.raises(ValueError, match="halves of 100 rows .* class 2 has one row in a half"):
        paired_subsampling_scores(LogisticRegression(), X, y, n_splits=3, n_pairs=2)


def test_nested_cv_summary_takes_the_sizes_from_its_outer_folds():
    X, y = make_classification(n_samples=120, random_state=0)
    outer = RepeatedStratifiedKFold(n_splits=4, n_repeats=2, random_state=0)
    nested = NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=outer, inner_cv=3)
    nested.fit(X, y)
    summary = nested.summary(interval="corrected_t")
    scores = np.array(nested.outer_scores_)
    assert scores.size == 8
    # 4-fold of 120 rows: 90 training, 30 test rows in every outer fold.
    s = np.std(scores, ddof=1)
    half = stats.t.ppf(0.975, 7) * s * math.sqrt(1 / 8 + 30 / 90)
    assert summary.ci == pytest.approx((scores.mean() - half, scores.mean() + half), rel=1e-12)
    assert summary.interval == "corrected_t"
    assert nested.summary() == summary  # the default, since the coverage benchmark
    assert nested.summary(interval="t").interval == "t"
    with pytest.raises(ValueError, match="needs the 'half_scores' parameter"):
        nested.summary(interval="conservative_z")


@pytest.mark.parametrize(
    "method, kwargs",
    [
        ("t", {}),
        ("normal", {}),
        ("corrected_t", {"n_train": 90, "n_test": 10}),
        ("conservative_z", {"half_scores": [[0.8, 0.8], [0.8, 0.8]]}),
    ],
)
def test_equal_scores_give_a_point_interval(method, kwargs):
    interval = mean_interval([0.8] * 5, method=method, **kwargs)
    assert (interval.low, interval.high) == pytest.approx((0.8, 0.8))


@pytest.mark.parametrize("confidence", [0.0, 1.5, True])
def test_subsampling_interval_refuses_a_confidence_naming_the_method(confidence):
    scores = PairedSubsamplingScores(SCORES[:3], np.full((2, 2, 3), 0.8), 90, 10, 40)
    with pytest.raises(ValueError, match="'confidence' parameter of PairedSubsamplingScores"):
        scores.interval(confidence)
