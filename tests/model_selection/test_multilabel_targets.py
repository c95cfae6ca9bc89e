"""A multilabel target through the nested entry points, as scikit-learn takes it: the default
inner hold-out does not stratify it (check_cv stratifies binary and multiclass targets only),
refits that differ are combined label by label, and a benchmark's kept predictions read."""

import numpy as np
from sklearn.datasets import make_multilabel_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV, benchmark, nested_cross_val_predict

X, Y = make_multilabel_classification(n_samples=90, n_features=6, n_classes=3, random_state=0)
FOREST = RandomForestClassifier(n_estimators=5)  # unseeded: its refits differ
GRID = {"max_depth": [2, None]}


def test_the_default_inner_holdout_of_a_multilabel_target_is_not_stratified():
    # its label combinations were taken as classes: "test_size = 6 should be greater or
    # equal to the number of classes = 8"
    nested = NestedCV(FOREST, GRID, outer_cv=3, n_refits=1, random_state=0, refit=False)
    nested.fit(X, Y)
    assert "random hold-out" in nested.resampling_["inner"]
    assert np.isfinite(nested.outer_scores_).all()


def test_refits_that_differ_predict_the_classes_of_their_averaged_probabilities():
    options = dict(param_grid=GRID, cv=KFold(3), inner_cv=KFold(3), n_refits=3, random_state=0)
    predicted = nested_cross_val_predict(FOREST, X, Y, **options)
    probabilities = nested_cross_val_predict(FOREST, X, Y, method="predict_proba", **options)
    assert predicted.shape == Y.shape
    by_label = np.column_stack([np.argmax(p, axis=1) for p in probabilities])  # classes 0, 1
    np.testing.assert_array_equal(predicted, by_label)


def test_a_benchmarks_kept_multilabel_predictions_are_those_of_nested_cross_val_predict():
    options = dict(inner_cv=KFold(3), n_refits=3, random_state=0)
    result = benchmark(
        {"rf": (FOREST, GRID)}, {"ml": (X, Y)}, outer_cv=KFold(3), keep_predictions=True,
        **options,
    )  # fmt: skip
    kept = result.predictions.sort_values("row")
    predicted = nested_cross_val_predict(FOREST, X, Y, param_grid=GRID, cv=KFold(3), **options)
    assert kept["row"].tolist() == list(range(len(Y)))
    assert kept["y_true"].tolist() == list(map(tuple, Y))
    assert kept["y_pred"].tolist() == list(map(tuple, predicted))


def test_refits_with_label_indices_as_classes_vote_label_by_label():
    # OneVsRestClassifier's classes_ is one array of label indices; the argmax of its refits'
    # averaged probabilities gave one label index a row (shape (90,)), not an indicator row
    from sklearn.linear_model import SGDClassifier
    from sklearn.multiclass import OneVsRestClassifier

    from sklearn_fair import nested_cross_validate

    model = OneVsRestClassifier(SGDClassifier(loss="log_loss", max_iter=20, tol=None))
    outer = KFold(3, shuffle=True, random_state=0)
    options = dict(
        param_grid={"estimator__alpha": [1e-3, 1e-2]}, cv=outer, inner_cv=KFold(3),
        n_refits=3, random_state=0,
    )  # fmt: skip
    predicted = nested_cross_val_predict(model, X, Y, **options)
    refits = nested_cross_validate(model, X, Y, return_estimator=True, **options)["estimator"]
    assert predicted.shape == Y.shape
    for models, (_, test) in zip(refits, outer.split(X)):
        own = np.array([m.predict(X[test]) for m in models])  # refit, row, label
        np.testing.assert_array_equal(predicted[test], (own.sum(axis=0) >= 2).astype(int))
    assert not all(np.array_equal(own[0], o) for o in own[1:])  # the refits differ
