"""Issue 14.3: tasks are released by their dependencies, not by phase, longest first."""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier

from sklearn_fair import NestedCV
from sklearn_fair.model_selection._nested._planning import make_plan
from sklearn_fair.model_selection._nested._scheduling import NestedSchedule

X, y = make_classification(n_samples=60, n_features=4, random_state=0)


def schedule(n_refits=2, final=False):
    nested = NestedCV(
        RandomForestClassifier(n_estimators=2),
        {"max_depth": [1, 2, 3]},
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
    # folds 0 and 2 are still selecting; fold 1's refit does not wait for them
    released = drain(sched)
    assert [(t.key.phase, t.key.outer_fold) for t in released] == [("refit", 1)]


def test_the_first_fold_probes_two_seeds_and_an_inert_seed_stops_the_other_refits():
    sched = schedule(n_refits=3)
    for task in drain(sched):
        sched.complete(task, result(task, 1.0))
    refits = drain(sched)
    assert sorted((t.key.outer_fold, t.key.refit) for t in refits) == [
        (0, 0),
        (0, 1),
        (1, 0),
        (2, 0),
    ]
    for task in refits:
        sched.complete(task, result(task, 2.0, predictions="same"))
    assert sched.deterministic is True and not sched.has_ready() and sched.finished


def test_a_seed_that_changes_the_predictions_releases_every_refit():
    sched = schedule(n_refits=3)
    for task in drain(sched):
        sched.complete(task, result(task, 1.0))
    for task in drain(sched):
        sched.complete(task, result(task, 2.0, predictions=f"seed {task.key.refit}"))
    assert sched.deterministic is False
    rest = drain(sched)
    assert sorted((t.key.outer_fold, t.key.refit) for t in rest) == [
        (0, 2),
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
    ]


def test_the_longest_predicted_task_runs_first():
    sched = schedule()
    first_fold = [t for t in drain(sched)]
    # candidate 2 (the deepest forest) took 5 s on the inner splits it ran, candidate 0 took 1 s
    done = [t for t in first_fold if t.key.outer_fold == 0]
    for task in done:  # candidate 2 also validates best, so it wins fold 0
        seconds = {0: 1.0, 1: 3.0, 2: 5.0}[task.key.candidate]
        sched.complete(task, result(task, seconds, score=task.key.candidate))
    # put the others back: they are ready again in natural order
    for task in first_fold:
        if task.key.outer_fold != 0:
            sched._push(task)
    order = []
    while sched.has_ready():
        order.append(sched.pop())
    phases = [(t.key.phase, t.key.candidate) for t in order]
    # fold 0's refit (predicted from its winner's 5 s selection fits, on more rows) first, then
    # candidate 2's remaining fits, then 1's, then 0's
    assert phases[0][0] == "refit"
    candidates = [c for phase, c in phases if phase == "selection"]
    assert candidates == sorted(candidates, reverse=True)
    assert np.isclose(sched.predicted_duration(("selection", 2)), 5.0)
