"""Metrics and scorers: kappa, sensitivity, specificity, PPV/NPV with prevalence, CCC.

The metric functions follow scikit-learn's signature, ``metric(y_true, y_pred, *, ...,
sample_weight=None)``. :func:`get_scorer` resolves our scorer names and all of scikit-learn's.
:func:`metric_display_name` is how every printed number names its metric.
"""

from ._classification import kappa, npv, ppv, sensitivity, specificity
from ._names import MetricName, metric_display_name
from ._ranges import score_range
from ._regression import concordance_correlation_coefficient
from ._scorer import (
    get_scorer,
    get_scorer_names,
    make_ccc_scorer,
    make_kappa_scorer,
    make_npv_scorer,
    make_ppv_scorer,
    make_sensitivity_scorer,
    make_specificity_scorer,
)

__all__ = [
    "MetricName",
    "concordance_correlation_coefficient",
    "get_scorer",
    "get_scorer_names",
    "kappa",
    "make_ccc_scorer",
    "make_kappa_scorer",
    "make_npv_scorer",
    "make_ppv_scorer",
    "make_sensitivity_scorer",
    "make_specificity_scorer",
    "metric_display_name",
    "npv",
    "ppv",
    "score_range",
    "sensitivity",
    "specificity",
]
