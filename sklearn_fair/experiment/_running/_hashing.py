"""What a model's result depends on, as one hash: a re-run reuses results with the same one.

The hash is the digest of a description made by :mod:`sklearn_fair.utils._provenance`, the one
place that decides what a stored result depends on (NestedCV's cache keys use it too): the
data (its fingerprint), the splits (the fingerprint of the indices, not the file's path), the
estimator with every parameter (defaults included, so a changed default shows) and the code of
every class it uses (installed packages by version, sklearn-fair by its source, the user's own
modules, allowed with ``--allow-package``, by their source and that of every module of the
user's they reach), the grid, every NestedCV parameter, the seed, and the versions table
(:func:`~sklearn_fair.utils.package_versions`).
"""

from ...model_selection import SavedSplits
from ...utils import digest, fingerprint, package_versions
from ...utils._provenance import Describer

__all__ = ["result_hash"]


def _splits_content(saved):
    inner = saved.inner_splits
    return [
        [[train.tolist(), test.tolist()] for train, test in saved.folds],
        None
        if inner is None
        else [
            None if splits is None else [[tr.tolist(), te.tolist()] for tr, te in splits]
            for splits in inner
        ],
        saved.n_samples,
    ]


def _by_content(params):
    """Saved splits by their indices, not by the file they were read from."""
    return {
        name: {"saved_splits": fingerprint(_splits_content(value))}
        if isinstance(value, SavedSplits)
        else value
        for name, value in params.items()
    }


def result_hash(*, nested_params, estimator, grid, data_fingerprint, format_version):
    """The hash of everything a model's result depends on.

    Parameters
    ----------
    nested_params : dict
        NestedCV's parameters except the estimator, the grid and what cannot change a
        result (``n_jobs``, ``verbose``, ``cache_dir``).
    estimator : estimator object
        The model (its class and every parameter).
    grid : dict, list or None
        The candidates.
    data_fingerprint : dict
        Fingerprints of the features, the target and the groups.
    format_version : int
        The version of the runner's result files.

    Returns
    -------
    digest : str
        ``"sha256:"`` and 64 hexadecimal digits.
    payload : dict
        What was hashed (written beside the result, to tell why a re-run recomputed).
    """
    describer = Describer()
    payload = {
        "format_version": format_version,
        "data": data_fingerprint,
        "estimator": describer.describe(estimator),
        "grid": describer.describe(grid),
        "protocol": describer.describe(_by_content(nested_params)),
        "versions": package_versions(),
    }
    return digest(payload), payload
