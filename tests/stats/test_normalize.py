"""normalize_scores: rliable's min-max normalisation of one task's scores."""

import numpy as np
import pytest
from sklearn.preprocessing import minmax_scale

from sklearn_fair.stats import normalize_scores


def test_anchors_at_the_extremes_give_scikit_learns_minmax_scale():
    scores = np.random.RandomState(0).uniform(0.6, 0.9, size=12)
    np.testing.assert_allclose(
        normalize_scores(scores, scores.min(), scores.max()), minmax_scale(scores), rtol=1e-12
    )


@pytest.mark.parametrize(
    "low, high, name",
    [(np.nan, 1.0, "low"), (0.0, np.inf, "high"), (-np.inf, 1.0, "low"), (0.0, np.nan, "high")],
)
def test_an_anchor_that_is_not_finite_is_named(low, high, name):
    # a NaN 'low' was reported as a bad 'high'
    with pytest.raises(ValueError, match=f"^The '{name}' parameter of normalize_scores must be"):
        normalize_scores([0.5], low, high)


@pytest.mark.parametrize("low, high", [(1.0, 1.0), (1.0, 0.5)])
def test_high_must_be_above_low(low, high):
    with pytest.raises(ValueError, match="'high' parameter .* greater than 'low'"):
        normalize_scores([0.5], low, high)
