import tracemalloc

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
    # bootstrap standard errors (more for a median's lumpy distribution).
    tolerance = 0.25 * standard_error
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


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_constant_values_give_a_point_interval(method):
    result = bootstrap_ci([0.7] * 10, method=method)
    assert (result.low, result.high) == pytest.approx((0.7, 0.7))


def test_bca_falls_back_with_a_warning_when_undefined():
    with pytest.warns(DegenerateBootstrapWarning, match="percentile"):
        result = bootstrap_ci(SCORES, np.min, n_resamples=500, method="bca")
    assert tuple(result) == tuple(bootstrap_ci(SCORES, np.min, n_resamples=500))


def test_result_object():
    result = bootstrap_ci(SCORES, n_resamples=500, confidence=0.9)
    low, high = result
    assert isinstance(result, BootstrapCI)
    assert low < result.estimate < high
    assert result.to_dict()["confidence"] == 0.9
    assert result.to_dict()["n_resamples"] == 500


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
    ],
)
def test_bad_inputs(kwargs, match):
    arguments = {"values": SCORES, "n_resamples": 100, **kwargs}
    with pytest.raises(ValueError, match=match):
        bootstrap_ci(**arguments)
