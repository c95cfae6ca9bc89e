"""What the audit can and cannot tell: too few permutations, a prepare that never reads the
labels, a warning said once, and a regressor's resampling flag (hunt LEAKAGE2)."""

import warnings

import numpy as np
import pytest
from sklearn.feature_selection import SelectKBest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.preprocessing import StandardScaler

from sklearn_fair import audit
from sklearn_fair.exceptions import GroupLeakageWarning
from sklearn_fair.leakage import PermutationReport, permutation_check


def _noise():
    rng = np.random.default_rng(0)
    return rng.normal(size=(80, 300)), rng.integers(0, 2, 80)


def _select_on_all_rows(X, y):
    return SelectKBest(k=10).fit_transform(X, y), y


def _scale_on_all_rows(X, y):
    return StandardScaler().fit_transform(X), y


def test_two_permutations_of_a_blatant_leak_are_inconclusive_not_a_pass():
    # LEAKAGE2-2: both permuted scores far above chance, but the 1-df interval reaches below
    X, y = _noise()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    result = audit(
        LogisticRegression(), X, y, cv=cv, prepare=_select_on_all_rows, n_permutations=2,
        checks="permutation", random_state=0,
    )  # fmt: skip
    p = result.permutation
    assert p.permuted_mean == pytest.approx(0.725)
    assert p.chance == pytest.approx(0.508, abs=1e-3)
    assert p.ci_low == pytest.approx(0.090, abs=1e-3)
    assert not p.leaks and result.flags == []
    expected = (
        "inconclusive: the permuted mean is above chance but 2 permutations cannot tell (run more)"
    )
    text = str(result)
    assert text.startswith(
        "Leakage audit: inconclusive (nothing flagged, but no leak was ruled out)\n"
    )
    assert "no leak found" not in text
    assert f"  ? permutation: {expected}" in text.splitlines()
    assert p.verdict == expected
    # passed keeps its meaning (no check flagged anything); inconclusive says the rest
    assert result.inconclusive and result.passed


def test_verdict_at_or_below_chance_plus_tolerance_is_unchanged():
    def report(estimates, ci_low):
        return PermutationReport(
            "accuracy", 0.5, None, np.asarray(estimates), ci_low, 1.0, 0.95, 0.25
        )

    assert report([0.5, 1.0], 0.0).verdict == "no leak"  # mean 0.75 = chance + tolerance
    assert report([0.5, 1.0], 0.8).verdict == "leak"
    assert report([0.75, 1.0], 0.0).verdict.startswith("inconclusive: ")


def test_a_prepare_that_never_reads_the_labels_gets_a_note():
    # LEAKAGE2-1: scaling on all rows gives every permuted run the same X
    X, y = _noise()
    note = (
        "prepare returned the same X for every permutation of the labels: a step in it that "
        "does not read them (scaling, imputation, PCA fitted on all rows) is invisible to the "
        "permutation check; fit it inside the pipeline, where each training fold fits it"
    )
    scaled = audit(
        LogisticRegression(), X, y, prepare=_scale_on_all_rows, n_permutations=3,
        checks="permutation", random_state=0,
    )  # fmt: skip
    assert note in scaled.notes and f"  note: {note}" in str(scaled).splitlines()
    assert scaled.permutation.prepare_reads_labels is False
    selected = permutation_check(
        LogisticRegression(), X, y, prepare=_select_on_all_rows, n_permutations=2,
        with_estimate=False, random_state=0,
    )  # fmt: skip
    assert selected.prepare_reads_labels is True
    plain = permutation_check(LogisticRegression(), X, y, n_permutations=2, random_state=0)
    assert plain.prepare_reads_labels is None


def test_the_group_leakage_warning_is_given_once_per_audit():
    # LEAKAGE2-3: it came once for the real run and once more for every permutation
    rng = np.random.default_rng(1)
    patient = np.repeat(np.arange(40), 5)
    y = rng.integers(0, 2, 40)[patient]
    X = rng.normal(size=(40, 6))[patient] * 3 + rng.normal(size=(200, 6)) * 0.3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = audit(
            KNeighborsClassifier(1), X, y, cv=KFold(5, shuffle=True, random_state=0),
            groups=patient, n_permutations=3, checks="permutation", random_state=0,
        )  # fmt: skip
    group_warnings = [str(w.message) for w in caught if w.category is GroupLeakageWarning]
    assert len(group_warnings) == 1
    assert "40 of the 40 groups" in group_warnings[0]
    assert result.groups_on_both_sides == (40, 40)


def _with_copies(X, y):
    return np.vstack([X, X[:10]]), np.r_[y, y[:10]]


def test_a_regressor_resampling_flag_names_no_class_balance():
    # LEAKAGE2-4: a regressor has no classes
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), rng.normal(size=40)
    result = audit(KNeighborsRegressor(1), X, y, prepare=_with_copies, checks="prefit")
    (flag,) = result.flags
    assert flag == (
        "resampling before splitting: prepare turned 40 samples into 50 (10 more copies of "
        "given samples, which a split can put on both sides of their originals); test folds "
        "can hold copies of training samples"
    )
    labels = (y > 0).astype(int)
    classified = audit(KNeighborsClassifier(1), X, labels, prepare=_with_copies, checks="prefit")
    # hunt LEAKAGE-2: the class balance is named only where a share moved by more than 0.05
    moved = np.abs(np.mean(_with_copies(X, labels)[1]) - np.mean(labels)) > 0.05
    assert ("no longer have the data's class balance" in classified.flags[0]) == moved
    assert classified.flags[0].endswith("can hold copies of training samples")


def test_a_prepare_returning_a_ragged_list_runs_as_before():
    # review41b: the digests of prepare's X raised on a list of rows of other lengths
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    rng = np.random.default_rng(0)
    X = [rng.random(rng.integers(2, 6)) for _ in range(60)]
    y = np.arange(60) % 2
    features = FunctionTransformer(lambda rows: np.array([[len(r), np.sum(r)] for r in rows]))
    report = permutation_check(
        make_pipeline(features, LogisticRegression()), X, y,
        param_grid={"logisticregression__C": [1.0]}, prepare=lambda X, y: (list(X), y),
        n_permutations=2, outer_cv=3, inner_cv=2, random_state=0,
    )  # fmt: skip
    assert report.prepare_reads_labels is None  # not told: no note either way
    assert len(report.permuted_estimates) == 2 and np.isfinite(report.permuted_estimates).all()
