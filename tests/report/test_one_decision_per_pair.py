"""A one-data-set report decides each pair once: the Test performance table's standing against
the best reads the pairwise comparison's Holm family (all the pairs), as its verdict does."""

import warnings

import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.report import nested_cv_report
from sklearn_fair.stats import compare


@pytest.fixture(scope="module")
def three():
    X, y = make_classification(n_samples=200, n_features=8, n_informative=4, random_state=21)
    models = {
        "lr": (LogisticRegression(max_iter=500), {"C": [1.0]}),
        "nb": (GaussianNB(), {"var_smoothing": [1e-9]}),
        "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [3]}),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            name: NestedCV(
                model,
                grid,
                outer_cv=5,
                inner_cv=2,
                n_refits=1,
                refit=False,
                random_state=0,
                scoring="accuracy",
            ).fit(X, y)  # fmt: skip
            for name, (model, grid) in models.items()
        }


def _text(cell):
    return getattr(cell, "text", cell)


def test_the_standing_against_the_best_is_the_pairwise_comparison_s_decision(three):
    table = compare(three).table  # independent: every pair, Holm over the three
    means = {name: result.outer_scores_.mean() for name, result in three.items()}
    best = max(means, key=means.get)
    pairs = {
        frozenset((a, b)): (p, verdict)
        for a, b, p, verdict in zip(
            table["model_a"], table["model_b"], table["pvalue_holm"], table["verdict"]
        )
    }
    # the case that split the two families: lr and nb differ at Holm over 2 tests against
    # the best, not at Holm over the 3 pairs
    keys = map(frozenset, zip(table["model_a"], table["model_b"]))
    raw = dict(zip(keys, table["pvalue"]))
    against = sorted(raw[frozenset((best, m))] for m in three if m != best)
    assert against[0] * 2 <= 0.05 < pairs[frozenset((best, "nb"))][0]

    report = nested_cv_report(three, n_resamples=50)
    section = report.sections()[0]
    columns = [_text(c) for c in section.columns]
    standing = {
        _text(row[columns.index("model")]): _text(row[columns.index("against the data set's best")])
        for row in section.rows
    }
    assert standing[best] == "best"
    for model in three:
        if model == best:
            continue
        p, verdict = pairs[frozenset((model, best))]
        word = "worse" if verdict == f"{best} better" else "not shown worse"
        assert standing[model] == f"{word} (Holm p {p:.2g})"
    assert "Holm's method over all the pairs" in " ".join(section.paragraphs)
    # and the lead sentence says the same of the pairs
    assert report.verdict().startswith("No difference between the 3 pairs")


def test_the_pairwise_comparison_says_its_family_and_that_the_baseline_s_is_another(three):
    # beside a baseline (Holm over the comparisons with it) the pairwise table (Holm over all
    # the pairs) can decide a pair with the baseline otherwise: each says which family it is
    from sklearn_fair import BenchmarkResult

    cells = {("data", name): nested for name, nested in three.items()}
    report = BenchmarkResult.from_results(cells, baseline="nb").report(n_resamples=50)
    sections = {section.title: section for section in report.sections()}
    pairwise = " ".join(sections["Pairwise comparison"].paragraphs)
    assert "Holm's method over the 3 pairs" in pairwise
    assert "The comparison with the baseline nb adjusts over its own family" in pairwise
    baseline = " ".join(sections["Against the baseline nb"].paragraphs)
    assert "across all 2 comparisons" in baseline
