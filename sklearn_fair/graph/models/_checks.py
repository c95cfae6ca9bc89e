"""The models' argument checks: scikit-learn's constraints, naming the model's class (the
models are torch modules, so ``validate_params`` would name ``GIN.__init__``)."""

import numbers

from sklearn.utils._param_validation import validate_parameter_constraints

from ...utils import IntervalNotBool

#: A width or a number of layers: an int of at least 1 (a width of 0 trains a constant model).
COUNT = IntervalNotBool(numbers.Integral, 1, None, closed="left")


def check_params(model, constraints, **params):
    """Check ``params`` against ``constraints`` (scikit-learn's), naming ``type(model)``."""
    validate_parameter_constraints(constraints, params, caller_name=type(model).__name__)
