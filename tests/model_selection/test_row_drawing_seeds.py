"""A seed that draws the rows a model learns from always matters: TunedThresholdClassifierCV
with a float ``cv`` tunes its threshold on a share of rows its ``random_state`` draws, so every
outer fold gets every refit, as with a sampler's seed, even where the first two refits of a
fold happen to predict the same labels (two thresholds on either side of no test score)."""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold, TunedThresholdClassifierCV

from sklearn_fair import nested_cross_validate


def test_every_fold_gets_every_refit_of_a_threshold_tuned_on_drawn_rows():
    X, y = make_classification(n_samples=300, weights=[0.8], random_state=0, flip_y=0.1)
    model = TunedThresholdClassifierCV(LogisticRegression(), scoring="f1", cv=0.5)
    result = nested_cross_validate(
        model, X, y, cv=StratifiedKFold(5, shuffle=True, random_state=1),
        inner_cv=StratifiedKFold(3, shuffle=True, random_state=2),
        param_grid={"estimator__C": [0.01, 1.0]}, scoring="f1", n_refits=3, random_state=0,
        return_estimator=True, return_indices=True,
    )  # fmt: skip
    # before: fold 1 kept its first two refits (thresholds 0.249 and 0.2504, the same test
    # labels) and reported 0.6957, where the mean of its three seeds' F1 is 0.686
    assert [len(models) for models in result["estimator"]] == [3] * 5
    for fold, models in enumerate(result["estimator"]):
        test = result["indices"]["test"][fold]
        scores = [f1_score(y[test], model.predict(X[test])) for model in models]
        assert result["test_score"][fold] == np.mean(scores)
    thresholds = {round(float(m.best_threshold_), 6) for m in result["estimator"][1]}
    assert len(thresholds) == 3  # the seeds draw other rows: three thresholds
