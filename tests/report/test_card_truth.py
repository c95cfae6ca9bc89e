"""The reproducibility card says only what is true of the run: a splits file is the run's
only where it holds the run's training and test folds and labels, and a sampler inside the
estimator is named with what its seeds do."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, ShuffleSplit, StratifiedKFold
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import SplitsMismatchError
from sklearn_fair.model_selection import PredefinedSplits, load_splits, save_splits
from sklearn_fair.report import reproducibility_card, result_to_dict

imblearn = pytest.importorskip("imblearn")
from imblearn.pipeline import make_pipeline  # noqa: E402
from imblearn.under_sampling import RandomUnderSampler  # noqa: E402

X, y = make_classification(n_samples=120, n_features=4, weights=[0.75], random_state=0)


def _nested(estimator, outer_cv, grid=None, **params):
    params = {"inner_cv": 2, "n_refits": 1, "random_state": 0, "n_jobs": 1, **params}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(estimator, grid or {"C": [0.1, 1.0]}, outer_cv=outer_cv, **params)
        return nested.fit(X, y)


@pytest.fixture(scope="module")
def shuffled():
    folds = list(ShuffleSplit(3, train_size=0.5, test_size=0.2, random_state=0).split(X))
    return folds, _nested(LogisticRegression(), folds)


def _saved_answer(card):
    return next(row for row in card.checklist if row[0] == "data splits saved")


def test_a_file_of_the_run_s_folds_is_said_saved(shuffled, tmp_path):
    folds, nested = shuffled
    path = tmp_path / "own.json"
    save_splits(folds, path, y=y)
    assert _saved_answer(reproducibility_card(nested, X=X, y=y, splits_file=path))[1] == "yes"


def test_a_file_of_the_same_test_folds_but_other_training_rows_is_refused(shuffled, tmp_path):
    # SPLITFILES-1: the card said "data splits saved | yes" for this file
    folds, nested = shuffled
    other = [(np.setdiff1d(np.arange(len(y)), test), test) for _, test in folds]
    path = tmp_path / "other.json"
    save_splits(other, path, y=y)
    run = [np.sort(r["train_indices"]) for r in nested.outer_results_]
    saved = [np.sort(train) for train, _ in load_splits(path).folds]
    differ = [k for k, (a, b) in enumerate(zip(run, saved)) if not np.array_equal(a, b)]
    assert [len(t) for t in run] == [60, 60, 60] and [len(t) for t in saved] == [96, 96, 96]
    with pytest.raises(ValueError) as error:
        reproducibility_card(nested, X=X, y=y, splits_file=path)
    message = str(error.value)
    assert f"'splits_file' parameter of reproducibility_card is {str(path)!r}" in message
    assert (
        f"trains on other rows in outer fold {differ[0]} than the result 'model' "
        f"({len(differ)} of its {len(folds)} folds differ)"
    ) in message


def test_a_file_saved_for_other_labels_is_refused_as_predefined_splits_refuse_it(tmp_path):
    folds = list(KFold(3).split(X))
    nested = _nested(LogisticRegression(), folds)
    path = tmp_path / "otherlabels.json"
    save_splits(folds, path, y=1 - y[::-1])  # the labels of another data set
    with pytest.raises(SplitsMismatchError):  # the library's own check of the same file
        list(PredefinedSplits(load_splits(path)).split(X, y))
    with pytest.raises(ValueError, match=r"which was saved for other labels than the 'y' given"):
        reproducibility_card(nested, X=X, y=y, splits_file=path)
    # without y nothing says which labels the run had: the folds alone match
    card = reproducibility_card(nested, X=X, splits_file=path)
    assert _saved_answer(card)[1] == "yes"


class RecordingUnderSampler(RandomUnderSampler):
    """A RandomUnderSampler that records the random_state of each of its fits."""

    seen = []

    def fit_resample(self, X, y, **params):
        RecordingUnderSampler.seen.append(self.random_state)
        return super().fit_resample(X, y, **params)


def _sampled(random_state):
    RecordingUnderSampler.seen = []
    pipe = make_pipeline(
        StandardScaler(),
        RecordingUnderSampler(sampling_strategy=0.5, random_state=random_state),
        LogisticRegression(random_state=0),  # the sampler's is the only seed left unset
    )
    nested = _nested(
        pipe, StratifiedKFold(3, shuffle=True, random_state=0), refit=False,
        grid={"logisticregression__C": [0.1, 1.0]}, n_refits=2,
    )  # fmt: skip
    return nested, list(RecordingUnderSampler.seen)


def _resampling_row(card):
    return [row for row in card.checklist if row[0] == "resampling of training rows"]


def test_the_card_names_a_sampler_whose_rows_the_refit_seeds_redraw():
    # SAMPLING-1: the card said only "Seeds: random_state: 0; model refit seeds: [...]"
    nested, seen = _sampled(None)
    refit_seeds = set(nested.refit_seeds_)
    assert len(refit_seeds) == 2 and refit_seeds <= set(seen)  # the refits drew with them
    ((_, answer, how),) = _resampling_row(reproducibility_card(nested, X=X, y=y))
    assert answer == "yes"
    assert how.startswith(
        "RecordingUnderSampler(sampling_strategy=0.5) inside each training fold (inner and "
        "outer), whose random_state is None: each refit re-draws its rows with a seed from "
        "the refit seeds"
    )


def test_the_card_says_a_sampler_s_own_seed_is_kept():
    nested, seen = _sampled(7)
    assert set(seen) == {7}  # every fit, inner and refits, drew with it
    ((_, _, how),) = _resampling_row(reproducibility_card(nested, X=X, y=y))
    assert (
        "whose random_state=7 is kept in every fit: the refit seeds do not re-draw its rows" in how
    )
    assert "re-draws its rows with a seed" not in how


def test_the_card_says_nothing_of_samplers_it_cannot_see(shuffled):
    sampled, _ = _sampled(None)
    # a saved result holds no estimator; a model without a sampler has none to name
    assert not _resampling_row(reproducibility_card(result_to_dict(sampled)))
    assert not _resampling_row(reproducibility_card(shuffled[1]))


def test_the_card_names_a_sampler_that_only_the_search_space_puts_in_place():
    # hunt NEWOUT: a sampler given as a candidate of the grid was not named at all
    from imblearn.pipeline import Pipeline

    RecordingUnderSampler.seen = []
    pipe = Pipeline([("s", "passthrough"), ("lr", LogisticRegression(random_state=0))])
    nested = _nested(pipe, KFold(3), grid={"s": [RecordingUnderSampler()]}, n_refits=2)
    selected = sum(
        isinstance(f["best_params"]["s"], RandomUnderSampler) for f in nested.outer_results_
    )
    assert selected == 3 and RecordingUnderSampler.seen  # it ran in every fold
    ((_, _, how),) = _resampling_row(reproducibility_card(nested, X=X, y=y))
    assert "RecordingUnderSampler() (a candidate of the search space, selected in 3 of 3" in how
    assert set(nested.refit_seeds_) <= set(RecordingUnderSampler.seen)
    assert "each refit re-draws its rows with a seed from the refit seeds" in how


def test_the_card_says_the_search_space_sets_a_sampler_s_seed():
    # hunt NEWOUT: a grid over the sampler's random_state was said to be re-drawn by the
    # refit seeds, while every fit drew with a value of the grid
    RecordingUnderSampler.seen = []
    pipe = make_pipeline(RecordingUnderSampler(), LogisticRegression(random_state=0))
    nested = _nested(
        pipe, KFold(3), grid={"recordingundersampler__random_state": [1, 2]}, n_refits=2
    )
    assert set(RecordingUnderSampler.seen) <= {1, 2}
    ((_, _, how),) = _resampling_row(reproducibility_card(nested, X=X, y=y))
    assert "whose random_state the search space sets (selected: " in how
    assert "the refit seeds do not re-draw its rows" in how
    assert "re-draws its rows with a seed" not in how
