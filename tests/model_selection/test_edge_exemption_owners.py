"""The edge at every feature is exempt from SearchSpaceEdgeWarning only for an owner whose
parameter is bounded by the number of features (PCA's ``n_components``, SelectKBest's ``k``),
not for any parameter of that name: KernelPCA, Nystroem or RBFSampler fit more components
than features, so a grid that ends at every feature can be extended (hunt DOC14-1)."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.cross_decomposition import CCA, PLSSVD, PLSCanonical, PLSRegression
from sklearn.datasets import make_classification
from sklearn.decomposition import (
    NMF,
    PCA,
    DictionaryLearning,
    FactorAnalysis,
    FastICA,
    IncrementalPCA,
    KernelPCA,
    SparsePCA,
    TruncatedSVD,
)
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import (
    BaggingClassifier,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    IsolationForest,
    RandomForestClassifier,
)
from sklearn.feature_selection import RFE, SelectFromModel, SelectKBest, SequentialFeatureSelector
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.linear_model import LogisticRegression
from sklearn.manifold import LocallyLinearEmbedding
from sklearn.neighbors import NeighborhoodComponentsAnalysis
from sklearn.neural_network import BernoulliRBM
from sklearn.pipeline import make_pipeline
from sklearn.random_projection import GaussianRandomProjection, SparseRandomProjection
from sklearn.tree import DecisionTreeClassifier, ExtraTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SearchSpaceEdgeWarning
from sklearn_fair.model_selection._nested._selection import _every_feature

N_FEATURES = 8


class SubclassedPCA(PCA):
    """A user's subclass of a bounded owner: bounded as PCA is."""


def _data():
    return make_classification(
        300, N_FEATURES, n_informative=N_FEATURES, n_redundant=0, random_state=0
    )


def _selected_and_edge_warnings(estimator, name):
    X, y = _data()
    nested = NestedCV(
        estimator, {name: [1, 2, N_FEATURES]}, outer_cv=3, inner_cv=3, n_refits=1, random_state=0
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested.fit(X, y)
    selected = [params[name] for params in nested.best_params_per_fold_]
    edge = [w for w in caught if issubclass(w.category, SearchSpaceEdgeWarning)]
    return selected, edge


@pytest.mark.parametrize(
    "step, name",
    [
        (KernelPCA(kernel="rbf", gamma=0.02), "kernelpca__n_components"),
        (Nystroem(gamma=0.1, random_state=0), "nystroem__n_components"),
        (RBFSampler(gamma=0.01, random_state=0), "rbfsampler__n_components"),
    ],
    ids=["KernelPCA", "Nystroem", "RBFSampler"],
)
def test_an_edge_at_every_feature_of_an_unbounded_count_is_told_to_extend(step, name):
    # the grid can be extended: 16 components of 8 features
    X, _ = _data()
    assert clone(step).set_params(n_components=16).fit_transform(X).shape == (len(X), 16)

    selected, edge = _selected_and_edge_warnings(make_pipeline(step, LogisticRegression()), name)
    assert selected == [N_FEATURES] * 3
    assert len(edge) == 1
    assert f"{name}={N_FEATURES}, on the edge" in str(edge[0].message)
    assert "Extend the grid beyond that edge" in str(edge[0].message)


@pytest.mark.parametrize(
    "estimator, name",
    [
        (make_pipeline(PCA(), LogisticRegression()), "pca__n_components"),
        (make_pipeline(SelectKBest(), LogisticRegression()), "selectkbest__k"),
        (make_pipeline(SubclassedPCA(), LogisticRegression()), "subclassedpca__n_components"),
        (DecisionTreeClassifier(random_state=0), "max_features"),
    ],
    ids=["PCA", "SelectKBest", "subclass of PCA", "tree max_features"],
)
def test_an_edge_at_every_feature_of_a_bounded_count_is_not_told_to_extend(estimator, name):
    selected, edge = _selected_and_edge_warnings(estimator, name)
    assert selected.count(N_FEATURES) >= 2  # the edge was selected: the warning's condition
    assert edge == []


def _fitted_output(owner, param, value, X, y):
    owner = clone(owner).set_params(**{param: value})
    if "random_state" in owner.get_params():
        owner.set_params(random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FastICA and SelectKBest say that they cap the value
        owner.fit(X, y)
    return owner.transform(X) if hasattr(owner, "transform") else owner.predict(X)


@pytest.mark.parametrize(
    "owner, param",
    [
        (PCA(), "n_components"),
        (SubclassedPCA(), "n_components"),
        (IncrementalPCA(), "n_components"),
        (TruncatedSVD(), "n_components"),
        (FastICA(), "n_components"),
        # randomized SVD draws other projections for 8 and 9 components, both capped at 8
        (FactorAnalysis(svd_method="lapack"), "n_components"),
        (PLSRegression(), "n_components"),
        (PLSCanonical(), "n_components"),
        (CCA(), "n_components"),
        (PLSSVD(), "n_components"),
        (LinearDiscriminantAnalysis(), "n_components"),
        (NeighborhoodComponentsAnalysis(max_iter=5), "n_components"),
        (LocallyLinearEmbedding(n_neighbors=12), "n_components"),
        (SelectKBest(), "k"),
        (RFE(LogisticRegression()), "n_features_to_select"),
        (SequentialFeatureSelector(LogisticRegression()), "n_features_to_select"),
        (SelectFromModel(LogisticRegression(), threshold=-np.inf), "max_features"),
        (DecisionTreeClassifier(), "max_features"),
        (ExtraTreeClassifier(), "max_features"),
        (RandomForestClassifier(10), "max_features"),
        (ExtraTreesClassifier(10), "max_features"),
        (GradientBoostingClassifier(n_estimators=10), "max_features"),
        (BaggingClassifier(n_estimators=5), "max_features"),
        (IsolationForest(n_estimators=5), "max_features"),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, str) else value,
)
def test_a_bounded_owner_refuses_or_caps_more_than_every_feature_and_is_exempt(owner, param):
    X, y = make_classification(60, N_FEATURES, n_informative=4, random_state=0)
    assert _every_feature(owner, param, N_FEATURES, X)
    try:
        wider = _fitted_output(owner, param, N_FEATURES + 1, X, y)
    except ValueError:
        return  # refused
    assert_allclose(wider, _fitted_output(owner, param, N_FEATURES, X, y))  # capped


@pytest.mark.parametrize(
    "owner",
    [
        KernelPCA(),
        Nystroem(),
        RBFSampler(),
        BernoulliRBM(n_iter=2),
        NMF(max_iter=20),
        DictionaryLearning(max_iter=5),
        SparsePCA(max_iter=5),
        GaussianRandomProjection(),
        SparseRandomProjection(),
    ],
    ids=lambda owner: type(owner).__name__,
)
def test_an_owner_that_fits_more_components_than_features_is_not_exempt(owner):
    X, y = make_classification(60, N_FEATURES, n_informative=4, random_state=0)
    X = np.abs(X)  # NMF and BernoulliRBM take no negative values
    wider = _fitted_output(owner, "n_components", N_FEATURES + 1, X, y)
    assert wider.shape == (len(X), N_FEATURES + 1)
    assert not _every_feature(owner, "n_components", N_FEATURES, X)
    pipeline = make_pipeline(owner, LogisticRegression())
    step = pipeline.steps[0][0]
    assert not _every_feature(pipeline, f"{step}__n_components", N_FEATURES, X)
