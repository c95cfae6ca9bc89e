"""A ``$`` in a name is escaped in Markdown (NAMES-4): GitHub reads ``$...$`` as a formula,
so a model "cost $5 vs $10" printed as "cost" and a formula "5 vs " before."""

import warnings

from markdown_it import MarkdownIt

from sklearn_fair.report import BenchmarkResult
from sklearn_fair.utils._printing import markdown_cell, markdown_text

NAME = "cost $5 vs $10"


def _result(names):
    def saved(shift):
        return {
            "outer_results": [
                {
                    "test_score": 0.9 - shift + 0.02 * f, "test_scores": [0.9 - shift + 0.02 * f],
                    "validation_score": 0.9, "best_params": {},
                    "train_indices": [i for i in range(30) if i // 10 != f],
                    "test_indices": list(range(f * 10, (f + 1) * 10)), "fit_time": 1.0,
                }
                for f in range(3)
            ]
        }  # fmt: skip

    cells = {("iris", name): saved(0.05 * i) for i, name in enumerate(names)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BenchmarkResult.from_results(cells, metric="accuracy")


def test_a_dollar_in_a_name_is_escaped_in_the_markdown_table():
    markdown = _result(["lr", NAME]).report(n_resamples=100).to_markdown()
    rows = [line for line in markdown.splitlines() if line.startswith("|") and "cost" in line]
    assert rows and all("cost \\$5 vs \\$10" in row for row in rows), rows
    assert markdown_cell(NAME) == markdown_text(NAME) == "cost \\$5 vs \\$10"
    assert "cost $5" not in markdown  # no unescaped $ of the name anywhere
    # CommonMark renders the escape as the dollar sign itself
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert NAME in html
