"""What benchmark() is given is checked as NestedCV checks it (hunt DOC16, DOC16-2 to -4).

- A name holding a control character (BEL, NUL, ESC, DEL, U+0085) was taken and printed raw:
  a terminal showed "knn" and "knn\\x07" as two rows "knn". It is refused, as the message
  of NAMES-1 promised.
- ``keep_predictions="no"`` kept the predictions, ``n_jobs=2.0`` failed after all the
  planning with "'float' object cannot be interpreted as an integer", and ``verbose="x"``
  and ``cache_dir=5`` with other bare TypeErrors: each is refused by NestedCV's constraint,
  naming benchmark and the parameter.
- A data set's groups given as one column (``pd.DataFrame({"patient": g})``) beside a
  previous run on the same 1-D ``g`` was refused as "not the one the previous benchmark ran".
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_fair import NestedCV, benchmark

X, y = load_iris(return_X_y=True)
GROUPS = np.random.RandomState(0).randint(0, 12, len(y))
CONTROLS = ["knn\x07", "knn\x00", "\x1b[2Kknn", "kn\x7fn", "knn\x85x", "k\nnn", "k\tnn"]


@pytest.mark.parametrize("what", ["models", "datasets"])
@pytest.mark.parametrize("name", CONTROLS, ids=[ascii(n) for n in CONTROLS])
def test_a_name_holding_a_control_character_is_refused(what, name):
    models = {"knn": DummyClassifier(), name: DummyClassifier()}
    datasets = {"iris": (X, y)}
    if what == "datasets":
        models, datasets = {"prior": DummyClassifier()}, {"iris": (X, y), name: (X, y)}
    with pytest.raises(ValueError) as info:
        benchmark(models, datasets, outer_cv=2, n_refits=1, random_state=0)
    control = next(c for c in name if not c.isprintable() and c != " ")
    escaped = name.replace(control, f"\\u{ord(control):04x}")
    assert str(info.value).startswith(
        f"The '{what}' parameter of benchmark must have names that a table shows apart: none "
        "starting or ending with white space or holding an invisible or control character, "
        f"and no two shown alike. Got '{escaped}', which holds U+{ord(control):04X}, a "
        "control character; rename it."
    ), str(info.value)


@pytest.mark.parametrize(
    "param, value",
    [
        ("keep_predictions", "no"),
        ("keep_predictions", 1),
        ("n_jobs", 2.0),
        ("n_jobs", "2"),
        ("verbose", "x"),
        ("cache_dir", 5),
    ],
)
def test_a_bad_setting_is_refused_as_nestedcv_refuses_it(param, value):
    with pytest.raises(InvalidParameterError) as theirs:
        NestedCV(DummyClassifier(), **{param: value})._validate_params()
    with pytest.raises(InvalidParameterError) as ours:
        benchmark({"prior": DummyClassifier()}, {"iris": (X, y)}, outer_cv=2, **{param: value})
    assert str(ours.value) == str(theirs.value).replace(" of NestedCV ", " of benchmark ")
    assert str(ours.value).startswith(f"The '{param}' parameter of benchmark must be ")


def test_keep_predictions_false_keeps_none_and_true_keeps_every_row():
    run = dict(outer_cv=3, n_refits=1, random_state=0)
    kept = benchmark({"prior": DummyClassifier()}, {"iris": (X, y)}, keep_predictions=True, **run)
    assert len(kept.predictions) == len(y)
    none = benchmark({"prior": DummyClassifier()}, {"iris": (X, y)}, **run)
    assert none.predictions is None or len(none.predictions) == 0


@pytest.mark.parametrize(
    "groups",
    [GROUPS.reshape(-1, 1), pd.DataFrame({"patient": GROUPS})],
    ids=["(n, 1) array", "one-column DataFrame"],
)
def test_one_column_groups_extend_a_run_on_1d_groups(groups):
    run = dict(outer_cv=GroupKFold(3), inner_cv=GroupKFold(3), n_refits=1, random_state=0)
    lr = (LogisticRegression(max_iter=500), {"C": [0.1, 1.0]})
    first = benchmark({"lr": lr}, {"iris": (X, y, GROUPS)}, **run)
    extended = benchmark(
        {"lr": lr, "prior": DummyClassifier()}, {"iris": (X, y, groups)}, previous=first, **run
    )
    alone = benchmark({"prior": DummyClassifier()}, {"iris": (X, y, GROUPS)}, **run)
    assert sorted(extended.models) == ["lr", "prior"]
    scores = extended.scores.set_index(["model", "outer_fold"])["score"]
    np.testing.assert_array_equal(scores["lr"], first.scores["score"])
    np.testing.assert_array_equal(scores["prior"], alone.scores["score"])


def test_a_benchmark_saved_with_one_column_groups_before_still_extends():
    # review40 REV-2: a benchmark run before DOC16-4 recorded the fingerprint of one-column
    # groups as given; extending it on the same data was refused as "not the one the
    # previous benchmark ran"
    from sklearn_fair.benchmarking._extend import data_fingerprint

    column = pd.DataFrame({"patient": GROUPS})
    run = dict(outer_cv=GroupKFold(3), inner_cv=GroupKFold(3), n_refits=1, random_state=0)
    lr = (LogisticRegression(max_iter=500), {"C": [0.1, 1.0]})
    first = benchmark({"lr": lr}, {"iris": (X, y, column)}, **run)
    for cell in first.cells.values():  # as the version before recorded it
        cell.fingerprints["data"] = data_fingerprint(X, y, column)
    extended = benchmark(
        {"lr": lr, "prior": DummyClassifier()}, {"iris": (X, y, column)}, previous=first, **run
    )
    assert sorted(extended.models) == ["lr", "prior"]
    with pytest.raises(ValueError, match="is not the one the previous benchmark ran"):
        benchmark({"prior": DummyClassifier()}, {"iris": (X, y[::-1], column)}, previous=first,
                  **run)  # fmt: skip
