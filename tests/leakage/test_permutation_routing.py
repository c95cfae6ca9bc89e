"""permutation_check and audit with metadata routing on, and per-sample metadata with a
prepare that moves the rows."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, GroupKFold, KFold, cross_validate

from sklearn_fair import audit
from sklearn_fair.leakage import permutation_check

GRID = {"C": [0.01, 1.0]}


def _data(n=120, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 4)
    y = (X[:, 0] + 0.8 * rng.randn(n) > 0).astype(int)
    return X, y, np.repeat(np.arange(12), n // 12), rng.uniform(0.1, 3, n)


class WeightedLR(ClassifierMixin, BaseEstimator):
    """LogisticRegression whose fit takes ``foo`` (sample weights) and ``scale`` (a scalar
    that multiplies C); it records what it receives."""

    received = []

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y, foo=None, scale=None):
        type(self).received.append(scale)
        C = self.C if scale is None else self.C * scale
        self.lr_ = LogisticRegression(C=C).fit(X, y, sample_weight=foo)
        self.classes_ = self.lr_.classes_
        return self

    def predict(self, X):
        return self.lr_.predict(X)


def _check(X, y, **kwargs):
    kwargs = dict(outer_cv=KFold(3), inner_cv=KFold(3), n_permutations=2, random_state=0) | kwargs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return permutation_check(WeightedLR(), X, y, **kwargs)


def _shuffle_rows(X, y):
    order = np.random.RandomState(0).permutation(len(y))
    return X[order], y[order]


def _two_features(X, y):
    return X[:, :2], y


def _both(X, y, groups):
    """permutation_check's and audit's reports, groups given as ``groups``."""
    kwargs = dict(n_permutations=2, random_state=0, param_grid=GRID)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        checked = permutation_check(
            LogisticRegression(), X, y, groups=groups, outer_cv=GroupKFold(3),
            inner_cv=GroupKFold(3), **kwargs,
        )  # fmt: skip
        audited = audit(
            LogisticRegression(), X, y, groups=groups, cv=GroupKFold(3), inner_cv=GroupKFold(3),
            checks=("permutation",), **kwargs,
        ).permutation  # fmt: skip
    return checked, audited


def test_groups_reach_the_group_splitters_with_routing_on(routing):
    X, y, groups, _ = _data()
    # the reference: scikit-learn's nested idiom with routing, groups among the params
    ref = cross_validate(
        GridSearchCV(LogisticRegression(), GRID, cv=GroupKFold(3)), X, y, cv=GroupKFold(3),
        params={"groups": groups},
    )["test_score"].mean()  # fmt: skip
    on = _both(X, y, groups)
    sklearn.set_config(enable_metadata_routing=False)
    off = _both(X, y, groups)
    for report_on, report_off in zip(on, off):
        assert report_on.estimate == pytest.approx(ref) == report_off.estimate
        # the same permutations, split by the same groups
        np.testing.assert_allclose(report_on.permuted_estimates, report_off.permuted_estimates)


def test_groups_given_twice_with_routing_on_are_refused(routing):
    X, y, groups, _ = _data()
    with pytest.raises(ValueError, match=r"'groups' or as params\['groups'\], not both"):
        _check(X, y, groups=groups, params={"groups": groups}, outer_cv=GroupKFold(3))


@pytest.mark.parametrize("prepare", [_shuffle_rows, lambda X, y: (X[:60], y[:60])])
def test_per_sample_params_with_a_prepare_that_moves_the_rows_are_refused(routing, prepare):
    X, y, _, foo = _data()
    WeightedLR.received = []
    with pytest.raises(ValueError, match=r"'params' \(foo\) parameter .* 'prepare'"):
        permutation_check(
            WeightedLR().set_fit_request(foo=True, scale=False), X, y, prepare=prepare,
            params={"foo": foo}, outer_cv=KFold(3), inner_cv=KFold(3), n_permutations=2,
            random_state=0,
        )  # fmt: skip
    assert WeightedLR.received == []  # refused before any fit


def test_groups_with_a_prepare_that_moves_the_rows_are_refused():
    X, y, groups, _ = _data()
    with pytest.raises(ValueError, match=r"'groups' parameter .* 'prepare' .* 120 samples"):
        _check(X, y, groups=groups, prepare=_shuffle_rows, outer_cv=GroupKFold(3))


def test_params_not_per_sample_go_whole_with_a_prepare(routing):
    X, y, _, _ = _data()
    WeightedLR.received = []
    est = WeightedLR().set_fit_request(foo=False, scale=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = permutation_check(
            est, X, y, prepare=_shuffle_rows, params={"scale": 0.01}, outer_cv=KFold(3),
            inner_cv=KFold(3), n_permutations=2, random_state=0,
        )  # fmt: skip
    assert WeightedLR.received and set(WeightedLR.received) == {0.01}
    # the reference: scikit-learn on the prepared rows
    ref = cross_validate(est, *_shuffle_rows(X, y), cv=KFold(3), params={"scale": 0.01})
    assert report.estimate == pytest.approx(ref["test_score"].mean())


def test_per_sample_params_with_a_prepare_that_keeps_the_rows(routing):
    X, y, _, foo = _data()
    est = WeightedLR().set_fit_request(foo=True, scale=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = permutation_check(
            est, X, y, prepare=_two_features, params={"foo": foo}, outer_cv=KFold(3),
            inner_cv=KFold(3), n_permutations=2, random_state=0,
        )  # fmt: skip
    ref = cross_validate(est, X[:, :2], y, cv=KFold(3), params={"foo": foo})
    assert report.estimate == pytest.approx(ref["test_score"].mean())


def _scaled_and_encoded(X, y):
    """Rows kept in their order: the features scaled, the labels renamed ("no"/"yes" to 0/1)."""
    return 2.0 * X, np.unique(y, return_inverse=True)[1]


def test_groups_with_a_prepare_that_keeps_the_rows_and_renames_the_labels():
    # review of round 32: a prepare that label-encodes y keeps every row in its order, but
    # was refused with groups, as if it had moved them
    X, y, groups, _ = _data()
    words = np.where(y == 1, "yes", "no")
    report = _check(X, words, groups=groups, prepare=_scaled_and_encoded,
                    outer_cv=GroupKFold(3), inner_cv=GroupKFold(3))  # fmt: skip
    # the reference: scikit-learn on the prepared rows, split by the same groups
    search = GridSearchCV(WeightedLR(), {"C": [1.0]}, cv=GroupKFold(3))
    ref = cross_validate(search, 2.0 * X, y, groups=groups, cv=GroupKFold(3),
                         params={"groups": groups})  # fmt: skip
    assert report.estimate == pytest.approx(ref["test_score"].mean())
