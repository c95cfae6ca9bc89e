"""The one rule for scaling values out of reach of overflow and underflow."""

import numpy as np


def scale_exponent(*arrays):
    """The power of 2, ``e``, that brings the largest magnitude of ``arrays`` near 1 where it
    lies past ``2**100`` or under ``2**-100`` (squares overflow to inf near 1e155 and underflow
    to 0 near 1e-155), else 0: statistics of ``np.ldexp(x, -e)`` scaled back by ``2**e`` (the
    stats package's ``scaled_back``) are those of ``x``, exactly (a power of 2), and ordinary
    values are not touched."""
    largest = max(float(np.abs(array).max()) for array in arrays)
    exponent = int(np.frexp(largest)[1]) if largest > 0 else 0
    return exponent if abs(exponent) > 100 else 0
