"""A user's polars frames (and pandas' nullable dtypes) as X, y and score tables: fingerprints
that tell a null from a NaN and read polars' Enum and Categorical dtypes, a Decimal
regression target kept as scikit-learn reads it, and the stats' tables read by column name.
"""

import decimal
import json
import warnings

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy import stats as scipy_stats
from sklearn.compose import make_column_transformer
from sklearn.datasets import make_classification, make_regression
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.report import nested_cv_report, result_to_dict
from sklearn_fair.report._results import _jsonable
from sklearn_fair.stats import (
    multiple_comparison,
    rank_comparison,
    repeated_measures_comparison,
)
from sklearn_fair.utils import fingerprint

OUTER = StratifiedKFold(3, shuffle=True, random_state=0)
INNER = StratifiedKFold(3, shuffle=True, random_state=1)


def _reference(pipe, grid, X, y):
    """scikit-learn's outer scores of the same nested run."""
    return cross_validate(GridSearchCV(pipe, grid, cv=INNER), X, y, cv=OUTER)["test_score"]


# -- POLARS-1: a null and a NaN -------------------------------------------------------------


def _fill_null(X):
    return X.fill_null(25.0)  # polars: the nulls alone, a NaN stays for the imputer


def _fillna(X):
    return X.fillna(25.0)  # pandas, masked dtype: pd.NA alone, a NaN stays for the imputer


def _polars_versions(X):
    nan = pl.DataFrame(X, schema=list("abcd"), nan_to_null=False)
    return nan, nan.with_columns(pl.col("a").fill_nan(None)), _fill_null


def _pandas_versions(X):
    def frame(null_where_nan):
        columns = {}
        for j, name in enumerate("abcd"):
            mask = np.isnan(X[:, j]) if null_where_nan else np.zeros(len(X), dtype=bool)
            columns[name] = pd.arrays.FloatingArray(X[:, j].copy(), mask)
        return pd.DataFrame(columns)

    return frame(False), frame(True), _fillna


@pytest.mark.parametrize("versions", [_polars_versions, _pandas_versions])
def test_null_and_nan_versions_of_X_are_not_one_cache_entry(versions, tmp_path):
    X, y = make_classification(n_samples=90, n_features=4, random_state=0)
    X[::3, 0] = np.nan
    X_nan, X_null, fill = versions(X)
    pipe = make_pipeline(FunctionTransformer(fill), SimpleImputer(), LogisticRegression())
    grid = {"logisticregression__C": [0.1, 1.0]}
    expected_nan = _reference(pipe, grid, X_nan, y)
    expected_null = _reference(pipe, grid, X_null, y)
    assert not np.allclose(expected_nan, expected_null)  # the two versions score otherwise

    def cached(X):
        return NestedCV(
            pipe, param_grid=grid, outer_cv=OUTER, inner_cv=INNER, n_refits=1,
            random_state=0, cache_dir=tmp_path,
        ).fit(X, y).outer_scores_  # fmt: skip

    np.testing.assert_allclose(cached(X_nan), expected_nan)
    np.testing.assert_allclose(cached(X_null), expected_null)  # not the NaN run's entry
    assert fingerprint(X_nan) != fingerprint(X_null)


def test_masked_columns_with_nulls_at_other_rows_fingerprint_differently():
    values = np.array([1.0, np.nan, 2.0])
    masked = pd.Series(pd.arrays.FloatingArray(values, np.array([False, False, True])))
    nulls = pd.Series(pd.arrays.FloatingArray(values, np.array([False, True, True])))
    assert fingerprint(masked) != fingerprint(nulls)


# -- POLARS-2: polars Enum and Categorical ----------------------------------------------------


@pytest.mark.parametrize("dtype", [pl.Enum(["neg", "pos"]), pl.Categorical], ids=str)
def test_enum_or_categorical_labels_give_scikit_learns_scores(dtype, tmp_path):
    X, y = make_classification(n_samples=90, n_features=4, random_state=0)
    labels = np.array(["neg", "pos"])[y]
    X = pl.DataFrame(X, schema=list("abcd"))
    y = pl.Series("label", labels, dtype=dtype)
    grid = {"C": [0.1, 1.0]}
    expected = _reference(LogisticRegression(), grid, X, labels)

    nested = NestedCV(
        LogisticRegression(), param_grid=grid, outer_cv=OUTER, inner_cv=INNER,
        random_state=0, cache_dir=tmp_path,
    ).fit(X, y)  # fmt: skip
    np.testing.assert_allclose(nested.outer_scores_, expected)
    result = benchmark(
        {"lr": (LogisticRegression(), grid)}, {"d": (X, y)},
        outer_cv=OUTER, inner_cv=INNER, n_refits=1, random_state=0,
    )  # fmt: skip
    np.testing.assert_allclose(result.scores["score"].to_numpy(), expected)


@pytest.mark.parametrize("dtype", [pl.Enum(["u", "v", "w"]), pl.Categorical], ids=str)
def test_enum_or_categorical_column_of_X_gives_scikit_learns_scores(dtype, tmp_path):
    X, y = make_classification(n_samples=90, n_features=4, random_state=0)
    colour = np.random.default_rng(0).choice(["u", "v", "w"], 90)
    X = pl.DataFrame(X, schema=list("abcd")).with_columns(pl.Series("colour", colour, dtype=dtype))
    pipe = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["colour"]), remainder="passthrough"),
        LogisticRegression(),
    )
    grid = {"logisticregression__C": [0.1, 1.0]}
    expected = _reference(pipe, grid, X, y)

    result = benchmark(
        {"lr": (pipe, grid)}, {"d": (X, y)},
        outer_cv=OUTER, inner_cv=INNER, n_refits=1, random_state=0,
    )  # fmt: skip
    np.testing.assert_allclose(result.scores["score"].to_numpy(), expected)
    nested = NestedCV(
        pipe, param_grid=grid, outer_cv=OUTER, inner_cv=INNER, n_refits=1,
        random_state=0, cache_dir=tmp_path,
    ).fit(X, y)  # fmt: skip
    np.testing.assert_allclose(nested.outer_scores_, expected)


def test_enum_columns_of_other_categories_fingerprint_differently():
    values = ["u", "v", "u"]
    first = pl.Series("c", values, dtype=pl.Enum(["u", "v"]))
    assert fingerprint(first) == fingerprint(pl.Series("c", values, dtype=pl.Enum(["u", "v"])))
    assert fingerprint(first) != fingerprint(pl.Series("c", values, dtype=pl.Enum(["v", "u"])))
    assert fingerprint(first) != fingerprint(pl.Series("c", values, dtype=pl.Enum(["u", "v", "w"])))
    # categories past any shortened text of the dtype
    many = [f"c{i}" for i in range(300)]
    assert fingerprint(pl.Series("c", ["c0"], dtype=pl.Enum(many))) != fingerprint(
        pl.Series("c", ["c0"], dtype=pl.Enum([*many[:-1], "other"]))
    )


# -- POLARS-3: a Decimal regression target ---------------------------------------------------


def _decimal_target():
    X, y = make_regression(n_samples=60, n_features=3, noise=5, random_state=0)
    prices = [decimal.Decimal(str(round(v, 2))) for v in y]
    as_floats = np.array([float(p) for p in prices])  # what scikit-learn's check_array reads
    return X, pl.Series("price", prices, dtype=pl.Decimal(10, 2)), as_floats


def _nested_ridge(X, y):
    return NestedCV(
        Ridge(), param_grid={"alpha": [0.1, 1.0]}, outer_cv=KFold(3, shuffle=True, random_state=0),
        inner_cv=3, n_refits=1, random_state=0, keep_predictions=True,
    ).fit(X, y)  # fmt: skip


def test_decimal_target_kept_as_floats_and_saved_as_numbers():
    X, y, as_floats = _decimal_target()
    nested = _nested_ridge(X, y)
    saved = json.loads(json.dumps(result_to_dict(nested)))
    for fold, kept in zip(nested.outer_results_, saved["outer_results"]):
        expected = as_floats[np.asarray(fold["test_indices"])].tolist()
        assert fold["predictions"]["y_true"] == expected
        assert all(type(v) is float for v in fold["predictions"]["y_true"])
        assert kept["predictions"]["y_true"] == expected


def test_decimal_target_report_shows_what_a_float_target_shows():
    X, y, as_floats = _decimal_target()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        decimal_page = nested_cv_report(_nested_ridge(X, y)).to_html()
        float_page = nested_cv_report(_nested_ridge(X, as_floats)).to_html()

    def figures(page):
        return [part.split('"')[0] for part in page.split('src="data:image/png;base64,')[1:]]

    assert figures(decimal_page)  # the predictions are drawn
    assert figures(decimal_page) == figures(float_page)


def test_decimal_target_survives_benchmark_save_and_load(tmp_path):
    X, y, as_floats = _decimal_target()
    result = benchmark(
        {"ridge": (Ridge(), {"alpha": [0.1, 1.0]})}, {"prices": (X, y)},
        outer_cv=KFold(3, shuffle=True, random_state=0), inner_cv=3, n_refits=1,
        random_state=0, keep_predictions=True,
    )  # fmt: skip
    path = tmp_path / "result.json"
    result.save(path)
    for predictions in (result.predictions, BenchmarkResult.load(path).predictions):
        rows = predictions["row"].to_numpy()
        assert predictions["y_true"].tolist() == as_floats[rows].tolist()


def test_jsonable_writes_a_decimal_as_a_float():
    assert _jsonable({"price": decimal.Decimal("39.80"), "nan": decimal.Decimal("NaN")}) == {
        "price": 39.8,
        "nan": None,
    }


# -- POLARS-4 and POLARS-5: polars tables of scores ------------------------------------------


def _scores():
    rng = np.random.default_rng(0)
    return {
        "rf": rng.uniform(0.7, 0.9, 8),
        "svm": rng.uniform(0.6, 0.8, 8),
        "knn": rng.uniform(0.5, 0.7, 8),
    }


def test_rank_comparison_reads_a_polars_table():
    data = _scores()
    values = np.column_stack(list(data.values()))
    result = rank_comparison(pl.DataFrame(data))
    ranks = scipy_stats.rankdata(-values, axis=1).mean(axis=0)
    assert result.models == ("rf", "svm", "knn")
    np.testing.assert_allclose(list(result.average_ranks.values()), ranks)
    statistic = scipy_stats.friedmanchisquare(*values.T).statistic
    np.testing.assert_allclose(result.statistic, statistic)
    # the permutation p-value (Monte Carlo here, seeded) of the same scores read from numpy
    assert result.pvalue == rank_comparison(values).pvalue
    assert str(result) == str(rank_comparison(pd.DataFrame(data)))
    assert str(multiple_comparison(pl.DataFrame(data))) == str(
        multiple_comparison(pd.DataFrame(data))
    )


def test_a_polars_table_with_a_column_of_names_is_refused_by_name():
    data = {"dataset": [f"d{i}" for i in range(8)], **_scores()}
    with pytest.raises(ValueError, match="column 'dataset' holds 'd0', which is not a number") as e:
        rank_comparison(pl.DataFrame(data))
    # the remedy a polars frame can follow (it has no set_index), and it gives the ranks of
    # the scores alone
    assert "scores.drop('dataset')" in str(e.value) and "set_index" not in str(e.value)
    followed = rank_comparison(pl.DataFrame(data).drop("dataset"))
    assert str(followed) == str(rank_comparison(pd.DataFrame(_scores())))


def test_repeated_measures_comparison_names_the_polars_columns():
    data = _scores()
    result = repeated_measures_comparison(pl.DataFrame(data))
    assert list(result.effects.index) == ["rf", "svm", "knn"]
    # a balanced, complete design: each model's effect is its mean score
    np.testing.assert_allclose(
        result.effects.to_numpy(), np.column_stack(list(data.values())).mean(axis=0)
    )
    pd.testing.assert_series_equal(
        result.effects, repeated_measures_comparison(pd.DataFrame(data)).effects
    )


def test_the_prefix_store_counts_a_polars_frame_by_its_data():
    # reuse_prefix's store bounds the bytes it keeps; a polars frame was counted by its
    # Python object (476 bytes for 40 MB of data), so set_output("polars") steps overran it
    from sklearn_fair.model_selection._nested._reuse import _nbytes

    values = np.zeros((1000, 50))
    frame = pl.DataFrame(values)
    assert _nbytes(frame) >= values.nbytes == frame.estimated_size()
    assert _nbytes(frame["column_0"]) >= values[:, 0].nbytes
