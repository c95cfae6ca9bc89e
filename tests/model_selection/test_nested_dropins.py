"""The functional forms as drop-ins for scikit-learn's cross-validation trio (issue 23, items
2-6), each checked against scikit-learn's own idiom on the same splits."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.decomposition import TruncatedSVD
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    ShuffleSplit,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
    cross_validate,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._mocking import CheckingClassifier

from sklearn_fair import (
    NestedCV,
    nested_cross_val_predict,
    nested_cross_val_score,
    nested_cross_validate,
)
from sklearn_fair.exceptions import SearchSpaceEdgeWarning, SelectionTieWarning

X, y = make_classification(n_samples=120, n_features=6, n_informative=4, random_state=0)
OUTER = StratifiedKFold(5, shuffle=True, random_state=0)


# --- 23.2: nested_cross_val_predict -----------------------------------------------------------


@pytest.mark.parametrize(
    "search, method",
    [
        (GridSearchCV(SVC(), {"C": [0.1, 1.0, 10.0]}, cv=3), "predict"),
        (GridSearchCV(SVC(), {"C": [0.1, 1.0, 10.0]}, cv=3), "decision_function"),
        (GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, cv=3), "predict_proba"),
        (GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, cv=3), "predict_log_proba"),
    ],
)
def test_predict_equals_cross_val_predict_of_the_search(search, method):
    expected = cross_val_predict(search, X, y, cv=OUTER, method=method)
    got = nested_cross_val_predict(search, X, y, cv=OUTER, method=method)
    np.testing.assert_allclose(got, expected)


def test_predict_with_a_grid_equals_the_search_idiom_on_string_labels():
    labels = np.array(["no", "yes"])[y]
    grid = {"C": [0.1, 10.0]}
    expected = cross_val_predict(GridSearchCV(SVC(), grid, cv=KFold(3)), X, labels, cv=OUTER)
    got = nested_cross_val_predict(SVC(), X, labels, cv=OUTER, param_grid=grid, inner_cv=KFold(3))
    np.testing.assert_array_equal(got, expected)


def test_predict_refuses_what_is_not_a_partition_with_sklearns_message():
    # and says which parameter, which splitter and how far it is from a partition
    n_rows = len(X)
    tested = np.bincount(
        np.concatenate([te for _, te in ShuffleSplit(3, random_state=0).split(X)]),
        minlength=n_rows,
    )
    never, several = int(np.sum(tested == 0)), int(np.sum(tested > 1))
    with pytest.raises(
        ValueError,
        match=rf"only works for partitions: .* the 'cv' parameter's ShuffleSplit\(.*\) does "
        rf"not make \({never} of the {n_rows} rows are tested in no fold, {several} in more",
    ):
        nested_cross_val_predict(SVC(), X, y, cv=ShuffleSplit(3, random_state=0))
    with pytest.raises(ValueError, match="only works for partitions"):
        cross_val_predict(SVC(), X, y, cv=ShuffleSplit(3, random_state=0))


def test_several_refits_average_probabilities_and_predict_their_class():
    forest = RandomForestClassifier(n_estimators=5)  # random_state left unset: refits vary
    kwargs = dict(cv=OUTER, param_grid={"max_depth": [2, 4]}, n_refits=3, random_state=0)
    proba = nested_cross_val_predict(forest, X, y, method="predict_proba", **kwargs)
    classes = nested_cross_val_predict(forest, X, y, **kwargs)
    refits = nested_cross_validate(forest, X, y, return_estimator=True, **kwargs)["estimator"]
    for models, (_, test) in zip(refits, OUTER.split(X, y)):
        assert len(models) == 3
        mean = np.mean([m.predict_proba(X[test]) for m in models], axis=0)
        np.testing.assert_allclose(proba[test], mean)
        np.testing.assert_array_equal(classes[test], np.argmax(mean, axis=1))
        # the average of 3 refits is not any single refit's output
        assert not np.allclose(mean, models[0].predict_proba(X[test]))


def test_predict_of_a_deterministic_model_is_its_own_decision_rule():
    # the seed probe refits fold 0 twice (LogisticRegression's random_state is None); their
    # class came from the argmax of the averaged probabilities, which ignores a threshold:
    # three rows differed from cross_val_predict of the search
    from sklearn.model_selection import FixedThresholdClassifier

    X_small, y_small = make_classification(n_samples=80, random_state=0)
    model = FixedThresholdClassifier(LogisticRegression(), threshold=0.9)
    search = GridSearchCV(model, {"estimator__C": [0.1, 10.0]}, cv=3)
    expected = cross_val_predict(search, X_small, y_small, cv=4)
    np.testing.assert_array_equal(
        nested_cross_val_predict(search, X_small, y_small, cv=4), expected
    )


def test_refits_that_differ_keep_a_thresholded_classifiers_own_decision_rule():
    # three refits of a FixedThresholdClassifier (threshold 0.15) that differ: their class was
    # the argmax of the averaged probabilities, a threshold of 0.5, and far fewer positives
    # than any refit predicted; it is the majority vote of the refits' own predictions
    from sklearn.model_selection import FixedThresholdClassifier

    X_small, y_small = make_classification(300, 6, random_state=0, flip_y=0.1, weights=[0.8])
    model = FixedThresholdClassifier(
        SGDClassifier(loss="log_loss", max_iter=20, tol=None), threshold=0.15
    )
    outer = StratifiedKFold(4, shuffle=True, random_state=1)
    kwargs = dict(
        param_grid={"estimator__alpha": [1e-3, 1e-2]}, cv=outer, n_refits=3, random_state=0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nested_cross_val_predict(model, X_small, y_small, **kwargs)
        refits = nested_cross_validate(model, X_small, y_small, return_estimator=True, **kwargs)[
            "estimator"
        ]
    vote, argmax = np.empty_like(y_small), np.empty_like(y_small)
    for models, (_, test) in zip(refits, outer.split(X_small, y_small)):
        own = np.array([m.predict(X_small[test]) for m in models])
        vote[test] = (own.sum(axis=0) >= 2).astype(int)
        proba = np.mean([m.predict_proba(X_small[test])[:, 1] for m in models], axis=0)
        argmax[test] = (proba > 0.5).astype(int)
    np.testing.assert_array_equal(got, vote)
    assert vote.sum() > argmax.sum() + 10  # the refits differ, and the rule matters here


def test_a_tied_vote_goes_to_the_earliest_refits_class_whatever_the_hash_seed():
    # the tie went to the first of set(...): for text labels, an order that changes with
    # PYTHONHASHSEED, so the same run predicted other classes in another process
    from sklearn_fair.model_selection._engine import refits_class

    first = np.array([f"a{k}" for k in range(20)], dtype=object)
    second = np.array([f"b{k}" for k in range(20)], dtype=object)
    classes = np.sort(np.concatenate([first, second]))
    np.testing.assert_array_equal(refits_class([first, second], None, classes), first)
    np.testing.assert_array_equal(refits_class([second, first], None, classes), second)
    third = second.copy()
    np.testing.assert_array_equal(refits_class([first, second, third], None, classes), second)


@pytest.mark.parametrize("method", ["decision_function", "predict_log_proba"])
@pytest.mark.parametrize("seeded", [True, False])
def test_a_class_missing_from_a_training_fold_is_filled_as_cross_val_predict_fills_it(
    method, seeded
):
    # cross_val_predict fills the column of a class the fold's model never saw with the
    # smallest float; the average of several refits' fills overflowed to -inf (decision
    # values) or took the log of 0 (log probabilities)
    X_small, y_small = make_classification(
        n_samples=80, n_classes=3, n_informative=4, random_state=0
    )
    y_small[:6] = 3  # class 3 only in the test rows of the first outer fold
    model = SGDClassifier(loss="log_loss", random_state=0 if seeded else None)
    search = GridSearchCV(model, {"alpha": [1e-4, 1e-2]}, cv=KFold(3))
    got = nested_cross_val_predict(search, X_small, y_small, cv=KFold(4), method=method)
    assert np.isfinite(got).all()
    np.testing.assert_array_equal(got[:20, 3], np.finfo(float).min)
    if seeded:  # each refit is the search's model: the same numbers
        expected = cross_val_predict(search, X_small, y_small, cv=KFold(4), method=method)
        np.testing.assert_allclose(got, expected)


def test_refits_of_a_fold_without_a_class_vote_over_its_own_classes():
    # a classifier with decision_function and no predict_proba, three refits that differ, and
    # an outer training fold that lacks class 2: predict voted over decision values padded to
    # the 3 classes of y, which scikit-learn refuses for a binary decision_function ("Only 2
    # class/es in training fold, but 3 in overall dataset"). cross_val_predict predicts.
    rng = np.random.RandomState(0)
    X_small, y_small = rng.randn(60, 3), rng.randint(0, 2, 60)
    y_small[:6] = 2  # class 2 only in the test rows of the first outer fold
    X_small[:6] += 2
    model = SGDClassifier(loss="hinge", max_iter=3, tol=None)  # random_state unset
    assert cross_val_predict(model, X_small, y_small, cv=KFold(3)).shape == (60,)
    kwargs = dict(cv=KFold(3), n_refits=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter=3 does not converge
        got = nested_cross_val_predict(model, X_small, y_small, **kwargs)
        returned = nested_cross_validate(model, X_small, y_small, return_estimator=True, **kwargs)
    refits = returned["estimator"]
    assert got.shape == (60,)
    for models, (_, test) in zip(refits, KFold(3).split(X_small)):
        assert len(models) == 3
        decisions = [m.decision_function(X_small[test]) for m in models]
        assert not all(np.array_equal(d, decisions[0]) for d in decisions)  # they differ
        mean = np.mean(decisions, axis=0)
        classes = models[0].classes_
        expected = classes[(mean > 0).astype(int)] if mean.ndim == 1 else classes[mean.argmax(1)]
        np.testing.assert_array_equal(got[test], expected)
    assert set(got[:20]) <= {0, 1}  # the first fold's models never saw class 2


@pytest.mark.parametrize("seeded", [True, False])
def test_multilabel_probabilities_are_one_array_a_label_as_cross_val_predict_gives(seeded):
    from sklearn.datasets import make_multilabel_classification

    X_multi, Y_multi = make_multilabel_classification(n_samples=60, n_classes=3, random_state=0)
    forest = RandomForestClassifier(n_estimators=5, random_state=0 if seeded else None)
    search = GridSearchCV(forest, {"max_depth": [1, 3]}, cv=3)
    expected = cross_val_predict(search, X_multi, Y_multi, cv=4, method="predict_proba")
    got = nested_cross_val_predict(search, X_multi, Y_multi, cv=4, method="predict_proba")
    assert isinstance(got, list) and len(got) == 3
    assert [p.shape for p in got] == [p.shape for p in expected]
    for label in got:
        np.testing.assert_allclose(label.sum(axis=1), 1.0)
    if seeded:
        for ours, theirs in zip(got, expected):
            np.testing.assert_allclose(ours, theirs)


def _multi_output_targets():
    rng = np.random.RandomState(0)
    X_multi = rng.randn(60, 3)
    # label 0 takes 3 values, each outer training fold (KFold(3)) lacking another one
    multiclass = np.zeros((60, 2), dtype=int)
    multiclass[20:40, 0], multiclass[40:, 0] = 1, 2
    multiclass[:, 1] = rng.randint(0, 2, 60)
    X_multi[:, 0] += multiclass[:, 0]
    # label 0 positive only in rows of the first outer test fold
    multilabel = rng.randint(0, 2, (60, 3))
    multilabel[:, 0] = 0
    multilabel[:20:3, 0] = 1
    return X_multi, {"multiclass-multioutput": multiclass, "multilabel": multilabel}


def _exact_match(estimator, X, y):  # accuracy's multi-output form, which it refuses
    return float(np.mean(np.all(estimator.predict(X) == y, axis=1)))


@pytest.mark.parametrize("target", ["multiclass-multioutput", "multilabel"])
def test_multi_output_columns_follow_each_labels_classes_as_cross_val_predict(target):
    # each label's columns are the classes of that column of the whole y: a fold lacking a
    # class had one column fewer (the same column meant another class in other rows) or the
    # folds' arrays could not be joined
    X_multi, targets = _multi_output_targets()
    Y_multi = targets[target]
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 5]}, cv=KFold(2),
                          scoring=_exact_match)  # fmt: skip
    kwargs = dict(cv=KFold(3), method="predict_proba")
    expected = cross_val_predict(search, X_multi, Y_multi, **kwargs)
    got = nested_cross_val_predict(search, X_multi, Y_multi, **kwargs)
    assert [p.shape for p in got] == [p.shape for p in expected]
    for ours, theirs in zip(got, expected):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("method", ["predict_proba", "predict_log_proba"])
def test_a_column_vector_y_is_one_label_its_columns_those_of_its_classes(method):
    # a model takes y of shape (n, 1) as one label (one array of classes_): each fold lacking
    # another class joined into 2 columns whose class changed from row to row
    # (cross_val_predict raises an IndexError); the numbers of the 1-D y now
    rng = np.random.RandomState(0)
    X_three, y_three = rng.randn(60, 3), np.repeat([0, 1, 2], 20)
    X_three[:, 0] += y_three
    tree = DecisionTreeClassifier(random_state=0)
    search = GridSearchCV(tree, {"max_depth": [1, 3]}, cv=KFold(2))
    kwargs = dict(cv=KFold(3), method=method, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # DataConversionWarning: a column vector y
        column = nested_cross_val_predict(search, X_three, y_three.reshape(-1, 1), **kwargs)
    flat = nested_cross_val_predict(search, X_three, y_three, **kwargs)
    assert column.shape == flat.shape == (60, 3)
    np.testing.assert_array_equal(column, flat)


def test_multi_output_refits_that_differ_fill_a_missing_class_as_cross_val_predict():
    X_multi, targets = _multi_output_targets()
    forest = RandomForestClassifier(n_estimators=3)  # unseeded: the refits differ
    got = nested_cross_val_predict(forest, X_multi, targets["multiclass-multioutput"],
                                   cv=KFold(3), n_refits=3, random_state=0, scoring=_exact_match,
                                   method="predict_log_proba")  # fmt: skip
    assert got[0].shape == (60, 3) and got[1].shape == (60, 2)
    # the first fold's models never saw class 0 of label 0, the last never saw class 2: the
    # averaged fill took log(0)
    np.testing.assert_array_equal(got[0][:20, 0], np.finfo(float).min)
    np.testing.assert_array_equal(got[0][40:, 2], np.finfo(float).min)


def test_predict_is_exported():
    import sklearn_fair.model_selection as model_selection

    assert model_selection.nested_cross_val_predict is nested_cross_val_predict


# --- 23.3: cross_validate's arguments ---------------------------------------------------------


def test_return_train_score_equals_cross_validate_of_the_search():
    search = GridSearchCV(SVC(), {"C": [0.1, 10.0]}, cv=3)
    scoring = {"acc": "accuracy", "bacc": "balanced_accuracy"}
    expected = cross_validate(search, X, y, cv=OUTER, scoring=scoring, return_train_score=True)
    got = nested_cross_validate(
        search, X, y, cv=OUTER, scoring=scoring, return_train_score=True, pre_dispatch=1
    )
    assert set(got) == set(expected)
    for key in ("test_acc", "test_bacc", "train_acc", "train_bacc"):
        np.testing.assert_allclose(got[key], expected[key])


def test_several_metrics_without_refit_select_by_the_first():
    grid = {"C": [0.01, 0.1, 10.0]}
    scoring = ["balanced_accuracy", "accuracy"]
    search = GridSearchCV(SVC(), grid, cv=3, scoring=scoring, refit="balanced_accuracy")
    expected = cross_validate(search, X, y, cv=OUTER, scoring=scoring)
    got = nested_cross_validate(SVC(), X, y, cv=OUTER, scoring=scoring, param_grid=grid, inner_cv=3)
    np.testing.assert_allclose(got["test_balanced_accuracy"], expected["test_balanced_accuracy"])


@pytest.mark.parametrize("container", ["list", "series"])
def test_y_reaches_every_fit_in_the_users_container(container):
    pd = pytest.importorskip("pandas")
    target = y.tolist() if container == "list" else pd.Series(y, index=np.arange(len(y)) + 1000)
    kind = list if container == "list" else pd.Series
    clf = CheckingClassifier(check_y=lambda v: isinstance(v, kind))  # raises otherwise
    scores = nested_cross_val_score(
        clf, X, target, cv=3, param_grid={"foo_param": [0, 1]}, error_score="raise"
    )
    assert scores.shape == (3,)


def test_precomputed_kernel_equals_the_linear_kernel():
    grid = {"C": [0.1, 10.0]}
    kernel = X @ X.T
    linear = nested_cross_val_score(SVC(kernel="linear"), X, y, cv=OUTER, param_grid=grid)
    precomputed = nested_cross_val_score(
        SVC(kernel="precomputed"), kernel, y, cv=OUTER, param_grid=grid
    )
    np.testing.assert_allclose(precomputed, linear)


def test_sparse_sample_aligned_fit_parameter_is_indexed():
    import scipy.sparse as sp

    seen = []

    class Recording(CheckingClassifier):
        def fit(self, X, y, sparse_weight=None):
            seen.append((len(y), sparse_weight.shape[0]))
            return super().fit(X, y)

    nested_cross_val_score(
        Recording(), X, y, cv=3, params={"sparse_weight": sp.coo_matrix(np.ones((len(y), 1)))}
    )
    assert seen and all(n_rows == n_weights for n_rows, n_weights in seen)


# --- 23.4: the seeds the user set are kept ----------------------------------------------------


def _text_data():
    rng = np.random.RandomState(0)
    vocabulary = np.array([f"w{i}" for i in range(60)])
    labels = rng.randint(0, 2, 150)
    docs = [" ".join(rng.choice(vocabulary[label * 20 : label * 20 + 40], 12)) for label in labels]
    return docs, labels


def _imblearn_pipeline():
    imblearn = pytest.importorskip("imblearn")
    from imblearn.under_sampling import RandomUnderSampler

    return imblearn.pipeline.make_pipeline(
        StandardScaler(), RandomUnderSampler(random_state=0), LogisticRegression()
    )


SEEDED = {
    "sgd": lambda: (
        GridSearchCV(SGDClassifier(random_state=0), {"alpha": [1e-4, 1e-3]}, cv=2),
        X,
        y,
    ),
    "forest": lambda: (
        GridSearchCV(
            RandomForestClassifier(n_estimators=5, random_state=0), {"max_depth": [2, 4]}, cv=2
        ),
        X,
        y,
    ),
    "imblearn-sampler": lambda: (
        GridSearchCV(_imblearn_pipeline(), {"logisticregression__C": [0.1, 1.0]}, cv=2),
        *make_classification(n_samples=150, weights=[0.8, 0.2], random_state=0),
    ),
    "tfidf-svd": lambda: (
        GridSearchCV(
            make_pipeline(TfidfVectorizer(), TruncatedSVD(5, random_state=0), LogisticRegression()),
            {"logisticregression__C": [0.1, 10.0]},
            cv=2,
        ),
        *_text_data(),
    ),
}


@pytest.mark.parametrize("n_refits", [1, 3])
@pytest.mark.parametrize("case", SEEDED.values(), ids=SEEDED.keys())
def test_seeded_estimators_equal_sklearns_idiom_fold_by_fold(case, n_refits):
    search, data, target = case()
    expected = cross_val_score(search, data, target, cv=OUTER)
    got = nested_cross_val_score(search, data, target, cv=OUTER, n_refits=n_refits)
    np.testing.assert_allclose(got, expected)


def test_the_returned_model_keeps_the_users_seed():
    search, data, target = SEEDED["sgd"]()
    results = nested_cross_validate(search, data, target, n_refits=1, return_estimator=True)
    assert [model.random_state for model in results["estimator"]] == [0] * 5


def test_refits_vary_the_seeds_left_unset_only():
    pipe = make_pipeline(TruncatedSVD(3, random_state=0), RandomForestClassifier(n_estimators=3))
    results = nested_cross_validate(
        pipe, X, y, cv=3, n_refits=2, return_estimator=True, random_state=0
    )
    for models in results["estimator"]:
        assert [m[0].random_state for m in models] == [0, 0]
        forest_seeds = [m[-1].random_state for m in models]
        assert len(set(forest_seeds)) == 2 and None not in forest_seeds


# --- 23.5: reproducible by default ------------------------------------------------------------


def test_the_functions_give_the_same_result_on_every_call():
    X_bc, y_bc = load_breast_cancer(return_X_y=True)
    X_bc, y_bc = X_bc[::3], y_bc[::3]
    grid = {"C": [0.1, 1.0, 10.0]}
    first = nested_cross_val_score(SVC(), X_bc, y_bc, param_grid=grid)
    second = nested_cross_val_score(SVC(), X_bc, y_bc, param_grid=grid)
    np.testing.assert_array_equal(first, second)
    # unset seeds too: the forest's refits and the default inner hold-out
    forest = RandomForestClassifier(n_estimators=3)
    a = nested_cross_val_score(forest, X, y, param_grid={"max_depth": [2, 3]}, n_refits=2)
    b = nested_cross_val_score(forest, X, y, param_grid={"max_depth": [2, 3]}, n_refits=2)
    np.testing.assert_array_equal(a, b)


# --- 23.6: errors and warnings that say what to do --------------------------------------------


def test_a_search_and_a_grid_say_pass_one_or_the_other():
    search = GridSearchCV(SVC(), {"C": [1.0]})
    with pytest.raises(ValueError, match="pass one or the other"):
        nested_cross_val_score(search, X, y, param_grid={"C": [0.1, 1.0]})


def test_predict_after_refit_false_names_refit_false():
    nested = NestedCV(SVC(), {"C": [0.1, 1.0]}, outer_cv=3, refit=False).fit(X, y)
    with pytest.raises(AttributeError, match="refit=False"):
        nested.predict(X)


def test_single_class_grouped_inner_validation_names_fold_classes_groups_and_the_fix():
    # every group holds one class, and the grouped 10% inner hold-out is a single group
    groups = np.repeat(np.arange(12), 10)
    labels = np.repeat(np.arange(12) % 2, 10)
    with pytest.raises(ValueError) as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nested_cross_val_score(
                LogisticRegression(),
                X,
                labels,
                groups=groups,
                cv=3,
                param_grid={"C": [0.1, 1.0]},
                scoring="roc_auc",
            )
    message = str(info.value)
    for part in ("outer fold", "class counts", "group(s)", "GroupKFold", "StratifiedGroupKFold"):
        assert part in message


def test_warnings_point_at_the_callers_line_and_name_the_function():
    # three tiny C values tie on the 10% inner hold-out (every candidate predicts one class):
    # the edge of the grid wins on a tie, which the tie warning says instead of the edge's
    for call, owner in [
        (lambda: nested_cross_val_score(SVC(), X, y, param_grid={"C": [1e-4, 1e-3, 1e-2]}),
         "nested_cross_val_score"),
        (lambda: NestedCV(SVC(), {"C": [1e-4, 1e-3, 1e-2]}, outer_cv=3).fit(X, y), "NestedCV"),
    ]:  # fmt: skip
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        ties = [w for w in caught if issubclass(w.category, SelectionTieWarning)]
        assert ties and all(w.filename == __file__ for w in ties)
        assert f"outer folds of {owner}," in str(ties[0].message)
        assert not [w for w in caught if issubclass(w.category, SearchSpaceEdgeWarning)]


def test_an_inner_splitter_seeded_with_a_random_state_splits_every_fold_as_sklearns_clone():
    # scikit-learn clones the search per outer fold (a copy of its cv): each fold's inner
    # splits start from the same state. One shared splitter drew other splits in each fold,
    # selected other candidates, and advanced the user's RandomState
    from sklearn.neighbors import KNeighborsClassifier

    grid = {"n_neighbors": [1, 3, 5, 9, 15, 21]}

    def inner():
        return ShuffleSplit(3, test_size=0.3, random_state=np.random.RandomState(0))

    search = GridSearchCV(KNeighborsClassifier(), grid, cv=inner())
    theirs = cross_validate(search, X, y, cv=5, return_estimator=True)
    state = inner().random_state.get_state()[1]
    users = inner()
    ours = nested_cross_validate(
        KNeighborsClassifier(), X, y, cv=5, param_grid=grid, inner_cv=users, n_refits=1,
        return_nested_info=True,
    )  # fmt: skip
    np.testing.assert_array_equal(ours["test_score"], theirs["test_score"])
    assert ours["best_params"] == [e.best_params_ for e in theirs["estimator"]]
    np.testing.assert_array_equal(users.random_state.get_state()[1], state)
