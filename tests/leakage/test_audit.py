"""The audit's three checks on constructed cases, and its silence on a clean pipeline."""

import inspect
from functools import partial
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from imblearn.pipeline import make_pipeline as make_imb_pipeline
from imblearn.under_sampling import RandomUnderSampler
from scipy import sparse
from sklearn.base import clone
from sklearn.compose import make_column_transformer
from sklearn.datasets import make_classification
from sklearn.decomposition import PCA
from sklearn.exceptions import NotFittedError
from sklearn.feature_selection import RFE, SelectFromModel
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import average_precision_score, make_scorer
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    StratifiedKFold,
    check_cv,
    cross_val_score,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.utils.validation import check_is_fitted

from sklearn_fair import audit, nested_cross_validate
from sklearn_fair.leakage import (
    AuditResult,
    PrefitStep,
    chance_level,
    find_duplicates,
    find_prefit_steps,
    permutation_check,
)
from sklearn_fair.metrics import make_ppv_scorer
from sklearn_fair.utils._random import SEED_BOUND, draw_seeds, named_generator


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=60, n_features=5, random_state=0)


# ---- duplicates ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["array", "frame", "sparse"])
def test_find_duplicates_across_splits(kind):
    X = np.arange(12, dtype=float).reshape(6, 2)
    X[4] = X[1]
    X[5] = X[1]
    X = {"array": X, "frame": pd.DataFrame(X), "sparse": sparse.csr_matrix(X)}[kind]
    splits = [([0, 1, 2], [3, 4, 5]), ([0, 2, 3], [1, 4, 5])]
    report = find_duplicates(X, y=[0, 1, 0, 1, 1, 0], splits=splits)
    assert [g.tolist() for g in report.groups] == [[1, 4, 5]]
    assert [g.tolist() for g in report.straddling] == [[1, 4, 5]]
    assert report.n_splits_straddled == [1]
    assert report.same_label == [False]
    assert report.n_duplicates == 2 and report.leaks


def test_find_duplicates_treats_signed_zero_as_equal():
    report = find_duplicates(np.array([[0.0, 1.0], [-0.0, 1.0]]), splits=[([0], [1])])
    assert report.leaks


@pytest.mark.parametrize("kind", ["array", "sparse"])
def test_find_duplicates_treats_every_nan_as_equal(kind):
    # 0/0 gives a NaN with its sign bit set, np.nan one without: both are NaN in the same
    # place, as pandas' duplicated (the reference) and the docstring have it
    with np.errstate(invalid="ignore"):
        computed_nan = np.zeros(1) / np.zeros(1)
    X = np.array([[np.nan, 1.0], [0.0, 1.0], [np.nan, 1.0], [np.nan, 2.0]])
    X[2, 0] = computed_nan[0]
    expected = np.flatnonzero(pd.DataFrame(X).duplicated(keep=False)).tolist()
    assert expected == [0, 2]
    X = sparse.csr_matrix(X) if kind == "sparse" else X
    assert [g.tolist() for g in find_duplicates(X).groups] == [expected]


def test_find_duplicates_in_sparse_rows_ignores_stored_and_signed_zeros():
    X = sparse.csr_matrix(np.array([[1.0, 0.0, 2.0], [1.0, 0.0, 2.0], [1.0, 0.0, 3.0]]))
    stored_zero = sparse.csr_matrix(([1.0, 0.0, 2.0], [0, 1, 2], [0, 3]), shape=(1, 3))
    signed_zero = sparse.csr_matrix(([1.0, -0.0, 2.0], [0, 1, 2], [0, 3]), shape=(1, 3))
    X = sparse.vstack([X, stored_zero, signed_zero]).tocsr()
    report = find_duplicates(X)
    assert [g.tolist() for g in report.groups] == [[0, 1, 3, 4]]
    assert X[3].nnz == 3  # the caller's matrix is not changed


def test_find_duplicates_in_object_rows():
    nan = float("nan")
    X = np.array([["a", 1, nan], ["a", 1, nan], ["a", 1.0, nan], [None, 1, nan]], dtype=object)
    # NaN equals NaN in the same place, 1 equals 1.0, None is not "a": as pandas' duplicated
    assert pd.DataFrame(X).duplicated(keep=False).tolist() == [True, True, True, False]
    assert [g.tolist() for g in find_duplicates(X).groups] == [[0, 1, 2]]


@pytest.mark.parametrize(
    "first, second",
    [
        (1, 1.0), (True, 1), (np.True_, 1.0), (np.int64(1), 1.0), (1 + 0j, 1), (-0.0, 0),
        (np.float32(0.5), 0.5), (np.float32(0.1), 0.1), (2**53 + 1, float(2**53 + 1)),
        (1, "1"), (True, "True"), (1.5, 1.5 + 1j),
    ],
)  # fmt: skip
def test_find_duplicates_in_object_rows_compares_numbers_by_value_as_pandas(first, second):
    # an object column of ints and floats (a concat of an int and a float frame) holds 1 and
    # 1.0; a model sees both as 1.0, yet such rows were not copies. pandas' duplicated is the
    # reference, for the pairs it calls equal and for those it does not (float32 0.1 is not
    # 0.1, nor 2**53 + 1 the float 2**53, nor 1 the string "1")
    frame = pd.DataFrame({"n": pd.Series([first, second], dtype=object), "s": ["z", "z"]})
    expected = [[0, 1]] if frame.duplicated(keep=False).all() else []
    assert [g.tolist() for g in find_duplicates(frame).groups] == expected
    assert [g.tolist() for g in find_duplicates(frame.to_numpy()).groups] == expected


def test_find_duplicates_in_object_rows_treats_signed_zero_and_every_nan_as_equal():
    # a frame of mixed dtypes is rows of objects as an array; their float cells follow the rule
    # of float rows, as pandas' duplicated (the reference) and the docstring have it
    with np.errstate(invalid="ignore"):
        computed_nan = (np.zeros(1) / np.zeros(1))[0]  # an np.float64 NaN, sign bit set
    X = np.array(
        [["a", 0.0], ["a", -0.0], ["b", float("nan")], ["b", computed_nan], ["c", 1.5],
         ["c", np.float64(1.5)], ["c", 2.5]],
        dtype=object,
    )  # fmt: skip
    expected = np.flatnonzero(pd.DataFrame(X).duplicated(keep=False)).tolist()
    assert expected == [0, 1, 2, 3, 4, 5]
    assert [g.tolist() for g in find_duplicates(X).groups] == [[0, 1], [2, 3], [4, 5]]
    mixed = pd.DataFrame({"s": ["a", "a", "b"], "v": [0.0, -0.0, 0.0]})
    assert [g.tolist() for g in find_duplicates(mixed.to_numpy()).groups] == [[0, 1]]


def test_find_duplicates_in_a_frame_of_objects_compares_values_not_pandas_hashes():
    # pandas' hash_pandas_object hashes 1 and "1" (2.5 and "2.5") alike in an object column:
    # such rows were reported as copies, a leak where a split separated them; the same data
    # as an array were not. pandas' own duplicated is the reference
    frame = pd.DataFrame({"a": [1, "1", "x", "x", 2.5, "2.5"], "b": [0] * 6}, dtype=object)
    expected = np.flatnonzero(frame.duplicated(keep=False)).tolist()
    assert expected == [2, 3]
    assert [g.tolist() for g in find_duplicates(frame).groups] == [expected]
    assert [g.tolist() for g in find_duplicates(frame.to_numpy()).groups] == [expected]


@pytest.mark.parametrize(
    "first, second",
    [(np.int64(1), 1), (np.str_("a"), "a"), (np.bool_(True), True), (np.float32(0.5), 0.5)],
)
def test_find_duplicates_in_object_rows_takes_a_numpy_scalar_as_its_python_value(first, second):
    # np.int64(1) and 1 compare equal (and pandas' duplicated calls the rows copies); their
    # digests differed by the type's name
    X = np.empty((2, 2), dtype=object)
    X[0], X[1] = [first, "z"], [second, "z"]
    assert pd.DataFrame(X).duplicated(keep=False).tolist() == [True, True]
    assert [g.tolist() for g in find_duplicates(X).groups] == [[0, 1]]


def test_find_duplicates_treats_a_complex_signed_zero_as_zero():
    X = np.array([[0j], [complex(-0.0, 0.0)], [complex(0.0, -0.0)], [1j]])
    assert (X[:3] == X[0]).all()
    assert [g.tolist() for g in find_duplicates(X).groups] == [[0, 1, 2]]


def test_find_duplicates_in_graphs():
    def graph(nodes, label):
        return SimpleNamespace(x=np.asarray(nodes), edge_index=np.array([[0], [1]]), y=label)

    graphs = [graph([1, 2], 0), graph([1, 3], 1), graph([1, 2], 1), graph([4, 2], 0)]
    report = find_duplicates(graphs, splits=[([0, 1], [2, 3])])
    # the label is not part of a graph's identity
    assert [g.tolist() for g in report.straddling] == [[0, 2]]
    # a field stored as a list is the same field as an array of the same values
    as_list = SimpleNamespace(x=[1, 2], edge_index=[[0], [1]], y=0)
    assert [g.tolist() for g in find_duplicates([*graphs, as_list]).groups] == [[0, 2, 4]]
    # a graph whose fields were set in another order is the same graph
    reordered = SimpleNamespace(edge_index=np.array([[0], [1]]), y=1, x=np.array([1, 2]))
    assert [g.tolist() for g in find_duplicates([*graphs, reordered]).groups] == [[0, 2, 4]]


def test_audit_catches_duplicates(data):
    X, y = data
    X, y = np.vstack([X, X[:5]]), np.concatenate([y, y[:5]])
    result = audit(LogisticRegression(), X, y, checks="duplicates", random_state=0)
    assert not result.passed
    assert [g.tolist() for g in result.duplicates.straddling] == [[i, 60 + i] for i in range(5)]
    assert "duplicates" in result.flags[0]


# ---- permutation ---------------------------------------------------------------------------


def test_permutation_check_flags_a_leak_inside_the_protocol(data):
    X, y = data

    # duplicating every row before splitting puts most samples' twins in training; the
    # (permuted) label travels with its twin, so the estimate stays high on permuted labels
    def duplicate_rows(X, y):
        return np.vstack([X, X]), np.concatenate([y, y])

    result = audit(
        KNeighborsClassifier(n_neighbors=1),
        X,
        y,
        prepare=duplicate_rows,
        checks="permutation",
        random_state=0,
    )
    assert result.permutation.leaks
    assert result.permutation.permuted_mean > 0.9


def test_permutation_check_is_quiet_on_a_clean_pipeline(data):
    X, y = data
    pipe = make_imb_pipeline(StandardScaler(), RandomUnderSampler(), LogisticRegression())
    result = audit(pipe, X, y, cv=3, scoring="roc_auc", random_state=0)
    assert result.passed, str(result)
    assert result.permutation.chance == 0.5
    assert result.permutation.estimate > 0.8
    assert len(result.permutation.permuted_estimates) == 5


def test_audit_is_deterministic(data):
    X, y = data
    first = audit(LogisticRegression(), X, y, cv=3, n_permutations=2, random_state=1)
    second = audit(LogisticRegression(), X, y, cv=3, n_permutations=2, random_state=1)
    np.testing.assert_array_equal(
        first.permutation.permuted_estimates, second.permutation.permuted_estimates
    )


@pytest.mark.parametrize(
    "make", [lambda s: s, np.random.RandomState, np.random.default_rng], ids=["int", "RS", "Gen"]
)
def test_audit_takes_int_random_state_and_generator(data, make):
    # a Generator raised TypeError; the same seed of any kind gives the same report
    X, y = data

    def permuted(seed):
        result = audit(LogisticRegression(), X, y, cv=3, n_permutations=2, random_state=make(seed))
        return result.permutation.permuted_estimates

    first = permuted(4)
    np.testing.assert_array_equal(first, permuted(4))
    assert not np.array_equal(first, permuted(5))


def test_audit_and_nested_cv_read_an_int_cv_alike():
    # NestedCV reads outer_cv=3 as scikit-learn's check_cv does (StratifiedKFold, not
    # shuffled); the audit's estimate on the real labels is that very run
    X, y = make_classification(
        n_samples=60, n_features=5, class_sep=0.5, flip_y=0.2, shuffle=False, random_state=1
    )
    protocol = {"cv": 3, "scoring": "roc_auc"}  # a continuous score: no equality by chance
    result = audit(
        LogisticRegression(),
        X,
        y,
        checks="permutation",
        n_permutations=2,
        random_state=0,
        **protocol,
    )
    # the audit's seed of the real-label run: named "estimate" under the root it draws first
    root = np.random.RandomState(0).randint(SEED_BOUND)
    nested_seed = draw_seeds(named_generator(root, "estimate"))
    nested = nested_cross_validate(
        LogisticRegression(),
        X,
        y,
        outer_cv=3,
        scoring="roc_auc",
        n_refits=1,
        random_state=nested_seed,
    )
    assert result.permutation.estimate == pytest.approx(np.mean(nested["test_score"]))
    assert isinstance(check_cv(3, y, classifier=True), StratifiedKFold)


def test_int_cv_duplicates_are_those_of_unshuffled_folds():
    # rows 0-4 repeated at 55-59: unshuffled 3-fold puts them in folds 0 and 2, so every
    # pair straddles two splits; shuffling would mix some into one test fold
    X = np.random.default_rng(0).normal(size=(60, 3))
    X[55:] = X[:5]
    y = np.arange(60) % 2
    result = audit(LogisticRegression(), X, y, cv=3, checks="duplicates", random_state=0)
    expected = find_duplicates(X, y, StratifiedKFold(3).split(X, y))
    assert [g.tolist() for g in result.duplicates.straddling] == [
        g.tolist() for g in expected.straddling
    ]
    assert result.duplicates.n_splits_straddled == [2] * 5


@pytest.mark.parametrize("bad", [-1, 1.5, "0", True])
def test_audit_bad_random_state(data, bad):
    X, y = data
    with pytest.raises(
        ValueError, match=f"'random_state' parameter of audit must be .*Got {bad!r}"
    ):
        audit(LogisticRegression(), X, y, checks="duplicates", random_state=bad)


def test_audit_takes_a_generator(data):
    X, y = data
    runs = [
        audit(LogisticRegression(), X, y, cv=3, n_permutations=2, random_state=rng)
        for rng in (np.random.default_rng(0), np.random.default_rng(0))
    ]
    np.testing.assert_array_equal(
        runs[0].permutation.permuted_estimates, runs[1].permutation.permuted_estimates
    )


@pytest.mark.parametrize(
    "scoring, labels, expected",
    [
        ("accuracy", [0, 0, 0, 1], 0.75),
        (None, [0, 1, 1, 1], 0.75),
        ("balanced_accuracy", [0, 1, 2, 2], 1 / 3),
        ("roc_auc", [0, 0, 0, 1], 0.5),
        ("ppv", [0, 0, 0, 1], 0.25),
        ("kappa", [0, 1], 0.0),
        ("f1", [0, 1], None),
        ("recall", [0, 1], None),
        ("average_precision", [0, 0, 0, 1], None),
    ],
)
def test_chance_level(scoring, labels, expected):
    assert chance_level(scoring, labels) == expected


def test_metric_without_known_chance_takes_the_models_own(data):
    X, y = data
    result = audit(LogisticRegression(), X, y, cv=3, scoring="f1", n_permutations=2, random_state=0)
    assert 0.2 < result.permutation.chance < 0.8


def _noise(n_samples, n_features, n_positives, seed=0):
    X = np.random.default_rng(seed).normal(size=(n_samples, n_features))
    return X, np.r_[np.ones(n_positives, int), np.zeros(n_samples - n_positives, int)]


@pytest.mark.parametrize("scoring", ["recall", "f1"])
def test_permutation_check_is_quiet_on_clean_undersampling_for_recall_and_f1(scoring):
    # the pipeline the docs recommend, on pure noise: no leak. A model that predicts half of
    # the rows positive has recall 0.5 with no skill; a dummy predicting 20% positives (the
    # chance before) has 0.2, and flagged this pipeline in most seeds
    X, y = _noise(120, 5, 24)
    pipe = make_imb_pipeline(RandomUnderSampler(random_state=0), LogisticRegression())
    outer_cv = StratifiedKFold(5, shuffle=True, random_state=0)
    for seed in range(6):
        result = permutation_check(
            pipe, X, y, outer_cv=outer_cv, scoring=scoring, n_permutations=3,
            with_estimate=False, random_state=seed,
        )  # fmt: skip
        assert not result.leaks, (seed, result)


def test_permutation_check_flags_feature_selection_on_all_data_with_recall():
    # choosing the features most correlated with the (permuted) labels on all the data, before
    # splitting, leaks them into every test fold
    X, y = _noise(120, 500, 24)

    def select_on_all_data(X, y):
        correlation = np.abs((X - X.mean(0)).T @ (y - y.mean()))
        return X[:, np.argsort(correlation)[-10:]], y

    result = permutation_check(
        LogisticRegression(class_weight="balanced"), X, y, prepare=select_on_all_data,
        outer_cv=StratifiedKFold(5, shuffle=True, random_state=0), scoring="recall",
        n_permutations=3, with_estimate=False, random_state=0,
    )  # fmt: skip
    assert result.leaks, result


def test_average_precision_chance_is_that_of_a_random_ranking():
    # each test fold ranks k = 4 positives among n = 20 rows; a ranking independent of the
    # labels has the expected average precision (H_n + (k - 1) / (n - 1) * (n - H_n)) / n,
    # 0.309, above the prevalence 0.2
    n, k = 20, 4
    harmonic = sum(1 / i for i in range(1, n + 1))
    expected = (harmonic + (k - 1) / (n - 1) * (n - harmonic)) / n
    X, y = _noise(100, 5, 20)
    result = permutation_check(
        LogisticRegression(), X, y, outer_cv=StratifiedKFold(5, shuffle=True, random_state=0),
        scoring="average_precision", n_permutations=2, with_estimate=False, random_state=0,
    )  # fmt: skip
    assert result.chance == pytest.approx(expected, abs=0.03)


def _select_on_all_data(X, y):
    # the features most correlated with the (permuted) labels, chosen on all the data: a leak
    correlation = np.abs((X - X.mean(0)).T @ (y - y.mean()))
    return X[:, np.argsort(correlation)[-10:]], y


@pytest.mark.parametrize("metric", ["neg_log_loss", "roc_auc"])
def test_scoring_none_is_the_metric_a_search_scores_with(metric):
    # NestedCV scores a search given with scoring=None by the search's own scoring, as
    # cross_validate(search) does; the check named it accuracy and compared it with the
    # majority-class rate (0.8 here), which a log-loss never exceeds: the leak went unflagged
    X, y = _noise(60, 200, 12)
    search = GridSearchCV(LogisticRegression(), {"C": [1.0]}, scoring=metric, cv=3)
    outer_cv = StratifiedKFold(5, shuffle=True, random_state=0)
    kwargs = dict(prepare=_select_on_all_data, n_permutations=2, random_state=0)
    default = permutation_check(search, X, y, outer_cv=outer_cv, with_estimate=False, **kwargs)
    named = permutation_check(
        search, X, y, outer_cv=outer_cv, with_estimate=False, scoring=metric, **kwargs
    )
    for field in ("scoring", "chance", "permuted_estimates", "ci_low", "ci_high"):
        assert np.array_equal(getattr(default, field), getattr(named, field)), field
    assert default.scoring == metric and default.leaks
    if metric == "roc_auc":
        assert default.chance == 0.5
    result = audit(search, X, y, cv=outer_cv, checks="permutation", **kwargs)
    assert f"permutation : {metric}: " in str(result)


def test_scoring_none_of_an_unknown_score_takes_the_models_own_chance():
    # LogisticRegressionCV.score is its own scoring, a log-loss here (scikit-learn's score is
    # the reference); it was compared with the majority-class rate, as accuracy
    from sklearn.linear_model import LogisticRegressionCV
    from sklearn.metrics import log_loss

    X, y = _noise(60, 200, 30)
    model = LogisticRegressionCV(Cs=[1.0], cv=3, scoring="neg_log_loss")
    fitted = model.fit(X, y)
    assert fitted.score(X, y) == pytest.approx(-log_loss(y, fitted.predict_proba(X)))
    report = permutation_check(
        model, X, y, prepare=_select_on_all_data, n_permutations=2, with_estimate=False,
        outer_cv=StratifiedKFold(5, shuffle=True, random_state=0), random_state=0,
    )  # fmt: skip
    assert report.scoring == "score"
    assert report.chance < -0.69  # no better than predicting 0.5 for every row
    assert report.leaks


def test_permutation_check_that_cannot_score_raises_why():
    # roc_auc scores two classes: on three, every fold's scorer fails and every estimate is
    # NaN; the error was "The 'scores' parameter contains NaN", naming neither the metric nor
    # the cause
    import warnings

    X, y = np.random.default_rng(0).normal(size=(60, 5)), np.tile([0, 1, 2], 20)
    # scikit-learn's own error for this metric and these labels (the reference)
    with pytest.raises(ValueError, match="multi_class must be in"):
        cross_val_score(LogisticRegression(), X, y, scoring="roc_auc", error_score="raise")
    match = r"'roc_auc' scores with chance: .* has no finite score .*multi_class must be"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the scorer's failures, one per fold
        with pytest.raises(ValueError, match=match):
            permutation_check(
                LogisticRegression(), X, y, outer_cv=3, scoring="roc_auc", n_permutations=2,
                with_estimate=False, random_state=0,
            )  # fmt: skip
        with pytest.raises(ValueError, match=match):
            audit(LogisticRegression(), X, y, cv=3, scoring="roc_auc", n_permutations=2)

    def always_nan(estimator, X, y):
        return float("nan")

    with pytest.raises(ValueError, match=r"'always_nan' scores .*, as the scorer returned NaN"):
        permutation_check(
            LogisticRegression(), X, y, outer_cv=3, scoring=always_nan, n_permutations=2,
            with_estimate=False, random_state=0,
        )  # fmt: skip


# ---- prefit --------------------------------------------------------------------------------


def test_find_prefit_steps(data):
    X, y = data
    scaler = StandardScaler().fit(X)
    pipe = make_pipeline(
        make_column_transformer((scaler, [0, 1]), ("passthrough", [2])),
        FunctionTransformer(),
        FrozenEstimator(StandardScaler().fit(X)),
        LogisticRegression(),
    )
    found = find_prefit_steps(pipe)
    assert [(s.name, s.estimator, s.frozen) for s in found] == [
        ("columntransformer/standardscaler", "StandardScaler", False),
        ("frozenestimator", "StandardScaler", True),
    ]
    assert find_prefit_steps(make_pipeline(StandardScaler(), LogisticRegression())) == []


def test_find_prefit_steps_in_a_stacking_ensembles_final_estimator_and_a_target_transformer(
    data,
):
    # a frozen final_estimator survives clone and fit, used as fitted (its coefficients are
    # the same after a fit on other rows); it was not looked at
    from sklearn.base import clone
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.ensemble import StackingClassifier
    from sklearn.linear_model import Ridge

    X, y = data
    meta = LogisticRegression().fit(X[:, :1], y)
    stack = StackingClassifier(
        [("lr", LogisticRegression())], final_estimator=FrozenEstimator(meta), cv=2
    )
    refitted = clone(stack).fit(X[:40], y[:40]).final_estimator_
    assert np.array_equal(refitted.coef_, meta.coef_)
    assert [(s.name, s.estimator, s.frozen) for s in find_prefit_steps(stack)] == [
        ("final_estimator", "LogisticRegression", True)
    ]
    target = TransformedTargetRegressor(
        Ridge(), transformer=FrozenEstimator(StandardScaler().fit(y.reshape(-1, 1)))
    )
    assert [(s.name, s.frozen) for s in find_prefit_steps(target)] == [("transformer", True)]


@pytest.mark.parametrize(
    "make",
    [
        lambda: SelectFromModel(LogisticRegression()),
        lambda: RFE(LogisticRegression(), n_features_to_select=2),
        lambda: make_column_transformer((StandardScaler(), [0, 1]), remainder="passthrough"),
        lambda: GridSearchCV(PCA(), {"n_components": [1, 2]}, cv=3),
    ],
    ids=["SelectFromModel", "RFE", "ColumnTransformer", "GridSearchCV"],
)
def test_find_prefit_steps_lists_a_container_fitted_as_a_whole(data, make):
    # these keep fitted clones (estimator_, transformers_, best_estimator_) and leave their
    # parameters unfitted; scikit-learn's check_is_fitted (the reference) says they are fitted
    X, y = data
    step = make().fit(X, y)
    check_is_fitted(step)
    name = make_pipeline(step).steps[0][0]
    found = find_prefit_steps(make_pipeline(step, LogisticRegression()))
    assert [(s.name, s.estimator, s.frozen) for s in found] == [(name, type(step).__name__, False)]
    assert find_prefit_steps(make_pipeline(make(), LogisticRegression())) == []


_FITTED_SCALER = None  # a model fitted at the top of a script, read by a function


def _transform_with_the_global_scaler(X):
    return _FITTED_SCALER.transform(X)


def _with_the_global_scaler(fitted):
    global _FITTED_SCALER
    _FITTED_SCALER = fitted
    return FunctionTransformer(_transform_with_the_global_scaler)


@pytest.mark.parametrize(
    "wrap",
    [
        _with_the_global_scaler,
        lambda fitted: FunctionTransformer(fitted.transform),
        lambda fitted: FunctionTransformer(partial(_transform_with, scaler=fitted)),
        lambda fitted: FunctionTransformer(lambda X, scaler=fitted: scaler.transform(X)),
        lambda fitted: FunctionTransformer(lambda X: fitted.transform(X)),
        lambda fitted: FunctionTransformer(_call, kw_args={"f": fitted.transform}),
    ],
    ids=["global", "bound method", "partial", "default", "closure", "bound method in kw_args"],
)
def test_find_prefit_steps_lists_a_fitted_estimator_a_function_holds(data, wrap):
    # clone deep-copies a function parameter, with the fitted scaler it holds: every resample
    # used it as fitted, and the step was not listed. scikit-learn's clone is the reference
    X, y = data
    step = wrap(StandardScaler().fit(X))
    resampled = clone(make_pipeline(step, LogisticRegression()))[0].fit(X[:30])
    assert np.allclose(resampled.transform(X[:30]), StandardScaler().fit(X).transform(X[:30]))
    name = "functiontransformer/" + ("kw_args" if step.kw_args else "func")
    assert find_prefit_steps(make_pipeline(step, LogisticRegression())) == [
        PrefitStep(name, "StandardScaler", True)
    ]


def _transform_with(X, scaler):
    return scaler.transform(X)


def _call(X, f):
    return f(X)


def test_find_prefit_steps_skips_a_fitted_estimator_that_clone_refits(data):
    # clone clones an estimator held in a dict parameter: what each resample gets is unfitted
    X, y = data
    step = FunctionTransformer(_transform_with, kw_args={"scaler": StandardScaler().fit(X)})
    with pytest.raises(NotFittedError):
        check_is_fitted(clone(step).kw_args["scaler"])
    assert find_prefit_steps(make_pipeline(step, LogisticRegression())) == []


def test_find_prefit_steps_looks_at_a_column_transformers_remainder(data):
    # the remainder is an estimator parameter as a named transformer is; a frozen one survives
    # clone (scikit-learn's, the reference) and was not listed
    X, y = data
    frozen = FrozenEstimator(StandardScaler().fit(X[:, 2:]))
    for remainder, is_frozen in [(frozen, True), (StandardScaler().fit(X[:, 2:]), False)]:
        transformer = make_column_transformer((StandardScaler(), [0, 1]), remainder=remainder)
        assert (clone(transformer).remainder is frozen) is is_frozen
        assert find_prefit_steps(make_pipeline(transformer, LogisticRegression())) == [
            PrefitStep("columntransformer/remainder", "StandardScaler", is_frozen)
        ]


def test_audit_catches_prefit_steps(data):
    X, y = data
    pipe = make_pipeline(StandardScaler().fit(X), LogisticRegression())
    result = audit(pipe, X, y, checks="prefit")
    assert not result.passed
    assert "refitted after clone" in result.flags[0]


# ---- the result object and errors ----------------------------------------------------------


def test_report_prints_every_check(data):
    X, y = data
    result = audit(LogisticRegression(), X, y, cv=KFold(3), n_permutations=2, random_state=0)
    text = str(result)
    for part in ("Leakage audit", "duplicates", "permutation", "prefit steps"):
        assert part in text
    assert isinstance(result, AuditResult) and bool(result) is result.passed
    assert repr(result).startswith("<AuditResult")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"checks": "typo"}, "'checks' parameter of audit"),
        ({"n_permutations": 1}, "'n_permutations' parameter of audit"),
        ({"scoring": ["accuracy", "f1"]}, "'scoring' parameter of audit"),
        ({"n_permutations": True}, "'n_permutations' parameter of audit .*Got True"),
        ({"confidence": 1.0}, "'confidence' parameter of audit .*Got 1.0"),
        ({"chance": float("nan")}, "'chance' parameter of audit .*Got nan"),
        ({"cv": 1}, "'cv' parameter of audit .*Got 1"),
        ({"inner_cv": "five"}, "'inner_cv' parameter of audit .*Got 'five'"),
        # checked by nested_cross_validate inside, and named after what was called
        ({"param_grid": {"C": []}}, "'param_grid'.*'C'"),
    ],
)
def test_errors_name_the_parameter(data, kwargs, match):
    X, y = data
    with pytest.raises(ValueError, match=match):
        audit(LogisticRegression(), X, y, **kwargs)


@pytest.mark.parametrize(
    "scoring, same_in_sklearn, fix, scorer",
    [
        (
            "ppv",
            "precision",
            r"make_ppv_scorer\(pos_label='pos'\)",
            make_ppv_scorer(pos_label="pos", zero_division=0),
        ),
        (
            "average_precision",
            "average_precision",
            r"make_scorer\(average_precision_score, .*pos_label='pos'\)",
            make_scorer(
                average_precision_score,
                response_method=("decision_function", "predict_proba"),
                pos_label="pos",
            ),
        ),
    ],
    ids=["ppv", "average_precision"],
)
def test_a_metric_of_pos_label_1_on_other_labels_fails_before_any_fit(
    data, scoring, same_in_sklearn, fix, scorer
):
    X, y = data
    y = np.where(y == 1, "pos", "neg")
    # scikit-learn refuses these labels for the metric too (the reference; PPV is precision)
    with pytest.raises(ValueError, match="pos_label=1 is not a valid label"):
        cross_val_score(LogisticRegression(), X, y, scoring=same_in_sklearn, error_score="raise")

    def prepare(X, y):  # runs before every fit
        raise AssertionError("fitted before the labels were checked")

    message = (
        rf"'scoring' parameter of {{}} .*\['neg', 'pos'\]. Got '{scoring}'.*pos_label=1.*{fix}"
    )
    with pytest.raises(ValueError, match=message.format("audit")):
        audit(LogisticRegression(), X, y, scoring=scoring, prepare=prepare)
    with pytest.raises(ValueError, match=message.format("permutation_check")):
        permutation_check(LogisticRegression(), X, y, scoring=scoring, prepare=prepare)
    # a scorer of the positive label keeps working
    report = permutation_check(
        LogisticRegression(), X, y, outer_cv=3, n_permutations=2, random_state=0, scoring=scorer
    )
    assert np.isfinite([report.estimate, report.chance, *report.permuted_estimates]).all()
    assert report.estimate > 0.5


def test_pandas_string_labels_get_the_pos_label_message(data):
    # a Series of strings is an object array: its labels are Python strs, and the message's
    # example crashed on them with AttributeError ('str' object has no attribute 'item')
    pd = pytest.importorskip("pandas")
    X, y = data
    labels = pd.Series(np.where(y == 1, "pos", "neg"))
    with pytest.raises(ValueError, match=r"\['neg', 'pos'\]. Got 'precision'.*pos_label='pos'"):
        audit(LogisticRegression(), X, labels, scoring="precision")


def test_prepare_must_be_callable(data):
    X, y = data
    with pytest.raises(TypeError, match="'prepare' parameter of audit"):
        audit(LogisticRegression(), X, y, prepare="select")


def test_audit_passes_on_permutation_check_defaults():
    # audit repeats permutation_check's parameters in its own signature (sklearn style: no
    # **kwargs); the defaults are one decision, so the copies must agree.
    audit_parameters = inspect.signature(audit).parameters
    check_parameters = inspect.signature(permutation_check).parameters
    shared = sorted(set(audit_parameters) & set(check_parameters) - {"estimator", "X", "y"})
    assert {"prepare", "n_permutations", "chance", "tolerance", "confidence"} <= set(shared)
    assert [audit_parameters[name].default for name in shared] == [
        check_parameters[name].default for name in shared
    ]


def test_permutation_seeds_are_derived_by_name_not_by_draw_order(data):
    # permutation i gets the same labels and seed whatever n_permutations and with_estimate
    X, y = data
    two = permutation_check(
        LogisticRegression(), X, y, outer_cv=3, n_permutations=2, random_state=3
    )
    three = permutation_check(
        LogisticRegression(), X, y, outer_cv=3, n_permutations=3, with_estimate=False,
        random_state=3,
    )  # fmt: skip
    np.testing.assert_array_equal(two.permuted_estimates, three.permuted_estimates[:2])


@pytest.mark.parametrize(
    "scoring, labels, pos_label",
    [
        ("ppv", ["ill", "well", "well"], 1),
        ("precision", [0, 2, 2], 1),
        ("ppv", ["1", "0"], 1),
        ("precision", [0, 1], "1"),
    ],
)
def test_chance_level_refuses_a_positive_label_not_among_the_labels(scoring, labels, pos_label):
    # scikit-learn's precision refuses such a pos_label (ValueError); chance_level returned
    # the prevalence of a label that is not there, 0.0
    from sklearn.metrics import precision_score

    with pytest.raises(ValueError):
        precision_score(labels, labels, pos_label=pos_label)
    with pytest.raises(ValueError, match=r"'pos_label' parameter of chance_level.*Got"):
        chance_level(scoring, labels, pos_label=pos_label)


def test_chance_level_of_ppv_is_the_prevalence_of_the_positive_label():
    labels = ["ill", "well", "well", "well"]
    assert chance_level("ppv", labels, pos_label="ill") == 0.25  # 1 of 4, by hand
    assert chance_level("precision", [True, False, False], pos_label=True) == 1 / 3


def test_a_splitter_that_ignores_the_groups_is_flagged():
    # each subject has one label and its own features: KFold tests on subjects it trained on
    # (scikit-learn's cross_val_score 1.0, GroupKFold 0.72); the audit said "no leak found"
    import warnings

    from sklearn.model_selection import GroupKFold, KFold
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(20), 5)
    X = rng.normal(scale=3, size=(20, 5))[groups] + rng.normal(scale=0.3, size=(100, 5))
    y = np.repeat(rng.permutation(np.tile([0, 1], 10)), 5)
    straddling = {  # independently: the groups on both sides of some KFold split
        g for train, test in KFold(5, shuffle=True, random_state=0).split(X)
        for g in np.intersect1d(groups[train], groups[test])
    }  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        leaky = audit(
            KNeighborsClassifier(3), X, y, cv=KFold(5, shuffle=True, random_state=0),
            groups=groups, checks=("duplicates", "prefit"), random_state=0,
        )  # fmt: skip
        clean = audit(
            KNeighborsClassifier(3), X, y, cv=GroupKFold(5), groups=groups,
            checks=("duplicates", "prefit"), random_state=0,
        )  # fmt: skip
    assert not leaky.passed and leaky.groups_on_both_sides == (len(straddling), 20)
    assert any(flag.startswith(f"groups: {len(straddling)} of the 20") for flag in leaky.flags)
    assert clean.passed and clean.groups_on_both_sides == (0, 20)


def test_an_int_cv_with_groups_and_a_resampling_prepare_is_audited():
    # the prepared samples have no groups: the int cv had been made a group splitter anyway,
    # which then saw one group ("n_splits=4 greater than the number of groups: 1")
    import warnings

    from imblearn.under_sampling import RandomUnderSampler

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(80, 4)), np.r_[np.zeros(60, int), np.ones(20, int)]
    groups = np.repeat(np.arange(20), 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = audit(
            LogisticRegression(), X, y, cv=4, groups=groups, n_permutations=2, random_state=0,
            prepare=RandomUnderSampler(random_state=0).fit_resample,
        )  # fmt: skip
    assert result.n_prepared == 40 and result.resampled_before_split
    assert len(result.permutation.permuted_estimates) == 2
