"""RandomGraphUnderSampler: balancing graph data, as a step of imbalanced-learn's Pipeline.

scikit-learn's common checks (parametrize_with_checks) are not run: they feed 2-D numeric
arrays and expect ``transform`` or ``predict``, while this sampler takes sequences of graph
objects and only has ``fit_resample``, as imbalanced-learn's samplers do.
"""

from types import SimpleNamespace

import numpy as np
import pytest
from imblearn.pipeline import make_pipeline
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import StratifiedGraphKFold
from sklearn_fair.sampling import RandomGraphUnderSampler


def make_graphs(labels, seed=0):
    rng = np.random.default_rng(seed)
    graphs = []
    for label in labels:
        n_nodes = int(rng.integers(3, 8)) + 3 * int(label)
        graphs.append(SimpleNamespace(x=rng.normal(size=(n_nodes, 2)), y=np.array([label])))
    return graphs


class NodeCountClassifier(ClassifierMixin, BaseEstimator):
    """A cheap classifier of graphs: logistic regression on node counts."""

    def __init__(self, C=1.0):
        self.C = C

    def _features(self, X):
        return np.array([[len(g.x)] for g in X], dtype=float)

    def fit(self, X, y):
        self.n_fit_ = len(X)
        self.model_ = LogisticRegression(C=self.C).fit(self._features(X), y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(self._features(X))


LABELS = [0] * 12 + [1] * 4


def test_balances_classes_and_reads_labels_from_graphs():
    graphs = make_graphs(LABELS)
    sampler = RandomGraphUnderSampler(random_state=0)
    kept, y = sampler.fit_resample(graphs)
    assert len(kept) == 8 and np.bincount(y).tolist() == [4, 4]
    assert all(kept[i] is graphs[j] for i, j in enumerate(sampler.sample_indices_))
    assert sampler.sampling_strategy_ == {0: 4}


def test_same_seed_same_subset_and_given_y_wins():
    graphs = make_graphs(LABELS)
    first = RandomGraphUnderSampler(random_state=3).fit(graphs).sample_indices_
    second = RandomGraphUnderSampler(random_state=3).fit(graphs).sample_indices_
    np.testing.assert_array_equal(first, second)
    flipped = 1 - np.array(LABELS)
    _, y = RandomGraphUnderSampler(random_state=0).fit_resample(graphs, flipped)
    assert np.bincount(y).tolist() == [4, 4]


@pytest.mark.parametrize(
    "strategy, counts",
    [(0.5, [8, 4]), ({0: 6}, [6, 4]), ("majority", [4, 4]), ("all", [4, 4])],
)
def test_sampling_strategy_as_in_imbalanced_learn(strategy, counts):
    _, y = RandomGraphUnderSampler(sampling_strategy=strategy, random_state=0).fit_resample(
        make_graphs(LABELS)
    )
    assert np.bincount(y).tolist() == counts


def test_object_array_stays_an_array():
    graphs = np.empty(len(LABELS), dtype=object)
    graphs[:] = make_graphs(LABELS)
    kept, _ = RandomGraphUnderSampler(random_state=0).fit_resample(graphs)
    assert isinstance(kept, np.ndarray) and kept.dtype == object and len(kept) == 8


def test_errors():
    with pytest.raises(ValueError, match="needs y"):
        RandomGraphUnderSampler().fit_resample(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="'replacement' parameter"):
        RandomGraphUnderSampler(replacement="yes").fit_resample(make_graphs(LABELS))
    with pytest.raises(ValueError, match="one value per graph"):
        RandomGraphUnderSampler().fit_resample(make_graphs(LABELS), [0, 1])


def test_acts_only_while_fitting_in_a_pipeline():
    graphs = make_graphs(LABELS)
    pipe = make_pipeline(RandomGraphUnderSampler(random_state=0), NodeCountClassifier())
    pipe.fit(graphs, np.array(LABELS))
    assert pipe[-1].n_fit_ == 8
    assert pipe.predict(graphs).shape == (16,)
    assert clone(pipe).get_params()["randomgraphundersampler__random_state"] == 0


def test_inside_nested_cv_with_stratified_graph_kfold():
    labels = [0] * 32 + [1] * 8
    graphs = make_graphs(labels)
    pipe = make_pipeline(RandomGraphUnderSampler(), NodeCountClassifier())
    nested = NestedCV(
        pipe,
        {"nodecountclassifier__C": [0.1, 1.0]},
        outer_cv=StratifiedGraphKFold(4, random_state=0),
        n_refits=2,
        random_state=0,
    ).fit(graphs)
    assert nested.outer_scores_.shape == (4,)
    # the final model was fitted on a balanced subset of all the graphs ...
    assert nested.best_estimator_[-1].n_fit_ == 16
    # ... and each outer test fold was scored whole, at the data's class balance
    for fold in nested.outer_results_:
        assert np.mean(np.array(labels)[fold["test_indices"]]) == 0.2
