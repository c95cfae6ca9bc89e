"""A column vector y (``df[["label"]]``) kept with the predictions as one target, as
scikit-learn reads it (hunt MULTI-2): the report and the benchmark's predictions read it."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold, StratifiedKFold

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.report import nested_cv_report


def _data(load):
    X, y = load(return_X_y=True, as_frame=True)
    return X.iloc[:150, :5], y.iloc[:150]


@pytest.mark.parametrize(
    "load, estimator, grid, outer",
    [
        (load_breast_cancer, LogisticRegression(max_iter=500), {"C": [0.1, 1]}, StratifiedKFold),
        (load_diabetes, Ridge(), {"alpha": [0.1, 1]}, KFold),
    ],
)
def test_a_column_vector_y_is_kept_and_reported_as_one_target(load, estimator, grid, outer):
    X, y = _data(load)
    settings = dict(
        outer_cv=outer(3, shuffle=True, random_state=0), inner_cv=3, refit=False,
        random_state=0, keep_predictions=True,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        column = NestedCV(estimator, grid, **settings).fit(X, y.to_frame())
        flat = NestedCV(estimator, grid, **settings).fit(X, y)
        for fold in column.outer_results_:
            kept, test = fold["predictions"], fold["test_indices"]
            # the reference: the test rows of the one column, as scikit-learn's column_or_1d
            np.testing.assert_array_equal(kept["y_true"], y.iloc[test].to_numpy())
            np.testing.assert_array_equal(np.shape(kept["predict"][0]), (len(test),))
        html = nested_cv_report({"m": column}).to_html()
    assert html == nested_cv_report({"m": flat}).to_html()


def test_a_benchmarks_predictions_of_a_column_vector_y_are_those_of_the_column():
    X, y = _data(load_breast_cancer)
    models = {"lr": (LogisticRegression(max_iter=500), {"C": [0.1, 1]})}
    settings = dict(
        outer_cv=StratifiedKFold(3, shuffle=True, random_state=0), inner_cv=3, n_refits=1,
        random_state=0, keep_predictions=True,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        column = benchmark(models, {"bc": (X, y.to_frame())}, **settings).predictions
        flat = benchmark(models, {"bc": (X, y)}, **settings).predictions
    # the reference: the true values are the column's, row by row
    rows = column["row"].to_numpy()
    np.testing.assert_array_equal(column["y_true"].to_numpy(), y.to_numpy()[rows])
    assert column.equals(flat)
