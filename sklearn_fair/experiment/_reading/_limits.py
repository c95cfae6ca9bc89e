"""Limits on the work an experiment file can cause, which only the caller can raise.

A file may come from someone else: one that asks for more is refused at once, naming the
limit and the flag that lifts it for one run (``--limit NAME=VALUE``). The text's size and
the nesting of its brackets are checked before the TOML parser sees it (a pre-scan linear
in the size); the nesting of the parsed tables and arrays (dotted keys nest without
brackets), long lists and strings after; the values that multiply work where they are
read, before anything is expanded.
"""

import math
import numbers
import os
import re
import stat
import string
import sys
from dataclasses import dataclass, fields

import numpy as np

from ...exceptions import ExperimentConfigError
from ...utils._tu_format import MAX_TU_SIZE
from ._text import neutral, shown

__all__ = ["Limits", "count_candidates", "parse_limits", "prescan_toml"]


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Limits:
    """The most an experiment file may ask for; the caller can raise each for one run.

    ``jobs``: workers (``n_jobs`` anywhere; default: the machine's cores); ``refits``;
    ``candidates`` of one model (the product of its grid's list lengths, not expanded);
    ``folds``, outer and inner; ``depth`` of nested tables and arrays (a table of a dotted key
    or header, ``[a.b.c]``, is a level as an inline table is); ``file_size``
    in bytes; ``items`` of all arrays together; ``list_length`` of one array;
    ``string_length`` of one string or key; of the data a file names: ``csv_size``, bytes of
    a CSV file, ``csv_row``, characters of one of its rows (line breaks in quotes included),
    ``csv_cells``, its cells (each row's, the header's too, counted as it is read),
    ``tu_size``, bytes of a TU data set's raw files (of an archive, every byte it unpacks
    to), and ``archive_entries`` of a TU archive. The user guide lists their defaults.

    Each is a positive int (``depth`` at most 200, the nesting that the reader can follow);
    ``jobs=None`` counts the machine's cores. Another value is refused with an
    :class:`~sklearn_fair.exceptions.ExperimentConfigError` that names the limit.
    """

    jobs: int = None
    refits: int = 100
    candidates: int = 10_000
    folds: int = 1_000
    depth: int = 32
    file_size: int = 2**20
    items: int = 100_000
    list_length: int = 10_000
    string_length: int = 10_000
    csv_size: int = 2**30
    csv_row: int = 10_000_000
    csv_cells: int = 10_000_000
    tu_size: int = MAX_TU_SIZE
    archive_entries: int = 10_000

    def __post_init__(self):
        if self.jobs is None:
            object.__setattr__(self, "jobs", _cores())
        for name in _NAMES:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise ExperimentConfigError(
                    f"The limit {name} must be a positive integer; got {shown(value)}."
                )
            object.__setattr__(self, name, int(value))  # numpy's ints too, as Python's
        if self.depth > MAX_DEPTH:  # the file's builder recurses once a level
            raise ExperimentConfigError(
                f"The limit depth can be raised to at most {MAX_DEPTH}; got {self.depth}."
            )

    @staticmethod
    def flag(name, value=None):
        """The command-line flag that lifts limit ``name`` (to ``value``, if given)."""
        return f"--limit {name}={'N' if value is None else value}"

    def refusal(self, name, value, where, what, *, whole=True):
        """The message for a file whose ``what`` (at ``where``) asks more than limit ``name``;
        ``whole=False``: ``value`` is what was counted before stopping, a lower bound."""
        limit = getattr(self, name)
        exact = whole and isinstance(value, int) and value > 0
        if name == "depth" and isinstance(value, int) and value > MAX_DEPTH:
            return (
                f"{where}: {what} is {'' if whole else 'at least '}{value}, more than the "
                f"limit of {limit} (limit 'depth') and than the {MAX_DEPTH} levels that "
                f"--limit depth can allow: this file cannot be read."
            )
        return (
            f"{where}: {what} is {'' if whole else 'at least '}{shown(value)}, more than the "
            f"limit of {limit} (limit '{name}'); a file cannot raise it, the caller can, for "
            f"one run: {self.flag(name, value if exact else None)}."
        )


_NAMES = tuple(f.name for f in fields(Limits))


#: The most that ``--limit depth`` may allow: a nesting that the file's reader, which follows
#: each level in a call of its own, reads within Python's recursion limit.
MAX_DEPTH = 200


def parse_limits(limits):
    """``Limits`` from None, a Limits, a dict ``{name: int}`` or strings ``"name=int"`` (the
    command line's ``--limit``); Limits checks the values."""
    if limits is None:
        return Limits()
    if isinstance(limits, Limits):
        return limits
    if isinstance(limits, dict):
        items = list(limits.items())
    else:
        items = []
        for text in limits:
            name, equals, value = str(text).partition("=")
            if not equals:
                raise ExperimentConfigError(
                    f"--limit takes NAME=VALUE (e.g. --limit candidates=50000); got "
                    f"{shown(text)}. Limits: {', '.join(_NAMES)}."
                )
            try:
                items.append((name.strip(), int(value)))
            except ValueError:
                raise ExperimentConfigError(
                    f"--limit {neutral(name)} takes an integer; got {shown(value)}."
                ) from None
    for name, _ in items:
        if name not in _NAMES:
            raise ExperimentConfigError(
                f"There is no limit {shown(name)}; the limits are {', '.join(_NAMES)}."
            )
    return Limits(**dict(items))


# TOML strings (multi-line first) and comments; what is left holds the brackets and commas
# of the file's structure. The alternatives are disjoint and each loop is unrolled (a
# character class, then the rare escape or quote), so matching is linear; possessive
# quantifiers (Python 3.11+) keep no backtracking state at all.
_P = "+" if sys.version_info >= (3, 11) else ""
_STRINGS_AND_COMMENTS = re.compile(
    rf'"""[^"\\]*{_P}(?:(?:\\.|"(?!""))[^"\\]*{_P})*{_P}"""(?:""?)?'
    rf"|'''[^']*{_P}(?:'(?!'')[^']*{_P})*{_P}'''(?:''?)?"
    rf'|"[^"\\\n]*{_P}(?:\\.[^"\\\n]*{_P})*{_P}"'
    r"|'[^'\n]*'"
    r"|#[^\n]*",
    re.DOTALL,
)
_STEP = np.zeros(256, dtype=np.int8)
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1
# what a dotted key is made of, strings aside (``"a.b".c`` leaves ``.c``): a run of these
# holds one dot between two levels of a key, and at most one of a value (a float, a time)
_KEY_RUN = np.zeros(256, dtype=bool)
_KEY_RUN[list(map(ord, string.ascii_letters + string.digits + "_-. \t"))] = True
# Nesting this deep is parsed, so that check_document refuses it with the exact depth and its
# key; deeper, and past the limit, the pre-scan refuses it before tomllib, which recurses on
# each level of brackets (a few hundred exhaust the stack) and takes memory quadratic in the
# levels of a dotted key (10 KB of ``a.a.a...`` took 100 MB).
_PARSED_DEPTH = 100


def prescan_toml(text, limits, path):
    """Refuse a TOML text too deep or of too many items; ``(depth, items)``, in linear time
    (table headers count as the levels they open and close; a dotted key of n dots, n - 1). The
    depth is a lower bound of the parsed document's, which :func:`check_document`
    measures: brackets and dotted keys are counted apart."""
    structure = _STRINGS_AND_COMMENTS.sub("", text).encode("utf-8", "replace")
    codes = np.frombuffer(structure, dtype=np.uint8)
    depth = 0
    if codes.size:
        depth = int(np.cumsum(_STEP[codes], dtype=np.int32).max(initial=0))
        dots = np.cumsum(codes == ord("."), dtype=np.int32)
        # the dots before each run: the count at the last character that ends one
        before = np.maximum.accumulate(np.where(_KEY_RUN[codes], 0, dots))
        depth = max(depth, int((dots - before).max()) - 1)
    if depth > max(limits.depth, _PARSED_DEPTH):
        raise ExperimentConfigError(
            limits.refusal(
                "depth", depth, f"{path}", "the nesting of its tables and arrays", whole=False
            )
        )
    items = structure.count(b",")
    if items > limits.items:
        raise ExperimentConfigError(
            limits.refusal("items", items, f"{path}", "the number of items of its arrays")
        )
    return depth, items


def read_text(path, limits):
    """The text of ``path``: a regular file (a FIFO would block: refused before it is
    opened), read no further than one byte past ``file_size``."""
    where, size, data = neutral(os.fspath(path)), 0, None
    try:
        if stat.S_ISREG(os.stat(path).st_mode):
            with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as file:
                status = os.fstat(file.fileno())
                if stat.S_ISREG(status.st_mode):
                    size = status.st_size
                    data = file.read(limits.file_size + 1) if size <= limits.file_size else b""
                    size = max(size, len(data))
    except OSError as error:
        raise ExperimentConfigError(
            f"Cannot read the experiment file {where!r}: {error}."
        ) from None
    if data is None:
        raise ExperimentConfigError(f"The experiment file {where!r} is not a regular file.")
    if size > limits.file_size:
        raise ExperimentConfigError(
            limits.refusal("file_size", size, f"{path}", "its size in bytes")
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ExperimentConfigError(f"{path} is not UTF-8 text: {error}.") from None


def _parts(link):
    """The key of a ``(name, parent)`` link of :func:`check_document`, as a tuple."""
    parts = []
    while link is not None:
        name, link = link
        parts.append(name)
    return tuple(reversed(parts))


def check_document(document, limits, source):
    """Refuse tables and arrays nested deeper than ``depth`` (each table and array a level,
    the document's top-level tables the first), lists longer than ``list_length`` and
    strings longer than ``string_length``; iteratively, so that no nesting exhausts the
    stack before it is refused."""
    # keys as (name, parent) links: a tuple per level would take memory quadratic in depth
    stack, deepest = [(None, document, 0)], (0, None)
    while stack:
        link, value, depth = stack.pop()
        if isinstance(value, (dict, list)) and depth > deepest[0]:
            deepest = depth, link
        if isinstance(value, dict):
            for name, item in value.items():
                if len(name) > limits.string_length:
                    raise source.error(
                        _parts(link),
                        limits.refusal("string_length", len(name), "a key", "its length"),
                    )
                stack.append(((name, link), item, depth + 1))
        elif isinstance(value, list):
            if len(value) > limits.list_length:
                raise source.error(
                    _parts(link),
                    limits.refusal("list_length", len(value), "an array", "its length"),
                )
            stack.extend((link, item, depth + 1) for item in value)
        elif isinstance(value, str) and len(value) > limits.string_length:
            raise source.error(
                _parts(link), limits.refusal("string_length", len(value), "a string", "its length")
            )
    depth, link = deepest
    if depth > limits.depth:
        # the key where the nesting passes the limit: the deepest one may be thousands long
        raise source.error(
            _parts(link)[: limits.depth + 1],
            limits.refusal("depth", depth, "its tables and arrays", "their nesting"),
        )


def count_candidates(grid):
    """Candidates of a grid, not expanded: the product of its list lengths, summed over
    its tables (a value that is not a list counts as one; the grid check refuses it)."""
    if grid is None:
        return 1
    return sum(
        math.prod(len(v) if isinstance(v, list) else 1 for v in table.values())
        if isinstance(table, dict)
        else 1
        for table in (grid if isinstance(grid, list) else [grid])
    )
