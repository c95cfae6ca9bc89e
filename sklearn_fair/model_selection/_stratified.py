"""scikit-learn's stratified folds for our stratified splitters, with any ``random_state``."""

from sklearn.model_selection import StratifiedKFold

from ..utils import check_random_state
from ._split_validation import warn_groups_ignored


def stratified_folds(cv, X, labels, groups=None):
    """``StratifiedKFold`` with ``cv``'s n_splits, shuffle and random_state, on ``labels``.

    StratifiedKFold takes no numpy Generator: one is turned into a RandomState (drawn from once
    per call), so that our stratified splitters read ``random_state`` the same way. Given
    ``groups``, it warns that ``cv`` (not StratifiedKFold) ignores them.
    """
    warn_groups_ignored(cv, groups)
    random_state = check_random_state(cv.random_state) if cv.shuffle else None
    folds = StratifiedKFold(cv.n_splits, shuffle=cv.shuffle, random_state=random_state)
    return folds.split(X, labels)
