"""The candidates of a search given in ``params`` count against the ``candidates`` limit as
scikit-learn draws them: HalvingRandomSearchCV's ``n_candidates`` was not counted at all
(25,000,000 were accepted, a 10 x 10 space passed ``--limit candidates=50`` that the same
space as a GridSearchCV did not), and ``n_iter`` / ``n_candidates`` above the size of a
space of lists count as that size (ParameterSampler draws without replacement)."""

import pytest
import scipy.stats
from sklearn.datasets import load_iris
from sklearn.ensemble import BaggingClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.model_selection import HalvingRandomSearchCV, RandomizedSearchCV
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config
from sklearn_fair.experiment._reading._config import search_space

HEAD = """\
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 2
n_refits = 1
[models.h]
"""
TREE = '{ estimator = "sklearn.tree.DecisionTreeClassifier" }'
HALVING = "sklearn.experimental.enable_halving_search_cv.HalvingRandomSearchCV"
TEN_BY_TEN = (
    "{ max_depth = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "
    "min_samples_leaf = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }"
)


def _write(tmp_path, model):
    path = tmp_path / "search.toml"
    path.write_text(HEAD + model + "\n")
    return path


@pytest.mark.parametrize(
    "model, key",
    [
        (
            'estimator = "sklearn.model_selection.GridSearchCV"\n'
            f"params = {{ estimator = {TREE}, param_grid = {TEN_BY_TEN} }}",
            "models.h.params.param_grid",
        ),
        (
            f'estimator = "{HALVING}"\n'
            f"params = {{ estimator = {TREE}, n_candidates = 100000000, "
            f"param_distributions = {TEN_BY_TEN} }}",
            "models.h.params.n_candidates",
        ),
        (
            f'estimator = "{HALVING}"\n'
            f'params = {{ estimator = {TREE}, n_candidates = "exhaust", '
            f"param_distributions = {TEN_BY_TEN} }}",
            "models.h.params.n_candidates",
        ),
        (
            'estimator = "sklearn.ensemble.BaggingClassifier"\n'
            f'params = {{ estimator = {{ estimator = "{HALVING}", params = {{ estimator = '
            f"{TREE}, n_candidates = 1000000, param_distributions = {TEN_BY_TEN} }} }} }}",
            "models.h.params.estimator",
        ),
    ],
    ids=["grid search", "halving", "halving exhaust", "halving in a parameter"],
)
def test_a_space_of_100_is_refused_past_50_and_accepted_at_100(tmp_path, model, key):
    path = _write(tmp_path, model)
    with pytest.raises(ExperimentConfigError) as refused:
        load_config(path, limits={"candidates": 50})
    message = str(refused.value)
    assert f"line 8, key '{key}'" in message and " is 100, more than the limit of 50" in message
    assert "--limit candidates=100" in message
    load_config(path, limits={"candidates": 100})


def test_25_million_halving_candidates_are_refused_by_default(tmp_path):
    values = ", ".join(str(v) for v in range(1, 5001))
    path = _write(
        tmp_path,
        f'estimator = "{HALVING}"\nparams = {{ estimator = {TREE}, n_candidates = 25000000, '
        f"param_distributions = {{ max_depth = [{values}], max_leaf_nodes = [{values}] }} }}",
    )
    with pytest.raises(ExperimentConfigError, match="is 25000000, more than the limit of 10000"):
        load_config(path)


def test_n_iter_above_the_size_of_a_space_of_lists_counts_its_size(tmp_path):
    path = _write(
        tmp_path,
        'estimator = "sklearn.model_selection.RandomizedSearchCV"\n'
        f"params = {{ estimator = {TREE}, n_iter = 1000, "
        "param_distributions = { max_depth = [1, 2, 3] } }",
    )
    load_config(path, limits={"candidates": 3})  # refused before: 1000 > 3
    with pytest.raises(ExperimentConfigError, match="is 3, more than the limit of 2"):
        load_config(path, limits={"candidates": 2})


@pytest.mark.parametrize(
    "search",
    [
        RandomizedSearchCV(DecisionTreeClassifier(), {"max_depth": [1, 2, 3]}, n_iter=50, cv=2),
        HalvingRandomSearchCV(
            DecisionTreeClassifier(),
            {"max_depth": [1, 2, 3], "criterion": ["gini", "entropy"]},
            n_candidates=50,
            cv=2,
            random_state=0,
        ),
        HalvingRandomSearchCV(
            DecisionTreeClassifier(),
            {"max_depth": [1, 2, 3], "criterion": ["gini", "entropy"]},
            cv=2,
            random_state=0,
        ),
        HalvingRandomSearchCV(
            DecisionTreeClassifier(),
            {"max_depth": scipy.stats.randint(1, 5)},
            cv=2,
            max_resources=120,
            min_resources=10,
            random_state=0,
        ),
        HalvingRandomSearchCV(
            DecisionTreeClassifier(),
            {"max_depth": scipy.stats.randint(1, 5)},
            cv=2,
            n_candidates=7,
            random_state=0,
        ),
    ],
    ids=["randomized", "halving", "halving exhaust", "halving exhaust 120 // 10", "halving 7"],
)
def test_the_count_is_at_least_what_scikit_learn_draws(search):
    count, _ = search_space(search)
    X, y = load_iris(return_X_y=True)
    search.fit(X, y)
    drawn = search.n_candidates_[0] if hasattr(search, "n_candidates_") else search.n_iter
    drawn = len(search.cv_results_["params"]) if not hasattr(search, "n_candidates_") else drawn
    assert count >= drawn
    if "exhaust" not in str(search.get_params().get("n_candidates")):
        assert count == drawn  # n_iter, n_candidates: what is drawn


def test_exhaust_over_a_distribution_is_counted_with_the_data():
    search = HalvingRandomSearchCV(
        DecisionTreeClassifier(), {"max_depth": scipy.stats.randint(1, 5)}, cv=2
    )
    assert search_space(search) == (None, "n_candidates")  # max_resources: the samples
    assert search_space(BaggingClassifier(search)) is None  # the search is a parameter


def test_exhaust_over_a_distribution_is_refused_past_the_limit_with_the_data():
    from types import SimpleNamespace

    from sklearn_fair.experiment import Limits
    from sklearn_fair.experiment._reading._config import check_per_sample

    class Source:
        def error(self, key, message):
            return ExperimentConfigError(f"key {'.'.join(key)!r}: {message}")

    spec = SimpleNamespace(per_sample=(3, ("models", "h", "params", "n_candidates")))
    config = SimpleNamespace(limits=Limits(candidates=450), source=Source())
    check_per_sample(config, spec, 150)  # 3 x 150 samples
    with pytest.raises(ExperimentConfigError, match="'models.h.params.n_candidates'.* is 453,"):
        check_per_sample(config, spec, 151)


def test_the_dry_run_says_a_halving_search_in_a_parameter_decides_its_fits(tmp_path, capsys):
    from sklearn_fair.cli import main

    path = _write(
        tmp_path,
        'estimator = "sklearn.ensemble.BaggingClassifier"\n'
        f'params = {{ estimator = {{ estimator = "{HALVING}", params = {{ estimator = '
        f"{TREE}, n_candidates = 1000000, "
        "param_distributions = { max_depth = [1, 2, 3] } } } }",
    )
    assert main(["run", str(path), "--dry-run", "--no-timing"]) == 0
    total = capsys.readouterr().out.strip().splitlines()[-1]
    # it said "Total: 4 fits.", as if the search inside made one fit
    assert "the fits that their searches decide, not counted" in total, total
