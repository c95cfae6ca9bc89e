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


def test_fits_in_threads_take_turns_and_train_what_one_thread_trains(mutag):
    """torch's random state is the process's: two fits in threads drew from each other's
    stream (the weights' initialisation, the dropout masks, the batches' order), so that
    each model depended on timing; they take turns and train the models fitted one by one."""
    clf = GraphClassifier(
        GIN, module__hidden_units=[16, 16], module__dropout=0.5, max_epochs=3, batch_size=16
    )
    models = [clone(clf).set_params(random_state=seed) for seed in (0, 1, 2, 3)]
    X, X_test = mutag[:150], mutag[150:]
    alone = [clone(model).fit(X).predict_proba(X_test) for model in models]
    with joblib.parallel_config(backend="threading"):
        fitted = joblib.Parallel(n_jobs=4)(
            joblib.delayed(GraphClassifier.fit)(clone(model), X) for model in models
        )
    for model, proba in zip(fitted, alone):
        np.testing.assert_array_equal(model.predict_proba(X_test), proba)
