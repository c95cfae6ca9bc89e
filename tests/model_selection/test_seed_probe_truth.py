"""The seed probe concludes that a seed changes nothing only from two refits that were fitted
and scored, and whose predictions (``predict`` too, not only the probabilities) are equal.

Hunts FAIL2-1 (a probe fold whose refits fail at predict time counted as "seeds change
nothing") and PROB-1 (a threshold that moves with the seed, with the probabilities unchanged).
"""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.datasets import make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import KFold, StratifiedKFold, TunedThresholdClassifierCV

from sklearn_fair import NestedCV, nested_cross_val_predict, nested_cross_validate
from sklearn_fair.model_selection._nested import _cache_key
from sklearn_fair.model_selection._nested._seeds import same_output


class _NoisyRidge(RegressorMixin, BaseEstimator):
    """Ridge on X plus 1e-3 noise drawn from ``random_state`` (so the seed matters), whose
    predict raises on ``fail_on_n`` rows (outer fold 0's test rows below)."""

    def __init__(self, alpha=1.0, fail_on_n=None, random_state=None):
        self.alpha = alpha
        self.fail_on_n = fail_on_n
        self.random_state = random_state

    def fit(self, X, y):
        noise = np.random.RandomState(self.random_state).randn(*X.shape)
        self.model_ = Ridge(alpha=self.alpha).fit(X + 1e-3 * noise, y)
        return self

    def predict(self, X):
        if self.fail_on_n is not None and len(X) == self.fail_on_n:
            raise ValueError("predict fails on these rows")
        return self.model_.predict(X)


def test_a_probe_whose_refits_fail_at_predict_time_shows_nothing():
    # KFold(3) of 121 rows: test folds of 41, 40 and 40 rows; only outer fold 0's fail. Its
    # two probe refits were both scored error_score (NaN is NaN) with no fingerprint, which
    # counted as "a seed changes nothing": folds 1 and 2 reported one seed's score
    X, y = make_regression(121, 5, noise=5, random_state=0)
    nested = NestedCV(
        _NoisyRidge(fail_on_n=41), {"alpha": [0.1, 1.0]}, outer_cv=KFold(3), inner_cv=KFold(3),
        scoring="neg_mean_squared_error", n_refits=3, random_state=2, refit=False,
    ).fit(X, y)  # fmt: skip
    assert len(nested.refit_seeds_) == 3
    for fold, (train, test) in enumerate(KFold(3).split(X)):
        result = nested.outer_results_[fold]
        assert result["refit_seeds"] == nested.refit_seeds_
        assert "identical predictions" not in result["refits"]
        if fold == 0:
            continue
        # the mean over the 3 seeds, each refit made by hand with scikit-learn's Ridge
        alpha = result["best_params"]["alpha"]
        by_hand = [
            -mean_squared_error(
                y[test],
                _NoisyRidge(alpha=alpha, random_state=seed)
                .fit(X[train], y[train])
                .predict(X[test]),
            )
            for seed in nested.refit_seeds_
        ]
        assert len(set(by_hand)) == 3  # the seed does change the score
        np.testing.assert_allclose(result["test_scores"], by_hand, rtol=1e-12)
        assert result["test_score"] == pytest.approx(np.mean(by_hand), rel=1e-12)


def _refit(scores, predictions="sha256:" + "0" * 64, error=None, score_errors=None):
    return {"scores": scores, "predictions": predictions, "error": error,
            "score_errors": score_errors or {}}  # fmt: skip


@pytest.mark.parametrize(
    "failed",
    [
        _refit({"score": np.nan}, error="Traceback: fit failed"),
        _refit({"score": np.nan}, predictions=None, score_errors={"score": "Traceback"}),
        # a numeric error_score, equal in both, with the fingerprint of what did predict
        _refit({"score": 0.0}, score_errors={"score": "Traceback: scorer raised"}),
        _refit({"score": np.nan}),  # a score that is not a number says nothing either
        _refit({"score": 0.5}, predictions=None),
    ],
)
def test_two_refits_that_were_not_both_measured_do_not_agree(failed):
    assert same_output(failed, dict(failed)) is False
    measured = _refit({"score": 0.5})
    assert same_output(measured, dict(measured)) is True


def _threshold_data():
    rng = np.random.RandomState(0)
    X = rng.randn(150, 4)
    y = (X[:, 0] + rng.randn(150) > 0.8).astype(int)
    # LogisticRegression's own seed set, so that the refit's seed is the tuner's own
    estimator = TunedThresholdClassifierCV(
        LogisticRegression(random_state=0), cv=0.5, scoring="balanced_accuracy"
    )
    return X, y, estimator


def test_a_threshold_that_moves_with_the_seed_gets_every_refit():
    # two refits of fold 0 chose different thresholds: their probabilities are identical and
    # their labels differ, yet the probe fingerprinted the probabilities alone and said that
    # a seed changes nothing, so folds 1 and 2 were trained once
    X, y, estimator = _threshold_data()
    cv = StratifiedKFold(3)
    info = nested_cross_validate(
        estimator, X, y, cv=cv, scoring="roc_auc", n_refits=3, random_state=0,
        return_nested_info=True,
    )  # fmt: skip
    seeds = info["refit_seeds"]
    train, test = next(cv.split(X, y))
    first, second = (
        clone(estimator).set_params(random_state=seed).fit(X[train], y[train])
        for seed in seeds[0][:2]
    )
    # scikit-learn's own refits: the same probabilities, other labels
    np.testing.assert_array_equal(first.predict_proba(X[test]), second.predict_proba(X[test]))
    assert (first.predict(X[test]) != second.predict(X[test])).any()
    assert [len(fold_seeds) for fold_seeds in seeds] == [3, 3, 3]

    # the out-of-fold labels: the majority vote of the 3 seeds' refits, made by hand
    predicted = nested_cross_val_predict(
        estimator, X, y, cv=cv, scoring="roc_auc", n_refits=3, random_state=0
    )
    by_hand = np.empty_like(y)
    for fold_seeds, (train, test) in zip(seeds, cv.split(X, y)):
        votes = [
            clone(estimator).set_params(random_state=seed).fit(X[train], y[train]).predict(X[test])
            for seed in fold_seeds
        ]
        by_hand[test] = (np.sum(votes, axis=0) >= 2).astype(int)
    np.testing.assert_array_equal(predicted, by_hand)


def test_the_probe_of_nested_cv_trains_every_seed_of_a_moving_threshold():
    X, y, estimator = _threshold_data()
    nested = NestedCV(
        estimator, outer_cv=StratifiedKFold(3), scoring="roc_auc", n_refits=3, random_state=0,
        refit=False,
    ).fit(X, y)  # fmt: skip
    for fold in nested.outer_results_:
        assert fold["refit_seeds"] == nested.refit_seeds_
        assert fold["refits"] == "trained with 3 seeds"


def test_entries_cached_by_other_sklearn_fair_code_are_not_read(tmp_path, monkeypatch):
    # the fingerprint of a refit's predictions changed (predict is in it now): an entry made
    # by the code before would compare two refits by their probabilities alone. The key of
    # every entry holds the hash of sklearn-fair's source, so no such entry is ever read
    X, y, estimator = _threshold_data()
    real = _cache_key.package_versions

    def older(extra=()):
        return {**real(extra), "sklearn-fair source": "sha256:" + "1" * 64}

    def run():
        return NestedCV(
            estimator, outer_cv=StratifiedKFold(3), scoring="roc_auc", n_refits=3,
            random_state=0, refit=False, cache_dir=tmp_path,
        ).fit(X, y)  # fmt: skip

    monkeypatch.setattr(_cache_key, "package_versions", older)
    assert run().cache_info_["hits"] == 0
    monkeypatch.setattr(_cache_key, "package_versions", real)
    assert run().cache_info_["hits"] == 0  # nothing the "older code" wrote was read
    assert run().cache_info_["hits"] > 0  # what this code wrote is
