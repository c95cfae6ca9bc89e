"""An outer test score that is not a measurement but the value its scorer sets where the
metric is undefined (recall on a test fold without positives: scikit-learn's
``zero_division``, 0.0) is kept, as ``cross_validate`` gives it, and said: in the fold's
``undefined_metrics``, the summary's notes and one warning at fit naming the fold, whether the
refits ran here, in loky's workers, in threads or were read from the cache."""

import warnings

import joblib
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer, recall_score
from sklearn.model_selection import KFold, cross_validate

from sklearn_fair import NestedCV, nested_cross_validate

rng = np.random.RandomState(0)
X = rng.randn(60, 3)
y = (X[:, 0] > 0).astype(int)
order = np.argsort(y, kind="stable")  # the 24 negatives first: outer fold 0 tests no positive
X, y = X[order], y[order]
RECALL_WARNING = "Recall is ill-defined and being set to 0.0 due to no true samples"


def _fit(scoring="recall", outer_cv=None, inner_cv=3, grid=None, **params):
    """The NestedCV fitted, and the messages of the UndefinedMetricWarnings its fit showed."""
    nested = NestedCV(
        LogisticRegression(), grid or {"C": [1.0]}, outer_cv=outer_cv or KFold(3),
        inner_cv=inner_cv, scoring=scoring, random_state=0, **params,
    )  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y)
    shown = [str(w.message) for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    return nested, shown


def _undefined(nested):
    return [fold.get("undefined_metrics") for fold in nested.outer_results_]


def test_fold_without_positives_is_named_and_scored_as_cross_validate():
    nested, shown = _fit()
    with pytest.warns(UndefinedMetricWarning, match=RECALL_WARNING):
        reference = cross_validate(LogisticRegression(C=1.0), X, y, cv=KFold(3), scoring="recall")
    # the number is kept: scikit-learn's own, identical
    np.testing.assert_array_equal(nested.outer_scores_, reference["test_score"])
    assert nested.outer_scores_[0] == 0.0
    undefined = _undefined(nested)
    assert undefined[1:] == [None, None]
    assert list(undefined[0]) == ["score"]
    assert undefined[0]["score"].startswith(RECALL_WARNING)
    text = str(nested.summary())
    assert "recall's test score on outer fold 0 (0.0) is not a measurement" in text
    assert RECALL_WARNING in text and "the mean and intervals include it" in text
    assert "outer fold 1" not in text and "outer fold 2" not in text
    # scikit-learn's warning, replayed once, and ours, which names the fold
    assert sum(RECALL_WARNING in message for message in shown) == 2
    (ours,) = [message for message in shown if "outer fold" in message]
    assert "1 outer test score(s) of NestedCV are not, or not wholly, measurements" in ours
    assert "recall's test score on outer fold 0 (0.0)" in ours


@pytest.mark.parametrize("backend", ["loky", "threading"])
def test_same_notes_in_workers(backend):
    with joblib.parallel_config(backend=backend):
        nested, shown = _fit(n_jobs=2)
    assert _undefined(nested) == _undefined(_fit()[0])
    assert "recall's test score on outer fold 0 (0.0)" in str(nested.summary())
    assert sum("outer fold 0" in message for message in shown) == 1


def test_same_notes_from_the_cache(tmp_path):
    first, _ = _fit(cache_dir=tmp_path, refit=False)
    again, shown = _fit(cache_dir=tmp_path, refit=False)
    assert again.cache_info_["hits"] > 0 and again.cache_info_["computed"] == 0
    assert _undefined(again) == _undefined(first) and _undefined(again)[0] is not None
    assert str(again.summary()) == str(first.summary())
    assert sum("outer fold 0" in message for message in shown) == 1


def test_a_stored_entry_with_bad_undefined_metrics_is_refused():
    from sklearn_fair.model_selection._nested._cache import _undefined_problem

    scores = {"score": 0.0}
    assert _undefined_problem({"score": RECALL_WARNING}, scores) is None
    assert _undefined_problem({"other": "x"}, scores) is not None  # not one of its metrics
    assert _undefined_problem(["score"], scores) is not None
    assert _undefined_problem({"score": 0}, scores) is not None
    assert _undefined_problem({"score": "x" * 4001}, scores) is not None


def test_undefined_inner_scores_are_not_noted_as_outer_ones():
    # every outer test fold holds positives; the first inner validation split of each outer
    # training fold (its first rows, all negative) holds none
    outer = KFold(3, shuffle=True, random_state=0)
    assert all(y[test].any() for _, test in outer.split(X))
    nested, shown = _fit(outer_cv=outer, inner_cv=KFold(3), grid={"C": [0.1, 1.0]})
    assert any(message.startswith(RECALL_WARNING) for message in shown)  # the inner one
    assert _undefined(nested) == [None, None, None]
    assert "not a measurement" not in str(nested.summary())
    assert not any("outer fold" in message for message in shown)


def test_own_sensitivity_scorer_is_noted():
    nested, shown = _fit(scoring="sensitivity")
    undefined = _undefined(nested)
    assert undefined[1:] == [None, None] and "ill-defined" in undefined[0]["score"]
    assert nested.outer_scores_[0] == 0.0
    assert "test score on outer fold 0 (0.0) is not a measurement" in str(nested.summary())
    assert sum("outer fold 0" in message for message in shown) == 1


def test_zero_division_chosen_by_the_user_is_not_noted():
    scorer = make_scorer(recall_score, zero_division=0.0)
    nested, shown = _fit(scoring=scorer)
    assert nested.outer_scores_[0] == 0.0
    assert shown == []
    assert _undefined(nested) == [None, None, None]
    assert "not a measurement" not in str(nested.summary())


def test_several_metrics_name_theirs_alone():
    scoring = {"recall": "recall", "accuracy": "accuracy"}
    nested, _ = _fit(scoring=scoring, refit="accuracy")
    assert list(_undefined(nested)[0]) == ["recall"]
    summaries = nested.summary()
    assert "recall's test score on outer fold 0" in str(summaries["recall"])
    assert "not a measurement" not in str(summaries["accuracy"])


def test_nested_cross_validate_lists_them():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = nested_cross_validate(
            LogisticRegression(), X, y, cv=KFold(3), inner_cv=3, param_grid={"C": [1.0]},
            scoring="recall", random_state=0,
        )  # fmt: skip
        reference = cross_validate(LogisticRegression(C=1.0), X, y, cv=KFold(3), scoring="recall")
    np.testing.assert_array_equal(results["test_score"], reference["test_score"])
    undefined = results["undefined_metrics"]
    assert [list(fold) for fold in undefined] == [["score"], [], []]
    assert undefined[0]["score"].startswith(RECALL_WARNING)
    assert any("outer fold 0" in str(w.message) for w in caught)


def _fitted_under(action):
    nested = NestedCV(
        LogisticRegression(), {"C": [1.0]}, outer_cv=KFold(3), inner_cv=3, scoring="recall",
        random_state=0, error_score="raise",
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter(action, UndefinedMetricWarning)
        return nested.fit(X, y)


def test_noted_in_a_session_that_ignores_the_warning():
    # a notebook that silences scikit-learn's warnings still reads which fold's score is
    # zero_division's value
    nested = _fitted_under("ignore")
    assert list(nested.outer_results_[0]["undefined_metrics"]) == ["score"]
    assert "outer fold 0 (0.0) is not a measurement" in str(nested.summary())
    # a filter that turns the warning into an error still raises
    with pytest.raises(UndefinedMetricWarning, match=RECALL_WARNING):
        _fitted_under("error")


class _SometimesSilent(ClassifierMixin, BaseEstimator):
    """Predicts no positive where its seed draws so (the refits are told apart by theirs)."""

    def __init__(self, random_state=None, C=1.0):
        self.random_state, self.C = random_state, C

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.silent_ = np.random.RandomState(self.random_state).rand() < 0.4
        return self

    def predict(self, X):
        return np.zeros(len(X), int) if self.silent_ else (X[:, 0] > 0).astype(int)


def test_a_score_undefined_in_some_refits_or_labels_is_said_to_be_in_part():
    # precision is undefined where a refit predicts no positive: the fold's score is the mean
    # of its refits', a measurement in part
    gen = np.random.RandomState(0)
    X3 = gen.randn(90, 3)
    y3 = (X3[:, 0] + 0.5 * gen.randn(90) > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            _SometimesSilent(), {"C": [1.0]}, outer_cv=KFold(3), inner_cv=3,
            scoring="precision", n_refits=3, random_state=0,
        ).fit(X3, y3)  # fmt: skip
    text = str(nested.summary())
    for fold in nested.outer_results_:
        scores = np.asarray(fold["test_scores_per_metric"]["score"])
        silent = int(np.sum(scores == 0.0))  # a refit that predicts no positive scores 0.0
        note = fold.get("undefined_metrics", {}).get("score")
        if silent == 0:
            assert note is None
        elif silent < len(scores):
            assert note.startswith(f"in {silent} of {len(scores)} refits: ")
            assert f"outer fold {fold['outer_fold']} " in text
    assert "averages in values its scorer sets where the metric is undefined" in text
    # precision averaged over labels, one of them never predicted: in part too
    X4, y4 = make_classification(
        120, 5, n_informative=3, n_classes=3, weights=[0.45, 0.45, 0.1], random_state=0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        macro = NestedCV(
            LogisticRegression(C=0.001), {"C": [0.001]}, outer_cv=KFold(3), inner_cv=3,
            scoring="precision_macro", random_state=0,
        ).fit(X4, y4)  # fmt: skip
    text = str(macro.summary())
    assert "averages in values" in text and "is not a measurement" not in text


def test_the_fit_warning_says_them_metric_by_metric_as_the_summary():
    # a constant prediction of the negative class: precision is undefined on every outer test
    # fold (nothing predicted positive), recall on the folds without positives (0 and 1)
    scoring = {"recall": "recall", "precision": "precision"}
    outer_cv = KFold(6)
    nested = NestedCV(
        DummyClassifier(strategy="constant", constant=0), {"constant": [0]},
        outer_cv=outer_cv, inner_cv=3, scoring=scoring, refit="recall", random_state=0,
    )  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y)
    (ours,) = [str(w.message) for w in caught if "outer fold" in str(w.message)]
    tests = [test for _, test in outer_cv.split(X)]
    no_positive = [fold for fold, test in enumerate(tests) if not y[test].any()]
    assert no_positive == [0, 1]
    # metric by metric (in scoring's order), then fold by fold: the summary's order
    expected = [("recall", fold) for fold in no_positive]
    expected += [("precision", fold) for fold in range(len(tests))]
    assert ours.startswith(f"{len(expected)} outer test score(s) of NestedCV are not")
    sentences = [f"{metric}'s test score on outer fold {fold} (0.0)" for metric, fold in expected]
    positions = [ours.find(sentence) for sentence in sentences]
    assert -1 not in positions and positions == sorted(positions)
    summaries = nested.summary()
    for metric in scoring:
        notes = [n for n in summaries[metric].notes if "test score on outer fold" in n]
        assert [n[: n.index(" (")] for n in notes] == [
            f"{name}'s test score on outer fold {fold}" for name, fold in expected if name == metric
        ]
        assert all(note in ours for note in notes)
