"""A BenchmarkResult as an artefact: saved and loaded, extended, printed as LaTeX, normalised
(issue 37, item 4)."""

import dataclasses
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import minmax_scale
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.benchmarking._extend import PROTOCOL
from sklearn_fair.exceptions import (
    InvalidResultError,
    SplitsMismatchError,
    UncheckedResultWarning,
)
from sklearn_fair.report import _artefact
from sklearn_fair.report._integrity import with_checksum

DATASETS = {
    name: make_classification(
        n_samples=n, n_features=5, n_informative=3, class_sep=2.0, random_state=seed
    )
    for name, n, seed in (("a", 45, 0), ("b", 54, 1), ("c", 60, 2))
}


class CountingPrior(DummyClassifier):
    """A DummyClassifier that counts its fits (the benchmark runs in this process)."""

    fits = 0

    def fit(self, X, y, sample_weight=None):
        type(self).fits += 1
        return super().fit(X, y, sample_weight=sample_weight)


def _models(*names):
    every = {
        "prior": CountingPrior(),
        "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}),
        "stump": (DecisionTreeClassifier(random_state=1, max_depth=1), None),
    }
    return {name: every[name] for name in names}


def _run(models, datasets, **options):
    options = {"outer_cv": 3, "n_refits": 2, "random_state": 0, **options}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # edge-of-grid notes of the two-value grid
        return benchmark(models, datasets, **options)


@pytest.fixture(scope="module")
def result():
    scoring = {"acc": "accuracy", "balanced": "balanced_accuracy"}
    return _run(_models("prior", "tree"), {k: DATASETS[k] for k in "ab"}, baseline="prior",
                scoring=scoring, refit="acc")  # fmt: skip


def _assert_same_cells(got, expected):
    assert list(got.cells) == list(expected.cells)
    for key, cell in expected.cells.items():
        other = got.cells[key]
        assert other.metrics == cell.metrics and other.refit_metric == cell.refit_metric
        assert other.scores_per_metric.keys() == cell.scores_per_metric.keys()
        for metric, scores in cell.scores_per_metric.items():
            np.testing.assert_array_equal(other.scores_per_metric[metric], scores)
        for ours, theirs in zip(other.refit_scores, cell.refit_scores):
            np.testing.assert_array_equal(ours, theirs)
        np.testing.assert_array_equal(other.validation_scores, cell.validation_scores)
        assert other.best_params == cell.best_params
        for ours, theirs in zip(other.train_indices + other.test_indices,
                                cell.train_indices + cell.test_indices):  # fmt: skip
            np.testing.assert_array_equal(ours, theirs)
        assert (other.refit_seeds, other.random_state, other.task) == (
            cell.refit_seeds, cell.random_state, cell.task,
        )  # fmt: skip


def test_save_then_load_gives_the_same_result(result, tmp_path):
    path = result.save(tmp_path / "benchmark.json")
    loaded = BenchmarkResult.load(path)
    _assert_same_cells(loaded, result)
    assert (loaded.baseline, loaded.random_state) == ("prior", 0)
    for key, cell in result.cells.items():
        assert loaded.cells[key].budget == pytest.approx(cell.budget)
        assert loaded.cells[key].fingerprints == cell.fingerprints
        # the data, the model, each of benchmark's settings and scikit-learn's global settings
        # that change results (an extension must share them)
        sklearn_settings = ("array_api_dispatch", "enable_metadata_routing", "sparse_interface",
                            "transform_output")  # fmt: skip
        assert set(cell.fingerprints) == {"data", "model"} | {f"protocol.{k}" for k in PROTOCOL} | {
            f"sklearn.{k}" for k in sklearn_settings
        }
        assert loaded.estimators[key] is None  # no fitted model in a file: no pickle
    assert loaded.table().equals(result.table())
    pd.testing.assert_frame_equal(loaded.compare_to(), result.compare_to())
    document = json.loads(path.read_text())
    assert (document["format"], document["version"]) == ("sklearn-fair-benchmark", 1)
    assert {"python", "sklearn-fair", "scikit-learn"} <= set(document["versions"])


def test_splits_are_saved_once_per_data_set_and_a_cells_own_are_kept(result, tmp_path):
    path, document = _saved(result, tmp_path)
    assert [len(document["splits"][d]) for d in "ab"] == [3, 3]
    assert all(
        "test_indices" not in f for c in document["cells"] for f in c["result"]["outer_results"]
    )
    # results gathered from elsewhere: one cell on other splits, one without any
    cells = dict(result.cells)
    other = cells["b", "tree"]
    cells["b", "tree"] = dataclasses.replace(other, test_indices=other.test_indices[::-1],
                                             train_indices=other.train_indices[::-1])  # fmt: skip
    cells["a", "tree"] = dataclasses.replace(cells["a", "tree"], train_indices=None,
                                             test_indices=None)  # fmt: skip
    failures = {0: {"count": 2, "error": "ValueError: no"}, None: {"count": 1, "error": "E: x"}}
    cells["b", "prior"] = dataclasses.replace(cells["b", "prior"], failures=failures)
    mixed = BenchmarkResult(cells, baseline="prior", baseline_floor=True, random_state=0)
    loaded = BenchmarkResult.load(mixed.save(tmp_path / "mixed.json"))
    assert loaded.baseline_floor and loaded.cells["b", "prior"].failures == failures
    assert loaded.cells["a", "tree"].test_indices is None
    for ours, theirs in zip(loaded.cells["b", "tree"].test_indices, other.test_indices[::-1]):
        np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(loaded.cells["b", "prior"].test_indices[0], other.test_indices[0])


def _saved(result, tmp_path):
    path = result.save(tmp_path / "benchmark.json")
    return path, json.loads(path.read_text())


def test_an_edited_file_is_refused_naming_it_and_read_on_request(result, tmp_path):
    path, document = _saved(result, tmp_path)
    document["cells"][1]["result"]["outer_results"][0]["test_score"] = 0.999
    path.write_text(json.dumps(document))
    with pytest.raises(InvalidResultError, match=f"The result file {path} is refused: does not "
                       "match its checksum"):  # fmt: skip
        BenchmarkResult.load(path)
    with pytest.warns(UncheckedResultWarning, match=f"file {path} fails its checks: does not"):
        loaded = BenchmarkResult.load(path, verify="warn")
    assert loaded.cells["a", "tree"].scores[0] == 0.999


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda d: d.pop("checksum"), "has no checksum, although version 1 always carries one"),
        (lambda d: d.update(version=2), "is version 2 of 'sklearn-fair-benchmark', newer than"),
        (lambda d: d["cells"].append(d["cells"][0]), r"cell \('a', 'prior'\) appears twice"),
        (lambda d: d["cells"][0]["budget"].update(fit_time="1 h"), "budget that is not numbers"),
        (lambda d: d["splits"]["a"].pop(), r"cell \('a', 'prior'\) has folds without splits"),
    ],
    ids=["no checksum", "newer", "duplicate cell", "budget", "splits"],
)
def test_a_file_that_cannot_be_checked_is_refused(edit, match, result, tmp_path):
    path, document = _saved(result, tmp_path)
    edit(document)
    if "checksum" in document:
        document = with_checksum(document)
    path.write_text(json.dumps(document))
    with pytest.raises(InvalidResultError, match=match):
        BenchmarkResult.load(path)


def test_load_refuses_another_format_and_large_files(result, tmp_path, monkeypatch):
    path = tmp_path / "result.json"
    one = {
        "format": "sklearn-fair-result",
        "version": 3,
        "outer_results": [{"test_score": 0.5}] * 2,
    }
    path.write_text(json.dumps(with_checksum(one)))
    with pytest.raises(InvalidResultError, match="not a saved benchmark"):
        BenchmarkResult.load(path)
    saved = result.save(tmp_path / "benchmark.json")
    monkeypatch.setattr(_artefact, "MAX_BYTES", 1000)
    with pytest.raises(
        InvalidResultError,
        match=f"The result file {saved} is larger than max_bytes=1000; nothing was read",
    ):
        BenchmarkResult.load(saved)


def test_extending_gives_what_running_everything_at_once_gives(tmp_path):
    at_once = _run(_models("prior", "tree", "stump"), DATASETS, baseline="prior")
    first = _run(_models("prior", "tree"), {k: DATASETS[k] for k in "ab"}, baseline="prior")
    path = first.save(tmp_path / "first.json")
    CountingPrior.fits = 0
    _run(_models("prior"), {"c": DATASETS["c"]})  # the one new cell of the prior, alone
    new_cell_fits, CountingPrior.fits = CountingPrior.fits, 0
    # a new model on the old data sets, and every model on a new data set, from the file
    extended = _run(_models("prior", "tree", "stump"), DATASETS,
                    previous=BenchmarkResult.load(path), random_state=None)  # fmt: skip
    _assert_same_cells(extended, at_once)
    assert extended.baseline == "prior" and extended.random_state == 0
    assert CountingPrior.fits == new_cell_fits >= 3 * 2  # 3 outer folds, 2 refits at least
    again = _run(_models("prior", "tree", "stump"), DATASETS, previous=extended)
    assert CountingPrior.fits == new_cell_fits  # nothing new, nothing fitted
    assert again.table().equals(at_once.table())


def test_extending_refuses_what_would_not_be_comparable(tmp_path):
    first = _run(_models("prior", "tree"), {k: DATASETS[k] for k in "ab"})
    with pytest.raises(ValueError, match="model 'tree' given to benchmark is not the one"):
        _run({**_models("prior", "stump"), "tree": (DecisionTreeClassifier(), {"max_depth": [2]})},
             {k: DATASETS[k] for k in "ab"}, previous=first)  # fmt: skip
    changed = {"a": DATASETS["a"], "b": (DATASETS["b"][0] + 1.0, DATASETS["b"][1])}
    with pytest.raises(ValueError, match="data 'b' given to benchmark is not the one"):
        _run(_models("prior", "tree", "stump"), changed, previous=first)
    with pytest.raises(ValueError, match="needs for them data set 'b'"):
        _run(_models("prior", "tree", "stump"), {"a": DATASETS["a"]}, previous=first)
    with pytest.raises(ValueError, match="needs for them model 'tree'"):
        _run(_models("prior"), DATASETS, previous=first)
    with pytest.raises(ValueError, match="ran with 0: new cells must share its seeds"):
        _run(_models("prior", "tree", "stump"), DATASETS, previous=first, random_state=1)
    with pytest.raises(ValueError, match=r"folds \(3 and 4\); benchmark\(\.\.\., previous="):
        _run(_models("prior", "tree", "stump"), DATASETS, previous=first, outer_cv=4)
    with pytest.raises(ValueError, match="model 'prior' given to benchmark is not the one"):
        _run(_models("prior", "tree", "stump"), DATASETS, previous=first, scoring="f1")
    own_metric = NestedCV(DecisionTreeClassifier(), {"max_depth": [1]}, scoring="f1")
    with pytest.raises(ValueError, match="'stump' would be scored with F1 and the previous"):
        _run({**_models("prior", "tree"), "stump": own_metric}, DATASETS, previous=first)


def test_extending_checks_splits_by_the_rule_of_every_paired_comparison():
    # the previous cells' rows in another order within each fold: the same splits for a paired
    # test (check_same_splits), so extend accepts them and its results compare
    X, y = DATASETS["a"]
    splits = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    rng = np.random.default_rng(0)
    reordered = [(rng.permutation(train), rng.permutation(test)) for train, test in splits]
    first = _run(_models("prior", "tree"), {"a": (X, y)}, outer_cv=splits)
    extended = _run(_models("prior", "tree", "stump"), {"a": (X, y)}, outer_cv=reordered,
                    previous=first, baseline="prior")  # fmt: skip
    row = extended.compare_to().set_index("model").loc["stump"]
    # the corrected resampled t-test (Nadeau & Bengio) of the paired fold scores, by scipy
    d = extended.cells["a", "stump"].scores - extended.cells["a", "prior"].scores
    n_test = len(splits[0][1])
    se = np.sqrt((1 / 3 + n_test / (len(y) - n_test)) * d.var(ddof=1))
    assert row["pvalue"] == pytest.approx(2 * stats.t.sf(abs(d.mean() / se), df=2))
    # other rows: refused, naming the data set and both models
    other = [(np.r_[train[1:], test[:1]], np.r_[test[1:], train[:1]]) for train, test in splits]
    with pytest.raises(SplitsMismatchError, match="'prior' and 'stump' differ: outer fold 0 has"):
        _run(_models("prior", "tree", "stump"), {"a": (X, y)}, outer_cv=other, previous=first)
    assert issubclass(SplitsMismatchError, ValueError)  # what extend raised before


def test_to_latex_marks_what_table_marks_and_escapes_names(result):
    table = result.table(scale=100)
    latex = result.to_latex(scale=100)
    lines = latex.splitlines()
    # a header row names the metric above the data sets (hunt PIC)
    metric = rf" & \multicolumn{{2}}{{c}}{{{table.columns.name}}} \\"
    assert table.columns.name == "test acc"
    assert lines[:6] == [r"\begin{tabular}{lrr}", r"\toprule", metric, r"\cmidrule(lr){2-3}",
                         r"model & a & b \\", r"\midrule"]  # fmt: skip
    assert lines[-2:] == [r"\bottomrule", r"\end{tabular}"]
    for line, (model, row) in zip(lines[6:-2], table.iterrows()):
        cells = line.removesuffix(r" \\").split(" & ")
        assert cells[0] == model
        for text, cell in zip(row, cells[1:]):
            bare = text.strip("*").replace("±", r"$\pm$")
            expected = {2: rf"\textbf{{{bare}}}", 1: rf"\textit{{{bare}}}", 0: bare}
            assert cell == expected[len(text) - len(text.lstrip("*"))]
    assert r"\textbf{" in latex
    # names are escaped as pandas' LaTeX writer escapes them (~ ^ \\ as LaTeX's text commands:
    # pandas writes "\\textasciitilde \\space", the same glyph)
    names = ["50% of a_b & c", "{x}#1 $"]
    frame = pd.DataFrame({name: ["1.0 ± 0.1"] for name in names}, index=pd.Index(["m"]))
    reference = frame.style.format_index(escape="latex", axis=1).to_latex()
    ours = _artefact.to_latex(frame)
    assert reference.splitlines()[1].split(" & ")[1:] == ours.splitlines()[2].split(" & ")[1:]
    assert _artefact.latex_escape("~^\\") == r"\textasciitilde{}\textasciicircum{}\textbackslash{}"
    # pandas leaves < > | as they are; in LaTeX's default OT1 text font they print as ¡ ¿ —:
    # LaTeX's text commands for them print them
    assert _artefact.latex_escape("tree_<d>|x") == (r"tree\_\textless{}d\textgreater{}\textbar{}x")


@pytest.mark.parametrize("name", ["[ours] tree", "*prior"])
def test_to_latex_keeps_a_first_cell_that_latex_would_read_as_an_option(name):
    # after \\ and \midrule LaTeX reads a leading [ as an optional length (pdflatex stopped:
    # "Missing number, treated as zero") and a leading * as \\* (the star was dropped); in
    # braces, the cell is text
    frame = pd.DataFrame({"d": ["1.0 ± 0.1", "2.0 ± 0.1"]}, index=pd.Index([name, "x"]))
    frame.index.name = "[m]"
    lines = _artefact.to_latex(frame).splitlines()
    assert lines[2].startswith("{[m]} & ") and lines[3] == r"\midrule"
    assert lines[4].startswith(f"{{{name}}} & ") and lines[5].startswith("x & ")


def test_normalize_minmax_is_sklearns_minmax_scale_of_each_data_sets_means(result):
    raw = result.aggregate(n_resamples=50)
    minmax = result.aggregate(normalize="minmax", n_resamples=50)
    means = result.mean_scores()  # data sets by models; equal fold counts: pooled mean = mean
    scaled = np.array([minmax_scale(means.loc[d].to_numpy()) for d in result.datasets])
    for j, model in enumerate(result.models):
        assert minmax.loc[model, "mean"] == pytest.approx(scaled[:, j].mean())
    # an increasing affine map per data set: the probability of improvement is unchanged
    assert minmax.loc["tree", "probability_of_improvement"] == pytest.approx(
        raw.loc["tree", "probability_of_improvement"]
    )


def test_normalized_errors_take_anchors_in_printed_units():
    from sklearn.datasets import make_regression
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge

    data = {f"d{s}": make_regression(n_samples=40, n_features=3, noise=10.0, random_state=s)
            for s in (0, 1)}  # fmt: skip
    errors = _run({"mean": DummyRegressor(), "ridge": Ridge()}, data,
                  scoring="neg_root_mean_squared_error")  # fmt: skip
    rmse = errors.mean_scores()  # printed: positive RMSEs, the mean predictor's the larger
    anchors = {d: (rmse.loc[d, "mean"], rmse.loc[d, "ridge"]) for d in data}
    by_value = errors.aggregate(normalize=anchors, n_resamples=20)
    by_model = errors.aggregate(normalize=("mean", "ridge"), n_resamples=20)
    pd.testing.assert_frame_equal(by_value, by_model)
    assert by_value["mean"].to_numpy() == pytest.approx([0.0, 1.0])


def test_normalize_between_given_anchors_is_rliables_definition(result):
    # rliable's colab: score_normalization(scores, min, max) = (scores - min) / (max - min),
    # and aggregate_iqm = scipy.stats.trim_mean(scores, 0.25, axis=None)
    anchors = {"a": (0.5, 0.9), "b": (1 / 3, 1.0)}
    normalized = result.aggregate(normalize=anchors, n_resamples=50)
    for model in result.models:
        pooled = np.concatenate([
            (result.cells[d, model].scores - low) / (high - low)
            for d, (low, high) in anchors.items()
        ])  # fmt: skip
        assert normalized.loc[model, "iqm"] == pytest.approx(stats.trim_mean(pooled, 0.25))
    between = result.aggregate(normalize=("prior", "tree"), n_resamples=50)
    assert (between.loc["prior", "mean"], between.loc["tree", "mean"]) == pytest.approx((0, 1))


@pytest.mark.parametrize(
    "normalize, match",
    [
        ("zscore", "must be None, 'minmax', a pair of models' names"),
        ({"a": (0, 1)}, "a dict of \\(zero, one\\) for every data set"),
        ({"a": (1, 0), "b": (0, 1)}, "data set 'a' the anchors of 'normalize' are 1 \\(0\\) and 0"),
        (("prior", "prior"), "'a' .* \\(1\\); the score that becomes 1 must be the better"),
    ],
)
def test_normalize_refuses_anchors_it_cannot_use(normalize, match, result):
    with pytest.raises(ValueError, match=match):
        result.aggregate(normalize=normalize, n_resamples=10)


def test_minmax_where_every_model_ties_on_a_data_set_says_so():
    # the RMSE of every model is 3.0 on data set 'c': the refusal blamed anchors the user
    # never gave ("the anchors of 'normalize' are 3.0 (0) and 3.0 (1)"); it names the tie
    scores = {("a", "m1"): [-1.0, -1.2], ("a", "m2"): [-2.0, -2.1]}
    scores |= {("c", model): [-3.0, -3.0] for model in ("m1", "m2")}
    result = BenchmarkResult.from_results(
        {key: {"test_scores": values} for key, values in scores.items()},
        metric="neg_root_mean_squared_error",
    )
    with pytest.raises(ValueError, match=r"On data set 'c' every model's mean score is 3\.0: "):
        result.aggregate(normalize="minmax", n_resamples=10)
    # equal but for floating-point rounding (0.15000000000000002 and 0.15), as the table's tie:
    # min-max scaling divided by 3e-17 (an interval of [-7e14, 9e14], review36)
    rounded = {("a", "m1"): [-0.1, -0.12], ("a", "m2"): [-0.2, -0.21]}
    rounded |= {("c", "m1"): [-0.1, -0.2], ("c", "m2"): [-0.15, -0.15]}
    result = BenchmarkResult.from_results(
        {key: {"test_scores": values} for key, values in rounded.items()},
        metric="neg_root_mean_squared_error",
    )
    assert np.mean([0.1, 0.2]) != 0.15
    with pytest.raises(ValueError, match=r"On data set 'c' every model's mean score is 0\.15"):
        result.aggregate(normalize="minmax", n_resamples=10)


def test_a_benchmark_whose_results_record_no_splits_is_read_back(tmp_path):
    # per-fold numbers gathered elsewhere, without their outer splits: save writes no splits
    # for the data set, and load must read the file it wrote
    scores = {"a": [0.8, 0.7, 0.9], "b": [0.6, 0.65, 0.7]}
    result = BenchmarkResult.from_results(
        {("d", model): {"test_scores": values} for model, values in scores.items()}
    )
    loaded = BenchmarkResult.load(result.save(tmp_path / "no_splits.json"))
    for model, values in scores.items():
        np.testing.assert_array_equal(loaded.cells["d", model].scores, values)
        assert loaded.cells["d", model].test_indices is None
