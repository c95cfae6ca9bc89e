"""Edges of the stats entry points: scorer names, non-numeric tables, parameters that would be
ignored, the advice an error gives, and losses in the correlated Bayesian t-test."""

import baycomp
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import cohen_kappa_score, make_scorer
from sklearn.model_selection import StratifiedShuffleSplit, cross_val_score
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair.stats import (
    bayesian_correlated_ttest,
    mean_interval,
    multiple_comparison,
    paired_subsampling_scores,
    rank_comparison,
    summarize,
)


def test_paired_subsampling_scores_takes_the_packages_scorer_names():
    X, y = make_classification(n_samples=120, random_state=0)
    result = paired_subsampling_scores(
        LogisticRegression(), X, y, scoring="kappa", n_splits=3, n_pairs=2,
        random_state=np.random.RandomState(0),
    )  # fmt: skip
    # the first J splits are those of a StratifiedShuffleSplit of all the rows, drawn first
    splits = StratifiedShuffleSplit(
        n_splits=3, test_size=12, random_state=np.random.RandomState(0)
    ).split(X, y)
    expected = cross_val_score(
        LogisticRegression(), X, y, cv=list(splits), scoring=make_scorer(cohen_kappa_score)
    )
    np.testing.assert_allclose(result.scores, expected, rtol=0, atol=1e-12)
    # the halves' splits, drawn from the same seed, scored by scikit-learn's kappa scorer
    reference = paired_subsampling_scores(
        LogisticRegression(), X, y, scoring=make_scorer(cohen_kappa_score), n_splits=3,
        n_pairs=2, random_state=np.random.RandomState(0),
    )  # fmt: skip
    np.testing.assert_allclose(result.half_scores, reference.half_scores, rtol=0, atol=1e-12)


def test_paired_subsampling_scores_refuses_an_unknown_scorer_name():
    X, y = make_classification(n_samples=60, random_state=0)
    with pytest.raises(InvalidParameterError, match="'scoring'.*Got 'kapa' instead") as info:
        paired_subsampling_scores(LogisticRegression(), X, y, scoring="kapa")
    message = str(info.value)
    assert "paired_subsampling_scores" in message
    assert "'kappa'" in message and "'accuracy'" in message


_NAMED = pd.DataFrame(
    {
        "dataset": ["iris", "wine", "digits", "adult", "credit"],
        "forest": [0.90, 0.80, 0.70, 0.85, 0.60],
        "boost": [0.85, 0.82, 0.69, 0.80, 0.62],
        "linear": [0.60, 0.70, 0.65, 0.70, 0.50],
    }
)


@pytest.mark.parametrize("compare", [rank_comparison, multiple_comparison])
def test_a_name_column_is_refused_naming_it_and_the_index_to_use(compare):
    with pytest.raises(ValueError, match="'scores'") as info:
        compare(_NAMED)
    message = str(info.value)
    assert "column 'dataset' holds 'iris'" in message
    assert "scores.set_index('dataset')" in message
    # what the advice gives: the table of the numeric columns
    advised = rank_comparison(_NAMED.set_index("dataset")).average_ranks
    assert advised == rank_comparison(_NAMED[["forest", "boost", "linear"]]).average_ranks


def test_names_in_a_list_of_rows_are_refused_naming_the_cell():
    rows = [["iris", 0.9, 0.8, 0.7], ["wine", 0.8, 0.7, 0.6]]
    with pytest.raises(ValueError, match="'scores'.*row 0, column 0 holds 'iris'.*set_index"):
        rank_comparison(rows)


@pytest.mark.parametrize("compare", [rank_comparison, multiple_comparison])
def test_a_ragged_list_is_refused_asking_one_score_per_model(compare):
    with pytest.raises(
        ValueError, match=r"'scores'.*one score per model.*row 0 has 3 score\(s\), row 1 has 2"
    ):
        compare([[0.9, 0.8, 0.7], [0.8, 0.7], [0.6, 0.5, 0.4]])


def test_bayesian_correlated_ttest_refuses_rho_with_sizes():
    a = [0.81, 0.84, 0.79, 0.88, 0.83]
    b = [0.78, 0.80, 0.79, 0.83, 0.80]
    # n_train=80, n_test=20 imply rho = 20 / 100
    with pytest.raises(
        ValueError, match=r"'rho' parameter \(0.5\).*n_train=80 and n_test=20.*imply rho=0.2"
    ):
        bayesian_correlated_ttest(a, b, rho=0.5, n_train=80, n_test=20)
    with pytest.raises(ValueError, match=r"'rho' parameter \(0.5\).*n_test=20"):
        bayesian_correlated_ttest(a, b, rho=0.5, n_test=20)


@pytest.mark.parametrize(
    "given, method",
    [
        ({"n_train": 80, "n_test": 20}, "corrected_t"),
        ({"half_scores": [[0.80, 0.82], [0.81, 0.83]]}, "conservative_z"),
    ],
)
def test_an_unused_interval_input_names_the_callers_parameter(given, method):
    scores = [0.81, 0.84, 0.79, 0.88, 0.83]
    with pytest.raises(ValueError, match=f"Pass method='{method}'"):
        mean_interval(scores, **given)
    # following the advice works
    mean_interval(scores, method=method, **given)
    with pytest.raises(ValueError, match=f"Pass interval='{method}'"):
        summarize(scores, **given)


def test_bayesian_correlated_ttest_reads_a_loss():
    rmse_a = np.array([0.50, 0.53, 0.49, 0.52, 0.50])  # lower: the better model
    rmse_b = np.array([0.60, 0.63, 0.58, 0.61, 0.64])
    result = bayesian_correlated_ttest(
        rmse_a, rmse_b, rope=0.01, n_train=80, n_test=20, greater_is_better=False
    )
    # baycomp on the negated losses (scores, higher better); one run of 5 folds: rho = 1 / 5.
    # Its probabilities are (left, rope, right) of b - a: left is a better.
    left, rope, right = baycomp.CorrelatedTTest.probs(-rmse_a, -rmse_b, rope=0.01, runs=1)
    ours = (result.p_a_better, result.p_equivalent, result.p_b_better)
    assert ours == pytest.approx((left, rope, right), abs=1e-12)
    assert result.p_a_better > 0.99


def test_bayesian_correlated_ttest_validates_greater_is_better():
    with pytest.raises(InvalidParameterError, match="'greater_is_better'.*Got 'no' instead"):
        bayesian_correlated_ttest([0.8, 0.9], [0.7, 0.8], rho=0.2, greater_is_better="no")
