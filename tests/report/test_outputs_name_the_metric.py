"""Every output of one number per model and data set names its metric (hunt PIC): with several
metrics, the selecting one (balanced accuracy, not accuracy); an error with "lower is better".
A raw p-value is printed on the side of the level it is decided at; to_html takes the ``rope``
the report's advice names; a single metric's ``scoring`` is the scoring given."""

import csv
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.cli import main
from sklearn_fair.report import BenchmarkResult, comparison_text, nested_cv_report

CV = StratifiedKFold(5, shuffle=True, random_state=0)
MODELS = {
    "logreg": LogisticRegression(),
    "knn": KNeighborsClassifier(n_neighbors=9),
    "prior": DummyClassifier(),
}


@pytest.fixture(scope="module")
def imbalanced():
    return {
        f"d{i}": make_classification(n_samples=200, weights=[0.8], random_state=i) for i in (0, 1)
    }


@pytest.fixture(scope="module")
def two_metrics(imbalanced):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            MODELS, imbalanced, outer_cv=CV, n_refits=1,
            scoring=["accuracy", "balanced_accuracy"], refit="balanced_accuracy",
            baseline="prior", random_state=0,
        )  # fmt: skip


def test_table_and_to_latex_name_the_selecting_metric_of_several(two_metrics, imbalanced):
    # scikit-learn's balanced accuracy on the same folds: the numbers the table prints
    X, y = imbalanced["d0"]
    folds = cross_validate(LogisticRegression(), X, y, cv=CV, scoring=["balanced_accuracy"])
    balanced = folds["test_balanced_accuracy"]
    accuracy = cross_validate(LogisticRegression(), X, y, cv=CV)["test_score"]
    assert abs(balanced.mean() - accuracy.mean()) > 0.01  # the two metrics print apart
    table = two_metrics.table(mark=False, decimals=3)
    assert table.loc["logreg", "d0"] == f"{balanced.mean():.3f} ± {balanced.std():.3f}"
    assert table.columns.name == "test balanced accuracy"
    assert table.to_string().startswith("test balanced accuracy")
    latex = two_metrics.to_latex(mark=False, decimals=3).splitlines()
    assert latex[1:5] == [
        r"\toprule",
        r" & \multicolumn{2}{c}{test balanced accuracy} \\",
        r"\cmidrule(lr){2-3}",
        r"model & d0 & d1 \\",
    ]


def test_the_papers_table_and_the_ranks_name_the_metric(two_metrics):
    text = two_metrics.report(n_resamples=100).to_text()
    paper = text[text.index("Scores as a paper prints them") :]
    assert "Mean ± std of the test balanced accuracy over the outer folds." in paper
    ranks = text[text.index("Ranks\n=====") :]
    assert "Ranks of the mean test balanced accuracy over 2 data sets (1 is the best)." in ranks


@pytest.fixture(scope="module")
def errors():
    datasets = {f"r{i}": make_regression(n_samples=60, noise=10.0, random_state=i) for i in (0, 1)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(
            {"ridge": Ridge(), "mean": DummyRegressor(),
             "median": DummyRegressor(strategy="median")},
            datasets, outer_cv=3, n_refits=1, scoring="neg_root_mean_squared_error",
            random_state=0,
        )  # fmt: skip


def test_an_error_is_named_with_its_direction(errors):
    assert errors.table().columns.name == "test RMSE (lower is better)"
    text = errors.report(n_resamples=100).to_text()
    assert "Mean ± std of the test RMSE (lower is better) over the outer folds." in text
    assert "Ranks of the mean test RMSE (lower is better) over 2 data sets" in text


def test_a_single_metrics_scoring_is_the_scoring_given(errors):
    report = errors.report(n_resamples=100)
    rows = report.rows
    # not the internal key "score" of a single metric
    assert {row["scoring"] for row in rows} == {"neg_root_mean_squared_error"}
    assert set(report.to_dataframe()["scoring"]) == {"neg_root_mean_squared_error"}
    # the row is still the compared one: ranked, 1 to 3 on each data set, with its optimism
    for dataset in ("r0", "r1"):
        ranks = sorted(row["rank_test"] for row in rows if row["dataset"] == dataset)
        assert ranks == [1, 2, 3]
    assert all(row["selects"] and row["optimism"] is not None for row in rows)


def test_a_single_metric_of_the_estimators_own_score_and_several_keys_keep_their_names(
    two_metrics,
):
    X, y = make_classification(n_samples=60, random_state=0)
    fitted = NestedCV(LogisticRegression(), outer_cv=3, refit=False, random_state=0).fit(X, y)
    (row,) = nested_cv_report({"logreg": fitted}, n_resamples=100).rows
    assert (row["metric"], row["scoring"]) == ("accuracy", "score")
    rows = two_metrics.report(n_resamples=100).rows
    assert {row["scoring"] for row in rows} == {"accuracy", "balanced_accuracy"}


def test_the_runners_outputs_name_the_metric(tmp_path, capsys):
    # breast cancer is 63% / 37%: its accuracy and balanced accuracy differ
    (tmp_path / "e.toml").write_text(
        """\
[experiment]
name = "pic"
random_state = 0
progress = false
output_dir = "out"

[benchmark]
baseline = "prior"

[data.cancer]
dataset = "sklearn:breast_cancer"

[data.wine]
dataset = "sklearn:wine"

[protocol]
outer_cv = 3
n_refits = 1
scoring = ["accuracy", "balanced_accuracy"]
refit = "balanced_accuracy"

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = { max_depth = 2, random_state = 0 }

[models.stump]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = { max_depth = 1, random_state = 0 }

[models.prior]
estimator = "sklearn.dummy.DummyClassifier"
"""
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["run", str(tmp_path / "e.toml")]) == 0
    out = tmp_path / "out"
    caption = "Mean ± std of the test balanced accuracy over the outer folds."
    assert caption in capsys.readouterr().out.splitlines()[0]
    assert (out / "table.md").read_text().startswith(caption)
    assert (
        "Ranks of the mean test balanced accuracy over 2 data sets"
        in (out / "ranks.txt").read_text()
    )

    def read(name):
        with open(out / name, newline="") as file:
            return list(csv.DictReader(file))

    scores = read("scores.csv")
    named = {row["scoring"]: row["metric"] for row in scores}
    assert named == {"accuracy": "accuracy", "balanced_accuracy": "balanced accuracy"}
    comparison = read("comparison.csv")
    assert {row["metric"] for row in comparison} == {"balanced accuracy"}
    # the mean compared is of the scores.csv rows of balanced accuracy, not of accuracy
    tree = next(r for r in comparison if (r["dataset"], r["model"]) == ("cancer", "tree"))
    folds = [
        float(r["score"])
        for r in scores
        if (r["dataset"], r["model"], r["scoring"]) == ("cancer", "tree", "balanced_accuracy")
    ]
    assert float(tree["mean"]) == pytest.approx(np.mean(folds))
    assert {row["metric"] for row in read("aggregate.csv")} == {"balanced accuracy"}


def _folds(scores):
    """A result dict of 5 outer folds of 10 rows each (n_test / n_train = 1 / 4)."""
    return {
        "outer_results": [
            {
                "test_score": s, "test_scores": [s], "validation_score": 0.5, "best_params": {},
                "train_indices": [i for i in range(50) if i // 10 != f],
                "test_indices": list(range(f * 10, (f + 1) * 10)), "fit_time": 1.0,
            }
            for f, s in enumerate(scores)
        ]
    }  # fmt: skip


def _pair_just_above_the_level():
    """Two models' fold scores whose corrected resampled t-test has p = 0.0503, by scipy."""
    z = np.array([-2.0, -1.0, 0.0, 1.0, 2.0]) * 0.01
    scale = np.sqrt(1 / 5 + 10 / 40) * z.std(ddof=1)
    difference = stats.t.isf(0.0503 / 2, 4) * scale  # mean difference of that t
    a = np.full(5, 0.7)
    b = a - (difference + z)
    d = a - b
    t = d.mean() / (np.sqrt(1 / 5 + 10 / 40) * d.std(ddof=1))
    return a, b, 2 * stats.t.sf(abs(t), 4)


def test_a_raw_p_value_just_above_the_level_is_not_printed_as_the_level():
    a, b, p = _pair_just_above_the_level()
    assert 0.05 < p < 0.0505 and f"{p:.2g}" == "0.05"  # two digits would print the level
    shown = f"{p:.3g}"
    results = {"a": _folds(a), "b": _folds(b)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = comparison_text(results)
        assert f"p = {shown}, Holm-adjusted p = {shown}" in text
        assert "difference not demonstrated" in text
        report = nested_cv_report(results, n_resamples=100)
        (pair,) = report.sections()[1].rows
        assert [str(c) for c in pair[4:]] == [shown, shown, "difference not demonstrated"]
        cells = {("data", "a"): _folds(a), ("data", "b"): _folds(b)}
        bench = BenchmarkResult.from_results(cells, baseline="b", metric="accuracy")
        section = next(s for s in bench.report(n_resamples=100).sections() if "baseline" in s.title)
    (row,) = section.rows
    assert [str(c) for c in row[3:5]] == [shown, shown]


def test_to_html_and_save_html_take_the_rope_the_advice_names(tmp_path):
    datasets = {f"r{i}": make_regression(n_samples=60, noise=10.0, random_state=i) for i in (0, 1)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(
            {"ridge": Ridge(), "mean": DummyRegressor()}, datasets, outer_cv=3, n_refits=1,
            scoring="neg_root_mean_squared_error", baseline="mean", random_state=0,
        )  # fmt: skip
        without = result.to_html(plots=False, n_resamples=100)
        assert "to_html(rope=...)" in without and "P(equivalent)" not in without
        page = result.to_html(plots=False, n_resamples=100, rope=5.0)
        saved = result.save_html(tmp_path / "b.html", plots=False, n_resamples=100, rope=5.0)
        reported = result.report(n_resamples=100, rope=5.0).to_html(plots=False)
        student = result.to_html(plots=False, n_resamples=100, interval="t")
        assert student == result.report(n_resamples=100, interval="t").to_html(plots=False)
    assert "No Bayesian comparison" not in page and "P(equivalent)" in page
    assert "better than mean by more than 5 (the region of practical equivalence" in page
    assert page == reported  # the report's, at that rope
    assert saved.read_text(encoding="utf-8") == page
