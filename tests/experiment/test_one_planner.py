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


def test_a_search_run_whole_is_not_counted_and_the_report_says_so(tmp_path, monkeypatch):
    # a GridSearchCV subclass (its _run_search may do anything) and a halving search decide
    # their own fits as they go: the dry run does not guess them
    pytest.importorskip("sklearn.experimental.enable_halving_search_cv")
    (tmp_path / "mysearch.py").write_text(
        "from sklearn.model_selection import GridSearchCV\n\n\n"
        "class MyGridSearch(GridSearchCV):\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for search in ("mysearch.MyGridSearch", "sklearn.model_selection.HalvingGridSearchCV"):
        model = (
            f'estimator = "{search}"\n'
            f"params = {{ estimator = {TREE}, cv = 3, param_grid = {{ max_depth = [1, 2, 3] }} }}"
        )
        path = write(tmp_path, model)
        report = dry_run(path, timing=True, allowed_packages=("mysearch",))
        plan = report.plans["model"]
        assert plan.whole_search and plan.selection_fits is None and plan.total_fits is None
        assert report.total_fits is None and plan.refits == 3 * 2
        assert "its own (3 searches)" in report.text
        assert "Total: 6 refits and the fits that the whole searches decide." in report.text
        assert "no estimate: a search that runs whole decides its own fits" in report.text


def test_refits_and_the_seed_probe(tmp_path, monkeypatch):
    # a tree whose splitter is "best" on iris with all features: each fold's first two
    # refits show whether its seed changes anything there; it keeps two or trains three
    model = 'estimator = "sklearn.tree.DecisionTreeClassifier"\ngrid = { max_depth = [1, 2] }'
    path = write(tmp_path, model, protocol="outer_cv = 3\ninner_cv = 2\nn_refits = 3")
    plan, fits = check_counts(path, monkeypatch)
    assert plan.probe and plan.n_refits == 3
    # by hand: 3 outer folds x 2 candidates x 2 inner splits, then 2 or 3 refits a fold
    assert (plan.min_total_fits, plan.total_fits) == (12 + 3 * 2, 12 + 3 * 3)


GIN = """\
[experiment]
progress = false
output_dir = "out"

[data]
dataset = "tu:MUTAG"
root = "TU"

[protocol]
outer_cv = 3
n_refits = 3

[models.gin]
estimator = "sklearn_fair.graph.GraphClassifier"
params = { module = { class = "sklearn_fair.graph.GIN" }, random_state = 0, batch_size = 64 }
grid = { max_epochs = [1, 2] }
"""


def test_a_seeded_gin_on_tu_data_is_counted_alike_with_and_without_the_data(tmp_path, monkeypatch):
    """Issue 32: GIN with the user's random_state=0 (kept: its refits are identical, so one
    per fold), 3 outer folds, 2 candidates, n_refits=3: 6 selection fits and 3 refits. The
    count without the data (only the labels read) once said 15; the run makes 9."""
    pytest.importorskip("torch_geometric")
    import shutil
    from pathlib import Path

    import sklearn_fair.graph
    from sklearn_fair.graph import GraphClassifier

    raw = Path(sklearn_fair.graph.__file__).parent / "data" / "MUTAG" / "raw"
    shutil.copytree(raw, tmp_path / "TU" / "MUTAG" / "raw")
    path = tmp_path / "e.toml"
    path.write_text(GIN)
    counting = dry_run(path, timing=False)
    timed = dry_run(path, timing=True, n_timed=1, sample_size=16)
    assert "188 graph labels" in counting.text and "188 graphs" in timed.text
    assert counting.total_fits == timed.total_fits == 9
    assert counting.plans["gin"].n_refits == 1
    fits = record_fits(monkeypatch, GraphClassifier)
    run_experiment(path, n_jobs=1)
    assert len(fits) == 9  # every fit the estimator class received


def test_a_search_inside_a_parameter_is_not_counted_as_one_fit(tmp_path, monkeypatch):
    # a bagged GridSearchCV runs its whole search at every fit of the bagging: the dry run
    # counted each such fit as one (15, where the trees were fitted 105 times)
    from sklearn.ensemble import BaggingClassifier

    search = (
        '{ estimator = "sklearn.model_selection.GridSearchCV", params = { estimator = '
        f"{TREE}, param_grid = {{ max_depth = [1, 2, 3] }}, cv = 2 }} }}"
    )
    model = (
        'estimator = "sklearn.ensemble.BaggingClassifier"\n'
        f"params = {{ n_estimators = 2, random_state = 0, estimator = {search} }}\n"
        "grid = { max_samples = [0.5, 1.0] }"
    )
    path = write(tmp_path, model, protocol="outer_cv = 3\ninner_cv = 2\nn_refits = 1")
    report = dry_run(path, timing=False)
    plan = report.plans["model"]
    bagging_fits = record_fits(monkeypatch, BaggingClassifier)
    tree_fits = record_fits(monkeypatch)
    run_experiment(path, n_jobs=1)
    assert plan.searches_inside == ("estimator",)
    assert plan.model_fits == len(bagging_fits) == 3 * 2 * 2 + 3
    assert len(tree_fits) > len(bagging_fits)  # 2 searches of 3 x 2 + 1 fits in each
    assert plan.total_fits is None and report.total_fits is None
    assert "15, each with a search" in report.text
    assert "runs the search in estimator at each of its fits" in report.text
