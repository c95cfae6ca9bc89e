"""What result_to_dict, the reports and the reproducibility card record of a fitted NestedCV
is what its fit ran with (random_state, error_score, the task), not parameters set for the
next fit since with set_params, as scikit-learn's fitted attributes describe the fit."""

import json
import re

import numpy as np
from sklearn.datasets import load_iris
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.report import nested_cv_report, reproducibility_card, result_to_dict

X, Y = load_iris(return_X_y=True)
_ORDER = np.random.RandomState(0).permutation(len(Y))
X, Y = X[_ORDER], Y[_ORDER]
# a marker column: a fit on more than 100 rows that holds row 0 fails (two of three refits)
X = np.c_[X, np.zeros(len(Y))]
X[0, -1] = 999


class _FailsOnRowZero(DecisionTreeClassifier):
    def fit(self, X, y, **kw):
        if len(X) >= 100 and (X[:, -1] == 999).any():
            raise RuntimeError("boom")
        return super().fit(X, y, **kw)


def _fitted():
    return NestedCV(
        _FailsOnRowZero(max_features=1),
        {"max_depth": [1, 3]},
        outer_cv=KFold(3),
        inner_cv=KFold(3),
        n_refits=1,
        refit=False,
        random_state=None,
        error_score=-1.0,
    ).fit(X, Y)


def _set_for_next_fit(nested):
    return nested.set_params(random_state=0, error_score=np.nan, estimator=Ridge())


def test_saved_result_describes_the_fit_after_set_params():
    nested = _fitted()
    # the two outer folds whose training rows hold row 0 failed: scored error_score
    test_folds = [np.arange(0, 50), np.arange(50, 100), np.arange(100, 150)]
    assert np.array_equal(nested.outer_scores_ == -1.0, [0 not in t for t in test_folds])
    at_fit = json.loads(json.dumps(result_to_dict(nested)))
    assert at_fit["random_state"] is None
    assert at_fit["random_state_root"] == nested.random_state_root_
    assert at_fit["error_score"] == -1.0
    assert at_fit["task"] == "classification"

    after = json.loads(json.dumps(result_to_dict(_set_for_next_fit(nested))))
    assert after == at_fit
    # the document reads back: its failed folds' -1.0 is the error_score it records
    report = nested_cv_report({"m": after}, n_resamples=100)
    assert report.to_markdown()


def test_card_and_report_describe_the_fit_after_set_params():
    nested = _fitted()
    root = nested.random_state_root_
    card = reproducibility_card(_set_for_next_fit(nested))
    assert card.task == "classification"  # what its stratification answer reads
    seeds = next(line for line in card.to_text().splitlines() if line.startswith("Seeds:"))
    assert re.search(rf"random_state: None \(drew {root}: pass it to reproduce\)", seeds), seeds
    report = nested_cv_report({"m": nested}, n_resamples=100)
    (cell,) = report.result.cells.values()
    assert (cell.task, cell.random_state, cell.random_state_root) == ("classification", None, root)
    assert cell.error_score == -1.0


def test_summary_notes_name_the_fit_error_score():
    nested = _set_for_next_fit(_fitted())
    (note,) = [n for n in nested.summary().notes if "error_score" in n]
    assert "error_score=-1.0" in note
