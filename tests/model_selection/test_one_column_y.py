"""A target given as one column (``y.to_frame()``, ``df[["label"]]``, shape ``(n, 1)``) is read
as that column by every check that reads the labels, as scikit-learn's classifiers read it
(hunt MULTI): the checks returned at once for a 2-D y, so a one-class rate passed for a
metric of three classes, the card called stratified folds not stratified, audit missed an
undersampling before the split, and one class got scikit-learn's generic failure."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from sklearn_fair import NestedCV, audit
from sklearn_fair.model_selection import nested_cross_validate
from sklearn_fair.report import reproducibility_card

X_IRIS, Y_IRIS = load_iris(return_X_y=True, as_frame=True)


@pytest.mark.parametrize("as_column", [lambda y: y.to_frame(), lambda y: y.to_numpy()[:, None]])
def test_a_one_class_rate_of_a_one_column_multiclass_y_is_refused(as_column):
    # it scored class 1's recall against the rest of 3 classes: [1. 1. 0.8 0.9 1.]
    for y in (Y_IRIS, as_column(Y_IRIS)):
        with pytest.raises(ValueError, match=r"names 'sensitivity'.*y holds 3 classes"):
            nested_cross_validate(
                LogisticRegression(max_iter=300), X_IRIS, y, param_grid={"C": [0.01, 1.0]},
                cv=5, inner_cv=3, scoring="sensitivity", n_refits=1, random_state=0,
            )  # fmt: skip


def test_the_card_reads_the_stratification_of_a_one_column_y():
    outer = StratifiedKFold(5, shuffle=True, random_state=0)
    counts = [np.bincount(Y_IRIS.to_numpy()[test]) for _, test in outer.split(X_IRIS, Y_IRIS)]
    assert all(c.tolist() == [10, 10, 10] for c in counts)  # stratified by any reading
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            LogisticRegression(max_iter=300), {"C": [0.1, 1.0]}, outer_cv=outer, inner_cv=3,
            n_refits=1, random_state=0, refit=False,
        ).fit(X_IRIS, Y_IRIS.to_frame())  # fmt: skip
    for y in (Y_IRIS, Y_IRIS.to_frame(), Y_IRIS.to_numpy()[:, None]):
        card = reproducibility_card(nested, X=X_IRIS, y=y)
        [(_, answer, _)] = [item for item in card.checklist if item[0] == "stratified splits"]
        assert answer == "yes"  # "no, the outer test folds are not stratified by class"


def _undersample(X, y):
    # the majority class cut on all the data before any split: 357 -> 212 rows of class 1
    labels = np.asarray(y).ravel()
    keep = np.r_[np.flatnonzero(labels == 0), np.flatnonzero(labels == 1)[:212]]
    return X.iloc[keep], y.iloc[keep]


def test_audit_flags_an_undersampling_before_the_split_of_a_one_column_y():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    expected = (0, pytest.approx(212 / 569), 0.5)
    for target in (y, y.to_frame()):
        result = audit(
            LogisticRegression(max_iter=50), X, target, prepare=_undersample, n_permutations=2,
            random_state=0,
        )  # fmt: skip
        assert result.share_changed == expected
        assert result.resampled_before_split
        assert any(flag.startswith("resampling before splitting") for flag in result.flags)


def test_one_class_in_a_one_column_y_gets_the_packages_message():
    y = np.zeros(len(Y_IRIS), dtype=int)
    for target in (y, y[:, None]):
        with pytest.raises(ValueError, match=r"y holds 1 class \(0\); a classifier needs"):
            NestedCV(LogisticRegression(), {"C": [1.0]}, outer_cv=3, inner_cv=3).fit(X_IRIS, target)
