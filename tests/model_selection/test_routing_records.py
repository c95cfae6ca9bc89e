"""What fit metadata a result records, and where groups given as a fit parameter go (hunt
ROUTE).

ROUTE-1: scores weighted by different weights are different metrics, which compare()
refuses. ROUTE-3: without routing, ``params={"groups": g}`` splits the inner folds of the
``param_grid`` form, as ``cross_validate(GridSearchCV(...), params={"groups": g})``.
ROUTE-4: with routing on, groups that nothing requests are refused, as NestedCV.fit says."""

import json
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression, PoissonRegressor
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import GridSearchCV, GroupKFold, KFold, cross_validate

from sklearn_fair import NestedCV, nested_cross_validate
from sklearn_fair.exceptions import GroupLeakageWarning
from sklearn_fair.metrics import MetricName, metric_display_name
from sklearn_fair.metrics._names import metric_source, same_metric
from sklearn_fair.stats import compare

X, Y = make_classification(120, 8, n_informative=3, random_state=0, flip_y=0.2, weights=[0.7])
GROUPS = np.arange(120) % 6
GRID = {"C": [0.01, 1.0]}


def _weighted_run(weights):
    scorer = make_scorer(accuracy_score).set_score_request(sample_weight=True)
    return NestedCV(
        LogisticRegression().set_fit_request(sample_weight=True), GRID, scoring=scorer,
        outer_cv=KFold(4, shuffle=True, random_state=0), inner_cv=3, n_refits=1,
        refit=False, random_state=0,
    ).fit(X, Y, sample_weight=weights)  # fmt: skip


def test_results_weighted_by_different_weights_are_not_compared(routing):
    # both were "accuracy weighted by sample_weight", and compare() tested their difference
    ones, balancing = np.ones(len(Y)), np.where(Y == 1, 3.0, 1.0)
    a, b, again = _weighted_run(ones), _weighted_run(balancing), _weighted_run(ones.copy())
    assert a.metrics_["score"].name == b.metrics_["score"].name
    with pytest.raises(ValueError, match="different metrics") as error:
        compare({"A": a, "B": b})
    first, second = (m.metrics_["score"].note.split()[-1] for m in (a, b))
    assert first != second and first in str(error.value) and second in str(error.value)
    compare({"A": a, "again": again})  # the same weights: one metric


def test_the_weights_of_a_metric_survive_a_round_trip_and_leave_its_source():
    from sklearn_fair.metrics._names import weighted_metric

    owned = metric_display_name(None, estimator=PoissonRegressor())  # its note names it
    for metric in (metric_display_name("neg_log_loss"), owned):
        one, two = weighted_metric(metric, np.ones(5)), weighted_metric(metric, np.arange(5))
        assert metric_source(one) == metric_source(metric) is not None
        assert not same_metric([one, two]) and same_metric([one, MetricName(**one.to_dict())])
        saved = MetricName(**json.loads(json.dumps(one.to_dict())))
        assert same_metric([one, saved]) and not same_metric([saved, two])
        # recorded before the weights were: by name alone
        earlier = MetricName(one.name, one.scoring, one.sign, metric.note)
        assert same_metric([earlier, two])


@pytest.mark.parametrize("inner", [GroupKFold(3), 3], ids=["GroupKFold", "int"])
def test_groups_in_params_split_the_inner_folds_of_the_param_grid_form(inner):
    # without routing they went to LogisticRegression.fit ("unexpected keyword argument
    # 'groups'"), or left GroupKFold without groups ("should not be None")
    outer = KFold(3, shuffle=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the edge of the grid
        expected = cross_validate(
            GridSearchCV(LogisticRegression(), GRID, cv=inner), X, Y, cv=outer,
            params={"groups": GROUPS},
        )["test_score"]  # fmt: skip
        got = nested_cross_validate(
            LogisticRegression(), X, Y, param_grid=GRID, inner_cv=inner, cv=outer,
            params={"groups": GROUPS}, n_refits=1,
        )["test_score"]  # fmt: skip
    np.testing.assert_allclose(got, expected)


def test_groups_that_nothing_requests_are_refused_with_routing_as_documented(routing):
    assert "TypeError" in NestedCV.fit.__doc__
    nested = NestedCV(LogisticRegression(), GRID, outer_cv=KFold(3), inner_cv=KFold(3))
    with pytest.raises(TypeError, match="groups"):
        nested.fit(X, Y, groups=GROUPS)
    with sklearn.config_context(enable_metadata_routing=False):
        with pytest.warns(GroupLeakageWarning, match="ignores them"):
            nested.set_params(n_refits=1, refit=False).fit(X, Y, groups=GROUPS)
