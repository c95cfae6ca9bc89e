"""Paths named in an experiment file: where they may point, and ``${SKLEARN_FAIR_DATA}``.

A file from elsewhere must not make the runner read or write anywhere on the disk: every
path, resolved (links followed), must lie in the file's folder, or for inputs in the data
folder (``SKLEARN_FAIR_DATA`` or ``--data-dir``); anything else needs the user's
``allow_outside_paths=True``, which a file cannot give itself.
"""

import os
import re
from contextlib import contextmanager
from pathlib import Path

from ...exceptions import ExperimentConfigError
from ...utils._tu_format import file_kind
from ._text import shown

__all__ = ["DATA_VARIABLE", "file_kind", "locked", "resolve_path"]

#: The one variable a path may use, written ``${SKLEARN_FAIR_DATA}``.
DATA_VARIABLE = "SKLEARN_FAIR_DATA"
_VARIABLE = re.compile(r"\$\{([^}]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def data_dir_from(data_dir):
    """The data folder: ``data_dir`` if given, else ``$SKLEARN_FAIR_DATA``, else None."""
    if data_dir is not None:
        return Path(data_dir).resolve()
    value = os.environ.get(DATA_VARIABLE)
    return Path(value).resolve() if value else None


def _expand(value, source, key, data_dir):
    def replace(match):
        name = match.group(1) if match.group(1) is not None else match.group(2)
        if name != DATA_VARIABLE:
            raise source.error(
                key,
                f"the path {shown(value)} uses the variable {shown(name)}; only "
                f"${{{DATA_VARIABLE}}} is expanded.",
            )
        if data_dir is None:
            raise source.error(
                key,
                f"the path {shown(value)} uses ${{{DATA_VARIABLE}}}, which is not set: set the "
                f"environment variable {DATA_VARIABLE} to the data folder, or pass "
                "--data-dir (data_dir= in Python).",
            )
        return os.fspath(data_dir)

    if "\0" in value:  # the operating system refuses it: os.path.realpath raised ValueError
        raise source.error(
            key, f"the path {shown(value)} holds a NUL character (\\u0000), which no path may hold."
        )
    if value.startswith("~"):
        raise source.error(key, f"the path {shown(value)} starts with '~'; give a relative path.")
    return _VARIABLE.sub(replace, value)


def resolve_path(value, key, *, source, base, data_dir, allow_outside, output=False, expand=True):
    """``value`` resolved from ``base`` (the file's folder), refused outside the folders it
    may use (an ``output`` may not lie in the data folder); ``expand=False``: ``value`` is
    a path found on the disk (a file of a data set's folder), not a path the file wrote."""
    written = base / (_expand(value, source, key, data_dir) if expand else value)
    path = written.resolve()
    roots = [base] + ([data_dir] if data_dir is not None and not output else [])
    if allow_outside or any(path.is_relative_to(root) for root in roots):
        return path
    places = f"the experiment file's folder {os.fspath(base)!r}"
    if not output:
        places += (
            f" or the data folder ({DATA_VARIABLE}="
            f"{os.fspath(data_dir) if data_dir is not None else 'unset'})"
        )
    # through a link: the path as written (its ".." undone), then where it leads
    given = os.path.normpath(written)
    named = f"{given!r}, which leads to {os.fspath(path)!r}," if given != os.fspath(path) else None
    raise source.error(
        key,
        f"the path {named or repr(os.fspath(path))} is outside {places}; a file cannot name "
        "any path on the disk. If you trust it, pass --allow-outside-paths "
        "(allow_outside_paths=True).",
    )


@contextmanager
def locked(path, what="a working copy", waiting=None):
    """An exclusive lock on ``path`` where the system has one (released when the process
    ends, however), so that parallel runs take turns: at copying over a copy being read, at
    writing one results folder or one cache's record. ``waiting()`` is called where another
    process holds it, before this one waits. A link there is refused, not followed."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise ExperimentConfigError(
            f"{path} cannot be opened as the lock of {what} ({exc.strerror}); if it is a "
            "symbolic link, remove it."
        ) from exc
    with os.fdopen(descriptor, "a") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            yield
            return
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # held by another run: say so, then wait for it
            if waiting is not None:
                waiting()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
