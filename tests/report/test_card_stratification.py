"""The card's "stratified splits" item for a numeric target: outer splits made by a quantile
stratified splitter are stratified (on quantile bins of y), others are "not applicable"."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import (
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
)
from sklearn_fair.report import reproducibility_card

X, Y = load_diabetes(return_X_y=True)
X, Y = X[:120], Y[:120]


def _fit(outer_cv, inner_cv=2):
    return NestedCV(
        Ridge(), {"alpha": [0.1, 10.0]}, outer_cv=outer_cv, inner_cv=inner_cv, n_refits=1,
        scoring="neg_mean_absolute_error", random_state=0,
    ).fit(X, Y)  # fmt: skip


def _stratification(results):
    card = reproducibility_card(results, X=X, y=Y)
    return {item: (answer, how) for item, answer, how in card.checklist}["stratified splits"]


def _quartile_counts(test_indices):
    """Each outer test fold's count of each quartile bin of Y, by hand."""
    bins = np.digitize(Y, np.quantile(Y, [0.25, 0.5, 0.75]), right=True)
    return np.array([np.bincount(bins[test], minlength=4) for test in test_indices])


@pytest.mark.parametrize(
    "outer_cv, name",
    [
        (QuantileStratifiedKFold(4, random_state=0), "QuantileStratifiedKFold"),
        (
            RepeatedQuantileStratifiedKFold(3, n_repeats=2, random_state=0),
            "RepeatedQuantileStratifiedKFold",
        ),
    ],
)
def test_quantile_stratified_outer_splits_are_stratified(outer_cv, name):
    nested = _fit(outer_cv)
    # the folds are stratified indeed: each quartile of y spread evenly (within 1) over the
    # folds of one partition
    counts = _quartile_counts([fold["test_indices"] for fold in nested.outer_results_])
    n_splits = outer_cv.n_splits
    for start in range(0, len(counts), n_splits):
        assert np.ptp(counts[start : start + n_splits], axis=0).max() <= 1
    answer, how = _stratification({"ridge": nested})
    assert answer == "yes"
    assert "quantile bins" in how and f"({name})" in how
    assert "no classes to stratify by" not in how


def test_other_outer_splits_of_a_numeric_target_are_not_applicable():
    # an inner quantile stratified splitter does not stratify the outer test folds
    nested = _fit(
        KFold(4, shuffle=True, random_state=0), QuantileStratifiedKFold(2, random_state=0)
    )
    answer, how = _stratification({"ridge": nested})
    assert answer == "not applicable" and "no classes to stratify by" in how


def test_some_models_on_quantile_strata_and_some_not():
    results = {
        "binned": _fit(QuantileStratifiedKFold(4, random_state=0)),
        "plain": _fit(KFold(4, shuffle=True, random_state=0)),
    }
    answer, how = _stratification(results)
    assert answer == "no" and "only the outer splits of binned" in how
