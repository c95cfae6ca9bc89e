"""Values a user's pipeline commonly holds that the cache key describes (a partial of a numpy
function, a dtype, a slice): described, told apart, and cached, not a warning that turns the
cache off for the whole run."""

import functools
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import CacheWarning
from sklearn_fair.utils._provenance import Describer, digest


def described(value):
    return digest(Describer().describe(value))


@pytest.mark.parametrize(
    "values",
    [
        [
            functools.partial(np.clip, a_min=-1, a_max=1),
            functools.partial(np.clip, a_min=-1, a_max=2),
            functools.partial(np.nan_to_num, nan=0.0),
        ],
        [
            np.dtype("float32"),
            np.dtype("float64"),
            np.dtype([("a", "<f8"), ("b", "<i4")]),
            np.dtype(("f8", (2,))),  # subarrays of one size ("|V16")
            np.dtype(("i8", (2,))),
        ],
        [slice(0, 2), slice(0, 3), slice(None, None, 2)],
    ],
)
def test_values_are_described_and_told_apart(values):
    digests = [described(value) for value in values]
    assert len(set(digests)) == len(values)
    assert digests == [described(value) for value in values]  # the same value, the same key


def test_partial_of_a_numpy_function_is_cached(tmp_path):
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    model = make_pipeline(
        FunctionTransformer(functools.partial(np.clip, a_min=-1, a_max=1)),
        FunctionTransformer(np.asarray, kw_args={"dtype": np.dtype("float32")}),
        LogisticRegression(),
    )

    def run(cache_dir):
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheWarning)
            return NestedCV(
                model, {"logisticregression__C": [0.1, 1.0]}, outer_cv=3, inner_cv=2,
                n_refits=1, refit=False, random_state=0, cache_dir=cache_dir,
            ).fit(X, y)  # fmt: skip

    cold, warm, fresh = run(tmp_path), run(tmp_path), run(None)
    assert cold.cache_info_["hits"] == 0
    assert warm.cache_info_["computed"] == 0
    np.testing.assert_array_equal(warm.outer_scores_, fresh.outer_scores_)
