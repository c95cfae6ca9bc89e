"""permutation_check on 2-D labels and with protocol keys it sets itself."""

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import KFold
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair.leakage import chance_level, permutation_check


def _best_constant_subset_accuracy(Y):
    """The reference: the best subset accuracy of any constant prediction of a label set."""
    X = np.zeros((len(Y), 1))
    return max(
        accuracy_score(Y, DummyClassifier(strategy="constant", constant=row).fit(X, Y).predict(X))
        for row in np.unique(Y, axis=0)
    )


@pytest.mark.parametrize(
    "Y",
    [
        np.array([[1, 0]] * 72 + [[0, 1]] * 18),
        # the columns' own majorities ([1, 1]) are not the most frequent label set ([1, 0])
        np.array([[1, 0]] * 4 + [[0, 1]] * 3 + [[1, 1]] * 3),
    ],
    ids=["80/20", "column modes differ"],
)
def test_chance_level_of_accuracy_on_multilabel_is_that_of_the_most_frequent_label_set(Y):
    assert chance_level("accuracy", Y) == pytest.approx(_best_constant_subset_accuracy(Y))


def test_chance_level_refuses_2d_labels_it_cannot_read():
    Y = np.array([[1, 0], [0, 1], [1, 1]])
    for scoring in ("balanced_accuracy", "precision", "ppv"):
        with pytest.raises(ValueError, match=r"'y' parameter of chance_level .*\(3, 2\)"):
            chance_level(scoring, Y)
    # one column is 1-D labels
    assert chance_level("balanced_accuracy", [[0], [1], [1]]) == 0.5


def test_permutation_check_on_multilabel_noise_is_quiet():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 3))  # no signal
    Y = np.array([[1, 0]] * 72 + [[0, 1]] * 18)
    # DummyClassifier(most_frequent), scored with the same (subset) accuracy, is the reference
    dummy = accuracy_score(Y, DummyClassifier(strategy="most_frequent").fit(X, Y).predict(X))
    report = permutation_check(
        KNeighborsClassifier(15), X, Y, outer_cv=KFold(3, shuffle=True, random_state=0),
        inner_cv=KFold(3), n_permutations=3, random_state=0, n_jobs=1, with_estimate=False,
    )  # fmt: skip
    assert report.chance == pytest.approx(dummy)
    assert not report.leaks


@pytest.mark.parametrize(
    "key, value", [("n_refits", 3), ("return_estimator", True), ("return_indices", False)]
)
def test_permutation_check_refuses_a_protocol_key_it_sets_itself(key, value):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), rng.integers(0, 2, 40)
    # a clear error naming the key and its value, not Python's "multiple values" TypeError
    with pytest.raises(ValueError, match=rf"sets the .*'{key}'.* Got {key}={value!r} instead"):
        permutation_check(
            LogisticRegression(), X, y, outer_cv=3, inner_cv=3, n_permutations=2,
            random_state=0, n_jobs=1, **{key: value},
        )  # fmt: skip


def test_saved_splits_pinned_to_their_labels_take_permuted_labels(tmp_path):
    # the labels fingerprint of a splits file refused every permuted-label run ("not the
    # labels the splits were saved with"), with a SavedSplits given to audit too: the splits
    # are checked once against the true labels, then replayed for the permutations
    from sklearn.model_selection import StratifiedKFold

    from sklearn_fair.exceptions import SplitsMismatchError
    from sklearn_fair.leakage import audit
    from sklearn_fair.model_selection import load_splits, save_splits

    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    splits = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    save_splits(splits, tmp_path / "s.json", y=y)
    saved = load_splits(tmp_path / "s.json")
    options = dict(n_permutations=2, random_state=0, param_grid={"C": [0.1, 1.0]})
    pinned = permutation_check(LogisticRegression(), X, y, outer_cv=saved, **options)
    plain = permutation_check(LogisticRegression(), X, y, outer_cv=splits, **options)
    assert pinned.estimate == plain.estimate
    np.testing.assert_array_equal(pinned.permuted_estimates, plain.permuted_estimates)
    assert audit(LogisticRegression(), X, y, cv=saved, **options).permutation.estimate == (
        plain.estimate
    )
    with pytest.raises(SplitsMismatchError, match="not those the splits were saved with"):
        permutation_check(LogisticRegression(), X, y[::-1], outer_cv=saved, **options)


def _accuracy_and_f1(estimator, X, y):
    predicted = estimator.predict(X)
    return {"acc": accuracy_score(y, predicted), "f1": f1_score(y, predicted)}


def test_a_search_whose_scoring_returns_a_dict_is_checked_in_the_metric_its_refit_names():
    # the chance scorer was the callable itself: summing its dicts raised TypeError
    from sklearn.datasets import make_classification
    from sklearn.model_selection import GridSearchCV

    X, y = make_classification(n_samples=100, weights=[0.8], random_state=0)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=3,
                          scoring=_accuracy_and_f1, refit="f1")  # fmt: skip
    report = permutation_check(search, X, y, n_permutations=2, cv=3, random_state=0)
    # shuffled labels against fixed predictions: F1 = 2 TP / (P + T), with E[TP] = P T / n,
    # is near 2 * 0.2 * 0.2 / 0.4 = 0.2 for 20% positives; accuracy's chance would be ~0.68
    assert 0.05 < report.chance < 0.4
