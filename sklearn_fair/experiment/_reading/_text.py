"""Text that leaves the program: terminal-safe messages and spreadsheet-safe CSV cells.

A name or a key read from a file can hold control characters (ESC sequences rewrite a
terminal, CR overwrites the line, BEL rings) or start a spreadsheet formula
(``=HYPERLINK(...)``). Messages escape the first; CSV cells follow OWASP's rule for the
second (a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a CR is prefixed
with a single quote, and the csv module quotes it). Numbers stay numbers.
"""

import numbers
import re

__all__ = ["csv_cell", "neutral", "shown"]

# C0 controls but newline, DEL, C1 controls; and the Unicode bidi overrides
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutral(text):
    """``text`` with every control character (newlines aside) written as an escape.

    Examples
    --------
    >>> from sklearn_fair.experiment._reading._text import neutral
    >>> neutral("model\\x1b[2Jname\\r")
    'model\\\\x1b[2Jname\\\\r'
    """
    return _CONTROL.sub(_escape, str(text))


def _escape(match):
    char = match.group()
    return {"\t": "\\t", "\r": "\\r"}.get(
        char, f"\\x{ord(char):02x}" if ord(char) < 256 else f"\\u{ord(char):04x}"
    )


def shown(value, limit=80):
    """``repr(value)``, cut to ``limit`` characters and neutral: for values from a file."""
    if isinstance(value, str) and len(value) > 4 * limit:
        value = value[: 4 * limit]  # never repr a megabyte to cut it afterwards
    if isinstance(value, (list, tuple, dict)) and len(value) > limit:
        text = f"<{type(value).__name__} of {len(value)} items>"
    else:
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # an int of too many digits, a deep structure
            text = f"<{type(value).__name__}>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return neutral(text)


def csv_cell(value):
    """A CSV cell that a spreadsheet shows as text, never runs as a formula.

    Examples
    --------
    >>> from sklearn_fair.experiment._reading._text import csv_cell
    >>> csv_cell('=HYPERLINK("http://x","click")'), csv_cell(-0.5), csv_cell("-0.5")
    ('\\'=HYPERLINK("http://x","click")', -0.5, "'-0.5")
    """
    if isinstance(value, bool):
        return str(value)  # text: csv would write it unquoted, as if a number
    if value is None or isinstance(value, numbers.Number):
        return value
    text = str(value)
    if text.startswith(_FORMULA_START):
        return "'" + text
    return text
