"""Issue 5, demonstration (c): down-sampling a real graph data set (MUTAG) before splitting
versus RandomGraphUnderSampler inside the pipeline, under NestedCV with StratifiedGraphKFold.

torch is used only to load the data; the model is a cheap classifier of per-graph counts.
"""

import numpy as np
import pytest
from imblearn.pipeline import make_pipeline
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV, audit
from sklearn_fair.model_selection import StratifiedGraphKFold, read_graph_labels
from sklearn_fair.sampling import RandomGraphUnderSampler


class GraphCountClassifier(ClassifierMixin, BaseEstimator):
    """Logistic regression on each graph's node-label histogram and edge count."""

    def __init__(self, C=1.0):
        self.C = C

    @staticmethod
    def _features(X):
        return np.array(
            [np.append(g.x.sum(0).numpy(), g.edge_index.shape[1] / 2) for g in X], dtype=float
        )

    def fit(self, X, y):
        self.model_ = LogisticRegression(C=self.C, max_iter=1000).fit(self._features(X), y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(self._features(X))


@pytest.fixture(scope="module")
def mutag(tu_root):
    datasets = pytest.importorskip("torch_geometric.datasets")
    dataset = datasets.TUDataset(tu_root("MUTAG"), "MUTAG")
    return [dataset[i] for i in range(len(dataset))]


def _nested(graphs, estimator):
    return NestedCV(
        estimator,
        {"graphcountclassifier__C": [0.1, 1.0]},
        outer_cv=StratifiedGraphKFold(5, random_state=0),
        scoring="ppv",
        n_refits=1,
        refit=False,
        random_state=0,
    ).fit(graphs)


def test_graph_undersampling_before_vs_inside_the_pipeline(mutag):
    y = read_graph_labels(mutag)
    prevalence = np.mean(y == 1)  # 125 of 188 graphs are mutagenic
    kept, y_kept = RandomGraphUnderSampler(random_state=0).fit_resample(mutag)
    before = _nested(kept, make_pipeline(GraphCountClassifier()))
    inside = _nested(mutag, make_pipeline(RandomGraphUnderSampler(), GraphCountClassifier()))
    before_prev = [np.mean(y_kept[f["test_indices"]] == 1) for f in before.outer_results_]
    inside_prev = [np.mean(y[f["test_indices"]] == 1) for f in inside.outer_results_]
    np.testing.assert_allclose(before_prev, 0.5, atol=1 / 25 + 1e-9)
    np.testing.assert_allclose(inside_prev, prevalence, atol=1 / 37 + 1e-9)
    # PPV follows the prevalence of the test folds: balanced folds understate it here. Bayes'
    # rule predicts by how much: the odds of PPV are the likelihood ratio times the odds of
    # the prevalence, so the likelihood ratio seen at prevalence 0.5 predicts the PPV at 0.665.
    ratio = before.score_mean_ / (1 - before.score_mean_)
    odds = prevalence / (1 - prevalence)
    predicted = ratio * odds / (1 + ratio * odds)
    assert inside.score_mean_ > before.score_mean_ + 0.03
    assert inside.score_mean_ == pytest.approx(predicted, abs=0.03)


def test_audit_finds_identical_graphs_in_mutag(mutag):
    # MUTAG as stored has no two identical graphs; a copied graph is found, with its indices
    graphs = mutag + [mutag[3].clone()]
    pipe = make_pipeline(RandomGraphUnderSampler(), GraphCountClassifier())
    clean = audit(pipe, mutag, checks="duplicates", random_state=0)
    assert clean.passed and clean.duplicates.groups == []
    result = audit(pipe, graphs, checks="duplicates", random_state=0)
    assert [g.tolist() for g in result.duplicates.groups] == [[3, 188]]
    assert [g.tolist() for g in result.duplicates.straddling] == [[3, 188]]
    assert not result.passed
