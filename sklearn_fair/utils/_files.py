"""Reading a JSON file that may come from elsewhere, within bounds.

A result file may have been shared, copied or edited, or be something else under the expected
name. So what is read must be a regular file (a symbolic link is not followed and a FIFO never
blocks the reader: the file is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked after it is
opened), no larger than a cap, JSON, and nested no deeper than a cap. JSON's ``NaN`` and
``Infinity`` are read as floats (a check of the values then refuses them where they cannot be).
"""

import json
import os
import stat

__all__ = ["read_json_file"]

#: Deepest nesting of lists and objects read back (a result is nested about 5 deep).
MAX_JSON_DEPTH = 64


def _too_deep(document, max_depth):
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > max_depth:
                return True
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items if isinstance(item, (dict, list)))
    return False


def read_json_file(path, *, max_bytes, max_depth=MAX_JSON_DEPTH):
    """``(document, None)`` of a sound JSON file at ``path``, or ``(None, reason)``.

    ``(None, None)`` when there is no file. Sound: a regular file (opened without following a
    link and without blocking, and checked after it is opened), at most ``max_bytes``, valid
    UTF-8 JSON nested at most ``max_depth`` deep.

    Examples
    --------
    >>> import json, tempfile, os
    >>> from sklearn_fair.utils import read_json_file
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "result.json")
    >>> with open(path, "w") as file:
    ...     json.dump({"a": [[[1]]]}, file)
    >>> read_json_file(path, max_bytes=1000)
    ({'a': [[[1]]]}, None)
    >>> read_json_file(path, max_bytes=1000, max_depth=3)
    (None, 'is nested more than 3 deep')
    >>> read_json_file(folder, max_bytes=1000)[1]
    'is a folder, not a regular file'
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"cannot be examined ({error.strerror})"
    if not stat.S_ISREG(mode):
        kind = "a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode) else (
            "a FIFO, a device or a socket"
        )  # fmt: skip
        return None, f"is {kind}, not a regular file"
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"cannot be opened ({error.strerror})"
    with os.fdopen(descriptor, "rb") as file:
        status = os.fstat(file.fileno())
        if not stat.S_ISREG(status.st_mode):
            return None, "is not a regular file"
        if status.st_size > max_bytes:
            return None, f"is larger than {max_bytes} bytes"
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        return None, f"is larger than {max_bytes} bytes"
    try:
        document = json.loads(data.decode("utf-8"))
    except RecursionError:
        return None, f"is nested more than {max_depth} deep"
    except ValueError as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None, f"is not valid UTF-8 JSON ({type(error).__name__}: {error})"
    if _too_deep(document, max_depth):
        return None, f"is nested more than {max_depth} deep"
    return document, None
