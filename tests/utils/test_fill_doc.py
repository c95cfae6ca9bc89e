"""fill_doc puts shared parameter texts where a docstring says ``{name}``; a name it has no
text for is an error when the decorator runs, not a placeholder left in the documentation."""

import pytest

from sklearn_fair.utils import fill_doc


def test_a_placeholder_without_a_text_is_an_error_naming_it_and_the_function():
    with pytest.raises(ValueError, match=r"draw names \{sede\}.*\['seed'\]"):

        @fill_doc({"seed": "seed : int"})
        def draw(seed=0):
            """Parameters\n    {sede}"""


def test_a_text_naming_a_placeholder_without_a_text_is_an_error_too():
    with pytest.raises(ValueError, match=r"Box\.fit names \{missing\}"):

        class Box:
            @fill_doc({"seed": "seed : int\n    See {missing}."})
            def fit(self, seed=0):
                """{seed}"""


def test_other_braces_are_left_as_written():
    @fill_doc({"seed": "seed : int"})
    def draw(seed=0):
        """{seed}

        >>> {'a': 1}, {0, 1}, {}
        ({'a': 1}, {0, 1}, {})
        """

    assert draw.__doc__.startswith("seed : int\n")
    assert ">>> {'a': 1}, {0, 1}, {}\n        ({'a': 1}, {0, 1}, {})" in draw.__doc__
