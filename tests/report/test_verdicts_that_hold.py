"""The report's verdict, captions and card say no more than their statistics: where no test
ran, and why; the data sets that were tested; the metrics that differ; the scores that no
NestedCV computed."""

import copy
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

from sklearn_fair import NestedCV
from sklearn_fair.report import BenchmarkResult, reproducibility_card, result_to_dict
from sklearn_fair.utils._provenance import with_checksum

X, y = make_classification(100, random_state=0)
A = [0.80, 0.85, 0.82, 0.88, 0.84]
B = [0.70, 0.72, 0.71, 0.69, 0.70]


def _nadeau_bengio_p(a, b, n_train, n_test):
    """The corrected resampled t-test's two-sided p (Nadeau and Bengio), by hand."""
    d = np.asarray(a) - np.asarray(b)
    k = d.size
    se = np.sqrt((1 / k + n_test / n_train) * d.var(ddof=1))
    return 2 * stats.t.sf(abs(d.mean() / se), k - 1)


@pytest.fixture(scope="module")
def templates():
    """A saved 5-fold NestedCV result per scoring (80 rows to train, 20 to test per fold)."""
    return {
        scoring: result_to_dict(
            NestedCV(
                LogisticRegression(),
                {"C": [0.1, 1.0]},
                outer_cv=KFold(5),
                inner_cv=3,
                refit=False,
                random_state=0,
                scoring=scoring,
            ).fit(X, y)
        )  # fmt: skip
        for scoring in ("accuracy", "balanced_accuracy")
    }


def _saved(template, scores, permutation=None):
    """``template`` with its fold scores replaced by ``scores`` (and its rows renamed by
    ``permutation``: other outer splits), checksummed again."""
    result = copy.deepcopy(template)
    result.pop("checksum")
    for fold, score in zip(result["outer_results"], scores):
        fold["test_score"] = score
        fold["test_scores"] = [score] * len(fold["test_scores"])
        fold["test_scores_per_metric"] = {
            key: [score] * len(fold["test_scores"]) for key in fold["test_scores_per_metric"]
        }
        fold["validation_score"] = score + 0.01
        if permutation is not None:
            for key in ("train_indices", "test_indices"):
                fold[key] = sorted(int(permutation[i]) for i in fold[key])
    result["score_mean"], result["score_std"] = float(np.mean(scores)), float(np.std(scores))
    result["optimism"] = 0.01
    return with_checksum(result)


@pytest.fixture(scope="module")
def split_apart(templates):
    """a and b share their outer splits on d1, not on d0."""
    template = templates["accuracy"]
    other = np.random.default_rng(1).permutation(len(y))
    return BenchmarkResult.from_results(
        {
            ("d0", "a"): _saved(template, A),
            ("d0", "b"): _saved(template, B, other),
            ("d1", "a"): _saved(template, A),
            ("d1", "b"): _saved(template, B),
        }
    )


def test_the_verdict_names_the_data_sets_tested_and_why_the_others_are_not(split_apart):
    p = _nadeau_bengio_p(A, B, 80, 20)  # one pair per data set: Holm leaves it as it is
    assert p == pytest.approx(0.00469, abs=5e-5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = split_apart.report()
        text = report.to_text()
    verdict = report.verdict()
    assert "b on d1" in verdict  # tested on d1, and worse there (p <= 0.05)
    assert "no difference is tested on d0 (the outer splits of a and b differ)" in verdict
    assert "do not record" not in verdict and "b on d0" not in verdict
    rows = {tuple(line.split()[:2]): line for line in text.splitlines() if " accuracy " in line}
    assert rows["d1", "b"].endswith(f"worse (Holm p {p:.2g})")
    assert rows["d0", "b"].endswith("not tested (the outer splits of a and b differ)")
    # the paper table: italics explained, and where they cannot be
    assert (
        "No test ran on d0 (the outer splits of a and b differ): no model there is in italics"
        in text
    )


def test_a_caption_has_no_italics_where_no_test_ran():
    results = {}
    for dataset in ("d0", "d1"):
        results[dataset, "a"] = {"test_scores": A}
        results[dataset, "b"] = {"test_scores": B}
        results[dataset, "c"] = {"test_scores": [0.79, 0.86, 0.80, 0.87, 0.83]}
    benchmark = BenchmarkResult.from_results(results, metric="accuracy")
    assert not any(cell.has_splits for cell in benchmark.cells.values())  # no paired test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = benchmark.report()
        text = report.to_text()
    caption = text[text.index("Scores as a paper") :].splitlines()[2]
    assert caption.startswith("Mean ± std of the test accuracy over the outer folds. Bold:")
    assert "italics" not in caption
    assert "No test against it ran on d0 and d1 (the results do not record their outer" in caption
    assert report.verdict().endswith(
        "no difference is tested on d0 and d1 (the results do not record their outer splits)."
    )


@pytest.mark.parametrize(
    "datasets, baseline", [(("d0",), "b"), (("d0", "d1"), None), (("d0", "d1"), "b")]
)
def test_models_scored_with_different_metrics_get_a_sentence_not_an_error(
    templates, datasets, baseline
):
    results = {}
    for dataset in datasets:  # on d0 b is scored with balanced accuracy, on d1 with accuracy
        other = "balanced_accuracy" if dataset == "d0" else "accuracy"
        results[dataset, "a"] = _saved(templates["accuracy"], A)
        results[dataset, "b"] = _saved(templates[other], B)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = BenchmarkResult.from_results(results, baseline=baseline).report()
        text = report.to_text()
    verdict = (
        "No verdict: the models were scored with different metrics on d0 (a: accuracy, b: "
        "balanced accuracy); a comparison needs one metric per data set."
    )
    assert report.verdict() == verdict
    assert verdict in text


class _FailsWithoutRowZero(LogisticRegression):
    """Fails its refit on an outer training set of 80 rows without X's first row (fold 0 of
    KFold(5)); the inner fits are smaller and succeed."""

    def fit(self, X, y, **fit_params):
        if X.shape[0] == 80 and not np.any(np.all(X == _D1[0][0], axis=1)):
            raise RuntimeError("fails on purpose")
        return super().fit(X, y, **fit_params)


_D1 = make_classification(100, random_state=1)


def test_the_baseline_verdict_counts_only_the_data_sets_tested():
    cells = {}
    for dataset, (X_, y_) in {"d0": (X, y), "d1": _D1}.items():
        base = _FailsWithoutRowZero(C=1e-4) if dataset == "d1" else LogisticRegression(C=1e-4)
        for name, model in [("base", base), ("lr", LogisticRegression()),
                            ("lr2", LogisticRegression(C=0.5))]:  # fmt: skip
            cells[dataset, name] = NestedCV(
                model, {}, outer_cv=KFold(5), inner_cv=3, refit=False, random_state=0
            ).fit(X_, y_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        benchmark = BenchmarkResult.from_results(cells, baseline="base")
        verdict = benchmark.report().verdict()
    assert np.isnan(cells["d1", "base"].outer_results_[0]["test_score"])  # d1: untestable
    # d0 by hand: two tests, Holm over them, neither at most 0.05
    base = [f["test_score"] for f in cells["d0", "base"].outer_results_]
    p = [
        _nadeau_bengio_p([f["test_score"] for f in cells["d0", m].outer_results_], base, 80, 20)
        for m in ("lr", "lr2")
    ]
    holm = np.minimum(1, np.maximum.accumulate(np.sort(p) * [2, 1]))
    assert np.all(holm > 0.05)
    assert verdict.startswith(
        "No model is shown to differ from the baseline base in test accuracy on d0, the 1 data "
        "set tested (corrected resampled t-test, Holm across the 2 comparisons, level 0.05); "
        "not tested: on d1 (folds of base failed)."
    )
    assert "any of the 2 data sets" not in verdict


def test_the_card_does_not_vouch_for_scores_the_caller_gave():
    own = {"a": {"test_scores": [0.9, 0.8, 0.85]}, "b": {"test_scores": [0.7, 0.8, 0.75]}}
    checklist = {row[0]: row[1:] for row in reproducibility_card(own).checklist}
    given = ("unknown", "per-fold scores given by the caller")
    assert checklist["code for model selection and assessment"] == given
    assert checklist["selection never sees the test fold"] == given
    assert checklist["data splits saved"] == (
        "no",
        "pass the splits to save_splits; the results do not record the outer indices",
    )


def test_the_card_of_a_nested_cv_still_says_what_it_did(templates):
    fitted = NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=KFold(3), inner_cv=3,
                      refit=False, random_state=0).fit(X, y)  # fmt: skip
    assert len(fitted.outer_results_[0]["test_indices"]) == 34  # the outer indices are there
    checklist = {row[0]: row[1:] for row in reproducibility_card({"lr": fitted}).checklist}
    assert checklist["code for model selection and assessment"][0] == "yes"
    assert checklist["selection never sees the test fold"][0] == "yes"
    assert checklist["data splits saved"] == (
        "no",
        "pass the splits to save_splits; the outer indices are in the results",
    )


def test_a_saved_benchmark_of_the_callers_scores_still_says_so(tmp_path):
    own = {"a": {"test_scores": [0.9, 0.8, 0.85]}, "b": {"test_scores": [0.7, 0.8, 0.75]}}
    result = BenchmarkResult.from_results({("d0", m): scores for m, scores in own.items()})
    result.save(tmp_path / "result.json")
    loaded = BenchmarkResult.load(tmp_path / "result.json")
    # after a save and a load the card said "yes - NestedCV" again
    for benchmark in (result, loaded):
        rows = [line.split() for line in benchmark.report().to_text().splitlines()]
        code = next(r for r in rows if r[:5] == "code for model selection and".split())
        assert code[6:] == ["unknown", "per-fold", "scores", "given", "by", "the", "caller"]


@pytest.mark.parametrize(
    "shown, counted, rest",
    [
        (
            [True, False, False],
            "1 of the 3 pairwise differences is demonstrated",
            "the others are not.",
        ),
        (
            [True, True, False],
            "2 of the 3 pairwise differences are demonstrated",
            "the other is not.",
        ),
    ],
)
def test_the_verdict_sentence_agrees_in_number_with_the_pairs_it_counts(shown, counted, rest):
    from sklearn_fair.metrics import metric_display_name
    from sklearn_fair.report._verdict import verdict_sentence
    from sklearn_fair.stats._compare import NOT_DEMONSTRATED

    comparison = {
        "model_a": ["a", "a", "b"],
        "model_b": ["b", "c", "c"],
        "mean_difference": [0.1, 0.2, 0.1],
        "verdict": ["better" if s else NOT_DEMONSTRATED for s in shown],
    }
    metric = metric_display_name("accuracy")
    sentence = verdict_sentence(comparison, metric, n_folds=5, confidence=0.95, decimals=2)
    assert sentence.startswith(counted)
    assert sentence.endswith(rest)
