"""pandas inputs beside X: y given to benchmark, sample_weight and other per-sample params in
another row order (paired by position, with a RowOrderWarning), and groups with missing
labels (refused)."""

import warnings

import numpy as np
import pytest
from sklearn import config_context
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate

from sklearn_fair import NestedCV, benchmark, nested_cross_validate
from sklearn_fair.exceptions import RowOrderWarning

pd = pytest.importorskip("pandas")


def _data(n=60):
    X, y = make_classification(n_samples=n, random_state=0)
    X = pd.DataFrame(X).sample(frac=1, random_state=0)  # labels in a shuffled order
    y = pd.Series(y, index=X.index, name="y")
    weights = pd.Series(np.where(y == 1, 5.0, 0.2), index=X.index)
    return X, y, weights


def _row_order_messages(fit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fit()
    return result, [str(w.message) for w in caught if w.category is RowOrderWarning]


def _reference(X, y, outer_splits, **params):
    """scikit-learn's outer scores of the same protocol, every input paired by position."""
    search = GridSearchCV(LogisticRegression(), {"C": [1.0]}, cv=StratifiedKFold(2))
    return cross_validate(
        search, X.to_numpy(), y.to_numpy(), cv=outer_splits,
        params={k: v.to_numpy() for k, v in params.items()},
    )["test_score"]  # fmt: skip


# -- benchmark: y in another row order than X -----------------------------------------------


def test_benchmark_warns_once_per_data_set_where_y_is_in_another_row_order():
    X, y, _ = _data()
    y_sorted = y.sort_index()
    models = {"a": (LogisticRegression(), {"C": [1.0]}), "b": LogisticRegression(C=1.0)}
    result, messages = _row_order_messages(
        lambda: benchmark(
            models,
            {"d": (X, y_sorted), "aligned": (X, y)},
            outer_cv=StratifiedKFold(3),
            inner_cv=StratifiedKFold(2),
            n_refits=1,
            random_state=0,
        )  # fmt: skip
    )
    assert len(messages) == 1, messages
    first = X.index.tolist()[0]
    assert messages[0].startswith("X and y of data set 'd' hold the same row labels")
    assert f"(position 0: X's row {first!r}, y's row 0)" in messages[0]
    assert "y.loc[X.index]" in messages[0]
    # paired by position, as NestedCV and scikit-learn pair them
    splits = list(StratifiedKFold(3).split(X, y_sorted))
    scores = result.scores.set_index(["dataset", "model"]).score
    np.testing.assert_allclose(scores["d", "a"], _reference(X, y_sorted, splits))


# -- per-sample params in another row order than X ----------------------------------------


def test_sample_weight_in_another_row_order_warns_and_is_paired_by_position():
    X, y, weights = _data()
    shuffled = weights.sort_index()
    nested = NestedCV(
        LogisticRegression(), {"C": [1.0]}, outer_cv=StratifiedKFold(3),
        inner_cv=StratifiedKFold(2), n_refits=1, random_state=0,
    )  # fmt: skip
    nested, messages = _row_order_messages(lambda: nested.fit(X, y, sample_weight=shuffled))
    assert len(messages) == 1, messages
    assert messages[0].startswith("X and sample_weight hold the same row labels")
    assert "sample_weight.loc[X.index]" in messages[0]
    splits = list(StratifiedKFold(3).split(X, y))
    reference = _reference(X, y, splits, sample_weight=shuffled)
    np.testing.assert_allclose(nested.outer_scores_, reference)
    # the weights put in X's order are those of the rows: other scores, and no warning
    aligned = _reference(X, y, splits, sample_weight=weights)
    assert not np.allclose(reference, aligned)
    nested, messages = _row_order_messages(lambda: nested.fit(X, y, sample_weight=weights))
    assert messages == []
    np.testing.assert_allclose(nested.outer_scores_, aligned)


@pytest.mark.parametrize("routing", [False, True])
def test_params_of_nested_cross_validate_in_another_row_order_warn(routing):
    X, y, weights = _data()
    estimator = LogisticRegression()
    with config_context(enable_metadata_routing=routing):
        if routing:
            estimator.set_fit_request(sample_weight=True).set_score_request(sample_weight=False)
        _, messages = _row_order_messages(
            lambda: nested_cross_validate(
                estimator,
                X,
                y,
                param_grid={"C": [1.0]},
                cv=3,
                n_refits=1,
                random_state=0,
                params={"sample_weight": weights.sort_index()},
            )  # fmt: skip
        )
    assert len(messages) == 1 and messages[0].startswith("X and sample_weight hold"), messages


def test_per_sample_params_in_x_order_or_without_x_labels_do_not_warn():
    X, y, weights = _data()
    nested = NestedCV(LogisticRegression(), outer_cv=3, n_refits=1, random_state=0)
    for given in (weights, weights.to_numpy(), weights.set_axis([f"r{i}" for i in X.index])):
        _, messages = _row_order_messages(lambda w=given: nested.fit(X, y, sample_weight=w))
        assert messages == []


# -- groups with missing labels ------------------------------------------------------------


def _groups_with_missing(kind, n):
    labels = [f"p{i % 15}" for i in range(n)]
    if kind == "float":
        groups = pd.Series(np.arange(n) % 15, dtype=float)
        groups.iloc[:12] = np.nan
    elif kind == "Int64":
        groups = pd.Series(np.arange(n) % 15, dtype="Int64")
        groups.iloc[:12] = pd.NA
    elif kind == "datetime":
        groups = pd.Series(pd.Timestamp("2020-01-01") + pd.to_timedelta(np.arange(n) % 15, "D"))
        groups.iloc[:12] = pd.NaT
    elif kind == "object":
        groups = pd.Series(labels, dtype=object)
        groups.iloc[:12] = None
    else:
        groups = pd.Series(labels, dtype="string")
        groups.iloc[:12] = pd.NA
    return groups


@pytest.mark.parametrize("kind", ["float", "Int64", "object", "string", "datetime"])
@pytest.mark.parametrize("classifier", [True, False])
def test_groups_with_missing_labels_are_refused_naming_where(kind, classifier):
    # 12 rows without a patient ID were one more group (a classifier's StratifiedGroupKFold
    # put them all in one test fold), or failed in the splitter with an unrelated error
    from sklearn.linear_model import Ridge

    n = 90
    rng = np.random.RandomState(0)
    X = pd.DataFrame(rng.normal(size=(n, 3)))
    y = pd.Series(rng.randint(0, 2, n))
    groups = _groups_with_missing(kind, n)
    estimator = LogisticRegression() if classifier else Ridge()
    nested = NestedCV(estimator, outer_cv=3, n_refits=1, random_state=0)
    expected = (
        r"^groups contains 12 NaN or missing value\(s\), at positions "
        r"\[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\]\.\.\.; give those rows their group"
    )
    with pytest.raises(ValueError, match=expected):
        nested.fit(X, y, groups=groups)


def test_an_array_X_leaves_y_as_the_index_the_others_are_checked_against():
    # hunt PANDAS2, PANDAS2-1: X as df.to_numpy() carries no index, and weights sorted by
    # their index were paired with another row's label, with nothing said
    X, y, weights = _data()
    sorted_weights = weights.sort_index()
    result, messages = _row_order_messages(
        lambda: NestedCV(LogisticRegression(), outer_cv=3, n_refits=1, random_state=0).fit(
            X.to_numpy(), y, sample_weight=sorted_weights
        )
    )
    at = int(np.flatnonzero(sorted_weights.index != y.index)[0])
    assert messages == [
        f"y and sample_weight hold the same row labels in different orders (position {at}: "
        f"y's row {y.index.tolist()[at]!r}, sample_weight's row "
        f"{sorted_weights.index.tolist()[at]!r}). Their rows are paired by position, as in "
        "scikit-learn. If they were not built in the same row order, put sample_weight in "
        "y's: sample_weight.loc[y.index]; if sample_weight's index was reset after a shuffle "
        "(its rows in y's order), reset y's too: y.reset_index(drop=True)."
    ]
    # paired by position, as scikit-learn pairs them
    expected = _reference(X, y, result.outer_cv_.split(X, y), sample_weight=sorted_weights)
    np.testing.assert_allclose(result.outer_scores_, expected)
    # the weights in y's order: nothing to say
    _, messages = _row_order_messages(
        lambda: NestedCV(LogisticRegression(), outer_cv=3, n_refits=1, random_state=0).fit(
            X.to_numpy(), y, sample_weight=weights
        )
    )
    assert messages == []


def test_missing_labels_are_named_by_position_and_by_the_index_label():
    # hunt PANDAS2, PANDAS2-3: "at indices [28]" was a position, and y.loc[28] another row
    X, y, _ = _data()
    y = y.astype("Int64")
    y.loc[5] = pd.NA
    position = int(np.flatnonzero(y.index == 5)[0])
    assert position != 5
    with pytest.raises(ValueError) as info:
        NestedCV(LogisticRegression(), outer_cv=3).fit(X, y)
    assert f"at positions [{position}] (index labels [5]);" in str(info.value)


def test_missing_values_of_a_two_column_y_are_named_by_row():
    # review41 REV-5: the position was that of the flattened values ([2]), not the row's
    from sklearn.linear_model import Ridge

    X = pd.DataFrame(np.arange(20.0).reshape(10, 2), index=range(5, 15))
    Y = pd.DataFrame({"a": np.arange(10.0), "b": np.ones(10)}, index=range(5, 15))
    Y.iloc[1, 0] = np.nan
    with pytest.raises(ValueError) as info:
        NestedCV(Ridge(), outer_cv=2).fit(X, Y)
    assert "y contains 1 NaN or missing value(s), in the rows at positions [1] (index " in str(
        info.value
    )
    assert "labels [6]);" in str(info.value)
