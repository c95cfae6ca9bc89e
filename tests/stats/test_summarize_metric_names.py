"""summarize(metric=...): a misspelled scorer name is taken as the user's own, with a warning."""

import warnings

import numpy as np
import pytest

from sklearn_fair.stats import summarize

SCORES = [1.0, 1.0, 0.8, 1.0, 0.6]


@pytest.mark.parametrize(
    "metric, scorer",
    [
        ("Accuracy", "accuracy"),  # case
        ("roc-auc", "roc_auc"),  # a hyphen
        ("acuracy", "accuracy"),  # a letter left out
        ("neg_root_mean_sqaured_error", "neg_root_mean_squared_error"),  # two swapped
    ],
)
def test_a_name_close_to_a_scorer_s_warns_and_names_both(metric, scorer):
    # these were summarised silently as a metric of unknown range and sign: "Accuracy" gave
    # the interval [0.658, 1.102], past accuracy's range, and the misspelled negated RMSE a
    # negative mean
    with pytest.warns(UserWarning, match="'metric' parameter of summarize") as caught:
        summary = summarize(SCORES, metric=metric)
    message = str(caught[0].message)
    assert repr(metric) in message and f"Did you mean the scorer {scorer!r}?" in message
    assert caught[0].filename == __file__  # it points at the caller's line
    assert summary.metric == metric  # still taken as written, as the docstring allows


@pytest.mark.parametrize(
    "metric", ["accuracy", "neg_root_mean_squared_error", "root_mean_squared_error", "my score"]
)
def test_scorer_names_and_names_of_one_s_own_do_not_warn(metric):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        summary = summarize(-np.asarray(SCORES) if "neg_" in metric else SCORES, metric=metric)
    assert summary.n == len(SCORES)
