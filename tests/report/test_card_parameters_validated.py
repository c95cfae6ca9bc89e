"""reproducibility_card checks its parameters as nested_cv_report does: ``stratified`` is a bool
or None (``"no"`` was read as true, and the card said "stratified splits: yes"), and
``splits_file`` a path or None."""

import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SklearnFairWarning
from sklearn_fair.model_selection import save_splits
from sklearn_fair.report import nested_cv_report, reproducibility_card

X, Y = load_iris(return_X_y=True)  # sorted by class: KFold(3) tests one class a fold
FOLDS = list(KFold(3).split(X, Y))


@pytest.fixture(scope="module")
def nested():
    with warnings.catch_warnings():  # each fold tests a class its training rows lack
        warnings.simplefilter("ignore", SklearnFairWarning)
        return NestedCV(
            LogisticRegression(max_iter=200), {"C": [0.1, 1.0]}, outer_cv=KFold(3), inner_cv=2,
            refit=False, random_state=0,
        ).fit(X, Y)  # fmt: skip


def _stratified(card):
    return {item: (answer, how) for item, answer, how in card.checklist}["stratified splits"]


def test_folds_are_not_stratified(nested):
    # the reference: each outer test fold of KFold(3) on the sorted iris holds one class
    counts = [np.bincount(Y[test], minlength=3) for _, test in FOLDS]
    assert [int(np.count_nonzero(c)) for c in counts] == [1, 1, 1]
    answer, _ = _stratified(reproducibility_card(nested, X=X, y=Y))
    assert answer == "no"


@pytest.mark.parametrize("stratified", ["no", "x", "yes", 0, 1, 1.0])
def test_stratified_not_a_bool_is_refused(nested, stratified):
    message = (
        "The 'stratified' parameter of reproducibility_card must be an instance of 'bool' or "
        f"an instance of 'numpy.bool' or None. Got {stratified!r} instead."
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        reproducibility_card(nested, X=X, y=Y, stratified=stratified)
    # the same refusal as nested_cv_report's
    with pytest.raises(InvalidParameterError, match="'stratified' parameter of nested_cv_report"):
        nested_cv_report(nested, X=X, y=Y, stratified=stratified)


@pytest.mark.parametrize("stratified, answer", [(False, "no"), (True, "yes"), (np.False_, "no")])
def test_stratified_bool_is_the_answer(nested, stratified, answer):
    given, how = _stratified(reproducibility_card(nested, X=X, y=Y, stratified=stratified))
    assert (given, how) == (answer, f"as stated by the caller (stratified={stratified})")


@pytest.mark.parametrize("splits_file", [123, 1.5, b"splits.json", ["splits.json"]])
def test_splits_file_not_a_path_is_refused(nested, splits_file):
    message = (
        "The 'splits_file' parameter of reproducibility_card must be an instance of 'str', "
        "an instance of 'os.PathLike' or None. Got"
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        reproducibility_card(nested, X=X, y=Y, splits_file=splits_file)


def test_splits_file_as_str_or_path(nested, tmp_path):
    path = tmp_path / "splits.json"
    save_splits(FOLDS, path, y=Y)
    for given in (path, str(path)):
        card = reproducibility_card(nested, X=X, y=Y, splits_file=given)
        assert card.splits_file == str(path)
        answer, _ = {item: rest for item, *rest in card.checklist}["data splits saved"]
        assert answer == "yes"
