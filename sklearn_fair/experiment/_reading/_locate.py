"""Where a key is in a TOML text, so that errors can name its line."""

import re

from ...exceptions import ExperimentConfigError
from ._text import neutral

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_ASSIGNMENT = re.compile(r"^\s*([A-Za-z0-9_\-\.\"' ]+?)\s*=")


def _split_key(key):
    """Split a dotted TOML key into its parts, dropping quotes (a quoted part may hold dots)."""
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([^.]+)', key)
    return tuple(quoted or single or bare.strip() for quoted, single, bare in parts)


def key_lines(text):
    """Map every table header and key path of ``text`` to the first line (1-based) it is on."""
    lines = {}
    table = ()
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = _split_key(header.group(1))
            lines.setdefault(table, number)
            continue
        assignment = _ASSIGNMENT.match(line)
        if assignment:
            path = table + _split_key(assignment.group(1))
            lines.setdefault(path, number)
            # keys of an inline table on the same line: ``params = { max_iter = 10 }``
            for inner in re.finditer(r"[{,]\s*([A-Za-z0-9_\-\"']+)\s*=", line):
                lines.setdefault(path + _split_key(inner.group(1)), number)
    return lines


class ConfigSource:
    """The text of an experiment file, to raise errors that name the line and key at fault."""

    def __init__(self, path, text):
        self.path, self.text, self._lines = path, text, key_lines(text)

    def line_of(self, key):
        """The line of ``key`` (a tuple of parts), or of its closest enclosing table."""
        for end in range(len(key), 0, -1):
            if key[:end] in self._lines:
                return self._lines[key[:end]]
        return None

    def error(self, key, message):
        """An ExperimentConfigError for ``key`` (a tuple of parts) with ``message``."""
        line = self.line_of(key)
        where = f"{self.path}, line {line}" if line is not None else f"{self.path}"
        dotted = ".".join(str(part)[:100] for part in key)
        # names, keys and values come from the file: no control character reaches a terminal
        return ExperimentConfigError(neutral(f"{where}, key '{dotted}': {message}"))
