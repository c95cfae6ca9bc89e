"""Hunt CLI2-2: the dry run's count of the fits identical tasks spare is bounded. It named
every selection task of every plan whenever two models share an estimator class and data
set: two Ridge models of 2000 candidates with outer_cv=inner_cv=100 (within every default
limit) ran ``run --dry-run --no-timing`` past 120 s. Above ``MAX_NAMED`` task names it now
names none and says the shared fits are not counted."""

import pytest

from sklearn_fair.experiment import dry_run
from sklearn_fair.experiment._counting import _shared

N_OUTER, N_INNER = 3, 2
EXPERIMENT = """\
[experiment]
name = "shared"
output_dir = "out"
random_state = 0

[data]
dataset = "sklearn:diabetes"

[protocol]
outer_cv = 3
inner_cv = 2

[models.ridge_a]
estimator = "sklearn.linear_model.Ridge"
grid = { alpha = [0.1, 1.0, 10.0] }

[models.ridge_b]
estimator = "sklearn.linear_model.Ridge"
grid = { alpha = [1.0, 10.0, 100.0] }
"""


@pytest.fixture
def named(monkeypatch):
    """The task names the dry run builds, over every call of ``task_names``."""
    built = []
    task_names = _shared.task_names

    def spy(plan, refit_slots, **kwargs):
        selection, refits = task_names(plan, refit_slots, **kwargs)
        built.append(len(selection) + sum(len(names) for names in refits))
        return selection, refits

    monkeypatch.setattr(_shared, "task_names", spy)
    return built


def _report(tmp_path):
    path = tmp_path / "shared.toml"
    path.write_text(EXPERIMENT)
    return dry_run(path, timing=False)


def test_a_small_file_counts_the_fits_identical_tasks_spare(tmp_path, named):
    report = _report(tmp_path)
    # alpha 1.0 and 10.0 are in both grids: their selection tasks are fitted once
    assert report.shared.selection == 2 * N_OUTER * N_INNER
    # per model: its selection tasks, and the refit of each of its 3 candidates in each of a
    # fold's fewest refits (two: Ridge has a random_state, a seed may change nothing)
    assert sum(named) == 2 * (3 * N_OUTER * N_INNER + N_OUTER * 2 * 3)
    assert f"{2 * N_OUTER * N_INNER} selection fits fewer" in report.text
    fewest = sum(plan.min_total_fits for plan in report.plans.values())
    assert report.min_total_fits == fewest - report.shared.selection - report.shared.refits


def test_above_the_bound_no_task_is_named_and_the_output_says_so(tmp_path, named, monkeypatch):
    # the same file, with a bound below its 2 x (18 + 18) = 72 task names
    monkeypatch.setattr(_shared, "MAX_NAMED", 50, raising=False)
    report = _report(tmp_path)
    assert sum(named) <= 50
    assert (report.shared.selection, report.shared.refits) == (0, 0)
    assert report.shared.not_counted == 72
    assert report.min_total_fits is None  # not the fewest: identical tasks may spare fits
    text = report.text
    assert "the fits they spare are not counted (that would name 72 tasks, more than 50)" in text
    assert "the run may make fewer fits than counted here." in text
    assert f"Total: {report.total_fits} fits at most (identical tasks not counted)." in text
    assert "selection fits fewer" not in text
