"""A Pipeline whose steps are a tuple (scikit-learn takes one) is refused, as one with a list of
steps is, where it would hand the protocol's validation rows to an early-stopping model
untransformed."""

import numpy as np
import pytest
import sklearn
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer

from sklearn_fair import NestedCV

X, y = np.random.RandomState(0).normal(size=(60, 3)), np.array([0, 1] * 30)
OPTIONS = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0)


def _shift(Z):
    return Z + 100.0


def _steps(kind):
    model = HistGradientBoostingClassifier(early_stopping=True, max_iter=5, random_state=0)
    model.set_fit_request(X_val=True, y_val=True)
    return kind([kind(["shift", FunctionTransformer(_shift)]), kind(["hgb", model])])


@pytest.mark.parametrize("kind", [tuple, list])
def test_tuple_or_list_steps_passing_x_val_untransformed_are_refused(kind):
    with sklearn.config_context(enable_metadata_routing=True):
        grid = {"hgb__learning_rate": [0.1]}
        with pytest.raises(ValueError, match=r"steps \['shift'\] transform X.*transform_input"):
            NestedCV(Pipeline(_steps(kind)), grid, **OPTIONS).fit(X, y)
        # a tuple-stepped Pipeline as the last step of a list-stepped one
        outer = Pipeline([("id", "passthrough"), ("p", Pipeline(_steps(kind)))])
        with pytest.raises(ValueError, match=r"steps \['p__shift'\] transform X"):
            NestedCV(outer, {"p__hgb__learning_rate": [0.1]}, **OPTIONS).fit(X, y)


def test_tuple_steps_with_transform_input_score_as_list_steps_do():
    with sklearn.config_context(enable_metadata_routing=True):
        grid = {"hgb__learning_rate": [0.1]}
        scores = [
            NestedCV(Pipeline(_steps(kind), transform_input=["X_val"]), grid, **OPTIONS)
            .fit(X, y)
            .outer_scores_
            for kind in (tuple, list)
        ]
    assert np.isfinite(scores[0]).all()
    np.testing.assert_array_equal(scores[0], scores[1])
