"""Results read back are checked against what their writer guaranteed (issue 38)."""

import copy
import json
import os
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_regression
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import BenchmarkResult, NestedCV
from sklearn_fair.exceptions import (
    InvalidResultError,
    SplitLeakageWarning,
    UncheckedResultWarning,
)
from sklearn_fair.experiment import run_experiment
from sklearn_fair.experiment._running._resultfile import checksum as runner_checksum
from sklearn_fair.report import (
    _artefact,
    comparison_text,
    nested_cv_report,
    plot_fold_scores,
    reproducibility_card,
    result_to_dict,
)
from sklearn_fair.report._integrity import checksum, verify_result, with_checksum

EXPERIMENT = """
[experiment]
output_dir = "out"
random_state = 0
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 2

[models.prior]
estimator = "sklearn.dummy.DummyClassifier"

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = { random_state = 0 }
grid = { max_depth = [1, 3] }
"""


@pytest.fixture(scope="module")
def runner_files(tmp_path_factory):
    """The experiment runner's models/<name>.json of a DummyClassifier and a tree on iris."""
    folder = tmp_path_factory.mktemp("iris")
    (folder / "iris.toml").write_text(EXPERIMENT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # edge-of-grid notes of the two-value grid
        run_experiment(folder / "iris.toml")
    return {m: folder / "out" / "models" / f"{m}.json" for m in ("prior", "tree")}


def _documents(files):
    return {("iris", m): json.loads(path.read_text()) for m, path in files.items()}


def _edited(document):
    """The runner's file with every outer test score set to 0.999, its checksum left."""
    document = copy.deepcopy(document)
    for fold in document["result"]["outer_results"]:
        fold["test_score"] = 0.999
    return document


def test_runner_files_are_read_without_a_warning_and_their_checksum_is_the_runners(runner_files):
    documents = _documents(runner_files)
    for document in documents.values():  # one checksum rule for the runner and the report
        assert document["checksum"] == runner_checksum(document) == checksum(document)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = BenchmarkResult.from_results(documents).table(scale=100, decimals=1)
    assert table.loc["tree", "iris"].startswith("**9")


def test_an_edited_runner_file_is_refused_naming_it_and_its_checksum(runner_files):
    documents = _documents(runner_files)
    documents["iris", "tree"] = _edited(documents["iris", "tree"])
    with pytest.raises(InvalidResultError) as error:
        BenchmarkResult.from_results(documents)
    message = str(error.value)
    assert message.startswith("The result 'tree' of data set 'iris' is refused")
    assert "does not match its checksum (it records 'sha256:" in message
    # the fold's score is no longer the mean of its refits' scores either
    assert "fold 0's test score 0.999 is not the mean of its refits' test scores" in message


def test_an_edited_file_given_by_path_is_refused_naming_the_file(runner_files, tmp_path):
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(_edited(json.loads(runner_files["tree"].read_text()))))
    with pytest.raises(InvalidResultError, match=f"The result file {path} is refused: does not "):
        BenchmarkResult.from_results({("iris", "prior"): runner_files["prior"],
                                      ("iris", "tree"): path})  # fmt: skip


def test_verify_warn_reads_an_edited_file_with_a_warning_that_names_it(runner_files):
    documents = _documents(runner_files)
    documents["iris", "tree"] = _edited(documents["iris", "tree"])
    with pytest.warns(UncheckedResultWarning, match="'tree' of data set 'iris' fails its checks: "
                      "does not match its checksum") as caught:  # fmt: skip
        bench = BenchmarkResult.from_results(documents, verify="warn")
        table = bench.table(scale=100, decimals=1)
    assert len(caught) == 1 and "read anyway because verify='warn'" in str(caught[0].message)
    assert table.loc["tree", "iris"] == "**99.9 ± 0.0**"


def test_a_forger_who_recomputes_the_checksum_is_caught_by_the_refits(runner_files):
    # the checksum catches edits, not a forger; the fold's refits still disagree
    document = _edited(json.loads(runner_files["tree"].read_text()))
    document["result"] = with_checksum(document["result"])
    document = with_checksum(document)
    with pytest.raises(InvalidResultError, match="is not the mean of its refits' test scores"):
        BenchmarkResult.from_results({("iris", "tree"): document})


def test_scores_outside_their_metrics_range_are_refused(runner_files):
    document = json.loads(runner_files["tree"].read_text())
    result = document["result"]
    for fold in result["outer_results"]:
        fold["test_scores"] = fold["test_scores_per_metric"]["score"] = [1.5, 1.5]
        fold["test_score"] = 1.5
    result.update(score_mean=1.5, score_std=0.0)
    document["result"] = with_checksum(result)
    with pytest.raises(
        InvalidResultError, match=r": 1.5 is outside \[0, 1\], the range of accuracy"
    ):
        BenchmarkResult.from_results({("iris", "tree"): with_checksum(document)})


@pytest.mark.parametrize("value", [10**400, -(10**400)], ids=["huge int", "huge negative int"])
def test_an_integer_score_no_float_holds_is_refused_naming_the_file(runner_files, value):
    # JSON reads 1e400 as inf, but 10**400 as an int that float() refuses (OverflowError)
    document = json.loads(runner_files["tree"].read_text())
    document["result"]["outer_results"][0]["test_score"] = value
    document["result"] = with_checksum(document["result"])
    with pytest.raises(InvalidResultError, match="fold 0's test score: .* is not a list of"):
        BenchmarkResult.from_results({("iris", "tree"): with_checksum(document)})


def test_a_negated_error_above_zero_is_refused():
    X, y = make_regression(n_samples=40, n_features=3, noise=5.0, random_state=0)
    nested = NestedCV(Ridge(), {"alpha": [0.1, 1.0]}, outer_cv=3,
                      scoring="neg_root_mean_squared_error", random_state=0).fit(X, y)  # fmt: skip
    saved = result_to_dict(nested)
    verify_result(saved, source="ridge")  # sound as written
    fold = saved["outer_results"][0]
    fold["test_score"] = fold["validation_score"] = -fold["test_score"]  # a positive "score"
    fold["test_scores"] = fold["test_scores_per_metric"]["score"] = [fold["test_score"]] * 3
    saved = with_checksum({k: v for k, v in saved.items() if k not in ("score_mean", "score_std")})
    with pytest.raises(
        InvalidResultError, match=r": 5.89\d+ is outside \(-inf, 0\], the range of RMSE's scores"
    ):
        nested_cv_report({"ridge": saved})


@pytest.mark.parametrize(
    "reader",
    [nested_cv_report, reproducibility_card, comparison_text, plot_fold_scores],
    ids=["report", "card", "comparison_text", "plot"],
)
def test_every_reader_of_saved_dicts_refuses_an_edited_one(reader, runner_files):
    saved = {m: json.loads(path.read_text())["result"] for m, path in runner_files.items()}
    saved["tree"]["outer_results"][1]["test_score"] = 0.999
    with pytest.raises(InvalidResultError, match="'tree' of data set 'data' is refused: does not"):
        reader(saved)


def test_a_result_without_a_checksum_is_read_with_a_warning(runner_files):
    # an older format: the runner's file and result_to_dict's before they carried a checksum
    documents = _documents(runner_files)
    for document in documents.values():
        del document["checksum"]
        del document["result"]["checksum"]
        document["result"]["version"] = 2
    with pytest.warns(UncheckedResultWarning) as caught:
        bench = BenchmarkResult.from_results(documents)
    assert sorted(str(w.message) for w in caught) == [
        f"The result '{m}' of data set 'iris' has no checksum (it was written before "
        "sklearn-fair wrote one), so an edit or damage cannot be detected; it is read unchecked."
        for m in ("prior", "tree")
    ]
    assert bench.models == ["prior", "tree"]


def test_a_saved_result_stripped_of_its_format_and_checksum_is_read_with_a_warning(
    runner_files, tmp_path
):
    # without "format", "version" and "checksum" a file passed for the caller's own numbers:
    # every score set to 1.0 was read without a word
    document = _documents(runner_files)["iris", "tree"]["result"]
    for key in ("format", "version", "checksum"):
        del document[key]
    for fold in document["outer_results"]:
        fold["test_score"], fold["test_scores"] = 1.0, [1.0]
        fold["test_scores_per_metric"] = {k: [1.0] for k in fold["test_scores_per_metric"]}
    document["score_mean"], document["score_std"] = 1.0, 0.0
    path = tmp_path / "stripped.json"
    path.write_text(json.dumps(document))
    with pytest.warns(UncheckedResultWarning, match="has no format and no checksum"):
        bench = BenchmarkResult.from_results({("iris", "tree"): path})
    assert list(bench.cells["iris", "tree"].scores) == [1.0, 1.0, 1.0]
    with warnings.catch_warnings():  # the same dict kept in memory: the caller's own
        warnings.simplefilter("error", UncheckedResultWarning)
        BenchmarkResult.from_results({("iris", "tree"): document})


@pytest.mark.parametrize("said", [True, "true", 1, "yes"])
def test_a_saved_cell_that_says_its_scores_are_the_callers_own_in_any_way_is_read_as_such(
    said, runner_files
):
    # only JSON true was read as the caller's own: "true", 1 or "yes" made the card answer
    # "yes, sklearn_fair.NestedCV" for scores whose file says nothing checked how they came
    result = json.loads(runner_files["tree"].read_text())["result"]
    result["own_scores"] = said
    bench = BenchmarkResult.from_results({("iris", "tree"): with_checksum(result)})
    assert bench.cells["iris", "tree"].own_scores is True
    card = reproducibility_card({"tree": with_checksum(result)}).to_markdown()
    assert "per-fold scores given by the caller" in card


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda r: r.pop("checksum"), "has no checksum, although version 3 always carries one"),
        (lambda r: r.update(version=4), "is version 4 of 'sklearn-fair-result', newer than"),
        (lambda r: r.update(score_mean=0.5), "records score_mean 0.5 but its folds' test "),
    ],
    ids=["version 3 without checksum", "newer version", "inconsistent mean"],
)
def test_checks_that_fail_are_refused_or_read_with_a_warning_on_request(edit, match, runner_files):
    result = json.loads(runner_files["tree"].read_text())["result"]
    edit(result)
    if "checksum" in result:
        result = with_checksum(result)
    with pytest.raises(InvalidResultError, match=match):
        BenchmarkResult.from_results({("iris", "tree"): result})
    with pytest.warns(UncheckedResultWarning, match=match):
        BenchmarkResult.from_results({("iris", "tree"): result}, verify="warn")


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda r: r.update(format="pickle"), "is of format 'pickle', not one sklearn-fair"),
        (
            lambda r: r["outer_results"][0].update(test_score="0.9"),
            "fold 0's test score: \\['0.9'\\] is not a",
        ),
        (lambda r: r["outer_results"][0].update(test_indices=[-1]), "test_indices are not non-n"),
        (lambda r: r["metrics"]["score"].update(sign=2), "describes metric 'score' in other fi"),
        (lambda r: r.update(outer_results={}), "'outer_results' that are not a list of objects"),
    ],
)
def test_what_cannot_be_read_is_refused_even_with_verify_warn(edit, match, runner_files):
    result = json.loads(runner_files["tree"].read_text())["result"]
    edit(result)
    with pytest.raises(InvalidResultError, match=f"cannot be read: .*{match}"):
        BenchmarkResult.from_results({("iris", "tree"): with_checksum(result)}, verify="warn")


def test_the_callers_own_numbers_are_checked_for_types_only():
    own = {("d", "a"): {"test_scores": [0.5, 0.7, 0.6]}, ("d", "b"): {"test_scores": [2, 3, 4]}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no checksum expected, none asked for
        assert BenchmarkResult.from_results(own).mean_scores().loc["d", "b"] == 3.0
    with pytest.raises(
        InvalidResultError, match="'test_scores': \\[0.5, 'high'\\] is not a list of numbers"
    ):
        BenchmarkResult.from_results({("d", "a"): {"test_scores": [0.5, "high"]}})
    with pytest.raises(ValueError, match="'verify' parameter must be one of"):
        BenchmarkResult.from_results(own, verify=True)


def test_result_files_are_read_within_bounds(tmp_path, runner_files, monkeypatch):
    def read(path):
        return BenchmarkResult.from_results({("iris", "tree"): path})

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100 + "]" * 100)
    with pytest.raises(InvalidResultError, match=f"{deep} nests JSON .* more than 32 levels"):
        read(deep)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # refused before it is opened: reading it would block
    with pytest.raises(InvalidResultError, match=f"{fifo} is not a regular file"):
        read(fifo)
    monkeypatch.setattr(_artefact, "MAX_BYTES", 1000)
    with pytest.raises(InvalidResultError, match="is larger than max_bytes=1000"):
        read(runner_files["tree"])


class _RefitFailsWithRowZero(DecisionTreeClassifier):
    """Fails the refits (100 rows of iris) whose training rows hold iris's row 0."""

    def fit(self, X, y, sample_weight=None):
        if len(X) == 100 and np.any(np.all(X == [5.1, 3.5, 1.4, 0.2], axis=1)):
            raise ValueError("a refit that fails")
        return super().fit(X, y, sample_weight=sample_weight)


def test_a_numeric_error_score_outside_the_range_is_read_back(tmp_path):
    # failed refits scored error_score=-1.0, below accuracy's range: the untouched result
    # and the benchmark's own file were refused as edited
    from sklearn.datasets import load_iris
    from sklearn.model_selection import StratifiedKFold

    from sklearn_fair import benchmark

    X, y = load_iris(return_X_y=True)
    options = dict(outer_cv=StratifiedKFold(3), n_refits=1, random_state=0, error_score=-1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            _RefitFailsWithRowZero(), {"max_depth": [1, 3]}, refit=False, **options
        ).fit(X, y)
        assert list(nested.outer_scores_).count(-1.0) == 2
        verify_result(json.loads(json.dumps(result_to_dict(nested))), source="as written")
        result = benchmark({"m": (_RefitFailsWithRowZero(), {"max_depth": [1, 3]})},
                           {"iris": (X, y)}, **options)  # fmt: skip
    path = result.save(tmp_path / "benchmark.json")
    loaded = BenchmarkResult.load(path)
    cell = loaded.cells["iris", "m"]
    # read back as recorded, and the folds scored error_score read as failed
    assert list(cell.scores_per_metric["score"]) == list(nested.outer_scores_)
    assert cell.n_failed_folds() == 2 and np.isnan(cell.scores).sum() == 2
    edited = json.loads(json.dumps(result_to_dict(nested)))
    edited["outer_results"][0]["test_scores"] = [-0.5]  # not the error_score: refused
    edited["checksum"] = checksum(edited)
    with pytest.raises(InvalidResultError, match="outside"):
        verify_result(edited, source="edited")


def _fold_zero(result, **fields):
    result["outer_results"][0].update(fields)
    return with_checksum(result)


def test_outer_splits_are_checked_as_a_run_checks_them(runner_files):
    # a file's splits were only checked to be non-negative integers: a training set holding
    # its own test rows was read without a word, and its size entered the corrected t
    result = json.loads(runner_files["tree"].read_text())["result"]
    fold = result["outer_results"][0]
    train, test = fold["train_indices"], fold["test_indices"]
    assert train and test and not set(train) & set(test)

    def read(document, verify="raise"):
        return BenchmarkResult.from_results({("iris", "tree"): document}, verify=verify)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read(with_checksum(copy.deepcopy(result)))
    leaking = _fold_zero(copy.deepcopy(result), train_indices=sorted(set(train) | set(test)))
    with pytest.warns(SplitLeakageWarning, match=f"fold 0's {len(test)} of its {len(test)} test"):
        read(leaking)
    for fields, match in (
        ({"test_indices": test + test[:1]}, "fold 0's test indices list a row more than once"),
        ({"test_indices": []}, "fold 0's test set is empty"),
        ({"train_indices": []}, "fold 0's training set is empty"),
    ):
        with pytest.raises(InvalidResultError, match=f"is refused: .*{match}"):
            read(_fold_zero(copy.deepcopy(result), **fields))
    with pytest.raises(InvalidResultError, match="cannot be read: .*beyond any data set's rows"):
        read(_fold_zero(copy.deepcopy(result), test_indices=[2**70]), verify="warn")
