"""GraphClassifier in joblib worker processes: the same model as in the main process."""

import joblib
import numpy as np
import torch
from sklearn.base import clone

from sklearn_fair.graph import GIN, GraphClassifier


def test_a_worker_process_trains_the_same_model_on_memory_mapped_graphs(mutag):
    """torch_threads fixes the threads (2 here, 1 in loky workers by default), and the
    collection reaches the workers as read-only memory maps (max_nbytes=1)."""
    clf = GraphClassifier(
        GIN,
        module__hidden_units=[16, 16],
        module__dropout=0.5,
        max_epochs=2,
        batch_size=16,
        random_state=0,
    )
    X, X_test = mutag[:150], mutag[150:]
    X_val = mutag[100:150]
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        local = clf.fit(X).predict_proba(X_test)
        local_with_val = clone(clf).fit(X, X_val=X_val)
    finally:
        torch.set_num_threads(before)
    fitted = joblib.Parallel(n_jobs=2, max_nbytes=1)(
        joblib.delayed(GraphClassifier.fit)(clf, X, X_val=val) for val in (None, X_val)
    )
    np.testing.assert_array_equal(fitted[0].predict_proba(X_test), local)
    # X_val as a memory map: the same validation curve, selected epoch and model
    assert fitted[1].history[:, "valid_loss"] == local_with_val.history[:, "valid_loss"]
    assert fitted[1].best_epoch_ == local_with_val.best_epoch_
    np.testing.assert_array_equal(
        fitted[1].predict_proba(X_test), local_with_val.predict_proba(X_test)
    )
