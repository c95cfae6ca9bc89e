"""Reading the text files of a TU data set, checked line by line, without running any code.

The TU format (https://chrsmrrs.github.io/datasets/docs/format/): comma-separated text files
(``NAME_graph_indicator.txt``, ``NAME_A.txt``, ``NAME_graph_labels.txt``, optional node and
edge labels and attributes), described in ``_FIELDS``; ``REQUIRED`` are those every data set
has, and a folder without one raises a :class:`TUMissingFileError` naming it. Any inconsistency
that would give a silently different data set raises a :class:`TUFormatError` (a ValueError)
naming the file and the line.

Why not PyG's ``torch_geometric.io.read_tu_data``: it checks none of this (an empty ``_A.txt``,
an edge between two graphs or a short label file give a bare exception or another data set),
and it is slower: 1.06 s for PROTEINS, 5.56 s for DD, 8.93 s for REDDIT-BINARY against 0.04 s,
0.28 s and 0.24 s here (one run each, 2 cores). The tests compare the graphs with ``TUDataset``.
"""

import io
import os
import re
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = [
    "REQUIRED",
    "TUFiles",
    "MAX_TU_SIZE",
    "TUFormatError",
    "TUMissingFileError",
    "TUSizeError",
    "check_tu_files",
    "read_tu_files",
    "read_tu_graph_labels",
]

#: Where the TU data sets can be downloaded by hand, as NAME.zip (PyG's TUDataset's address).
TU_URL = "https://www.chrsmrrs.com/graphkerneldatasets"
#: The files every TU data set has, ``NAME_<part>.txt``; the others are optional.
REQUIRED = ("graph_indicator", "A", "graph_labels")
#: The most bytes the raw files of a TU data set may hold together unless the caller says
#: more (``max_size``): 4 GiB; the largest of the paper's, COLLAB, holds 365 MB.
MAX_TU_SIZE = 2**32

# What each file of the format holds, as the errors name it.
_FIELDS = {
    "graph_indicator": "graph indicator (the graph id of each node, one line per node)",
    "A": "edge list (one 'i, j' line of 1-based node ids per edge)",
    "graph_labels": "graph labels (one line per graph)",
    "node_labels": "node labels (one line per node)",
    "node_attributes": "node attributes (one line per node)",
    "edge_labels": "edge labels (one line per line of the edge list)",
    "edge_attributes": "edge attributes (one line per line of the edge list)",
}


class TUFormatError(ValueError):
    """A raw file of a TU data set that does not hold what the format says; the message names
    the file and the line."""


class TUSizeError(TUFormatError):
    """A TU data set whose raw files hold more bytes than the caller's limit (``max_size``);
    the message names the folder or the file, the size and the limit."""


class TUMissingFileError(TUFormatError, FileNotFoundError):
    """A TU data set without one of its :data:`REQUIRED` files; the message names them and
    the folder (a FileNotFoundError, and a TUFormatError as the raw files' other faults)."""


def check_tu_files(name, raw_dir, present, source=None):
    """Raise :class:`TUMissingFileError` if the file names ``present`` (those of the folder
    ``raw_dir``, or of the archive ``source``) lack a :data:`REQUIRED` file of ``name``."""
    needed = [f"{name}_{part}.txt" for part in REQUIRED]
    missing = [file for file in needed if file not in present]
    if missing:
        raise TUMissingFileError(
            f"{source or raw_dir} lacks {', '.join(missing)}: every TU data set has "
            f"{', '.join(needed[:-1])} and {needed[-1]}. sklearn-fair never downloads data: "
            f"download {name}.zip from the TU collection ({TU_URL}/{name}.zip) and unpack its "
            f"text files into {raw_dir}/ (the layout root/{name}/raw/{name}_A.txt that PyTorch "
            "Geometric's TUDataset also uses)."
        )


@dataclass(frozen=True)
class TUFiles:
    """The raw content of a TU data set, node ids made 0-based, nothing else changed."""

    node_graph: np.ndarray  # (n_nodes,) graph of each node, 0-based, sorted
    edges: np.ndarray  # (n_edge_lines, 2) global 0-based node ids, as listed in A
    graph_labels: np.ndarray  # (n_graphs,) int64, raw values
    node_labels: np.ndarray | None  # (n_nodes, k) int64
    node_attributes: np.ndarray | None  # (n_nodes, d) float64
    edge_labels: np.ndarray | None  # (n_edge_lines, k) int64
    edge_attributes: np.ndarray | None  # (n_edge_lines, d) float64

    @property
    def n_graphs(self):
        return len(self.graph_labels)

    def degenerate(self):
        """The graphs the paper's reference code leaves out (``drop_degenerate``): at most one
        node, or no line in ``A`` (self-loops count)."""
        n_nodes = np.bincount(self.node_graph, minlength=self.n_graphs)
        edge_lines = np.bincount(self.node_graph[self.edges[:, 0]], minlength=self.n_graphs)
        return (n_nodes <= 1) | (edge_lines == 0)


#: The node-feature schemes that :func:`~sklearn_fair.graph.load_tu_dataset` accepts, with
#: what each one builds.
FEATURE_SCHEMES = {
    "auto": "the paper's choice: 'node-labels' for chemical data sets, "
    "'node-labels+attributes' for ENZYMES; social data sets need an explicit choice",
    "node-labels": "one-hot encoding of the node labels (chemical data sets)",
    "node-labels+attributes": "the node's continuous attributes, then its one-hot label",
    "constant": "the constant feature 1 on every node (the paper's first choice for social data)",
    "degree": "the node degree as a single feature (the paper's second choice for social data)",
    "one-hot-degree": "one-hot encoding of the node degree, up to the largest degree in the data",
}

#: The node-feature schemes built from the node labels (and attributes).
NODE_LABEL_SCHEMES = ("auto", "node-labels", "node-labels+attributes")


def uses_node_attributes(name, features):
    """Whether the scheme ``features`` of the data set ``name`` takes its node attributes:
    under "auto", ENZYMES alone (Errica et al. used no other's; PROTEINS(_full) and the other
    chemical data sets get their one-hot node labels)."""
    return features == "node-labels+attributes" or (features == "auto" and name == "ENZYMES")


def no_node_features(name, features):
    """Why a scheme built from node labels gives graphs without them no node features."""
    return (
        f"The TU data set {name!r} has no node labels, so features={features!r} gives "
        "no node features. Choose a scheme for graphs without node labels, as the "
        "paper did for social data sets: features='constant' (1 on every node) or "
        "features='degree' (or 'one-hot-degree')."
    )


#: What a raw file of a TU data set may be, as the errors say it.
REGULAR_RAW_FILES = "a TU data set's raw files are regular text files (a link to one is followed)"


def file_kind(mode):
    """What a file of mode ``mode`` (``os.stat``'s) is, in words: "a regular file", "a
    folder", "a FIFO", "a device", "a socket", "a symbolic link"."""
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "a socket" if stat.S_ISSOCK(mode) else "of another kind"


def raw_names(name):
    """The names of the raw files of the TU data set ``name`` that are read (the format's
    parts, :data:`_FIELDS`)."""
    return {f"{name}_{part}.txt" for part in _FIELDS}


def raw_file_size(path, read=True):
    """The size in bytes of ``path``, a raw file of a TU data set (links followed), or None:
    gone since the folder was listed, or not a regular file and not ``read``. One that is
    ``read`` and is not a regular file, or a link to nowhere, is :class:`TUFormatError`: taken
    as absent, an optional file (the node labels) would be left out without a word, where
    PyG's TUDataset fails to read it."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        if read and os.path.islink(path):
            raise TUFormatError(
                f"{path} is a link to {os.readlink(path)!r}, which does not exist; "
                f"{REGULAR_RAW_FILES}. Copy the file there, point the link at it, or delete "
                "the link to load the data set without it."
            ) from None
        return None
    if stat.S_ISREG(status.st_mode):
        return status.st_size
    if read:
        kind = file_kind(status.st_mode)
        raise TUFormatError(f"{path} is not a regular file: it is {kind}; {REGULAR_RAW_FILES}.")
    return None


def open_regular(path, where, accepted, error=TUFormatError):
    """The regular file ``path`` (links followed) opened unbuffered, else ``error`` saying what
    ``where`` is and what is ``accepted``. Checked before it is opened (a device is never
    opened) and on the open file, opened without blocking (a FIFO put there does not hang)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        file = open(os.open(path, flags), "rb", buffering=0)
        mode = os.fstat(file.fileno()).st_mode
        if stat.S_ISREG(mode):
            return file
        file.close()
    raise error(f"{where} is not a regular file: it is {file_kind(mode)}; {accepted}.")


_CHUNK = 1 << 20


def _read_regular(path, limit, max_size):
    """The bytes of the raw file ``path`` (:func:`open_regular`), read no further than one
    byte past ``limit`` (what is left of ``max_size``): a file that grew since the folder
    was listed is refused as it is read."""
    data = bytearray()
    with open_regular(path, path, REGULAR_RAW_FILES) as raw, io.BufferedReader(raw) as file:
        # in chunks: read(limit + 1) would set aside limit + 1 bytes (4 GiB by default) first
        while len(data) <= limit:
            chunk = file.read(min(_CHUNK, limit + 1 - len(data)))
            if not chunk:
                break
            data += chunk
    if len(data) > limit:
        raise TUSizeError(
            f"{path} grew while the data set was read: the raw files hold more than "
            f"max_size={max_size} bytes together. Pass a larger max_size to read it."
        )
    return data


def _listed(name, raw_dir):
    """``{file name: size}`` of the raw files of ``name`` (the format's files) in ``raw_dir``,
    each checked by :func:`raw_file_size`."""
    if not raw_dir.is_dir():
        return {}
    names = raw_names(name)  # (README.txt, processed/, ...: never read)
    sizes = {path.name: raw_file_size(path) for path in raw_dir.iterdir() if path.name in names}
    return {file: size for file, size in sizes.items() if size is not None}


def read_tu_files(name, raw_dir, max_size=MAX_TU_SIZE):
    """Read and check the TU files of data set ``name`` in ``raw_dir`` (nothing downloaded).

    The raw files must be regular files (links followed): one that is a folder, a FIFO or a
    device raises a :class:`TUFormatError` naming it. They may hold at most ``max_size``
    bytes together (:class:`TUSizeError`, before any is read; a file that grows past it is
    refused as it is read)."""
    raw_dir = Path(raw_dir)
    present = _listed(name, raw_dir)
    check_tu_files(name, raw_dir, present)
    total = sum(present.values())
    if total > max_size:
        raise TUSizeError(
            f"{raw_dir}: the raw files of {name} hold {total} bytes together, more than "
            f"max_size={max_size} bytes. Pass a larger max_size to read them."
        )
    left = max_size

    def read(path, dtype, part, **kwargs):  # each file from what is left of max_size
        nonlocal left
        data = _read_regular(path, left, max_size)
        left -= len(data)
        return _read_table(path, dtype, part, data=data, **kwargs)

    indicator_path, a_path, labels_path = (raw_dir / f"{name}_{part}.txt" for part in REQUIRED)

    node_graph = read(indicator_path, np.int64, "graph_indicator", n_columns=1)[:, 0]
    _check_indicator(indicator_path, node_graph)
    node_graph = node_graph - 1
    n_nodes = len(node_graph)
    n_graphs = int(node_graph[-1]) + 1

    # an empty edge list is refused as PyG's TUDataset refuses it (graphs without any edge
    # are not a TU data set); a graph of its own may still have no edges
    edges = read(a_path, np.int64, "A", n_columns=2)
    _check_edges(a_path, edges, node_graph)
    edges = edges - 1

    graph_labels = read(labels_path, np.int64, "graph_labels", n_columns=1)[:, 0]
    _check_count(labels_path, len(graph_labels), n_graphs, "graph", indicator_path)

    optional = {}
    for part, dtype, count, what in (
        ("node_labels", np.int64, n_nodes, "node"),
        ("node_attributes", np.float64, n_nodes, "node"),
        ("edge_labels", np.int64, len(edges), "edge"),
        ("edge_attributes", np.float64, len(edges), "edge"),
    ):
        path = raw_dir / f"{name}_{part}.txt"
        optional[part] = None
        if path.name in present:
            optional[part] = read(path, dtype, part, allow_empty=count == 0)
            reference = indicator_path if what == "node" else a_path
            _check_count(path, len(optional[part]), count, what, reference)
    return TUFiles(node_graph=node_graph, edges=edges, graph_labels=graph_labels, **optional)


def read_tu_graph_labels(path, data=None, max_size=MAX_TU_SIZE):
    """The graph labels of the file ``path`` (its bytes ``data`` if given: a file in an
    archive; else at most ``max_size`` bytes read), one int64 per line, checked as
    :func:`read_tu_files` checks them."""
    if data is None:
        data = _read_regular(path, max_size, max_size)
    return _read_table(path, np.int64, "graph_labels", n_columns=1, data=data)[:, 0]


def _read_table(path, dtype, part, *, data, n_columns=None, allow_empty=False):
    """The comma-separated numbers of ``path`` (file ``part``), its bytes ``data``, as a 2-D
    array, a row per line."""
    if not data:
        if not allow_empty:
            raise TUFormatError(
                f"{path} is empty: the {part} file of a TU data set holds the "
                f"{_FIELDS[part]} and needs at least one line."
            )
        return np.zeros((0, n_columns or 0), dtype=dtype)
    n_lines = data.count(b"\n") + (1 if not data.endswith(b"\n") else 0)
    try:
        with warnings.catch_warnings():  # blank lines only: an error of ours names the line
            warnings.filterwarnings("ignore", "loadtxt: input contained no data", UserWarning)
            table = np.loadtxt(io.BytesIO(data), delimiter=",", dtype=dtype, ndmin=2, comments=None)
    except ValueError:
        table = None
    if table is None or len(table) != n_lines:
        _raise_first_bad_line(path, data, dtype)  # always raises
    if n_columns is not None and len(table) and table.shape[1] != n_columns:
        raise TUFormatError(
            f"{path}, line 1: expected {n_columns} comma-separated value(s) per line, found "
            f"{table.shape[1]} (the {part} file holds the {_FIELDS[part]})."
        )
    return table


_INT64 = np.iinfo(np.int64)
_DIGITS = re.compile(r"\s*[+-]?[0-9]+\s*")


def _field_problem(field, integer):
    """Why numpy's ``loadtxt`` refuses ``field`` as an int64 (``integer``) or a float64, or
    None. Python's int and float read more: ``"1_0"``, non-ASCII digits, and ints of any size."""
    problem = "is not an integer" if integer else "is not a number"
    if "_" in field or not field.isascii():
        return problem
    try:
        value = int(field) if integer else float(field)
    except ValueError:  # int() refuses digits past sys.get_int_max_str_digits() too
        return "is past int64" if integer and _DIGITS.fullmatch(field) else problem
    return "is past int64" if integer and not _INT64.min <= value <= _INT64.max else None


def _raise_first_bad_line(path, data, dtype):
    integer = np.dtype(dtype).kind == "i"
    accepted = (
        f"a decimal integer within int64 ({_INT64.min} to {_INT64.max})"
        if integer
        else "a decimal number (such as 2, -0.5, 1e-3, nan or inf)"
    )
    width = None
    for number, line in enumerate(data.decode("utf-8", errors="replace").split("\n"), 1):
        if number > 1 and line == "" and number == data.count(b"\n") + 1:
            break  # the end of a file that ends with a newline
        fields = line.split(",")
        if not line.strip():
            raise TUFormatError(f"{path}, line {number}: empty line; every line needs a value.")
        for field in fields:
            problem = _field_problem(field, integer)
            if problem is not None:
                raise TUFormatError(
                    f"{path}, line {number}: {_shown(field)} {problem} (line {_shown(line)}); "
                    f"each value of this file is {accepted}."
                )
        if width is not None and len(fields) != width:
            raise TUFormatError(
                f"{path}, line {number}: {len(fields)} values, but the lines before have {width}."
            )
        width = len(fields)
    raise TUFormatError(f"{path} could not be read as comma-separated numbers.")


def _shown(text, limit=80):
    """``text`` stripped and quoted, cut to ``limit`` characters: a line of a hostile file
    may be megabytes long, the error that quotes it is not."""
    text = text.strip()
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def _check_indicator(path, node_graph):
    if node_graph[0] != 1:
        raise TUFormatError(f"{path}, line 1: the first graph id must be 1. Got {node_graph[0]}.")
    steps = np.diff(node_graph)
    bad = np.flatnonzero((steps < 0) | (steps > 1))
    if len(bad):
        line = int(bad[0]) + 2
        raise TUFormatError(
            f"{path}, line {line}: graph id {node_graph[line - 1]} after {node_graph[line - 2]}. "
            "Graph ids must run 1, 2, 3, ... with the nodes of each graph on consecutive lines "
            "(a gap would be a graph without nodes, a step back a graph split in two)."
        )


def _check_edges(path, edges, node_graph):
    if not len(edges):
        return
    n_nodes = len(node_graph)
    bad = np.flatnonzero(((edges < 1) | (edges > n_nodes)).any(axis=1))
    if len(bad):
        line = int(bad[0])
        raise TUFormatError(
            f"{path}, line {line + 1}: node id out of range in the edge "
            f"{tuple(edges[line].tolist())}; node ids run from 1 to {n_nodes} (the number of "
            "lines of the graph indicator)."
        )
    graphs = node_graph[edges - 1]
    bad = np.flatnonzero(graphs[:, 0] != graphs[:, 1])
    if len(bad):
        line = int(bad[0])
        raise TUFormatError(
            f"{path}, line {line + 1}: the edge {tuple(edges[line].tolist())} joins graph "
            f"{graphs[line, 0] + 1} and graph {graphs[line, 1] + 1}; an edge must stay within "
            "one graph."
        )


def _check_count(path, count, expected, what, reference):
    if count != expected:
        relation = "more" if count > expected else "fewer"
        raise TUFormatError(
            f"{path} has {count} lines, {relation} than the {expected} {what}s that "
            f"{reference.name} defines; it needs one line per {what}."
        )
