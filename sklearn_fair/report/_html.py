"""The HTML page of a report: one self-contained file, readable from a phone to a wide screen.

Inline style sheet, images embedded as base64 PNG, nothing fetched, every name and value
escaped. On a narrow screen each table row becomes a card of "column: value" lines, so no
table is wider than the screen; on a wider one a table that does not fit scrolls sideways in
its own box, and the page does not.
"""

import base64
import re
import struct
from html import escape

from ..utils._printing import markdown_text
from ._tables import Cell, Figure

NARROW = 760  # px: below this width tables become cards
LONG_WORD = 30  # characters: a longer word in a table gets places to break

CSS = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --head: #f6f8fa; --accent: #0969da;
  --good: #1a7f37; --warn: #9a6700; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    "Noto Sans", "Liberation Sans", sans-serif; }
main { max-width: 1320px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: 0 0 12px; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; line-height: 1.3; margin: 36px 0 10px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
p { margin: 6px 0; max-width: 110ch; overflow-wrap: anywhere; }
.lead { font-size: 1.08rem; margin: 8px 0 18px; padding: 10px 14px; max-width: none;
  border-left: 4px solid var(--accent); background: #f1f8ff; }
nav { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 0 0 8px; font-size: .92rem; }
nav a { color: var(--accent); text-decoration: none; overflow-wrap: anywhere; }
nav a:hover { text-decoration: underline; }
.notes { color: var(--muted); font-size: .92rem; }
/* a table wider than the window scrolls in its box, not the whole page */
.table { margin: 10px 0 8px; overflow-x: auto; }
table { border-collapse: collapse; width: auto; max-width: 100%; font-size: .92rem; }
th, td { padding: 5px 10px; border-bottom: 1px solid var(--line); vertical-align: top;
  text-align: left; overflow-wrap: break-word; }
th { background: var(--head); font-weight: 600; border-bottom: 2px solid var(--line); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
tbody tr:hover { background: #f6f8fa; }
th[title] { text-decoration: underline dotted var(--muted); text-underline-offset: 3px; }
td[title], th[title] { cursor: help; }
.figures { display: flex; flex-wrap: wrap; gap: 16px 24px; align-items: flex-start;
  margin: 12px 0; }
figure { margin: 0; max-width: 100%; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: .9rem; margin-top: 4px; overflow-wrap: anywhere; }
@media (max-width: NARROWpx) {
  main { padding: 14px 12px 32px; }
  h1 { font-size: 1.35rem; }
  .table table, .table thead, .table tbody, .table tr, .table td { display: block;
    width: 100%; }
  .table thead { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip: rect(0 0 0 0); }
  .table tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 10px;
    padding: 4px 0; }
  .table td { display: grid; grid-template-columns: minmax(6em, 42%) minmax(0, 1fr);
    gap: 8px; border: 0; padding: 3px 10px; text-align: left; white-space: normal;
    overflow-wrap: anywhere; }
  .table td.num { text-align: left; }
  .table td:empty { display: none; }
  .table td::before { content: attr(data-label); color: var(--muted); font-weight: 600;
    overflow-wrap: anywhere; }
}
@media print { nav { display: none; } }
""".replace("NARROW", str(NARROW))


def _attr(text):
    return escape(str(text), quote=True)


def _slug(title, used):
    base = re.sub(r"[^a-z0-9]+", "-", str(title).lower()).strip("-") or "section"
    slug, n = base, 2
    while slug in used:
        slug, n = f"{base}-{n}", n + 1
    used.add(slug)
    return slug


def _breakable(text):
    """``text`` escaped, with a place to break (``<wbr>``) in each word longer than
    ``LONG_WORD`` characters: after its runs of ``._/,:=-`` and every ``LONG_WORD`` characters
    between them.

    A table's column is as wide as its longest unbreakable word, which ``overflow-wrap:
    break-word`` does not shorten (a model name of 72 letters made the table 1526 px wide at
    1280), and ``overflow-wrap: anywhere`` on every cell splits short words too ("acc|ura|cy")
    once such a table is squeezed.

    Examples
    --------
    >>> _breakable("a <b> sklearn_fair.graph.models._molecular_fingerprint")
    'a &lt;b&gt; sklearn_<wbr>fair.<wbr>graph.<wbr>models._<wbr>molecular_<wbr>fingerprint'
    >>> _breakable("x" * 65).split("<wbr>") == ["x" * 30, "x" * 30, "x" * 5]
    True
    """
    words = re.split(r"(\s+)", str(text))
    pieces = rf"[^._/,:=\-]{{1,{LONG_WORD}}}[._/,:=\-]*|[._/,:=\-]+"
    return "".join(
        "<wbr>".join(map(escape, re.findall(pieces, word)))
        if len(word) > LONG_WORD
        else escape(word)
        for word in words
    )


def _cell(tag, cell, label=None):
    attrs = []
    if isinstance(cell, Cell):
        if cell.numeric:
            attrs.append('class="num"')
        if cell.title:
            attrs.append(f'title="{_attr(cell.title)}"')
    if tag == "th":
        attrs.append('scope="col"')
    if label is not None:
        attrs.append(f'data-label="{_attr(label)}"')
    text = _breakable(cell)
    emphasis = getattr(cell, "emphasis", None)
    if emphasis:
        text = f"<{emphasis}>{text}</{emphasis}>"
    return f"<{tag}{' ' if attrs else ''}{' '.join(attrs)}>{text}</{tag}>"


def _png_size(png):
    if png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR":
        return struct.unpack(">II", png[16:24])
    return None


def _figure(figure):
    data = base64.b64encode(figure.png).decode("ascii")
    size = style = ""
    pixels = _png_size(figure.png)
    if pixels:
        width = figure.width or pixels[0]
        size = f' width="{width}" height="{round(pixels[1] * width / pixels[0])}"'
        style = f' style="width: {width}px"'
    caption = f"<figcaption>{escape(figure.caption)}</figcaption>" if figure.caption else ""
    return (
        f'<figure{style}><img src="data:image/png;base64,{data}" alt="{_attr(figure.alt)}"{size}>'
        f"{caption}</figure>"
    )


def section_html(section, key):
    """One section as HTML (anchor ``key``): its heading, table, paragraphs and figures."""
    parts = [f'<section id="{_attr(key)}">', f"<h2>{escape(section.title)}</h2>"]
    if section.columns:
        labels = [str(column) for column in section.columns]
        head = "".join(_cell("th", column) for column in section.columns)
        body = "\n".join(
            "<tr>" + "".join(_cell("td", cell, label) for cell, label in zip(row, labels)) + "</tr>"
            for row in section.rows
        )
        parts.append(
            f'<div class="table"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n'
            "</tbody>\n</table></div>"
        )
    if section.paragraphs:
        notes = "".join(f"<p>{escape(str(p))}</p>" for p in section.paragraphs)
        parts.append(f'<div class="notes">{notes}</div>' if section.columns else notes)
    if section.figures:
        parts.append(
            '<div class="figures">' + "".join(_figure(f) for f in section.figures) + "</div>"
        )
    parts.append("</section>")
    return "\n".join(parts)


def html_page(title, sections, *, lead=None):
    """Render a report as one self-contained HTML page: the template of every report.

    A title, an optional ``lead`` sentence (the verdict), links to the sections, then each
    :class:`~._tables.Section` (its table, then its notes and figures).

    Examples
    --------
    >>> from sklearn_fair.report._html import html_page
    >>> from sklearn_fair.report._tables import Cell, Section
    >>> page = html_page("A <report>", [Section("Scores", ["model", "score"],
    ...                                         [["a & b", Cell("0.91", numeric=True)]])],
    ...                  lead="a & b scores 0.91.")
    >>> "<h1>A &lt;report&gt;</h1>" in page and "a &amp; b" in page
    True
    >>> '<td class="num" data-label="score">0.91</td>' in page
    True
    """
    used = set()
    keys = [section.key or _slug(section.title, used) for section in sections]
    nav = "".join(
        f'<a href="#{_attr(key)}">{escape(section.title)}</a>'
        for key, section in zip(keys, sections)
    )
    body = "\n".join(section_html(s, key) for s, key in zip(sections, keys))
    lead_html = f'<p class="lead">{escape(lead)}</p>\n' if lead else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        f"<h1>{escape(title)}</h1>\n{lead_html}"
        f'<nav aria-label="sections">{nav}</nav>\n{body}\n</main>\n</body>\n</html>\n'
    )


def figure_from_matplotlib(figure, *, alt, caption="", dpi=200):
    """A matplotlib figure as a :class:`~._tables.Figure`: PNG at ``dpi``, shown at 100 dpi so
    that it stays sharp on high-density screens."""
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    width = round(figure.get_size_inches()[0] * 100)
    return Figure(png=buffer.getvalue(), alt=alt, caption=caption, width=width)


def render(title, sections, kind, *, lead=None):
    """The report ``title``, its ``lead`` and ``sections`` as "text", "markdown" or "html"."""
    if kind == "html":
        return html_page(title, sections, lead=lead)
    if kind == "text":
        head = [title] + ([lead] if lead else [])
        return "\n\n".join(head + [section.to_text() for section in sections]) + "\n"
    if kind == "markdown":
        head = [f"# {markdown_text(title)}"] + ([f"**{markdown_text(lead)}**"] if lead else [])
        return "\n\n".join(head + [s.to_markdown() for s in sections]) + "\n"
    raise ValueError(f"Unknown kind {kind!r}: 'text', 'markdown' or 'html'.")
