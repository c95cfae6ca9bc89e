import tracemalloc
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_fair.exceptions import DegenerateBootstrapWarning
from sklearn_fair.stats import BootstrapCI, bootstrap_ci, iqm
from sklearn_fair.stats import _bootstrap as bootstrap_module

SCORES = np.random.default_rng(2024).gamma(4.0, 0.05, size=40)


def _scipy_interval(statistic, method, seed):
    result = stats.bootstrap(
        (SCORES,),
        statistic,
        n_resamples=20_000,
        method=method,
        vectorized=True,
        rng=np.random.default_rng(seed),
    )
    return result.confidence_interval, result.standard_error


@pytest.mark.parametrize("statistic", [np.mean, np.median, iqm])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_agrees_with_scipy_within_monte_carlo_error(statistic, method):
    (low, high), standard_error = _scipy_interval(
        statistic, "BCa" if method == "bca" else "percentile", seed=99
    )
    ours = bootstrap_ci(SCORES, statistic, n_resamples=20_000, method=method, random_state=7)
    # The Monte Carlo error of a 2.5% quantile of 20,000 resamples is about 0.03
    # bootstrap standard errors. A median's distribution is lumpy: its BCa upper bound
    # jumps between two order statistics 0.26 standard errors apart from seed to seed
    # (scipy's too); the formula itself is checked exactly on scipy's resamples below.
    tolerance = (0.35 if statistic is np.median else 0.25) * standard_error
    assert ours.low == pytest.approx(low, abs=tolerance)
    assert ours.high == pytest.approx(high, abs=tolerance)
    assert ours.standard_error == pytest.approx(standard_error, rel=0.05)
    assert ours.estimate == pytest.approx(statistic(SCORES))


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_same_seed_same_interval(method):
    first = bootstrap_ci(SCORES, iqm, method=method, random_state=3)
    assert first == bootstrap_ci(SCORES, iqm, method=method, random_state=3)
    assert first != bootstrap_ci(SCORES, iqm, method=method, random_state=4)
    generator_result = bootstrap_ci(
        SCORES, iqm, method=method, random_state=np.random.default_rng(3)
    )
    assert tuple(generator_result) == tuple(first)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_vectorised_and_loop_give_the_same_interval(method):
    vectorised = bootstrap_ci(SCORES, iqm, n_resamples=2000, method=method, random_state=1)
    looped = bootstrap_ci(
        SCORES, iqm, n_resamples=2000, method=method, random_state=1, vectorized=False
    )
    lambda_ = bootstrap_ci(
        SCORES, lambda x: iqm(x), n_resamples=2000, method=method, random_state=1
    )
    assert tuple(looped) == pytest.approx(tuple(vectorised))
    assert tuple(lambda_) == pytest.approx(tuple(vectorised))


def test_chunks_bound_the_rows_per_call(monkeypatch):
    monkeypatch.setattr(bootstrap_module, "_CHUNK_BYTES", 16 * 40 * 64)  # 64 rows of 40
    rows = []

    def mean(x, axis=None):
        rows.append(np.shape(x)[0] if np.ndim(x) == 2 else 1)
        return np.mean(x, axis=axis)

    result = bootstrap_ci(SCORES, mean, n_resamples=1000)
    assert max(rows) == 64
    assert sum(rows) == 1000 + 1  # the resamples and the estimate
    reference = bootstrap_ci(SCORES, n_resamples=1000)
    assert result.low == pytest.approx(reference.low, abs=0.1 * reference.standard_error * 4)


def test_memory_is_bounded_for_many_values():
    values = np.random.default_rng(0).random(10_000)
    tracemalloc.start()
    try:
        bootstrap_ci(values, n_resamples=2000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Unchunked, the 2000 x 10,000 indices and values would take 200 MB.
    assert peak < 100 * 2**20


def test_constant_values_give_a_point_interval():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = bootstrap_ci([0.7] * 10)
    assert (result.low, result.high, result.method) == (0.7, 0.7, "percentile")


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_bca_of_constant_values_is_the_percentile_point_interval_and_says_so():
    # Every resample has the same mean: BCa's correction is undefined (scipy gives NaN with a
    # DegenerateDataWarning), so this is the documented fallback; before, the point interval
    # came back labelled "bca" without a warning.
    values = [0.7] * 10
    with pytest.warns(stats.DegenerateDataWarning):
        reference = stats.bootstrap((values,), np.mean, method="BCa", n_resamples=2000)
    assert np.isnan(reference.confidence_interval.low)
    with pytest.warns(DegenerateBootstrapWarning, match="every resample gives the statistic"):
        result = bootstrap_ci(values, method="bca")
    assert (result.low, result.high, result.method) == (0.7, 0.7, "percentile")
    assert "percentile bootstrap" in str(result)


def _distinct_values(x):
    return float(len(np.unique(x)))


@pytest.mark.parametrize(
    "values, statistic, why",
    [
        # 40 distinct values: almost no resample has them all, so the estimate lies above
        # every resampled value and z0 is infinite.
        (SCORES, _distinct_values, "above every resampled value"),
        # Leaving out any one value keeps the median at 0.8: the acceleration is 0/0.
        ([0.7, 0.8, 0.8, 0.8, 0.9], np.median, "acceleration is 0/0"),
    ],
)
def test_bca_falls_back_with_a_warning_that_says_why(values, statistic, why):
    with pytest.warns(DegenerateBootstrapWarning, match=why):
        result = bootstrap_ci(values, statistic, n_resamples=500, method="bca")
    percentile = bootstrap_ci(values, statistic, n_resamples=500)
    assert tuple(result) == tuple(percentile)
    assert result.method == "percentile"


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_scipy_gives_nan_where_we_fall_back_to_the_percentile_interval():
    # The documented difference: scipy's BCa is NaN when the acceleration is 0/0.
    values = np.array([0.7, 0.8, 0.8, 0.8, 0.9])
    with pytest.warns(stats.DegenerateDataWarning):
        reference = stats.bootstrap(
            (values,), np.median, method="BCa", n_resamples=2000, rng=np.random.default_rng(0)
        )
    assert np.isnan(reference.confidence_interval.low)


def _scipy_with_our_distribution(monkeypatch, values, statistic, method, seed):
    """scipy's interval, and ours computed on scipy's bootstrap distribution."""
    reference = stats.bootstrap(
        (values,),
        statistic,
        n_resamples=5000,
        method="BCa" if method == "bca" else "percentile",
        vectorized=True,
        rng=np.random.default_rng(seed),
    )
    monkeypatch.setattr(
        bootstrap_module,
        "_bootstrap_distribution",
        lambda *args: np.array(reference.bootstrap_distribution, dtype=float),
    )
    ours = bootstrap_ci(values, statistic, n_resamples=5000, method=method)
    return reference, ours


TIED = {
    "5 scores": np.array([0.81, 0.84, 0.79, 0.88, 0.83]),
    "10 rounded scores": np.array([0.8, 0.8, 0.82, 0.85, 0.79, 0.8, 0.83, 0.85, 0.81, 0.8]),
    "continuous": SCORES,
}


@pytest.mark.parametrize("data", list(TIED))
@pytest.mark.parametrize("statistic", [np.mean, np.median, iqm], ids=["mean", "median", "iqm"])
@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("seed", [0, 1])
def test_same_interval_as_scipy_on_the_same_bootstrap_distribution(
    monkeypatch, data, statistic, method, seed
):
    values = TIED[data]
    reference, ours = _scipy_with_our_distribution(monkeypatch, values, statistic, method, seed)
    assert ours.low == pytest.approx(reference.confidence_interval.low, rel=1e-12, abs=1e-15)
    assert ours.high == pytest.approx(reference.confidence_interval.high, rel=1e-12, abs=1e-15)
    assert ours.standard_error == pytest.approx(reference.standard_error, rel=1e-12)
    assert ours.method == method


def test_ties_are_counted_half_below_as_scipy_does():
    # The example of issue 16: the rule "strictly below" gave (0.79, 0.84).
    values = [0.81, 0.84, 0.79, 0.88, 0.83]
    ours = bootstrap_ci(values, np.median, method="bca", n_resamples=20000, random_state=7)
    reference = stats.bootstrap(
        (values,), np.median, method="BCa", n_resamples=20000, rng=np.random.default_rng(7)
    ).confidence_interval
    assert tuple(ours) == pytest.approx((0.79, 0.88))
    assert tuple(ours) == pytest.approx((reference.low, reference.high))


def test_bca_of_the_minimum_is_defined_with_ties():
    # With ties counted half, the resamples that contain the minimum put z0 at a finite
    # value, as in scipy: no fallback.
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateBootstrapWarning)
        result = bootstrap_ci(SCORES, np.min, n_resamples=500, method="bca")
    assert result.method == "bca"


def test_result_object():
    result = bootstrap_ci(SCORES, n_resamples=500, confidence=0.9)
    low, high = result
    assert isinstance(result, BootstrapCI)
    assert low < result.estimate < high
    assert result.to_dict()["confidence"] == 0.9
    assert result.to_dict()["n_resamples"] == 500


def test_indexes_like_the_tuple_it_unpacks_as():
    result = bootstrap_ci(SCORES, n_resamples=500)
    as_tuple = (result.low, result.high)
    assert (result[0], result[1], result[-1]) == (as_tuple[0], as_tuple[1], as_tuple[-1])
    assert result[:] == as_tuple and len(result) == 2 and list(result) == list(as_tuple)
    with pytest.raises(IndexError):
        result[2]


def test_prints_with_its_method():
    text = str(bootstrap_ci(SCORES, n_resamples=500, confidence=0.9, method="bca"))
    assert text.startswith("90% interval [") and text.endswith("(BCa bootstrap, 500 resamples)")


def test_wider_confidence_wider_interval():
    narrow = bootstrap_ci(SCORES, confidence=0.5)
    wide = bootstrap_ci(SCORES, confidence=0.99)
    assert wide.low < narrow.low < narrow.high < wide.high


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"values": [1.0, np.nan, 2.0]}, "'values'.*NaN"),
        ({"values": [1.0]}, "'values'.*at least 2"),
        ({"values": [[1.0, 2.0]]}, "'values'.*1-D"),
        ({"n_resamples": 0}, "'n_resamples'"),
        ({"n_resamples": 10.5}, "'n_resamples'"),
        ({"confidence": 1.0}, "'confidence'"),
        ({"confidence": 95}, "'confidence'"),
        ({"method": "BCa"}, "'method'"),
        ({"statistic": "mean"}, "'statistic'"),
        ({"statistic": lambda x, axis=None: 1.0}, "one value per row"),
        ({"random_state": -1}, "'random_state'"),
        ({"random_state": "seed"}, "'random_state'"),
        ({"n_resamples": True}, "'n_resamples' parameter of bootstrap_ci .*Got True"),
        ({"confidence": True}, "'confidence' parameter of bootstrap_ci .*Got True"),
        ({"random_state": True}, "'random_state' parameter of bootstrap_ci .*Got True"),
        ({"vectorized": "yes"}, "'vectorized' parameter of bootstrap_ci .*Got 'yes'"),
    ],
)
def test_bad_inputs(kwargs, match):
    arguments = {"values": SCORES, "n_resamples": 100, **kwargs}
    with pytest.raises(ValueError, match=match):
        bootstrap_ci(**arguments)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_one_resample_gives_its_value_without_numpys_warnings(method):
    # the interval of one resample is that resample's statistic (every quantile of one value);
    # scipy's standard error of one value (ddof=1) raised numpy's "Degrees of freedom <= 0",
    # which reached the user's console through the report's plot
    values = np.array([0.61, 0.7, 0.74, 0.8, 0.93])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", DegenerateBootstrapWarning)
        ci = bootstrap_ci(values, iqm, n_resamples=1, method=method, random_state=0)
    assert ci.low == ci.high  # the one resample's IQM: a value between the extremes
    assert values.min() <= ci.low <= values.max()
