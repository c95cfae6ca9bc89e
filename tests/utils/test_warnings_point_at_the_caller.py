"""A warning points at the user's line, not at a wrapper of scikit-learn's or a function of
ours between them: Python's default filter shows a warning once per place, so a warning
placed in scikit-learn's validate_params wrapper was shown once for every call of every
function behind that wrapper, and named a file the user never wrote."""

import os
import warnings

import numpy as np
import pytest

from sklearn_fair.metrics import concordance_correlation_coefficient, ppv
from sklearn_fair.stats import bootstrap_ci, multiple_comparison, rank_comparison

EQUAL = np.full((6, 3), 0.7)  # three models scoring the same on six data sets

CALLS = {
    "rank_comparison": lambda: rank_comparison(EQUAL),
    "multiple_comparison, Friedman": lambda: multiple_comparison(EQUAL, test="nonparametric"),
    "multiple_comparison, ANOVA": lambda: multiple_comparison(EQUAL, test="parametric"),
    "bootstrap_ci, BCa": lambda: bootstrap_ci(np.full(10, 0.7), method="bca"),
    "concordance_correlation_coefficient": lambda: concordance_correlation_coefficient(
        [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]
    ),
    "ppv": lambda: ppv([0, 1, 1], [0, 0, 0]),  # nothing predicted positive
    "load_mutag, deprecated data_home": lambda: _load_mutag(data_home="."),
    "GraphClassifier.fit, column-shaped y": lambda: _fit_graphs_column_y(),
}


def _load_mutag(**kwargs):
    from sklearn_fair.graph import load_mutag

    return load_mutag(**kwargs)


def _fit_graphs_column_y():
    """scikit-learn's DataConversionWarning for a y of shape (n, 1), raised by our label check."""
    import torch
    from torch_geometric.data import Data

    from sklearn_fair.graph import DeepMultisets, GraphClassifier

    ring = torch.tensor([[0, 1, 2], [1, 2, 0]])
    graphs = [Data(x=torch.full((3, 1), float(i % 2)), edge_index=ring) for i in range(4)]
    clf = GraphClassifier(
        DeepMultisets,
        module__hidden_units=4,
        max_epochs=1,
        validation_fraction=None,
        random_state=0,
        verbose=0,
        torch_threads=1,
    )
    clf.fit(graphs, np.array([[0], [1], [0], [1]]))


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_our_warning_points_at_the_callers_line(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    # other libraries' own warnings (scipy's Shapiro-Wilk "range zero", torch's on import)
    # point into them: not ours; one that points into scikit-learn's wrapper is ours, misplaced
    ours = [
        w
        for w in caught
        if "site-packages" not in w.filename or f"{os.sep}sklearn{os.sep}" in w.filename
    ]
    assert ours, [str(w.message) for w in caught]
    assert {w.filename for w in ours} == {__file__}, [(w.filename, w.lineno) for w in ours]
