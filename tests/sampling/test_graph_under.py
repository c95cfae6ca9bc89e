"""RandomGraphUnderSampler: balancing graph data, as a step of imbalanced-learn's Pipeline.

It is an imbalanced-learn under-sampler, so it runs scikit-learn's and imbalanced-learn's
common checks (on 2-D arrays, which it resamples as rows), as imbalanced-learn runs them on
its own samplers, besides the graph tests below.
"""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from imblearn.pipeline import make_pipeline
from imblearn.under_sampling import RandomUnderSampler
from imblearn.under_sampling.base import BaseUnderSampler
from imblearn.utils.estimator_checks import check_param_validation, estimator_checks_generator
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.linear_model import LogisticRegression
from sklearn.utils.estimator_checks import parametrize_with_checks

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


def test_dict_sampling_strategy_errors_name_the_parameter_and_the_class():
    graphs = make_graphs([0] * 6 + [1] * 3)
    # imbalanced-learn's RandomUnderSampler refuses the same dicts, in words that name
    # neither the parameter nor the class
    for strategy in ({5: 1}, {0: 10}):
        with pytest.raises(ValueError):
            RandomUnderSampler(sampling_strategy=strategy).fit_resample(
                np.zeros((9, 1)), [0] * 6 + [1] * 3
            )
    with pytest.raises(ValueError, match=r"'sampling_strategy'.*class 5,.*\[0, 1\]. Got \{5: 1\}"):
        RandomGraphUnderSampler(sampling_strategy={5: 1}).fit_resample(graphs)
    with pytest.raises(
        ValueError, match=r"'sampling_strategy'.* 10 graphs of class 0, which has 6"
    ):
        RandomGraphUnderSampler(sampling_strategy={0: 10}).fit_resample(graphs)
    with pytest.raises(
        ValueError, match=r"'sampling_strategy'.* 10 graphs of class 0, which has 6"
    ):
        RandomGraphUnderSampler(sampling_strategy={0: 10}, replacement=True).fit_resample(graphs)
    # what every class has is accepted, as by imbalanced-learn
    kept, y_kept = RandomGraphUnderSampler(sampling_strategy={0: 6, 1: 3}).fit_resample(graphs)
    assert np.bincount(y_kept).tolist() == [6, 3]


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


# --- the ecosystem's contracts ------------------------------------------------------------------

# Each expected failure, and why it is right for this sampler to fail it.
EXPECTED_FAILURES = {
    "check_fit1d": (
        "A 1-D array is a sequence of items, one per sample, which is what this sampler "
        "takes (a list of graphs, of SMILES strings, or of sample ids), so it resamples it "
        "instead of refusing it as 'not 2-D'."
    ),
}


def expected_failures(estimator):
    return EXPECTED_FAILURES


@parametrize_with_checks(
    [RandomGraphUnderSampler(random_state=0)], expected_failed_checks=expected_failures
)
def test_scikit_learn_common_checks(estimator, check):
    check(estimator)


def check_id(value):
    check = getattr(value, "func", value)
    return getattr(check, "__name__", type(value).__name__)


# materialised: imbalanced-learn's own decorator hands pytest a generator, which it deprecates
IMBLEARN_CHECKS = list(
    estimator_checks_generator(
        RandomGraphUnderSampler(random_state=0),
        mark="xfail",
        expected_failed_checks=EXPECTED_FAILURES,
    )
)


@pytest.mark.parametrize("estimator, check", IMBLEARN_CHECKS, ids=check_id)
def test_imbalanced_learn_common_checks(estimator, check):
    check(estimator)


def test_imbalanced_learn_parameter_validation():
    check_param_validation("RandomGraphUnderSampler", RandomGraphUnderSampler())


def test_is_an_imbalanced_learn_under_sampler():
    sampler = RandomGraphUnderSampler()
    assert isinstance(sampler, BaseUnderSampler)
    assert sampler._estimator_type == "sampler"


@pytest.mark.parametrize("seed", [0, 5])
def test_same_rows_as_random_under_sampler_on_arrays(seed):
    # on a table, the kept rows are those of imbalanced-learn's RandomUnderSampler
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(40, 3)), rng.permutation([0] * 28 + [1] * 12)
    ours = RandomGraphUnderSampler(random_state=seed)
    theirs = RandomUnderSampler(random_state=seed)
    X_ours, y_ours = ours.fit_resample(X, y)
    X_theirs, y_theirs = theirs.fit_resample(X, y)
    np.testing.assert_array_equal(np.sort(ours.sample_indices_), np.sort(theirs.sample_indices_))
    frame_ours, _ = ours.fit_resample(pd.DataFrame(X, columns=list("abc")), pd.Series(y))
    assert list(frame_ours.columns) == ["a", "b", "c"] and len(frame_ours) == 24


def test_series_items_are_taken_by_position():
    # a Series indexed by labels: items are taken by position, never by label
    items = pd.Series(["g0", "g1", "g2", "g3"], index=[10, 11, 12, 13])
    sampler = RandomGraphUnderSampler(random_state=0)
    kept, _ = sampler.fit_resample(items, [0, 0, 0, 1])
    assert list(kept) == [items.iloc[i] for i in sampler.sample_indices_]


def test_labels_of_a_series_keep_the_index_of_its_kept_items():
    # as imbalanced-learn aligns y with a DataFrame's kept rows: y came back indexed 0..n-1,
    # so y.loc[X.index] or pd.concat([X, y], axis=1) of the kept rows failed
    index = np.arange(1000, 1020)
    y = pd.Series([0] * 14 + [1] * 6, index=index)
    texts = pd.Series([f"doc{i}" for i in range(20)], index=index)
    kept, labels = RandomGraphUnderSampler(random_state=0).fit_resample(texts, y)
    frame = pd.DataFrame({"a": np.arange(20)}, index=index)
    rows, row_labels = RandomUnderSampler(random_state=0).fit_resample(frame, y)
    assert list(row_labels.index) == list(rows.index)  # the reference
    assert list(labels.index) == list(kept.index) and len(kept) == 12
    assert (labels == y.loc[kept.index]).all()


# --- randomness ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make", [lambda s: s, np.random.RandomState, np.random.default_rng], ids=["int", "RS", "Gen"]
)
def test_random_state_kinds(make):
    graphs = make_graphs(LABELS)

    def kept(seed):
        sampler = RandomGraphUnderSampler(random_state=make(seed))
        return [sampler.fit(graphs).sample_indices_ for _ in range(2)]

    first, again = kept(0), kept(0)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(a, b) for a, b in zip(first, kept(1)))


@pytest.mark.parametrize("bad", [-1, 1.5, "0"])
def test_bad_random_state(bad):
    with pytest.raises(ValueError, match="'random_state' parameter of RandomGraphUnderSampler"):
        RandomGraphUnderSampler(random_state=bad).fit_resample(make_graphs(LABELS))


class SequenceLikeGraph:
    """A graph that numpy could mistake for a sequence (PyG's Data has __len__ and __iter__)."""

    def __init__(self, label, n_nodes):
        self.y, self.nodes = label, list(range(n_nodes))

    def __len__(self):
        return len(self.nodes)

    def __getitem__(self, index):
        return self.nodes[index]


def test_graphs_are_kept_as_the_same_objects():
    graphs = [SequenceLikeGraph(label, 3) for label in LABELS]
    sampler = RandomGraphUnderSampler(random_state=0)
    kept, y = sampler.fit_resample(graphs)
    assert isinstance(kept, list) and len(kept) == 8
    assert all(k is graphs[i] for k, i in zip(kept, sampler.sample_indices_))
    np.testing.assert_array_equal(y, np.array(LABELS)[sampler.sample_indices_])


@pytest.mark.parametrize("replacement", [False, True])
def test_a_graph_collection_stays_a_collection(replacement):
    """As the docstring says (the type of X, as imbalanced-learn returns a DataFrame for a
    DataFrame): a GraphCollection in, a GraphCollection of the kept graphs out, not a list."""
    from sklearn_fair.graph import GraphCollection

    rng = np.random.default_rng(0)
    xs = [rng.normal(size=(3 + i % 4, 2)) for i in range(len(LABELS))]
    edges = [np.array([[0, 1], [1, 2]]) for _ in LABELS]
    collection = GraphCollection(
        np.concatenate(xs),
        np.concatenate(edges, axis=1),
        np.cumsum([0, *(len(x) for x in xs)]),
        np.arange(0, 2 * len(LABELS) + 1, 2),
        y=np.array(LABELS),
    )
    sampler = RandomGraphUnderSampler(random_state=0, replacement=replacement)
    kept, y = sampler.fit_resample(collection)
    assert isinstance(kept, GraphCollection) and len(kept) == 8
    chosen = sampler.sample_indices_
    np.testing.assert_array_equal(kept.x, np.concatenate([xs[i] for i in chosen]))
    np.testing.assert_array_equal(kept.edge_index, np.concatenate([edges[i] for i in chosen], 1))
    np.testing.assert_array_equal(kept.y, np.array(LABELS)[chosen])
    np.testing.assert_array_equal(y, np.array(LABELS)[chosen])


def test_a_pyg_datasets_random_transform_runs_under_the_estimators_seed():
    # a random augmentation set as the dataset's transform: the kept graphs stay a lazy
    # subset, so the transform draws inside GraphClassifier's seeded fit, not from torch's
    # global state while the sampler reads them (the same predictions under any global seed)
    torch = pytest.importorskip("torch")
    pytest.importorskip("torch_geometric")
    from torch_geometric.data import Data, InMemoryDataset

    from sklearn_fair.graph import GraphClassifier, MolecularFingerprint

    class Noise:
        def __call__(self, data):
            data = data.clone()
            data.x = data.x + 0.5 * torch.randn_like(data.x)
            return data

    class Graphs(InMemoryDataset):
        def __init__(self, graphs, transform):
            super().__init__(None, transform=transform)
            self.data, self.slices = self.collate(graphs)

    generator = torch.Generator().manual_seed(0)
    edges = torch.tensor([[0, 1, 2], [1, 2, 3]])
    graphs = [
        Data(
            x=torch.randn(4 + i % 3, 3, generator=generator),
            edge_index=edges,
            y=torch.tensor([int(i % 4 == 0)]),
        )
        for i in range(40)
    ]
    dataset = Graphs(graphs, transform=Noise())
    kept, y_kept = RandomGraphUnderSampler(random_state=0).fit_resample(dataset)
    assert isinstance(kept, Graphs) and kept.transform is dataset.transform
    assert np.bincount(y_kept).tolist() == [10, 10]
    model = GraphClassifier(
        MolecularFingerprint,
        module__hidden_units=8,
        max_epochs=2,
        batch_size=8,
        random_state=0,
        validation_fraction=None,
    )
    pipe = make_pipeline(RandomGraphUnderSampler(random_state=0), model)
    predicted = []
    for global_seed in (1, 2):
        torch.manual_seed(global_seed)
        predicted.append(pipe.fit(dataset[:30]).predict_proba(dataset[30:]))
    np.testing.assert_array_equal(predicted[0], predicted[1])
