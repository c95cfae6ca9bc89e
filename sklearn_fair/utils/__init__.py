"""Small tools shared by the sub-packages: graph data, arrays, hashing, provenance, randomness,
validation; torch-free, so that no sub-package imports another one's private modules.

Public (documented, in ``__all__``): checking graph data and reading its labels, the content
fingerprint of data, the versions a result depends on. The other names are the package's own
plumbing.
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
    N_JOBS_CONSTRAINTS,
    RANDOM_STATE_CONSTRAINTS,
    EstimatorInstance,
    IntervalNotBool,
    NonZeroInt,
    OptionsNotBool,
    check_parameter_constraints,
    fill_doc,
)

# the public names (documented); the others are the sub-packages' shared plumbing, which may
# change without notice
__all__ = [
    "check_graphs",
    "fingerprint",
    "is_graph_data",
    "package_versions",
    "read_graph_labels",
]
