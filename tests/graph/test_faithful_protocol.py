"""Issue 15.1: with the paper's split files and the documented GNN set-up, every fit trains and
early-stops on exactly the rows the reference code uses.

A recording module sees each graph by its index (a node feature). Counting the graphs in the
module's training passes and in its validation passes during ``fit`` shows that each inner fit
trains on exactly the stored inner-train indices of its outer fold and early-stops on exactly
its stored validation indices, and that each refit (the reference's final runs) early-stops on
the stored split of its own outer fold.
"""

from collections import Counter, defaultdict
from itertools import count

import numpy as np
import torch
from torch_geometric.data import Data

from sklearn_fair import NestedCV
from sklearn_fair.graph import GraphClassifier, GraphCollection, load_tu_dataset
from sklearn_fair.model_selection import PredefinedSplits, load_splits

MAX_EPOCHS = 2
PASSES = defaultdict(lambda: {"train": Counter(), "valid": Counter()})
FITTING = {"now": False}
MODULE_NUMBERS = count()


class RecordingModule(torch.nn.Module):
    """Logits from a linear layer; records the index of every graph it is shown."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.linear = torch.nn.Linear(1, out_channels)
        self.number = next(MODULE_NUMBERS)  # id() of a freed module may be reused

    def forward(self, data):
        ids = data.x[data.ptr[:-1], 0].long().tolist()  # the first node of each graph
        if FITTING["now"]:
            PASSES[self.number]["train" if self.training else "valid"].update(ids)
        counts = torch.bincount(data.batch, minlength=data.num_graphs).float()[:, None]
        return self.linear(counts / 100)


class RecordingClassifier(GraphClassifier):
    """Marks the forward passes made inside ``fit`` (the others are predictions)."""

    def fit(self, X, y=None, *, X_val=None, y_val=None, **kwargs):
        FITTING["now"] = True
        try:
            return super().fit(X, y, X_val=X_val, y_val=y_val, **kwargs)
        finally:
            FITTING["now"] = False


def test_inner_fits_and_refits_use_the_stored_splits(data_dir):
    graphs = load_tu_dataset("ENZYMES", data_dir / "TUDataset")
    indexed = GraphCollection.from_data_list(
        [
            Data(x=torch.full((g.num_nodes, 1), float(i)), edge_index=g.edge_index, y=g.y)
            for i, g in enumerate(graphs)
        ]
    )
    splits = load_splits(
        data_dir / "gnn_comparison_splits" / "CHEMICAL" / "ENZYMES_splits.json",
        format="gnn-comparison",
    )
    PASSES.clear()
    estimator = RecordingClassifier(
        RecordingModule, max_epochs=MAX_EPOCHS, patience=MAX_EPOCHS, batch_size=64
    )
    nested = NestedCV(
        estimator, outer_cv=PredefinedSplits(splits), n_refits=3, refit=False, random_state=0
    ).fit(indexed)

    stored = [splits.get_inner_splits(fold)[0] for fold in range(10)]
    fits = [(set(p["train"]), set(p["valid"]), p["train"]) for p in PASSES.values()]
    assert len(fits) == 10 * (1 + 3)  # per outer fold: one inner fit, three refits
    for fold, (inner_train, inner_valid) in enumerate(stored):
        on_this_split = [
            counts
            for train, valid, counts in fits
            if train == set(inner_train) and valid == set(inner_valid)
        ]
        # the inner fit and the fold's three refits: stored inner-train rows only, each graph
        # in every epoch, early-stopping on the stored validation rows
        assert len(on_this_split) == 4
        for counts in on_this_split:
            assert counts == Counter({int(i): MAX_EPOCHS for i in inner_train})
        result = nested.outer_results_[fold]
        np.testing.assert_array_equal(
            np.sort(result["early_stopping_indices"]), np.sort(inner_valid)
        )
        # the fold's test rows are never seen during its fits
        test = set(result["test_indices"].tolist())
        assert not (set(inner_train) | set(inner_valid)) & test
