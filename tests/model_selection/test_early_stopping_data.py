"""Validation data the user gives to ``fit`` are never silently replaced by the protocol's
own validation rows (``early_stopping_split``)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification

from sklearn_fair import NestedCV

X, y = make_classification(n_samples=80, n_features=4, random_state=0)
X_user, y_user = X[:7], y[:7]  # 7 rows: no inner split of the protocol has that many


class StopsEarly(ClassifierMixin, BaseEstimator):
    """Majority vote that early-stops on X_val/y_val (it records how many rows it got)."""

    def __init__(self, c=1):
        self.c = c

    def fit(self, X, y, X_val=None, y_val=None):
        self.n_validation_rows_ = None if X_val is None else len(X_val)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def nested(**kwargs):
    return NestedCV(
        StopsEarly(), {"c": [1, 2]}, outer_cv=2, inner_cv=2, n_refits=1, random_state=0,
        **kwargs,
    )  # fmt: skip


@pytest.mark.parametrize("mode", ["auto", "protocol"])
@pytest.mark.parametrize("given", [{"X_val": X_user, "y_val": y_user}, {"X_val": X_user}])
def test_the_users_validation_data_are_not_replaced_by_the_protocols(mode, given):
    with pytest.raises(ValueError, match="early_stopping_split='estimator'") as error:
        nested(early_stopping_split=mode).fit(X, y, **given)
    assert "would replace the X_val" in str(error.value)


def test_with_early_stopping_split_estimator_every_fit_gets_the_users_rows():
    model = nested(early_stopping_split="estimator").fit(X, y, X_val=X_user, y_val=y_user)
    assert model.best_estimator_.n_validation_rows_ == len(X_user)


def test_without_validation_data_of_the_users_the_protocol_hands_its_own():
    model = nested(early_stopping_split="auto").fit(X, y)
    rows = model.best_estimator_.n_validation_rows_
    assert rows is not None and 0 < rows < len(X)


class StopsEarlyWithPatience(StopsEarly):
    """Early-stops on X_val/y_val unless ``patience`` is None (its ``_stops_early`` says so)."""

    def __init__(self, c=1, patience=None):
        self.c = c
        self.patience = patience

    def fit(self, X, y, X_val=None, y_val=None):
        self.n_training_rows_ = len(X)
        return super().fit(X, y, X_val=X_val, y_val=y_val)

    def _stops_early(self):
        return self.patience is not None


@pytest.mark.parametrize("patience", [None, 3])
def test_a_candidate_whose_early_stopping_is_off_trains_on_the_rows_a_holdout_would_take(
    patience,
):
    # patience=None stops nothing: a hold-out of the training rows was taken all the same (a
    # GraphClassifier refit trained on 90% of its outer training fold, for nothing)
    from sklearn_fair import nested_cross_validate

    estimator, grid = StopsEarlyWithPatience(patience=3), {"patience": [patience]}
    result = nested_cross_validate(
        estimator, X, y, param_grid=grid, cv=2, inner_cv=2, n_refits=1, random_state=0,
        return_estimator=True, return_indices=True,
    )  # fmt: skip
    for refit, train in zip(result["estimator"], result["indices"]["train"]):
        if patience is None:
            assert refit.n_validation_rows_ is None and refit.n_training_rows_ == len(train)
        else:
            assert refit.n_validation_rows_ > 0
            assert refit.n_training_rows_ + refit.n_validation_rows_ == len(train)
    model = NestedCV(estimator, grid, outer_cv=2, inner_cv=2, n_refits=1, random_state=0).fit(X, y)
    held_out = [len(r.get("early_stopping_indices", [])) for r in model.outer_results_]
    final = model.best_estimator_
    if patience is None:
        assert held_out == [0, 0] and final.n_training_rows_ == len(X)
    else:
        assert min(held_out) > 0 and final.n_training_rows_ < len(X)


def test_a_pipeline_that_would_pass_x_val_untransformed_is_refused():
    # with metadata routing, a Pipeline hands X_val to the step that asks for it as given
    # unless transform_input lists it: the model early-stopped on features in another space
    import sklearn
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import FunctionTransformer

    X_, y_ = np.random.RandomState(0).normal(size=(60, 3)), np.array([0, 1] * 30)
    with sklearn.config_context(enable_metadata_routing=True):
        model = HistGradientBoostingClassifier(early_stopping=True, max_iter=5)
        model.set_fit_request(X_val=True, y_val=True)
        shifted = [("shift", FunctionTransformer(lambda Z: Z + 100.0)), ("hgb", model)]
        options = dict(outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0)
        grid = {"hgb__learning_rate": [0.1]}
        with pytest.raises(ValueError, match=r"steps \['shift'\] transform X.*transform_input"):
            NestedCV(Pipeline(shifted), grid, **options).fit(X_, y_)
        listed = Pipeline(shifted, transform_input=["X_val"])
        assert np.isfinite(NestedCV(listed, grid, **options).fit(X_, y_).outer_scores_).all()
        # what each candidate makes decides, and a Pipeline as the last step too
        from sklearn.preprocessing import StandardScaler

        plain = Pipeline([("s", "passthrough"), ("hgb", model)])
        with pytest.raises(ValueError, match=r"steps \['s'\] transform X"):
            NestedCV(plain, {"s": [StandardScaler()]}, **options).fit(X_, y_)
        scaled = Pipeline([("s", StandardScaler()), ("hgb", model)])
        fitted = NestedCV(scaled, {"s": ["passthrough"]}, **options).fit(X_, y_)
        assert np.isfinite(fitted.outer_scores_).all()
        inner = Pipeline([("id", "passthrough"), ("p", Pipeline(shifted))])
        with pytest.raises(ValueError, match=r"steps \['p__shift'\] transform X"):
            NestedCV(inner, {"p__hgb__learning_rate": [0.1]}, **options).fit(X_, y_)
