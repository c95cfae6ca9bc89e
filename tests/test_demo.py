"""The tabular demo: named metric, Student t intervals, and compare() deciding the winner."""

import io

import numpy as np
import pytest
from scipy import stats

from sklearn_fair import _demo
from sklearn_fair.stats import compare


@pytest.fixture(scope="module")
def demo_run():
    models = _demo.demo_models()
    small = {  # two candidates each: the printed form, not the search, is under test
        name: (estimator, {key: values[2:4] for key, values in grid.items()})
        for name, (estimator, grid) in models.items()
    }
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_demo, "demo_models", lambda: small)
        results = _demo.run_demo(outer_cv=3, file=out)
    return results, out.getvalue()


def test_each_model_prints_its_metric_and_a_named_t_interval(demo_run):
    results, text = demo_run
    for name, nested in results.items():
        block = text[text.index(name + "\n") :]
        scores = nested.outer_scores_
        low, high = stats.t.interval(0.95, 2, loc=scores.mean(), scale=stats.sem(scores))
        assert f"test accuracy        {scores.mean():.4f} +/- {np.std(scores):.4f}" in block
        assert (
            f"95% interval         [{low:.4f}, {high:.4f}] (Student t, 2 df, of the mean of "
            "3 scores)" in block
        )
        assert f"validation accuracy  {nested.validation_scores_.mean():.4f}" in block
    assert "normal, of the mean" not in text


def test_the_winner_is_decided_by_compare(demo_run):
    results, text = demo_run
    table = compare(results)
    assert "Which model is better? compare() on the 3 paired outer-fold accuracy scores" in text
    difference = table["mean_difference"][0]
    assert (
        f"logistic regression - k-nearest neighbours: {difference:+.4f} accuracy, 95% interval "
        f"[{table['ci_low'][0]:+.4f}, {table['ci_high'][0]:+.4f}]" in text
    )
    verdict = table["verdict"][0]
    assert f"  -> {verdict}" in text
    if verdict == "difference not demonstrated":
        assert "do not show either model to be better" in text
