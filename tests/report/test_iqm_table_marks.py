"""``BenchmarkResult.table(statistic="iqm")`` marks the number it prints: bold is the best IQM
(in the metric's direction), the decimals print that best apart, and the italics, which come
from the corrected t-tests of the mean test scores (no test of the IQM is made), say so in the
table's ``columns.name`` (hunt GUIDE: the table bolded the best *mean*, knn's IQM of 0.9619,
above logistic's 0.9678)."""

from itertools import combinations

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from sklearn_fair import BenchmarkResult

N_ROWS = 20  # test rows of each outer fold

# on "d": steady has the best mean (0.835), spiky the best IQM (0.860) through one bad fold;
# close is not shown worse than steady, bad is
SCORES = {
    "steady": [0.80, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87],
    "spiky": [0.50, 0.86, 0.86, 0.87, 0.85, 0.86, 0.86, 0.86],
    "close": [0.80, 0.78, 0.83, 0.82, 0.80, 0.86, 0.84, 0.86],
    "bad": [0.60, 0.61, 0.62, 0.63, 0.64, 0.65, 0.66, 0.67],
}


def _folds(scores):
    """Saved results with one outer fold of N_ROWS test rows per score, sharing their splits."""
    n = len(scores) * N_ROWS
    return {
        "outer_results": [
            {
                "test_score": s,
                "test_scores": [s],
                "validation_score": s,
                "best_params": {},
                "train_indices": [i for i in range(n) if i // N_ROWS != f],
                "test_indices": list(range(f * N_ROWS, (f + 1) * N_ROWS)),
                "fit_time": 1.0,
            }
            for f, s in enumerate(scores)
        ]
    }


def _benchmark(scores, metric="accuracy"):
    return BenchmarkResult.from_results(
        {("d", model): _folds(s) for model, s in scores.items()}, metric=metric
    )


def _marks(column):
    """model -> "bold", "italics" or None, read from the table's cells."""
    return {
        model: "bold" if text.startswith("**") else "italics" if text.startswith("*") else None
        for model, text in column.items()
    }


def _not_shown_worse(scores, best):
    """The models whose corrected resampled t-test (Nadeau & Bengio) against ``best``,
    Holm-adjusted over every pair of models, does not reject at 0.05: by hand."""
    k = len(scores[best])
    n_train, n_test = (k - 1) * N_ROWS, N_ROWS
    pairs = list(combinations(scores, 2))
    pvalues = []
    for a, b in pairs:
        d = np.asarray(scores[a]) - np.asarray(scores[b])
        t = d.mean() / np.sqrt((1 / k + n_test / n_train) * d.var(ddof=1))
        pvalues.append(2 * stats.t.sf(abs(t), k - 1))
    adjusted = dict(zip(pairs, multipletests(pvalues, method="holm")[1]))
    return {m for (a, b), p in adjusted.items() if best in (a, b) and p > 0.05 for m in (a, b)} - {
        best
    }


def test_the_iqm_table_bolds_the_best_iqm_and_italicises_by_the_tests_of_the_means():
    result = _benchmark(SCORES)
    iqms = {m: stats.trim_mean(s, 0.25) for m, s in SCORES.items()}
    means = {m: np.mean(s) for m, s in SCORES.items()}
    assert max(iqms, key=iqms.get) == "spiky" and max(means, key=means.get) == "steady"
    table = result.table(statistic="iqm", n_resamples=500)
    column = table["d"]
    for model, text in column.items():  # the IQM printed is scipy's
        assert text.strip("*").startswith(f"{iqms[model]:.3f} [")
    italics = _not_shown_worse(SCORES, "steady") | {"steady"}  # the best mean, not worse
    assert italics == {"steady", "spiky", "close"}
    assert _marks(column) == {"spiky": "bold", "steady": "italics", "close": "italics",
                              "bad": None}  # fmt: skip
    assert table.columns.name == (
        "test accuracy; bold: the best IQM, italics: mean not shown worse than the best mean"
    )
    # the table of means marks the best mean, and names only its metric
    means_table = result.table()
    assert _marks(means_table["d"]) == {"steady": "bold", "spiky": "italics",
                                        "close": "italics", "bad": None}  # fmt: skip
    assert means_table.columns.name == "test accuracy"
    assert result.table(statistic="iqm", mark=False, n_resamples=500).columns.name == (
        "test accuracy"
    )


def test_to_latex_marks_the_iqm_table_alike():
    latex = _benchmark(SCORES).to_latex(statistic="iqm", n_resamples=500)
    rows = {line.split(" & ")[0]: line for line in latex.splitlines() if " & " in line}
    assert r"\textbf{0.860" in rows["spiky"] and r"\textit{0.835" in rows["steady"]
    assert "bold: the best IQM, italics: mean not shown worse than the best mean" in latex


def test_for_an_error_the_best_iqm_is_the_lowest():
    # RMSEs: steady has the lowest mean error, spiky the lowest IQM of its errors
    errors = {m: [1 - s for s in scores] for m, scores in SCORES.items()}
    result = _benchmark({m: [-e for e in v] for m, v in errors.items()},
                        metric="neg_root_mean_squared_error")  # fmt: skip
    table = result.table(statistic="iqm", n_resamples=500)
    column = table["d"]
    assert column["spiky"].startswith(f"**{stats.trim_mean(errors['spiky'], 0.25):.3f} [")
    assert _marks(column) == {"spiky": "bold", "steady": "italics", "close": "italics",
                              "bad": None}  # fmt: skip
    assert table.columns.name.startswith("test RMSE (lower is better); bold: the best IQM")


def test_the_decimals_print_the_best_iqm_apart():
    # IQMs 0.8604 and 0.8601 (means 0.8577 and 0.8325): three decimals print both 0.860
    scores = {
        "x": [0.80, 0.81, 0.8604, 0.8604, 0.8604, 0.8604, 0.90, 0.91],
        "y": [0.70, 0.75, 0.8601, 0.8601, 0.8601, 0.8601, 0.88, 0.89],
    }
    table = _benchmark(scores).table(statistic="iqm", n_resamples=500)
    x, y = (stats.trim_mean(scores[m], 0.25) for m in "xy")
    assert table.loc["x", "d"].startswith(f"**{x:.4f} [") and f"{x:.4f}" == "0.8604"
    assert table.loc["y", "d"].strip("*").startswith(f"{y:.4f} [") and f"{y:.4f}" == "0.8601"


@pytest.mark.parametrize("statistic", ["mean", "iqm"])
def test_without_tests_the_iqm_table_has_no_italics(statistic):
    # results without their outer splits: no paired test, so no italics (not even the best
    # mean's, beside a bold best IQM), as the warning says
    cells = {("d", m): {"test_scores": s} for m, s in SCORES.items()}
    result = BenchmarkResult.from_results(cells, metric="accuracy")
    with pytest.warns(UserWarning, match="no paired test ran"):
        column = result.table(statistic=statistic, n_resamples=500)["d"]
    best = "spiky" if statistic == "iqm" else "steady"
    assert _marks(column) == {m: "bold" if m == best else None for m in SCORES}
