"""The reports' outputs for a target that is not one binary column: a multilabel target's
predictions are drawn one confusion matrix a label, the ``score`` column of the predictions
is a binary target's alone, and the card gives a 2-D numeric target's fold means column by
column."""

import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_multilabel_classification, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import multilabel_confusion_matrix
from sklearn.model_selection import GridSearchCV, KFold, cross_val_predict
from sklearn.multiclass import OneVsRestClassifier
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.report import nested_cv_report, reproducibility_card

pytest.importorskip("matplotlib")

OUTER = KFold(5)
GRID = {"n_neighbors": [3, 5]}


def _benchmark(models, data, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            models, data, outer_cv=kwargs.pop("outer_cv", OUTER), inner_cv=3, n_refits=1,
            random_state=0, keep_predictions=True, **kwargs,
        )  # fmt: skip


@pytest.fixture(scope="module")
def multilabel():
    return make_multilabel_classification(n_samples=100, n_features=6, n_classes=3, random_state=0)


def test_a_multilabel_target_is_drawn_one_confusion_matrix_a_label(multilabel):
    X, Y = multilabel
    result = _benchmark({"knn": (KNeighborsClassifier(), GRID)}, {"ml": (X, Y)},
                        scoring="f1_samples")  # fmt: skip
    search = GridSearchCV(KNeighborsClassifier(), GRID, cv=3, scoring="f1_samples")
    matrices = multilabel_confusion_matrix(Y, cross_val_predict(search, X, Y, cv=OUTER))
    figure = result.plot_predictions("ml", "knn")
    drawn = [ax for ax in figure.axes if ax.get_visible() and ax.images]
    assert [ax.get_title() for ax in drawn] == [
        f"label {k}: confusion matrix (rows sum to 1)" for k in range(3)
    ]
    for ax, matrix in zip(drawn, matrices):
        expected = matrix / matrix.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(ax.images[0].get_array(), expected)
    assert "label 2: confusion matrix" in result.to_html()


def test_a_nested_report_of_a_multilabel_target_renders(multilabel):
    X, Y = multilabel
    nested = NestedCV(
        KNeighborsClassifier(), GRID, outer_cv=OUTER, inner_cv=3, scoring="f1_samples",
        keep_predictions=True,
    ).fit(X, Y)  # fmt: skip
    assert "label 0: confusion matrix" in nested_cv_report(nested).to_html()


def test_a_target_of_many_labels_is_not_drawn_and_says_why():
    X, Y = make_multilabel_classification(n_samples=60, n_features=6, n_classes=12, random_state=0)
    result = _benchmark({"knn": (KNeighborsClassifier(), GRID)}, {"ml": (X, Y)},
                        scoring="f1_samples", outer_cv=KFold(3))  # fmt: skip
    with pytest.raises(ValueError, match="a target of 12 columns.*at most 10"):
        result.plot_predictions("ml", "knn")
    page = result.to_html()
    assert "confusion matrix" not in page
    # and the report says why the model's predictions are missing there
    assert "knn: the predictions of a target of more than 10 columns are not drawn" in page


def test_the_score_column_is_a_binary_targets_alone(multilabel):
    rng = np.random.RandomState(0)
    X = rng.randn(90, 4)
    c = np.array([0] * 40 + [1] * 40 + [2] * 10)
    X[:, 0] += c
    y = np.array(["ant", "bee", "cat"])[c]  # "cat" only in the last outer test fold
    grid = {"C": [0.1, 1.0]}
    three = _benchmark({"lr": (LogisticRegression(), grid)}, {"d": (X, y)}, outer_cv=KFold(3))
    assert "score" not in three.predictions
    Xm, Ym = multilabel
    ovr = OneVsRestClassifier(LogisticRegression())
    labels = _benchmark({"ovr": (ovr, {"estimator__C": [0.1, 1.0]})}, {"ml": (Xm, Ym[:, :2])},
                        scoring="f1_samples")  # fmt: skip
    assert "score" not in labels.predictions
    # a binary target's: the positive class's probability, as scikit-learn's idiom gives it
    binary = np.where(c == 0, "ant", "bee")
    two = _benchmark({"lr": (LogisticRegression(), grid)}, {"d": (X, binary)}, outer_cv=KFold(3))
    proba = cross_val_predict(
        GridSearchCV(LogisticRegression(), grid, cv=3), X, binary, cv=KFold(3),
        method="predict_proba",
    )  # fmt: skip
    np.testing.assert_allclose(two.predictions.sort_values("row")["score"], proba[:, 1])


def test_the_card_gives_a_2d_targets_fold_means_column_by_column():
    X, Y = make_regression(n_samples=100, n_features=5, n_targets=2, noise=5, random_state=0)
    Y[:, 1] = Y[:, 1] * 10 + 1000
    nested = NestedCV(Ridge(), {"alpha": [0.1, 10.0]}, outer_cv=OUTER, random_state=0).fit(X, Y)
    card = reproducibility_card(nested, X=X, y=Y)
    how = {item: how for item, _, how in card.checklist}["stratified splits"]
    found = re.findall(
        r"from (\S+) to (\S+) \(all data: (\S+)\) in column (\d)", how.replace(",", " ")
    )
    assert [int(column) for *_, column in found] == [0, 1]
    fold_means = np.array([Y[test].mean(axis=0) for _, test in OUTER.split(X)])
    for *numbers, column in found:
        column = int(column)
        expected = [fold_means[:, column].min(), fold_means[:, column].max(), Y[:, column].mean()]
        np.testing.assert_allclose([float(n) for n in numbers], expected, rtol=5e-4, atol=0.01)


def test_the_card_lists_no_fold_means_for_a_target_of_many_columns():
    X, Y = make_regression(n_samples=60, n_features=5, n_targets=4, noise=5, random_state=0)
    nested = NestedCV(Ridge(), {"alpha": [0.1, 10.0]}, outer_cv=KFold(3), random_state=0).fit(X, Y)
    card = reproducibility_card(nested, X=X, y=Y)
    how = {item: how for item, _, how in card.checklist}["stratified splits"]
    assert how.endswith(
        "the outer test folds' target means are not listed for the target's 4 columns"
    )
    assert "range from" not in how
