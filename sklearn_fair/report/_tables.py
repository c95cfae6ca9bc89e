"""Rendering of small tables of strings as plain text, Markdown and HTML (no extra dependency)."""

from dataclasses import dataclass, field
from html import escape


@dataclass
class Section:
    """A titled block of a report: paragraphs of text, then an optional table."""

    title: str
    columns: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    paragraphs: list = field(default_factory=list)

    def to_text(self):
        lines = [self.title, "=" * len(self.title)]
        lines += [paragraph for paragraph in self.paragraphs]
        if self.columns:
            cells = [list(map(str, self.columns))] + [[str(c) for c in row] for row in self.rows]
            widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
            for index, row in enumerate(cells):
                lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
                if index == 0:
                    lines.append("  ".join("-" * width for width in widths))
        return "\n".join(lines).rstrip()

    def to_markdown(self):
        lines = [f"## {self.title}", ""]
        for paragraph in self.paragraphs:
            lines += [paragraph, ""]
        if self.columns:
            lines.append("| " + " | ".join(map(_md, self.columns)) + " |")
            lines.append("|" + "|".join("---" for _ in self.columns) + "|")
            for row in self.rows:
                lines.append("| " + " | ".join(_md(cell) for cell in row) + " |")
            lines.append("")
        return "\n".join(lines).rstrip()

    def to_html(self):
        parts = [f"<h2>{escape(self.title)}</h2>"]
        parts += [f"<p>{escape(paragraph)}</p>" for paragraph in self.paragraphs]
        if self.columns:
            head = "".join(f"<th>{escape(str(c))}</th>" for c in self.columns)
            body = "".join(
                "<tr>" + "".join(f"<td>{escape(str(cell))}</td>" for cell in row) + "</tr>"
                for row in self.rows
            )
            parts.append(
                f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>{body}</tbody>\n</table>"
            )
        return "\n".join(parts)


def _md(cell):
    return str(cell).replace("|", "\\|").replace("\n", " ")


def fmt(value, digits=4):
    """A float with ``digits`` decimals; NaN and None as "n/a"."""
    if value is None:
        return "n/a"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return "n/a" if number != number else f"{number:.{digits}f}"


def render(title, sections, kind):
    """Render the report ``title`` and its ``sections`` as "text", "markdown" or "html"."""
    if kind == "text":
        return "\n\n".join([title] + [section.to_text() for section in sections]) + "\n"
    if kind == "markdown":
        return "\n\n".join([f"# {title}"] + [s.to_markdown() for s in sections]) + "\n"
    body = "\n".join(section.to_html() for section in sections)
    return (
        "<!DOCTYPE html>\n<html>\n<head><meta charset='utf-8'>"
        f"<title>{escape(title)}</title></head>\n<body>\n<h1>{escape(title)}</h1>\n"
        f"{body}\n</body>\n</html>\n"
    )
