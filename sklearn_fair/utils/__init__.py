"""Small tools shared by the sub-packages: graph data, arrays, hashing, provenance, randomness,
validation.

Everything here is public and torch-free, so that no sub-package imports another one's
private modules.
"""

from ._arrays import to_numpy
from ._graphs import (
    CollatedGraphs,
    check_graphs,
    compact_graphs,
    is_graph_data,
    read_graph_labels,
)
from ._hashing import fingerprint, graph_fields, update_hasher
from ._install import extra_install, install_hint
from ._progress import is_terminal, progress_over
from ._provenance import (
    UnhashableError,
    canonical_json,
    code_identity,
    describe,
    digest,
    package_versions,
)
from ._random import as_generator, check_random_state, draw_seeds
from ._source import source_fingerprint
from ._validation import (
    RANDOM_STATE_CONSTRAINTS,
    EstimatorInstance,
    IntervalNotBool,
    OptionsNotBool,
    check_parameter_constraints,
)

__all__ = [
    "CollatedGraphs",
    "RANDOM_STATE_CONSTRAINTS",
    "EstimatorInstance",
    "IntervalNotBool",
    "OptionsNotBool",
    "UnhashableError",
    "as_generator",
    "canonical_json",
    "check_graphs",
    "check_parameter_constraints",
    "check_random_state",
    "code_identity",
    "describe",
    "digest",
    "compact_graphs",
    "draw_seeds",
    "extra_install",
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
    "update_hasher",
]
