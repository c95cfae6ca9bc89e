"""A report's building blocks (sections of paragraphs, tables and figures) as text and
Markdown; the HTML form is :mod:`._html`'s."""

from dataclasses import dataclass, field

from ..utils._printing import markdown_cell, markdown_text, text_table


@dataclass(frozen=True)
class Cell:
    """One table cell: its text, an optional hover ``title``, whether it is a number.

    Numbers are right-aligned in HTML. ``emphasis`` ("strong" or "em": a benchmark's best model,
    those not demonstrably worse) is ``<strong>``/``<em>`` in HTML, ``**``/``*`` in Markdown.
    """

    text: str
    title: str = None
    numeric: bool = False
    emphasis: str = None

    def __post_init__(self):
        if self.emphasis not in (None, "strong", "em"):
            raise ValueError(
                f"The 'emphasis' parameter of Cell must be 'strong', 'em' or None. Got "
                f"{self.emphasis!r} instead."
            )

    def __str__(self):
        return str(self.text)


def num(text, title=None):
    """A numeric :class:`Cell`."""
    return Cell(str(text), title=title, numeric=True)


@dataclass(frozen=True)
class Figure:
    """An image of a report: PNG bytes, its alternative text and a caption."""

    png: bytes
    alt: str
    caption: str = ""
    width: int = None  # pixels at 1:1, for the page's layout


@dataclass
class Section:
    """A titled block of a report: paragraphs, then an optional table and figures.

    ``columns`` and ``rows`` hold strings or :class:`Cell`; ``figures`` hold :class:`Figure`
    (drawn in HTML only; text and Markdown name them); ``key``: the HTML anchor (by default
    from the title).
    """

    title: str
    columns: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    paragraphs: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    key: str = ""

    def to_text(self):
        lines = [self.title, "=" * len(self.title)]
        lines += self.paragraphs
        if self.columns:
            cells = [list(map(str, self.columns))] + [
                [_marked(c) for c in row] for row in self.rows
            ]
            lines += text_table(cells, rule=True)
        lines += [f"[figure: {figure.alt}]" for figure in self.figures]
        return "\n".join(lines).rstrip()

    def to_markdown(self):
        lines = [f"## {markdown_text(' '.join(str(self.title).splitlines()))}", ""]
        for paragraph in self.paragraphs:
            lines += [markdown_text(paragraph), ""]
        if self.columns:
            lines.append("| " + " | ".join(map(_md, self.columns)) + " |")
            lines.append("|" + "|".join("---:" if _numeric(self, i) else "---" for i in
                                        range(len(self.columns))) + "|")  # fmt: skip
            for row in self.rows:
                lines.append("| " + " | ".join(_md(cell) for cell in row) + " |")
            lines.append("")
        lines += [f"*Figure: {markdown_text(figure.alt)}*" for figure in self.figures]
        return "\n".join(lines).rstrip()


def _numeric(section, column):
    cells = [row[column] for row in section.rows if column < len(row) and str(row[column])]
    return bool(cells) and all(isinstance(c, Cell) and c.numeric for c in cells)


def _marked(cell, text=None):
    """A cell's text with its emphasis as :meth:`BenchmarkResult.table
    <sklearn_fair.BenchmarkResult.table>` prints it: ``**x**`` (strong), ``*x*`` (em)."""
    text = str(cell) if text is None else text
    mark = {"strong": "**", "em": "*"}.get(getattr(cell, "emphasis", None), "")
    return f"{mark}{text}{mark}" if mark and text else text


def _md(cell):
    """A table cell in Markdown: its text escaped (:func:`markdown_cell`), then its emphasis."""
    return _marked(cell, markdown_cell(cell))
