"""plot_fold_scores of a model whose outer folds failed: its row draws the folds that scored
and says n/a, how many folds failed, with no mean or interval (as the report's table prints
n/a); it raised "The 'scores' parameter contains NaN", a parameter the plot does not have."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV
from sklearn_fair.report import plot_fold_scores

from ._figures import cut_texts

pytest.importorskip("matplotlib")

X, y = make_classification(120, 4, random_state=0)
MODELS = {
    "knn": (KNeighborsClassifier(), {"n_neighbors": [3, 7]}),
    "logistic": (LogisticRegression(), {"C": [0.1, 1.0]}),
}


def _fold_0(X_):
    return len(X_) == 40 and np.array_equal(X_[0], X[0])


def nan_knn(estimator, X_, y_):
    """The accuracy, but NaN for the k-NN's outer fold 0."""
    if isinstance(estimator, KNeighborsClassifier) and _fold_0(X_):
        return np.nan
    return accuracy_score(y_, estimator.predict(X_))


def raising_knn(estimator, X_, y_):
    """The accuracy, but an error for the k-NN's outer fold 0."""
    if isinstance(estimator, KNeighborsClassifier) and _fold_0(X_):
        raise RuntimeError("the scorer broke on this fold")
    return accuracy_score(y_, estimator.predict(X_))


def _fitted(scoring, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the failed fold's warnings
        return {
            name: NestedCV(
                model, grid, outer_cv=KFold(3), inner_cv=3, scoring=scoring, n_refits=1,
                random_state=0, refit=False, **params,
            ).fit(X, y)
            for name, (model, grid) in MODELS.items()
        }  # fmt: skip


def _reference(name):
    """The outer folds' accuracies of the same protocol in scikit-learn."""
    model, grid = MODELS[name]
    return cross_validate(GridSearchCV(model, grid, cv=3), X, y, cv=KFold(3))["test_score"]


def _row(ax, position):
    """The dots and the error bars' centres drawn in a row (the mean on it, the IQM above)."""
    from matplotlib.collections import PathCollection  # the scatters' dots

    scatters = [c.get_offsets() for c in ax.collections if isinstance(c, PathCollection)]
    dots = np.concatenate([np.reshape(d, (-1, 2)) for d in scatters])
    dots = np.sort(dots[np.abs(dots[:, 1] - position) <= 0.15 + 1e-9][:, 0]).tolist()
    bars = [
        (c.lines[0].get_xdata()[0], c.lines[0].get_ydata()[0])
        for c in ax.containers
        if position - 0.3 - 1e-9 <= c.lines[0].get_ydata()[0] <= position + 1e-9
    ]
    return dots, bars


@pytest.mark.parametrize(
    "scoring, params", [(nan_knn, {}), (raising_knn, {"error_score": 0.0})], ids=["nan", "0.0"]
)
def test_a_failed_models_row_says_na_and_draws_the_folds_that_scored(scoring, params):
    fitted = _fitted(scoring, **params)
    figure = plot_fold_scores(fitted)
    ax = figure.axes[0]
    labels = [label.get_text() for label in ax.get_yticklabels()]
    assert labels == ["knn (n/a: 1 of 3 folds failed)", "logistic"]
    knn = _reference("knn")
    dots, bars = _row(ax, 0)
    # the two folds that scored, no error_score placeholder, and no mean or interval
    assert dots == pytest.approx(np.sort(knn[1:]), abs=1e-12)
    assert bars == []
    # the other model's row: its three folds, its mean and IQM
    logistic = _reference("logistic")
    dots, bars = _row(ax, 1)
    assert dots == pytest.approx(np.sort(logistic), abs=1e-12)
    assert [b[1] for b in bars] == pytest.approx([1, 0.7])
    assert bars[0][0] == pytest.approx(np.mean(logistic), abs=1e-12)
    # the legend names the dots and both intervals, though the first row draws no interval
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert legend == [
        "outer folds",
        "mean, 95% interval (corrected t, 2 df)",
        "IQM, 95% interval (percentile bootstrap of the IQM, 10000 resamples)",
    ]
    assert cut_texts(figure) == []


def test_the_other_models_row_is_drawn_as_alone():
    fitted = _fitted(nan_knn)
    both = plot_fold_scores(fitted).axes[0]
    alone = plot_fold_scores({"logistic": fitted["logistic"]}).axes[0]
    dots, bars = _row(both, 1)
    dots_alone, bars_alone = _row(alone, 0)
    assert dots == dots_alone
    assert [b[0] for b in bars] == [b[0] for b in bars_alone]
    for drawn, drawn_alone in zip(both.containers, alone.containers):
        # the interval's ends
        ends = [seg.get_segments() for seg in drawn.lines[2]]
        ends_alone = [seg.get_segments() for seg in drawn_alone.lines[2]]
        assert np.array(ends)[..., 0].tolist() == np.array(ends_alone)[..., 0].tolist()
