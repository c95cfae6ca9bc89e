"""The runner's table.md renders as table() prints: a negative score is the number (no
spreadsheet apostrophe), the best cell in bold, a name as its own text; read back with an
independent Markdown renderer (markdown-it-py)."""

import re
import warnings

from markdown_it import MarkdownIt

from sklearn_fair.experiment._running._outputs import _markdown
from sklearn_fair.report import BenchmarkResult


def _result(names):
    def saved(center):  # 3 outer folds of 10 rows
        return {
            "outer_results": [
                {
                    "test_score": center + 0.001 * f, "test_scores": [center + 0.001 * f],
                    "validation_score": 0.0, "best_params": {},
                    "train_indices": [i for i in range(30) if i // 10 != f],
                    "test_indices": list(range(f * 10, (f + 1) * 10)), "fit_time": 1.0,
                }
                for f in range(3)
            ]
        }  # fmt: skip

    cells = {("diabetes", names[0]): saved(0.41), ("diabetes", names[1]): saved(-0.0042)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BenchmarkResult.from_results(cells, metric="r2")


def test_table_md_shows_negative_scores_marks_and_names_as_table_does():
    names = ["ridge *tuned*", "=dummy"]
    result = _result(names)
    table = result.table()
    html = MarkdownIt("commonmark").enable("table").render(_markdown(table))
    cells = re.findall(r"<td>(.*?)</td>", html)
    best, worst = table.loc[names[0], "diabetes"], table.loc[names[1], "diabetes"]
    assert best.startswith("**") and best.endswith("**")
    assert f"<strong>{best.strip('*')}</strong>" in cells
    assert worst.strip("*") in cells  # the negative mean, as printed: no apostrophe
    assert worst.strip("*").startswith("-") and not any(c.startswith("'") for c in cells)
    assert names[0] in cells and names[1] in cells  # names are text, not emphasis or formulas
