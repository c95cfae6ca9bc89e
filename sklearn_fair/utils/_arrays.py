"""Turning torch tensors and other array-likes into numpy arrays, without importing torch."""

import numpy as np


def to_numpy(value):
    """Return ``value`` as a numpy array; a torch tensor is detached and moved to the CPU first.

    Parameters
    ----------
    value : array-like or torch.Tensor
        Anything ``numpy.asarray`` takes, or a tensor (recognised by its ``detach``
        method, so torch is never imported here).

    Returns
    -------
    array : ndarray

    Examples
    --------
    >>> from sklearn_fair.utils import to_numpy
    >>> to_numpy([1, 2, 3])
    array([1, 2, 3])
    """
    if hasattr(value, "detach") and hasattr(value, "cpu"):
        value = value.detach().cpu().numpy()
    return np.asarray(value)
