"""Arguments refused where they were taken (hunt ERRORS7): ``n_jobs=0`` and ``n_jobs=True``
of every public function that takes ``n_jobs``, a ``score_range`` of a non-scorer, a plot's
``ax`` that is not an Axes; and ``compare_to_reference`` with a published std of 0, which
gave ``in_reference_se`` of inf (NaN for equal means)."""

import math
import re

import joblib
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair import BenchmarkResult, NestedCV, benchmark, nested_cross_validate
from sklearn_fair.experiment import load_config
from sklearn_fair.leakage import audit
from sklearn_fair.metrics import get_scorer, score_range
from sklearn_fair.model_selection import nested_cv_interval
from sklearn_fair.report import plot_comparison, plot_fold_scores, plot_optimism
from sklearn_fair.stats import paired_subsampling_scores
from sklearn_fair.utils import N_JOBS_CONSTRAINTS, NonZeroInt

X, Y = make_classification(n_samples=40, n_features=4, random_state=0)
TREE = DecisionTreeClassifier(max_depth=1)

# each public entry point that takes n_jobs, called with it: the check comes before any fit
N_JOBS_CALLERS = {
    "NestedCV": lambda n_jobs: NestedCV(TREE, outer_cv=2, n_jobs=n_jobs).fit(X, Y),
    "nested_cross_validate": lambda n_jobs: nested_cross_validate(
        TREE, X, Y, outer_cv=2, n_jobs=n_jobs
    ),
    "benchmark": lambda n_jobs: benchmark({"tree": TREE}, {"toy": (X, Y)}, n_jobs=n_jobs),
    "paired_subsampling_scores": lambda n_jobs: paired_subsampling_scores(
        TREE, X, Y, n_jobs=n_jobs
    ),
    "audit": lambda n_jobs: audit(TREE, X, Y, n_jobs=n_jobs),
    "nested_cv_interval": lambda n_jobs: nested_cv_interval(TREE, X, Y, n_jobs=n_jobs),
    "load_config": lambda n_jobs: load_config("no such file.toml", n_jobs=n_jobs),
}


def _joblib_takes(n_jobs):
    """joblib's own answer, the reference: does it run with ``n_jobs`` workers?"""
    try:
        joblib.Parallel(n_jobs=n_jobs, backend="threading")(
            joblib.delayed(abs)(i) for i in range(2)
        )
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("n_jobs", [-3, -2, -1, 0, 1, 2, 3])
def test_non_zero_int_takes_the_ints_joblib_takes(n_jobs):
    assert NonZeroInt().is_satisfied_by(n_jobs) == _joblib_takes(n_jobs)
    assert NonZeroInt().is_satisfied_by(np.int64(n_jobs)) == _joblib_takes(n_jobs)


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 1.0, "2"])
def test_non_zero_int_refuses_bools_floats_and_text(value):
    # True is an int to Python and 1 job to joblib, but n_jobs=True is a mistake
    assert not NonZeroInt().is_satisfied_by(value)
    assert None in N_JOBS_CONSTRAINTS


@pytest.mark.parametrize("caller", N_JOBS_CALLERS)
@pytest.mark.parametrize("n_jobs", [0, True])
def test_n_jobs_zero_or_bool_is_refused_naming_the_function(caller, n_jobs):
    # n_jobs=0 failed in joblib, after the checks ("n_jobs == 0 in Parallel has no
    # meaning"); n_jobs=True ran one job
    message = (
        f"The 'n_jobs' parameter of {caller} must be a non-zero int (negative: as joblib "
        f"counts them, -1 every core) or None. Got {n_jobs!r} instead."
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        N_JOBS_CALLERS[caller](n_jobs)


@pytest.mark.parametrize("scorer", [5, None, 0.5, ["accuracy"], {"a": "accuracy"}])
def test_score_range_refuses_a_non_scorer(scorer):
    # score_range(5) was (-inf, inf), the range of a scorer not known
    with pytest.raises(
        InvalidParameterError,
        match=r"The 'scorer' parameter of score_range must be an instance of 'str' or a "
        r"callable\. Got .* instead\.",
    ):
        score_range(scorer)


def test_score_range_still_takes_names_and_scorers():
    # accuracy lies in [0, 1] by its definition, a user's own scorer in (-inf, inf)
    assert score_range("accuracy") == (0.0, 1.0)
    assert score_range(get_scorer("accuracy")) == (0.0, 1.0)
    assert score_range(lambda estimator, X, y: 0.5) == (-math.inf, math.inf)


@pytest.fixture(scope="module")
def results():
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    return {
        name: NestedCV(model, outer_cv=3, refit=False, random_state=0).fit(X, y)
        for name, model in [("logistic", LogisticRegression()), ("tree", TREE)]
    }


PLOTS = [plot_fold_scores, plot_optimism, plot_comparison]


@pytest.mark.parametrize("plot", PLOTS, ids=lambda plot: plot.__name__)
@pytest.mark.parametrize("ax", ["x", 0, object()])
def test_plot_refuses_an_ax_that_is_not_an_axes(results, plot, ax):
    # plot_optimism(ax="x") raised "AttributeError: 'str' object has no attribute 'figure'"
    message = (
        f"The 'ax' parameter of {plot.__name__} must be a matplotlib Axes "
        f"(matplotlib.axes.Axes) or None. Got {ax!r} instead."
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        plot(results, ax=ax)


@pytest.mark.parametrize("method", ["plot_intervals", "plot_critical_difference"])
def test_a_benchmark_plot_refuses_an_ax_that_is_not_an_axes(results, method):
    # the BenchmarkResult's plots took any ax and failed inside matplotlib
    result = BenchmarkResult.from_results({("toy", name): r for name, r in results.items()})
    with pytest.raises(InvalidParameterError, match=r"'ax' parameter .* must be a matplotlib Axes"):
        getattr(result, method)(ax="x")


@pytest.mark.parametrize("plot", PLOTS, ids=lambda plot: plot.__name__)
def test_plot_draws_on_the_axes_given(results, plot):
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    assert plot(results, ax=ax) is ax.figure
    assert ax.has_data()
