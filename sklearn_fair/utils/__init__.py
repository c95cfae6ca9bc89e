"""Small tools shared by the sub-packages: graph data, arrays, hashing, provenance, randomness,
validation.

Everything here is public and torch-free, so that no sub-package imports another one's
private modules.
"""

from ._graphs import (
    CollatedGraphs,
    check_graphs,
    compact_graphs,
    is_graph_data,
    read_graph_labels,
    to_numpy,
)
from ._hashing import fingerprint, graph_fields
from ._install import install_hint
from ._progress import is_terminal, progress_over
from ._provenance import UnhashableError, describe, digest, package_versions, source_fingerprint
from ._random import as_generator, check_random_state, draw_seeds
from ._validation import (
    RANDOM_STATE_CONSTRAINTS,
    EstimatorInstance,
    IntervalNotBool,
    OptionsNotBool,
    check_parameter_constraints,
    fill_doc,
)

__all__ = [
    "CollatedGraphs",
    "RANDOM_STATE_CONSTRAINTS",
    "EstimatorInstance",
    "IntervalNotBool",
    "OptionsNotBool",
    "UnhashableError",
    "as_generator",
    "check_graphs",
    "check_parameter_constraints",
    "check_random_state",
    "describe",
    "digest",
    "compact_graphs",
    "draw_seeds",
    "fill_doc",
    "fingerprint",
    "graph_fields",
    "install_hint",
    "is_graph_data",
    "is_terminal",
    "progress_over",
    "package_versions",
    "read_graph_labels",
    "source_fingerprint",
    "to_numpy",
]
