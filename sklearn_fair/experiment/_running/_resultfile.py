"""The one writer of the runner's output files: inside the results folder, atomic, never
through a link.

A results folder may be prepared by someone else. So every file is named by labels' file
names (never a separator, a leading dot or ``..``), every folder on the way down must be a
real folder, and the target a regular file or absent (a link, a folder, a FIFO or a device
is refused without being opened, before the first fit and when written). Each file is
written under a unique temporary name in its folder and renamed over its target: a reader
sees the old file or the new one, and two runners on one folder leave each file whole. A
JSON file carries the SHA-256 of its content (``checksum``).
"""

import contextlib
import json
import os
import stat
import uuid
from pathlib import Path

from ...exceptions import ExperimentConfigError
from ...utils._provenance import checksum, with_checksum  # the report's rule too
from .._reading._text import neutral

__all__ = ["ResultsFolder", "checksum", "with_checksum"]


_FILE = "a regular file"


def _kind(path):
    """What is at ``path`` (links not followed), or None if nothing is."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISREG(mode):
        return _FILE
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"


class ResultsFolder:
    """The results folder ``root`` of a run, and every file written in it (``files``)."""

    def __init__(self, root):
        self.root = Path(root)
        self.files = []

    def _target(self, parts, create=False):
        for part in parts:
            if not part or part in (".", "..") or "/" in part or os.sep in part or "\0" in part:
                raise ValueError(f"{part!r} is not a file name")  # pragma: no cover - file_name
        folder = self.root
        if create:
            folder.mkdir(parents=True, exist_ok=True)
        for part in parts[:-1]:
            folder = folder / part
            if create:
                with contextlib.suppress(FileExistsError):  # another runner made it first
                    folder.mkdir()
            kind = _kind(folder)
            if kind not in (None, "a folder"):
                raise ExperimentConfigError(
                    neutral(
                        f"The results folder holds {folder}, which is {kind}, where a "
                        "folder goes; remove it."
                    )  # fmt: skip
                )
        target = folder / parts[-1]
        kind = _kind(target)
        if kind not in (None, _FILE):
            raise ExperimentConfigError(
                neutral(
                    f"The results folder holds {target}, which is {kind}, not a regular "
                    "file; remove it."
                )  # fmt: skip
            )
        return target

    def check(self, files):
        """Refuse, before any fit, what is in the way of ``files`` (tuples of parts)."""
        for parts in files:
            self._target(parts)

    def write(self, parts, write):
        """Call ``write(temporary_path)``, then rename it over ``root / *parts``."""
        target = self._target(parts, create=True)
        stem, suffix = os.path.splitext(target.name)
        # the same suffix: writers that choose a format by suffix (matplotlib) keep working
        temporary = target.parent / f".{stem[:40]}.{uuid.uuid4().hex}.tmp{suffix}"
        try:
            write(temporary)
            if _kind(temporary) not in (None, _FILE):  # pragma: no cover - a writer made a link
                raise ExperimentConfigError(f"{temporary} is not a regular file.")
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        self.files.append(target)
        return target

    def write_text(self, parts, text):
        def write(temporary):
            with open(temporary, "x", encoding="utf-8", newline="") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())

        return self.write(parts, write)

    def write_json(self, parts, document):
        """Write ``document`` with its checksum."""
        return self.write_text(parts, json.dumps(with_checksum(document), indent=1))
