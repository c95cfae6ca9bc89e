"""The HTML report: one self-contained file, verdict first, numbers a person can read."""

import re
from html import unescape

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sklearn_fair import NestedCV
from sklearn_fair.report import nested_cv_report
from sklearn_fair.report._format import short_names
from sklearn_fair.report._html import html_page
from sklearn_fair.report._tables import Section, num
from sklearn_fair.stats import compare
from sklearn_fair.utils._printing import decimals_for

pytest.importorskip("matplotlib")


def _cells(html, tag="td"):
    return [
        unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(rf"<{tag}[^>]*>.*?</{tag}>", html)
    ]


@pytest.fixture(scope="module")
def page(fitted_large_errors):
    return nested_cv_report(fitted_large_errors, n_resamples=500).to_html()


def test_the_page_is_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    assert "<style>" in page and "<link" not in page and "<script" not in page
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)
    assert "@import" not in page and "url(" not in page
    images = re.findall(r'<img src="([^"]+)"', page)
    assert len(images) == 3  # fold scores, optimism, comparison
    assert all(src.startswith("data:image/png;base64,iVBORw0KGgo") for src in images)
    assert '<meta name="viewport" content="width=device-width' in page


def test_verdict_and_table_come_first_then_the_rest_in_order(page, fitted_large_errors):
    lead = page.index('<p class="lead">')
    assert lead < page.index("<section")
    order = [
        'id="test-performance"',
        'id="pairwise-comparison"',
        'id="plots"',
        'id="selected-hyper-parameters-ridge-regression"',
        'id="selected-hyper-parameters-k-nearest-neighbours-regression"',
        'id="tuning-budgets"',
        'id="reproducibility-card"',
    ]
    positions = [page.index(key) for key in order]
    assert positions == sorted(positions)
    sentence = unescape(re.search(r'<p class="lead">(.*?)</p>', page).group(1))
    table = compare(fitted_large_errors)
    winner = "ridge regression" if table["mean_difference"][0] > 0 else "k-nearest neighbours"
    if table["verdict"][0] == "difference not demonstrated":
        assert sentence.startswith("Neither ")
    else:
        assert sentence.startswith(f"{winner}")
        assert " is better than " in sentence
    assert "RMSE (lower is better)" in sentence and "4 paired outer folds" in sentence


def test_numbers_have_the_digits_their_spread_needs(page, fitted_large_errors):
    # an RMSE in the tens of thousands whose folds spread by thousands: no decimals at all
    stds = [np.std(-n.outer_scores_) for n in fitted_large_errors.values()]
    assert min(stds) > 100
    cells = _cells(page)
    assert not [c for c in cells if re.search(r"\d{3,}\.\d", c)]
    ridge = -fitted_large_errors["ridge regression"].outer_scores_
    assert f"{ridge.mean():.0f} ± {np.std(ridge):.0f}" in cells


def test_decimals_follow_two_significant_digits_of_the_spread():
    assert decimals_for([0.975], [0.0196]) == 3  # 0.975 ± 0.020
    assert decimals_for([38581.1628], [1843.78]) == 0  # 38581 ± 1844
    assert decimals_for([0.5], [0.004]) == 4
    assert decimals_for([1.0, 1.0], [0.0, 0.0]) == 3  # no spread: 4 significant digits
    assert decimals_for([1e-9], [1e-12]) == 6  # at most 6


def test_optimism_is_in_printed_units_positive_when_validation_was_optimistic(
    page, fitted_large_errors
):
    rows = re.findall(
        r"<tr>(.*?)</tr>", page.split('id="test-performance"')[1].split("</table>")[0]
    )
    rows = [row for row in rows if "<td" in row]
    assert len(rows) == 2
    for row in rows:
        name = _cells(row)[0]
        nested = fitted_large_errors[name]
        test_rmse, validation_rmse = -nested.outer_scores_.mean(), -nested.validation_scores_.mean()
        optimism = re.search(r'<td class="num" title="([^"]+)" data-label="optimism">([^<]+)<', row)
        assert unescape(optimism.group(1)) == (
            "mean test RMSE - mean validation RMSE (lower is better)"
        )
        # a lower validation RMSE than test RMSE is optimistic, and positive
        assert float(optimism.group(2)) == pytest.approx(test_rmse - validation_rmse, abs=0.5)


def test_parameter_names_are_short_with_the_full_name_on_hover(page):
    assert '<th title="kneighborsregressor__n_neighbors" scope="col">n_neighbors</th>' in page
    assert '<th title="ridge__alpha" scope="col">alpha</th>' in page
    assert '<th scope="col">kneighborsregressor__n_neighbors</th>' not in page
    assert short_names(["svc__C", "logisticregression__C"]) == {
        "svc__C": "svc__C",
        "logisticregression__C": "logisticregression__C",
    }
    assert short_names(["a__b__c", "d__b__c", "a__e"]) == {
        "a__b__c": "a__b__c",
        "d__b__c": "d__b__c",
        "a__e": "e",
    }


def test_every_name_and_value_is_escaped():
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    hostile = '<img src=x onerror="alert(1)">&'
    grid = {"svc__kernel": ["linear", "rbf"], "svc__C": [0.5, 1.0]}
    results = {
        hostile: NestedCV(make_pipeline(StandardScaler(), SVC()), grid, outer_cv=3),
        "plain </td></tr></table>": NestedCV(LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=3),
    }
    results = {
        name: nested.set_params(refit=False, random_state=0).fit(X, y)
        for name, nested in results.items()
    }
    page = nested_cv_report(results, title="<script>x</script>", n_resamples=200).to_html()
    assert (
        "<img src=x" not in page and "<script>x" not in page and '</td></tr></table>"' not in page
    )
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in page
    assert "plain &lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;" in page
    # every tag in the page is one the template writes
    tags = set(re.findall(r"<([a-zA-Z0-9]+)", page))
    assert tags <= {"html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "p",
                    "nav", "a", "section", "div", "table", "thead", "tbody", "tr", "th", "td",
                    "figure", "img", "figcaption", "strong", "em", "wbr"}  # fmt: skip


def test_the_template_is_reusable_sections_in_html_out():
    sections = [
        Section("Scores", columns=["model", "score"], rows=[["a", num("0.91")]]),
        Section("Notes", paragraphs=["one & two"]),
    ]
    page = html_page("Benchmark", sections, lead="a wins.")
    assert page.index('<p class="lead">a wins.</p>') < page.index('id="scores"')
    assert '<a href="#scores">Scores</a><a href="#notes">Notes</a>' in page
    assert '<td class="num" data-label="score">0.91</td>' in page
    assert "one &amp; two" in page


def test_one_model_states_its_estimate_as_the_verdict(fitted):
    report = nested_cv_report(fitted["knn"], n_resamples=200)
    scores = fitted["knn"].outer_scores_
    assert report.verdict().startswith("model: test accuracy ")
    assert "over 4 outer folds, 95% interval of the mean [" in report.verdict()
    assert report.to_text().splitlines()[2] == report.verdict()
    d = decimals_for([scores.mean()], [np.std(scores)])
    assert f"{scores.mean():.{d}f}" in report.verdict()


def test_the_plots_use_the_reports_resample_count(fitted, monkeypatch):
    from sklearn_fair.report import _plots

    seen = {}
    real = _plots.plot_fold_scores

    def spy(results, **kwargs):
        seen.update(kwargs)
        return real(results, **kwargs)

    monkeypatch.setattr(_plots, "plot_fold_scores", spy)
    report = nested_cv_report(fitted, n_resamples=321, random_state=5, confidence=0.9)
    page = report.to_html()
    assert (seen["n_resamples"], seen["random_state"], seen["confidence"]) == (321, 5, 0.9)
    assert "percentile bootstrap of the IQM, 321 resamples" in page
    assert "<img" not in report.to_html(plots=False)


def test_a_page_computes_its_pairwise_comparison_once(fitted, monkeypatch):
    from sklearn_fair.report import _plots, _report, _results

    # the page as the pieces make it, each from a report of its own (nothing shared)
    title = "Nested cross-validation report"
    verdict = nested_cv_report(fitted, n_resamples=200).verdict()
    sections = nested_cv_report(fitted, n_resamples=200).sections(figures=True)
    expected = html_page(title, sections, lead=verdict)
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return _results.compare_results(*args, **kwargs)

    for module in (_report, _plots):
        monkeypatch.setattr(module, "compare_results", counted)
    page = nested_cv_report(fitted, n_resamples=200).to_html(plots=True)
    assert len(calls) == 1  # the table printed and the forest plot drawn from it
    assert page == expected and page.count("data:image/png;base64,") == 3


def test_plots_section_says_why_when_models_cannot_share_an_axis(fitted, fitted_multimetric):
    mixed = nested_cv_report(fitted_multimetric, n_resamples=200).to_html()
    assert "<img" not in mixed
    assert "No plots: they draw the metric that selected the hyper-parameters" in mixed
    assert "the models were scored with different metrics" in mixed
    single = nested_cv_report(fitted["knn"], n_resamples=200).to_html()
    assert single.count("<img") == 2  # fold scores and optimism; nothing to compare


class _Tagged(ClassifierMixin, BaseEstimator):
    """A majority-class classifier with a free-text parameter."""

    def __init__(self, tag="plain"):
        self.tag = tag

    def fit(self, X, y):
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def test_parameter_values_are_escaped():
    X, y = make_classification(n_samples=60, n_features=4, random_state=0)
    grid = {"tag": ['<script>alert("x")</script>', "b&c"]}
    results = {
        name: NestedCV(_Tagged(), grid, outer_cv=3, refit=False, random_state=0).fit(X, y)
        for name in ("first", "second")
    }
    # a long word's places to break (<wbr>) are no part of its text
    page = nested_cv_report(results, n_resamples=200).to_html().replace("<wbr>", "")
    assert "<script" not in page
    chosen = {p["tag"] for p in results["first"].best_params_per_fold_}
    for value in chosen:
        assert (
            value.replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace('"', "&quot;")
            in page
        )


def test_a_cells_emphasis_is_bold_or_italic_and_its_text_still_escaped():
    from sklearn_fair.report._html import html_page
    from sklearn_fair.report._tables import Cell, Section

    section = Section(
        "Scores",
        columns=["model", Cell("a", numeric=True)],
        rows=[
            ["<b>", Cell("0.9 & more", numeric=True, emphasis="strong")],
            ["other", Cell("0.8", numeric=True, emphasis="em")],
        ],
    )
    page = html_page("t", [section])
    assert '<td class="num" data-label="a"><strong>0.9 &amp; more</strong></td>' in page
    assert '<td class="num" data-label="a"><em>0.8</em></td>' in page
    assert '<td data-label="model">&lt;b&gt;</td>' in page
    assert "| other | *0.8* |" in section.to_markdown()
    assert (
        "| &lt;b&gt; |" not in section.to_markdown() and "**0.9 & more**" in section.to_markdown()
    )
    # the text marks its cells as BenchmarkResult.table() does (it printed no mark at all)
    assert "**0.9 & more**" in section.to_text() and "other  *0.8*" in section.to_text()
    with pytest.raises(ValueError, match="'emphasis' parameter of Cell"):
        Cell("x", emphasis="bold")


def test_the_template_is_private_now_and_its_old_names_warn():
    import sklearn_fair.report
    from sklearn_fair.report._html import html_page

    assert "html_page" not in sklearn_fair.report.__all__
    with pytest.warns(FutureWarning, match="html_page is deprecated"):
        assert sklearn_fair.report.html_page is html_page
