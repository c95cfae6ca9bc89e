"""The one writer of the runner's output files: inside the results folder, atomic, never
through a link.

A results folder may be prepared by someone else. So every file is named by labels' file
names (never a separator, a leading dot or ``..``), every folder on the way down must be a
real folder, and the target a regular file or absent (a link, a folder, a FIFO or a device
is refused without being opened, before the first fit and when written). Each file is
written under a unique temporary name in its folder and renamed over its target: a reader
sees the old file or the new one, and two runners on one folder leave each file whole. A
JSON file carries the SHA-256 of its content (``checksum``).

``outputs.json`` records every file of the run with its SHA-256, so that the next run removes
those it does not write itself (while they are as the run wrote them, and a JSON file in
``models/`` a model file whose checksum holds): the folder holds one run's results. A record
whose own checksum fails (edited since) removes nothing: the files it names are left, named;
one that cannot be read (truncated, not the runner's) removes nothing either, and every file of
the runner's layout that this run did not write is left, named. The record says
``"complete": false`` from before the first output is written until the run's own record
replaces it (``true``): a folder whose run was stopped while writing it holds files of two
runs, and says so. That interim record names every file the run may write (``writing``, no
digest yet), so that after a hard kill (which records nothing more) the next run removes
those it does not write itself where they are the runner's (a model file's checksum holds;
a table or plot by its name), and leaves a JSON file of the user's there; it also removes
the temporary files (``.<name>.<hex>.tmp<suffix>``) a killed run left, where the lock keeps
other runs out.
"""

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import sys
import uuid
from functools import partial
from pathlib import Path

from ...exceptions import ExperimentConfigError
from ...model_selection._engine import read_json
from ...utils._provenance import checksum, with_checksum  # the report's rule too
from ...utils._tu_format import file_kind
from .._reading._paths import locked
from .._reading._text import neutral

__all__ = ["RECORD", "ResultsFolder", "checksum", "with_checksum"]


_FILE = "a regular file"
RECORD = "outputs.json"
#: Held while a run writes the folder (:meth:`ResultsFolder.writing`).
LOCK = ".outputs.lock"
_RECORD_FORMAT = "sklearn-fair-results-folder/1"
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: The temporary name of :meth:`ResultsFolder.write`, which a killed run leaves behind.
_TEMPORARY = re.compile(r"\.(?P<stem>[^/]{0,40})\.[0-9a-f]{32}\.tmp(?P<suffix>\.[^./]*)?")
#: Whether :func:`locked` locks (it does where fcntl is): then no other run writes beside ours.
_LOCKS = importlib.util.find_spec("fcntl") is not None


def _left_by_a_run(in_layout, parts):
    """Whether ``parts`` name a temporary of :meth:`ResultsFolder.write` of a file of the
    runner's layout (``in_layout``): not another writer's (a cache's record, a saved result)."""
    found = _TEMPORARY.fullmatch(parts[-1])
    return found is not None and in_layout((*parts[:-1], found["stem"] + (found["suffix"] or "")))


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _kind(path):
    """What is at ``path`` (links not followed), or None if nothing is."""
    try:
        kind = file_kind(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None
    return "a device or socket" if kind in ("a device", "a socket", "of another kind") else kind


def _refuse_kind(path, accepted, why):
    kind = _kind(path)
    if kind not in (None, accepted):
        raise ExperimentConfigError(
            neutral(f"The results folder holds {path}, which is {kind}, {why}; remove it.")
        )


def nearest_existing(path):
    """``(the nearest existing path of path, its kind)`` (links followed): where a folder at
    ``path`` would be made from; an OSError where one on the way cannot be searched."""
    while True:
        try:
            return path, file_kind(os.stat(path).st_mode)
        except (FileNotFoundError, NotADirectoryError):
            if path.parent == path:  # pragma: no cover - the file system's root is there
                raise
            path = path.parent


class ResultsFolder:
    """The results folder ``root`` of a run, and every file written in it (``files``; its
    parts joined by ``/`` -> its SHA-256 in ``sha256``). ``begun``: whether this run started
    writing it (:meth:`begin`); ``complete``: whether this run's record is written (by
    :meth:`replace_record`)."""

    def __init__(self, root):
        self.root, self.files, self.sha256 = Path(root), [], {}
        self.complete, self.begun, self._earlier = False, False, None
        self._planned, self._temporaries = [], []

    def _target(self, parts, create=False):
        for part in parts:
            if not part or part in (".", "..") or "/" in part or os.sep in part or "\0" in part:
                raise ValueError(f"{part!r} is not a file name")  # pragma: no cover - file_name
        self.check_root()
        folder = self.root
        if create:
            folder.mkdir(parents=True, exist_ok=True)
        for part in parts[:-1]:
            folder = folder / part
            if create:
                with contextlib.suppress(FileExistsError):  # another runner made it first
                    folder.mkdir()
            _refuse_kind(folder, "a folder", "where a folder goes")
        target = folder / parts[-1]
        _refuse_kind(target, _FILE, "not a regular file")
        return target

    def check_root(self):
        """Refuse a results folder that is not a writable folder, nor can be made as one: a
        file there or on the way (the nearest existing path, links followed, must be a
        folder)."""
        root = self.root
        path, kind = nearest_existing(root)
        if kind != "a folder":
            raise ExperimentConfigError(
                neutral(
                    f"The results folder {root} is {kind}, not a folder; remove it or choose "
                    "another."
                    if path == root
                    else f"The results folder {root} cannot be made: {path}, on the way to "
                    f"it, is {kind}."
                )
            )
        if not os.access(path, os.W_OK | os.X_OK):
            raise ExperimentConfigError(
                neutral(
                    f"The results folder {root} cannot be "
                    + ("written" if path == root else f"made: {path} is not writable")
                    + " (permissions, or a read-only file system)."
                )
            )

    def check(self, files):
        """Refuse, before any fit, what is in the way of ``files`` (tuples of parts): the
        files this run may write, which :meth:`begin` records."""
        for parts in files:
            self._target(parts)
        self._planned = ["/".join(parts) for parts in files]

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
            digest = _sha256(temporary)
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        self.files.append(target)
        self.sha256["/".join(parts)] = digest
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

    def _recorded(self, in_layout):
        """``(files, unverified, writing)``: the files of the earlier run's record (name ->
        SHA-256) that may be removed, those that may not (not verified by an earlier run; all,
        where the record's checksum fails), and those a run stopped while writing the folder
        may have written (no digest); none where there is no record, and, where there is one
        that cannot be read (truncated, not the runner's), every file of the runner's layout
        in the folder as unverified: nothing says which run wrote them."""
        if _kind(self.root / RECORD) != _FILE:
            return {}, [], []
        try:
            document = read_json(
                self.root / RECORD, max_bytes=1 << 26, max_depth=3, error=ValueError
            )
        except ValueError:
            return {}, self._layout_files(in_layout), []
        if (
            not isinstance(document, dict)
            or document.get("format") != _RECORD_FORMAT
            or not isinstance(document.get("files"), dict)
        ):
            return {}, self._layout_files(in_layout), []
        files = {
            n: d
            for n, d in document["files"].items()
            if isinstance(d, str) and _SHA256.fullmatch(d)
        }

        def names(key):
            found = document.get(key)
            found = found if isinstance(found, list) else []
            return list(dict.fromkeys(n for n in found if isinstance(n, str)))

        unverified, writing = names("unverified"), names("writing")
        if document.get("checksum") != checksum(document):
            return {}, list(dict.fromkeys([*unverified, *files, *writing])), []
        return files, unverified, writing

    def _layout_files(self, in_layout, limit=100_000):
        """The names (``models/iris/knn.json``) of the files in the folder that the runner's
        layout may hold (``in_layout``; in ``models/`` and ``plots/``, no deeper), at most
        ``limit`` entries read."""
        found, folders, read = [], [()], 0
        while folders and read < limit:
            parts = folders.pop()
            try:
                entries = list(os.scandir(self.root.joinpath(*parts)))
            except OSError:
                continue
            read += len(entries)
            for entry in entries:
                sub = (*parts, entry.name)
                if entry.is_dir(follow_symlinks=False):
                    if sub[0] in ("models", "plots") and len(sub) < 3:
                        folders.append(sub)
                elif entry.is_file(follow_symlinks=False) and in_layout(sub):
                    found.append("/".join(sub))
        return sorted(found)

    def _write_record(self, files, unverified, complete, writing=()):
        record = {"format": _RECORD_FORMAT, "files": files}
        if unverified:
            record["unverified"] = unverified
        if writing:  # the interim record's: what a run killed while writing may have written
            record["writing"] = list(writing)
        target = self.write_json((RECORD,), {**record, "complete": complete})
        del self.sha256[RECORD]  # the record lists the others
        if not complete:  # this run's final record is among its files, not the interim ones
            self.files.remove(target)

    @contextlib.contextmanager
    def writing(self):
        """Hold the folder's lock (``.outputs.lock`` in it) while this run writes its outputs
        and record: two runs into one folder write one after the other, and the later one
        removes what the earlier wrote and it does not, as it would after a finished run."""
        self.check_root()
        self.root.mkdir(parents=True, exist_ok=True)

        def waiting():
            print(
                neutral(
                    f"sklearn-fair run: waiting for another run to finish writing the results "
                    f"folder {self.root} (it holds {LOCK} there)"
                ),
                file=sys.stderr,
                flush=True,
            )

        with locked(self.root / LOCK, "the results folder", waiting):
            yield

    def begin(self, in_layout):
        """Before the first output: record that the folder is being written (``complete``
        false), with the earlier run's record (its files and digests, for
        :meth:`replace_record` to remove as before) and every file this run may write
        (``writing``: the ones :meth:`check` checked, and those of an earlier stopped run):
        a run stopped while writing, even killed, leaves files of two runs, and a record
        that says so and names them. Where the lock keeps other runs out, first remove the
        temporary files a killed run left (named by :meth:`replace_record`)."""
        if _LOCKS:
            for name in self._layout_files(partial(_left_by_a_run, in_layout)):
                target = self.root.joinpath(*name.split("/"))
                with contextlib.suppress(OSError):
                    target.unlink()
                    self._temporaries.append(target)
        files, unverified, writing = self._earlier = self._recorded(in_layout)
        # a file there now is not this run's to remove if it is stopped: the earlier record's
        # digest says whether it was rewritten, and a file of the user's is left
        new = (n for n in self._planned if not self.root.joinpath(*n.split("/")).exists())
        self._planned = sorted(n for n in {*writing, *new} if in_layout(tuple(n.split("/"))))
        self._write_record(files, unverified, False, self._planned)
        self.begun = True

    @property
    def holds_earlier(self):
        """Whether the record of an earlier run named files when this run began writing."""
        return self._earlier is not None and any(self._earlier)

    def stopped(self):
        """A run stopped while writing: record the files written so far with their digests
        (beside the earlier run's), still not complete, so that the next run removes those
        it does not write; kept as it is where this cannot be written."""
        if self.complete or self._earlier is None:
            return
        files, unverified, _ = self._earlier
        with contextlib.suppress(OSError, ExperimentConfigError):
            self._write_record({**files, **self.sha256}, unverified, False, self._planned)

    def replace_record(self, in_layout, written_by_runner):
        """Remove the files of the earlier run's record that this run did not write, where
        ``in_layout(parts)``, as that run wrote them (their SHA-256) and
        ``written_by_runner(parts, path)``, and record this run's; ``(removed, left)``: the
        paths removed, and those left, kept in the record so that every run names them. A
        file that a run stopped while writing may have written (the record's ``writing``)
        has no digest to hold: it is removed where ``written_by_runner`` (a model file whose
        checksum holds; a table or plot of the layout), and else not touched (the user's)."""
        removed, left, unverified = list(self._temporaries), {}, []
        # as read when this run began: the interim record names this run's files too
        earlier = self._recorded(in_layout) if self._earlier is None else self._earlier
        files, names, writing = earlier
        for name in dict.fromkeys([*files, *names, *writing]):
            digest, parts = files.get(name), tuple(name.split("/"))
            if name in self.sha256 or not in_layout(parts):
                continue  # this run's, or not a name the runner writes: not touched
            try:
                target = self._target(parts)
                if _kind(target) != _FILE or any(_same_file(target, f) for f in self.files):
                    continue  # gone, or this run's under another spelling (a case-blind disk)
                if name not in writing:  # the stopped run's may have been rewritten
                    if digest is None:
                        unverified.append(name)
                        continue
                    if _sha256(target) != digest:
                        raise OSError("changed since it was written")
                if not written_by_runner(parts, target):
                    if digest is None:  # where a stopped run would write: the user's file
                        continue
                    raise OSError("not a file the runner wrote")
                target.unlink()
                removed.append(target)
            except (ExperimentConfigError, ValueError):
                continue  # a link or a file on the way, or no file name: nothing of ours
            except OSError:
                if digest is None:
                    unverified.append(name)
                else:
                    left[name] = digest
                continue
            if len(parts) > 2:  # a data set's folder of models/, once empty
                with contextlib.suppress(OSError):
                    target.parent.rmdir()
        self._write_record({**left, **self.sha256}, unverified, complete=True)
        self.complete = True
        return removed, [self.root.joinpath(*n.split("/")) for n in [*left, *unverified]]
