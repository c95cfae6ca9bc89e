"""``sklearn-fair cache verify DIR``: audit a cache folder written by ``sklearn-fair run``.

A cache folder does not hold the code and the data its entries were computed from, so it cannot
be re-run from itself, and nothing in it may name code to run. The experiment runner records,
in the folder, which experiment files wrote it: their paths (relative to the folder) and the
SHA-256 of their text (:func:`record_experiment`, in ``experiments.json``). ``cache verify``
reads that record as data (bounded JSON), accepts an experiment file only if its text still
has the recorded hash and it lies beside the cache folder (unless ``--allow-outside-paths``),
and re-plans it through the experiment loader, which checks every name and path in it as
``sklearn-fair run`` does (``--allow-package`` as there). Then, for each model of the file that
has entries, :func:`sklearn_fair.model_selection.verify_cache` recomputes a sample of them.
"""

import hashlib
import json
import os
import re
import sys
import uuid
from pathlib import Path

from .cli import add_allow_package

__all__ = ["MANIFEST", "add_cache_parser", "record_experiment", "run_cache"]

MANIFEST = "experiments.json"
FORMAT = "sklearn-fair-cache-experiments/1"
_MAX_MANIFEST_BYTES = 1 << 20
_MAX_RECORDS = 1000
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _sha256(path):
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def _read_manifest(path):
    """The records of a manifest; raises ExperimentConfigError for anything else."""
    from .exceptions import ExperimentConfigError
    from .model_selection._bounded_json import read_json

    document = read_json(
        path, max_bytes=_MAX_MANIFEST_BYTES, max_depth=4, error=ExperimentConfigError
    )
    records = document.get("experiments") if isinstance(document, dict) else None
    if (
        records is None
        or document.get("format") != FORMAT
        or not isinstance(records, list)
        or len(records) > _MAX_RECORDS
        or not all(
            isinstance(r, dict)
            and isinstance(r.get("path"), str)
            and len(r["path"]) < 4096
            and isinstance(r.get("sha256"), str)
            and _SHA256.fullmatch(r["sha256"])
            for r in records
        )
    ):
        raise ExperimentConfigError(
            f"{os.fspath(path)} is not a record of experiments ({FORMAT!r}: a list of at most "
            f"{_MAX_RECORDS} paths with their SHA-256)."
        )
    return records


def record_experiment(cache_dir, experiment_path):
    """Record in ``cache_dir`` that the experiment file ``experiment_path`` writes to it.

    Called by the experiment runner before its first fit. The record (``experiments.json``)
    keeps one entry per experiment file: its path relative to ``cache_dir`` and the SHA-256
    of its text. Written atomically under a unique temporary name; a record that cannot be
    read is replaced.
    """
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    experiment_path = Path(experiment_path).resolve()
    relative = Path(os.path.relpath(experiment_path, cache_dir.resolve())).as_posix()
    manifest = cache_dir / MANIFEST
    try:
        records = _read_manifest(manifest) if manifest.exists() else []
    except (ValueError, OSError):
        records = []
    records = [r for r in records if r["path"] != relative]
    records.append({"path": relative, "sha256": _sha256(experiment_path)})
    temporary = cache_dir / f".{MANIFEST}.{os.getpid()}-{uuid.uuid4().hex}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump({"format": FORMAT, "experiments": records[-_MAX_RECORDS:]}, file, indent=1)
        os.replace(temporary, manifest)
    finally:
        temporary.unlink(missing_ok=True)


def add_cache_parser(commands):
    """Add ``cache verify`` to the command line's sub-commands."""
    cache = commands.add_parser("cache", help="inspect a cache folder")
    actions = cache.add_subparsers(dest="cache_command", required=True)
    verify = actions.add_parser(
        "verify",
        help="recompute a random sample of a cache's entries and report any that differ",
        description=(
            "Recompute a random sample of the entries of a cache folder written by "
            "'sklearn-fair run' and report any that differ from what is stored. The folder "
            "records which experiment files wrote it (experiments.json); each must be "
            "unchanged (same SHA-256) and lie beside the folder, and is read by the same "
            "checked loader as 'sklearn-fair run'. Exit status: 0 every recomputed entry "
            "agrees, 1 one differs (or none was found), 2 the folder cannot be audited."
        ),
    )
    verify.add_argument(
        "directory",
        help="the cache folder (the experiment's cache_dir, or one model's folder in it)",
    )
    verify.add_argument(
        "--sample",
        type=float,
        default=0.1,
        metavar="FRACTION",
        help="fraction of the entries to recompute, in (0, 1] (default: 0.1)",
    )
    verify.add_argument(
        "--random-state", type=int, default=0, help="seed of the sample (default: 0)"
    )
    verify.add_argument(
        "--n-jobs", type=int, default=None, help="parallel jobs of the recomputation (default: 1)"
    )
    verify.add_argument(
        "--data-dir",
        default=None,
        help="the data folder that ${SKLEARN_FAIR_DATA} stands for (default: that variable)",
    )
    verify.add_argument(
        "--allow-outside-paths",
        action="store_true",
        help="accept experiment files and paths outside the folder holding the cache (only "
        "for files you trust)",
    )
    add_allow_package(verify)
    return cache


def _experiments(directory, allow_outside_paths):
    """``(cache root, model name or None, [experiment paths])``; raises ExperimentConfigError."""
    from .exceptions import ExperimentConfigError

    root, model = directory, None
    if not (root / MANIFEST).is_file() and (root.parent / MANIFEST).is_file():
        root, model = root.parent, directory.name  # one model's folder
    manifest = root / MANIFEST
    if manifest.is_symlink():
        raise ExperimentConfigError(f"{os.fspath(manifest)} is a symbolic link; it is not read.")
    if not manifest.is_file():
        raise ExperimentConfigError(
            f"{os.fspath(directory)} holds no record of the experiment that wrote it "
            f"({MANIFEST}, written by 'sklearn-fair run'). A cache written from Python is "
            "audited from Python: sklearn_fair.model_selection.verify_cache(nested, X, y, ...)."
        )
    base = root.resolve().parent
    paths = []
    for record in _read_manifest(manifest):
        path = (root / record["path"]).resolve()
        if not allow_outside_paths and not path.is_relative_to(base):
            raise ExperimentConfigError(
                f"{os.fspath(manifest)} names the experiment file {record['path']!r}, outside "
                f"{base}; pass --allow-outside-paths if you trust it."
            )
        if not path.is_file():
            raise ExperimentConfigError(
                f"{os.fspath(manifest)} names the experiment file {os.fspath(path)}, which is "
                "not there: the entries cannot be recomputed without it."
            )
        if _sha256(path) != record["sha256"]:
            raise ExperimentConfigError(
                f"The experiment file {os.fspath(path)} changed since it wrote "
                f"{os.fspath(root)}: its entries are recomputed from the file that wrote them, "
                "not from another one. Restore that file (its SHA-256 is "
                f"{record['sha256']}) or verify from Python with verify_cache."
            )
        paths.append(path)
    return root, model, paths


def run_cache(args):
    """Run ``cache verify``; returns the exit status (0 all agree, 1 a difference, 2 an error)."""
    from .exceptions import ExperimentConfigError
    from .experiment._reading._config import open_experiment
    from .experiment._reading._data import load_data, work_dir
    from .experiment._running._runner import make_nested
    from .model_selection import verify_cache

    directory = Path(args.directory)
    try:
        if not directory.is_dir():
            raise ExperimentConfigError(f"{os.fspath(directory)} is not a folder.")
        if not 0 < args.sample <= 1:
            raise ExperimentConfigError(
                f"--sample must be a fraction in (0, 1]. Got {args.sample!r} instead."
            )
        root, only, paths = _experiments(directory, args.allow_outside_paths)
        status, checked = 0, 0
        for path in paths:
            config = open_experiment(
                path,
                data_dir=args.data_dir,
                allow_outside_paths=args.allow_outside_paths,
                allowed_packages=tuple(args.allow_package),
            )
            config.cache_dir, config.progress = root.resolve(), False
            specs = [
                spec
                for spec in config.models.values()
                if (only is None or spec.name == only) and (root / spec.name).is_dir()
            ]
            if not specs:
                continue
            data = load_data(config, work_dir(config))
            for spec in specs:
                nested = make_nested(config, spec, n_jobs=args.n_jobs)
                audit = verify_cache(
                    nested,
                    data.X,
                    data.y,
                    groups=data.groups,
                    sample=args.sample,
                    random_state=args.random_state,
                )
                checked += 1
                print(f"{path.name} [{spec.name}] {audit}")
                status = status or (0 if audit.ok else 1)
        if not checked:
            raise ExperimentConfigError(
                f"No model of the recorded experiments has entries in {os.fspath(directory)}."
            )
    except ExperimentConfigError as error:
        print(f"sklearn-fair cache verify: {error}", file=sys.stderr)
        return 2
    return status
