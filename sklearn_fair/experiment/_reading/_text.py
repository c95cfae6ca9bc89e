"""Text from a file, on its way out: terminal-safe, spreadsheet-safe, and file names.

A name read from a file can hold control characters (ESC sequences rewrite a terminal) or
start a spreadsheet formula (``=HYPERLINK(...)``). Messages escape the first; CSV cells
follow OWASP's rule for the second (a text cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a CR is prefixed with a single quote). A name is a label, never a path,
nor a device that Windows opens in place of a file (``CON``, ``NUL``).
"""

import hashlib
import numbers
import re

__all__ = ["csv_cell", "file_name", "neutral", "shown"]

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_KEPT = re.compile(r"[A-Za-z0-9_-]")
# the names Windows keeps for devices, in any case and before any extension: a file CON.json
# is the console, NUL.json a sink, and a folder CON cannot be made
_DEVICE = re.compile(r"(?i)CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9]")
_LONGEST = 96

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
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode(), str(text))


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
    """A CSV cell that a spreadsheet shows as text, never runs as a formula, and whose
    control characters (a terminal's escapes, if it is printed) are written as escapes.

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
    if text.startswith((*_FORMULA_START, "'")):  # a quote too: "'-knn" is not "-knn"'s cell
        text = "'" + text
    return neutral(text)


def file_name(label):
    """The file name of a data set or model called ``label`` (a label, never a path).

    A plain name (``[A-Za-z0-9][A-Za-z0-9_-]{0,63}``) is its own file name, but for a name
    Windows keeps for a device (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM0`` to ``COM9``,
    ``LPT0`` to ``LPT9``, in any case), whose first character is percent-encoded; in any
    other name, each character outside that alphabet is percent-encoded as its UTF-8 bytes
    (no separator, leading dot or ``..``), and past 96 characters it is cut to 64 and
    followed by ``~`` and 16 hexadecimal digits of the name's SHA-256 (the file records the
    name). ``%`` is always encoded, so each name has a file name of its own.

    Examples
    --------
    >>> from sklearn_fair.experiment._reading._text import file_name
    >>> file_name("iris"), file_name("../../escaped"), file_name("./a"), file_name("a/b")
    ('iris', '%2E%2E%2F%2E%2E%2Fescaped', '%2E%2Fa', 'a%2Fb')
    >>> file_name("CON"), file_name("nul"), file_name("COM1"), file_name("CONSOLE")
    ('%43ON', '%6Eul', '%43OM1', 'CONSOLE')
    >>> len(file_name("x" * 300))
    81
    """
    if _DEVICE.fullmatch(label):
        return _percent(label[0]) + label[1:]
    if _PLAIN.fullmatch(label):
        return label
    encoded = "".join(char if _KEPT.fullmatch(char) else _percent(char) for char in label)
    if len(encoded) > _LONGEST:
        digest = hashlib.sha256(label.encode()).hexdigest()[:16]
        encoded = f"{encoded[:64]}~{digest}"
    return encoded


def _percent(char):
    """``char`` percent-encoded, as its UTF-8 bytes."""
    return "".join(f"%{b:02X}" for b in char.encode())
