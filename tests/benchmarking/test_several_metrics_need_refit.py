"""benchmark with several metrics and no ``refit`` names the user's value, not its own."""

import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV, benchmark

X, y = make_classification(n_samples=60, n_features=4, random_state=0)
SCORING = {"acc": "accuracy", "ll": "neg_log_loss"}


@pytest.mark.parametrize(
    "model",
    [
        (LogisticRegression(), {"C": [0.1, 1.0]}),
        NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}),  # no refit of its own
    ],
)
def test_several_metrics_without_refit_are_refused_naming_none(model):
    with pytest.raises(ValueError) as error:
        benchmark({"lr": model}, {"d": (X, y)}, outer_cv=3, inner_cv=2, n_refits=1,
                  scoring=SCORING, random_state=0)  # fmt: skip
    message = str(error.value)
    assert "'refit' parameter of benchmark" in message
    assert "['acc', 'll']" in message
    assert message.endswith("Got None.")
