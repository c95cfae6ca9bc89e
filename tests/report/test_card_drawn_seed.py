"""The reproducibility card of a NestedCV run whose random_state was None or a RandomState
prints the root the run drew, marked as drawn, and passing it as random_state reproduces the
run byte for byte; never a memory address."""

import json
import re

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.report import reproducibility_card, result_to_dict

X, Y = load_iris(return_X_y=True)
DRAWN = re.compile(
    r"random_state: (None|RandomState\(MT19937\)) \(drew (\d+): pass it to reproduce\)"
)


def _nested(random_state):
    return NestedCV(
        DecisionTreeClassifier(max_features=1),
        {"max_depth": [1, 2, 3]},
        outer_cv=3,
        n_refits=2,
        refit=False,
        random_state=random_state,
    ).fit(X, Y)


def _same_run(first, second):
    assert first.outer_scores_.tobytes() == second.outer_scores_.tobytes()
    assert first.refit_seeds_ == second.refit_seeds_
    for key in ("mean_test_score", "split0_test_score"):
        assert first.cv_results_[key].tobytes() == second.cv_results_[key].tobytes()


def _printed_root(card, given):
    (match,) = DRAWN.finditer(str(card))
    assert match.group(1) == given
    return int(match.group(2))


@pytest.mark.parametrize(
    "given, make",
    [("None", lambda: None), ("RandomState(MT19937)", lambda: np.random.RandomState(0))],
)
def test_the_printed_root_reproduces_the_run(given, make):
    nested = _nested(make())
    card = reproducibility_card(nested, X=X, y=Y)
    root = _printed_root(card, given)
    assert root == nested.random_state_root_
    _same_run(nested, _nested(root))
    saved = json.loads(json.dumps(card.to_dict()))
    assert saved["drawn_roots"] == {"random_state": root}
    assert saved["seeds"]["random_state"] == (None if given == "None" else given)
    assert " at 0x" not in str(card) and isinstance(card.seeds["random_state"], (str, type(None)))


def test_a_saved_result_keeps_the_root():
    nested = _nested(None)
    saved = json.loads(json.dumps(result_to_dict(nested)))
    assert saved["random_state"] is None
    assert saved["random_state_root"] == nested.random_state_root_
    root = _printed_root(reproducibility_card(saved), "None")
    _same_run(nested, _nested(root))


def test_an_int_random_state_is_printed_as_given():
    nested = _nested(7)
    assert nested.random_state_root_ == 7
    assert "random_state_root" not in result_to_dict(nested)
    card = reproducibility_card(nested)
    assert card.seeds["random_state"] == 7 and card.drawn_roots == {}
    assert "drew" not in str(card)
