"""A pipeline whose last step early-stops on X_val and y_val, but which does not pass them on
(no metadata routing, or the step does not request them): early_stopping_split="auto" warns
that the step early-stops on its own hold-out, and "protocol" says how to route them."""

import warnings

import numpy as np
import pytest
import sklearn
from imblearn.pipeline import make_pipeline as imblearn_pipeline
from sklearn.datasets import make_classification
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.pipeline import make_pipeline

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SklearnFairWarning

X, y = make_classification(n_samples=120, n_features=5, random_state=0)
OPTIONS = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0)
GRID = {"histgradientboostingclassifier__learning_rate": [0.1, 0.3]}


def _hgb():
    return HistGradientBoostingClassifier(early_stopping=True, max_iter=30, n_iter_no_change=2)


def _fit(estimator, grid=GRID, **kwargs):
    return NestedCV(estimator, grid, **OPTIONS, **kwargs).fit(X, y)


@pytest.mark.parametrize(
    "pipeline", [make_pipeline, imblearn_pipeline], ids=["sklearn", "imblearn"]
)
def test_auto_warns_that_a_pipeline_does_not_pass_the_validation_rows_on(pipeline):
    with pytest.warns(SklearnFairWarning, match=r"own hold-out.*enable_metadata_routing"):
        nested = _fit(pipeline(_hgb()))
    assert "early_stopping_indices" not in nested.outer_results_[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)  # accepted: no warning
        accepted = _fit(pipeline(_hgb()), early_stopping_split="estimator")
    np.testing.assert_array_equal(nested.outer_scores_, accepted.outer_scores_)


def test_a_step_that_does_not_early_stop_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", SklearnFairWarning)
        model = HistGradientBoostingClassifier(early_stopping=False, max_iter=5)
        _fit(make_pipeline(model), {"histgradientboostingclassifier__learning_rate": [0.1]})


def test_protocol_on_a_pipeline_says_how_to_route_the_validation_rows():
    with pytest.raises(ValueError, match=r"metadata routing.*set_fit_request\(X_val=True"):
        _fit(make_pipeline(_hgb()), early_stopping_split="protocol")


@pytest.mark.parametrize(
    "pipeline", [make_pipeline, imblearn_pipeline], ids=["sklearn", "imblearn"]
)
def test_routed_validation_rows_early_stop_as_the_bare_model_does(pipeline):
    bare = _fit(_hgb(), {"learning_rate": [0.1, 0.3]})
    assert "early_stopping_indices" in bare.outer_results_[0]
    with sklearn.config_context(enable_metadata_routing=True):
        unrequested = pipeline(_hgb())
        with pytest.warns(SklearnFairWarning, match="own hold-out"):
            _fit(unrequested)
        routed = pipeline(_hgb().set_fit_request(X_val=True, y_val=True))
        with warnings.catch_warnings():
            warnings.simplefilter("error", SklearnFairWarning)
            nested = _fit(routed)
    np.testing.assert_array_equal(nested.outer_scores_, bare.outer_scores_)


def test_a_graph_classifier_in_an_imblearn_pipeline_warns():
    pytest.importorskip("torch_geometric")
    pytest.importorskip("skorch")
    from sklearn_fair.graph import DeepMultisets, GraphClassifier, load_mutag
    from sklearn_fair.model_selection import StratifiedGraphKFold

    model = GraphClassifier(
        DeepMultisets, module__hidden_units=8, max_epochs=2, patience=1, batch_size=64
    )
    nested = NestedCV(
        imblearn_pipeline(model), {"graphclassifier__lr": [0.01]}, n_refits=1, refit=False,
        outer_cv=StratifiedGraphKFold(2, random_state=0), inner_cv=2, random_state=0,
    )  # fmt: skip
    with pytest.warns(SklearnFairWarning, match="GraphClassifier, the last step of its Pipeline"):
        nested.fit(load_mutag())


def test_under_routing_the_advice_is_the_steps_request_not_to_switch_routing_on():
    # review_29: with routing on already, the warning told the user to switch it on
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.warns(SklearnFairWarning, match="own hold-out") as caught:
            _fit(make_pipeline(_hgb()))
        with pytest.raises(ValueError, match="early_stopping_split='protocol'") as info:
            _fit(make_pipeline(_hgb()), early_stopping_split="protocol")
    for message in [str(w.message) for w in caught if "own hold-out" in str(w.message)] + [
        str(info.value)
    ]:
        assert "set_config(enable_metadata_routing=True)" not in message
        assert (
            "set_fit_request(X_val=True, y_val=True) on that step (metadata routing is on)"
            in message
        )
