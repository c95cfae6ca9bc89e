"""fingerprint feeds a column of texts (object or category) as the bytes of each distinct text
joined (hunt LARGE, LARGE-3): 10,000 x 200 category columns took seconds per call, once per
benchmark cell and cached run; the digests are those earlier versions wrote, so results
saved before still extend with ``previous=``."""

import numpy as np
import pandas as pd
import pytest

from sklearn_fair.utils import _hashing, fingerprint


class Label(str):
    pass


def _values():
    labels = ["a", "b", "a", "c", "é", ""] * 5
    return {
        "category": pd.DataFrame({
            "x": pd.Categorical(labels),
            "y": pd.Categorical(labels[::-1], categories=["c", "b", "a", "é", "", "z"]),
        }),
        "category with missing": pd.Series(pd.Categorical(["u", None, "v", "u"]), name="s"),
        "text": np.array(labels, dtype=object),
        "numpy texts": np.array([np.str_("a"), "a", np.str_("b")], dtype=object),
        "text subclass": np.array(["a", Label("a"), "a"], dtype=object),
        "mixed": np.array(["1", 1, 1.0, True, None, np.nan, -0.0, 0.0, b"1", "1"], dtype=object),
        "frame of text": pd.DataFrame({"t": labels, "n": range(30)}),
    }  # fmt: skip


# written by the version before this change (a9491731) for the values above
EARLIER = {
    "category": "sha256:e46a2f85c0acb0a49951ec6b539a59a3450386f0fb40a3b6dbc6854ae45a0a74",
    "category with missing": (
        "sha256:e5eba4a5528da36c5919c5a350eedfd4d13c15054372d67ef1c1560faaa7ae7b"
    ),
    "text": "sha256:0a062863e167e83d42aef93ebda117593450086f83beb9ff11fb75d655e0eedb",
    "numpy texts": "sha256:c6a9225d82420a935754b46506215ea1f5b923bc0737de58eeaf8dabd788b1e4",
    "text subclass": "sha256:7ab54ae1fa59991eb9cb8d42934a3bb372181f53ef89007e05aa7d539b5e46df",
    "mixed": "sha256:62bdc56915c5a2e114f9d95f3375fabc99d756896370fa330bebd95ba9c7c806",
    "frame of text": "sha256:27b1a4b11063c0cb1c82d3e00d06c94b3a2c312f28b9ebe565f92a986e37aa28",
}


@pytest.mark.parametrize("name", list(EARLIER))
def test_digests_are_those_of_earlier_versions(name):
    assert fingerprint(_values()[name]) == EARLIER[name]


def test_a_text_s_type_still_counts():
    values = _values()
    assert fingerprint(values["text subclass"]) != fingerprint(np.array(["a"] * 3, dtype=object))
    assert fingerprint(values["numpy texts"]) != fingerprint(
        np.array(["a", "a", "b"], dtype=object)
    )


def test_each_distinct_text_is_made_once(monkeypatch):
    calls = []
    original = _hashing.update_hasher

    def counting(hasher, value):
        calls.append(value)
        return original(hasher, value)

    monkeypatch.setattr(_hashing, "update_hasher", counting)
    column = pd.Series(pd.Categorical(np.resize(["low", "mid", "high"], 30_000)))
    fingerprint(pd.DataFrame({"level": column}))
    texts = [value for value in calls if isinstance(value, str)]
    assert len(texts) <= 3 * 2 + 1, len(texts)  # values, categories, the column's name
