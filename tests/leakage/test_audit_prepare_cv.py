"""audit with a prepare that changes the number of samples, and a cv that cannot split them."""

import warnings

import numpy as np
import pytest
from imblearn.over_sampling import RandomOverSampler
from imblearn.under_sampling import RandomUnderSampler
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, KFold, PredefinedSplit

from sklearn_fair import audit


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 4)), np.r_[np.zeros(40, int), np.ones(20, int)]
    return X, y, np.repeat(np.arange(12), 5)


def _over(X, y):
    return RandomOverSampler(random_state=0).fit_resample(X, y)


def _under(X, y):
    return RandomUnderSampler(random_state=0).fit_resample(X, y)


def _counting(prepare, calls):
    def counted(X, y):
        calls.append(len(X))
        return prepare(X, y)

    return counted


def test_a_group_splitter_with_a_resampling_prepare_is_refused_by_name(data):
    X, y, groups = data
    calls = []
    # it was scikit-learn's "The 'groups' parameter should not be None." from a nested run
    with pytest.raises(ValueError, match=r"'cv' parameter of audit.*60 samples into 40.*groups"):
        audit(
            LogisticRegression(), X, y, cv=GroupKFold(3), groups=groups, inner_cv=3,
            prepare=_counting(_under, calls), n_permutations=2, random_state=0, n_jobs=1,
        )  # fmt: skip
    assert calls == [60]  # once, to count the samples: refused before any permuted run


def test_a_splitter_that_only_takes_groups_is_not_refused(data):
    # HoldoutSplit asks for groups (to keep them apart when given) but splits without them
    from sklearn_fair.model_selection import HoldoutSplit

    X, y, _ = data
    result = audit(
        LogisticRegression(), X, y, cv=HoldoutSplit(0.3, random_state=0), inner_cv=3,
        prepare=_under, n_permutations=2, random_state=0, n_jobs=1, checks=("permutation",),
    )  # fmt: skip
    assert np.isfinite(result.permutation.estimate)


@pytest.mark.parametrize(
    "make_cv",
    [
        lambda X: list(KFold(3).split(X)),
        lambda X: PredefinedSplit(np.arange(len(X)) % 3),
    ],
    ids=["list of splits", "PredefinedSplit"],
)
def test_given_splits_with_a_resampling_prepare_are_refused(data, make_cv):
    X, y, _ = data
    cv = make_cv(X)
    # the reference: the splits as given index rows 0-59 only, never the 20 rows added
    used = np.unique(np.concatenate([np.r_[tr, te] for tr, te in KFold(3).split(X)]))
    assert used.max() == 59 and len(_over(X, y)[0]) == 80
    with pytest.raises(ValueError, match=r"'cv' parameter of audit.*60 samples into 80"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            audit(
                LogisticRegression(), X, y, cv=cv, inner_cv=3, prepare=_over,
                n_permutations=2, random_state=0, n_jobs=1,
            )  # fmt: skip


def test_the_groups_note_only_when_groups_were_given(data):
    X, y, groups = data
    kwargs = dict(
        cv=3, inner_cv=3, prepare=_under, n_permutations=2, random_state=0, n_jobs=1,
        checks=("permutation",),
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        without = audit(LogisticRegression(), X, y, **kwargs)
        grouped = audit(LogisticRegression(), X, y, groups=groups, **kwargs)
    note = "groups are not passed through a prepare that changes the samples"
    assert without.resampled_before_split and note not in without.notes
    assert grouped.resampled_before_split and note in grouped.notes


def test_the_printed_audit_shows_small_scores_to_their_precision():
    # an MSE of 1.5e-8 against 1.5e-5 on permuted labels printed "-0.000; permuted -0.000",
    # hiding the gap the check is about
    from sklearn_fair.leakage import AuditResult, PermutationReport

    permuted = np.array([-2.0e-5, -1.0e-5])
    report = PermutationReport(
        "neg_mean_squared_error", -1.6e-5, -1.5e-8, permuted, -2.2e-5, -8.2e-6, 0.95, 0.05, "t"
    )
    text = str(AuditResult(None, report, None, 60, None, [], None))
    assert "real labels -1.5000e-08; permuted -1.5000e-05 [-2.2000e-05, -8.2000e-06]" in text
    assert "-0.000" not in text
    # scores near the largest float: their spread overflows, silently (no RuntimeWarning)
    huge = PermutationReport(
        "neg_mse", 0.0, -3e300, np.array([-1e300, -2e300]), -2e300, -1e300, 0.95, 0.0, "t"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "permuted -1.5000e+300" in str(AuditResult(None, huge, None, 60, None, [], None))
