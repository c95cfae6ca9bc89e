"""The GNN models refuse widths and layer counts below 1 (and GIN's ``hidden_units`` that is not
a non-empty list of them) with an error naming the parameter: a width of 0 trained a constant
model (class 1 for all 68 test graphs of MUTAG), other sizes crashed inside torch."""

import re
import warnings

import numpy as np
import pytest
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import GridSearchCV
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair.graph import (
    DGCNN,
    ECC,
    GIN,
    DeepMultisets,
    DiffPool,
    GraphClassifier,
    GraphSAGE,
    MolecularFingerprint,
)

# what each model needs besides the size under test
NEEDS = {DGCNN: {"k": 10}, DiffPool: {"node_counts": [5, 12, 7]}}
SIZES = {
    DeepMultisets: ["hidden_units"],
    MolecularFingerprint: ["hidden_units"],
    GraphSAGE: ["dim_embedding", "num_layers"],
    DGCNN: ["embedding_dim", "num_layers", "dense_dim"],
    DiffPool: ["num_layers", "gnn_dim_hidden", "dim_embedding", "dim_embedding_MLP"],
    ECC: ["num_layers", "dim_embedding"],
}
CASES = [(model, name) for model, names in SIZES.items() for name in names]
GIN_WIDTHS = "a non-empty list or tuple of ints of at least 1, one width a layer (such as [64, 64])"


def _id(case):
    return case.__name__ if isinstance(case, type) else None


@pytest.mark.parametrize("model, name", CASES, ids=_id)
@pytest.mark.parametrize("value", [0, -1, 2.5, True, "8", None])
def test_a_size_below_one_or_not_an_int_is_refused(model, name, value):
    message = (
        f"The {name!r} parameter of {model.__name__} must be an int in the range [1, inf). "
        f"Got {value!r} instead."
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        model(3, 2, **NEEDS.get(model, {}), **{name: value})


@pytest.mark.parametrize("model, name", CASES, ids=_id)
def test_a_size_of_one_is_accepted(model, name):
    assert isinstance(model(3, 2, **NEEDS.get(model, {}), **{name: np.int64(1)}), model)


@pytest.mark.parametrize("widths", [(0,), [8, 0], [], 8, "8", b"\x08", [8.0], [True], None,
                                    np.array(8), np.array([[8, 8]])])  # fmt: skip
def test_gin_widths_that_are_not_a_list_of_sizes_are_refused(widths):
    message = f"The 'hidden_units' parameter of GIN must be {GIN_WIDTHS}. Got {widths!r} instead."
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        GIN(3, 2, hidden_units=widths)


@pytest.mark.parametrize("widths", [(5,), [8, 4], np.array([8, 4])])
def test_gin_builds_one_layer_per_width(widths):
    model = GIN(3, 2, hidden_units=widths)
    assert model.input_mlp[0].out_features == widths[0]
    assert [conv.nn[0].out_features for conv in model.convs] == list(widths)
    assert [readout.in_features for readout in model.readouts] == [widths[0], *widths]


def test_the_size_the_model_is_given_is_its_width():
    assert DeepMultisets(3, 2, hidden_units=1).node_layer.out_features == 1
    assert MolecularFingerprint(3, 2, hidden_units=2).mlp[0].out_features == 2
    sage = GraphSAGE(3, 2, dim_embedding=4, num_layers=1)
    assert (len(sage.convs), sage.hidden.in_features) == (1, 4)
    assert len(DiffPool(3, 2, num_layers=1, node_counts=[5]).pool_blocks) == 1


def test_fit_refuses_a_width_of_zero(mutag):
    clf = GraphClassifier(DeepMultisets, module__hidden_units=0, max_epochs=1, random_state=0)
    with pytest.raises(InvalidParameterError, match="'hidden_units' parameter of DeepMultisets"):
        clf.fit(mutag[:30])


def test_a_grid_candidate_of_width_zero_is_a_failed_fit(mutag):
    search = GridSearchCV(
        GraphClassifier(DeepMultisets, max_epochs=1, random_state=0),
        {"module__hidden_units": [0, 4]},
        cv=2,
        error_score=np.nan,
        refit=False,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(mutag[:30])
    failed = [str(w.message) for w in caught if issubclass(w.category, FitFailedWarning)]
    assert failed and "The 'hidden_units' parameter of DeepMultisets must be" in failed[0]
    scores = search.cv_results_["mean_test_score"]
    assert np.isnan(scores[0]) and np.isfinite(scores[1])


@pytest.mark.parametrize("model, name", CASES + [(GIN, "hidden_units")], ids=_id)
def test_a_small_numpy_integer_builds_the_model_its_value_builds(model, name):
    # hunt DOC16-6: np.uint8(8) passed the check, then wrapped in the model's arithmetic
    # (GraphSAGE's 8 layers x 64 wide readout was 0 wide: its forward pass failed)
    def shapes(value):
        size = [value, value] if model is GIN else value
        built = model(3, 2, **NEEDS.get(model, {}), **{name: size})
        return [tuple(p.shape) for p in built.parameters()]

    assert shapes(np.uint8(8)) == shapes(8)
