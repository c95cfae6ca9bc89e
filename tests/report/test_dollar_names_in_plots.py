"""A name with two "$" (a model "a $x^2$", a budget "$1 and $2") is drawn as written:
matplotlib neither reads it as mathtext nor fails to parse it (to_html raised)."""

import pytest

from sklearn_fair import BenchmarkResult
from sklearn_fair.report import (
    nested_cv_report,
    plot_comparison,
    plot_fold_scores,
    plot_optimism,
)

pytest.importorskip("matplotlib")

NAMES = ("a $x^2$", "b_$1_and_$2")


@pytest.fixture(scope="module")
def dollars(fitted):
    return dict(zip(NAMES, fitted.values()))


def _drawn(figure):
    """Every text of the drawn figure as matplotlib renders it, and whether as mathtext."""
    from matplotlib.text import Text

    figure.canvas.draw()  # ticks are made on drawing
    texts = [t for t in figure.findobj(Text) if t.get_text()]
    return [t._preprocess_math(t.get_text()) for t in texts]


def _check(figure, names=NAMES):
    drawn = _drawn(figure)
    assert not [text for text, math in drawn if math], drawn
    for name in names:
        assert any(name in text for text, _ in drawn), (name, drawn)


def test_the_html_report_with_its_plots_draws_dollar_names(dollars):
    page = nested_cv_report(dollars, n_resamples=50).to_html()  # raised ParseSyntaxException
    assert "a $x^2$" in page and "<img" in page


def test_the_plots_draw_dollar_names_as_written(dollars):
    _check(plot_fold_scores(dollars, n_resamples=50))
    _check(plot_optimism(dollars))
    _check(plot_comparison(dollars), names=[f"{NAMES[0]} - {NAMES[1]}"])


def test_the_benchmark_s_interval_plot_draws_dollar_names(fitted):
    result = BenchmarkResult.from_results(
        {
            (data, model): fitted[name]
            for data in ("$1 set", "$2 set")
            for model, name in zip(NAMES, fitted)
        }  # fmt: skip
    )
    _check(result.plot_intervals(), names=[*NAMES, "$1 set", "$2 set"])
