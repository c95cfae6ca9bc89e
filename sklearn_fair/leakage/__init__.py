"""Finding data leaks: duplicates across splits, label permutations, prefit steps.

:func:`audit` runs the three checks (also available one by one) on an estimator or pipeline and
its data and returns an :class:`AuditResult` that prints a short report. See the user guide page
"What must live inside the resample".
"""

from ._audit import AuditResult, audit
from ._duplicates import DuplicateReport, find_duplicates
from ._permutation import PermutationReport, chance_level, permutation_check
from ._prefit import PrefitStep, find_prefit_steps

__all__ = [
    "AuditResult",
    "DuplicateReport",
    "PermutationReport",
    "PrefitStep",
    "audit",
    "chance_level",
    "find_duplicates",
    "find_prefit_steps",
    "permutation_check",
]
