"""The dry run counts a candidate that one model's grid lists twice once, as the run fits it
(hunt SEAM): ``grid = [{ max_depth = [1, 2] }, { max_depth = [2, 3] }]`` has 3 distinct
candidates of 4 listed. A lone model of its class was never looked at, so the dry run said
"Total: 27 fits." where the run made 21.

Each fit appends a line to a log file, from a module written for the test (a name of its own,
so that no process holds an older copy)."""

from sklearn_fair.experiment import dry_run, run_experiment

from ._fit_log import counted_experiment

COUNTER = """\
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier

LOG = LOG_PATH


class Counted(ClassifierMixin, BaseEstimator):
    # a tree that records each fit in LOG

    def __init__(self, max_depth=None):
        self.max_depth = max_depth

    def fit(self, X, y):
        with open(LOG, "a") as f:
            f.write(str(len(X)) + chr(10))
        self.tree_ = DecisionTreeClassifier(max_depth=self.max_depth, random_state=0).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)
"""


def _experiment(tmp_path, monkeypatch, models):
    return counted_experiment(
        tmp_path,
        monkeypatch,
        COUNTER,
        '[experiment]\nprogress = false\noutput_dir = "out"\nrandom_state = 0\n\n'
        '[data]\ndataset = "sklearn:iris"\n\n'
        "[protocol]\nouter_cv = 3\ninner_cv = 2\nn_refits = 1\n\n" + models,
    )


def test_a_candidate_listed_twice_in_one_models_grid_is_counted_once(tmp_path, monkeypatch):
    path, log, module = _experiment(
        tmp_path,
        monkeypatch,
        '[models.model]\nestimator = "MODULE.Counted"\n'
        "grid = [{ max_depth = [1, 2] }, { max_depth = [2, 3] }]\n",
    )
    counting = dry_run(path, timing=False, allowed_packages=(module,))
    run_experiment(path, n_jobs=1, allowed_packages=(module,))
    fits = len(log.read_text().splitlines())
    # by hand: 3 outer folds x 3 distinct candidates x 2 inner splits + 3 refits; 4 candidates
    # listed, 3 x 4 x 2 + 3, where a shared task that fails is fitted again
    assert fits == 3 * 3 * 2 + 3 == 21
    assert (counting.min_total_fits, counting.total_fits) == (21, 3 * 4 * 2 + 3)
    assert "Total: 27 fits at most (at least 21 if the shared tasks succeed)." in counting.text


def test_a_lone_model_without_repeats_is_counted_as_before(tmp_path, monkeypatch):
    path, log, module = _experiment(
        tmp_path,
        monkeypatch,
        '[models.model]\nestimator = "MODULE.Counted"\ngrid = { max_depth = [1, 2, 3] }\n',
    )
    counting = dry_run(path, timing=False, allowed_packages=(module,))
    run_experiment(path, n_jobs=1, allowed_packages=(module,))
    assert counting.min_total_fits == counting.total_fits == 21
    assert len(log.read_text().splitlines()) == 21
