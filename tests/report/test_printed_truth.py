"""What a report prints is true of the numbers behind it: the mean marked best is visibly
ahead of the means not tied with it, an optimism that is rounding prints as 0, and the card
checks one data set's folds against that data set's labels only."""

import re

import numpy as np
import pytest
from sklearn.model_selection import KFold, StratifiedKFold

from sklearn_fair.report import BenchmarkResult

N = 100
FOLDS = list(KFold(5).split(np.zeros(N)))


def _result(test, validation=None, folds=FOLDS):
    validation = test if validation is None else validation
    return {
        "outer_results": [
            {
                "test_score": float(s),
                "validation_score": float(v),
                "best_params": {"C": 1.0},
                "train_indices": train.tolist(),
                "test_indices": test_rows.tolist(),
            }
            for s, v, (train, test_rows) in zip(test, validation, folds)
        ]
    }


# A's mean is 0.96, B's 0.96004: both "0.9600 ± 0.0063" at the two significant digits of
# their std, though B alone is the best and A is tested against it
A = np.array([0.95, 0.96, 0.97, 0.96, 0.96])
B = np.array([0.9502, 0.96, 0.97, 0.96, 0.96])
C = np.array([0.90, 0.92, 0.93, 0.91, 0.95])


def _near_tie(sign):
    """d1: B best (accuracy) or A best (the negated scores of an error, C's the largest
    errors); d2: no near tie."""
    worst = C if sign > 0 else 2 * 0.96 - C
    cells = {
        ("d1", "A"): _result(sign * A),
        ("d1", "B"): _result(sign * B),
        ("d1", "C"): _result(sign * worst),
        ("d2", "A"): _result(sign * worst),
        ("d2", "B"): _result(sign * A),
        ("d2", "C"): _result(sign * worst),
    }
    metric = "accuracy" if sign > 0 else "neg_mean_absolute_error"
    return BenchmarkResult.from_results(cells, metric=metric)


def _mean(text):
    """The mean of a printed "mean ± std" (marks, LaTeX and Markdown stripped)."""
    return re.search(r"(\d+\.\d+)", str(text)).group(1)


@pytest.mark.parametrize("sign", [1, -1], ids=["score", "error"])
def test_best_mean_prints_apart_from_a_mean_not_tied_with_it(sign):
    result = _near_tie(sign)
    best, other = ("B", "A") if sign > 0 else ("A", "B")
    truth = {"A": float(np.mean(A)), "B": float(np.mean(B))}
    assert truth["A"] != truth["B"]
    table = result.table(n_resamples=200)
    assert table.loc[best, "d1"].startswith("**")
    assert not table.loc[other, "d1"].startswith("**")
    printed = {m: _mean(table.loc[m, "d1"]) for m in "AB"}
    assert printed[best] != printed[other]
    for model, text in printed.items():  # each rounds its true mean
        decimals = len(text.split(".")[1])
        assert abs(float(text) - truth[model]) <= 0.5 * 10**-decimals
    # LaTeX, the report's Test performance and its paper table print the same means
    latex = result.to_latex(n_resamples=200)
    assert f"\\textbf{{{printed[best]} $\\pm$" in latex
    assert f"\\textit{{{printed[other]} $\\pm$" in latex
    markdown = result.report(n_resamples=200).to_markdown()
    rows = {  # Test performance: the rows with a standing against the best
        line.split(" | ")[1]: line
        for line in markdown.splitlines()
        if line.startswith("| d1 | ") and ("best" in line or "worse" in line)
    }
    assert f"| {printed[best]} ± " in rows[best] and "**best**" in rows[best]
    assert f"| {printed[other]} ± " in rows[other] and "not shown worse" in rows[other]
    assert f"| **{printed[best]} ± " in markdown and f"| *{printed[other]} ± " in markdown


def test_small_means_not_tied_print_apart():
    # mean squared errors near 1.2e-5, 1e-10 apart: both printed "1.2346e-05" at any number of
    # decimals, the mantissa's four
    errors = {"A": np.array([1.23456, 1.23458, 1.23454]) * 1e-5}
    errors["B"] = errors["A"] + 1e-10
    cells = {("d", m): _result(-e) for m, e in errors.items()}
    result = BenchmarkResult.from_results(cells, metric="neg_mean_squared_error")
    table = result.table(n_resamples=200)
    assert table.loc["A", "d"].startswith("**") and not table.loc["B", "d"].startswith("**")
    printed = {m: re.search(r"\d\.\d+e-\d+", table.loc[m, "d"]).group() for m in errors}
    assert printed["A"] != printed["B"]
    for model, text in printed.items():  # each its true mean, to the digits it shows
        digits = len(text.split("e")[0].split(".")[1])
        assert abs(float(text) - errors[model].mean()) <= 0.5 * 10 ** (-digits - 5)


def test_tied_means_keep_their_digits():
    cells = {("d1", m): _result(A) for m in "AB"} | {("d1", "C"): _result(C)}
    cells |= {("d2", m): _result(s) for m, s in zip("ABC", (A, B, C))}
    table = BenchmarkResult.from_results(cells, metric="accuracy").table(n_resamples=200)
    # tied A and B on d1: both best, at the std's two significant digits (0.0063)
    assert table.loc["A", "d1"] == table.loc["B", "d1"] == "**0.9600 ± 0.0063**"


def test_optimism_of_means_equal_but_for_rounding_is_zero():
    validation = [0.7, 0.8, 0.9, 0.6, 0.75]
    test = [0.7, 0.9, 0.8, 0.6, 0.75]  # the same scores, summed in another order
    assert np.mean(validation) != np.mean(test)  # rounding: 1.1e-16 apart
    result = BenchmarkResult.from_results(
        {("d1", "A"): _result(test, validation)}, metric="accuracy"
    )
    assert result.cells["d1", "A"].optimism == 0.0
    assert result.selection_summary()["optimism"].tolist() == [0.0]
    row = next(
        line for line in result.report(n_resamples=200).to_markdown().splitlines()
        if line.startswith("| A | accuracy")
    )  # fmt: skip
    optimism = row.split(" | ")[6]
    assert re.fullmatch(r"0\.0+", optimism), row


def test_nested_cv_optimism_of_means_equal_but_for_rounding_is_zero():
    # every fold scores log(1/3) in validation and test; their means differed in the last bit,
    # and optimism_ kept it (2.2e-16) while the report printed 0
    from sklearn.dummy import DummyClassifier

    from sklearn_fair import NestedCV

    X, y = np.zeros((90, 2)), np.repeat([0, 1, 2], 30)
    nested = NestedCV(
        DummyClassifier(strategy="uniform"), {"constant": [None]}, scoring="neg_log_loss",
        outer_cv=3, random_state=0, refit=False,
    ).fit(X, y)  # fmt: skip
    np.testing.assert_allclose(nested.validation_scores_, -np.log(3))
    np.testing.assert_allclose(nested.outer_scores_, -np.log(3))
    assert nested.optimism_ == 0.0


def test_optimism_that_is_not_rounding_is_kept():
    validation, test = [0.8, 0.8, 0.8, 0.8, 0.8], [0.7, 0.8, 0.8, 0.8, 0.8]
    result = BenchmarkResult.from_results(
        {("d1", "A"): _result(test, validation)}, metric="accuracy"
    )
    assert result.cells["d1", "A"].optimism == pytest.approx(0.02)


def _stratified_benchmark():
    """Two data sets of 100 rows, each with StratifiedKFold folds of its own labels."""
    rng = np.random.RandomState(0)
    labels = {
        "d1": np.repeat([0, 1], 50),
        "d2": rng.permutation(np.repeat([0, 1, 2], [40, 30, 30])),
    }
    cells = {}
    for dataset, y in labels.items():
        folds = list(StratifiedKFold(5).split(np.zeros((N, 1)), y))
        for model, scores in (("A", A), ("B", C)):
            cells[dataset, model] = _result(scores, folds=folds)
    return BenchmarkResult.from_results(cells, metric="accuracy"), labels


def _stratified_answer(report):
    return {item: answer for item, answer, _ in report.card.checklist}["stratified splits"]


def test_a_card_of_several_data_sets_refuses_one_data_sets_labels_and_splits_file(tmp_path):
    # the card checked every data set's folds against d1's labels, and credited d1's splits
    # file to the whole benchmark
    from sklearn_fair.model_selection import save_splits
    from sklearn_fair.report import reproducibility_card

    result, labels = _stratified_benchmark()
    folds = StratifiedKFold(5).split(np.zeros((N, 1)), labels["d1"])
    save_splits(folds, tmp_path / "d1.json", y=labels["d1"])
    cells = {f"{d}: {m}": cell for (d, m), cell in result.cells.items()}
    with pytest.raises(ValueError, match="The 'y' parameter of reproducibility_card describes"):
        reproducibility_card(cells, y=labels["d1"])
    with pytest.raises(ValueError, match=r"'splits_file' parameter of report .* are of 2 \('d1'"):
        result.report(n_resamples=200, splits_file=tmp_path / "d1.json")
    one = {name: cell for name, cell in cells.items() if name.startswith("d1")}
    card = reproducibility_card(one, y=labels["d1"], splits_file=tmp_path / "d1.json")
    assert {item: answer for item, answer, _ in card.checklist}["data splits saved"] == "yes"


@pytest.mark.parametrize("given", ["y", "X"])
def test_benchmark_report_refuses_one_data_set_for_several(given):
    result, labels = _stratified_benchmark()
    data = {"y": labels["d1"], "X": np.zeros((N, 2))}
    with pytest.raises(ValueError, match=f"The '{given}' parameter of report describes one"):
        result.report(n_resamples=200, **{given: data[given]})
    # the way the error gives: one data set with its own labels, whose folds are stratified
    for dataset, y in labels.items():
        one = BenchmarkResult(
            {key: cell for key, cell in result.cells.items() if key[0] == dataset},
            baseline=result.baseline,
        )
        assert _stratified_answer(one.report(n_resamples=200, y=y)) == "yes"
    # without data the card says what it cannot check
    assert _stratified_answer(result.report(n_resamples=200)) == "unknown"


# -- per-fold scores of your own, named with a metric they cannot be of ------------------------


@pytest.mark.parametrize(
    ("scores", "metric", "outside"),
    [
        # positive RMSEs named with the scorer that negates them: the table bolded the
        # model of the larger RMSE (a: 11.0 against b's 10.67)
        (
            {"a": [10.0, 12.0, 11.0], "b": [9.0, 13.0, 10.0]},
            "neg_root_mean_squared_error",
            "(-inf, 0]",
        ),
        ({"a": [0.8, 1.2, 0.9], "b": [0.7, 0.75, 0.8]}, "accuracy", "[0, 1]"),
    ],
)
def test_own_scores_outside_their_named_metric_are_refused(scores, metric, outside):
    from sklearn_fair import BenchmarkResult
    from sklearn_fair.exceptions import InvalidResultError

    cells = {("d", m): {"test_scores": s} for m, s in scores.items()}
    with pytest.raises(InvalidResultError, match=re.escape(f"test scores outside {outside}")):
        BenchmarkResult.from_results(cells, metric=metric)
    # negated, as the scorer returns them, they are taken and ranked by the error
    if metric.startswith("neg_"):
        negated = {
            k: {"test_scores": [-v for v in s]}
            for k, s in ((k, c["test_scores"]) for k, c in cells.items())
        }
        means = BenchmarkResult.from_results(negated, metric=metric).mean_scores()
        assert means.loc["d", "b"] == pytest.approx(32 / 3)  # the RMSE, by hand
