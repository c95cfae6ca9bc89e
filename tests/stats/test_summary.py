import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_fair.metrics import metric_display_name
from sklearn_fair.stats import MeanInterval, Summary, mean_interval, summarize


@pytest.mark.parametrize("n", [2, 3, 5, 10, 31])
def test_fields_match_independent_references(n):
    scores = np.random.default_rng(n).uniform(0.6, 0.9, size=n)
    summary = summarize(scores)
    assert summary.n == n
    assert summary.mean == pytest.approx(np.mean(scores))
    # one std everywhere: numpy's (ddof=0), as NestedCV.score_std_ and the tables (issue 33.5);
    # the standard error from the sample standard deviation
    assert summary.std == pytest.approx(np.std(scores))
    assert summary.sem == pytest.approx(np.std(scores, ddof=1) / np.sqrt(len(scores)))
    assert summary.sem == pytest.approx(stats.sem(scores))
    # The default interval of the mean is Student's t with n - 1 degrees of freedom.
    low, high = stats.t.interval(0.95, n - 1, loc=np.mean(scores), scale=stats.sem(scores))
    assert summary.ci == pytest.approx((low, high), rel=1e-12, abs=0)
    assert summary.ci == pytest.approx(
        tuple(stats.ttest_1samp(scores, 0.0).confidence_interval(0.95)), rel=1e-12
    )
    assert summary.interval == "t"
    assert summary.ci_method == f"Student t, {n - 1} df, of the mean of {n} scores"
    assert summary.median == pytest.approx(np.median(scores))
    assert summary.iqm == pytest.approx(stats.trim_mean(scores, 0.25))
    assert summary.iqm_ci_low <= summary.iqm <= summary.iqm_ci_high
    # The IQM's interval by hand: the 10,000 resamples of the seed 0 generator (one block
    # of 16-bit index draws, as bootstrap_ci draws them), scipy's trimmed mean of each,
    # numpy's 2.5% and 97.5% percentiles.
    indices = np.random.default_rng(0).integers(0, n, size=(10_000, n), dtype=np.uint16)
    theta = stats.trim_mean(scores[indices], 0.25, axis=1)
    assert summary.iqm_ci == pytest.approx(
        tuple(np.percentile(theta, [2.5, 97.5])), rel=1e-12, abs=0
    )


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99])
@pytest.mark.parametrize("seed", range(3))
def test_mean_interval_against_scipy(confidence, seed):
    scores = np.random.default_rng(seed).normal(0.8, 0.05, size=7)
    t = mean_interval(scores, confidence=confidence)
    reference = stats.ttest_1samp(scores, 0.0).confidence_interval(confidence)
    assert tuple(t) == pytest.approx((reference.low, reference.high), rel=1e-12, abs=0)
    assert (t[0], t[1], len(t)) == (t.low, t.high, 2)
    normal = mean_interval(scores, confidence=confidence, method="normal")
    expected = stats.norm.interval(confidence, loc=np.mean(scores), scale=stats.sem(scores))
    assert tuple(normal) == pytest.approx(expected, rel=1e-12, abs=0)
    assert normal.low > t.low and normal.high < t.high  # z is narrower than t
    assert normal.description == "normal (z), of the mean of 7 scores"


def test_normal_interval_stays_available():
    scores = [0.80, 0.82, 0.85, 0.79, 0.84]
    summary = summarize(scores, interval="normal")
    expected = stats.norm.interval(0.95, loc=np.mean(scores), scale=stats.sem(scores))
    assert summary.ci == pytest.approx(expected)
    assert summary.interval == "normal"
    assert "normal (z), of the mean of 5 scores" in str(summary)


def test_an_interval_computed_elsewhere_is_printed_as_given():
    scores = [0.80, 0.82, 0.85, 0.79, 0.84]
    given = MeanInterval(0.70, 0.90, 0.95, "other", "some method, of the mean of 5 folds")
    summary = summarize(scores, interval=given)
    assert summary.ci == (0.70, 0.90) and summary.interval == "other"
    assert "95% interval [0.7000, 0.9000] (some method, of the mean of 5 folds)" in str(summary)
    with pytest.raises(ValueError, match="level 0.95.*'confidence' is 0.9"):
        summarize(scores, interval=given, confidence=0.9)


def test_every_printed_interval_names_its_method():
    text = str(summarize([0.80, 0.82, 0.85, 0.79, 0.84], confidence=0.9))
    lines = [line for line in text.splitlines() if "interval [" in line]
    assert len(lines) == 2
    assert "(Student t, 4 df, of the mean of 5 scores)" in lines[0]
    assert "(percentile bootstrap of the IQM, 10000 resamples)" in lines[1]


def test_metric_is_printed_and_errors_are_positive():
    scores = np.array([-0.53, -0.61, -0.48, -0.57])
    summary = summarize(scores, metric="neg_root_mean_squared_error")
    assert summary.metric == "RMSE" and summary.sign == -1
    assert summary.mean == pytest.approx(0.5475)
    assert summary.median == pytest.approx(np.median(-scores))
    low, high = stats.t.interval(0.95, 3, loc=0.5475, scale=stats.sem(scores))
    assert summary.ci == pytest.approx((low, high))
    assert summary.iqm_ci_low <= summary.iqm <= summary.iqm_ci_high
    assert summary.iqm_ci_low > 0
    text = str(summary)
    assert text.startswith("RMSE, 4 scores")
    assert "negated so that higher is better" in text and "positive RMSE" in text
    same = summarize(scores, metric=metric_display_name("neg_root_mean_squared_error"))
    assert same == summary


def test_summary_without_a_metric_keeps_working():
    summary = summarize([0.80, 0.82, 0.85, 0.79, 0.84])
    assert summary.metric is None and summary.sign == 1
    assert str(summary).startswith("5 scores\n")
    assert str(summarize([0.8, 0.82], metric="accuracy")).startswith("accuracy, 2 scores\n")


def test_reproducible_and_seeded():
    scores = np.random.default_rng(0).uniform(0.6, 0.9, size=15)
    assert summarize(scores) == summarize(scores)
    assert summarize(scores, random_state=1).iqm_ci != summarize(scores, random_state=2).iqm_ci


def test_prints_and_converts():
    summary = summarize([0.80, 0.82, 0.85, 0.79, 0.84], confidence=0.9)
    text = str(summary)
    assert "5 scores" in text and "0.8200" in text and "90% interval" in text
    assert repr(summary).startswith("Summary(n=5, mean=0.82")
    as_dict = summary.to_dict()
    assert as_dict["mean"] == pytest.approx(0.82)
    assert set(as_dict) == {
        "n", "mean", "std", "sem", "ci_low", "ci_high", "median", "iqm", "iqm_ci_low",
        "iqm_ci_high", "confidence", "interval", "ci_method", "iqm_ci_method", "metric",
        "sign", "metric_note", "notes", "ci_coverage", "metric_range",
    }  # fmt: skip
    assert isinstance(summary, Summary)


@pytest.mark.parametrize(
    "scores, kwargs, match",
    [
        ([0.8], {}, "at least 2"),
        ([], {}, "at least 2"),
        ([0.8, np.nan, 0.7], {}, "NaN"),
        ([[0.8, 0.7]], {}, "1-D"),
        ([0.8, 0.7], {"interval": "z"}, "'interval' parameter of summarize .*Got 'z'"),
        ([0.8, 0.7], {"metric": 3}, "'metric' parameter of summarize .*Got 3"),
        ([0.8, 0.7], {"notes": "a note"}, "'notes' parameter of summarize .*Got 'a note'"),
        ([0.8, 0.7], {"n_resamples": True}, "'n_resamples' parameter of summarize .*Got True"),
    ],
)
def test_bad_inputs(scores, kwargs, match):
    with pytest.raises(ValueError, match=match):
        summarize(scores, **kwargs)


def test_notes_are_printed_under_the_table():
    summary = summarize([0.8, 0.9, 0.85], notes=["2 selection fit(s) failed"])
    assert summary.notes == ("2 selection fit(s) failed",)
    assert str(summary).splitlines()[-1] == "  note: 2 selection fit(s) failed"


@pytest.mark.parametrize(
    "scores, metric, match",
    [
        ([1.5, 1.7, 1.9], "accuracy", r"outside the range \[0, 1\] of accuracy: \[1.5, 1.7, 1.9\]"),
        ([0.5, 0.6, 0.7], "neg_root_mean_squared_error", r"its values are \(-inf, 0\]"),
        ([0.5, 1.2], "roc_auc", "ROC AUC"),
        ([-1.5, 0.2], "matthews_corrcoef", r"\[-1, 1\]"),
    ],
)
def test_scores_outside_the_metrics_range_are_refused(scores, metric, match):
    with pytest.raises(ValueError, match=match) as error:
        summarize(scores, metric=metric)
    assert "The 'scores' parameter" in str(error.value)


def test_scores_at_the_bounds_and_of_unknown_metrics_are_accepted():
    assert summarize([1.0, 0.9, 1.0], metric="accuracy", n_resamples=10).mean == pytest.approx(
        29 / 30
    )
    assert summarize([-0.0, -0.2], metric="neg_root_mean_squared_error", n_resamples=10).mean == (
        pytest.approx(0.1)
    )
    assert summarize([3.0, 4.0], metric="my own score", n_resamples=10).mean == 3.5


@pytest.mark.parametrize("factor", [1e200, 1e-200, 1e307])
def test_values_near_the_float_limits_are_summarised_as_the_values_scaled(factor):
    # every statistic of factor * [1, 2, 3, 2.5] is factor times scipy's of [1, 2, 3, 2.5] (abs=0:
    # pytest.approx passes any two values within 1e-12 of each other otherwise): the
    # squares overflowed (interval [-inf, inf], std inf, RuntimeWarnings) or underflowed (a
    # point interval at the mean)
    base = np.array([1.0, 2.0, 3.0, 2.5])
    reference = stats.ttest_1samp(base, 0.0).confidence_interval(0.95)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        interval = mean_interval(base * factor)
        summary = summarize(base * factor, random_state=0)
    expected = (reference.low * factor, reference.high * factor)
    assert tuple(interval) == pytest.approx(expected, rel=1e-12, abs=0)
    assert summary.ci == pytest.approx(expected, rel=1e-12, abs=0)
    assert summary.std == pytest.approx(np.std(base) * factor, rel=1e-12, abs=0)
    assert summary.sem == pytest.approx(stats.sem(base) * factor, rel=1e-12, abs=0)
    assert summary.mean == pytest.approx(2.125 * factor, rel=1e-12, abs=0)
    assert summary.iqm == pytest.approx(2.25 * factor, rel=1e-12, abs=0)  # mean of 2 and 2.5


def test_an_interval_past_the_largest_float_is_refused():
    # the mean of [1e308, 1.5e308, 1.7e308] is 1.4e308, its t interval reaches 2.3e308; it
    # was [nan, inf] with numpy's and scipy's RuntimeWarnings
    scores = [1e308, 1.5e308, 1.7e308]
    with pytest.raises(ValueError, match="'scores' .* past the largest float"):
        mean_interval(scores)
    with pytest.raises(ValueError, match="'scores' .* past the largest float"):
        summarize(scores)


def test_the_median_of_an_even_count_of_scores_near_1e308_is_theirs():
    # the median of 4 scores averages the middle two, whose sum overflowed: inf (with numpy's
    # RuntimeWarning) beside a finite mean; the median of the scores in units of 1e308
    import warnings

    base = np.array([1.5, 1.6, 1.55, 1.58])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        summary = summarize(base * 1e308, n_resamples=10)
    assert summary.median == pytest.approx(np.median(base) * 1e308, rel=1e-12)


def test_printed_results_keep_the_digits_of_tiny_and_huge_scores():
    # four fixed decimals printed an error metric of 1e-8 as 0.0000 in every line (mean,
    # interval, IQM, the difference of two models) and a score of 1e20 as 21 digits; the
    # report's one formatter prints them in five significant digits
    from sklearn_fair.stats import compare, repeated_measures_comparison

    tiny = np.array([1.2e-8, 1.5e-8, 1.1e-8, 1.4e-8, 1.3e-8])
    text = str(summarize(tiny))
    assert "0.0000" not in text
    assert f"mean   {np.mean(tiny):.4e}" in text and f"median {np.median(tiny):.4e}" in text
    interval = mean_interval(tiny)
    assert str(interval).startswith(f"95% interval [{interval.low:.4e}, {interval.high:.4e}]")
    rows = np.arange(25)
    indices = {
        "train": [np.setdiff1d(rows, rows[k::5]) for k in range(5)],
        "test": [rows[k::5] for k in range(5)],
    }
    results = {
        "a": {"test_score": tiny, "indices": indices},
        "b": {"test_score": tiny * 2, "indices": indices},
    }
    text = repr(compare(results))
    difference = float(np.mean(tiny) - np.mean(2 * tiny))
    assert f"a - b: {difference:+.4e} ({np.mean(tiny):.4e} vs {np.mean(2 * tiny):.4e})" in text
    table = np.column_stack([tiny, tiny * 2, tiny * 3])
    text = repr(repeated_measures_comparison(table))
    assert f"model 0 {np.mean(tiny):.4e}" in text and "0.0000" not in text
    huge = str(summarize(tiny * 1e28))
    assert f"mean   {np.mean(tiny) * 1e28:.4e}" in huge
    # ordinary scores print four decimals, as before
    assert "  mean   0.8160  (std 0.0206, " in str(summarize([0.80, 0.82, 0.85, 0.79, 0.82]))


def test_printed_summary_and_interval_keep_a_small_spread():
    # an AUC of 0.99995 with a std of 3.6e-05 printed as "mean 1.0000 (std 0.0000, ...)" and a
    # 95% interval of width 3.2e-05 as "[0.8000, 0.8000]"
    near_one = [0.99993, 0.99998, 1.0, 0.99990, 0.99996]
    text = str(summarize(near_one, metric="roc_auc"))
    mean = float(text.split("mean")[1].split()[0])
    assert mean == pytest.approx(np.mean(near_one), abs=5e-7) and mean != 1.0
    assert "std 0.0000," not in text and "sem 0.0000)" not in text
    close = [0.80001, 0.80002, 0.80004, 0.80001, 0.80003]
    low, high = stats.t.interval(0.95, 4, np.mean(close), stats.sem(close))
    printed = str(mean_interval(close)).split("[")[1].split("]")[0].split(", ")
    assert [float(v) for v in printed] == pytest.approx([low, high], abs=5e-7)


@pytest.mark.parametrize("value", [0.1, 0.7, 0.8, 0.95])
def test_equal_scores_print_as_equal_not_as_their_rounding(value):
    # three equal scores have a mean of 0.8000000000000002 and a sem of 7.9e-17: printed as a
    # spread, with 6 decimals and "std 1.1102e-16", after the decimals followed the sem
    text = str(summarize([value] * 3, metric="accuracy"))
    assert "std 0.0000, sem 0.0000" in text and f"[{value:.4f}, {value:.4f}]" in text
    assert str(mean_interval([value] * 3)).startswith(f"95% interval [{value:.4f}, {value:.4f}]")
