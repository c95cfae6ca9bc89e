"""GraphClassifier through scikit-learn's common estimator checks.

scikit-learn's checks feed 2-D arrays; an estimator whose tags say it does not take them
(``two_d_array=False``, true of GraphClassifier) is skipped without running a single check.
So the checks run on a test-only subclass that reads each row as a one-node graph with the
row as its node features, and otherwise is GraphClassifier: parameters, cloning, fitting,
seeding, labels, dtypes, NaN and sparse refusal, pickling, prediction, the hidden
``partial_fit``. The checks that fail are listed with the reason below.
"""

import numpy as np
from sklearn.utils import check_array
from sklearn.utils.estimator_checks import parametrize_with_checks
from skorch.dataset import ValidSplit

from sklearn_fair.graph import DeepMultisets, GraphClassifier, GraphCollection

EXPECTED_FAILED_CHECKS = {
    "check_no_attributes_set_in_init": (
        "skorch's NeuralNet.__init__ sets history_, initialized_, virtual_params_ and one "
        "attribute per module__* argument; GraphClassifier inherits skorch's constructor."
    ),
    "check_set_params": (
        "skorch lists its private set '_params_to_validate' among get_params(); the check sets "
        "every listed parameter to -inf, inf and None, and skorch's own set_params then fails "
        "on that set."
    ),
    "check_n_features_in": (
        "graphs have no feature columns for n_features_in_; the node-feature width is "
        "num_node_features_."
    ),
    "check_n_features_in_after_fitting": "as check_n_features_in.",
}


def rows_as_graphs(X):
    """Each row of a 2-D array as a one-node graph without edges, the row its node features."""
    if isinstance(X, GraphCollection):
        return X
    X = check_array(X, dtype="numeric", ensure_all_finite=False)
    n_rows = len(X)
    return GraphCollection(
        X,
        np.zeros((2, 0), dtype=np.int64),
        np.arange(n_rows + 1),
        np.zeros(n_rows + 1, dtype=np.int64),
    )


class RowsAsGraphsClassifier(GraphClassifier):
    """GraphClassifier on rows read as one-node graphs (test adapter for the common checks)."""

    def fit(self, X, y=None, **fit_params):
        return super().fit(rows_as_graphs(X), y, **fit_params)

    def predict_proba(self, X):
        return super().predict_proba(rows_as_graphs(X))

    def score(self, X, y=None, sample_weight=None):
        return super().score(rows_as_graphs(X), y, sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = True
        return tags


FAST = dict(module__hidden_units=16, lr=0.1, max_epochs=30, batch_size=-1, random_state=0)


@parametrize_with_checks(
    [
        # the whole training set, no validation
        RowsAsGraphsClassifier(DeepMultisets, validation_fraction=None, **FAST),
        # skorch's ValidSplit as the validation split, with early stopping
        RowsAsGraphsClassifier(
            DeepMultisets, train_split=ValidSplit(0.2, random_state=0), patience=5, **FAST
        ),
    ],
    expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_partial_fit_is_hidden_rather_than_broken():
    # skorch's partial_fit would skip the label and feature set-up of fit.
    assert not hasattr(GraphClassifier(DeepMultisets), "partial_fit")
