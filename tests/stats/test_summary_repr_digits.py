"""``repr(Summary)`` (what a REPL or a notebook shows) prints every float in full, as the other
result dataclasses of :mod:`sklearn_fair.stats` do: a mean of 0.99996 never reads as 1."""

import re
from dataclasses import fields

import numpy as np

from sklearn_fair.stats import summarize


def shown(text, name):
    return re.search(rf"\b{name}=([^,)]+)", text).group(1)


def test_the_repr_of_a_near_perfect_mean_parses_back_to_it():
    scores = np.array([1.0, 0.99988, 1.0, 0.99992, 1.0])
    text = repr(summarize(scores, metric="accuracy", random_state=0))
    assert float(shown(text, "mean")) == np.mean(scores)
    assert float(shown(text, "std")) == np.std(scores)
    assert float(shown(text, "median")) == np.median(scores) == 1.0
    assert shown(text, "mean") != "1"


def test_the_repr_is_that_of_a_dataclass_as_for_the_other_results():
    # what @dataclass's own __repr__ (that of BootstrapCI, PairedTestResult...) would show
    summary = summarize([0.80, 0.82, 0.85, 0.79, 0.84], random_state=0)
    expected = ", ".join(f"{f.name}={getattr(summary, f.name)!r}" for f in fields(summary))
    assert repr(summary) == f"Summary({expected})"
