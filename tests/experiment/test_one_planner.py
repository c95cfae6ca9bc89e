"""The dry run counts with NestedCV's own planner (issue 22, item 2): exactly the fits a run
makes, for the searches NestedCV flattens and those it runs whole, with the run's seed.

Every fit is counted where it happens: the estimator class's ``fit`` is wrapped, so the count
is independent of the planner it checks."""

import pytest
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair.experiment import dry_run, run_experiment

HEAD = """\
[experiment]
progress = false
output_dir = "out"
random_state = {seed}

[data]
dataset = "sklearn:iris"

[protocol]
{protocol}

[models.model]
"""
TREE = '{ estimator = "sklearn.tree.DecisionTreeClassifier" }'


def record_fits(monkeypatch, cls=DecisionTreeClassifier):
    fits = []
    real_fit = cls.fit

    def recording_fit(self, X, y=None, **kwargs):
        fits.append((len(X), self.get_params().get("max_depth")))
        return real_fit(self, X, y, **kwargs)

    monkeypatch.setattr(cls, "fit", recording_fit)
    return fits


def write(tmp_path, model, protocol="outer_cv = 3\ninner_cv = 2\nn_refits = 2", seed=0):
    path = tmp_path / "e.toml"
    path.write_text(HEAD.format(seed=seed, protocol=protocol) + model)
    return path


def check_counts(path, monkeypatch, **options):
    plan = dry_run(path, timing=False, **options).plans["model"]
    fits = record_fits(monkeypatch)
    run_experiment(path, n_jobs=1, **options)
    assert plan.min_total_fits <= len(fits) <= plan.total_fits
    return plan, fits


@pytest.mark.parametrize("seed", [0, 7])
def test_a_randomized_search_draws_the_runs_candidates(tmp_path, monkeypatch, seed):
    # the search's own random_state is unset: NestedCV draws its candidates from the run's
    # seed, and so must the dry run (it once drew them with random_state=0)
    model = (
        'estimator = "sklearn.model_selection.RandomizedSearchCV"\n'
        f"params = {{ estimator = {TREE}, n_iter = 4, param_distributions = "
        "{ max_depth = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], min_samples_leaf = [1, 2, 3, 4] } }"
    )
    path = write(tmp_path, model, seed=seed)
    plan, fits = check_counts(path, monkeypatch)
    # iris's trees do not depend on their seed: the probe's two refits show it
    assert len(fits) == plan.min_total_fits
    selection = fits[: plan.selection_fits]
    depths = {depth for _, depth in selection}
    assert depths == {candidate["max_depth"] for candidate in plan.candidates}


def test_a_grid_search_subclass_runs_whole_and_is_counted_so(tmp_path, monkeypatch):
    (tmp_path / "mysearch.py").write_text(
        "from sklearn.model_selection import GridSearchCV\n\n\n"
        "class MyGridSearch(GridSearchCV):\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    model = (
        'estimator = "mysearch.MyGridSearch"\n'
        f"params = {{ estimator = {TREE}, cv = 3, param_grid = {{ max_depth = [1, 2, 3] }} }}"
    )
    path = write(tmp_path, model)
    plan, fits = check_counts(path, monkeypatch, allowed_packages=("mysearch",))
    # per outer fold: 3 candidates x the protocol's 2 inner splits (inner_cv replaces the
    # search's cv), and its own refit; then NestedCV's refits (the probe: 2, then 1 a fold)
    assert plan.search_fits == [7, 7, 7]
    assert len(fits) == plan.min_total_fits == 21 + 4


@pytest.mark.parametrize("factor, min_resources", [(2, "smallest"), (3, "exhaust"), (2, 20)])
def test_a_halving_search_is_counted_round_by_round(tmp_path, monkeypatch, factor, min_resources):
    pytest.importorskip("sklearn.experimental.enable_halving_search_cv")
    resources = f'"{min_resources}"' if isinstance(min_resources, str) else min_resources
    model = (
        'estimator = "sklearn.model_selection.HalvingGridSearchCV"\n'
        f"params = {{ estimator = {TREE}, cv = 2, factor = {factor}, "
        f"min_resources = {resources}, random_state = 0, "
        "param_grid = { max_depth = [1, 2, 3, 4, 5, 6, 7] } }"
    )
    path = write(tmp_path, model, protocol="outer_cv = 3\nn_refits = 1")
    plan, fits = check_counts(path, monkeypatch)
    assert len(fits) == plan.total_fits


def test_refits_and_the_seed_probe(tmp_path, monkeypatch):
    # a tree whose splitter is "best" on iris with all features: its seed changes nothing,
    # which the first fold's two refits show; the other folds are refitted once
    model = 'estimator = "sklearn.tree.DecisionTreeClassifier"\ngrid = { max_depth = [1, 2] }'
    path = write(tmp_path, model, protocol="outer_cv = 3\ninner_cv = 2\nn_refits = 3\nrefit = true")
    plan, fits = check_counts(path, monkeypatch)
    assert plan.probe and plan.n_refits == 3
    assert plan.final_fits == 2 * 2 + 1
    assert len(fits) in (plan.min_total_fits, plan.total_fits)
