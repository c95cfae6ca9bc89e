"""The bad-input matrix: every public entry point refuses bad input with a clear error.

Each case feeds one bad input to the public API (NestedCV and its functional forms, every
splitter, the split files, the metrics, the statistics, the graph estimator and loaders) and
expects a ValueError or TypeError subclass whose message names the parameter or the offending
item. The estimators given to NestedCV and the graph classifier record any fit (or training
loop) and fail it, so a case also proves that the input was refused before the expensive work;
NestedCV runs with a ``cache_dir``, which must hold no entry afterwards.
"""

import importlib.util
import json
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.datasets import make_classification

from sklearn_fair import NestedCV, nested_cross_val_score, nested_cross_validate
from sklearn_fair.exceptions import InvalidSplitError, SplitsMismatchError
from sklearn_fair.metrics import (
    concordance_correlation_coefficient,
    get_scorer,
    kappa,
    make_sensitivity_scorer,
    npv,
    ppv,
    sensitivity,
    specificity,
)
from sklearn_fair.model_selection import (
    Bootstrap,
    HoldoutSplit,
    PredefinedSplits,
    QuantileStratifiedKFold,
    RepeatedQuantileStratifiedKFold,
    RollingOrigin,
    SavedSplits,
    StratifiedGraphKFold,
    labels_fingerprint,
    load_splits,
    save_splits,
    validate_splits,
)
from sklearn_fair.stats import (
    bayesian_correlated_ttest,
    bootstrap_ci,
    compare,
    corrected_resampled_ttest,
    holm,
    iqm,
    paired_ttest,
    probability_of_improvement,
    summarize,
)

pytestmark = pytest.mark.timeout(60)

HAS_GRAPH = all(importlib.util.find_spec(name) for name in ("torch", "torch_geometric", "skorch"))
needs_graph = pytest.mark.skipif(not HAS_GRAPH, reason="needs the graph extra (torch, PyG, skorch)")

X, y = make_classification(n_samples=60, n_features=4, random_state=0)
X20, y20 = np.zeros((20, 2)), np.array([0, 1] * 10)
y_numeric = np.arange(20.0)
SCORES = [0.81, 0.84, 0.79, 0.88]


class ExpensiveWorkStarted(AssertionError):
    """Raised by the watched estimators: a bad input reached a fit."""


class FitRecorder:
    """How many fits (or training loops) the watched estimators were asked to run."""

    fits = 0


class ForbiddenFitClassifier(ClassifierMixin, BaseEstimator):
    """A classifier whose fit is recorded and fails: bad input must be refused before it."""

    def __init__(self, C=1.0, random_state=None):
        self.C = C
        self.random_state = random_state

    def fit(self, X, y=None):
        FitRecorder.fits += 1
        raise ExpensiveWorkStarted("fit must not be called on bad input")


class ForbiddenFitRegressor(RegressorMixin, BaseEstimator):
    """The regressor counterpart of ForbiddenFitClassifier."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y=None):
        FitRecorder.fits += 1
        raise ExpensiveWorkStarted("fit must not be called on bad input")


def nested(tmp, estimator=None, **params):
    """A NestedCV of a forbidden-fit classifier, caching into ``tmp / "cache"``."""
    defaults = {"outer_cv": 3, "inner_cv": 2, "cache_dir": tmp / "cache"}
    return NestedCV(estimator or ForbiddenFitClassifier(), **{**defaults, **params})


def with_values(values, positions, value):
    values = np.asarray(values, dtype=float).copy()
    values[positions] = value
    return values


def _nullable(values, dtype, positions):
    """``values`` as a pandas Series of a nullable ``dtype``, missing (pd.NA) at ``positions``."""
    pandas = pytest.importorskip("pandas")
    series = pandas.Series(values, dtype=dtype)
    series[positions] = pandas.NA
    return series


def label_graphs(labels):
    """Torch-free graph stand-ins: anything indexable whose items carry a ``.y``."""
    return [SimpleNamespace(y=label) for label in labels]


def splits_file(tmp, document, name="splits.json"):
    path = tmp / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


SPLITS_DOC = {
    "format": "sklearn-fair-splits",
    "version": 1,
    "n_samples": 4,
    "kfold": False,
    "labels_fingerprint": None,
    "folds": [{"train": [0, 1, 2], "test": [3]}],
}


def splits_doc(**changes):
    return {**SPLITS_DOC, **changes}


def load_doc(tmp, **changes):
    return load_splits(splits_file(tmp, splits_doc(**changes)))


def load_gnn(tmp, folds):
    return load_splits(splits_file(tmp, folds), format="gnn-comparison")


FOLD_INDICES = {
    "train": [np.arange(5, 20), np.r_[0:5, 10:20], np.arange(10)],
    "test": [np.arange(5), np.arange(5, 10), np.arange(10, 20)],
}
OTHER_INDICES = {
    "train": FOLD_INDICES["train"],
    "test": [np.arange(5), np.arange(5, 10), np.arange(11, 20)],
}


def result(scores=(0.80, 0.85, 0.83), indices=FOLD_INDICES):
    return {"test_score": list(scores), "indices": indices}


# --- graph helpers (built only with the graph extra) --------------------------------------------

if HAS_GRAPH:
    import torch
    from torch_geometric.data import Data

    from sklearn_fair.graph import (
        GIN,
        GraphClassifier,
        MolecularFingerprint,
        load_mutag,
        load_tu_dataset,
    )

    class WatchedGraphClassifier(GraphClassifier):
        """A GraphClassifier whose training loop is recorded and fails."""

        def fit_loop(self, X, y=None, epochs=None, **fit_params):
            FitRecorder.fits += 1
            raise ExpensiveWorkStarted("training must not start on bad input")


def graph(n_nodes=4, n_features=3, label=0, *, x=True):
    """A hand-built path graph with constant node features."""
    edges = [list(range(n_nodes - 1)), list(range(1, n_nodes))] if n_nodes > 1 else [[], []]
    return Data(
        x=torch.ones(n_nodes, n_features) if x else None,
        edge_index=torch.tensor(edges, dtype=torch.long).reshape(2, -1),
        y=torch.tensor([label]),
    )


def graphs(last=None, n=6):
    """``n`` two-class graphs, the last one replaced by ``last`` when given."""
    items = [graph(label=i % 2) for i in range(n)]
    if last is not None:
        items[-1] = last
    return items


def graph_with(attribute, value, index=(0, 0)):
    item = graph(label=1)
    getattr(item, attribute)[index] = value
    return item


def graph_clf(module=None, **params):
    defaults = dict(module__hidden_units=4, max_epochs=1, validation_fraction=None)
    return WatchedGraphClassifier(module or MolecularFingerprint, **{**defaults, **params})


def graph_fit(X_graphs, y=None, **params):
    return graph_clf(**params).fit(X_graphs, y)


# --- the matrix ---------------------------------------------------------------------------------


def case(case_id, call, error, match, *marks):
    return pytest.param(call, error, match, id=case_id, marks=marks)


NESTED_CASES = [
    case(
        "nested-X-y-lengths",
        lambda tmp: nested(tmp).fit(X, y[:-1]),
        ValueError,
        r"inconsistent numbers of samples: \[60, 59\]",
    ),
    case(
        "nested-nan-in-y",
        lambda tmp: nested(tmp).fit(X, with_values(y, 5, np.nan)),
        ValueError,
        r"y contains 1 NaN .*\[5\]",
    ),
    case(
        # a nullable boolean (or string) y keeps pd.NA as it is: it crashed in numpy's sort
        # ("boolean value of NA is ambiguous") or fitted to NaN scores, past the check
        "nested-pandas-na-in-boolean-y",
        lambda tmp: nested(tmp).fit(X, _nullable(y.astype(bool), "boolean", [5, 7])),
        ValueError,
        r"y contains 2 NaN or missing value\(s\), at positions \[5, 7\]",
    ),
    case(
        "nested-pandas-na-in-string-y",
        lambda tmp: nested(tmp).fit(X, _nullable(y.astype(str), "string", [3])),
        ValueError,
        r"y contains 1 NaN or missing value\(s\), at positions \[3\]",
    ),
    case(
        "nested-inf-in-y",
        lambda tmp: nested(tmp, ForbiddenFitRegressor()).fit(X, with_values(y, [5, 9], np.inf)),
        ValueError,
        r"y contains 2 infinite .*\[5, 9\]",
    ),
    case(
        "nested-single-class",
        lambda tmp: nested(tmp).fit(X, np.zeros(60, dtype=int)),
        ValueError,
        r"y holds 1 class \(0\)",
    ),
    case(
        "nested-every-class-too-small-for-the-folds",
        # every class has fewer members than folds: scikit-learn's splitter would raise too
        lambda tmp: nested(tmp).fit(X, np.repeat(np.arange(30), 2)),
        ValueError,
        r"outer_cv.*class 0 has only 2 member",
    ),
    case(
        "nested-string-y-for-regressor",
        lambda tmp: nested(tmp, ForbiddenFitRegressor()).fit(X, np.array(["low", "high"] * 30)),
        ValueError,
        r"y must be numeric for the regressor ForbiddenFitRegressor.*'low'",
    ),
    case(
        "nested-empty-grid",
        lambda tmp: nested(tmp, param_grid=[]).fit(X, y),
        ValueError,
        r"'param_grid' parameter of NestedCV is empty",
    ),
    case(
        "nested-empty-grid-values",
        lambda tmp: nested(tmp, param_grid={"C": []}).fit(X, y),
        ValueError,
        r"'param_grid'.*'C'",
    ),
    case(
        "nested-grid-not-a-dict",
        lambda tmp: nested(tmp, param_grid=5).fit(X, y),
        TypeError,
        r"'param_grid' parameter of NestedCV must be .*dict.*Got 5",
    ),
    case(
        "nested-unknown-grid-parameter",
        lambda tmp: nested(tmp, param_grid={"C": [1.0], "gamma": [1]}).fit(X, y),
        ValueError,
        r"Invalid parameter 'gamma'.*Valid parameters are: \['C', 'random_state'\]",
    ),
    case(
        "nested-unknown-distribution-parameter",
        lambda tmp: nested(tmp, param_distributions={"alpha": [1, 2]}, n_iter=2).fit(X, y),
        ValueError,
        r"Invalid parameter 'alpha'",
    ),
    case(
        "nested-grid-and-distributions",
        lambda tmp: nested(tmp, param_grid={"C": [1]}, param_distributions={"C": [1]}).fit(X, y),
        ValueError,
        r"either 'param_grid' or 'param_distributions'",
    ),
    case(
        "nested-n_refits-zero",
        lambda tmp: nested(tmp, n_refits=0).fit(X, y),
        ValueError,
        r"'n_refits' parameter.*Got 0",
    ),
    case(
        "nested-n_refits-negative",
        lambda tmp: nested(tmp, n_refits=-2).fit(X, y),
        ValueError,
        r"'n_refits' parameter.*Got -2",
    ),
    case(
        "nested-n_iter-zero",
        lambda tmp: nested(tmp, param_distributions={"C": [1.0, 2.0]}, n_iter=0).fit(X, y),
        ValueError,
        r"'n_iter' parameter.*Got 0",
    ),
    case(
        "nested-outer_cv-zero",
        lambda tmp: nested(tmp, outer_cv=0).fit(X, y),
        ValueError,
        r"'outer_cv' parameter of NestedCV must be an int in the range \[2, inf\).*Got 0",
    ),
    case(
        "nested-outer_cv-one",
        lambda tmp: nested(tmp, outer_cv=1).fit(X, y),
        ValueError,
        r"'outer_cv' parameter of NestedCV must be an int in the range \[2, inf\).*Got 1",
    ),
    case(
        "nested-inner_cv-negative",
        lambda tmp: nested(tmp, inner_cv=-2).fit(X, y),
        ValueError,
        r"'inner_cv' parameter of NestedCV must be an int in the range \[2, inf\).*Got -2",
    ),
    case(
        "nested-outer_cv-a-string",
        lambda tmp: nested(tmp, outer_cv="five").fit(X, y),
        ValueError,
        r"cv.*five",
    ),
    case(
        "nested-outer-split-overlap",
        lambda tmp: nested(tmp, outer_cv=[(np.arange(40), np.arange(30, 60))]).fit(X, y),
        InvalidSplitError,
        r"outer_cv has indices in both its training and test set: \[30, 31",
    ),
    case(
        "nested-outer-split-out-of-range",
        lambda tmp: nested(tmp, outer_cv=[(np.arange(50), np.arange(50, 70))]).fit(X, y),
        InvalidSplitError,
        r"outer_cv has test indices out of range for 60 samples: \[60, 61",
    ),
    case(
        "nested_cross_validate-inner-split-overlap",
        lambda tmp: nested_cross_validate(
            ForbiddenFitClassifier(),
            X,
            y,
            outer_cv=3,
            inner_cv=[(np.arange(30), np.arange(20, 40))],
            cache_dir=tmp / "cache",
        ),
        InvalidSplitError,
        r"inner_cv, or .*\) in outer training fold 0 has indices in both",
    ),
    case(
        "nested-stored-inner-split-leaks-test-fold",
        lambda tmp: nested(
            tmp, outer_cv=PredefinedSplits([(np.arange(30), np.arange(30, 60), [([0], [59])])])
        ).fit(X, y),
        InvalidSplitError,
        r"Inner split 0 of outer fold 0 .*\[59\]",
    ),
    case(
        "nested-predefined-splits-for-other-data",
        lambda tmp: nested(
            tmp, outer_cv=PredefinedSplits(SavedSplits([(np.arange(1, 10), [0])], n_samples=10))
        ).fit(X, y),
        SplitsMismatchError,
        r"for 10 samples but X has 60",
    ),
    case(
        "nested-unknown-scorer",
        lambda tmp: nested(tmp, scoring="acuracy").fit(X, y),
        ValueError,
        r"'scoring' parameter.*'acuracy'",
    ),
    case(
        "nested-empty-scoring-dict",
        lambda tmp: nested(tmp, scoring={}).fit(X, y),
        ValueError,
        r"'scoring' parameter of NestedCV is invalid: An empty dict was passed",
    ),
    case(
        "nested-scoring-of-wrong-type",
        lambda tmp: nested(tmp, scoring=5).fit(X, y),
        TypeError,
        r"'scoring' parameter of NestedCV must be .*Got 5 instead",
    ),
    case(
        "nested-several-metrics-without-refit-name",
        lambda tmp: nested(tmp, scoring=["accuracy", "balanced_accuracy"]).fit(X, y),
        ValueError,
        r"'refit' parameter.*\['accuracy', 'balanced_accuracy'\]",
    ),
    case(
        "nested-error_score",
        lambda tmp: nested(tmp, error_score="ignore").fit(X, y),
        ValueError,
        r"'error_score' parameter.*'ignore'",
    ),
    case(
        "nested-verbose",
        lambda tmp: nested(tmp, verbose="loud").fit(X, y),
        ValueError,
        r"'verbose' parameter.*'loud'",
    ),
    case(
        "nested-random_state",
        lambda tmp: nested(tmp, random_state="seed").fit(X, y),
        ValueError,
        r"'random_state' parameter of NestedCV must be .*Got 'seed' instead",
    ),
    case(
        "nested-cache_dir-is-a-file",
        lambda tmp: nested(tmp, cache_dir=splits_file(tmp, "x", "a-file")).fit(X, y),
        ValueError,
        r"'cache_dir' parameter.*a-file",
    ),
    case(
        "nested-estimator-None",
        lambda tmp: NestedCV(None, outer_cv=3, cache_dir=tmp / "cache").fit(X, y),
        TypeError,
        r"'estimator' parameter of NestedCV.*Got None",
    ),
    case(
        "nested-estimator-class-not-instance",
        lambda tmp: nested_cross_validate(ForbiddenFitClassifier, X, y, cache_dir=tmp / "cache"),
        TypeError,
        r"'estimator' parameter of nested_cross_validate.*ForbiddenFitClassifier",
    ),
    case(
        "nested-groups-length",
        lambda tmp: nested(tmp).fit(X, y, groups=np.arange(10)),
        ValueError,
        r"inconsistent numbers of samples: \[60, 60, 10\]",
    ),
    case(
        "nested-no-samples",
        lambda tmp: nested(tmp).fit(np.empty((0, 4)), np.empty(0)),
        ValueError,
        r"0 sample",
    ),
    case(
        "nested-X-not-array-like",
        lambda tmp: nested(tmp).fit(5, None),
        TypeError,
        r"array-like, got <class 'int'>",
    ),
    case(
        "nested_cross_val_score-several-metrics",
        lambda tmp: nested_cross_val_score(
            ForbiddenFitClassifier(), X, y, scoring=["accuracy"], cache_dir=tmp / "cache"
        ),
        ValueError,
        r"'scoring' parameter of nested_cross_val_score must be a single metric",
    ),
    case(
        "nested_cross_val_score-unknown-keyword",
        lambda tmp: nested_cross_val_score(ForbiddenFitClassifier(), X, y, n_split=3),
        TypeError,
        r"'n_split'",
    ),
    case(
        "nested-graph-without-label",
        lambda tmp: nested(tmp, outer_cv=2).fit(label_graphs([0, 1, 0, 1, 0, None])),
        ValueError,
        r"Graph 5 of X has no label",
    ),
    case(
        "nested-graph-with-two-labels",
        lambda tmp: nested(tmp, outer_cv=2).fit(label_graphs([0, 1, 0, [0, 1]])),
        ValueError,
        r"Graph 3 of X has 2 label values",
    ),
    case(
        "nested-graphs-and-y-lengths",
        lambda tmp: nested(tmp).fit(label_graphs([0, 1] * 6), np.array([0, 1] * 5)),
        ValueError,
        r"inconsistent numbers of samples: \[12, 10\]",
    ),
]

SPLITTER_CASES = [
    case(
        "HoldoutSplit-test_size-zero",
        lambda _: next(HoldoutSplit(0).split(X20, y20)),
        ValueError,
        r"'test_size' parameter of HoldoutSplit.*Got 0",
    ),
    case(
        "HoldoutSplit-test_size-above-one",
        lambda _: next(HoldoutSplit(1.5).split(X20, y20)),
        ValueError,
        r"'test_size' parameter of HoldoutSplit.*Got 1.5",
    ),
    case(
        "HoldoutSplit-stratify-without-y",
        lambda _: next(HoldoutSplit(stratify=True).split(X20)),
        ValueError,
        r"stratify=True\) needs y",
    ),
    case(
        "HoldoutSplit-class-with-one-member",
        lambda _: next(HoldoutSplit(0.2).split(X20, np.array([0] * 19 + [7]))),
        ValueError,
        r"too few members are: \[7\]",
    ),
    case(
        "StratifiedGraphKFold-one-split",
        lambda _: StratifiedGraphKFold(1),
        ValueError,
        r"n_splits=1",
    ),
    case(
        "StratifiedGraphKFold-no-y-for-tabular-X",
        lambda _: next(StratifiedGraphKFold(2).split(X20)),
        ValueError,
        r"needs y, or X given as graphs.*ndarray",
    ),
    case(
        "StratifiedGraphKFold-nan-label",
        lambda _: next(StratifiedGraphKFold(2).split(X20, with_values(y20, 0, np.nan))),
        ValueError,
        r"y contains NaN",
    ),
    case(
        "Bootstrap-zero-resamples",
        lambda _: next(Bootstrap(0).split(X20)),
        ValueError,
        r"'n_resamples' parameter of Bootstrap.*Got 0",
    ),
    case(
        "Bootstrap-negative-resamples",
        lambda _: Bootstrap(-1).get_n_splits(),
        ValueError,
        r"'n_resamples' parameter of Bootstrap.*Got -1",
    ),
    case(
        "Bootstrap-stratify-not-bool",
        lambda _: next(Bootstrap(2, stratify="yes").split(X20, y20)),
        ValueError,
        r"'stratify' parameter of Bootstrap.*'yes'",
    ),
    case(
        "Bootstrap-stratify-y-length",
        lambda _: next(Bootstrap(2, stratify=True).split(X20, y20[:3])),
        ValueError,
        r"y has shape \(3,\), X has 20 samples",
    ),
    case(
        "Bootstrap-one-sample",
        lambda _: next(Bootstrap(2).split(np.zeros((1, 1)))),
        InvalidSplitError,
        r"empty out-of-bag",
    ),
    case(
        "Bootstrap-no-samples",
        lambda _: next(Bootstrap(2).split(np.zeros((0, 1)))),
        ValueError,
        r"Bootstrap.split needs at least 1 sample",
    ),
    case(
        "QuantileStratifiedKFold-one-bin",
        lambda _: next(QuantileStratifiedKFold(2, n_bins=1).split(X20, y_numeric)),
        ValueError,
        r"'n_bins' parameter of QuantileStratifiedKFold .*Got 1",
    ),
    case(
        "QuantileStratifiedKFold-string-y",
        lambda _: next(
            QuantileStratifiedKFold(2).split(X20, np.array(list("abcdefghijklmnopqrst")))
        ),
        ValueError,
        r"numeric.*dtype <U1",
    ),
    case(
        "QuantileStratifiedKFold-nan-y",
        lambda _: next(QuantileStratifiedKFold(2).split(X20, with_values(y_numeric, 0, np.nan))),
        ValueError,
        r"NaN or infinite at \[0\]",
    ),
    case(
        "QuantileStratifiedKFold-inf-y",
        lambda _: next(QuantileStratifiedKFold(2).split(X20, with_values(y_numeric, 3, np.inf))),
        ValueError,
        r"NaN or infinite at \[3\]",
    ),
    case(
        "QuantileStratifiedKFold-no-y",
        lambda _: next(QuantileStratifiedKFold(2).split(X20, None)),
        ValueError,
        r"needs the numeric outcome y",
    ),
    case(
        "RepeatedQuantileStratifiedKFold-zero-repeats",
        lambda _: next(RepeatedQuantileStratifiedKFold(2, n_repeats=0).split(X20, y_numeric)),
        ValueError,
        r"'n_repeats' parameter of RepeatedQuantileStratifiedKFold.*Got 0",
    ),
    case(
        "RollingOrigin-zero-initial",
        lambda _: next(RollingOrigin(0).split(X20)),
        ValueError,
        r"'initial' parameter of RollingOrigin.*Got 0",
    ),
    case(
        "RollingOrigin-negative-skip",
        lambda _: next(RollingOrigin(3, skip=-1).split(X20)),
        ValueError,
        r"'skip' parameter of RollingOrigin.*Got -1",
    ),
    case(
        "RollingOrigin-lag-above-initial",
        lambda _: next(RollingOrigin(3, lag=4).split(X20)),
        ValueError,
        r"'lag' parameter of RollingOrigin.*Got 4",
    ),
    case(
        "RollingOrigin-too-few-samples",
        lambda _: next(RollingOrigin(15, 10).split(X20)),
        ValueError,
        r"needs at least 25 samples; got 20",
    ),
    case(
        "RollingOrigin-n_splits-without-X",
        lambda _: RollingOrigin(3).get_n_splits(),
        ValueError,
        r"get_n_splits needs X",
    ),
    case(
        "PredefinedSplits-overlap",
        lambda _: next(PredefinedSplits([([0, 1, 2], [2, 3])]).split(np.zeros((4, 1)))),
        InvalidSplitError,
        r"PredefinedSplits has indices in both its training and test set: \[2\]",
    ),
    case(
        "PredefinedSplits-out-of-range",
        lambda _: next(PredefinedSplits([([0, 1, 2], [3, 9])]).split(np.zeros((5, 1)))),
        InvalidSplitError,
        r"out of range for 5 samples: \[9\]",
    ),
    case(
        "PredefinedSplits-inner-of-missing-fold",
        lambda _: PredefinedSplits([([0, 1, 2], [3])]).get_inner_splits(99),
        ValueError,
        r"'fold' parameter of get_inner_splits.*outer fold 99 does not exist",
    ),
    case(
        "PredefinedSplits-not-iterable",
        lambda _: PredefinedSplits(None).get_n_splits(),
        TypeError,
        r"'splits' parameter of PredefinedSplits must be .*Iterable'. Got None instead",
    ),
    case(
        "PredefinedSplits-labels-of-other-data",
        lambda _: next(
            PredefinedSplits(
                SavedSplits(
                    [(np.array([0, 1, 2]), np.array([3]))],
                    n_samples=4,
                    labels_fingerprint=labels_fingerprint([0, 1, 0, 1]),
                )
            ).split(np.zeros((4, 1)), [1, 1, 0, 0])
        ),
        SplitsMismatchError,
        r"labels y are not those the splits were saved with",
    ),
    case(
        "save_splits-overlap",
        lambda tmp: save_splits([([0, 1, 2], [2, 3])], tmp / "s.json"),
        InvalidSplitError,
        r"both its training and test set: \[2\]",
    ),
    case(
        "save_splits-y-length",
        lambda tmp: save_splits([([0, 1, 2], [3])], tmp / "s.json", y=[0, 1, 0], n_samples=4),
        SplitsMismatchError,
        r"y has 3 labels but the splits are for n_samples=4",
    ),
    case(
        "save_splits-negative-n_samples",
        lambda tmp: save_splits([([0, 1, 2], [3])], tmp / "s.json", n_samples=-1),
        ValueError,
        r"'n_samples' parameter of save_splits .*Got -1",
    ),
    case(
        "save_splits-not-iterable",
        lambda tmp: save_splits(5, tmp / "s.json"),
        TypeError,
        r"'splits' parameter of save_splits must be .*Iterable'. Got 5 instead",
    ),
    case(
        "save_splits-path-is-an-int",
        lambda _: save_splits([([0, 1, 2], [3])], 5),
        TypeError,
        r"'path' parameter of save_splits must be an instance of 'str' or .*PathLike'. Got 5",
    ),
    case(
        "load_splits-unknown-format",
        lambda tmp: load_splits(splits_file(tmp, SPLITS_DOC), format="csv"),
        ValueError,
        r"'format' parameter of load_splits.*'csv'",
    ),
    case(
        "load_splits-not-json",
        lambda tmp: load_splits(splits_file(tmp, "{not json")),
        InvalidSplitError,
        r"splits.json is not valid JSON",
    ),
    case(
        "load_splits-overlap",
        lambda tmp: load_doc(tmp, folds=[{"train": [0, 1, 2], "test": [2, 3]}]),
        InvalidSplitError,
        r"Fold 0 of the splits in splits.json has indices in both .*\[2\]",
    ),
    case(
        "load_splits-index-out-of-range",
        lambda tmp: load_doc(tmp, folds=[{"train": [0, 1, 2], "test": [7]}]),
        InvalidSplitError,
        r"out of range for 4 samples: \[7\]",
    ),
    case(
        "load_splits-negative-index",
        lambda tmp: load_doc(tmp, folds=[{"train": [0, 1, 2], "test": [-1]}]),
        InvalidSplitError,
        r"out of range for 4 samples: \[-1\]",
    ),
    case(
        "load_splits-float-index",
        lambda tmp: load_doc(tmp, folds=[{"train": [0, 1, 2], "test": [3.0]}]),
        InvalidSplitError,
        r"'test' of outer fold 0 .* integer indices; found \[3.0\]",
    ),
    case(
        "load_splits-zero-n_samples",
        lambda tmp: load_doc(tmp, n_samples=0),
        InvalidSplitError,
        r"'n_samples' \(got 0\)",
    ),
    case(
        "load_splits-no-folds",
        lambda tmp: load_splits(
            splits_file(tmp, {k: v for k, v in SPLITS_DOC.items() if k != "folds"})
        ),
        InvalidSplitError,
        r"no 'folds' entry",
    ),
    case(
        "load_splits-kfold-sample-tested-twice",
        lambda tmp: load_doc(
            tmp,
            kfold=True,
            folds=[{"train": [0, 1, 2], "test": [3]}, {"train": [0, 1, 2], "test": [3]}],
        ),
        InvalidSplitError,
        r"tested in several folds: \[3\]",
    ),
    case(
        "load_splits-inner-split-outside-training-fold",
        lambda tmp: load_doc(
            tmp, folds=[{"train": [0, 1, 2], "test": [3], "inner": [{"train": [0], "test": [3]}]}]
        ),
        InvalidSplitError,
        r"Inner split 0 of outer fold 0 .*\[3\]",
    ),
    case(
        "load_splits-gnn-comparison-not-a-list",
        lambda tmp: load_gnn(tmp, {"folds": []}),
        InvalidSplitError,
        r"not a gnn-comparison split file",
    ),
    case(
        "load_splits-gnn-comparison-overlapping-test-folds",
        lambda tmp: load_gnn(
            tmp,
            [
                {"test": [0, 1], "model_selection": [{"train": [2], "validation": [3]}]},
                {"test": [1, 2, 3], "model_selection": [{"train": [0], "validation": [0]}]},
            ],
        ),
        InvalidSplitError,
        r"tested in several folds: \[1\]",
    ),
    case(
        "load_splits-path-is-an-int",
        lambda _: load_splits(5),
        TypeError,
        r"'path' parameter of load_splits must be an instance of 'str' or .*PathLike'. Got 5",
    ),
    case(
        "validate_splits-mask-shape",
        lambda _: validate_splits([(np.array([True, False]), [2])], 3),
        InvalidSplitError,
        r"boolean training mask of shape \(2,\); expected \(3,\)",
    ),
    case(
        "validate_splits-empty-test-set",
        lambda _: validate_splits([([0, 1], [])], 3),
        InvalidSplitError,
        r"Fold 0 of cv has an empty test set",
    ),
    case(
        "validate_splits-not-a-pair",
        lambda _: validate_splits([5], 3),
        InvalidSplitError,
        r"Fold 0 of cv is not a \(train, test\) pair",
    ),
    case(
        "validate_splits-n_samples-None",
        lambda _: validate_splits([([0], [1])], None),
        TypeError,
        r"'n_samples' parameter of validate_splits.*None",
    ),
    case(
        "validate_splits-kfold-sample-never-tested",
        lambda _: validate_splits([([0, 1], [2])], 3, kfold=True),
        InvalidSplitError,
        r"never tested: \[0, 1\]",
    ),
]

METRIC_CASES = [
    case(
        "kappa-weights",
        lambda _: kappa([0, 1], [0, 1], weights="cubic"),
        ValueError,
        r"'weights' parameter of kappa.*'cubic'",
    ),
    case(
        "kappa-lengths",
        lambda _: kappa([0, 1, 1, 0], [0, 1, 0]),
        ValueError,
        r"'y_true' and 'y_pred' .* same length. Got 4 and 3",
    ),
    case(
        "kappa-nan",
        lambda _: kappa([0, 1, np.nan, 0], [0, 1, 0, 0]),
        ValueError,
        r"'y_true' parameter contains NaN",
    ),
    case(
        "kappa-2d",
        lambda _: kappa(np.zeros((4, 2)), np.zeros((4, 2))),
        ValueError,
        r"'y_true' parameter must be a 1-D array-like.*\(4, 2\)",
    ),
    case(
        "kappa-empty",
        lambda _: kappa([], []),
        ValueError,
        r"'y_true' and 'y_pred' parameters are empty",
    ),
    case(
        "sensitivity-pos_label-absent",
        lambda _: sensitivity([0, 1, 1, 0], [0, 1, 0, 0], pos_label="ill"),
        ValueError,
        r"'pos_label' parameter.*\[0, 1\]. Got 'ill'",
    ),
    case(
        "sensitivity-zero_division",
        lambda _: sensitivity([0, 1], [0, 1], zero_division=2),
        ValueError,
        r"'zero_division' parameter of sensitivity .*Got 2",
    ),
    case(
        "specificity-negative-weight",
        lambda _: specificity([0, 1, 1, 0], [0, 1, 0, 0], sample_weight=[1, -1, 1, 1]),
        ValueError,
        r"'sample_weight' parameter must hold finite, non-negative",
    ),
    case(
        "specificity-weight-length",
        lambda _: specificity([0, 1, 1, 0], [0, 1, 0, 0], sample_weight=[1, 1]),
        ValueError,
        r"'sample_weight' parameter must have one weight per sample \(4\). Got 2",
    ),
    case(
        "ppv-zero-prevalence",
        lambda _: ppv([0, 1], [0, 1], prevalence=0),
        ValueError,
        r"'prevalence' parameter of ppv .*Got 0",
    ),
    case(
        "npv-prevalence-above-one",
        lambda _: npv([0, 1], [0, 1], prevalence=1.5),
        ValueError,
        r"'prevalence' parameter of npv .*Got 1.5",
    ),
    case(
        "ccc-string-values",
        lambda _: concordance_correlation_coefficient(["a", "b"], ["a", "b"]),
        ValueError,
        r"'y_true' and 'y_pred' .* must be numeric.*<U1",
    ),
    case(
        "ccc-inf",
        lambda _: concordance_correlation_coefficient([1.0, 2.0, np.inf], [1.0, 2.0, 3.0]),
        ValueError,
        r"'y_true' and 'y_pred' parameters must hold finite values",
    ),
    case(
        "ccc-bias",
        lambda _: concordance_correlation_coefficient([1, 2], [1, 2], bias="yes"),
        ValueError,
        r"'bias' parameter of concordance_correlation_coefficient .*Got 'yes'",
    ),
    case(
        "ccc-one-sample-unbiased",
        lambda _: concordance_correlation_coefficient([1.0], [1.0], bias=False),
        ValueError,
        r"bias=False needs a total weight above 1",
    ),
    case(
        "get_scorer-unknown-name",
        lambda _: get_scorer("acuracy"),
        ValueError,
        r"'scoring' parameter.*'acuracy'.*Valid names: accuracy",
    ),
    case(
        "make_sensitivity_scorer-zero_division",
        lambda _: make_sensitivity_scorer(zero_division=5),
        ValueError,
        r"'zero_division' parameter of make_sensitivity_scorer .*Got 5",
    ),
]

STATS_CASES = [
    case("iqm-empty", lambda _: iqm([]), ValueError, r"'x' parameter of iqm is empty"),
    case("iqm-nan", lambda _: iqm([1.0, np.nan]), ValueError, r"'x' parameter of iqm .*NaN"),
    case(
        "iqm-strings",
        lambda _: iqm(["a", "b"]),
        ValueError,
        r"'x' parameter of iqm must be an array of numbers.*'a'",
    ),
    case(
        "iqm-axis-out-of-range",
        lambda _: iqm(np.ones((2, 2)), axis=5),
        ValueError,
        r"'axis' parameter of iqm.*Got 5",
    ),
    case(
        "bootstrap_ci-one-value",
        lambda _: bootstrap_ci([1.0]),
        ValueError,
        r"'values' parameter needs at least 2 values.*Got 1",
    ),
    case(
        "bootstrap_ci-zero-resamples",
        lambda _: bootstrap_ci(SCORES, n_resamples=0),
        ValueError,
        r"'n_resamples' parameter of bootstrap_ci must be an int in the range \[1, inf\).*Got 0",
    ),
    case(
        "bootstrap_ci-confidence",
        lambda _: bootstrap_ci(SCORES, confidence=95),
        ValueError,
        r"'confidence' parameter of bootstrap_ci .*Got 95",
    ),
    case(
        "bootstrap_ci-method",
        lambda _: bootstrap_ci(SCORES, method="basic"),
        ValueError,
        r"'method' parameter of bootstrap_ci .*Got 'basic'",
    ),
    case(
        "bootstrap_ci-statistic-not-callable",
        lambda _: bootstrap_ci(SCORES, statistic="mean"),
        ValueError,
        r"'statistic' parameter of bootstrap_ci must be a callable. Got 'mean'",
    ),
    case(
        "bootstrap_ci-negative-random_state",
        lambda _: bootstrap_ci(SCORES, random_state=-1),
        ValueError,
        r"'random_state' parameter of bootstrap_ci .*Got -1",
    ),
    case(
        "bootstrap_ci-2d",
        lambda _: bootstrap_ci(np.ones((2, 2))),
        ValueError,
        r"'values' parameter must be 1-D.*\(2, 2\)",
    ),
    case(
        "summarize-nan",
        lambda _: summarize([0.8, np.nan, 0.9]),
        ValueError,
        r"'scores' parameter contains NaN",
    ),
    case(
        "summarize-inf",
        lambda _: summarize([0.8, np.inf, 0.9]),
        ValueError,
        r"'scores' parameter contains an infinite value",
    ),
    case(
        "summarize-one-value",
        lambda _: summarize([0.8]),
        ValueError,
        r"'scores' parameter needs at least 2 values",
    ),
    case(
        "paired_ttest-lengths",
        lambda _: paired_ttest(SCORES, SCORES[:3]),
        ValueError,
        r"'a' and 'b' parameters .* same length.*Got 4 and 3",
    ),
    case(
        "paired_ttest-strings",
        lambda _: paired_ttest(["a", "b"], ["c", "d"]),
        ValueError,
        r"'a' parameter must be a 1-D array of numbers",
    ),
    case(
        "corrected_resampled_ttest-zero-n_train",
        lambda _: corrected_resampled_ttest(SCORES, SCORES, n_train=0, n_test=10),
        ValueError,
        r"'n_train' parameter of corrected_resampled_ttest must be a float in the range "
        r"\(0.0, inf\). Got 0",
    ),
    case(
        "corrected_resampled_ttest-negative-n_test",
        lambda _: corrected_resampled_ttest(SCORES, SCORES, n_train=10, n_test=-1),
        ValueError,
        r"'n_test' parameter of corrected_resampled_ttest must be a float in the range "
        r"\(0.0, inf\). Got -1",
    ),
    case(
        "bayesian_correlated_ttest-negative-rope",
        lambda _: bayesian_correlated_ttest(SCORES, SCORES, rope=-1, rho=0.1),
        ValueError,
        r"'rope' parameter of bayesian_correlated_ttest .*Got -1",
    ),
    case(
        "bayesian_correlated_ttest-string-rope",
        lambda _: bayesian_correlated_ttest(SCORES, SCORES, rope="wide", rho=0.1),
        ValueError,
        r"'rope' parameter of bayesian_correlated_ttest .*Got 'wide'",
    ),
    case(
        "bayesian_correlated_ttest-rho-one",
        lambda _: bayesian_correlated_ttest(SCORES, SCORES, rho=1.0),
        ValueError,
        r"'rho' parameter of bayesian_correlated_ttest must be a float in the range "
        r"\[0.0, 1.0\) or None. Got 1.0",
    ),
    case(
        "bayesian_correlated_ttest-string-rho",
        lambda _: bayesian_correlated_ttest(SCORES, SCORES, rho="high"),
        ValueError,
        r"'rho' parameter of bayesian_correlated_ttest .*Got 'high'",
    ),
    case(
        "bayesian_correlated_ttest-no-rho-no-sizes",
        lambda _: bayesian_correlated_ttest(SCORES, SCORES),
        ValueError,
        r"'rho' parameter is None, so 'n_train' and 'n_test' are needed",
    ),
    case(
        "holm-pvalue-above-one",
        lambda _: holm([0.1, 1.5]),
        ValueError,
        r"'pvalues' parameter must hold values in \[0, 1\]. Got \[0.1, 1.5\]",
    ),
    case(
        "holm-empty",
        lambda _: holm([]),
        ValueError,
        r"'pvalues' parameter needs at least 1",
    ),
    case(
        "probability_of_improvement-empty",
        lambda _: probability_of_improvement(SCORES, []),
        ValueError,
        r"'b' parameter needs at least 1",
    ),
    case(
        "compare-one-result",
        lambda _: compare({"forest": result()}),
        ValueError,
        r"'results' parameter of compare must be a dict of at least two",
    ),
    case(
        "compare-unknown-test",
        lambda _: compare({"a": result(), "b": result()}, test="wilcoxon"),
        ValueError,
        r"'test' parameter of compare .*Got 'wilcoxon'",
    ),
    case(
        "compare-different-splits",
        lambda _: compare({"a": result(), "b": result(indices=OTHER_INDICES)}),
        SplitsMismatchError,
        r"outer splits of 'a' and 'b' differ: outer fold 2",
    ),
    case(
        "compare-result-of-wrong-type",
        lambda _: compare({"a": result(), "b": 5}),
        TypeError,
        r"result 'b' must be a fitted NestedCV.*Got int",
    ),
    case(
        "compare-result-without-indices",
        lambda _: compare({"a": result(), "b": {"test_score": [0.8, 0.8, 0.8]}}),
        ValueError,
        r"result 'b' has no 'indices'",
    ),
    case(
        "compare-string-scores",
        lambda _: compare({"a": result(), "b": result(scores=["x", "y", "z"])}),
        ValueError,
        r"result 'b' must hold numeric test scores",
    ),
    case(
        "compare-too-few-scores",
        lambda _: compare({"a": result(), "b": result(scores=[0.8, 0.9])}),
        ValueError,
        r"result 'b' has 2 scores for 3 outer test folds",
    ),
]

GRAPH_CASES = [
    case(
        "GraphClassifier-module-instance",
        lambda _: graph_fit(graphs(), module=MolecularFingerprint(3, 2)),
        TypeError,
        r"'module' parameter of WatchedGraphClassifier must be a torch.nn.Module class",
        needs_graph,
    ),
    case(
        "GraphClassifier-inferred-module-parameter",
        lambda _: graph_fit(graphs(), module__in_channels=3),
        ValueError,
        r"module__in_channels",
        needs_graph,
    ),
    case(
        "GraphClassifier-unknown-module-parameter",
        lambda _: graph_fit(graphs(), module__depth=3),
        TypeError,
        r"'depth'",
        needs_graph,
    ),
    case(
        "GraphClassifier-monitor",
        lambda _: graph_fit(graphs(), monitor="acc"),
        ValueError,
        r"'monitor' parameter of WatchedGraphClassifier.*'acc'",
        needs_graph,
    ),
    case(
        "GraphClassifier-zero-patience",
        lambda _: graph_fit(graphs(), patience=0),
        ValueError,
        r"'patience' parameter of WatchedGraphClassifier.*Got 0",
        needs_graph,
    ),
    case(
        "GraphClassifier-validation_fraction",
        lambda _: graph_fit(graphs(), validation_fraction=1.5),
        ValueError,
        r"'validation_fraction' parameter of WatchedGraphClassifier.*Got 1.5",
        needs_graph,
    ),
    case(
        "GraphClassifier-zero-batch_size",
        lambda _: graph_fit(graphs(), batch_size=0),
        ValueError,
        r"'batch_size' parameter of WatchedGraphClassifier.*Got 0",
        needs_graph,
    ),
    case(
        "GraphClassifier-negative-max_epochs",
        lambda _: graph_fit(graphs(), max_epochs=-1),
        ValueError,
        r"'max_epochs' parameter of WatchedGraphClassifier.*Got -1",
        needs_graph,
    ),
    case(
        "GraphClassifier-no-graphs",
        lambda _: graph_fit([]),
        ValueError,
        r"X holds no graphs",
        needs_graph,
    ),
    case(
        "GraphClassifier-graph-with-no-nodes",
        lambda _: graph_fit(graphs(graph(n_nodes=0, label=1))),
        ValueError,
        r"Graph 5 of X has no nodes",
        needs_graph,
    ),
    case(
        "GraphClassifier-graph-without-features",
        lambda _: graph_fit(graphs(graph(label=1, x=False))),
        ValueError,
        r"Graph 5 of X has no node-feature matrix 'x'",
        needs_graph,
    ),
    case(
        "GraphClassifier-nan-features",
        lambda _: graph_fit(graphs(graph_with("x", float("nan")))),
        ValueError,
        r"Graph 5 of X has NaN or infinite node features",
        needs_graph,
    ),
    case(
        "GraphClassifier-inf-features",
        lambda _: graph_fit(graphs(graph_with("x", float("inf")))),
        ValueError,
        r"Graph 5 of X has NaN or infinite node features",
        needs_graph,
    ),
    case(
        "GraphClassifier-edge-index-out-of-range",
        lambda _: graph_fit(graphs(graph_with("edge_index", 9))),
        ValueError,
        r"Graph 5 of X has an 'edge_index' entry out of range for its 4 nodes",
        needs_graph,
    ),
    case(
        "GraphClassifier-feature-widths-differ",
        lambda _: graph_fit(graphs(graph(n_features=4, label=1))),
        ValueError,
        r"node-feature matrices of different widths \[3, 4\]",
        needs_graph,
    ),
    case(
        "GraphClassifier-single-Data-object",
        lambda _: graph_fit(graph()),
        TypeError,
        r"not a single Data object",
        needs_graph,
    ),
    case(
        "GraphClassifier-arrays-instead-of-graphs",
        lambda _: graph_fit([np.zeros(3)] * 4),
        TypeError,
        r"Graph 0 of X is a ndarray",
        needs_graph,
    ),
    case(
        "GraphClassifier-X-y-lengths",
        lambda _: graph_fit(graphs(), np.array([0, 1, 0, 1, 0])),
        ValueError,
        r"X holds 6 graphs but y holds 5 labels",
        needs_graph,
    ),
    case(
        "GraphClassifier-nan-label",
        lambda _: graph_fit(graphs(), with_values([0, 1, 0, 1, 0, 1], 2, np.nan)),
        ValueError,
        r"y contains NaN or infinite labels, at indices \[2\]",
        needs_graph,
    ),
    case(
        "GraphClassifier-single-class",
        lambda _: graph_fit([graph(label=1) for _ in range(4)]),
        ValueError,
        r"at least 2 classes; got only \[1\]",
        needs_graph,
    ),
    case(
        "GraphClassifier-graph-without-label",
        lambda _: graph_fit(
            graphs(Data(x=torch.ones(2, 3), edge_index=torch.zeros(2, 0, dtype=torch.long)))
        ),
        ValueError,
        r"Graph 5 of X has no label",
        needs_graph,
    ),
    case(
        "GIN-aggregation",
        lambda _: graph_fit(
            graphs(), module=GIN, module__hidden_units=[4], module__aggregation="max"
        ),
        ValueError,
        r"'aggregation' parameter of GIN.*'max'",
        needs_graph,
    ),
    case(
        "GIN-no-layers",
        lambda _: graph_fit(graphs(), module=GIN, module__hidden_units=[]),
        ValueError,
        r"'hidden_units' parameter of GIN",
        needs_graph,
    ),
    case(
        "NestedCV-GraphClassifier-unknown-parameter",
        lambda tmp: nested(tmp, graph_clf(), param_grid={"lrr": [0.1]}, outer_cv=2).fit(graphs()),
        ValueError,
        r"Invalid parameter 'lrr' .*GraphClassifier",
        needs_graph,
    ),
    case(
        "NestedCV-GraphClassifier-graph-with-no-nodes",
        lambda tmp: nested(tmp, graph_clf(), outer_cv=2).fit(
            graphs(graph(n_nodes=0, label=1), n=12)
        ),
        ValueError,
        r"Graph 11 of X has no nodes",
        needs_graph,
    ),
    case(
        "load_tu_dataset-features",
        lambda tmp: load_tu_dataset("MUTAG", tmp, features="bogus"),
        ValueError,
        r"'features' parameter of load_tu_dataset must be a str among .*Got 'bogus'",
        needs_graph,
    ),
    case(
        "load_mutag-features",
        lambda tmp: load_mutag(features="node-degree", data_home=tmp),
        ValueError,
        r"'features' parameter of load_mutag must be a str among .*Got 'node-degree'",
        needs_graph,
    ),
]


def tu_raw(tmp, **files):
    """A TU folder ``tmp/BAD/raw`` with a valid 2-graph data set, some files replaced."""
    raw = tmp / "BAD" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    valid = {
        "A": "1, 2\n2, 1\n3, 4\n4, 3\n",
        "graph_indicator": "1\n1\n2\n2\n",
        "graph_labels": "0\n1\n",
        "node_labels": "0\n1\n0\n1\n",
    }
    for part, text in {**valid, **files}.items():
        (raw / f"BAD_{part}.txt").write_text(text)
    return tmp


def hostile_gnn_file(tmp, document):
    path = tmp / "hostile.json"
    path.write_text(document)
    return load_splits(path, format="gnn-comparison")


# Issue 13 (runs that never lie): bad parameters, hostile files, broken data
ISSUE_13_CASES = [
    case(
        "nested-n_jobs-float",
        lambda tmp: nested(tmp, n_jobs=1.5).fit(X, y),
        ValueError,
        r"'n_jobs' parameter of NestedCV must be a non-zero int .* or None. Got 1.5",
    ),
    case(
        "nested-n_jobs-string",
        lambda tmp: nested(tmp, n_jobs="2").fit(X, y),
        ValueError,
        r"'n_jobs' parameter of NestedCV .*Got '2' instead",
    ),
    case(
        "nested-outer_cv-bool",
        lambda tmp: nested(tmp, outer_cv=True).fit(X, y),
        ValueError,
        r"'outer_cv' parameter of NestedCV .*Got True instead",
    ),
    case(
        "nested-inner_cv-one",
        lambda tmp: nested(tmp, inner_cv=1).fit(X, y),
        ValueError,
        r"'inner_cv' parameter of NestedCV must be an int in the range \[2, inf\).*Got 1",
    ),
    case(
        "nested-scoring-dict-value-not-a-scorer",
        lambda tmp: nested(tmp, scoring={"a": 5}, refit="a").fit(X, y),
        ValueError,
        r"'scoring' parameter of NestedCV maps 'a' to 5",
    ),
    case(
        "nested-scoring-dict-key-not-a-string",
        lambda tmp: nested(tmp, scoring={1: "accuracy"}, refit="accuracy").fit(X, y),
        ValueError,
        r"'scoring' parameter of NestedCV is invalid: Non-string types .* keys.*\{1: 'accuracy'\}",
    ),
    case(
        "nested-cache_dir-empty",
        lambda tmp: nested(tmp, cache_dir="").fit(X, y),
        ValueError,
        r"'cache_dir' parameter of NestedCV must be a folder path or None. Got ''",
    ),
    case(
        "nested-cache_dir-a-file",
        lambda tmp: nested(tmp, cache_dir=splits_file(tmp, "x", name="file")).fit(X, y),
        ValueError,
        r"'cache_dir' parameter of NestedCV must be a writable folder",
    ),
    case(
        "nested-fit_timeout-zero",
        lambda tmp: nested(tmp, fit_timeout=0).fit(X, y),
        ValueError,
        r"'fit_timeout' parameter of NestedCV must be a float in the range \(0.0, inf\)",
    ),
    case(
        "nested-fit_timeout-bool",  # True was a limit of one second
        lambda tmp: nested(tmp, fit_timeout=True).fit(X, y),
        ValueError,
        r"'fit_timeout' parameter of NestedCV must be a float in the range \(0.0, inf\).*Got True",
    ),
    case(
        "nested-early_stopping_split-unknown",
        lambda tmp: nested(tmp, early_stopping_split="inner").fit(X, y),
        ValueError,
        r"'early_stopping_split' parameter of NestedCV must be a str among",
    ),
    case(
        "nested-early_stopping_split-protocol-without-X_val",
        lambda tmp: nested(tmp, early_stopping_split="protocol").fit(X, y),
        ValueError,
        r"ForbiddenFitClassifier.fit does not take them",
    ),
    case(
        "nested_cross_validate-cv-and-outer_cv",
        lambda tmp: nested_cross_validate(
            ForbiddenFitClassifier(), X, y, cv=3, outer_cv=3, cache_dir=tmp / "cache"
        ),
        ValueError,
        r"nested_cross_validate takes the outer resampling as 'cv' or as its alias",
    ),
    case(
        "nested_cross_validate-n_refits-names-the-function",
        lambda tmp: nested_cross_validate(ForbiddenFitClassifier(), X, y, n_refits=0),
        ValueError,
        r"'n_refits' parameter of nested_cross_validate must be",
    ),
    case(
        "load_splits-gnn-huge-index",
        lambda tmp: hostile_gnn_file(
            tmp, '[{"test":[99999999],"model_selection":[{"train":[0],"validation":[1]}]}]'
        ),
        InvalidSplitError,
        r"not a k-fold split of 100000000 samples",
    ),
    case(
        "load_splits-gnn-index-beyond-int64",
        lambda tmp: hostile_gnn_file(
            tmp, '[{"test":[1180591620717411303424],"model_selection":[]}]'
        ),
        InvalidSplitError,
        r"out of range",
    ),
    case(
        "load_splits-deep-nesting",
        lambda tmp: hostile_gnn_file(tmp, "[" * 200_000 + "]" * 200_000),
        InvalidSplitError,
        r"more than 32 levels deep",
    ),
    case(
        "load_splits-index-a-string",
        lambda tmp: hostile_gnn_file(
            tmp, '[{"test":["1"],"model_selection":[{"train":[0],"validation":[2]}]}]'
        ),
        InvalidSplitError,
        r"must list integer indices; found \['1'\]",
    ),
    case(
        "load_splits-max_bytes",
        lambda tmp: load_splits(splits_file(tmp, splits_doc()), max_bytes=0),
        ValueError,
        r"'max_bytes' parameter of load_splits must be an int in the range \[1, inf\). Got 0",
    ),
    case(
        "QuantileStratifiedKFold-too-few-rows-per-bin",
        lambda _: next(QuantileStratifiedKFold(5, n_bins=8).split(X20[:30], np.arange(30.0))),
        ValueError,
        r"'n_bins' parameter of QuantileStratifiedKFold is too large",
    ),
    case(
        "HoldoutSplit-time-ordered-with-a-seed",
        lambda _: next(HoldoutSplit(shuffle=False, random_state=0).split(X20)),
        ValueError,
        r"random_state has no effect",
    ),
    case(
        "load_tu_dataset-node-id-out-of-range",
        lambda tmp: load_tu_dataset("BAD", tu_raw(tmp, A="1, 2\n2, 9\n")),
        ValueError,
        r"BAD_A.txt.*line 2",
        needs_graph,
    ),
    case(
        "load_tu_dataset-edge-across-graphs",
        lambda tmp: load_tu_dataset("BAD", tu_raw(tmp, A="1, 2\n2, 3\n")),
        ValueError,
        r"BAD_A.txt.*line 2",
        needs_graph,
    ),
    case(
        "load_tu_dataset-more-labels-than-graphs",
        lambda tmp: load_tu_dataset("BAD", tu_raw(tmp, graph_labels="0\n1\n1\n")),
        ValueError,
        r"BAD_graph_labels.txt",
        needs_graph,
    ),
    case(
        "load_tu_dataset-not-a-number",
        lambda tmp: load_tu_dataset("BAD", tu_raw(tmp, graph_indicator="1\n1\nx\n2\n")),
        ValueError,
        r"BAD_graph_indicator.txt.*line 3",
        needs_graph,
    ),
]

CASES = NESTED_CASES + SPLITTER_CASES + METRIC_CASES + STATS_CASES + GRAPH_CASES + ISSUE_13_CASES


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.FitFailedWarning")
@pytest.mark.parametrize("call, error, match", CASES)
def test_bad_input_is_refused_with_a_clear_error(call, error, match, tmp_path):
    assert issubclass(error, (ValueError, TypeError))
    FitRecorder.fits = 0
    with pytest.raises(error, match=match) as raised:
        call(tmp_path)
    # numpy's AxisError, for one, is both a ValueError and an IndexError
    assert not isinstance(raised.value, (IndexError, KeyError, AttributeError))
    assert not isinstance(raised.value, ExpensiveWorkStarted)
    assert FitRecorder.fits == 0, "the bad input reached a fit before it was refused"
    cache = tmp_path / "cache"
    assert not [path for path in cache.rglob("*") if path.is_file()], "a cache entry was left"
