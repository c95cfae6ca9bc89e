"""What a user hands GraphClassifier, alone and in NestedCV: metadata routing of the protocol's
validation rows, sample weights, and labels with missing values."""

import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn
import torch
from sklearn.model_selection import GroupKFold, KFold
from torch_geometric.nn import global_add_pool

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SklearnFairWarning, UnweightedValidationWarning
from sklearn_fair.graph import GraphClassifier, MolecularFingerprint

N_GRAPHS = 48


def tiny_clf(**params):
    defaults = dict(max_epochs=3, patience=2, lr=0.01, module__hidden_units=8, random_state=0)
    return GraphClassifier(MolecularFingerprint, **{**defaults, **params})


def nested(clf, **params):
    defaults = dict(inner_cv=KFold(2), outer_cv=GroupKFold(3), n_refits=1, random_state=0)
    return NestedCV(clf, {"lr": [0.01]}, **{**defaults, **params})


@pytest.fixture(scope="module")
def graphs(mutag):
    return mutag[:N_GRAPHS]


GROUPS = np.arange(N_GRAPHS) // 4


def _fit_recording(estimator, graphs, **params):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        estimator.fit(graphs, groups=GROUPS, **params)
    return estimator, [w for w in record if issubclass(w.category, SklearnFairWarning)]


# -- metadata routing of X_val and y_val -------------------------------------------------------


def test_unrequested_validation_data_under_routing_warns(graphs):
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.warns(SklearnFairWarning, match="cannot hand the protocol's validation") as w:
            nested(tiny_clf()).fit(graphs, groups=GROUPS)
    message = str(next(x.message for x in w if "protocol's validation" in str(x.message)))
    assert "set_fit_request(X_val=True, y_val=True) on the GraphClassifier" in message
    assert "last step" not in message  # not a pipeline


def test_requested_validation_data_under_routing_gives_the_scores_without_routing(graphs):
    without, warned = _fit_recording(nested(tiny_clf()), graphs)
    assert not warned
    with sklearn.config_context(enable_metadata_routing=True):
        clf = tiny_clf().set_fit_request(X_val=True, y_val=True)
        routed, warned = _fit_recording(nested(clf), graphs)
    assert not warned
    np.testing.assert_array_equal(routed.outer_scores_, without.outer_scores_)


def test_protocol_early_stopping_under_routing_names_set_fit_request(graphs):
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match=r"set_fit_request\(X_val=True, y_val=True\)") as e:
            nested(tiny_clf(), early_stopping_split="protocol").fit(graphs, groups=GROUPS)
    assert "does not take them" not in str(e.value)  # it does: it does not request them


# -- sample_weight -------------------------------------------------------------------------------


def test_sample_weight_is_refused_with_what_to_do_instead(graphs):
    weights = np.where(graphs.y == 0, 2.0, 1.0)
    with pytest.raises(ValueError, match="sample_weight") as e:
        tiny_clf().fit(graphs, sample_weight=weights)
    message = str(e.value)
    assert "does not weight graphs" in message
    assert "criterion__weight=torch.tensor" in message
    assert "RandomGraphUnderSampler" in message


def test_sample_weight_none_weighs_nothing(graphs):
    expected = tiny_clf().fit(graphs[:40]).predict_proba(graphs[40:])
    given = tiny_clf().fit(graphs[:40], sample_weight=None).predict_proba(graphs[40:])
    np.testing.assert_array_equal(given, expected)


class WeightedSum(torch.nn.Module):
    """Sum-pooled linear logits; a forward that takes (and records) sample_weight."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.linear = torch.nn.Linear(in_channels, out_channels)
        self.weights_seen = []

    def forward(self, data, sample_weight=None):
        self.weights_seen.append(sample_weight)
        return global_add_pool(self.linear(data.x), data.batch, size=data.num_graphs)


def test_a_forward_that_takes_sample_weight_still_gets_it(graphs):
    clf = GraphClassifier(WeightedSum, max_epochs=1, batch_size=-1, validation_fraction=None)
    weights = torch.arange(N_GRAPHS, dtype=torch.float32)
    clf.fit(graphs, sample_weight=weights)
    assert clf.module_.weights_seen[0] is weights


class SwallowingSum(torch.nn.Module):
    """Sum-pooled linear logits; a forward whose ``**kwargs`` would swallow sample_weight."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.linear = torch.nn.Linear(in_channels, out_channels)

    def forward(self, data, **kwargs):
        return global_add_pool(self.linear(data.x), data.batch, size=data.num_graphs)


def test_a_forward_of_kwargs_alone_is_refused_the_weights_it_would_ignore(graphs):
    clf = GraphClassifier(SwallowingSum, max_epochs=1, batch_size=-1, validation_fraction=None)
    weights = np.where(graphs.y == 0, 100.0, 0.001)
    with pytest.raises(ValueError, match="does not name sample_weight"):
        clf.fit(graphs, sample_weight=weights)


def test_nested_cv_does_not_warn_of_weighted_training_that_cannot_happen(graphs):
    weights = np.where(graphs.y == 0, 2.0, 1.0)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="does not weight graphs"):
            nested(tiny_clf(), error_score="raise").fit(
                graphs, groups=GROUPS, sample_weight=weights
            )
    assert not [w for w in record if issubclass(w.category, UnweightedValidationWarning)]


# -- missing labels ------------------------------------------------------------------------------

LABELS = ["mut", "non"] * 19 + [None, "mut"]  # the label of graph 38 is missing


@pytest.mark.parametrize(
    "y",
    [
        pd.Series(LABELS),
        pd.Series([np.nan if v is None else v for v in LABELS]),
        pd.Series(LABELS, dtype="string"),  # pd.NA
        pd.Series(LABELS, dtype="category"),
        np.array(LABELS, dtype=object),
    ],
    ids=["None", "nan", "pd.NA", "category", "object array"],
)
def test_missing_labels_in_object_y_are_refused(y, mutag):
    with pytest.raises(ValueError, match=r"y contains missing labels .*at indices \[38\]"):
        tiny_clf(validation_fraction=None).fit(mutag[:40], y)


def test_missing_labels_in_y_val_and_in_scoring_are_refused(mutag):
    y = np.array(LABELS, dtype=object)
    full = np.array(["mut", "non"] * 20, dtype=object)
    with pytest.raises(ValueError, match=r"y_val contains missing labels .*at indices \[38\]"):
        tiny_clf().fit(mutag[40:80], full, X_val=mutag[:40], y_val=y)
    clf = tiny_clf(validation_fraction=None, max_epochs=1).fit(mutag[:40], full)
    with pytest.raises(ValueError, match=r"y contains missing labels .*at indices \[38\]"):
        clf.score(mutag[:40], y)
