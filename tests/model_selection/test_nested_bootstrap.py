"""NestedCV after a bootstrap outer_cv: the analysis set repeats rows, and model selection
splits its distinct rows, so that no row validates a model trained on a copy of it."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.model_selection import HalvingGridSearchCV, KFold
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SplitLeakageWarning
from sklearn_fair.model_selection import Bootstrap, HoldoutSplit

X, Y = make_classification(120, 5, random_state=0, flip_y=0.3)
GRID = {"n_neighbors": [1, 5, 15]}


class _Recorder(ClassifierMixin, BaseEstimator):
    """Predicts the majority class; records the rows (their ids, column 0) of every fit and
    how many of the rows it predicts it was trained on."""

    log = []

    def __init__(self, level=0):
        self.level = level

    def fit(self, X, y):
        self.classes_, counts = np.unique(y, return_counts=True)
        self.rows_ = X[:, 0].astype(int)
        _Recorder.log.append(("fit", self.rows_))
        return self

    def predict(self, X):
        _Recorder.log.append(("seen", np.intersect1d(X[:, 0].astype(int), self.rows_).size))
        return np.full(len(X), self.classes_[0])


@pytest.mark.filterwarnings("ignore::sklearn_fair.exceptions.SelectionTieWarning")
@pytest.mark.parametrize(
    "inner_cv", [None, HoldoutSplit(0.2, random_state=0), KFold(3, shuffle=True, random_state=0)]
)
def test_no_row_validates_a_model_trained_on_its_copy(inner_cv):
    ids = np.column_stack([np.arange(len(Y)), X])
    _Recorder.log.clear()
    nested = NestedCV(_Recorder(), {"level": [0, 1]}, outer_cv=Bootstrap(3, random_state=0),
                      inner_cv=inner_cv, random_state=0, n_refits=1).fit(ids, Y)  # fmt: skip
    # before: most inner validation rows had a copy among the rows the model trained on
    assert [seen for kind, seen in _Recorder.log if kind == "seen"] == [0] * (
        sum(kind == "seen" for kind, _ in _Recorder.log)
    )
    outer = [np.asarray(f["train_indices"]) for f in nested.outer_results_]
    assert all(np.unique(train).size < train.size for train in outer)  # rows repeat
    # a selection fit trains on every copy of each of its rows, as many as the resample drew
    # (or, the final model's, of the whole data set)
    copies = [dict(zip(*np.unique(t, return_counts=True))) for t in [*outer, np.arange(len(Y))]]
    for rows in (rows for kind, rows in _Recorder.log if kind == "fit"):
        drawn = dict(zip(*np.unique(rows, return_counts=True)))
        assert any(all(c.get(r) == n for r, n in drawn.items()) for c in copies)


def test_a_search_run_whole_on_repeated_rows_is_warned_about():
    search = HalvingGridSearchCV(KNeighborsClassifier(), GRID, cv=3, random_state=0)
    with pytest.warns(SplitLeakageWarning, match="whose rows repeat"):
        NestedCV(search, outer_cv=Bootstrap(2, random_state=0), random_state=0,
                 n_refits=1).fit(X, Y)  # fmt: skip
    with warnings.catch_warnings():  # outer folds without repeated rows: nothing to say
        warnings.simplefilter("error", SplitLeakageWarning)
        NestedCV(search, outer_cv=KFold(2, shuffle=True, random_state=0), random_state=0,
                 n_refits=1).fit(X, Y)  # fmt: skip
