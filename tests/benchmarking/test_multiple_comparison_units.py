"""BenchmarkResult.multiple_comparison across data sets scored with a metric that is not bounded
(an MAE, in each data set's own units): hunt REGRESS-1. The parametric family's checks and its
repeated-measures ANOVA read the data sets' scales, so its verdict changed when one data set's
target changed units; the rank family reads only each data set's order of the models."""

import warnings

import numpy as np
import pytest
from scipy.stats import friedmanchisquare
from sklearn.datasets import (
    load_diabetes,
    make_friedman1,
    make_friedman2,
    make_friedman3,
    make_regression,
)
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.tree import DecisionTreeRegressor

from sklearn_fair import benchmark

MODELS = {
    "mean": DummyRegressor(),
    "ridge": Ridge(),
    "knn": KNeighborsRegressor(),
    "tree": DecisionTreeRegressor(max_depth=3, random_state=0),
}


def _datasets(scale):
    """Five regression data sets (the hunt's), friedman2's target in units ``1 / scale``: every
    model's MAE on it scales by ``scale`` (the models are equivariant to the target's scale).
    Before the fix the parametric family was chosen at scale 1 (ANOVA p = 0.235) and the rank
    family at scale 1e-3 (Friedman p = 0.0106)."""
    X, y = make_friedman2(150, random_state=0)
    return {
        "diabetes": load_diabetes(return_X_y=True),
        "f1": make_friedman1(150, random_state=0),
        "f2": (X, y * scale),
        "f3": make_friedman3(150, random_state=0),
        "reg": make_regression(150, 5, noise=10, random_state=0),
    }


def _run(datasets, models=MODELS, scoring="neg_mean_absolute_error"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(models, datasets, outer_cv=3, n_refits=1, scoring=scoring, random_state=0)


@pytest.fixture(scope="module")
def results():
    return _run(_datasets(1.0)), _run(_datasets(1e-3))


def test_the_verdict_does_not_depend_on_the_units(results):
    verdicts = [result.multiple_comparison() for result in results]
    for result, verdict in zip(results, verdicts):
        assert (verdict.family, verdict.chosen_by, verdict.omnibus) == (
            "nonparametric", "units", "friedman",
        )  # fmt: skip
        # Friedman's chi-square of the mean errors, as scipy computes it
        means = result.mean_scores(printed=False)
        expected = friedmanchisquare(*(means[m] for m in means.columns)).statistic
        assert verdict.statistic == pytest.approx(expected)
        assert verdict.pvalue == pytest.approx(0.0106, abs=1e-4)
    assert verdicts[0].statistic == verdicts[1].statistic
    assert verdicts[0].pvalue == verdicts[1].pvalue
    paragraph = str(verdicts[0])
    assert "with the rank-based family: the metric is not bounded" in paragraph
    assert "which did not choose the test here" in paragraph
    assert "choosing the test as autorank does" not in paragraph  # it did not


def test_the_report_states_one_verdict(results):
    report = results[0].report(n_resamples=100)
    ranks = next(s for s in report.sections() if s.title == "Ranks")
    text = " ".join(ranks.paragraphs)
    assert "repeated-measures ANOVA" not in text
    assert str(results[0].multiple_comparison()) in text


def test_a_forced_family_and_a_bounded_metric_are_chosen_as_before(results):
    forced = results[0].multiple_comparison(test="parametric")
    assert (forced.family, forced.chosen_by) == ("parametric", "user")
    rng = np.random.RandomState(0)
    datasets = {f"d{i}": (rng.randn(45, 3), rng.randint(0, 2, 45)) for i in range(5)}
    models = {"prior": DummyClassifier(), "lr": LogisticRegression()}
    verdict = _run(datasets, models, scoring="accuracy").multiple_comparison()
    assert verdict.chosen_by == "assumptions"
