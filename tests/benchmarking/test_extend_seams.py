"""benchmark(..., previous=...) where the previous result says less than a benchmark run does:
a result made by hand from cells (no random_state), recorded splits but no data set size,
cells saved under other package versions, and settings that change no result."""

import json
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.exceptions import ReproducibilityWarning
from sklearn_fair.report._card import card_of
from sklearn_fair.report._integrity import with_checksum
from sklearn_fair.utils import describe, digest

DATASETS = {
    name: make_classification(n_samples=60, n_features=5, random_state=seed)
    for name, seed in (("d1", 0), ("d2", 1))
}
MODELS = {"prior": DummyClassifier(), "lr": (LogisticRegression(), {"C": [0.1, 1.0]})}
# a model whose numbers depend on the seed (its splits' features are drawn)
RANDOM = {"tree": (DecisionTreeClassifier(max_features=2), {"max_depth": [1, 3, None]})}
SETTINGS = dict(outer_cv=3, n_refits=2, baseline="prior")


def _run(models, datasets=DATASETS, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ties and edges of the small grids
        return benchmark(models, datasets, **{**SETTINGS, **options})


def _assert_same_scores(extended, whole):
    for key, cell in whole.cells.items():
        np.testing.assert_array_equal(extended.cells[key].scores, cell.scores)
        assert extended.cells[key].best_params == cell.best_params


@pytest.fixture(scope="module")
def whole():
    return _run({**MODELS, **RANDOM}, random_state=0)


@pytest.fixture(scope="module")
def by_hand():
    """The cells of a seed-0 run less a model, as a BenchmarkResult made by hand: it records
    no random_state."""
    run = _run({**MODELS, "junk": DummyClassifier(strategy="uniform")}, random_state=0)
    cells = {k: c for k, c in run.cells.items() if k[1] != "junk"}
    return BenchmarkResult(cells, baseline="prior")


@pytest.mark.parametrize("from_file", [False, True])
def test_a_previous_without_random_state_extends_with_its_cells_seed(
    whole, by_hand, from_file, tmp_path
):
    previous = by_hand
    if from_file:  # saved with "random_state": null
        previous = BenchmarkResult.load(by_hand.save(tmp_path / "subset.json"))
    assert previous.random_state is None
    extended = _run(RANDOM, previous=previous)
    # the new cells are those of the whole benchmark run at once with seed 0
    assert extended.random_state == 0
    assert {c.random_state for c in extended.cells.values()} == {0}
    _assert_same_scores(extended, whole)
    # and the seed the cells ran with is accepted when given
    _assert_same_scores(_run(RANDOM, previous=previous, random_state=0), whole)
    with pytest.raises(ValueError, match="'previous' benchmark's cells ran with 0"):
        _run(RANDOM, previous=previous, random_state=1)


def test_cells_of_several_seeds_without_random_state_are_refused():
    runs = [_run(MODELS, random_state=seed) for seed in (0, 1)]
    cells = {**runs[0].cells, ("d2", "lr"): runs[1].cells["d2", "lr"]}
    previous = BenchmarkResult(cells, baseline="prior")
    with pytest.raises(ValueError, match="'random_state'.*'previous'.*record 0, 1"):
        _run(RANDOM, previous=previous)


def test_one_list_of_splits_for_a_new_data_set_of_another_size_is_refused():
    d3 = make_classification(n_samples=90, n_features=5, random_state=2)
    splits = list(KFold(3).split(DATASETS["d1"][0]))
    options = dict(outer_cv=splits, n_refits=1, random_state=0)
    # the whole benchmark run at once refuses it...
    with pytest.raises(ValueError, match="one list of splits for data sets of different sizes"):
        _run(MODELS, {"d1": DATASETS["d1"], "d3": d3}, **options)
    previous = _run(MODELS, {"d1": DATASETS["d1"]}, **options)
    # ... and so does the extension, which would test 60 of d3's 90 rows
    with pytest.raises(ValueError, match=r"'d3': 90 rows, 'd1' of the previous benchmark: "
                                         "splits reaching 60 rows"):  # fmt: skip
        _run(MODELS, {"d1": DATASETS["d1"], "d3": d3}, previous=previous, **options)
    # a new data set of the same size is split as at once
    whole = _run(MODELS, DATASETS, **options)
    _assert_same_scores(_run(MODELS, DATASETS, previous=previous, **options), whole)


def _saved_elsewhere(result, path, **versions):
    """``result`` saved as if under other package ``versions``, sealed again."""
    result.save(path)
    document = json.loads(path.read_text())
    document["versions"].update(versions)
    path.write_text(json.dumps(with_checksum(document)))
    return BenchmarkResult.load(path)


@pytest.fixture
def saved_elsewhere(tmp_path):
    return _saved_elsewhere(
        _run({"prior": DummyClassifier()}, random_state=0), tmp_path / "old.json",
        **{"scikit-learn": "1.5.0"},
    )  # fmt: skip


def test_extending_a_previous_of_other_versions_warns(saved_elsewhere):
    with pytest.warns(ReproducibilityWarning, match=f"scikit-learn 1.5.0 where this run has "
                                                    f"{sklearn.__version__}"):  # fmt: skip
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, message="(?!The previous)")
            benchmark({"prior": DummyClassifier(), "tree": DecisionTreeClassifier()}, DATASETS,
                      previous=saved_elsewhere, random_state=0, **SETTINGS)  # fmt: skip


def test_saving_an_extended_result_keeps_each_cells_versions(saved_elsewhere, tmp_path):
    extended = _run({"prior": DummyClassifier(), "tree": DecisionTreeClassifier()},
                    previous=saved_elsewhere, random_state=0)  # fmt: skip
    loaded = BenchmarkResult.load(extended.save(tmp_path / "extended.json"))
    recorded = {key: cell.versions["scikit-learn"] for key, cell in loaded.cells.items()}
    assert recorded == {
        ("d1", "prior"): "1.5.0", ("d1", "tree"): sklearn.__version__,
        ("d2", "prior"): "1.5.0", ("d2", "tree"): sklearn.__version__,
    }  # fmt: skip
    card = str(card_of(list(loaded.cells.values())).section())
    assert "Versions (recorded with the results)" not in card
    assert "Versions recorded with the results (they differ between the results)" in card
    # saved again, the versions stay each cell's
    again = BenchmarkResult.load(loaded.save(tmp_path / "again.json"))
    assert {k: c.versions for k, c in again.cells.items()} == {
        k: c.versions for k, c in loaded.cells.items()
    }


def test_a_previous_under_the_same_versions_gives_no_warning(tmp_path):
    previous = BenchmarkResult.load(
        _run({"prior": DummyClassifier()}, random_state=0).save(tmp_path / "same.json")
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        _run(MODELS, previous=previous, random_state=0)


PIPE = {"pipe": (make_pipeline(StandardScaler(), LogisticRegression()),
                 {"logisticregression__C": [0.1, 1.0]})}  # fmt: skip


def test_reuse_prefix_changes_no_result_and_is_not_refused():
    whole = _run({"prior": DummyClassifier(), **PIPE}, random_state=0, reuse_prefix=True)
    previous = _run({"prior": DummyClassifier()}, random_state=0, reuse_prefix=True)
    extended = _run({"prior": DummyClassifier(), **PIPE}, previous=previous, random_state=0,
                    reuse_prefix=False)  # fmt: skip
    _assert_same_scores(extended, whole)


def test_a_nested_cvs_own_keep_predictions_is_not_refused():
    nested = dict(random_state=7, inner_cv=3, n_refits=1)
    tree = DecisionTreeClassifier(max_features=2)
    grid = {"max_depth": [1, 3]}
    previous = _run({"prior": DummyClassifier(), "nest": NestedCV(tree, grid, **nested)},
                    random_state=0)  # fmt: skip
    kept = NestedCV(tree, grid, keep_predictions=True, **nested)
    extended = _run({"prior": DummyClassifier(), "nest": kept, **MODELS}, previous=previous,
                    random_state=0)  # fmt: skip
    whole = _run({"prior": DummyClassifier(), "nest": kept, **MODELS}, random_state=0)
    _assert_same_scores(extended, whole)


def test_a_model_fingerprinted_the_former_way_is_still_the_same(tmp_path):
    """A file saved when a model's fingerprint covered reuse_prefix and keep_predictions."""
    previous = _run({**MODELS, **PIPE}, {"d1": DATASETS["d1"]}, random_state=0)
    path = previous.save(tmp_path / "former.json")
    document = json.loads(path.read_text())
    former = ("outer_cv", "n_jobs", "verbose", "cache_dir")  # what it left out then
    for cell in document["cells"]:
        params = previous.cells["d1", cell["model"]].estimator.get_params(deep=False)
        cell["fingerprints"]["model"] = digest(describe(
            {k: v for k, v in params.items() if k not in former}
        ))  # fmt: skip
    path.write_text(json.dumps(with_checksum(document)))
    loaded = BenchmarkResult.load(path)
    whole = _run({**MODELS, **PIPE}, random_state=0)
    extended = _run({**MODELS, **PIPE}, previous=loaded, random_state=0)
    _assert_same_scores(extended, whole)
    # its cells now record both ways; extended again, its models are still the same
    _run({**MODELS, **PIPE, **RANDOM}, previous=extended, random_state=0)
    # a model given other than it ran is still refused
    other = {**MODELS, "pipe": (PIPE["pipe"][0], {"logisticregression__C": [0.5]})}
    with pytest.raises(ValueError, match="The model 'pipe' given to benchmark is not the one"):
        _run(other, previous=loaded, random_state=0)


def test_the_same_labels_as_a_series_a_list_or_an_array_extend_one_data_set():
    # the labels given as a pandas Series, then as the array or list of their values, were
    # "not the data the previous benchmark ran": the fingerprint read the Series itself
    pd = pytest.importorskip("pandas")
    X, y = DATASETS["d1"]
    previous = _run(MODELS, {"d1": (X, pd.Series(y, name="label"))}, random_state=0)
    whole = _run({**MODELS, **RANDOM}, {"d1": (X, y)}, random_state=0)
    for labels in (y, y.tolist()):
        extended = _run(RANDOM, {"d1": (X, labels)}, previous=previous, random_state=0)
        _assert_same_scores(extended, whole)
