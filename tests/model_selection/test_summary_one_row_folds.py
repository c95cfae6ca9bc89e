"""A summary over outer folds that each test one row (LeaveOneOut) says that the median and the
IQM of the fold scores are those of single rows (hunt BOOT-2): of 40 rows scored 0 or 1, the
median and the IQM were 1.0 where the model's accuracy (the mean) was 0.85."""

import warnings

import numpy as np
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, LeaveOneOut

from sklearn_fair import NestedCV
from sklearn_fair.stats._interval import ONE_ROW_TESTS_NOTE

X, y = make_classification(40, 5, flip_y=0.1, random_state=0)


def _summary(outer_cv, interval):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            LogisticRegression(), {"C": [0.01, 1]}, outer_cv=outer_cv, inner_cv=KFold(3),
            n_refits=1, random_state=0, refit=False,
        ).fit(X, y)  # fmt: skip
    return nested, nested.summary(interval=interval)


def test_one_row_folds_are_noted_whatever_the_interval():
    for interval in ("corrected_t", "t"):
        nested, summary = _summary(LeaveOneOut(), interval)
        scores = nested.outer_scores_
        assert set(np.unique(scores)) <= {0.0, 1.0}
        # the numbers themselves stand: scipy's 25% trimmed mean is the IQM
        assert summary.iqm == stats.trim_mean(scores, 0.25) == 1.0
        assert summary.mean == scores.mean() < 1.0
        assert ONE_ROW_TESTS_NOTE in summary.notes
        assert "show the usual outcome of a row" in str(summary)


def test_folds_of_several_rows_are_not_noted():
    _, summary = _summary(KFold(5), "corrected_t")
    assert ONE_ROW_TESTS_NOTE not in summary.notes
