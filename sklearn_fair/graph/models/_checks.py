"""The models' argument checks: scikit-learn's constraints, naming the model's class (the
models are torch modules, so ``validate_params`` would name ``GIN.__init__``)."""

from sklearn.utils._param_validation import validate_parameter_constraints


def check_params(model, constraints, **params):
    """Check ``params`` against ``constraints`` (scikit-learn's), naming ``type(model)``."""
    validate_parameter_constraints(constraints, params, caller_name=type(model).__name__)
