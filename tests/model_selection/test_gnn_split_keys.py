"""A gnn-comparison split file's keys: the format has "test" and "model_selection" in an
outer fold, "train" and "validation" in an inner split. Another key was ignored: an outer
fold's "train" loaded, and the fold was trained on the rest of the graphs instead. It is
refused, as in the sklearn-fair format. (The paper's 14 files, which hold only these keys,
load in test_saved_splits.py.)"""

import json

import pytest

from sklearn_fair.exceptions import InvalidSplitError
from sklearn_fair.model_selection import load_splits


def gnn_file():
    # 6 graphs, 2 outer folds, one inner split each that partitions the fold's training set
    return [
        {"test": [0, 1, 2], "model_selection": [{"train": [3, 4], "validation": [5]}]},
        {"test": [3, 4, 5], "model_selection": [{"train": [0, 1], "validation": [2]}]},
    ]


def load(tmp_path, document):
    path = tmp_path / "splits.json"
    path.write_text(json.dumps(document))
    return load_splits(path, format="gnn-comparison")


def test_the_formats_keys_load(tmp_path):
    saved = load(tmp_path, gnn_file())
    # each outer training set is the rest of the 6 graphs
    assert [train.tolist() for train, _ in saved.folds] == [[3, 4, 5], [0, 1, 2]]
    assert [t.tolist() for t in saved.get_inner_splits(1)[0]] == [[0, 1], [2]]


@pytest.mark.parametrize(
    "mutate, words",
    [
        (
            lambda d: d[0].__setitem__("train", [3]),
            ["outer fold 0 of", "'train'", "a gnn-comparison split file", "test, model_selection"],
        ),
        (
            lambda d: d[1].__setitem__("validation", [0]),
            ["outer fold 1 of", "'validation'", "its keys are test, model_selection"],
        ),
        (
            lambda d: d[1]["model_selection"][0].__setitem__("test", [2]),
            ["model_selection[0] of outer fold 1 of", "'test'", "its keys are train, validation"],
        ),
        (
            lambda d: d[0]["model_selection"][0].__setitem__("validaton", [3]),
            ["model_selection[0] of outer fold 0 of", "'validaton'", "train, validation"],
        ),
    ],
    ids=["outer train", "outer validation", "inner test", "misspelt inner key"],
)
def test_a_key_the_format_does_not_have_is_refused(tmp_path, mutate, words):
    document = gnn_file()
    mutate(document)
    with pytest.raises(InvalidSplitError) as error:
        load(tmp_path, document)
    for word in words:
        assert word in str(error.value), (word, str(error.value))
