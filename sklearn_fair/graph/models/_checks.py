"""Parameter checks of the model constructors: scikit-learn's constraints, named after the model.

The models are torch modules, not estimators (GraphClassifier builds them from its
``module__*`` parameters), so ``validate_params``, which would name ``GIN.__init__``, does not
fit: :func:`check_params` checks a constructor's arguments and names the model's class.
"""

from sklearn.utils._param_validation import validate_parameter_constraints


def check_params(model, constraints, **params):
    """Check ``params`` against ``constraints`` (scikit-learn's), naming ``type(model)``."""
    validate_parameter_constraints(constraints, params, caller_name=type(model).__name__)
