"""The card says "data splits saved: yes" only for a splits file that holds the results' own
outer test folds."""

import json
import os
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import load_splits, save_splits
from sklearn_fair.report import nested_cv_report, reproducibility_card


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    X, y = make_classification(60, 4, random_state=0)
    folder = tmp_path_factory.mktemp("splits")
    saved = folder / "saved.json"
    folds = list(StratifiedKFold(3, shuffle=True, random_state=1).split(X, y))
    save_splits(folds, saved, y=y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            LogisticRegression(), {"C": [0.1, 1]}, outer_cv=load_splits(saved), inner_cv=2,
            n_refits=1, random_state=0,
        ).fit(X, y)  # fmt: skip
    return X, y, folder, saved, folds, nested


def _saved_answer(card):
    return {item: answer for item, answer, _ in card.checklist}["data splits saved"]


def test_the_file_the_folds_came_from_is_saved(run):
    X, y, folder, saved, folds, nested = run
    assert _saved_answer(reproducibility_card(nested, X=X, y=y, splits_file=saved)) == "yes"
    # the same folds as a gnn-comparison file (a JSON list) of the paper
    gnn = folder / "MINI_splits.json"
    gnn.write_text(json.dumps([
        {"test": test.tolist(), "model_selection": [{"train": train[:30].tolist(),
                                                     "validation": train[30:].tolist()}]}
        for train, test in folds
    ]))  # fmt: skip
    assert _saved_answer(reproducibility_card(nested, X=X, y=y, splits_file=gnn)) == "yes"


def test_a_missing_file_is_refused(run):
    X, y, folder, *_, nested = run
    missing = folder / "no" / "splits.json"
    with pytest.raises(ValueError, match=r"'splits_file' parameter of reproducibility_card is "
                       rf"'{missing}', which cannot be read .*No such file"):  # fmt: skip
        reproducibility_card(nested, X=X, y=y, splits_file=missing)
    with pytest.raises(ValueError, match="'splits_file' parameter of report .* cannot be read"):
        nested_cv_report(nested, X=X, y=y, splits_file=missing, n_resamples=100)


def test_a_file_of_another_number_of_folds_is_refused(run):
    X, y, folder, *_, nested = run
    five = folder / "five.json"
    save_splits(list(StratifiedKFold(5, shuffle=True, random_state=1).split(X, y)), five, y=y)
    with pytest.raises(ValueError, match=r"which holds 5 outer folds, but the result .* has 3"):
        reproducibility_card(nested, X=X, y=y, splits_file=five)


def test_a_file_of_other_test_rows_is_refused(run):
    X, y, folder, _, folds, nested = run
    other_folds = list(StratifiedKFold(3, shuffle=True, random_state=2).split(X, y))
    other = folder / "other.json"
    save_splits(other_folds, other, y=y)
    # the first fold whose test rows differ, compared with scikit-learn's folds by hand
    first = next(
        k for k, ((_, a), (_, b)) in enumerate(zip(folds, other_folds))
        if set(a.tolist()) != set(b.tolist())
    )  # fmt: skip
    with pytest.raises(ValueError, match=rf"tests other rows in outer fold {first} than"):
        reproducibility_card(nested, X=X, y=y, splits_file=other)
    # the same test rows in other orders are the same folds
    shuffled = folder / "shuffled.json"
    rng = np.random.default_rng(0)
    save_splits([(rng.permutation(tr), rng.permutation(te)) for tr, te in folds], shuffled, y=y)
    assert _saved_answer(reproducibility_card(nested, X=X, y=y, splits_file=shuffled)) == "yes"


def test_nested_cv_report_names_itself_in_a_parameter_error(run):
    from sklearn.utils._param_validation import InvalidParameterError

    *_, nested = run
    expected = r"^The 'confidence' parameter of nested_cv_report must be a float in the range"
    with pytest.raises(InvalidParameterError, match=expected + r" \(0.0, 1.0\)\. Got 95"):
        nested_cv_report(nested, confidence=95)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_given_as_the_splits_file_is_refused_without_waiting(run, tmp_path):
    # the card looks at a file's first bytes before the bounded reader, which refuses a FIFO:
    # opening one waits for a writer
    X, y, *_, nested = run
    fifo = tmp_path / "splits.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="which cannot be read .*not a regular file"):
        reproducibility_card(nested, X=X, y=y, splits_file=fifo)
