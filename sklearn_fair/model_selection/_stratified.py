"""scikit-learn's stratified folds for our stratified splitters, with any ``random_state``."""

from sklearn.model_selection import StratifiedKFold

from ..utils import check_random_state


def stratified_folds(cv, X, labels, groups=None):
    """``StratifiedKFold`` with ``cv``'s n_splits, shuffle and random_state, on ``labels``.

    scikit-learn's StratifiedKFold takes a RandomState, not a numpy Generator: a Generator
    is turned into one (drawn from once per call), so that our splitters that stratify
    (on graph labels, on quantile bins) read ``random_state`` the same way.
    """
    random_state = check_random_state(cv.random_state) if cv.shuffle else None
    folds = StratifiedKFold(cv.n_splits, shuffle=cv.shuffle, random_state=random_state)
    return folds.split(X, labels, groups)
