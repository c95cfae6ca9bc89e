"""The report's "How the folds were made" says which cells each description is of, where not
every cell shares it: an inner split that sees the future is named with its model and data
set."""

import re
import warnings

import numpy as np
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, KFold

from sklearn_fair import benchmark
from sklearn_fair.model_selection import RollingOrigin


def _series(n, seed):
    rng = np.random.RandomState(seed)
    t = np.arange(n)
    X = np.c_[np.sin(t / 5), t / n, rng.randn(n)]
    return X, 2 * X[:, 0] + X[:, 1] + 0.5 * rng.randn(n)


def _late(n):
    """By hand: how many of KFold(5)'s splits of the training folds of RollingOrigin(40, 10,
    skip=9) on ``n`` rows (the first 40, 50, ... rows, each fold testing the next 10) validate
    on a row before a training row, of how many."""
    splits = [
        (tr, te) for size in range(40, n - 10 + 1, 10) for tr, te in KFold(5).split(np.arange(size))
    ]
    return sum(te.min() < tr.max() for tr, te in splits), len(splits)


def test_how_the_folds_were_made_names_the_cells_whose_inner_splits_see_the_future():
    datasets = {"short": _series(80, 0), "long": _series(140, 1)}
    models = {
        "ridge": (Ridge(), {"alpha": [0.1, 10.0]}),
        "gs_kfold": GridSearchCV(Ridge(), {"alpha": [0.1, 10.0]}, cv=KFold(5)),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the leak itself is warned of where it is run
        result = benchmark(models, datasets, outer_cv=RollingOrigin(40, 10, skip=9),
                           n_refits=1, random_state=0)  # fmt: skip
    text = result.report(n_resamples=200).to_text()
    (line,) = [ln for ln in text.splitlines() if ln.startswith("How the folds were made")]
    for name, n in (("short", 80), ("long", 140)):
        late, total = _late(n)
        assert 0 < late < total
        assert (
            f"inner of gs_kfold on {name}: 5-fold KFold, {late} of the {total} validating on "
            "rows before their training rows (model selection sees the future)"
        ) in line
    # the time-ordered hold-out is ridge's on both data sets; the outer splits, per data set,
    # every model's
    assert "inner of ridge: one 90%/10% time-ordered hold-out" in line
    assert "outer on short: 4 splits of RollingOrigin" in line
    assert "outer on long: 10 splits of RollingOrigin" in line
    # no description of the inner splits is left without the cells it is of
    assert not re.search(r"(;|made:) inner:", line)


def test_a_description_every_cell_shares_is_said_once_without_cells():
    datasets = {"short": _series(80, 0), "long": _series(140, 1)}
    models = {"a": (Ridge(), {"alpha": [0.1, 10.0]}), "b": (Ridge(), {"alpha": [1.0, 5.0]})}
    result = benchmark(models, datasets, outer_cv=KFold(3), inner_cv=KFold(2), n_refits=1,
                       random_state=0)  # fmt: skip
    text = result.report(n_resamples=200).to_text()
    assert "How the folds were made: inner: 2-fold KFold, in each outer training fold; " in text
    assert "outer: 3-fold KFold." in text
