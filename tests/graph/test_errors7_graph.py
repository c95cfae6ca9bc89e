"""Graph arguments refused where they were taken (hunt ERRORS7): a dropout outside [0, 1),
which failed only in the forward pass (or, at 1, trained a constant model), and a
GraphClassifier ``device`` that torch does not read, which failed in torch."""

import re

import pytest
import torch
import torch.nn.functional as F
from sklearn.utils._param_validation import InvalidParameterError
from torch_geometric.data import Batch, Data

from sklearn_fair.graph import ECC, GIN, DeepMultisets, GraphClassifier

DROPOUTS = [(GIN, "dropout"), (ECC, "dropout"), (ECC, "dropout_final")]


def _graph():
    path = torch.tensor([[0, 1, 1, 2, 2, 3], [1, 0, 2, 1, 3, 2]])
    return Data(x=torch.randn(4, 3), edge_index=path)


@pytest.mark.parametrize("value", [1.5, -0.1])
def test_torch_refuses_these_dropouts(value):
    # the reference: torch's own dropout, at the forward pass
    with pytest.raises(ValueError, match="dropout probability"):
        F.dropout(torch.ones(3), p=value)


def test_a_dropout_of_one_zeros_everything():
    # why 1 is refused too: every value dropped, the model's outputs constant
    assert not F.dropout(torch.ones(100), p=1.0, training=True).any()


@pytest.mark.parametrize(("model", "name"), DROPOUTS)
@pytest.mark.parametrize("value", [1.5, -0.1, 1.0, True, "0.5"])
def test_a_dropout_outside_zero_one_is_refused_when_the_model_is_built(model, name, value):
    message = (
        f"The {name!r} parameter of {model.__name__} must be a float in the range [0.0, 1.0). "
        f"Got {value!r} instead."
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        model(3, 2, **{name: value})


@pytest.mark.parametrize(("model", "name"), DROPOUTS)
@pytest.mark.parametrize("value", [0, 0.0, 0.5, 0.99])
def test_a_dropout_in_zero_one_is_taken(model, name, value):
    built = model(3, 2, **{name: value})
    assert getattr(built, name) == value
    built.train()
    assert built(Batch.from_data_list([_graph(), _graph()])).shape == (2, 2)


def test_graph_classifier_refuses_a_module_dropout_at_fit(random_graphs):
    clf = GraphClassifier(GIN, module__dropout=1.5, max_epochs=1)
    with pytest.raises(InvalidParameterError, match=r"'dropout' parameter of GIN.*Got 1\.5"):
        clf.fit(random_graphs())


@pytest.mark.parametrize("device", ["gpu", "cuda:x", "", -1, True, 1.0])
def test_graph_classifier_refuses_a_device_torch_does_not_read(random_graphs, device):
    if isinstance(device, str) or device == -1:  # the reference: torch.device refuses it
        with pytest.raises(RuntimeError):
            torch.device(device)
    clf = GraphClassifier(DeepMultisets, module__hidden_units=4, max_epochs=1, device=device)
    message = (
        "The 'device' parameter of GraphClassifier must be a device string or an "
        "accelerator's index that torch.device takes (e.g. 'cpu', 'cuda', 'cuda:0', 0), a "
        f"torch.device or None. Got {device!r} instead"
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        clf.fit(random_graphs())


@pytest.mark.parametrize("device", ["cpu", torch.device("cpu"), None])
def test_graph_classifier_takes_a_device_torch_reads(random_graphs, device):
    clf = GraphClassifier(
        DeepMultisets,
        module__hidden_units=4,
        max_epochs=1,
        validation_fraction=None,
        device=device,
    )
    graphs = random_graphs()
    assert clf.fit(graphs).predict(graphs).shape == (len(graphs),)


def test_an_accelerator_index_is_taken_where_torch_takes_it(random_graphs):
    # (review43 REV-5) device=0 is "cuda:0" to torch where CUDA is: refused only where torch
    # refuses it (no accelerator), with torch's reason
    from sklearn_fair.graph._classifier import _torch_device

    try:
        expected = torch.device(0)
    except RuntimeError:
        with pytest.raises(InvalidParameterError, match=r"Got 0 instead \(torch: "):
            _torch_device(0)
    else:
        assert _torch_device(0) == expected
