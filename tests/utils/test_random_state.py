"""Every public ``random_state`` goes through one check with one error (issue 32).

scikit-learn's convention: None, an int in [0, 2**32 - 1], a RandomState, and here a Generator
too. A bool is refused (``True`` would seed with 1), as are negative, too large, float and text
seeds; the error names the parameter, its owner, the value and what is accepted.
"""

import importlib.util
import re
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair import (
    NestedCV,
    benchmark,
    nested_cross_val_predict,
    nested_cross_val_score,
    nested_cross_validate,
)
from sklearn_fair.benchmarking import BenchmarkResult
from sklearn_fair.leakage import audit, permutation_check
from sklearn_fair.model_selection import (
    Bootstrap,
    HoldoutSplit,
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
    StratifiedGraphKFold,
    nested_cv_interval,
    verify_cache,
)
from sklearn_fair.report import nested_cv_report, plot_fold_scores
from sklearn_fair.stats import (
    bayesian_signed_rank,
    bootstrap_ci,
    paired_subsampling_scores,
    rank_test_datasets,
    rank_test_power,
    summarize,
)
from sklearn_fair.utils import check_parameter_constraints

X, y = make_classification(n_samples=20, n_features=4, random_state=0)
S, T = [0.81, 0.84, 0.79, 0.88], [0.71, 0.74, 0.69, 0.78]
GRID = {"strategy": ["prior"]}
GRAPHS = [SimpleNamespace(y=i % 2) for i in range(8)]


def _result(random_state=None):
    cells = {(d, m): {"test_scores": [0.5, 0.6, 0.7]} for d in ("a", "b") for m in ("p", "q")}
    return BenchmarkResult(
        BenchmarkResult.from_results(cells).cells, baseline="p", random_state=random_state
    )


def _nested(random_state=0, **params):
    return NestedCV(DummyClassifier(), GRID, outer_cv=2, inner_cv=2, random_state=random_state,
                    **params)  # fmt: skip


def _undersample(random_state):
    from sklearn_fair.sampling import RandomGraphUnderSampler

    return RandomGraphUnderSampler(random_state=random_state).fit_resample(GRAPHS)


def _graph_classifier(random_state):
    from sklearn_fair.graph import DeepMultisets, GraphClassifier

    return check_parameter_constraints(GraphClassifier(DeepMultisets, random_state=random_state))


# (owner named in the error, call with the random_state); each refuses before any fit
ENTRY_POINTS = [
    ("bayesian_signed_rank", lambda v: bayesian_signed_rank(S, T, random_state=v)),
    ("bootstrap_ci", lambda v: bootstrap_ci(S, random_state=v)),
    ("paired_subsampling_scores",
     lambda v: paired_subsampling_scores(DummyClassifier(), X, y, random_state=v)),
    ("rank_test_datasets", lambda v: rank_test_datasets(0.05, 0.05, random_state=v)),
    ("rank_test_power", lambda v: rank_test_power(0.05, 0.05, n_datasets=10, random_state=v)),
    ("summarize", lambda v: summarize(S, random_state=v)),
    ("BenchmarkResult", _result),
    ("BenchmarkResult.compare_across", lambda v: _result().compare_across(random_state=v)),
    ("BenchmarkResult.aggregate", lambda v: _result().aggregate(random_state=v)),
    ("BenchmarkResult.probability_of_improvement",
     lambda v: _result().probability_of_improvement("q", "p", random_state=v)),
    ("BenchmarkResult.report", lambda v: _result().report(random_state=v)),
    ("BenchmarkResult.to_html", lambda v: _result().to_html(random_state=v)),
    # nested_cv_report checks BenchmarkResult.report's constraints under its own name
    ("nested_cv_report", lambda v: nested_cv_report(_nested().fit(X, y), random_state=v)),
    ("plot_fold_scores", lambda v: plot_fold_scores(_nested().fit(X, y), random_state=v)),
    ("benchmark",
     lambda v: benchmark({"m": (DummyClassifier(), GRID)}, {"d": (X, y)}, random_state=v)),
    ("audit", lambda v: audit(DummyClassifier(), X, y, random_state=v)),
    ("permutation_check", lambda v: permutation_check(DummyClassifier(), X, y, random_state=v)),
    ("Bootstrap", lambda v: next(Bootstrap(random_state=v).split(X, y))),
    ("HoldoutSplit", lambda v: next(HoldoutSplit(random_state=v).split(X, y))),
    ("QuantileStratifiedKFold",
     lambda v: next(QuantileStratifiedKFold(random_state=v).split(X, np.arange(20.0)))),
    ("RepeatedQuantileStratifiedKFold",
     lambda v: next(RepeatedQuantileStratifiedKFold(random_state=v).split(X, np.arange(20.0)))),
    ("StratifiedGraphKFold", lambda v: next(StratifiedGraphKFold(random_state=v).split(GRAPHS))),
    ("NestedCV", lambda v: _nested(v).fit(X, y)),
    ("nested_cross_validate",
     lambda v: nested_cross_validate(DummyClassifier(), X, y, param_grid=GRID, random_state=v)),
    ("nested_cross_val_score",
     lambda v: nested_cross_val_score(DummyClassifier(), X, y, param_grid=GRID, random_state=v)),
    ("nested_cross_val_predict",
     lambda v: nested_cross_val_predict(DummyClassifier(), X, y, param_grid=GRID,
                                        random_state=v)),
    ("nested_cv_interval", lambda v: nested_cv_interval(DummyClassifier(), X, y, random_state=v)),
    # an int or None only: the same seed draws the same entries
    ("verify_cache",
     lambda v: verify_cache(_nested(cache_dir="unused"), X, y, random_state=v)),
]  # fmt: skip
if importlib.util.find_spec("imblearn"):
    ENTRY_POINTS.append(("RandomGraphUnderSampler", _undersample))
if all(importlib.util.find_spec(name) for name in ("torch", "torch_geometric", "skorch")):
    ENTRY_POINTS.append(("GraphClassifier", _graph_classifier))

BAD_SEEDS = [True, False, np.True_, -1, 2**32, 1.5, "0"]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("value", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize("owner, call", ENTRY_POINTS, ids=lambda v: v if isinstance(v, str) else "")
def test_a_bad_random_state_is_refused_by_one_check(owner, call, value):
    # before: benchmark's error named check_random_state or NestedCV, the sampler's (for True)
    # check_random_state; BenchmarkResult took any value (True seeded its intervals with 1, 1.5
    # with 0); verify_cache took -1 and 2**32 and said "an int or None"
    match = (
        rf"^The 'random_state' parameter of {re.escape(owner)} must be None(, | or )an int in "
        rf"the range \[0, 4294967295\].* Got {re.escape(repr(value))} instead\.$"
    )
    with pytest.raises(InvalidParameterError, match=match):
        call(value)


@pytest.mark.parametrize(
    "value",
    [np.int64(3), np.random.RandomState(0), np.random.default_rng(0), None],
    ids=["int64", "RandomState", "Generator", "None"],
)
def test_benchmark_result_takes_every_random_state(value):
    # what nested_cv_report gives it: a fitted NestedCV's random_state, whatever its kind
    assert _result(value).random_state is value
    assert _result(value).table(statistic="iqm").shape == (2, 2)
