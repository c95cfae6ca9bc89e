"""A pandas Series or numpy object array of PyG graphs is the list of its graphs, by position
(hunt DOC12): fingerprints, caches, benchmark, NestedCV, the graph splitters and the
under-sampler give what the list gives, and an ``edge_attr`` of width 0 is no edge feature."""

import collections

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.graph import GraphClassifier, GraphCollection
from sklearn_fair.graph.models import GIN
from sklearn_fair.leakage import find_duplicates
from sklearn_fair.model_selection import HoldoutSplit, StratifiedGraphKFold
from sklearn_fair.sampling import RandomGraphUnderSampler
from sklearn_fair.utils import fingerprint, is_graph_data


@pytest.fixture(scope="module")
def graphs(mutag):
    """60 MUTAG graphs, graphs 0 and 1 again at the end (two exact duplicates)."""
    graphs = [mutag[index] for index in range(60)]
    return graphs + graphs[:2]


def _classifier(**params):
    return GraphClassifier(
        GIN,
        module__hidden_units=[8],
        max_epochs=1,
        random_state=0,
        patience=None,
        validation_fraction=None,
        **params,
    )


# of every probability: a model of one epoch may predict one class for every graph, whose
# accuracy would not tell which graphs it was given
_SCORING = "neg_log_loss"


def _as_array(graphs):
    array = np.empty(len(graphs), dtype=object)
    array[:] = graphs
    return array


# a permuted RangeIndex (a shuffled frame's column): X[i] would silently read another graph
_INDEXES = {
    "permuted": lambda n: np.random.default_rng(0).permutation(n),
    "strings": lambda n: [f"g{i}" for i in range(n)],
}


@pytest.fixture(params=sorted(_INDEXES))
def series(request, graphs):
    return pd.Series(graphs, index=_INDEXES[request.param](len(graphs)), name="graph")


def _labels(graphs):
    return np.array([int(graph.y) for graph in graphs])


def test_series_and_object_array_of_graphs_are_graph_data(graphs, series):
    assert is_graph_data(series) and is_graph_data(_as_array(graphs))
    assert not is_graph_data(pd.Series([1.0, 2.0]))
    assert not is_graph_data(pd.Series(["a", "b"], dtype=object))
    assert not is_graph_data(pd.Series([], dtype=object))


def test_fingerprint_of_series_and_object_array_is_the_lists(graphs, series):
    expected = fingerprint(graphs)
    assert fingerprint(series) == expected
    assert fingerprint(_as_array(graphs)) == expected
    assert fingerprint((series, np.arange(len(graphs)))) == fingerprint(
        (graphs, np.arange(len(graphs)))
    )
    # by position: another order is other data
    assert fingerprint(series.iloc[::-1]) == fingerprint(graphs[::-1]) != expected


def _outer_scores(X, y, **params):
    """The outer scores of one NestedCV of the test's GIN on ``X``, ``y``, with ``params``."""
    search = NestedCV(
        _classifier(),
        {"lr": [0.01]},
        outer_cv=2,
        inner_cv=2,
        scoring=_SCORING,
        random_state=0,
        **params,
    )
    return search.fit(X, y).outer_scores_


def test_nested_cv_with_cache_dir_takes_series_and_object_array(graphs, series, tmp_path):
    y = _labels(graphs)

    def scores(X, cache):
        return _outer_scores(X, y, cache_dir=tmp_path / cache)

    expected = scores(graphs, "list")
    np.testing.assert_array_equal(scores(series, "series"), expected)
    np.testing.assert_array_equal(scores(_as_array(graphs), "array"), expected)


def test_benchmark_takes_series_and_object_array(graphs, series):
    y = _labels(graphs)

    def scores(data):
        result = benchmark(
            {"gin": (_classifier(), {"lr": [0.01]})},
            {"d": data},
            outer_cv=StratifiedKFold(2, shuffle=True, random_state=0),
            inner_cv=2,
            scoring=_SCORING,
            n_refits=1,
            random_state=0,
        )
        return result.scores["score"].to_numpy()

    expected = scores((graphs, y))
    np.testing.assert_array_equal(scores((series, pd.Series(y, index=series.index))), expected)
    np.testing.assert_array_equal(scores((_as_array(graphs), y)), expected)


def test_nested_cv_reads_the_labels_of_a_series(graphs, series):
    np.testing.assert_array_equal(_outer_scores(series, None), _outer_scores(graphs, None))


def test_nested_cv_in_parallel_scores_a_series_of_graphs_as_the_list(graphs):
    # the workers get the Series collated (review36 REV-3), and its rows back as a Series
    y = _labels(graphs)
    expected = _outer_scores(graphs, y, n_jobs=2)
    assert np.isfinite(expected).all()
    series = pd.Series(graphs, index=_INDEXES["permuted"](len(graphs)), name="graph")
    np.testing.assert_array_equal(_outer_scores(series, y, n_jobs=2), expected)


def test_splitters_split_a_series_as_the_list(graphs, series):
    for splitter in (
        StratifiedGraphKFold(5, random_state=0),
        HoldoutSplit(test_size=0.2, shuffle=True, random_state=1),
    ):
        for (train, test), (train_list, test_list) in zip(
            splitter.split(series), splitter.split(graphs), strict=True
        ):
            np.testing.assert_array_equal(train, train_list)
            np.testing.assert_array_equal(test, test_list)


def test_under_sampler_reads_the_labels_of_a_series(graphs, series):
    kept, labels = RandomGraphUnderSampler(random_state=0).fit_resample(series)
    kept_list, labels_list = RandomGraphUnderSampler(random_state=0).fit_resample(graphs)
    np.testing.assert_array_equal(labels, labels_list)
    assert [graph is other for graph, other in zip(kept, kept_list, strict=True)] == [True] * len(
        kept_list
    )


def test_find_duplicates_of_a_series_by_position(graphs, series):
    expected = find_duplicates(graphs).groups
    assert len(expected) == 2
    for group, group_list in zip(find_duplicates(series).groups, expected, strict=True):
        np.testing.assert_array_equal(group, group_list)


def _edge_forms(graphs):
    """The graphs with an ``edge_attr`` of width 0, and without ``edge_attr``."""
    import torch

    width_0, without = [], []
    for graph in graphs:
        graph = graph.clone()
        graph.edge_attr = torch.zeros(graph.edge_index.shape[1], 0)
        width_0.append(graph)
        graph = graph.clone()
        del graph.edge_attr
        without.append(graph)
    return width_0, without


def test_edge_attr_of_width_0_is_no_edge_feature(graphs):
    width_0, without = _edge_forms(graphs)
    assert GraphCollection.from_data_list(width_0).num_edge_features is None
    fitted_0 = _classifier().fit(width_0)
    fitted = _classifier().fit(without)
    assert fitted_0.num_edge_features_ is None and fitted.num_edge_features_ is None
    expected = fitted.predict_proba(without)
    np.testing.assert_array_equal(fitted_0.predict_proba(width_0), expected)
    # fitted on one form, either form predicts alike
    np.testing.assert_array_equal(fitted.predict_proba(width_0), expected)
    np.testing.assert_array_equal(fitted_0.predict_proba(without), expected)


def test_a_series_of_points_is_a_column_not_graphs():
    # a namedtuple Point(x, y) has a .y: a Series of them was taken for graphs (review36)
    Point = collections.namedtuple("Point", ["x", "y"])
    points = [Point(float(i), float(i % 2)) for i in range(6)]
    assert not is_graph_data(pd.Series(points, dtype=object))


@pytest.mark.parametrize("as_array", [False, True])
def test_a_list_of_points_is_refused_saying_why_it_was_read_as_graphs(as_array):
    # a list or object array of Point(x, y) is still read as graphs (its items have a .y, as
    # duck-typed graphs do), where a Series of them is a column: NestedCV said only "'x' needs
    # one row per node", and benchmark "vars() argument must have __dict__ attribute" (hunt
    # DOC13); both now say why and what to pass instead
    Point = collections.namedtuple("Point", ["x", "y"])
    points = [Point(float(i), float(i % 3)) for i in range(30)]
    X = _as_array(points) if as_array else points
    labels = np.arange(30) % 2
    why = r"read as a sequence of graphs because its first item has a 'y' attribute.*pandas Series"
    with pytest.raises(ValueError, match=r"'x' needs one row per node\. \(X was " + why):
        NestedCV(_classifier(), {"lr": [0.01]}, outer_cv=2, inner_cv=2).fit(X, labels)
    with pytest.raises(TypeError, match=r"A graph of type Point has no attributes.*" + why):
        benchmark(
            {"gin": (_classifier(), {"lr": [0.01]})}, {"d": (X, labels)}, outer_cv=2, inner_cv=2
        )
