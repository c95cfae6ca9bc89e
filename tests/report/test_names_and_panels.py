"""What the report names and draws: two metrics that print alike stay two (ranked apart, told
apart in the headers), an estimator selected as a parameter prints on one line, and each
column of a multi-output regression target gets its own panels."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import RandomForestClassifier, VotingClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import f1_score, make_scorer
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_validate
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.report import nested_cv_report
from sklearn_fair.report._format import selection_counts

# F1 of class 1 (scikit-learn's "f1") and F1 of class 0: both print as "F1"
SCORING = {"f1": "f1", "F1": make_scorer(f1_score, pos_label=0)}
OUTER = StratifiedKFold(3)


def _section(report, title):
    return next(s for s in report.sections() if s.title == title)


X_ALIKE, Y_ALIKE = make_classification(120, 4, weights=[0.7], random_state=0)


def _nested(estimator, scoring=SCORING):
    """NestedCV of ``estimator`` on the data of these tests, scored with ``scoring``."""
    refit = "f1" if isinstance(scoring, dict) else True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(estimator, outer_cv=OUTER, inner_cv=2, n_refits=1, random_state=0,
                        scoring=scoring, refit=refit).fit(X_ALIKE, Y_ALIKE)  # fmt: skip


@pytest.fixture(scope="module")
def alike():
    X, y = X_ALIKE, Y_ALIKE
    models = {"lr": LogisticRegression(), "knn": KNeighborsClassifier(7)}
    fits = {name: _nested(est) for name, est in models.items()}
    # scikit-learn's scores of the same folds, each model fit as given (no grid to tune)
    reference = {
        name: cross_validate(est, X, y, cv=OUTER, scoring=SCORING) for name, est in models.items()
    }
    return nested_cv_report(fits), reference


def test_two_metrics_printed_alike_are_ranked_each_among_the_models(alike):
    report, reference = alike
    rows = pd.DataFrame(report.rows)
    for key in SCORING:
        means = {name: reference[name][f"test_{key}"].mean() for name in reference}
        expected = dict(zip(means, rankdata([-m for m in means.values()])))
        of_key = rows[rows.scoring == key].set_index("model")
        np.testing.assert_allclose(of_key.test_mean[list(means)], list(means.values()))
        assert of_key.rank_test.to_dict() == expected
    # the Test performance table prints those ranks, each beside its own metric's name
    section = _section(report, "Test performance")
    rank = section.columns.index(next(c for c in section.columns if str(c) == "rank by test"))
    printed = {
        (str(r[0]), str(r[1]).removesuffix(" (selects)")): str(r[rank]) for r in section.rows
    }
    assert len(printed) == 4
    for row in report.rows:
        assert printed[row["model"], row["metric"]] == str(row["rank_test"])


def test_two_metrics_printed_alike_have_two_names(alike):
    report, _ = alike
    for model in ("lr", "knn"):
        names = [r["metric"] for r in report.rows if r["model"] == model]
        assert len(set(names)) == 2
        assert "'f1'" in names[0] and "'F1'" in names[1]  # the selecting key's row first
    assert report.to_dataframe().index.is_unique
    columns = [str(c) for c in _section(report, "Selected hyper-parameters: lr").columns]
    tests = [c for c in columns if c.startswith("test ")]
    assert len(tests) == 2 and len(set(tests)) == 2


@pytest.fixture(scope="module")
def voting():
    X, y = make_classification(120, 6, n_informative=3, random_state=0)
    vote = VotingClassifier(
        [("rf", RandomForestClassifier(5, max_depth=3)), ("lr", LogisticRegression(C=0.5))],
        voting="soft",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = NestedCV(Pipeline([("clf", LogisticRegression())]), {"clf": [vote]},
                          outer_cv=2, inner_cv=2, random_state=0, n_refits=1).fit(X, y)  # fmt: skip
    return fitted, vote


def test_an_estimator_selected_prints_on_one_line(voting):
    fitted, vote = voting
    assert "\n" in repr(vote)  # scikit-learn's repr breaks its lines
    one_line = " ".join(repr(vote).split())
    report = nested_cv_report(fitted)
    section = _section(report, "Selected hyper-parameters: model")
    for fold, row in enumerate(section.rows):
        cells = [str(c) for c in row]
        assert cells[:2] == [str(fold), one_line]
        validation, test = fitted.validation_scores_[fold], fitted.outer_scores_[fold]
        np.testing.assert_allclose([float(cells[2]), float(cells[3])], [validation, test],
                                   atol=5e-4)  # fmt: skip
    assert selection_counts(fitted.best_params_per_fold_) == {"clf": {one_line: 2}}
    text = report.to_text()
    start = text.index("Selected hyper-parameters")
    lines = text[start : text.index("\n\n", start)].splitlines()
    assert len(lines) == 2 + 2 + len(section.rows)  # title and rule, header and rule, folds


def test_each_column_of_a_multi_output_regression_gets_its_panels():
    pytest.importorskip("matplotlib")
    X, y = make_regression(n_samples=90, n_features=5, n_targets=2, noise=10, random_state=0)
    y[:, 1] *= 100
    outer = KFold(3, shuffle=True, random_state=0)
    grid = {"alpha": [0.1, 10.0]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark({"ridge": (Ridge(), grid)}, {"reg": (X, y)}, outer_cv=outer,
                           inner_cv=3, scoring="r2", n_refits=1, random_state=0,
                           keep_predictions=True)  # fmt: skip
    # scikit-learn's out-of-fold predictions of the same search
    predicted = np.empty_like(y)
    for train, test in outer.split(X):
        search = GridSearchCV(Ridge(), grid, cv=3, scoring="r2").fit(X[train], y[train])
        predicted[test] = search.predict(X[test])
    figure = result.plot_predictions("reg", "ridge")
    titles = [ax.get_title() for ax in figure.axes if ax.get_visible()]
    assert titles == [
        "column 0: actual against predicted", "column 0: residuals",
        "column 1: actual against predicted", "column 1: residuals",
    ]  # fmt: skip

    def points(ax):
        (collection,) = ax.collections
        return np.array(sorted(map(tuple, collection.get_offsets())))

    for k in range(2):
        actual, residuals = [ax for ax in figure.axes if ax.get_title().startswith(f"column {k}")]
        expected = sorted(zip(predicted[:, k], y[:, k]))  # x predicted, y actual
        np.testing.assert_allclose(points(actual), expected, rtol=1e-7)
        expected = sorted(zip(predicted[:, k], y[:, k] - predicted[:, k]))
        np.testing.assert_allclose(points(residuals), expected, rtol=1e-7, atol=1e-7)
    report = result.report(title="x")
    alts = [f.alt for f in report._predictions_section().figures]
    assert alts == [f"ridge: {t}" for t in titles]


def test_a_model_scored_with_one_of_the_keys_alone_ranks_with_that_key():
    # its lone metric kept its bare name "F1", so it was ranked alone (first) and the "f1" rows
    # of the two models scored with both keys were ranked without it
    from sklearn.tree import DecisionTreeClassifier

    X, y = X_ALIKE, Y_ALIKE
    models = {"lr": LogisticRegression(), "knn": KNeighborsClassifier(7)}
    fits = {name: _nested(est) for name, est in models.items()}
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    fits["tree"] = _nested(tree, scoring="f1")
    models["tree"] = tree
    means = {
        name: cross_validate(est, X, y, cv=OUTER, scoring="f1")["test_score"].mean()
        for name, est in models.items()
    }
    expected = dict(zip(means, rankdata([-m for m in means.values()])))
    rows = pd.DataFrame(nested_cv_report(fits).rows)
    of_f1 = rows[rows.scoring == "f1"].set_index("model")
    np.testing.assert_allclose(of_f1.test_mean[list(means)], list(means.values()))
    assert of_f1.rank_test.to_dict() == expected
    assert of_f1.metric.nunique() == 1
