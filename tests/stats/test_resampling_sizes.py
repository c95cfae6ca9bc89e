"""The corrected resampled t's training and test sizes, and its caveats, for every kind of
outer resampling: bootstrap training sets count their distinct rows, time-ordered folds are
noted and get no advice to repeat them."""

import html

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import Bootstrap, HoldoutSplit, RollingOrigin
from sklearn_fair.report._results import as_result
from sklearn_fair.stats import _interval, compare
from sklearn_fair.stats._interval import TIME_ORDERED_NOTE


def _hand_corrected_t(scores, n_train, n_test, confidence=0.95):
    """Nadeau & Bengio's interval: mean -/+ t(J - 1) sqrt(1/J + n_test/n_train) sd."""
    scores = np.asarray(scores, dtype=float)
    J = scores.shape[0]
    half = (
        stats.t.ppf(0.5 + confidence / 2, J - 1)
        * np.sqrt(1 / J + n_test / n_train)
        * np.std(scores, ddof=1)
    )
    return scores.mean() - half, scores.mean() + half


def _splits(cv, n):
    train, test = zip(*cv.split(np.zeros((n, 1))))
    return list(train), list(test)


def test_fold_sizes_count_the_distinct_rows_of_each_split():
    train = [np.array([0, 0, 1, 2, 2, 2]), np.array([3, 4, 5, 5, 6, 7])]
    test = [np.array([3, 4]), np.array([0, 1, 2])]
    # by hand: 3 and 5 distinct training rows, 2 and 3 test rows
    assert _interval.fold_sizes(train, test) == {"n_train": 4.0, "n_test": 2.5}


@pytest.fixture(scope="module")
def bootstrap_fit():
    X, y = make_classification(n_samples=80, n_features=5, flip_y=0.2, random_state=0)
    return NestedCV(
        LogisticRegression(),
        {"C": [0.1, 1.0]},
        outer_cv=Bootstrap(n_resamples=6, random_state=0),
        inner_cv=3,
        n_jobs=1,
        random_state=0,
        refit=False,
    ).fit(X, y)


def test_nested_cv_summary_of_bootstrap_counts_distinct_training_rows(bootstrap_fit):
    folds = bootstrap_fit.outer_results_
    distinct = np.mean([len(set(f["train_indices"].tolist())) for f in folds])
    n_test = np.mean([len(f["test_indices"]) for f in folds])
    assert distinct < 0.7 * 80  # the copies would count 80
    low, high = _hand_corrected_t(bootstrap_fit.outer_scores_, distinct, n_test)
    summary = bootstrap_fit.summary()
    assert summary.ci_low == pytest.approx(max(low, 0.0), rel=1e-12)
    assert summary.ci_high == pytest.approx(min(high, 1.0), rel=1e-12)
    assert f"test/train size {n_test:g}/{distinct:g}" in summary.ci_method
    assert _interval.REPEATED_ROWS_NOTE in summary.notes
    assert TIME_ORDERED_NOTE not in summary.notes


def test_report_cell_of_bootstrap_counts_distinct_training_rows(bootstrap_fit):
    cell = as_result("boot", bootstrap_fit)
    folds = bootstrap_fit.outer_results_
    assert cell.sizes == pytest.approx(
        {
            "n_train": np.mean([len(set(f["train_indices"].tolist())) for f in folds]),
            "n_test": np.mean([len(f["test_indices"]) for f in folds]),
        }
    )
    from sklearn_fair.report._results import corrected_t_caveats

    note = _interval.REPEATED_ROWS_NOTE
    assert cell.corrected_t_notes == (note,)
    # the sentence the report prints, one per caveat with the cells it concerns
    caveats = corrected_t_caveats([cell, cell], lambda c: c.model, " and ".join)
    assert caveats == f" boot and boot: {note}."


def test_compare_of_bootstrap_counts_distinct_training_rows_and_notes_it():
    train, test = _splits(Bootstrap(n_resamples=8, random_state=1), 50)
    rng = np.random.default_rng(0)
    a = 0.8 + 0.03 * rng.standard_normal(8)
    b = a - 0.01 + 0.02 * rng.standard_normal(8)
    indices = {"train": train, "test": test}
    result = compare(
        {"a": {"test_score": a, "indices": indices}, "b": {"test_score": b, "indices": indices}}
    )
    distinct = np.mean([len(set(t.tolist())) for t in train])
    n_test = np.mean([len(t) for t in test])
    assert result.n_train == pytest.approx(distinct)
    low, high = _hand_corrected_t(a - b, distinct, n_test)
    assert result["ci_low"][0] == pytest.approx(low, rel=1e-10)
    assert result["ci_high"][0] == pytest.approx(high, rel=1e-10)
    note = _interval.REPEATED_ROWS_NOTE
    assert result.notes == (note,)
    assert f"Note: {note}." in repr(result)
    # the paired t-test has no correction to caveat
    paired = compare(
        {"a": {"test_score": a, "indices": indices}, "b": {"test_score": b, "indices": indices}},
        test="paired",
    )
    assert paired.notes == ()


def test_compare_of_time_ordered_folds_notes_it_and_proposes_no_repeats():
    train, test = _splits(RollingOrigin(40, 10, skip=9), 100)
    assert len(test) == 6
    a = np.array([0.90, 0.70, 1.00, 0.80, 0.90, 1.00])
    b = np.array([0.80, 0.90, 0.90, 0.90, 0.70, 0.90])
    indices = {"train": train, "test": test}
    result = compare(
        {"lr": {"test_score": a, "indices": indices}, "knn": {"test_score": b, "indices": indices}}
    )
    assert result["verdict"][0] == "difference not demonstrated"
    text = repr(result)
    assert f"Note: {TIME_ORDERED_NOTE}." in text
    assert "number of repeats" not in text and "repeat(s) of these" not in text
    assert "repeating these 6 time-ordered folds gives the same folds" in text
    assert np.isnan(result["repeats_for_power"][0])
    assert TIME_ORDERED_NOTE in html.unescape(result._repr_html_())


def test_corrected_t_notes_of_k_fold_are_none():
    train, test = _splits(KFold(5), 50)
    assert _interval.corrected_t_notes(train, test) == ()
    assert _interval.fold_sizes(train, test) == {"n_train": 40.0, "n_test": 10.0}


def test_nested_cv_summary_of_one_outer_fold_names_the_outer_folds():
    X, y = make_classification(n_samples=60, n_features=5, random_state=0)
    fitted = NestedCV(
        LogisticRegression(),
        {"C": [0.1, 1.0]},
        outer_cv=HoldoutSplit(test_size=0.25, random_state=0),
        inner_cv=2,
        random_state=0,
        refit=False,
    ).fit(X, y)
    with pytest.raises(ValueError, match=r"NestedCV.summary needs at least 2 outer folds") as e:
        fitted.summary()
    assert "gave 1" in str(e.value) and "'scores'" not in str(e.value)
