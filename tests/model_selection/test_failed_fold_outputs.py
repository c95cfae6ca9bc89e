"""What a failed outer fold leaves in the outputs: no kept predictions where one of its refits
failed or had no score of the selecting metric (as ``nested_cross_val_predict`` has no model
for it), and the refits note and the FitFailedWarning say how many of its refits failed and
their seeds. Also: a multi-output classifier's kept probabilities, stored label by label, are
served by the cache and survive BenchmarkResult.save and load."""

import json
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import make_regression
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import KFold

from sklearn_fair import BenchmarkResult, NestedCV, benchmark, nested_cross_val_predict
from sklearn_fair.exceptions import CacheWarning

X, y = make_regression(121, 5, noise=5, random_state=0)
OUTER, INNER = KFold(3), KFold(3)
# KFold(3) of 121 rows: outer fold 0 tests 41 rows and trains its refits on 80
FOLD_0_TRAIN = len(next(OUTER.split(X))[0])


class FailsOnOddSeed(RegressorMixin, BaseEstimator):
    """Ridge, whose fit raises on ``n_rows`` rows with an odd ``random_state`` (or any seed
    when ``every_seed``): outer fold 0's refits of the seeds that fail."""

    def __init__(self, alpha=1.0, random_state=None, n_rows=FOLD_0_TRAIN, every_seed=False):
        self.alpha = alpha
        self.random_state = random_state
        self.n_rows = n_rows
        self.every_seed = every_seed

    def fit(self, X, y):
        odd = isinstance(self.random_state, (int, np.integer)) and self.random_state % 2 == 1
        if len(X) == self.n_rows and (odd or self.every_seed):
            raise ValueError(f"boom seed {self.random_state}")
        self.model_ = Ridge(alpha=self.alpha).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X)


def _odd_seed_scorer(estimator, X, y):
    """Negative MSE; raises for a refit of an odd seed scored on outer fold 0's 41 rows."""
    seed = estimator.random_state
    if len(X) == len(X_FOLD_0_TEST) and isinstance(seed, (int, np.integer)) and seed % 2:
        raise RuntimeError("scorer boom")
    return -mean_squared_error(y, estimator.predict(X))


X_FOLD_0_TEST = next(OUTER.split(X))[1]


def _fit(estimator, **params):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested = NestedCV(
            estimator, {"alpha": [0.1, 1.0]}, outer_cv=OUTER, inner_cv=INNER, n_refits=3,
            scoring="neg_mean_squared_error", random_state=0, refit=False, **params,
        ).fit(X, y)  # fmt: skip
    return nested, [str(w.message) for w in caught if w.category is FitFailedWarning]


def _odd(seeds):
    return [seed for seed in seeds if seed % 2]


@pytest.fixture(scope="module")
def partly_failed():
    nested, messages = _fit(FailsOnOddSeed(), keep_predictions=True)
    odd = _odd(nested.outer_results_[0]["refit_seeds"])
    # the fixture is what it claims: some, not all, of fold 0's 3 refits have an odd seed
    assert len(nested.outer_results_[0]["refit_seeds"]) == 3 and 0 < len(odd) < 3
    return nested, messages, odd


# --- a failed fold keeps no predictions ------------------------------------------------------


def test_a_fold_whose_refit_failed_keeps_no_predictions(partly_failed):
    nested, _, odd = partly_failed
    first = nested.outer_results_[0]
    assert first["refits_failed"] == len(odd)
    assert np.isnan(nested.outer_scores_[0])  # a failed fold, as its score says
    assert first["predictions"] is None
    # nested_cross_val_predict has no model for it either
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="no model for outer fold 0: its refit failed"):
            nested_cross_val_predict(
                FailsOnOddSeed(), X, y, param_grid={"alpha": [0.1, 1.0]}, cv=OUTER,
                inner_cv=INNER, random_state=0,
            )  # fmt: skip
    # the folds whose refits all succeeded keep theirs: each refit's Ridge, by hand
    for fold, (train, test) in list(enumerate(OUTER.split(X)))[1:]:
        kept = nested.outer_results_[fold]["predictions"]
        expected = Ridge(alpha=nested.best_params_per_fold_[fold]["alpha"]).fit(X[train], y[train])
        np.testing.assert_allclose(kept["y_true"], y[test])
        for predicted in kept["predict"]:
            np.testing.assert_allclose(predicted, expected.predict(X[test]))


def test_a_fold_whose_selecting_scorer_failed_keeps_no_predictions():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            FailsOnOddSeed(n_rows=-1), {"alpha": [0.1, 1.0]}, outer_cv=OUTER, inner_cv=INNER,
            n_refits=3, scoring=_odd_seed_scorer, random_state=0, refit=False,
            keep_predictions=True,
        ).fit(X, y)  # fmt: skip
    first = nested.outer_results_[0]
    assert 0 < first["refit_scores_failed"] == len(_odd(first["refit_seeds"])) < 3
    assert np.isnan(nested.outer_scores_[0])
    assert first["predictions"] is None
    assert all(f["predictions"] is not None for f in nested.outer_results_[1:])


def test_the_benchmarks_predictions_leave_out_a_failed_fold():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(
            {"flaky": (FailsOnOddSeed(), {"alpha": [0.1, 1.0]})}, {"d": (X, y)},
            outer_cv=OUTER, inner_cv=INNER, scoring="neg_mean_squared_error", random_state=2,
            keep_predictions=True,
        )  # fmt: skip
    seeds = result.cells["d", "flaky"].refit_seeds
    assert 0 < len(_odd(seeds)) < len(seeds)  # outer fold 0 partly failed
    assert result.scores["score"].isna().tolist() == [True, False, False]
    rows = result.predictions.groupby("outer_fold").size().to_dict()
    assert rows == {fold: len(test) for fold, (_, test) in enumerate(OUTER.split(X)) if fold}
    # and the report says which fold is not drawn (review_29: it drew the others silently)
    page = result.report().to_html()
    assert "flaky: outer fold(s) 0 kept no predictions (a fold that failed keeps none)" in page


def test_plot_predictions_says_when_every_fold_failed():
    # review_29: "run the benchmark with keep_predictions=True", which it had been
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(
            {"flaky": FailsOnOddSeed(every_seed=True, n_rows=80), "ridge": Ridge()},
            {"d": (X[:120], y[:120])}, outer_cv=OUTER, inner_cv=INNER,
            scoring="neg_mean_squared_error", random_state=2, keep_predictions=True,
        )  # fmt: skip
    # 120 rows: every outer training fold has 80, on which every refit fails
    scores = result.scores.set_index("model")["score"]
    assert scores["flaky"].isna().all() and scores["ridge"].notna().all()
    with pytest.raises(ValueError, match="each of its 3 outer folds failed") as info:
        result.plot_predictions("d", "flaky")
    assert "keep_predictions=True" not in str(info.value)


# --- the note and the warning say how many refits failed ---------------------------------------


def test_the_refits_note_says_which_refits_failed(partly_failed):
    nested, _, odd = partly_failed
    note = nested.outer_results_[0]["refits"]
    shown = ", ".join(map(str, odd))
    plural = "s" * (len(odd) > 1)
    assert f"{len(odd)} of its 3 refits failed (seed{plural} {shown})" in note
    assert "scored error_score" in note
    assert "failed" not in nested.outer_results_[1]["refits"]


def test_the_warning_says_how_many_refits_of_the_fold_failed(partly_failed):
    _, messages, odd = partly_failed
    (message,) = messages
    shown = ", ".join(map(str, odd))
    plural = "s" * (len(odd) > 1)
    assert "1 fits failed out of a total of 3." in message  # scikit-learn's words
    assert f"in outer fold 0, {len(odd)} of its 3 refits failed (seed{plural} {shown})" in message
    assert "the fold is scored error_score, not the" in message
    assert "have no model" not in message


def test_a_fold_whose_refits_all_failed_has_no_model_and_says_so():
    nested, (message,) = _fit(FailsOnOddSeed(every_seed=True))
    seeds = nested.outer_results_[0]["refit_seeds"]
    shown = ", ".join(map(str, seeds))
    assert f"3 of its 3 refits failed (seeds {shown})" in nested.outer_results_[0]["refits"]
    assert "1 of the 3 outer folds have no model" in message
    assert f"in outer fold 0, 3 of its 3 refits failed (seeds {shown})" in message
    assert "that succeeded" not in message


# --- a multi-output classifier's kept probabilities: cache and saved file ------------------


@pytest.fixture(scope="module")
def rare_label():
    """A multilabel target whose rare label 1 has all its positives in outer test fold 0: that
    fold's model learns one class for label 1, two for label 0."""
    rng = np.random.RandomState(0)
    features = rng.randn(90, 4)
    labels = np.column_stack([rng.rand(90) < 0.5, np.zeros(90, bool)]).astype(int)
    labels[:3, 1] = 1
    return features, labels


def _forest_benchmark(data, cache_dir):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = benchmark(
            {"forest": (RandomForestClassifier(n_estimators=5), {"max_depth": [2, 3]})},
            {"d": data}, outer_cv=OUTER, inner_cv=3, n_refits=2, random_state=0,
            keep_predictions=True, cache_dir=cache_dir,
        )  # fmt: skip
    return result, [w for w in caught if w.category is CacheWarning]


def test_multilabel_kept_probabilities_are_served_by_the_cache(rare_label, tmp_path):
    first, warned = _forest_benchmark(rare_label, tmp_path)
    assert warned == []
    again, warned = _forest_benchmark(rare_label, tmp_path)
    assert warned == []  # no entry rejected
    assert again.cells["d", "forest"].estimator.cache_info_["computed"] == 0
    np.testing.assert_array_equal(again.scores["score"], first.scores["score"])
    assert again.cells["d", "forest"].predictions == first.cells["d", "forest"].predictions
    # label by label, one row per test row of the classes each label's training rows hold
    features, labels = rare_label
    for fold, (train, test) in enumerate(OUTER.split(features)):
        kept = again.cells["d", "forest"].predictions[fold]
        widths = [np.unique(column).size for column in labels[train].T]
        assert [len(own) for own in kept["classes"]] == widths
        for refit in kept["proba"]:
            assert [np.shape(label) for label in refit] == [(len(test), w) for w in widths]


def test_multilabel_kept_probabilities_survive_save_and_load(rare_label, tmp_path):
    result, _ = _forest_benchmark(rare_label, None)
    path = tmp_path / "result.json"
    result.save(path)
    loaded = BenchmarkResult.load(path)
    saved = json.loads(json.dumps(result.cells["d", "forest"].predictions))
    assert loaded.cells["d", "forest"].predictions == saved
    assert loaded.cells["d", "forest"].predictions[0]["classes"] == [[0, 1], [0]]
