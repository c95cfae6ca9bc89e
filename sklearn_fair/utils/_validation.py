"""scikit-learn's parameter validation, with the few constraints the package adds to it, and
the texts of parameters that several signatures share.

scikit-learn's constraints take a bool wherever they take an int or a float (``True`` is an
``Integral``): the constraints here refuse them, because ``n_resamples=True`` is a mistake, not 1.
"""

import numbers
import re
from textwrap import dedent, indent

import numpy as np
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    Options,
    validate_parameter_constraints,
)


class _RefusesBool:
    def is_satisfied_by(self, val):
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)


class IntervalNotBool(_RefusesBool, Interval):
    """scikit-learn's ``Interval`` that refuses bools.

    Examples
    --------
    >>> import numbers
    >>> from sklearn_fair.utils import IntervalNotBool
    >>> count = IntervalNotBool(numbers.Integral, 1, None, closed="left")
    >>> count.is_satisfied_by(3), count.is_satisfied_by(True)
    (True, False)
    """


class OptionsNotBool(_RefusesBool, Options):
    """scikit-learn's ``Options`` that refuses bools (``zero_division=True`` is not 1.0).

    Examples
    --------
    >>> import numbers
    >>> from sklearn_fair.utils import OptionsNotBool
    >>> zero_or_one = OptionsNotBool(numbers.Real, {0.0, 1.0})
    >>> zero_or_one.is_satisfied_by(1), zero_or_one.is_satisfied_by(True)
    (True, False)
    >>> print(OptionsNotBool(numbers.Integral, {-1}))
    an int among {-1}
    """

    def __str__(self):
        # scikit-learn writes "a int among {-1}"
        text = super().__str__()
        return "an" + text[1:] if text.startswith("a int ") else text


class NonZeroInt(IntervalNotBool):
    """An int other than 0 (a bool refused): a number of workers as joblib counts them.

    Examples
    --------
    >>> from sklearn_fair.utils import NonZeroInt
    >>> workers = NonZeroInt()
    >>> workers.is_satisfied_by(-1), workers.is_satisfied_by(0), workers.is_satisfied_by(True)
    (True, False, False)
    """

    def __init__(self):
        super().__init__(numbers.Integral, None, None, closed="neither")

    def is_satisfied_by(self, val):
        return super().is_satisfied_by(val) and val != 0

    def __str__(self):
        return "a non-zero int (negative: as joblib counts them, -1 every core)"


class EstimatorInstance(HasMethods):
    """An object with the given methods that is an instance, not a class.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair.utils import EstimatorInstance
    >>> instance = EstimatorInstance(["fit", "get_params"])
    >>> instance.is_satisfied_by(LogisticRegression()), instance.is_satisfied_by(LogisticRegression)
    (True, False)
    """

    def is_satisfied_by(self, val):
        return not isinstance(val, type) and super().is_satisfied_by(val)

    def __str__(self):
        return f"an estimator instance ({super().__str__()})"


def labels_1d(y):
    """``y`` as a 1-D array where it is one column (shape ``(n, 1)``: a one-column DataFrame,
    ``y.to_frame()``), as scikit-learn's classifiers read it (``column_or_1d``); any other
    ``y`` (None, 1-D, several columns) as it is. For the checks that read the labels, not for
    what the estimators receive.

    Examples
    --------
    >>> import numpy as np
    >>> labels_1d(np.array([[0], [1], [2]])), labels_1d(np.zeros((2, 2))).shape
    (array([0, 1, 2]), (2, 2))
    """
    if y is None:
        return None
    values = np.asarray(y)
    return values[:, 0] if values.ndim == 2 and values.shape[1] == 1 else y


#: A ``random_state`` that must be a seed: None, or an int (not a bool) that numpy's RandomState
#: takes (where a generator's state cannot stand in, as for ``verify_cache``'s sample).
SEED_CONSTRAINTS = [None, IntervalNotBool(numbers.Integral, 0, 2**32 - 1, closed="both")]

#: The constraints of every public ``random_state``: a seed (:data:`SEED_CONSTRAINTS`), a
#: RandomState or a Generator.
RANDOM_STATE_CONSTRAINTS = [*SEED_CONSTRAINTS, np.random.RandomState, np.random.Generator]


#: The constraints of every public ``n_jobs``: None, or a non-zero int (not a bool), as joblib
#: takes it (``n_jobs=0`` failed in joblib, ``n_jobs=True`` ran one job).
N_JOBS_CONSTRAINTS = [NonZeroInt(), None]


def check_parameter_constraints(obj, caller_name=None):
    """Check the parameters of ``obj`` against its ``_parameter_constraints``.

    For classes without scikit-learn's ``BaseEstimator._validate_params`` (its splitters have
    no ``get_params``): each constrained parameter is read as an attribute.

    Parameters
    ----------
    obj : object
        An object with a ``_parameter_constraints`` dict, whose keys are attributes.
    caller_name : str, default=None
        The name in the error message.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A subclass of both ValueError and TypeError.

    Examples
    --------
    >>> import numbers
    >>> from sklearn_fair.utils import IntervalNotBool, check_parameter_constraints
    >>> class Splitter:
    ...     _parameter_constraints = {
    ...         "n_splits": [IntervalNotBool(numbers.Integral, 2, None, closed="left")]
    ...     }
    ...     def __init__(self, n_splits):
    ...         self.n_splits = n_splits
    >>> check_parameter_constraints(Splitter(1))
    Traceback (most recent call last):
    ...
    sklearn.utils._param_validation.InvalidParameterError: The 'n_splits' parameter of Splitter must be an int in the range [2, inf). Got 1 instead.
    """  # noqa: E501
    params = {name: getattr(obj, name) for name in obj._parameter_constraints}
    validate_parameter_constraints(
        obj._parameter_constraints, params, caller_name=caller_name or type(obj).__name__
    )


def fill_doc(texts):
    """A decorator that puts ``texts[name]`` where a docstring says ``{name}``.

    The texts of parameters that several signatures share are written once (as imbalanced-learn's
    ``Substitution`` does, without ``str.format``: a docstring's other braces need no escaping).
    A text is written as at the margin: its first line goes where the name is, its others at
    the indentation of the name's line, so that one text serves a function and a method. A text
    may name others. A ``{name}`` that is not among the texts is a ``ValueError`` when the
    decorator runs (at import), naming the placeholder and the function: a misspelt name would
    otherwise be left in the documentation as is. Other braces (``{'a': 1}``, ``{0, 1}``) stay.

    Examples
    --------
    >>> from sklearn_fair.utils import fill_doc
    >>> @fill_doc({"seed": "seed : int, default=0\\n    The seed."})
    ... def draw(seed=0):
    ...     "Parameters\\n    {seed}"
    >>> print(draw.__doc__)
    Parameters
        seed : int, default=0
            The seed.
    """

    def filled(text, owner):
        def put(match):
            if match[1] not in texts:
                raise ValueError(
                    f"The docstring of {owner} names {match[0]}, which fill_doc has no text for;"
                    f" it has texts for {sorted(texts)}."
                )
            line = text[text.rfind("\n", 0, match.start()) + 1 :]
            margin = line[: len(line) - len(line.lstrip(" "))]
            return indent(filled(dedent(texts[match[1]]), owner), margin)[len(margin) :]

        return re.sub(r"\{(\w+)\}", put, text)

    def fill(obj):
        if obj.__doc__:  # None under python -OO
            obj.__doc__ = filled(obj.__doc__, obj.__qualname__)
        return obj

    return fill
