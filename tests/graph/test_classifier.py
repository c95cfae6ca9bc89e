"""GraphClassifier: the scikit-learn contract, inputs, seeding, early stopping, errors."""

import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
import torch_geometric.data
from imblearn import FunctionSampler
from imblearn.pipeline import Pipeline
from sklearn.base import clone, is_classifier
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from skorch.callbacks import Callback
from torch_geometric.data import Batch, Data
from torch_geometric.datasets import TUDataset

import sklearn_fair.graph
from sklearn_fair.graph import DeepMultisets, GraphClassifier, GraphCollection, MolecularFingerprint
from sklearn_fair.utils import read_graph_labels
from sklearn_fair.utils._random import SEED_BOUND, named_generator


def make_clf(module=DeepMultisets, **params):
    defaults = dict(module__hidden_units=16, lr=0.01, max_epochs=3, random_state=0)
    return GraphClassifier(module, **{**defaults, **params})


def as_object_array(graphs):
    array = np.empty(len(graphs), dtype=object)
    for index, graph in enumerate(graphs):
        array[index] = graph
    return array


def test_same_seed_same_predictions(mutag_split):
    X_train, X_test, _ = mutag_split
    first = make_clf(random_state=3).fit(X_train).predict_proba(X_test)
    second = make_clf(random_state=3).fit(X_train).predict_proba(X_test)
    other = make_clf(random_state=4).fit(X_train).predict_proba(X_test)
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first, other)


@pytest.mark.parametrize("random_state", [7, np.int64(7)])
def test_each_seed_is_derived_by_name(random_state, mutag_split):
    """Issue 32: the library's rule (``named_generator(seed_root(random_state), name)``) for
    each of its seeds, so that a user's ``random_state`` keeps its seeds when one is added."""
    X_train, _, _ = mutag_split
    clf = make_clf(max_epochs=1, random_state=random_state).fit(X_train[:40])
    expected = {
        name: int(named_generator(7, name).integers(SEED_BOUND))
        for name in ("torch", "split", "order", "data")
    }
    assert clf.seeds_ == expected
    assert len(set(expected.values())) == 4
    # a RandomState is drawn from once, for the root, whatever the number of seeds
    rng = np.random.RandomState(3)
    make_clf(max_epochs=1, random_state=rng).fit(X_train[:40])
    reference = np.random.RandomState(3)
    reference.randint(SEED_BOUND)
    assert rng.randint(1000) == reference.randint(1000)


def test_fit_and_prediction_leave_the_global_torch_random_state_alone(mutag_split):
    X_train, X_test, _ = mutag_split
    state = torch.get_rng_state()
    clf = make_clf().fit(X_train[:40])
    assert torch.equal(state, torch.get_rng_state())
    # torch's DataLoader draws a seed from the global generator for each pass over the data
    clf.predict_proba(X_test)
    clf.predict(X_test)
    clf.score(X_test)
    assert torch.equal(state, torch.get_rng_state())
    # a PyG dataset whose transform draws from torch as its graphs are read
    noisy = _Noisy([X_test[i] for i in range(len(X_test))])
    clf.predict_proba(noisy)
    clf.score(noisy)
    assert torch.equal(state, torch.get_rng_state())


def test_clone_is_untrained_and_refits_start_fresh(mutag_split):
    X_train, X_test, _ = mutag_split
    clf = make_clf().fit(X_train)
    fresh = clone(clf)
    assert not hasattr(fresh, "module_") and not hasattr(fresh, "classes_")
    assert fresh.get_params()["module__hidden_units"] == 16
    np.testing.assert_array_equal(
        fresh.fit(X_train).predict_proba(X_test), clf.predict_proba(X_test)
    )
    weights = [p.detach().clone() for p in clf.module_.parameters()]
    clf.fit(X_train)  # a refit re-initialises: same seed, same result, not continued training
    for before, after in zip(weights, clf.module_.parameters()):
        assert torch.equal(before, after)


@pytest.mark.parametrize("kind", ["collection", "pyg_dataset", "list", "object_array"])
def test_accepts_collections_datasets_lists_and_object_arrays(kind, mutag, tmp_path):
    if kind == "pyg_dataset":
        bundled = Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG"
        shutil.copytree(bundled, tmp_path / "MUTAG")
        X = TUDataset(str(tmp_path), "MUTAG")[:60]
    else:
        X = {
            "collection": mutag[:60],
            "list": [mutag[i] for i in range(60)],
            "object_array": as_object_array([mutag[i] for i in range(60)]),
        }[kind]
    clf = make_clf(max_epochs=1).fit(X)
    assert clf.num_node_features_ == 7
    assert clf.predict(X).shape == (60,)
    proba = clf.predict_proba(X)
    assert proba.shape == (60, 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1, rtol=1e-5)
    # the same graphs in any container give the same model
    reference = make_clf(max_epochs=1).fit(mutag[:60])
    np.testing.assert_array_equal(proba, reference.predict_proba(mutag[:60]))


def test_y_may_be_given_and_labels_keep_their_values(mutag_split):
    X_train, X_test, _ = mutag_split
    names = np.array(["inactive", "mutagen"])
    y_train = names[read_graph_labels(X_train)]
    clf = make_clf().fit(X_train, y_train)
    assert list(clf.classes_) == ["inactive", "mutagen"]
    assert set(clf.predict(X_test)) <= set(names)
    assert clf.score(X_test, names[read_graph_labels(X_test)]) == pytest.approx(
        make_clf().fit(X_train).score(X_test)  # y read from the graphs
    )


@pytest.mark.parametrize("names", [["inactive", "mutagen"], [5, 7]], ids=["strings", "5-and-7"])
def test_score_without_y_refuses_graph_labels_that_are_not_among_the_classes(names, mutag):
    """Fitted on y = names[label] while the graphs carry the labels 0/1, ``score(X)`` reads
    the graphs' 0/1, which no prediction can equal: strings failed with scikit-learn's "Mix of
    label input types", and [5, 7] gave an accuracy of 0.0 whatever the predictions."""
    X = list(mutag[:60])
    labels = read_graph_labels(X)
    y = np.array(names)[labels]
    clf = make_clf(max_epochs=1).fit(X, y)
    refusal = r"score\(X\) without y .* \[0, 1\], not among .* classes_ "
    with pytest.raises(ValueError, match=refusal):
        clf.score(X)
    # with y: scikit-learn's accuracy of the predictions
    assert clf.score(X, y) == np.mean(clf.predict(X) == y)
    # graphs carrying the labels fit saw: read from them, as fit reads them
    assert make_clf(max_epochs=1).fit(X).score(X) == pytest.approx(
        make_clf(max_epochs=1).fit(X, labels).score(X, labels)
    )


def test_sizes_are_inferred_not_passed(mutag_split):
    X_train, _, _ = mutag_split
    clf = make_clf().fit(X_train)
    assert clf.module_.node_layer.in_features == 7
    assert clf.module_.output_layer.out_features == 2
    with pytest.raises(ValueError, match="module__in_channels"):
        make_clf(module__in_channels=7).fit(X_train)


def test_early_stopping_restores_the_selected_epoch(mutag):
    """The restored weights give the validation loss recorded at the selected epoch."""
    X, X_val = mutag[:140], mutag[140:]
    clf = make_clf(max_epochs=40, patience=2, lr=0.05, monitor="valid_loss").fit(X, X_val=X_val)
    losses = np.array(clf.history[:, "valid_loss"])
    selected = len(losses) - np.argmin(losses[::-1])  # the latest epoch with the least loss
    assert clf.best_epoch_ == selected
    assert len(clf.history) in (selected + 2, 40)
    proba = clf.predict_proba(X_val)
    loss = -np.mean(np.log(proba[np.arange(len(X_val)), X_val.y]))
    assert loss == pytest.approx(losses[selected - 1], rel=1e-5)
    assert selected == len(losses) or loss != pytest.approx(losses[-1], rel=1e-5)


class _RecordSplit(Callback):
    """Records the rows skorch trained and validated on (its Subsets' indices)."""

    def on_epoch_begin(self, net, dataset_train=None, dataset_valid=None, **kwargs):
        self.train_ = np.asarray(dataset_train.indices)
        self.valid_ = np.asarray(dataset_valid.indices)


def test_validation_split_is_stratified_and_held_out(mutag_split):
    X_train, _, _ = mutag_split
    y = read_graph_labels(X_train)
    spy = _RecordSplit()
    clf = make_clf(max_epochs=1, validation_fraction=0.2, callbacks=[("spy", spy)]).fit(X_train)
    train, valid = spy.train_, spy.valid_
    # held out: disjoint, together all the graphs, and the training passes saw only the rest
    assert len(np.intersect1d(train, valid)) == 0
    np.testing.assert_array_equal(np.sort(np.concatenate([train, valid])), np.arange(len(y)))
    assert len(valid) == int(np.ceil(0.2 * len(X_train)))
    batches = clf.history[-1, "batches"]
    assert sum(b["train_batch_size"] for b in batches if "train_batch_size" in b) == len(train)
    assert sum(b["valid_batch_size"] for b in batches if "valid_batch_size" in b) == len(valid)
    # stratified: each class holds its share of the validation rows, to within one graph
    for label in np.unique(y):
        share = np.mean(y == label) * len(valid)
        assert abs(np.sum(y[valid] == label) - share) <= 1, label


def test_an_unseeded_valid_split_given_as_train_split_is_seeded_by_random_state(mutag_split):
    # ValidSplit(0.2, stratified=True) without random_state drew from numpy's global state:
    # the same random_state gave other validation rows (and predictions) after another draw
    from sklearn.model_selection import StratifiedShuffleSplit
    from skorch.dataset import ValidSplit

    X_train, _, _ = mutag_split
    y = read_graph_labels(X_train)
    given = ValidSplit(0.2, stratified=True)
    held_out = []
    for global_seed in (1, 2):
        np.random.seed(global_seed)
        spy = _RecordSplit()
        clf = make_clf(max_epochs=1, train_split=given, callbacks=[("spy", spy)]).fit(X_train)
        held_out.append(np.sort(spy.valid_))
    np.testing.assert_array_equal(held_out[0], held_out[1])
    # the split the seed of the validation split draws, as scikit-learn's splitter draws it
    reference = StratifiedShuffleSplit(test_size=0.2, random_state=clf.seeds_["split"])
    _, valid = next(reference.split(np.zeros(len(y)), y))
    np.testing.assert_array_equal(held_out[0], np.sort(valid))
    assert given.random_state is None  # the user's object is left as it was


def test_no_validation_trains_all_epochs(mutag_split):
    X_train, _, _ = mutag_split
    clf = make_clf(max_epochs=4, validation_fraction=None).fit(X_train)
    assert len(clf.history) == 4
    assert "valid_loss" not in clf.history[-1]


def test_optimizer_takes_the_multi_tensor_update_unless_told_otherwise(mutag_split):
    X_train, X_test, _ = mutag_split
    default = make_clf(module=MolecularFingerprint).fit(X_train)
    per_tensor = make_clf(module=MolecularFingerprint, optimizer__foreach=False).fit(X_train)
    sgd = make_clf(module=MolecularFingerprint, optimizer=torch.optim.SGD).fit(X_train)
    assert default.optimizer_.defaults["foreach"] is True
    assert per_tensor.optimizer_.defaults["foreach"] is False
    assert sgd.optimizer_.defaults["foreach"] is True
    # the same arithmetic: the two updates train the same model
    np.testing.assert_allclose(
        default.predict_proba(X_test), per_tensor.predict_proba(X_test), rtol=0, atol=1e-6
    )
    # the fused update is the user's choice, and torch refuses it beside foreach=True
    fused = make_clf(module=MolecularFingerprint, optimizer__fused=True).fit(X_train)
    assert fused.optimizer_.defaults["fused"] is True
    assert not fused.optimizer_.defaults["foreach"]


def test_missing_node_features_error_names_the_feature_schemes(mutag):
    graphs = [
        Data(edge_index=torch.tensor([[0, 1], [1, 0]]), num_nodes=2, y=torch.tensor([i % 2]))
        for i in range(10)
    ]
    with pytest.raises(ValueError, match="features='constant'.*features='degree'"):
        make_clf().fit(graphs)


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(monitor="train_loss"), "'monitor' parameter"),
        (dict(patience=0), "'patience' parameter"),
        (dict(validation_fraction=1.5), "'validation_fraction' parameter"),
        (dict(module=DeepMultisets(7, 2)), "'module' parameter"),
        (dict(train_split=0.2), "'train_split' parameter"),
        (dict(early_stopping="gl"), "'early_stopping' parameter"),
        (dict(gl_alpha=-1.0), "'gl_alpha' parameter"),
        (dict(gl_start_epoch=1.5), "'gl_start_epoch' parameter"),
        (dict(torch_threads=0), "'torch_threads' parameter"),
        # a bool is a mistake where a count or a fraction is meant, not 1 or 0
        (dict(max_epochs=True), "'max_epochs' parameter of GraphClassifier .*Got True"),
        (dict(batch_size=True), "'batch_size' parameter of GraphClassifier .*Got True"),
        (dict(batch_size=-2), "'batch_size' parameter of GraphClassifier .*Got -2"),
        (dict(patience=True), "'patience' parameter of GraphClassifier .*Got True"),
        (dict(gl_alpha=True), "'gl_alpha' parameter of GraphClassifier .*Got True"),
        (dict(gl_alpha=float("inf")), "'gl_alpha' parameter of GraphClassifier .*Got inf"),
        (dict(validation_fraction=True), "'validation_fraction' parameter of GraphClassifier"),
        (dict(random_state=-1), "'random_state' parameter of GraphClassifier .*Got -1"),
        (dict(random_state=True), "'random_state' parameter of GraphClassifier .*Got True"),
    ],
)
def test_bad_parameters_are_named(params, match, mutag_split):
    X_train, _, _ = mutag_split
    with pytest.raises((ValueError, TypeError), match=match):
        make_clf(**params).fit(X_train)


def test_random_state_takes_a_generator(mutag_split):
    X_train, X_test, _ = mutag_split
    predictions = [
        make_clf(max_epochs=2, random_state=np.random.default_rng(0))
        .fit(X_train)
        .predict_proba(X_test)
        for _ in range(2)
    ]
    np.testing.assert_array_equal(predictions[0], predictions[1])


def test_bad_inputs(mutag_split):
    X_train, X_test, _ = mutag_split
    with pytest.raises(ValueError, match="same length"):
        make_clf().fit(X_train, np.zeros(3))
    with pytest.raises(ValueError, match="at least 2 classes"):
        make_clf().fit(X_train[:5], np.zeros(5))
    with pytest.raises(TypeError, match="sequence of graphs"):
        make_clf().fit(X_train[0])
    clf = make_clf(max_epochs=1).fit(X_train)
    narrow = [Data(x=g.x[:, :3], edge_index=g.edge_index) for g in X_test]
    with pytest.raises(ValueError, match="3 node features"):
        clf.predict(narrow)
    with pytest.raises(ValueError, match="validation split"):
        make_clf().fit(X_train[:4], [0, 0, 0, 1])
    with pytest.raises(ValueError, match="Unknown label type"):
        make_clf().fit(X_train[:6], [0.5, 1.5, 0.5, 1.5, 0.5, 1.2])


def test_is_a_classifier_and_pickles(mutag_split):
    X_train, X_test, _ = mutag_split
    clf = make_clf().fit(X_train)
    assert is_classifier(clf)
    restored = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(restored.predict_proba(X_test), clf.predict_proba(X_test))


def test_set_params_of_the_module_then_refit(mutag_split):
    X_train, _, _ = mutag_split
    clf = make_clf().fit(X_train)
    clf.set_params(module__hidden_units=8).fit(X_train)
    assert clf.module_.node_layer.out_features == 8


def test_grid_search_cv(mutag):
    X = [mutag[i] for i in range(len(mutag))]
    y = read_graph_labels(X)
    search = GridSearchCV(
        make_clf(max_epochs=2, validation_fraction=None),
        {"module": [DeepMultisets, MolecularFingerprint], "lr": [0.01]},
        cv=StratifiedKFold(3, shuffle=True, random_state=0),
    ).fit(X, y)
    # each candidate's fold scores are those of a fit of its own on the fold
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    for candidate, params in enumerate(search.cv_results_["params"]):
        for fold, (train, test) in enumerate(cv.split(X, y)):
            model = make_clf(max_epochs=2, validation_fraction=None, **params)
            model.fit([X[i] for i in train], y[train])
            expected = accuracy_score(y[test], model.predict([X[i] for i in test]))
            assert search.cv_results_[f"split{fold}_test_score"][candidate] == expected
    best = int(np.argmax(search.cv_results_["mean_test_score"]))
    assert search.best_params_ == search.cv_results_["params"][best]
    refit = make_clf(max_epochs=2, validation_fraction=None, **search.best_params_).fit(X, y)
    np.testing.assert_array_equal(search.predict_proba(X), refit.predict_proba(X))


def test_inside_an_imbalanced_learn_pipeline(mutag):
    X = as_object_array([mutag[i] for i in range(len(mutag))])
    y = read_graph_labels(X)

    def undersample(X, y):
        rng = np.random.default_rng(0)
        keep = np.concatenate(
            [
                rng.choice(np.flatnonzero(y == label), np.bincount(y).min(), replace=False)
                for label in np.unique(y)
            ]
        )
        return X[keep], y[keep]

    pipeline = Pipeline(
        [
            ("balance", FunctionSampler(func=undersample, validate=False)),
            ("gnn", make_clf(max_epochs=2)),
        ]
    )
    pipeline.fit(X, y)
    # the GNN was fitted on the balanced graphs: the model of a direct fit on them
    X_balanced, y_balanced = undersample(X, y)
    assert np.bincount(y_balanced).tolist() == [np.bincount(y).min()] * 2
    direct = make_clf(max_epochs=2).fit(X_balanced, y_balanced)
    np.testing.assert_array_equal(
        pipeline.named_steps["gnn"].predict_proba(X), direct.predict_proba(X)
    )
    # the sampler is skipped when predicting and scoring: every graph gets a prediction
    np.testing.assert_array_equal(pipeline.predict(X), direct.predict(X))
    assert pipeline.score(X, y) == accuracy_score(y, direct.predict(X))


class _AccuracyByPrediction(Callback):
    """After each epoch, the accuracy of ``net.predict`` on the validation graphs."""

    def __init__(self, X_val):
        self.X_val = X_val

    def on_epoch_end(self, net, **kwargs):
        y_val = read_graph_labels(self.X_val)
        net.history.record("predicted_acc", accuracy_score(y_val, net.predict(self.X_val)))


def test_valid_acc_is_the_accuracy_of_the_epochs_model_on_the_validation_graphs(mutag):
    """skorch's EpochScoring on the cached validation passes: the same value as predicting."""
    train, valid = train_test_split(
        np.arange(len(mutag)), test_size=0.25, stratify=mutag.y, random_state=0
    )
    X, X_val = mutag[train], mutag[valid]
    clf = make_clf(
        MolecularFingerprint,
        lr=0.05,  # moves the predictions between epochs (at 0.01, seed 0 stays on the majority)
        max_epochs=6,
        callbacks=[("check", _AccuracyByPrediction(X_val))],
    )
    clf.fit(X, X_val=X_val)
    recorded = clf.history[:, "valid_acc"]
    assert recorded == clf.history[:, "predicted_acc"]
    assert len(set(recorded)) > 1  # the epochs' models differ, so the check can tell them apart


def test_one_feature_as_a_vector_is_one_feature_column_and_more_dimensions_are_refused(mutag):
    """PyG's ``num_node_features`` (and ``num_node_features_``) count a 1-D ``x`` as one feature:
    the model is the one trained on that feature as the column PyG documents. Before, the module
    got the vector and failed with 'mat1 and mat2 shapes cannot be multiplied'; a 3-D ``x`` too,
    after ``num_node_features_`` had counted 1 feature where PyG counts its last axis."""
    column = [Data(x=g.x[:, 1:2], edge_index=g.edge_index, y=g.y) for g in mutag[:60]]
    vector = [Data(x=g.x[:, 1], edge_index=g.edge_index, y=g.y) for g in mutag[:60]]
    expected = make_clf().fit(column).predict_proba(column)
    clf = make_clf().fit(vector)
    assert clf.num_node_features_ == 1
    np.testing.assert_array_equal(clf.predict_proba(vector), expected)
    np.testing.assert_array_equal(clf.predict_proba(column), expected)
    cube = [Data(x=g.x.view(-1, 7, 1), edge_index=g.edge_index, y=g.y) for g in mutag[:60]]
    with pytest.raises(ValueError, match=r"The graphs of X have 'x' of shape \(n_nodes, 7, 1\)"):
        make_clf().fit(cube)
    with pytest.raises(ValueError, match=r"The graphs of X have 'x' of shape \(n_nodes, 7, 1\)"):
        make_clf().fit(column).predict(cube)


def test_graphs_that_carry_string_labels_are_indexed_and_fitted(mutag):
    """A GraphCollection takes any labels, and GraphClassifier keeps their values: string labels
    carried by the graphs give the model that the same labels passed as ``y`` give. Before,
    ``graphs[0]``, iteration and ``fit`` failed in ``torch.from_numpy`` (no tensor of str)."""
    names = np.array(["inactive", "mutagen"])
    graphs = mutag[:60]
    named = GraphCollection(
        graphs.x, graphs.edge_index, graphs.node_ptr, graphs.edge_ptr, y=names[graphs.y]
    )
    assert named[3].y.tolist() == [names[graphs.y[3]]]
    assert [g.y[0] for g in named] == names[graphs.y].tolist()
    expected = make_clf().fit(graphs, names[graphs.y])
    clf = make_clf().fit(named)
    assert clf.classes_.tolist() == names.tolist()
    np.testing.assert_array_equal(clf.predict_proba(named), expected.predict_proba(graphs))
    as_data = [Data(x=g.x, edge_index=g.edge_index, y=str(g.y[0])) for g in named]
    np.testing.assert_array_equal(
        make_clf().fit(as_data).predict_proba(graphs), expected.predict_proba(graphs)
    )


def test_a_pyg_batch_is_refused_with_the_call_that_gives_its_graphs(mutag):
    """A Batch is a Data: it was refused as 'a single Data object; wrap it in a list', and the
    list was then refused for its 'batch' and 'ptr'. The error names what works."""
    clf = make_clf(max_epochs=1).fit(mutag[:60])
    batch = Batch.from_data_list(list(mutag[60:70]))
    with pytest.raises(TypeError, match=r"a PyG Batch of 10 graphs; pass batch.to_data_list\(\)"):
        clf.predict(batch)
    np.testing.assert_array_equal(clf.predict(batch.to_data_list()), clf.predict(mutag[60:70]))


def test_warm_start_refuses_other_classes_or_features(mutag):
    """warm_start=True (skorch's) continues training the fitted module, whose outputs are the
    previous classes and whose inputs the previous features; as scikit-learn's MLPClassifier
    (warm_start=True) refuses other classes. Before, other labels of as many classes were
    silently trained as the old ones ('no'/'yes' on the outputs of 0/1), three classes failed
    with torch's 'Target 2 is out of bounds', fewer features with a matmul error."""
    clf = make_clf(warm_start=True, max_epochs=1).fit(mutag[:60])
    weights = [p.detach().clone() for p in clf.module_.parameters()]
    narrow = [Data(x=g.x[:, :3], edge_index=g.edge_index, y=g.y) for g in mutag[:60]]
    for X, y in [
        (mutag[:60], np.array(["no", "yes"])[mutag.y[:60]]),
        (mutag[:60], np.arange(60) % 3),
        (narrow, None),
    ]:
        with pytest.raises(ValueError, match="warm_start=True continues training"):
            clf.fit(X, y)
        assert clf.classes_.tolist() == [0, 1] and clf.num_node_features_ == 7
        for before, after in zip(weights, clf.module_.parameters()):
            assert torch.equal(before, after)
    clf.fit(mutag[:60])  # the same classes and features: training continues
    assert len(clf.history) == 2


def test_set_params_on_a_fitted_classifier_keeps_its_model_until_the_next_fit(mutag):
    """As scikit-learn's estimators: set_params stores the parameters and the next fit uses
    them; what was fitted predicts as before. skorch rebuilt the module with fresh, untrained
    weights when a module__* parameter was set (predictions of an untrained model, no warning),
    and refused iterator_valid__batch_size or optimizer with 'Something went wrong'."""
    clf = make_clf(max_epochs=20).fit(mutag[:100])
    fitted = clf.predict_proba(mutag[100:])
    for params in (
        {"module__hidden_units": 8},
        {"iterator_valid__batch_size": 7},
        {"optimizer": torch.optim.SGD},
        {"module": MolecularFingerprint},
    ):
        clf.set_params(**params)
        # the same model: equal but for float32 sums over batches of another size (a fresh,
        # untrained module would differ in the first decimal)
        np.testing.assert_allclose(clf.predict_proba(mutag[100:]), fitted, rtol=1e-5, atol=1e-6)
    assert clf.get_params()["module__hidden_units"] == 8
    # the next fit builds what the parameters say: a fresh classifier given them
    refit = clf.fit(mutag[:100]).predict_proba(mutag[100:])
    fresh = make_clf(
        max_epochs=20,
        module=MolecularFingerprint,
        module__hidden_units=8,
        iterator_valid__batch_size=7,
        optimizer=torch.optim.SGD,
    ).fit(mutag[:100])
    assert isinstance(clf.module_, MolecularFingerprint)
    np.testing.assert_array_equal(refit, fresh.predict_proba(mutag[100:]))


def test_warm_start_refuses_a_module_changed_by_set_params(mutag):
    """warm_start=True would continue training the module built with the old parameters while
    get_params reports the new ones: refused, naming them. lr (applied to the optimizer) is not."""
    clf = make_clf(warm_start=True, max_epochs=1).fit(mutag[:60])
    clf.set_params(lr=0.05).fit(mutag[:60])
    assert clf.optimizer_.param_groups[0]["lr"] == 0.05
    clf.set_params(module__hidden_units=16)  # the value it was built with: no change
    clf.fit(mutag[:60])
    clf.set_params(module__hidden_units=8, criterion__label_smoothing=0.1)
    with pytest.raises(ValueError, match=r"criterion__label_smoothing.*module__hidden_units"):
        clf.fit(mutag[:60])
    assert clf.module_.node_layer.out_features == 16
    clf.set_params(warm_start=False).fit(mutag[:60])
    assert clf.module_.node_layer.out_features == 8
    clf.set_params(warm_start=True).fit(mutag[:60])  # built with them now: continues
    assert len(clf.history) == 2


class LogSoftmaxNet(torch.nn.Module):
    """The PyG tutorials' pattern: log-probabilities out, trained with NLLLoss (nll_loss)."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.linear = torch.nn.Linear(in_channels, out_channels)

    def forward(self, data):
        from torch_geometric.nn import global_mean_pool

        logits = self.linear(global_mean_pool(data.x, data.batch))
        return torch.log_softmax(logits, dim=-1)


@pytest.mark.parametrize("criterion", [torch.nn.NLLLoss, torch.nn.CrossEntropyLoss])
def test_predict_proba_is_the_softmax_of_the_outputs_whatever_the_criterion(criterion, mutag):
    """predict_proba is the softmax of the module's outputs, as documented: probabilities for a
    module of logits or of log-probabilities. skorch's rule took the softmax for
    CrossEntropyLoss only, so NLLLoss gave the log-probabilities themselves as
    'probabilities' (rows of -1.3 and -0.3, summing to -1.6)."""
    clf = GraphClassifier(LogSoftmaxNet, criterion=criterion, lr=0.01, max_epochs=3, random_state=0)
    clf.fit(mutag[:120])
    proba = clf.predict_proba(mutag[120:])
    # the reference: the module's outputs exponentiated (they are log-probabilities)
    clf.module_.eval()
    with torch.no_grad():
        outputs = clf.module_(Batch.from_data_list(list(mutag[120:])))
    np.testing.assert_allclose(proba, outputs.exp().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(proba.sum(axis=1), 1, rtol=1e-6)


class SoftmaxNet(LogSoftmaxNet):
    """A module that ends in softmax: its outputs are probabilities already."""

    def forward(self, data):
        return super().forward(data).exp()


def test_predict_proba_refuses_outputs_that_are_probabilities_already(mutag):
    """The softmax of probabilities is other probabilities ([0.9, 0.1] gives [0.69, 0.31]):
    predict_proba refuses such outputs rather than return them; with
    predict_nonlinearity=None the outputs themselves are the probabilities."""
    clf = GraphClassifier(
        SoftmaxNet, criterion=torch.nn.NLLLoss, lr=0.01, max_epochs=2, random_state=0
    ).fit(mutag[:120])
    with pytest.raises(ValueError, match=r"outputs are probabilities.*predict_nonlinearity=None"):
        clf.predict_proba(mutag[120:])
    clf.module_.eval()
    with torch.no_grad():
        outputs = clf.module_(Batch.from_data_list(list(mutag[120:]))).numpy()
    assert torch.softmax(torch.tensor([0.9, 0.1]), -1)[0] == pytest.approx(0.6900, abs=1e-4)
    clf.set_params(predict_nonlinearity=None)
    np.testing.assert_allclose(clf.predict_proba(mutag[120:]), outputs, rtol=1e-6)


def test_an_object_array_that_numpy_unpacked_is_refused_with_the_way_to_build_one(mutag):
    """np.array(graphs, dtype=object) unpacks each Data object into its (key, value) pairs: an
    array of shape (n, 3, 2) whose items are arrays. It was refused as 'Graph 0 of X is a
    ndarray, not a torch_geometric Data object'; the error says what happened and what works."""
    graphs = list(mutag[:40])
    unpacked = np.array(graphs, dtype=object)
    assert unpacked.shape == (40, 3, 2)  # numpy's doing, not ours
    with pytest.raises(
        TypeError, match=r"shape \(40, 3, 2\).*np.empty\(len\(graphs\), dtype=object\)"
    ):
        make_clf(max_epochs=1).fit(unpacked)
    with pytest.raises(TypeError, match=r"shape \(40, 3, 2\)"):
        GraphCollection.from_data_list(unpacked)
    array = np.empty(len(graphs), dtype=object)  # the way the error gives
    array[:] = graphs
    clf = make_clf(max_epochs=1).fit(array)
    np.testing.assert_array_equal(clf.classes_, [0, 1])


def test_an_optimizer_parameter_set_after_fit_is_stored_for_the_next_fit(mutag):
    """skorch applies optimizer__* of a fitted net to its optimizer only: get_params did not
    show it, clone lost it, and the next fit built the optimizer without it (weight_decay 0),
    where an unfitted classifier given the same set_params stores it."""
    clf = make_clf().fit(mutag[:60])
    clf.set_params(optimizer__weight_decay=0.5)
    assert clf.optimizer_.param_groups[0]["weight_decay"] == 0.5  # the fitted one, at once
    assert clf.get_params()["optimizer__weight_decay"] == 0.5
    assert clone(clf).get_params()["optimizer__weight_decay"] == 0.5
    refit = clf.fit(mutag[:60])
    assert refit.optimizer_.param_groups[0]["weight_decay"] == 0.5
    fresh = make_clf(optimizer__weight_decay=0.5).fit(mutag[:60])
    np.testing.assert_array_equal(refit.predict_proba(mutag[60:]), fresh.predict_proba(mutag[60:]))


class _Noisy(torch_geometric.data.Dataset):
    """A PyG dataset whose transform draws from torch's global random state (augmentation)."""

    def __init__(self, graphs):
        super().__init__(transform=self._noise)
        self._graphs = graphs

    @staticmethod
    def _noise(graph):
        graph = graph.clone()
        graph.x = graph.x + 0.5 * torch.randn_like(graph.x)
        return graph

    def len(self):
        return len(self._graphs)

    def get(self, index):
        return self._graphs[index]


def test_same_seed_same_predictions_with_a_random_transform(mutag_split):
    X_train, X_test, _ = mutag_split
    noisy = _Noisy([X_train[i] for i in range(len(X_train))])
    torch.manual_seed(0)
    first = make_clf(random_state=3).fit(noisy).predict_proba(X_test)
    torch.manual_seed(1)  # another global state before the fit: the same model
    second = make_clf(random_state=3).fit(noisy).predict_proba(X_test)
    np.testing.assert_array_equal(first, second)


def test_a_shuffling_prediction_loader_is_refused_before_training(mutag_split):
    # it would return predict's rows in a shuffled order: accuracy_score of them against y
    # would score a permutation
    X_train, _, _ = mutag_split
    clf = make_clf(iterator_valid__shuffle=True)
    with pytest.raises(ValueError, match="'iterator_valid__shuffle' parameter of GraphClassifier"):
        clf.fit(X_train)
    assert not hasattr(clf, "classes_")  # refused before any work
    # nor set after fit, before a prediction
    fitted = make_clf().fit(X_train).set_params(iterator_valid__shuffle=True)
    with pytest.raises(ValueError, match="'iterator_valid__shuffle' parameter of GraphClassifier"):
        fitted.predict_proba(X_train)
