"""Drop-in parity with scikit-learn's idiom (issue 12.4)."""

import io
import re

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV, nested_cross_val_score, nested_cross_validate
from sklearn_fair.exceptions import SearchSpaceEdgeWarning

X, y = make_classification(n_samples=80, n_features=5, random_state=0)


def test_cv_is_the_outer_resampling_with_cross_val_scores_default_of_5():
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [3, 7]}, cv=3)
    ours = nested_cross_val_score(search, X, y)
    theirs = cross_val_score(search, X, y)
    assert ours.shape == theirs.shape == (5,)
    np.testing.assert_allclose(ours, theirs)  # deterministic: the same numbers
    np.testing.assert_allclose(
        nested_cross_val_score(search, X, y, cv=4), cross_val_score(search, X, y, cv=4)
    )


def test_outer_cv_stays_an_alias_of_cv():
    kwargs = dict(param_grid={"n_neighbors": [3, 7]}, inner_cv=3)
    a = nested_cross_validate(KNeighborsClassifier(), X, y, cv=4, **kwargs)
    b = nested_cross_validate(KNeighborsClassifier(), X, y, outer_cv=4, **kwargs)
    np.testing.assert_array_equal(a["test_score"], b["test_score"])
    with pytest.raises(ValueError, match="nested_cross_validate takes the outer resampling as"):
        nested_cross_validate(KNeighborsClassifier(), X, y, cv=4, outer_cv=4, **kwargs)


@pytest.mark.parametrize(
    "call, name",
    [
        (
            lambda: nested_cross_validate(KNeighborsClassifier(), X, y, n_refits=0),
            "nested_cross_validate",
        ),
        (
            lambda: nested_cross_val_score(KNeighborsClassifier(), X, y, n_refits=0),
            "nested_cross_val_score",  # issue 23.6: the function called, not the one inside
        ),
        (
            lambda: nested_cross_validate(KNeighborsClassifier(), X, y, scoring={"a": 5}),
            "nested_cross_validate",
        ),
        (lambda: NestedCV(KNeighborsClassifier(), n_refits=0).fit(X, y), "NestedCV"),
    ],
)
def test_errors_name_what_the_user_called(call, name):
    with pytest.raises(ValueError, match=re.escape(name)) as info:
        call()
    if name != "NestedCV":
        assert "NestedCV" not in str(info.value)


def test_best_index_refit_time_and_the_defaults_of_the_paper():
    nested = NestedCV(LogisticRegression(), {"C": [0.01, 1.0, 100.0]}, random_state=0)
    assert nested.outer_cv == 10 and nested.inner_cv is None  # the paper's protocol
    nested.fit(X, y)
    assert nested.n_splits_ == 10
    assert nested.best_params_ == nested.cv_results_["params"][nested.best_index_]
    assert nested.cv_results_["outer_fold"][nested.best_index_] == -1  # the final selection
    assert nested.refit_time_ > 0


def test_predict_after_refit_false_says_refit_false_is_the_cause():
    nested = NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=3, refit=False).fit(X, y)
    assert not hasattr(nested, "predict")
    with pytest.raises(AttributeError) as info:  # the error itself says why (issue 23.6)
        nested.predict(X)
    assert "refit=False" in str(info.value)


def test_a_winner_on_the_edge_of_the_grid_in_most_folds_is_warned_about():
    # noiseless linear data: the least shrinkage wins in every fold
    rng = np.random.RandomState(0)
    X_lin = rng.normal(size=(60, 3))
    y_lin = X_lin @ np.array([1.0, -2.0, 0.5])
    with pytest.warns(SearchSpaceEdgeWarning, match=r"alpha=100\.0, on the edge of its grid"):
        NestedCV(
            Ridge(), {"alpha": [100.0, 1000.0, 10000.0]}, outer_cv=3, inner_cv=3, refit=False
        ).fit(X_lin, y_lin)


def test_the_edge_warning_prints_a_numpy_grid_as_written():
    # np.logspace gives numpy scalars, whose repr under numpy 2 is np.float64(100.0)
    rng = np.random.RandomState(0)
    X_lin = rng.normal(size=(60, 3))
    y_lin = X_lin @ np.array([1.0, -2.0, 0.5])
    with pytest.warns(SearchSpaceEdgeWarning) as record:
        NestedCV(Ridge(), {"alpha": np.logspace(2, 4, 3)}, outer_cv=3, inner_cv=3, refit=False).fit(
            X_lin, y_lin
        )
    message = str(record[0].message)
    assert "alpha=100.0, on the edge of its grid [100.0, 10000.0]" in message
    assert "np." not in message


def test_summary_covers_every_metric():
    nested = NestedCV(
        LogisticRegression(),
        {"C": [0.1, 1.0]},
        outer_cv=3,
        refit="accuracy",
        scoring=["accuracy", "balanced_accuracy"],
    ).fit(X, y)
    summary = nested.summary()
    assert set(summary) == {"accuracy", "balanced_accuracy"}
    expected = [
        np.mean(f["test_scores_per_metric"]["balanced_accuracy"]) for f in nested.outer_results_
    ]
    assert summary["balanced_accuracy"].mean == pytest.approx(np.mean(expected))


def test_verbose_progress_in_a_log_file_is_plain_lines(capsys):
    NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=3, verbose=1, refit=False).fit(X, y)
    log = capsys.readouterr().err
    lines = [line for line in log.splitlines() if line.startswith("NestedCV fits")]
    assert len(lines) >= 3
    assert lines[-1].startswith("NestedCV fits: ") and " done" in lines[-1]
    assert "\r" not in log and "\x1b" not in log


def test_progress_on_a_terminal_is_a_bar():
    from sklearn_fair.model_selection._nested._progress import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    progress = Progress(1, 4, stream=stream)
    for _ in range(4):
        progress.update()
    progress.close()
    assert "\r" in stream.getvalue() and "4/4" in stream.getvalue()


def test_the_summary_names_the_metric_and_says_when_fits_failed():
    from sklearn.tree import DecisionTreeClassifier

    class BrokenDeepTree(DecisionTreeClassifier):
        def fit(self, X, y, sample_weight=None):
            if self.max_depth == 3:
                raise RuntimeError("broken")
            return super().fit(X, y, sample_weight=sample_weight)

    with pytest.warns(Warning):
        nested = NestedCV(
            BrokenDeepTree(),
            {"max_depth": [1, 3]},
            outer_cv=3,
            n_refits=1,
            refit=False,
            random_state=0,
            scoring="neg_root_mean_squared_error",
        ).fit(X, y)
    text = str(nested.summary())
    assert text.startswith("RMSE, 3 scores")
    assert "3 selection fit(s) failed" in text and "candidates that failed somewhere: [1]" in text
    assert nested.summary().mean == pytest.approx(-nested.score_mean_)
