"""benchmark(..., previous=...) runs the new cells under the previous benchmark's settings:
each cell records them (its fingerprints, saved with it), an extension under others is
refused naming them, and a baseline declared a floor stays declared."""

import json
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import KFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.exceptions import UncheckedResultWarning
from sklearn_fair.report._integrity import with_checksum

DATASETS = {
    name: make_classification(
        n_samples=n, n_features=5, n_informative=3, class_sep=1.0, random_state=seed
    )
    for name, n, seed in (("a", 48, 0), ("b", 60, 1))
}
MODELS = {
    "prior": DummyClassifier(),
    "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}),
}
NEW = {"nb": GaussianNB()}
SETTINGS = dict(outer_cv=3, inner_cv=2, n_refits=2, random_state=0)


def _run(models, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # edge-of-grid notes of the two-value grid
        return benchmark(models, DATASETS, **{**SETTINGS, **options})


@pytest.fixture(scope="module")
def first():
    return _run(MODELS, baseline="prior")


@pytest.fixture(scope="module")
def saved(first, tmp_path_factory):
    return first.save(tmp_path_factory.mktemp("extend") / "first.json")


def _same_cells(got, expected):
    assert list(got.cells) == list(expected.cells)
    for key, cell in expected.cells.items():
        np.testing.assert_array_equal(got.cells[key].scores, cell.scores)
        for ours, theirs in zip(got.cells[key].refit_scores, cell.refit_scores):
            np.testing.assert_array_equal(ours, theirs)
        assert got.cells[key].best_params == cell.best_params


@pytest.mark.parametrize(
    "changed",
    [
        {"inner_cv": 3},
        {"inner_cv": KFold(2)},
        {"n_refits": 1},
        {"select": "one_se"},
        {"error_score": 0.0},
        {"fit_timeout": 60.0},
        {"scoring": "balanced_accuracy"},
        {"inner_cv": 3, "n_refits": 1, "select": "one_se"},
    ],
    ids=lambda changed: "-".join(f"{key}={value}" for key, value in changed.items()),
)
def test_a_new_model_under_other_settings_is_refused_naming_them(changed, saved):
    # the reference: the same call under the previous settings runs, and gives the new cells
    # of the whole benchmark run at once
    previous = BenchmarkResult.load(saved)
    extended = _run(NEW, previous=previous)
    _same_cells(extended, _run({**MODELS, **NEW}, baseline="prior"))
    names = "', '".join(changed)
    with pytest.raises(ValueError, match=f"and the previous benchmark ran with other '{names}'"):
        _run(NEW, previous=previous, **changed)
    with pytest.raises(ValueError, match=f"runs with {next(iter(changed))}="):
        _run(NEW, previous=previous, **changed)


def test_the_settings_are_recorded_in_each_cell_and_its_saved_file(first, saved):
    document = json.loads(saved.read_text())
    recorded = [cell["fingerprints"] for cell in document["cells"]]
    keys = {f"protocol.{key}" for key in ("inner_cv", "n_refits", "scoring", "refit",
                                          "fit_timeout", "error_score", "select")}  # fmt: skip
    assert all(keys <= set(fingerprints) for fingerprints in recorded)
    # one benchmark, one set of settings: the same in every cell
    assert len({tuple(fingerprints[key] for key in sorted(keys)) for fingerprints in recorded}) == 1
    assert first.cells["a", "prior"].fingerprints == recorded[0]
    # settings that change no result are not recorded: other values are accepted
    _same_cells(_run(NEW, previous=first, reuse_prefix=False), _run(NEW, previous=first))


def test_a_changed_setting_of_a_model_given_again_is_named(first, saved):
    # in memory the previous cells hold their NestedCV: its parameters are named, with both
    # values; from a file, benchmark's settings that differ are
    with pytest.raises(ValueError, match="model 'prior' given to benchmark is not the one") as e:
        _run(MODELS, previous=first, n_refits=1)
    assert "its NestedCV's n_refits=1 where the previous run had 2" in str(e.value)
    with pytest.raises(ValueError, match="model 'prior' given to benchmark is not the one") as e:
        _run(MODELS, previous=BenchmarkResult.load(saved), select="one_se")
    assert "benchmark's select='one_se', where the previous run had other" in str(e.value)


def test_a_file_saved_without_its_settings_is_extended_with_a_warning(saved, tmp_path):
    document = json.loads(saved.read_text())
    for cell in document["cells"]:
        cell["fingerprints"] = {k: cell["fingerprints"][k] for k in ("data", "model")}
    old = tmp_path / "old.json"
    old.write_text(json.dumps(with_checksum(document)))
    previous = BenchmarkResult.load(old)  # a file of the former format still loads
    with pytest.warns(UncheckedResultWarning, match="does not record the settings it ran with"):
        extended = benchmark(NEW, DATASETS, previous=previous, **SETTINGS)
    _same_cells(extended, _run({**MODELS, **NEW}, baseline="prior"))
    # its models, given again, are still checked by their own fingerprints
    with pytest.raises(ValueError, match="model 'prior' given to benchmark is not the one "
                       "the previous benchmark ran, so"):  # fmt: skip
        _run({**MODELS, **NEW}, previous=previous, n_refits=1)


def test_baseline_floor_declares_the_previous_baseline_a_floor(first):
    assert not first.baseline_floor
    extended = _run(NEW, previous=first, baseline_floor=True)
    assert (extended.baseline, extended.baseline_floor) == ("prior", True)
    # the reference: the whole benchmark run at once with the floor declared
    at_once = _run({**MODELS, **NEW}, baseline="prior", baseline_floor=True)
    assert (at_once.baseline, at_once.baseline_floor) == (extended.baseline, True)
    # a floor declared before stays one without being declared again
    floor = _run(MODELS, baseline="prior", baseline_floor=True)
    assert _run(NEW, previous=floor).baseline_floor


def test_baseline_floor_without_any_baseline_is_refused():
    with pytest.raises(ValueError, match="'baseline_floor' parameter of benchmark is True, but"):
        _run(MODELS, baseline_floor=True)
    no_baseline = _run(MODELS)
    with pytest.raises(ValueError, match="as the previous benchmark has none"):
        _run(NEW, previous=no_baseline, baseline_floor=True)


def test_a_nested_cv_model_is_not_told_of_settings_it_does_not_take(tmp_path):
    # a NestedCV keeps its own n_refits and select: a changed grid of it is what differs, and the
    # benchmark's changed select, which it does not take, is not named as its difference
    own = NestedCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, n_refits=1)
    path = _run({"own": own, **NEW}).save(tmp_path / "own.json")
    other = clone(own).set_params(param_grid={"max_depth": [2]})
    with pytest.raises(ValueError, match="model 'own' given to benchmark is not the one the "
                       "previous benchmark ran, so"):  # fmt: skip
        _run({"own": other, **NEW}, previous=BenchmarkResult.load(path), select="one_se")
    # the same settings, the model alone changed: refused as before
    with pytest.raises(ValueError, match="model 'own' given to benchmark is not the one"):
        _run({"own": other, **NEW}, previous=BenchmarkResult.load(path))
    # the select alone changed, for a new model: the NestedCV is the same one, the settings
    # are refused naming select
    with pytest.raises(ValueError, match="runs with select='one_se', and the previous"):
        _run({"own": own, "nb2": GaussianNB()}, previous=BenchmarkResult.load(path),
             select="one_se")  # fmt: skip


def test_a_model_scored_with_another_metric_under_the_same_key_is_refused(first):
    # {"perf": "recall"} prints as the previous {"perf": "f1"}: a run at once refuses the
    # two, and the extension merged them (aggregate then ranked recall against F1)
    previous = _run(MODELS, scoring={"perf": "f1"}, refit="perf")
    recall = NestedCV(GaussianNB(), scoring={"perf": "recall"}, refit="perf")
    with pytest.raises(ValueError, match=r"model 'nb' would be scored with .*'recall'.*'f1'"):
        _run({**MODELS, "nb": recall}, scoring={"perf": "f1"}, refit="perf", previous=previous)
    with pytest.raises(ValueError, match="different metrics under one name"):
        _run({**MODELS, "nb": recall}, scoring={"perf": "f1"}, refit="perf")


def test_what_pools_the_data_sets_refuses_models_of_different_metrics(first):
    # from_results takes them; the pooled numbers (aggregate, profiles, P(improvement)) did
    cells = dict(first.cells)
    other = dict(first.cells)
    key = ("a", "tree")
    recalls = _run({"tree": MODELS["tree"]}, scoring="recall").cells[key]
    other[key] = recalls
    mixed = BenchmarkResult(other, baseline="prior")
    for pooled in (
        lambda r: r.aggregate(n_resamples=100),
        lambda r: r.performance_profiles(),
        lambda r: r.probability_of_improvement("tree", "prior", n_resamples=100),
    ):
        with pytest.raises(ValueError, match="different metrics"):
            pooled(mixed)
    BenchmarkResult(cells, baseline="prior").aggregate(n_resamples=100)  # one metric: fine


def test_a_new_data_set_gets_as_many_outer_folds_as_the_previous(first):
    # outer_cv left at benchmark's default (10) split the new data set into 10 folds where the
    # previous ones had 3, and aggregate pooled them; a dict is each data set's own choice
    extra = {"c": make_classification(n_samples=60, n_features=5, random_state=2)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"new data set 'c' into 10 outer folds.*into 3"):
            benchmark(MODELS, {**DATASETS, **extra}, inner_cv=2, n_refits=2, random_state=0,
                      previous=first)  # fmt: skip
        extended = benchmark(MODELS, {**DATASETS, **extra}, **SETTINGS, previous=first)
    assert [len(extended.cells["c", m].scores) for m in MODELS] == [3, 3]
