"""What a result records of fit metadata given under aliases, and which weights are one
weighting (hunt DOC14).

With metadata routing and aliases (``fit(X, y, fit_weight=w, score_weight=v)``), the card and
the saved ``fit_metadata`` recorded only ``sample_weight`` with the fit weights: the scorer's
weights were lost, and two runs that differed only by them were recorded alike. Weights of
0.7 and 0.3 as float64 and as float32 were two weightings, and compare() refused the two
results."""

import json

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV
from sklearn_fair.report import reproducibility_card, result_to_dict
from sklearn_fair.stats import compare
from sklearn_fair.utils import fingerprint
from sklearn_fair.utils._hashing import fingerprint_of_numbers

X, Y = make_classification(90, 6, n_informative=3, random_state=0, flip_y=0.2, weights=[0.7])
FIT_WEIGHTS = np.where(Y == 1, 3.0, 1.0)
SCORE_WEIGHTS = np.where(Y == 1, 1.0, 5.0)
# typed by hand, and not held exactly by float32
HAND_WEIGHTS = np.where(Y == 1, 0.7, 0.3)
# fingerprint_of_numbers(FIT_WEIGHTS) before it rounded to float32: the card of round 37
BALANCING_FINGERPRINT = "sha256:eb63aceeb5ccaf650b0715e9f5983922187b02aed51de4b9d7552018e052e1d8"


def _run(fit_alias, score_alias, **params):
    """A NestedCV whose estimator's fit and scorer request ``sample_weight`` as the aliases
    given."""
    scorer = make_scorer(accuracy_score).set_score_request(sample_weight=score_alias)
    nested = NestedCV(
        LogisticRegression().set_fit_request(sample_weight=fit_alias), {"C": [0.01, 1.0]},
        scoring=scorer, outer_cv=KFold(3, shuffle=True, random_state=0), inner_cv=3,
        n_refits=1, refit=False, random_state=0,
    )  # fmt: skip
    return nested.fit(X, Y, **params)


def _fit_metadata_line(result):
    card = str(reproducibility_card(result))
    (line,) = [line for line in card.splitlines() if line.startswith("Fit metadata:")]
    return line


def _saved_fit_metadata(result):
    return json.loads(json.dumps(result_to_dict(result)))["fit_metadata"]


def test_aliased_weights_are_recorded_by_the_names_given_to_fit(routing):
    # the card said "sample_weight <the fit weights>" alone, for either score_weight
    weighted = _run(
        "fit_weight", "score_weight", fit_weight=FIT_WEIGHTS, score_weight=SCORE_WEIGHTS
    )
    assert _saved_fit_metadata(weighted) == {
        "fit_weight": fingerprint(FIT_WEIGHTS),
        "score_weight": fingerprint(SCORE_WEIGHTS),
    }
    assert _fit_metadata_line(weighted) == (
        f"Fit metadata: fit_weight {fingerprint(FIT_WEIGHTS)}, "
        f"score_weight {fingerprint(SCORE_WEIGHTS)} (all models)."
    )
    # the metric's note holds the start of the score weights' record
    note = weighted.metrics_["score"].note
    assert _saved_fit_metadata(weighted)["score_weight"].startswith(note.split()[-1])

    ones = np.ones(len(Y))
    other = _run("fit_weight", "score_weight", fit_weight=FIT_WEIGHTS, score_weight=ones)
    assert not np.allclose(other.outer_scores_, weighted.outer_scores_)
    assert _saved_fit_metadata(other)["score_weight"] == fingerprint(ones)
    assert _fit_metadata_line(other) != _fit_metadata_line(weighted)


def test_one_name_that_reaches_the_fit_and_the_scorer_is_one_record(routing):
    both = _run("weight", "weight", weight=FIT_WEIGHTS)
    assert _saved_fit_metadata(both) == {"weight": fingerprint(FIT_WEIGHTS)}
    assert _fit_metadata_line(both) == (
        f"Fit metadata: weight {fingerprint(FIT_WEIGHTS)} (all models)."
    )


def test_weights_equal_at_float32_precision_are_one_weighting(routing):
    # 0.7 and 0.3 as float64 and as float32 were two fingerprints (c5dc17594f44,
    # 727c2db4d69b): compare() refused the two results, "given different sample_weight"
    float64 = _run(True, True, sample_weight=HAND_WEIGHTS)
    float32 = _run(True, True, sample_weight=HAND_WEIGHTS.astype(np.float32))
    metric, expected = float32.metrics_["score"], float64.metrics_["score"]
    assert (metric.name, metric.note) == (expected.name, expected.note)
    assert _fit_metadata_line(float32) == _fit_metadata_line(float64)
    table = compare({"float64": float64, "float32": float32}).table
    assert abs(table["mean_difference"][0]) < 1e-6


def test_numbers_are_fingerprinted_at_float32_precision():
    assert fingerprint_of_numbers(HAND_WEIGHTS) == fingerprint_of_numbers(
        HAND_WEIGHTS.astype(np.float32)
    )
    # beyond float32's rounding, other numbers
    assert fingerprint_of_numbers(HAND_WEIGHTS) != fingerprint_of_numbers(HAND_WEIGHTS + 1e-6)


def test_weights_that_float32_holds_exactly_keep_their_fingerprint():
    # a regression pin: rounding to float32 leaves the records of round 37 as they were
    for weights in (FIT_WEIGHTS, FIT_WEIGHTS.astype(np.float32), FIT_WEIGHTS.astype(int)):
        assert fingerprint_of_numbers(weights) == BALANCING_FINGERPRINT


def test_integers_past_float32_precision_stay_apart():
    # integers (group labels) are kept exact: 2**24 and 2**24 + 1 are one float32
    assert fingerprint_of_numbers([2**24, 2**24 + 1]) != fingerprint_of_numbers([2**24, 2**24])


def test_numbers_past_float32_range_stay_apart():
    # both rounded to float32's infinity: two weightings read as one (review38)
    assert fingerprint_of_numbers(np.array([1e39, 1.0])) != fingerprint_of_numbers(
        np.array([1e40, 1.0])
    )
    assert fingerprint_of_numbers(np.array([np.inf, 1.0])) == fingerprint_of_numbers(
        np.array([np.inf, 1.0], dtype=np.float32)
    )
