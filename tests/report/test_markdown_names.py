"""Names in a report's Markdown are text: an independent renderer (markdown-it-py, CommonMark
with tables, raw HTML on as GitHub's is for most tags) finds no markup that a name brought
in, and every table row keeps its columns; the text report shows the marks it explains."""

import re
import warnings

import pytest
from markdown_it import MarkdownIt

from sklearn_fair.report import BenchmarkResult
from sklearn_fair.utils._printing import markdown_cell

HOSTILE = [
    "<img src=x onerror=alert(1)>", "a\\|b", "prior*copy*", "[x](javascript:1)", "&amp;",
    "rf~~v2~~",  # GitHub's strikethrough
]  # fmt: skip


def _result(names, datasets=("iris",)):
    # result_to_dict's shape: 3 outer folds of 10 rows, each model 0.05 below the one before
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

    cells = {(d, name): saved(0.05 * i) for d in datasets for i, name in enumerate(names)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BenchmarkResult.from_results(cells, metric="accuracy")


def _rendered(markdown):
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)


def test_a_name_in_the_markdown_report_is_text_not_markup():
    # the Markdown escaped only pipes: a model named <img onerror=...> was a live image in
    # every table, heading and paragraph that named it, *x* was in italics, a\|b split a cell
    result = _result(["lr", *HOSTILE])
    markdown = result.report(n_resamples=100).to_markdown()
    html = _rendered(markdown)
    assert (
        "<img" not in html
        and "<em>copy</em>" not in html
        and "javascript:" not in (re.findall(r'href="([^"]*)"', html) or [""])[0]
    )
    assert "&lt;img src=x onerror=alert(1)&gt;" in html  # the name, as text
    # each row of each table has as many cells as its header
    for table in re.findall(r"<table>.*?</table>", html, flags=re.S):
        widths = [
            len(re.findall(r"<t[hd][ >]", row))
            for row in re.findall(r"<tr>.*?</tr>", table, flags=re.S)
        ]
        assert len(set(widths)) == 1, widths
    assert "<td>a\\|b</td>" in html and "<td>prior*copy*</td>" in html


@pytest.mark.parametrize("name", HOSTILE)
def test_a_cell_renders_as_its_own_text(name):
    html = _rendered(f"| h |\n|---|\n| {markdown_cell(name)} |\n")
    text = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert f"<td>{text}</td>" in html


def test_a_name_with_a_carriage_return_keeps_the_tables_rows():
    # CommonMark ends a line at a bare \r: a data set named "wine\r\n(UCI)" (read from a
    # CRLF file) split its table rows, and the paper table rendered as a paragraph of pipes
    result = _result(["lr", "tree"], datasets=("iris", "wine\r\n(UCI)"))
    html = _rendered(result.report(n_resamples=100).to_markdown())
    tables = re.findall(r"<table>.*?</table>", html, flags=re.S)
    assert any("wine (UCI)" in table for table in tables)
    for table in tables:
        widths = [
            len(re.findall(r"<t[hd][ >]", row))
            for row in re.findall(r"<tr>.*?</tr>", table, flags=re.S)
        ]
        assert len(set(widths)) == 1, widths


def test_the_text_report_shows_the_marks_it_explains():
    # the plain-text report said "Bold: the best model ...; italics: not shown to be worse"
    # and printed no mark at all
    result = _result(["best_model", "close", "far"], datasets=("a", "b"))
    text = result.report(n_resamples=100).to_text()
    section = text[text.index("Scores as a paper prints them") :]
    assert "Bold: the best model" in section
    table = result.table()
    for model in result.models:
        cells = r"\s+".join(re.escape(cell) for cell in table.loc[model])
        assert re.search(rf"^{model}\s+{cells}\s*$", section, flags=re.M), model
    assert table.loc["best_model", "a"].startswith("**")


def test_underscores_at_a_names_edge_and_newlines_do_not_mark_the_markdown_up():
    # "_under_" rendered in italics and "__init__" in bold; a newline split a heading in two
    from markdown_it import MarkdownIt

    from sklearn_fair.report._tables import Section

    section = Section("model line\nbreak", columns=["model"], rows=[["_under_"], ["__init__"]])
    html = MarkdownIt("commonmark").enable("table").render(section.to_markdown())
    assert "<em>" not in html and "<strong>" not in html
    assert "<h2>model line break</h2>" in html
    assert "<td>_under_</td>" in html and "<td>__init__</td>" in html


@pytest.mark.parametrize(
    "name",
    [
        "lr\n# Winner: lr with accuracy 0.999",
        "lr\n\n| model | accuracy |\n|---|---|\n| dummy | 0.990 |\n",
    ],
)
def test_a_name_with_a_line_break_starts_no_heading_nor_table_of_its_own(name):
    # a paragraph, the page's title and lead kept a name's line breaks: "# Winner ..." after
    # one became a heading of the report, and a table in a name a table of forged scores
    result = _result([name, "dummy"])
    html = _rendered(result.report(n_resamples=100).to_markdown())
    headings = re.findall(r"<h\d>(.*?)</h\d>", html, flags=re.S)
    assert not [h for h in headings if h.startswith("Winner")], headings
    assert "<td>0.990</td>" not in html
    tables = re.findall(r"<table>.*?</table>", html, flags=re.S)
    header_rows = [re.findall(r"<th[^>]*>(.*?)</th>", t, flags=re.S) for t in tables]
    assert ["model", "accuracy"] not in header_rows


def test_text_tables_line_numbers_up_under_their_header_whatever_the_names_width():
    # padded by len(): a wide (CJK) name pushed its row's numbers right, a name with
    # combining accents pulled them left, under another column's header
    import unicodedata

    from sklearn_fair.report._tables import Section

    def columns_taken(text):  # by hand: wide characters take two, combining ones none
        return sum(
            0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
            for c in text
        )

    names = ["数据集一号", "e\u0301" * 8, "plain", "two\nlines"]
    section = Section(
        "Scores", columns=["model", "d1", "d2"], rows=[[n, "0.5", "0.7"] for n in names]
    )
    lines = section.to_text().splitlines()[2:]
    header, rows = lines[0], lines[2:]
    assert len(rows) == len(names)  # a name's line break does not split its row
    for row in rows:
        for value, column in (("0.5", "d1"), ("0.7", "d2")):
            at = row.index(value)
            assert columns_taken(row[:at]) == columns_taken(header[: header.index(column)]), row
