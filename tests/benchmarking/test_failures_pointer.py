"""A failed scorer's warning tells a benchmark user where the failures are: the result's
``failures``, which a benchmark has (it has no failed_tasks_), and that lists them."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV, benchmark


def _data():
    return make_classification(n_samples=90, random_state=0)


def test_benchmark_points_at_its_results_failures():
    X, y = _data()
    # n_neighbors=60 fits on the 40 inner training rows and raises when it predicts (scored)
    model = NestedCV(KNeighborsClassifier(), {"n_neighbors": [3, 60]}, inner_cv=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = benchmark({"knn": model}, {"d": (X, y)}, outer_cv=3, n_refits=1, random_state=0)
    texts = [str(w.message) for w in caught if "had a scorer fail" in str(w.message)]
    assert texts and all("failed_tasks_" not in t for t in texts)
    assert all("the benchmark result's failures" in t for t in texts)
    failures = result.failures
    assert len(failures) > 0 and "n_neighbors" in " ".join(map(str, failures["first_error"]))


def test_nested_cv_still_points_at_failed_tasks_():
    X, y = _data()
    model = NestedCV(KNeighborsClassifier(), {"n_neighbors": [3, 60]}, outer_cv=3, inner_cv=3,
                     n_refits=1, random_state=0)  # fmt: skip
    with pytest.warns(UserWarning, match=r"listed in failed_tasks_\."):
        model.fit(X, y)
    assert np.any([t["key"]["candidate"] is not None for t in model.failed_tasks_])
