"""PAPER_GRIDS and SMALL_GRIDS are valid GraphClassifier grids."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import ParameterGrid

from sklearn_fair.graph import GIN, PAPER_GRIDS, SMALL_GRIDS, GraphClassifier

MODELS = ["GIN", "GraphSAGE", "DGCNN", "DiffPool", "ECC", "MolecularFingerprint", "DeepMultisets"]


def test_every_model_has_a_paper_grid_and_a_small_grid():
    assert set(MODELS) <= set(PAPER_GRIDS)
    assert set(SMALL_GRIDS) == set(MODELS)
    assert {"DeepMultisets-ENZYMES", "DeepMultisets-IMDB"} <= set(PAPER_GRIDS)


# The reference: config_GIN.yml and config_GraphSAGE.yml of diningphil/gnn-comparison at
# commit 15b6ba7e, value by value (keys as there). Not taken from _grids.py.
REFERENCE_CONFIGS = {
    "GIN": {
        "batch_size": [32, 128],
        "learning_rate": [0.01],
        "classifier_epochs": [1000],
        "hidden_units": [[64, 64, 64, 64], [32, 32, 32, 32], [64], [32, 32]],
        "optimizer": ["Adam"],
        "scheduler": [{"class": "StepLR", "args": {"step_size": 50, "gamma": 0.5}}],
        "train_eps": [True, False],
        "l2": [0.0],
        "aggregation": ["mean", "sum"],
        "dropout": [0.5, 0.0],
        "early_stopper": [
            {"patience": 500, "use_loss": False},
            {"patience": 500, "use_loss": True},
        ],
    },
    "GraphSAGE": {
        "batch_size": [32],
        "learning_rate": [0.0001, 0.01, 0.001],
        "l2": [0.0],
        "classifier_epochs": [1000],
        "optimizer": ["Adam"],
        "scheduler": [None],
        "early_stopper": [
            {"patience": 500, "use_loss": False},
            {"patience": 500, "use_loss": True},
        ],
        "dim_embedding": [32, 64],
        "num_layers": [3, 5],
        "aggregation": ["add", "max", "mean"],
    },
}
# The reference's names for GraphClassifier's parameters
RENAMED = {
    "batch_size": "batch_size",
    "learning_rate": "lr",
    "classifier_epochs": "max_epochs",
    "l2": "optimizer__weight_decay",
}


def _reference_scheduler(callbacks):
    if callbacks is None:
        return None
    (name, scheduler), *rest = callbacks
    assert name == "lr_scheduler" and not rest
    return {"class": scheduler.policy, "args": scheduler.kwargs}


@pytest.mark.parametrize("name", sorted(REFERENCE_CONFIGS))
def test_paper_grids_are_the_reference_config_files(name):
    reference, grid = REFERENCE_CONFIGS[name], PAPER_GRIDS[name]
    for key, values in reference.items():
        if key == "optimizer":
            assert [optimizer.__name__ for optimizer in grid["optimizer"]] == values
        elif key == "scheduler":
            assert [_reference_scheduler(c) for c in grid.get("callbacks", [None])] == values
        elif key == "early_stopper":
            # use_loss=False is early stopping on the validation accuracy
            assert grid["patience"] == sorted({stopper["patience"] for stopper in values})
            expected = ["valid_loss" if s["use_loss"] else "valid_acc" for s in values]
            assert grid["monitor"] == expected
        else:
            assert grid[RENAMED.get(key, f"module__{key}")] == values, key
    translated = {RENAMED.get(k, f"module__{k}") for k in reference} - {
        "module__optimizer",
        "module__scheduler",
        "module__early_stopper",
    }
    extra = set(grid) - translated - {"module", "optimizer", "callbacks", "patience", "monitor"}
    assert not extra  # nothing searched that the reference does not search


@pytest.mark.parametrize("name", sorted(PAPER_GRIDS))
def test_paper_grids_set_on_a_graph_classifier(name):
    grid = PAPER_GRIDS[name]
    for candidate in list(ParameterGrid(grid))[:3]:
        clf = clone(GraphClassifier(GIN)).set_params(**candidate)
        assert clf.get_params()["module"] is candidate["module"]


def test_paper_grid_sizes():
    # Numbers of configurations implied by the config files of diningphil/gnn-comparison.
    sizes = {name: len(ParameterGrid(grid)) for name, grid in PAPER_GRIDS.items()}
    assert sizes["GIN"] == 2 * 4 * 2 * 2 * 2 * 2
    assert sizes["GraphSAGE"] == 3 * 2 * 2 * 3 * 2
    assert sizes["DGCNN"] == 2 * 2 * 2 * 3 * 2
    assert sizes["ECC"] == 2 * 2 * 2 * 2


@pytest.mark.parametrize("name", sorted(SMALL_GRIDS))
def test_small_grids_have_two_candidates(name):
    assert len(ParameterGrid(SMALL_GRIDS[name])) == 2


def _scheduler(name):
    return dict(PAPER_GRIDS[name]["callbacks"][0])["lr_scheduler"]


def test_ecc_schedule_is_the_reference_ecclr():
    # ECCLR.get_lr of the reference, chained once per epoch from the base rate: the rate is
    # multiplied by 0.1 when the epoch counter reaches 25, 35 or 45.
    expected, lr = [], 0.1
    for epoch in range(60):
        expected.append(lr)
        if epoch + 1 in (25, 35, 45):
            lr *= 0.1
    simulated = _scheduler("ECC").simulate(steps=60, initial_lr=0.1)
    np.testing.assert_allclose(simulated, expected)


def test_gin_schedule_halves_the_rate_every_50_epochs():
    simulated = _scheduler("GIN").simulate(steps=160, initial_lr=0.01)
    expected = [0.01 * 0.5 ** (epoch // 50) for epoch in range(160)]
    np.testing.assert_allclose(simulated, expected)


def test_diffpool_clips_the_gradient_norm_at_2():
    clipping = dict(PAPER_GRIDS["DiffPool"]["callbacks"][0])["gradient_clipping"]
    assert clipping.gradient_clip_value == 2.0
    assert clipping.gradient_clip_norm_type == 2
