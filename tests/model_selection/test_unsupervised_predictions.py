"""nested_cross_val_predict and the kept predictions of a model without classes_: an outlier
detector's refits vote on their labels, a clusterer's refits (each numbering its clusters its
own way) are refused, a regressor's are averaged (hunt UNSUP-1)."""

import warnings

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.ensemble import IsolationForest
from sklearn.model_selection import GridSearchCV, KFold, cross_val_predict

from sklearn_fair import benchmark, nested_cross_val_predict, nested_cross_validate
from sklearn_fair.report._plots import prediction_panels

RNG = np.random.RandomState(0)
X = np.r_[RNG.randn(150, 2), RNG.uniform(-6, 6, (30, 2))]
Y = np.r_[np.ones(150, int), -np.ones(30, int)]
OUTER = KFold(3, shuffle=True, random_state=0)
GRID = {"max_samples": [20, 50]}
KW = dict(param_grid=GRID, cv=OUTER, inner_cv=3, scoring="accuracy", n_refits=3, random_state=0)


def _vote(columns):
    """The majority vote of each column of refits' labels, by hand (ties to the earliest)."""
    return np.array([max(dict.fromkeys(c), key=list(c).count) for c in np.asarray(columns).T])


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_an_outlier_detector_gives_the_vote_of_its_refits_labels():
    predictions = _quiet(nested_cross_val_predict, IsolationForest(n_estimators=10), X, Y, **KW)
    reference = cross_val_predict(
        GridSearchCV(IsolationForest(n_estimators=10), GRID, cv=3, scoring="accuracy"), X, Y,
        cv=OUTER,
    )  # fmt: skip
    # labels, as scikit-learn's: 1 and -1, never their mean
    assert set(np.unique(predictions)) <= set(np.unique(reference)) == {-1, 1}
    run = _quiet(
        nested_cross_validate, IsolationForest(n_estimators=10), X, Y, return_estimator=True,
        return_indices=True, **KW,
    )  # fmt: skip
    by_hand = np.empty_like(Y)
    for models, test in zip(run["estimator"], run["indices"]["test"]):
        assert len(models) == 3
        by_hand[test] = _vote([m.predict(X[test]) for m in models])
    np.testing.assert_array_equal(predictions, by_hand)


def test_the_kept_predictions_of_an_outlier_detector_are_the_vote_of_its_refits():
    result = _quiet(
        benchmark, {"iso": (IsolationForest(n_estimators=10), GRID)}, {"d": (X, Y)},
        outer_cv=OUTER, inner_cv=3, scoring="accuracy", n_refits=3, random_state=0,
        keep_predictions=True,
    )  # fmt: skip
    cell = result.cells["d", "iso"]
    table = result.predictions.sort_values("row")
    by_hand = np.empty_like(Y)
    for kept, test in zip(cell.predictions, cell.test_indices):
        by_hand[np.asarray(test)] = _vote(kept["predict"])
    np.testing.assert_array_equal(table["y_pred"].to_numpy(), by_hand)
    assert set(table["y_pred"]) <= {-1, 1}
    # drawn as labels (a confusion matrix), not as a regression's predicted against actual
    assert [title for title, _ in prediction_panels(cell)] == ["confusion matrix (rows sum to 1)"]


class _NoFit(KMeans):
    def fit(self, X, y=None, sample_weight=None):
        raise RuntimeError("fitted")


def test_several_refits_of_a_clusterer_are_refused_before_any_fit():
    with pytest.raises(ValueError, match=r"'n_refits' parameter .* is 3.*clusterer.*n_refits=1"):
        nested_cross_val_predict(
            _NoFit(3, n_init=1), X, None, param_grid={"max_iter": [5, 300]}, cv=OUTER,
            inner_cv=3, random_state=0,
        )  # fmt: skip


def test_a_clusterer_with_one_refit_gives_that_refits_cluster_labels():
    kwargs = dict(param_grid={"max_iter": [5, 300]}, cv=OUTER, inner_cv=3, random_state=0,
                  n_refits=1)  # fmt: skip
    labels = _quiet(nested_cross_val_predict, KMeans(3, n_init=1), X, None, **kwargs)
    run = _quiet(
        nested_cross_validate, KMeans(3, n_init=1), X, None, return_estimator=True,
        return_indices=True, **kwargs,
    )  # fmt: skip
    by_hand = np.empty(len(X), dtype=int)
    for model, test in zip(run["estimator"], run["indices"]["test"]):
        by_hand[test] = model.predict(X[test])
    np.testing.assert_array_equal(labels, by_hand)
    assert set(np.unique(labels)) <= {0, 1, 2}


def test_a_clusterer_seeded_by_the_user_beside_an_unseeded_step_is_taken():
    # review of round 32: PCA's unset random_state made the refusal fire for a KMeans whose
    # own random_state is set (the refits then agree: their cluster numbering is the same)
    from sklearn.datasets import make_blobs
    from sklearn.decomposition import PCA
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, _ = make_blobs(90, 4, centers=3, random_state=0)
    model = make_pipeline(StandardScaler(), PCA(2), KMeans(3, n_init=2, random_state=0))
    labels = [
        nested_cross_val_predict(
            model,
            X,
            cv=KFold(3, shuffle=True, random_state=0),
            inner_cv=2,
            param_grid={"kmeans__n_clusters": [3]},
            n_refits=n_refits,
            random_state=0,
        )  # fmt: skip
        for n_refits in (3, 1)
    ]
    np.testing.assert_array_equal(labels[0], labels[1])
