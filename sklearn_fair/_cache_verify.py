"""Check every entry of a cache folder (a regular file, its checksum, the key its name is the
digest of). A forged score under a recomputed checksum passes those checks; only recomputing
tells it. A cache written by 'sklearn-fair run' records the experiment files that wrote it
(experiments.json): each must be unchanged (same SHA-256) and lie beside the folder, is read
by the same checked loader as 'sklearn-fair run', and a random sample of its entries is
recomputed and compared. Give it the options of the run that change what the entries are
keyed by or what the file may ask for: --data-dir, --allow-package, --device, --limit.
Exit status: 0 every entry checked (and recomputed) agrees, 1 one differs or fails its
checks (or none is found, or the sample of a model drew none of its entries), 2 the folder
cannot be audited (a results folder of 'sklearn-fair run' among them: give its cache folder,
<output_dir>/cache by default).
"""

import os
import shlex
import sys
from pathlib import Path

__all__ = ["run_cache"]


def _experiments(root, allow_outside_paths, limits):
    """The experiment files the manifest of ``root`` records, checked."""
    from .exceptions import ExperimentConfigError
    from .experiment._reading._limits import read_text
    from .experiment._running._manifest import MANIFEST, read_manifest, text_sha256

    manifest = root / MANIFEST
    resolved = root.resolve()
    base = resolved.parent
    paths = []
    for record in read_manifest(manifest):
        path = (root / record["path"]).resolve()
        # beside the cache, or the file whose own cache this is (by its output_dir or
        # cache_dir, or <stem>_results/cache)
        own = path.is_relative_to(base) or _own_cache(path, resolved, limits)
        if not allow_outside_paths and not own:
            raise ExperimentConfigError(
                f"{os.fspath(manifest)} names the experiment file {record['path']!r}, outside "
                f"{base}, whose own cache (by its output_dir or cache_dir) this is not; pass "
                "--allow-outside-paths if you trust it (a run given --output-dir writes "
                "such a cache)."
            )
        if not path.is_file():
            raise ExperimentConfigError(
                f"{os.fspath(manifest)} names the experiment file {os.fspath(path)}, which is "
                "not there: the entries cannot be recomputed without it."
            )
        if text_sha256(read_text(path, limits)) != record["sha256"]:  # bounded, as loaded
            raise ExperimentConfigError(
                f"The experiment file {os.fspath(path)} changed since it wrote "
                f"{os.fspath(root)}: its entries are recomputed from the file that wrote them, "
                "not from another one. Restore that file (its SHA-256 is "
                f"{record['sha256']}) or verify from Python with verify_cache."
            )
        paths.append(path)
    return paths


def _own_cache(path, root, limits):
    """Whether ``root`` is the cache a run of the experiment file ``path`` writes by itself:
    ``[experiment] cache_dir``, else ``<output_dir>/cache`` (default ``<stem>_results``),
    relative to the file; the file is read as the run reads it (bounded), not run."""
    from .exceptions import ExperimentConfigError
    from .experiment._reading._config import read_document

    if root == path.parent / f"{path.stem}_results" / "cache":
        return True
    if not path.is_file():
        return False
    try:
        experiment = read_document(path, limits)[1].get("experiment", {})
    except ExperimentConfigError:  # not TOML, or more work than the file may cause
        return False
    if not isinstance(experiment, dict):
        return False
    cache, output = experiment.get("cache_dir"), experiment.get("output_dir")
    if isinstance(cache, str):
        return root == (path.parent / cache).resolve()
    return isinstance(output, str) and root == (path.parent / output / "cache").resolve()


def _recompute(root, paths, sample, random_state, n_jobs, options):
    """Recompute a sample of every cell's entries, with ``n_jobs`` workers (None: the file's,
    as a run); 0 if all agree, else 1 (or if none is found, or a cell's sample drew none of
    its entries)."""
    from .experiment import load_config
    from .experiment._counting._plan import nested_of
    from .experiment._reading._data import load_datasets
    from .experiment._reading._text import neutral
    from .model_selection import verify_cache

    status, found, names = 0, 0, set()
    for path in paths:
        config = load_config(path, n_jobs=n_jobs, **options)
        config.cache_dir, config.progress = root.resolve(), False
        loaded = load_datasets(config)
        for name, dataset in config.datasets.items():
            data = loaded[name]
            for spec in config.models.values():
                nested = nested_of(config, spec, dataset, n_jobs=config.n_jobs)
                nested.set_params(cache_dir=os.fspath(root))
                audit = verify_cache(
                    nested,
                    data.X,
                    data.y,
                    groups=data.groups,
                    sample=sample,
                    random_state=random_state,
                )
                found += audit.n_entries
                names |= audit.entry_names
                cell = f"{name}/{spec.name}" if config.several else spec.name
                print(neutral(f"{path.name} [{cell}] {audit}"))
                if audit.n_entries and not audit.n_recomputed:
                    # a second pass would fit again every task the cache lacks: say it instead
                    print(
                        f"  The sample of {sample:g} drew none of the cell's {audit.n_entries} "
                        "entries: nothing of it was checked by recomputing. Pass a larger "
                        "--sample (--sample 1 recomputes every entry)."
                    )
                    status = 1
                status = status or (0 if audit.ok else 1)
    if found > len(names):
        print(
            f"The cells' counts add up to {found} entries, {len(names)} of them distinct: "
            "cells that make the same fit (the same data, parameters and seeds) share its "
            "entry, counted in each of them."
        )
    return status if found else 1


def _refuse_results_folder(root):
    """Refuse the results folder of a run (its record of outputs, or its own cache holding
    the run's record of experiments), whose files are no cache entries: name its cache."""
    from .exceptions import ExperimentConfigError
    from .experiment._running._manifest import MANIFEST
    from .experiment._running._resultfile import RECORD

    cache = root / "cache"  # the run's default cache, <output_dir>/cache
    if not (os.path.lexists(root / RECORD) or os.path.lexists(cache / MANIFEST)):
        return
    if os.path.lexists(cache / MANIFEST):
        where = f"its cache is {os.fspath(cache)}: run sklearn-fair cache verify "
        where += shlex.quote(os.fspath(cache))
    else:
        where = "its cache is the folder its experiment file's cache_dir names: verify that one"
    raise ExperimentConfigError(
        f"{os.fspath(root)} is a results folder of 'sklearn-fair run', not a cache; {where}."
    )


def run_cache(
    directory,
    *,
    sample=0.1,
    random_state=0,
    n_jobs=None,
    data_dir=None,
    allow_outside_paths=False,
    allowed_packages=(),
    device=None,
    limits=None,
):
    """Run ``cache verify``; returns the exit status (0 all agree, 1 a difference or an entry
    that fails its checks, 2 an error). ``device`` and ``limits`` as the run was given them:
    the file is read as it was (the jobs limit too: the estimators' own workers run again)."""
    from .exceptions import ExperimentConfigError
    from .experiment._reading._limits import parse_limits
    from .experiment._reading._text import neutral
    from .experiment._running._manifest import MANIFEST
    from .model_selection._engine import check_entries

    root = Path(directory)
    try:
        if not root.is_dir():
            raise ExperimentConfigError(f"{os.fspath(root)} is not a folder.")
        if not 0 < sample <= 1:
            raise ExperimentConfigError(
                f"--sample must be a fraction in (0, 1]. Got {sample!r} instead."
            )
        limits = parse_limits(limits)
        recorded = os.path.lexists(root / MANIFEST)
        if not recorded:
            _refuse_results_folder(root)
        paths = _experiments(root, allow_outside_paths, limits) if recorded else []
        entries = check_entries(root)
        print(neutral(str(entries)))
        status = 0 if entries.ok else 1
        if not recorded:
            print(
                f"{os.fspath(root)} holds no record of an experiment file ({MANIFEST}, written "
                "by 'sklearn-fair run'): its entries were checked, not recomputed. A cache "
                "written from Python is recomputed from Python, with the code and data that "
                "wrote it: sklearn_fair.model_selection.verify_cache(nested, X, y, ...)."
            )
            return status
        options = dict(
            data_dir=data_dir,
            allow_outside_paths=allow_outside_paths,
            allowed_packages=allowed_packages,
            device=device,
            limits=limits,
        )
        return _recompute(root, paths, sample, random_state, n_jobs, options) or status
    except ExperimentConfigError as error:
        print(f"sklearn-fair cache verify: {neutral(error)}", file=sys.stderr)
        return 2
