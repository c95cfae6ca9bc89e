"""Out-of-fold predictions kept by the protocol (keep_predictions=True): they are scikit-learn's
idiom's, cached like scores, kept by saved results, and drawn with scikit-learn's displays."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import confusion_matrix, roc_curve
from sklearn.model_selection import GridSearchCV, KFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, benchmark
from sklearn_fair.exceptions import InvalidResultError
from sklearn_fair.report import result_to_dict

pytest.importorskip("matplotlib")

OUTER = KFold(3, shuffle=True, random_state=0)
GRID = {"logisticregression__C": [0.01, 1.0]}


def _classifier():
    return make_pipeline(StandardScaler(), LogisticRegression())


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    return X[:240], y[:240]


def _run(data, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            {"logistic": (_classifier(), GRID)}, {"cancer": data}, outer_cv=OUTER, inner_cv=3,
            n_refits=1, random_state=0, keep_predictions=True, **kwargs,
        )  # fmt: skip


def test_the_kept_predictions_are_scikit_learns_out_of_fold_predictions(data):
    X, y = data
    kept = _run(data).predictions.sort_values("row")
    search = GridSearchCV(_classifier(), GRID, cv=3)
    predicted = cross_val_predict(search, X, y, cv=OUTER)
    proba = cross_val_predict(search, X, y, cv=OUTER, method="predict_proba")[:, 1]
    np.testing.assert_array_equal(kept.row, np.arange(len(y)))
    np.testing.assert_array_equal(kept.y_true, y)
    np.testing.assert_array_equal(kept.y_pred, predicted)
    np.testing.assert_allclose(kept.score, proba)


def test_the_plots_hold_the_displays_data(data):
    result = _run(data)
    kept = result.predictions
    figure = result.plot_predictions("cancer", "logistic")
    matrix, roc = figure.axes[0], figure.axes[1]
    expected = confusion_matrix(kept.y_true, kept.y_pred, normalize="true")
    np.testing.assert_allclose(matrix.images[0].get_array(), expected)
    for fold, line in enumerate(roc.get_lines()[: OUTER.get_n_splits()]):
        rows = kept[kept.outer_fold == fold]
        fpr, tpr, _ = roc_curve(rows.y_true, rows.score)
        np.testing.assert_allclose(line.get_xdata(), fpr)
        np.testing.assert_allclose(line.get_ydata(), tpr)
    page = result.to_html(n_resamples=200)
    assert 'id="predictions"' in page and "ROC curve of each outer fold" in page


def test_a_regressors_plots_are_predicted_against_actual_and_residuals():
    X, y = load_diabetes(return_X_y=True)
    result = benchmark(
        {"ridge": (Ridge(), {"alpha": [0.1, 1.0]})}, {"diabetes": (X[:150], y[:150])},
        outer_cv=OUTER, inner_cv=3, n_refits=1, random_state=0, keep_predictions=True,
    )  # fmt: skip
    kept = result.predictions
    predicted = cross_val_predict(GridSearchCV(Ridge(), {"alpha": [0.1, 1.0]}, cv=3),
                                  X[:150], y[:150], cv=OUTER)  # fmt: skip
    np.testing.assert_allclose(kept.sort_values("row").y_pred, predicted)
    figure = result.plot_predictions("diabetes", "ridge")
    points = figure.axes[0].collections[0].get_offsets()  # actual against predicted
    np.testing.assert_allclose(np.sort(points[:, 0]), np.sort(kept.y_pred))


def test_predictions_are_cached_saved_and_checked_when_read(data, tmp_path):
    first = _run(data, cache_dir=tmp_path / "cache")
    again = _run(data, cache_dir=tmp_path / "cache")
    assert again.estimators["cancer", "logistic"].cache_info_["computed"] == 0
    assert again.predictions.equals(first.predictions)
    loaded = BenchmarkResult.load(first.save(tmp_path / "result.json"))
    assert loaded.predictions.equals(first.predictions)
    saved = result_to_dict(first.estimators["cancer", "logistic"])
    assert BenchmarkResult.from_results({("cancer", "logistic"): saved}).predictions.equals(
        first.predictions
    )
    from sklearn_fair.report._integrity import with_checksum

    forged = dict(saved)
    forged["outer_results"] = [dict(f) for f in saved["outer_results"]]
    forged["outer_results"][0]["predictions"] = {
        **saved["outer_results"][0]["predictions"], "proba": [[[1.5, -0.5]] * 80]
    }  # fmt: skip
    with pytest.raises(InvalidResultError, match="probabilities are outside"):
        BenchmarkResult.from_results({("cancer", "logistic"): with_checksum(forged)})


def test_predictions_are_kept_only_when_asked(data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark({"logistic": (_classifier(), GRID)}, {"cancer": data}, outer_cv=OUTER,
                           n_refits=1, random_state=0)  # fmt: skip
    assert result.predictions.empty and 'id="predictions"' not in result.to_html(plots=True)
    with pytest.raises(ValueError, match="keep_predictions=True"):
        result.plot_predictions("cancer", "logistic")


def test_a_nested_cv_report_shows_what_the_model_predicted(data):
    from sklearn_fair import NestedCV
    from sklearn_fair.report import nested_cv_report

    X, y = data
    nested = NestedCV(_classifier(), GRID, outer_cv=OUTER, inner_cv=3, n_refits=1,
                      random_state=0, refit=False, keep_predictions=True).fit(X, y)  # fmt: skip
    folds = [f["predictions"] for f in nested.outer_results_]
    proba = cross_val_predict(GridSearchCV(_classifier(), GRID, cv=3), X, y, cv=OUTER,
                              method="predict_proba")  # fmt: skip
    for (_, test), kept in zip(OUTER.split(X), folds):
        np.testing.assert_allclose(kept["proba"][0], proba[test])
    page = nested_cv_report({"logistic": nested}, n_resamples=200).to_html()
    assert 'id="predictions"' in page and "calibration, every fold" in page


class _ClassesOnly(DecisionTreeClassifier):
    """A classifier that gives classes, neither probabilities nor decision values."""

    @property
    def predict_proba(self):
        raise AttributeError("no probabilities")


def test_refits_without_scores_are_combined_by_vote_as_nested_cross_val_predict_does(data):
    # with neither probabilities nor decision values the kept predictions took the first
    # refit's classes where nested_cross_val_predict takes the refits' majority vote
    from sklearn_fair import nested_cross_val_predict

    X, y = data
    settings = {"cv": OUTER, "inner_cv": 3, "n_refits": 3, "random_state": 0}
    tree = _ClassesOnly(max_features=2)
    grid = {"max_depth": [2, 4]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark({"tree": (tree, grid)}, {"cancer": data}, keep_predictions=True,
                           outer_cv=OUTER, inner_cv=3, n_refits=3, random_state=0)  # fmt: skip
        expected = nested_cross_val_predict(tree, X, y, param_grid=grid, **settings)
    kept = result.predictions.sort_values("row")
    assert "score" not in kept  # the case: no scores to average
    np.testing.assert_array_equal(kept.y_pred, expected)


def test_the_score_column_names_the_class_it_is_of():
    # (hunt LABELS, LABELS-1) "the positive class's probability" of text labels "10" and "9"
    # was P("9"): scikit-learn's predict_proba[:, 1] is of np.unique(y)[1], "9" before "10"
    # as numbers but after it as text
    rng = np.random.RandomState(0)
    X = rng.randn(60, 3)
    y = np.where(X[:, 0] + 0.5 * rng.randn(60) > 0, "10", "9")
    result = benchmark(
        {"lr": (LogisticRegression(), {"C": [0.1, 10.0]})},
        {"text": (X, y)},
        outer_cv=KFold(3),
        inner_cv=KFold(3),
        n_refits=1,
        random_state=0,
        keep_predictions=True,
    )
    predictions = result.predictions
    assert set(predictions["score_class"]) == {np.unique(y)[1]} == {"9"}
    reference = cross_val_predict(
        GridSearchCV(LogisticRegression(), {"C": [0.1, 10.0]}, cv=KFold(3)),
        X, y, cv=KFold(3), method="predict_proba",
    )[:, list(np.unique(y)).index("9")]  # fmt: skip
    np.testing.assert_allclose(predictions.sort_values("row")["score"], reference)
