"""The code of sklearn-fair itself, as one hash, for keys of stored results.

A version number does not change when the code does: a development checkout, or an install
rebuilt from another commit, keeps ``0.1.0.dev0``. So the keys of stored results include the
content of sklearn-fair's source files, not only its version.
"""

import functools
import hashlib
from pathlib import Path

__all__ = ["source_fingerprint"]

# Sub-packages and files that only format or write results: an edit there cannot change a number.
_FORMATTING = ("experiment", "report", "cli.py", "__main__.py", "_demo.py")


@functools.cache
def source_fingerprint():
    """Return ``"sha256:"`` and the SHA-256 of the Python source of sklearn-fair.

    Every ``.py`` file of the package enters, by path and content, except those that only
    format or write results (``experiment/``, ``report/``, the command line). Computed once
    per process: the code a process has imported is the code it runs, even if the files
    change on disk meanwhile.

    Returns
    -------
    fingerprint : str

    Examples
    --------
    >>> from sklearn_fair.utils import source_fingerprint
    >>> fingerprint = source_fingerprint()
    >>> fingerprint.startswith("sha256:"), len(fingerprint)
    (True, 71)
    """
    root = Path(__file__).resolve().parent.parent
    hasher = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] in _FORMATTING:
            continue
        hasher.update(relative.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return "sha256:" + hasher.hexdigest()
