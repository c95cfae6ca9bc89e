"""The models' argument checks: scikit-learn's constraints, naming the model's class (the
models are torch modules, so ``validate_params`` would name ``GIN.__init__``)."""

import numbers

from sklearn.utils._param_validation import validate_parameter_constraints

from ...utils import IntervalNotBool

#: A width or a number of layers: an int of at least 1 (a width of 0 trains a constant model).
COUNT = IntervalNotBool(numbers.Integral, 1, None, closed="left")
#: A dropout probability, in [0, 1) (as torch's, but for 1, which zeros every value it is
#: applied to: a constant model; a value past 1 failed only in the forward pass).
DROPOUT = IntervalNotBool(numbers.Real, 0, 1, closed="left")


def check_params(model, constraints, **params):
    """Check ``params`` against ``constraints`` (scikit-learn's), naming ``type(model)``; return
    their values in the order given, each integer (or list of them) as a Python int: a small
    numpy integer would wrap in the model's arithmetic (``np.uint8(8) * 64`` is 0)."""
    validate_parameter_constraints(constraints, params, caller_name=type(model).__name__)
    values = [_as_int(value) for value in params.values()]
    return values[0] if len(values) == 1 else values


def _as_int(value):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, (list, tuple)) or getattr(value, "ndim", None) == 1:
        return [_as_int(item) for item in value]
    return value
