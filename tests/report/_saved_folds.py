"""A saved nested result (result_to_dict's shape) of hand-set outer scores, for the tests that
build BenchmarkResult.from_results from numbers they choose."""


def saved_folds(scores, n=20):
    """A saved result of ``len(scores)`` folds of ``n`` test rows each (the others training),
    each fold's test and validation score its entry of ``scores``."""
    k = len(scores)
    return {
        "outer_results": [
            {
                "test_score": s, "test_scores": [s], "validation_score": s, "best_params": {},
                "train_indices": [i for i in range(k * n) if i // n != f],
                "test_indices": list(range(f * n, (f + 1) * n)), "fit_time": 1.0,
            }
            for f, s in enumerate(scores)
        ]
    }  # fmt: skip
