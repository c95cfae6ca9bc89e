"""Reading a JSON file from elsewhere with bounded work: a size cap and a nesting cap.

``json.load`` reads a whole file, however large (``/dev/zero`` never ends), and recurses
once per level of nesting, so a few hundred kilobytes of ``[`` raise RecursionError (or,
on some builds, overflow the C stack). :func:`read_json` reads at most ``max_bytes`` and
measures the nesting on the raw bytes, in C-speed numpy passes over fixed-size chunks,
before the parser sees them.
"""

import json
import os
import stat

import numpy as np

__all__ = ["read_json", "scan", "short_repr"]

# bytes per numpy pass: small enough to keep the temporaries to a few MB
_CHUNK = 1 << 18
_READ_BLOCK = 1 << 20
_QUOTE, _BACKSLASH = 0x22, 0x5C
# +1 for the bytes that open a level ([ {), -1 for those that close one (] })
_STEP = np.zeros(256, dtype=np.int8)
_STEP[[0x5B, 0x7B]] = 1
_STEP[[0x5D, 0x7D]] = -1


def scan(data, *, max_depth=None, max_objects=None):
    """``(problem, objects)``: one pass over the JSON text ``data`` (bytes) that stops at the
    first chunk where the nesting passes ``max_depth`` (problem ``"depth"``) or the objects
    (``{`` outside strings) pass ``max_objects`` (problem ``"objects"``; ``objects`` is then
    the count so far; without a problem, an upper bound). The work is bounded by the size of
    ``data``, and by less when it stops. The depth is exact for the part of ``data`` that is
    valid JSON, the only part a parser recurses into.
    """
    braces = data.count(b"{")
    if (max_depth is None or braces + data.count(b"[") <= max_depth) and (
        max_objects is None or braces <= max_objects
    ):
        return None, braces  # within both limits, whatever the strings hold
    # without backslashes a quote always opens or closes a string: a cheaper mask
    simple = data.count(b"\\") == 0
    depth, objects, in_string, escaping = 0, 0, False, False
    for start in range(0, len(data), _CHUNK):
        chunk = np.frombuffer(data, np.uint8, count=min(_CHUNK, len(data) - start), offset=start)
        if simple:
            quotes = np.cumsum(chunk == _QUOTE, dtype=np.int32)
            outside = ((quotes & 1) == 1) == in_string
            in_string ^= bool(quotes[-1] & 1)
        else:
            outside, in_string, escaping = _outside_strings(chunk, in_string, escaping)
        if max_objects is not None:
            objects += int(np.count_nonzero((chunk == 0x7B) & outside))
            if objects > max_objects:
                return "objects", objects
        if max_depth is not None:
            levels = depth + np.cumsum(_STEP[chunk] * outside, dtype=np.int64)
            if levels.max() > max_depth:
                return "depth", objects
            depth = int(levels[-1])
    return None, objects


def _outside_strings(chunk, in_string, escaping):
    """Mask of the bytes of ``chunk`` outside JSON strings, and the state at its end."""
    position = np.arange(chunk.size, dtype=np.int32)
    backslash = chunk == _BACKSLASH
    # length of the run of backslashes that ends at each byte (0 after other bytes)
    last_other = np.maximum.accumulate(np.where(backslash, np.int32(-1), position))
    odd_run = ((position - last_other) % 2 == 1) & backslash
    # a run that starts the chunk continues the previous chunk's run
    odd_run ^= backslash & (last_other < 0) & escaping
    escaped = np.empty(chunk.size, dtype=bool)
    escaped[0] = escaping
    escaped[1:] = odd_run[:-1]
    quotes = np.cumsum((chunk == _QUOTE) & ~escaped, dtype=np.int64)
    outside = ((quotes & 1) == 1) == in_string
    return outside, in_string ^ bool(quotes[-1] & 1), bool(odd_run[-1])


def short_repr(value, limit=40):
    """repr of a value read from a file, cut short: a JSON int may have thousands of digits."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**limit else "<huge int>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _DuplicateKey(ValueError):
    """A key given twice in one JSON object (raised by :func:`_unique_keys`)."""


def _unique_keys(pairs):
    """``object_pairs_hook`` that refuses a key given twice in one object, which
    ``json.loads`` would resolve silently in favour of the last."""
    document = dict(pairs)
    if len(document) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return document


def read_json(
    path,
    *,
    max_bytes,
    max_depth,
    error,
    max_objects=None,
    objects_hint="",
    unique_keys=False,
):
    """Parse the JSON file ``path``, raising ``error`` (a ValueError subclass; the message
    names the file) for anything that is not bounded JSON: a file over ``max_bytes`` (refused
    without being read further), or nesting deeper than ``max_depth`` or holding more than
    ``max_objects`` JSON objects (refused before parsing; ``objects_hint`` says what the
    objects are and which parameter bounds them). With ``unique_keys``, an object that gives
    a key twice is refused too (by default the last one wins, as in ``json.loads``).
    """
    where = os.fspath(path)
    # read block by block: file.read(n) allocates n bytes up front, however small the file
    # a FIFO or a device would block or never end: refuse anything but a regular file,
    # checked before it is opened for reading and again on the descriptor opened
    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError as exc:
        raise error(f"Cannot read {where}: {exc}.") from None
    if not regular:
        raise error(f"{where} is not a regular file.")
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb", buffering=0) as file:
        status = os.fstat(file.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise error(f"{where} is not a regular file.")
        too_large = (
            f"{where} is larger than max_bytes={max_bytes}; pass a larger max_bytes if the "
            "file is really meant to be that large."
        )
        if status.st_size > max_bytes:  # refused before a byte is read
            raise error(too_large)
        # one buffer of the file's size (plus a byte, to notice a file that grew): the
        # memory is the file's size once, never a multiple of it
        data = bytearray(min(status.st_size, max_bytes) + 1)
        view, size = memoryview(data), 0
        while size < len(data):
            count = file.readinto(view[size : size + _READ_BLOCK])
            if not count:
                break
            size += count
        view.release()
    if size > max_bytes:
        raise error(too_large)
    del data[size:]
    problem, n_objects = scan(data, max_depth=max_depth, max_objects=max_objects)
    if problem == "depth":
        raise error(f"{where} nests JSON arrays or objects more than {max_depth} levels deep.")
    if problem == "objects":
        raise error(
            f"{where} holds more than {max_objects} JSON objects (counted {n_objects} of "
            f"them before stopping){objects_hint}."
        )
    hook = _unique_keys if unique_keys else None
    try:
        return json.loads(data.decode("utf-8"), object_pairs_hook=hook)
    except _DuplicateKey as exc:
        raise error(
            f"{where} gives the key {short_repr(exc.args[0])} twice in one JSON object; which "
            "of the two values counts is ambiguous (JSON readers differ), so the file is refused."
        ) from None
    # ValueError covers JSONDecodeError, UnicodeDecodeError and ints of too many digits;
    # RecursionError is a second line behind the nesting check
    except (ValueError, RecursionError) as exc:
        raise error(f"{where} is not valid JSON: {exc}.") from None
