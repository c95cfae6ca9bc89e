"""aggregate()'s "datasets" column (and the runner's aggregate.csv) names the data sets it
pooled so that they can be counted (NAMES-2): two data sets "iris, wine" and "digits" read
"iris, wine, digits" (three?) before; each name is quoted where one holds the separator."""

import ast
import warnings

import pytest

from sklearn_fair.report import BenchmarkResult


def _result(datasets):
    # result_to_dict's shape: 3 outer folds of 10 rows, the second model 0.05 below the first
    def saved(shift, f0):
        return {
            "outer_results": [
                {
                    "test_score": 0.9 - shift + 0.02 * ((f + f0) % 3),
                    "test_scores": [0.9 - shift + 0.02 * ((f + f0) % 3)],
                    "validation_score": 0.9, "best_params": {},
                    "train_indices": [i for i in range(30) if i // 10 != f],
                    "test_indices": list(range(f * 10, (f + 1) * 10)), "fit_time": 1.0,
                }
                for f in range(3)
            ]
        }  # fmt: skip

    cells = {
        (d, model): saved(0.05 * i, j)
        for j, d in enumerate(datasets)
        for i, model in enumerate(["lr", "prior"])
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BenchmarkResult.from_results(cells, metric="accuracy", baseline="prior")


def _read_back(text):
    """The names in ``text`` read as a list of Python strings (None where it is not one)."""
    try:
        names = ast.literal_eval(f"[{text}]")
    except (ValueError, SyntaxError):
        return None
    return names if all(isinstance(name, str) for name in names) else None


@pytest.mark.parametrize(
    "datasets",
    [
        ["iris, wine", "digits"],
        ["a,b", "c"],
        ["iris", "wine, digits", "x"],
        ["it's", "o'clock, 5"],
        ["plain", 'say "hi"'],
    ],
)
def test_the_datasets_column_counts_and_names_each_data_set(datasets):
    column = _result(datasets).aggregate(n_resamples=50)["datasets"]
    assert column.nunique() == 1
    # read back as Python literals: as many names as data sets, each as given
    assert _read_back(column.iloc[0]) == datasets, column.iloc[0]


def test_plain_names_are_listed_as_they_are():
    column = _result(["iris", "wine", "breast cancer"]).aggregate(n_resamples=50)["datasets"]
    assert column.iloc[0] == "iris, wine, breast cancer"
