"""BenchmarkResult.from_results: ``metric`` names only a metric the results do not record,
and a saved benchmark file is refused with advice."""

import json
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression

from sklearn_fair import BenchmarkResult, NestedCV, benchmark
from sklearn_fair.exceptions import InvalidResultError
from sklearn_fair.report import result_to_dict

X, Y = make_classification(n_samples=90, n_features=5, random_state=0)
OPTIONS = dict(outer_cv=3, inner_cv=2, n_refits=1, random_state=0, refit=False)


def _fit(estimator, grid=None, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(estimator, grid, **{**OPTIONS, **options}).fit(X, Y)


@pytest.fixture(scope="module")
def scored():
    """A logistic regression scored with accuracy, a prior scored with ROC AUC."""
    return (
        _fit(LogisticRegression(), {"C": [0.1, 1.0]}, scoring="accuracy"),
        _fit(DummyClassifier(), scoring="roc_auc"),
    )


def test_metric_does_not_rename_a_recorded_metric(scored):
    accuracy, auc = scored
    cells = {("d", "logit"): result_to_dict(accuracy), ("d", "prior"): result_to_dict(auc)}
    # the reference: results scored with two metrics are refused without metric=
    with pytest.raises(ValueError, match="scored with different metrics"):
        BenchmarkResult.from_results(cells, baseline="prior").compare_to()
    with pytest.raises(ValueError, match="'metric' parameter of BenchmarkResult.from_results "
                       "is 'accuracy', but the result 'prior' of data set 'd' records that it "
                       r"was scored with ROC AUC \(scoring 'roc_auc'\)"):  # fmt: skip
        BenchmarkResult.from_results(cells, baseline="prior", metric="accuracy")


@pytest.mark.parametrize("metric", ["ROC AUC", "roc_auc"])
def test_metric_that_is_the_recorded_one_keeps_it(metric, scored):
    auc = scored[1]
    cells = {("d", "a"): result_to_dict(auc), ("d", "b"): auc}
    result = BenchmarkResult.from_results(cells, metric=metric)
    for cell in result.cells.values():
        assert cell.metric == auc.metrics_["score"]  # its name, scoring and note
        np.testing.assert_array_equal(cell.scores, auc.outer_scores_)


def test_metric_names_the_metric_of_results_that_do_not_record_it(scored):
    accuracy = scored[0]
    cells = {("d", "a"): {"test_scores": [0.8, 0.9, 0.85]}, ("d", "b"): accuracy}
    result = BenchmarkResult.from_results(cells, metric="accuracy")
    assert result.cells["d", "a"].metric.name == "accuracy"
    assert result.cells["d", "b"].metric == accuracy.metrics_["score"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no splits recorded: no italics
        assert result.table().shape == (2, 1)  # one metric on the data set


def test_a_saved_benchmark_file_is_refused_with_advice(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        saved = benchmark({"prior": DummyClassifier(), "logit": LogisticRegression()},
                          {"d": (X, Y)}, outer_cv=3, n_refits=1, random_state=0)  # fmt: skip
    path = saved.save(tmp_path / "bench.json")
    with pytest.raises(InvalidResultError, match=f"The result file {path} is a saved benchmark"):
        BenchmarkResult.from_results({("d", "x"): path, ("d", "y"): path})
    document = BenchmarkResult.load(path)  # the reference: it reads as a benchmark
    assert document.models == ["prior", "logit"]
    content = json.loads(path.read_text())
    with pytest.raises(InvalidResultError, match="read it with BenchmarkResult.load"):
        BenchmarkResult.from_results({("d", "x"): content, ("d", "y"): content})


def test_an_error_named_for_results_that_do_not_record_their_metric_is_read_as_an_error():
    # the user's own per-fold RMSEs: the printed name "RMSE" was read as higher-is-better, so
    # the largest error was bolded as the best and ranked first
    rmse = {"good": [1.0, 1.02, 0.98], "mid": [1.2, 1.22, 1.18], "bad": [1.5, 1.52, 1.48]}
    cells = {
        (d, m): {"test_scores": list(np.add(v, shift))}
        for d, shift in (("d1", 0.0), ("d2", 0.01))
        for m, v in rmse.items()
    }
    with pytest.raises(ValueError, match="metric='neg_root_mean_squared_error'"):
        BenchmarkResult.from_results(cells, metric="RMSE")
    # and in the other names users give an error: each was read as higher-is-better, the
    # largest error bolded as the best
    for name, scorer in [
        ("rmse", "metric='neg_root_mean_squared_error'"),
        ("root_mean_squared_error", "metric='neg_root_mean_squared_error'"),
        ("mae", "metric='neg_mean_absolute_error'"),
        ("log_loss", "metric='neg_log_loss'"),
        ("brier_score_loss", "metric='neg_brier_score'"),
        ("Mean Squared Error", "metric='neg_mean_squared_error'"),
        ("log-loss", "metric='neg_log_loss'"),
        ("nll", "metric='neg_log_loss'"),
        ("hinge_loss", "a scorer of yours that negates it"),
        ("error rate", "a scorer of yours that negates it"),
    ]:
        with pytest.raises(ValueError, match=f"an error .*, {scorer}, with the scores"):
            BenchmarkResult.from_results(cells, metric=name)
    # a D² score of an error is higher-is-better: taken as it is
    scored = BenchmarkResult.from_results(cells, metric="D2 log loss")
    assert scored.cells["d1", "good"].metric.sign == 1
    negated = {key: {"test_scores": list(-np.array(c["test_scores"]))} for key, c in cells.items()}
    result = BenchmarkResult.from_results(negated, metric="neg_root_mean_squared_error")
    assert result.rank_comparison().average_ranks == {"good": 1.0, "mid": 2.0, "bad": 3.0}
    table = result.table(mark=True)
    assert table.loc["good", "d1"] == "**1.000 ± 0.016**"  # printed as the positive RMSE
    assert not table.loc["bad", "d1"].startswith("**")


def test_a_runner_file_keyed_as_another_cell_is_refused(tmp_path):
    # the runner's models/<name>.json records its data set and model; given under another key
    # (two files swapped) its scores became the other model's, silently
    fitted = {"prior": _fit(DummyClassifier()), "lr": _fit(LogisticRegression(), {"C": [1.0]})}
    paths = {}
    for name, nested in fitted.items():
        document = {
            "format": "sklearn-fair-experiment-model",
            "version": 1,
            "dataset": "d",
            "name": name,
            "result": result_to_dict(nested),
        }
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(document))
    right = BenchmarkResult.from_results({("d", m): paths[m] for m in fitted})
    assert right.cells["d", "lr"].scores.tolist() == fitted["lr"].outer_scores_.tolist()
    with pytest.raises(InvalidResultError, match="records model 'lr' on data set 'd', but is g"):
        BenchmarkResult.from_results({("d", "prior"): paths["lr"], ("d", "lr"): paths["prior"]})
    # keyed in a spelling of the user's (another data set name, capitals), none another's key:
    # taken, as the documented reading of the paper's files (which record no data set) is
    renamed = BenchmarkResult.from_results({("e", "LR"): paths["lr"], ("e", "P"): paths["prior"]})
    assert renamed.cells["e", "LR"].scores.tolist() == fitted["lr"].outer_scores_.tolist()
