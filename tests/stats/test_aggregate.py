"""The aggregates across data sets (stats/_aggregate.py): rliable's definitions, every
data set weighing the same, intervals of scipy's bootstrap seeded by name."""

import numpy as np
import pytest
from scipy import stats

from sklearn_fair import BenchmarkResult
from sklearn_fair.stats import _aggregate, iqm


def _per_model(rng, counts, models=("x", "y", "z")):
    return {m: [rng.normal(0.7 + 0.05 * j, 0.05, n) for n in counts] for j, m in enumerate(models)}


def test_aggregate_iqm_is_rliables_with_equal_counts_and_weighs_data_sets_equally():
    rng = np.random.default_rng(0)
    equal = [rng.random(5) for _ in range(4)]
    # rliable: aggregate_iqm = scipy.stats.trim_mean(scores, 0.25, axis=None)
    assert _aggregate.aggregate_iqm(equal) == pytest.approx(stats.trim_mean(np.ravel(equal), 0.25))
    unequal = [rng.random(n) for n in (5, 10, 3)]
    # each data set's scores repeated to 30 (the lcm): every data set counts as much
    repeated = np.concatenate([np.repeat(s, 30 // s.size) for s in unequal])
    assert _aggregate.aggregate_iqm(unequal) == pytest.approx(iqm(repeated), rel=1e-12)
    batched = [np.stack([s, s[::-1]]) for s in unequal]  # the bootstrap's (resamples, n) shape
    np.testing.assert_allclose(_aggregate.aggregate_iqm(batched), [iqm(repeated)] * 2)


def test_unequal_fold_counts_weigh_each_data_set_the_same_in_every_statistic():
    rng = np.random.default_rng(1)
    per_model = _per_model(rng, (5, 10))
    # the 5-fold data set's scores twice: the same data sets, now with equal counts
    doubled = {m: [np.tile(s[0], 2), s[1]] for m, s in per_model.items()}
    ours = _aggregate.aggregate(per_model, baseline="x", n_resamples=50)
    again = _aggregate.aggregate(doubled, baseline="x", n_resamples=50)
    for column in ("iqm", "mean", "probability_of_improvement"):
        np.testing.assert_allclose(ours[column], again[column], err_msg=column)
    for m, scores in per_model.items():
        assert ours.loc[m, "mean"] == pytest.approx(np.mean([s.mean() for s in scores]))
        thresholds = [0.6, 0.7, 0.8]
        np.testing.assert_allclose(
            _aggregate.performance_profile(scores, thresholds),
            _aggregate.performance_profile(doubled[m], thresholds),
        )
    # pooling would have weighed the 10-fold data set twice as much
    pooled = np.concatenate(per_model["y"])
    assert ours.loc["y", "mean"] != pytest.approx(pooled.mean())


def test_probability_of_improvement_is_mann_whitney_averaged_over_data_sets():
    rng = np.random.default_rng(2)
    x, y = (
        [np.round(rng.random(n), 1) for n in (5, 7)],
        [np.round(rng.random(n), 1) for n in (4, 7)],
    )
    expected = np.mean(
        [stats.mannwhitneyu(a, b).statistic / (a.size * b.size) for a, b in zip(x, y)]
    )
    got = _aggregate.probability_of_improvement(x, y, n_resamples=100)
    assert got["estimate"] == pytest.approx(expected)
    assert got["ci_low"] <= got["estimate"] <= got["ci_high"]


def test_intervals_agree_with_a_stratified_bootstrap_written_as_a_loop():
    # Another random stream, so agreement within Monte-Carlo error, not equality.
    rng = np.random.default_rng(3)
    per_model = _per_model(rng, (5, 5, 8, 6), models=("x",))
    ours = _aggregate.aggregate(per_model, n_resamples=4000, random_state=4)
    loop_rng = np.random.default_rng(5)
    values = []
    for _ in range(4000):
        resample = [s[loop_rng.integers(0, s.size, s.size)] for s in per_model["x"]]
        values.append(np.mean([r.mean() for r in resample]))
    low, high = np.quantile(values, [0.025, 0.975])
    width = high - low
    assert ours.loc["x", "mean_ci_low"] == pytest.approx(low, abs=0.05 * width)
    assert ours.loc["x", "mean_ci_high"] == pytest.approx(high, abs=0.05 * width)


def test_seeds_by_name_same_numbers_for_the_same_random_state():
    rng = np.random.default_rng(6)
    per_model = _per_model(rng, (5, 5, 5, 5))
    first = _aggregate.aggregate(per_model, baseline="x", random_state=0, n_resamples=300)
    assert first.equals(
        _aggregate.aggregate(per_model, baseline="x", random_state=0, n_resamples=300)
    )
    # another model added (first in the dict): the others' intervals do not move
    more = {"w": per_model["z"], **per_model}
    wider = _aggregate.aggregate(more, baseline="x", random_state=0, n_resamples=300)
    assert wider.loc[["x", "y", "z"]].equals(first)
    # the baseline's interval of the two-model function is the table's
    alone = _aggregate.probability_of_improvement(
        per_model["y"], per_model["x"], names=("y", "x"), random_state=0, n_resamples=300
    )
    assert (alone["ci_low"], alone["ci_high"]) == (
        first.loc["y", "poi_ci_low"],
        first.loc["y", "poi_ci_high"],
    )
    other = _aggregate.aggregate(per_model, baseline="x", random_state=1, n_resamples=300)
    assert not other.equals(first)


def _result():
    rng = np.random.default_rng(7)
    cells = {(d, m): {"test_scores": list(rng.random(4))} for d in ("a", "b") for m in ("p", "q")}
    return BenchmarkResult.from_results(cells, baseline="p")


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda r: r.aggregate(random_state=True), "'random_state' parameter"),
        (lambda r: r.probability_of_improvement("q", "p", random_state=True), "'random_state'"),
        (lambda r: r.aggregate(n_resamples=0), "'n_resamples' parameter"),
        (lambda r: r.aggregate(n_resamples=-3), "'n_resamples' parameter"),
        (lambda r: r.aggregate(confidence=1.5), "'confidence' parameter"),
        (lambda r: r.probability_of_improvement("q", "p", n_resamples=0), "'n_resamples'"),
    ],
)
def test_bad_parameters_are_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call(_result())


def test_a_data_set_of_one_score_has_a_point_interval_there():
    per_model = {"x": [np.array([0.5]), np.array([0.6, 0.7, 0.8])]}
    table = _aggregate.aggregate(per_model, n_resamples=200)
    assert table.loc["x", "mean"] == pytest.approx(np.mean([0.5, 0.7]))
    assert table.loc["x", "mean_ci_low"] >= (0.5 + 0.6) / 2


_WITH_NAN = [np.array([0.8, np.nan, 0.9]), np.array([0.7, 0.75, 0.72])]
_OTHER = [np.array([0.7, 0.71, 0.69]), np.array([0.6, 0.65, 0.62])]


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda: _aggregate.average_probability_of_improvement(_WITH_NAN, _OTHER),
            "'per_dataset_x' parameter holds a score of nan \\(data set 0, score 1\\)",
        ),
        (
            lambda: _aggregate.average_probability_of_improvement(_OTHER, _WITH_NAN),
            "'per_dataset_y' parameter holds a score of nan \\(data set 0, score 1\\)",
        ),
        (
            lambda: _aggregate.probability_of_improvement(_OTHER, _WITH_NAN, n_resamples=10),
            "'per_dataset_y' parameter holds a score of nan",
        ),
        (
            lambda: _aggregate.performance_profile(_WITH_NAN[::-1], [0.5]),
            "'per_dataset' parameter holds a score of nan \\(data set 1, score 1\\)",
        ),
        (lambda: _aggregate.aggregate_iqm(_WITH_NAN), "'per_dataset' parameter holds"),
        (
            lambda: _aggregate.aggregate({"x": _OTHER, "y": _WITH_NAN}, n_resamples=10),
            "'per_model' parameter's model 'y' holds a score of nan",
        ),
        (
            lambda: _aggregate.aggregate(
                {"x": _OTHER, "y": [np.array([0.1, -np.inf]), _OTHER[1]]},
                baseline="x",
                n_resamples=10,
            ),
            "model 'y' holds a score of -inf \\(data set 0, score 1\\)",
        ),
    ],
)
def test_a_nan_or_inf_score_is_refused_not_counted(call, match):
    # the public functions refuse NaN (stats.probability_of_improvement: "The 'a' parameter
    # contains NaN"); these counted a NaN as a loss (0.83 where the other scores give 1),
    # below every threshold (2/3 of the data set above 0.5) or returned NaN without a word
    with pytest.raises(ValueError, match=match) as error:
        call()
    assert "error_score" in str(error.value)


def test_a_benchmark_with_a_failed_fold_still_pools_the_other_data_sets():
    # BenchmarkResult leaves out the data sets where folds failed before it pools, so the
    # check of the scores does not reach its NaN
    from sklearn_fair.exceptions import MissingCellsWarning

    rng = np.random.default_rng(7)
    cells = {(d, m): {"test_scores": list(rng.random(4))} for d in ("a", "b") for m in ("p", "q")}
    cells["b", "q"]["test_scores"][2] = np.nan
    result = BenchmarkResult.from_results(cells, baseline="p")
    complete = BenchmarkResult.from_results(
        {key: value for key, value in cells.items() if key[0] == "a"}, baseline="p"
    )
    with pytest.warns(MissingCellsWarning, match="leaves out the data sets \\['b'\\]"):
        table = result.aggregate(n_resamples=50)
    assert table.equals(complete.aggregate(n_resamples=50))
    with pytest.warns(MissingCellsWarning):
        profiles = result.performance_profiles([0.25, 0.5])
    assert profiles.equals(complete.performance_profiles([0.25, 0.5]))
    with pytest.warns(MissingCellsWarning):
        poi = result.probability_of_improvement("q", "p", n_resamples=50)
    assert poi == complete.probability_of_improvement("q", "p", n_resamples=50)
