"""Issue 14.3: tasks are released by their dependencies, not by phase, critical path first."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_fair import NestedCV
from sklearn_fair.model_selection._nested._planning import make_plan
from sklearn_fair.model_selection._nested._scheduling import NestedSchedule

X, y = make_classification(n_samples=60, n_features=4, random_state=0)


def schedule(n_refits=2, final=False, estimator=None, grid=None):
    nested = NestedCV(
        RandomForestClassifier(n_estimators=2) if estimator is None else estimator,
        {"max_depth": [1, 2, 3]} if grid is None else grid,
        outer_cv=3,
        inner_cv=2,
        n_refits=n_refits,
        random_state=0,
    )
    plan = make_plan(nested, X, y, None, {}, final=final, return_estimator=False, owner="NestedCV")
    return NestedSchedule(plan)


def result(task, fit_time, score=0.5, predictions="p"):
    return {
        "key": task.key,
        "scores": {"score": score},
        "fit_time": fit_time,
        "score_time": 0.0,
        "error": None,
        "predictions": predictions,
    }


def drain(sched):
    tasks = []
    while sched.has_ready():
        tasks.append(sched.pop())
    return tasks


def test_a_folds_refits_are_ready_as_soon_as_its_selection_is_complete():
    sched = schedule()
    ready = drain(sched)
    assert {t.key.phase for t in ready} == {"selection"}
    for task in [t for t in ready if t.key.outer_fold == 1]:
        sched.complete(task, result(task, 1.0))
    # folds 0 and 2 are still selecting; fold 1's refits (its two seeds, probing whether a
    # seed changes anything there) do not wait for them
    released = drain(sched)
    assert [(t.key.phase, t.key.outer_fold) for t in released] == [("refit", 1)] * 2


def test_each_fold_probes_two_seeds_and_an_inert_seed_stops_its_other_refits():
    sched = schedule(n_refits=3)
    for task in drain(sched):
        sched.complete(task, result(task, 1.0))
    n_selection = 3 * 3 * 2  # outer folds x candidates x inner splits
    assert sched.n_expected == n_selection + 3 * 3  # every seed, until each fold has answered
    refits = drain(sched)
    assert sorted((t.key.outer_fold, t.key.refit) for t in refits) == [
        (f, r) for f in range(3) for r in range(2)
    ]
    for task in refits:
        sched.complete(task, result(task, 2.0, predictions="same"))
    assert [sched.seeds_agree(f) for f in range(3)] == [True] * 3
    assert not sched.has_ready() and sched.finished
    assert sched.n_expected == n_selection + 3 * 2


@pytest.mark.parametrize("agree", [True, False])
def test_an_inert_seed_on_one_fold_says_nothing_of_another_folds_seeds(agree):
    # every fold selects the same max_depth, yet whether a seed changes the model depends on
    # the rows it trains on (a tree breaks ties between equally good features by its seed):
    # fold 0's two refits agreeing said nothing of fold 2's, trained once where its seeds
    # scored 0, 1 and 1 (hunt ORDER-1). Each fold keeps its two refits only where they agree
    sched = schedule(n_refits=3)
    for task in drain(sched):
        sched.complete(task, result(task, 1.0))
    assert len({repr(sched.selections[f]["best_params"]) for f in range(3)}) == 1
    refits = drain(sched)
    assert sorted((t.key.outer_fold, t.key.refit) for t in refits) == [
        (f, r) for f in range(3) for r in range(2)
    ]
    for task in refits:
        other = not agree and task.key.outer_fold == 2 and task.key.refit == 1
        sched.complete(task, result(task, 2.0, predictions="other" if other else "same"))
    assert [sched.seeds_agree(f) for f in range(3)] == [True, True, agree]
    rest = drain(sched)
    assert [(t.key.outer_fold, t.key.refit) for t in rest] == ([] if agree else [(2, 2)])
    for task in rest:
        sched.complete(task, result(task, 2.0))
    assert sched.finished
    assert sched.n_expected == 3 * 3 * 2 + 2 + 2 + (2 if agree else 3)
    assert [len(sched.refits_of(f)) for f in range(3)] == [2, 2, 2 if agree else 3]


def test_a_seed_that_changes_the_predictions_releases_every_refit():
    sched = schedule(n_refits=3)
    for task in drain(sched):
        sched.complete(task, result(task, 1.0))
    for task in drain(sched):
        sched.complete(task, result(task, 2.0, predictions=f"seed {task.key.refit}"))
    assert [sched.seeds_agree(f) for f in range(3)] == [False] * 3
    rest = drain(sched)
    assert sorted((t.key.outer_fold, t.key.refit) for t in rest) == [(0, 2), (1, 2), (2, 2)]


def test_the_task_on_the_longest_predicted_path_runs_first():
    sched = schedule()
    first_fold = drain(sched)
    # fold 0 done: candidate 2 (the deepest forest) took 5 s, 1 took 3 s, 0 took 1 s
    done = [t for t in first_fold if t.key.outer_fold == 0]
    for task in done:  # candidate 2 also validates best, so it wins fold 0
        seconds = {0: 1.0, 1: 3.0, 2: 5.0}[task.key.candidate]
        sched.complete(task, result(task, seconds, score=task.key.candidate))
    for task in first_fold:  # the other folds' fits are ready again, in natural order
        if task.key.outer_fold != 0:
            sched._push(task)
    order = []
    while sched.has_ready():
        order.append(sched.pop())
    phases = [(t.key.phase, t.key.candidate, t.key.outer_fold) for t in order]
    # a selection fit's path is its duration plus the refit that waits for its fold (the
    # slowest candidate's 5 s, scaled to the refit's rows): longer than fold 0's refit alone
    assert phases[-1][0] == "refit"
    candidates = [c for phase, c, _ in phases if phase == "selection"]
    assert candidates == sorted(candidates, reverse=True)
    # among equal paths, the lowest fold first: folds complete one after the other
    folds_of_2 = [f for phase, c, f in phases if phase == "selection" and c == 2]
    assert folds_of_2 == sorted(folds_of_2)
    waiting = 5.0 * sched.plan.refit_scale
    assert np.isclose(sched.priority(order[0]), 5.0 + waiting)


def test_an_untimed_candidate_runs_before_timed_ones():
    sched = schedule()
    ready = drain(sched)
    timed = [t for t in ready if t.key.candidate == 0][:1]
    for task in timed:
        sched.complete(task, result(task, 100.0))
    for task in ready:
        if task not in timed:
            sched._push(task)
    # candidate 0 is known to be slow, but candidates 1 and 2 have not been timed yet: their
    # fits (2 inner splits x 3 folds each) go first
    assert {sched.pop().key.candidate for _ in range(12)} == {1, 2}
    assert sched.pop().key.candidate == 0


def test_the_neighbours_of_a_task_share_its_rows_and_its_prefix_first():
    pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    grid = {"scale__with_mean": [True, False], "clf__C": [0.1, 1.0, 10.0]}
    sched = schedule(estimator=pipe, grid=grid)
    n_tasks = sched.n_ready
    first = sched.pop()
    near = []
    while (task := sched.pop_near(first)) is not None:
        near.append(task)
    # the 5 other candidates on the first task's rows (one inner split of one outer fold),
    # those that scale as it does first, each once
    assert [t.train for t in near] == [first.train] * 5
    prefix = [t.params["scale__with_mean"] == first.params["scale__with_mean"] for t in near]
    assert prefix == [True, True, False, False, False]
    assert len({t.key for t in [first, *near]}) == 6
    assert sched.n_ready == n_tasks - 6
    # the schedule goes on with every other task, each once
    rest = drain(sched)
    assert all(t.train != first.train for t in rest)
    assert len({t.key for t in [first, *near, *rest]}) == n_tasks
    assert sched.pop_near(first) is None
    # a refit has no neighbours
    for task in [first, *near, *rest]:
        sched.complete(task, result(task, 1.0))
    refit = sched.pop()
    assert refit.key.phase == "refit" and sched.pop_near(refit) is None
    # nor has a task of an estimator whose steps are not reused
    forest = schedule()
    assert forest.pop_near(forest.pop()) is None


def test_without_a_probe_fold_0s_equal_refits_never_cut_the_other_folds_refits():
    # an unseeded sampler's seed always counts: no probe, every fold gets every refit. Fold
    # 0's refits scoring alike still passed for a probe's verdict, so the folds selected
    # after them got one refit (which ones: the order tasks finished in, so n_jobs)
    from imblearn.pipeline import make_pipeline
    from imblearn.under_sampling import RandomUnderSampler

    estimator = make_pipeline(RandomUnderSampler(), LogisticRegression())
    sched = schedule(n_refits=3, estimator=estimator, grid={"logisticregression__C": [1.0]})
    assert not sched.plan.probe
    selection = drain(sched)
    for task in [t for t in selection if t.key.outer_fold == 0]:
        sched.complete(task, result(task, 1.0))
    for task in drain(sched):  # fold 0's three refits, alike
        sched.complete(task, result(task, 2.0, predictions=None))
    for task in [t for t in selection if t.key.outer_fold != 0]:
        sched.complete(task, result(task, 1.0))
    rest = drain(sched)
    assert sorted((t.key.outer_fold, t.key.refit) for t in rest) == [
        (f, r) for f in (1, 2) for r in range(3)
    ]
    assert sched.seeds_agree(0) is None  # no probe: nothing to agree on


class _FailsWithoutTheMiddleBlock(ClassifierMixin, BaseEstimator):
    """Fails to train on blocks 0 and 2 without block 1; otherwise a seed changes its output."""

    def __init__(self, c=1, random_state=None):
        self.c = c
        self.random_state = random_state

    def fit(self, X, y):
        blocks = set(X[:, 1].astype(int))
        if {0, 2} <= blocks and 1 not in blocks:
            raise ValueError("no row of block 1")
        self.classes_ = np.unique(y)
        self.w_ = np.random.RandomState(self.random_state).rand()
        return self

    def predict(self, X):
        return self.classes_[(self.w_ * X[:, 0] > 0.25).astype(int)]


def test_a_probe_that_finds_seeds_matter_skips_a_fold_whose_selection_failed():
    # fold 1 tests block 1, so every inner fit of it fails and no candidate is selected; fold 0
    # (the probe) then finds that seeds change the predictions: the other folds get every refit,
    # the failed one none (it raised TypeError: 'NoneType' object is not a mapping)
    rng = np.random.RandomState(0)
    X_blocks = np.c_[rng.rand(60), np.repeat([0, 1, 2], 20)]
    y_blocks = (X_blocks[:, 0] > 0.5).astype(int)
    nested = NestedCV(
        _FailsWithoutTheMiddleBlock(),
        {"c": [1, 2]},
        outer_cv=KFold(3),
        inner_cv=KFold(2, shuffle=True, random_state=0),
        n_refits=3,
        refit=False,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested.fit(X_blocks, y_blocks)
    assert [len(f["refit_seeds"]) for f in nested.outer_results_] == [3, 0, 3]
    assert nested.best_params_per_fold_[1] is None
    assert np.isnan(nested.outer_scores_[1]) and np.isfinite(nested.outer_scores_[[0, 2]]).all()
