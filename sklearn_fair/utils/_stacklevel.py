"""Warnings that point at the user's line: the ``stacklevel`` computed, not guessed."""

import os
import sys

import sklearn

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_INTERNAL = (
    _PACKAGE + os.sep,
    # scikit-learn's validate_params and _fit_context wrappers sit between the user and us
    os.path.dirname(os.path.abspath(sklearn.__file__)) + os.sep,
)


def external_stacklevel():
    """The ``stacklevel`` that makes a warning raised by the caller of this function point at
    the first frame outside sklearn-fair (and outside scikit-learn's wrappers): the user's line.

    Examples
    --------
    >>> import warnings
    >>> from sklearn_fair.utils._stacklevel import external_stacklevel
    >>> def library_function():
    ...     warnings.warn("careful", UserWarning, stacklevel=external_stacklevel())
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     library_function()
    >>> caught[0].filename == library_function.__code__.co_filename
    True
    """
    frame = sys._getframe(1)
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_INTERNAL):
        frame = frame.f_back
        level += 1
    return level
