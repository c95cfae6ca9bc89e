"""package_versions refuses an ``extra`` that is one str: ``extra="torch"`` looked up "t",
"o", "r", "c" and "h" and said each was "not installed"."""

import re
from importlib.metadata import version

import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair.utils import package_versions

CORE = ["python", "sklearn-fair", "sklearn-fair source", "scikit-learn", "numpy", "scipy", "joblib"]


@pytest.mark.parametrize("extra, example", [("scipy", "['scipy']"),
                                            ("torch", "['torch']")])  # fmt: skip
def test_a_str_is_refused(extra, example):
    message = (
        "The 'extra' parameter of package_versions must be a sequence of distribution names "
        f"(str), such as extra={example}. Got {extra!r} instead."
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        package_versions(extra)
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        package_versions(extra=extra)


@pytest.mark.parametrize("extra", [None, 5, [1], ["scipy", None], [("scipy",)]])
def test_not_a_sequence_of_str_is_refused(extra):
    message = (
        "The 'extra' parameter of package_versions must be a sequence of distribution names "
        f"(str), such as extra=['torch']. Got {extra!r} instead."
    )
    with pytest.raises(InvalidParameterError, match=re.escape(message)):
        package_versions(extra)


@pytest.mark.parametrize("extra", [["scipy"], ("scipy",), iter(["scipy"])])
def test_a_sequence_of_names_is_read(extra):
    # the reference: importlib.metadata, read directly
    versions = package_versions(extra)
    assert list(versions) == CORE
    assert versions["scipy"] == version("scipy")


def test_each_name_is_read_once():
    versions = package_versions(["pytest", "no-such-distribution", "pytest"])
    assert list(versions) == [*CORE, "pytest", "no-such-distribution"]
    assert versions["pytest"] == version("pytest")
    assert versions["no-such-distribution"] == "not installed"
