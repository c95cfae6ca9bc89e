"""R^2 of several outputs weighted by an array (hunt MULTI-4): a column of weight 0 that is
constant on the rows scored leaves the score defined, as in scikit-learn."""

import warnings

import numpy as np
from sklearn.linear_model import Ridge
from sklearn.metrics import make_scorer, r2_score
from sklearn.model_selection import GridSearchCV, KFold, cross_validate

from sklearn_fair import nested_cross_validate


def test_a_constant_column_of_weight_zero_leaves_r2_defined():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 3))
    Y = np.column_stack([X[:, 0] + rng.normal(scale=0.1, size=60), np.zeros(60)])
    Y[:5, 1] = 1.0  # column 1 constant in outer test folds 1 and 2, and in inner folds
    scorer = make_scorer(r2_score, multioutput=[1.0, 0.0])
    outer, inner = KFold(3), KFold(3, shuffle=True, random_state=0)
    grid = {"alpha": [0.1, 10]}
    search = GridSearchCV(Ridge(), grid, cv=inner, scoring=scorer)
    expected = cross_validate(search, X, Y, cv=outer, scoring=scorer)["test_score"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fold said undefined
        got = nested_cross_validate(
            Ridge(), X, Y, param_grid=grid, cv=outer, inner_cv=inner, scoring=scorer, n_refits=1
        )
    np.testing.assert_allclose(got["test_score"], expected)


def test_a_constant_column_of_nonzero_weight_is_still_undefined():
    from sklearn_fair.model_selection._nested._scoring import undefined_on_constant_y

    Y = np.column_stack([np.arange(6.0), np.ones(6)])
    # scikit-learn's force_finite gives the constant column 1.0 or 0.0, not a real R^2
    weighted = make_scorer(r2_score, multioutput=[1.0, 0.5])
    assert undefined_on_constant_y(weighted, Ridge(), Y) is not None
    ignored = make_scorer(r2_score, multioutput=[1.0, 0.0])
    assert undefined_on_constant_y(ignored, Ridge(), Y) is None
