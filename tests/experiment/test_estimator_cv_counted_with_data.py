"""An estimator's own cross-validation whose splits only the data count (LeavePOut,
LeaveOneOut) is held to the ``folds`` limit once the data are read, before any fit, as the
protocol's splitters are (hunt HOSTILE2, HOSTILE2-5): it was "left to the estimator", and no
scikit-learn estimator bounds it, so ``LogisticRegressionCV(cv=LeavePOut(3))`` on iris ran
551,300 splits in each fit (and in the dry run's timing fits)."""

from math import comb

import pytest

from sklearn_fair import NestedCV
from sklearn_fair.cli import main

HEAD = """\
[experiment]
n_jobs = 1
progress = false
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1
"""
LEAVE_P_OUT = '{ splitter = "sklearn.model_selection.LeavePOut", params = { p = 2 } }'
MODELS = {
    "params": (
        '[models.m]\nestimator = "sklearn.linear_model.LogisticRegressionCV"\n'
        f"params = {{ Cs = 2, cv = {LEAVE_P_OUT} }}\n",
        "models.m.params.cv",
        "cv=LeavePOut(p=2)",
    ),
    "grid value": (
        '[models.m]\nestimator = "sklearn.ensemble.BaggingClassifier"\n'
        'grid = { estimator = [{ estimator = "sklearn.linear_model.LogisticRegressionCV", '
        f"params = {{ cv = {LEAVE_P_OUT} }} }}], max_samples = [1.0] }}\n",
        "models.m.grid.estimator",
        "estimator__cv=LeavePOut(p=2)",
    ),
    # review45a REV-3: a splitter of a preprocessing step was shown at the model's estimator
    "preprocessing step": (
        '[models.m]\nestimator = "sklearn.linear_model.LogisticRegression"\n'
        '[[models.m.preprocessing]]\nestimator = "sklearn.feature_selection.RFECV"\n'
        'params = { estimator = { estimator = "sklearn.linear_model.LogisticRegression" }, '
        f"cv = {LEAVE_P_OUT} }}\n",
        "models.m.preprocessing",
        "rfecv__cv=LeavePOut(p=2)",
    ),
}


@pytest.fixture
def fits(monkeypatch):
    started = []
    fit = NestedCV.fit

    def counting_fit(nested, *args, **kwargs):
        started.append(1)
        return fit(nested, *args, **kwargs)

    monkeypatch.setattr(NestedCV, "fit", counting_fit)
    return started


@pytest.mark.parametrize("where", list(MODELS))
@pytest.mark.parametrize("dry", [False, True], ids=["run", "dry-run"])
def test_an_estimators_own_splits_counted_with_the_data_are_held_to_the_limit(
    tmp_path, capsys, fits, where, dry
):
    model, key, named = MODELS[where]
    path = tmp_path / "e.toml"
    path.write_text(HEAD + model)
    argv = ["run", str(path), "--output-dir", str(tmp_path / "out")]
    status = main(argv + (["--dry-run"] if dry else []))  # the dry run's timing fits too
    err = capsys.readouterr().err
    n_splits = comb(150, 2)  # scikit-learn's LeavePOut(2) on iris's 150 rows: 11,175 splits
    assert status == 2, err
    assert key in err and named in err and "150 rows" in err
    assert f"is {n_splits}, more than the limit of 1000" in err
    assert f"--limit folds={n_splits}" in err
    assert fits == []


def test_the_caller_can_lift_the_limit_for_an_estimators_own_splits(tmp_path, capsys):
    path = tmp_path / "e.toml"
    path.write_text(HEAD + MODELS["params"][0])
    status = main(["run", str(path), "--dry-run", "--no-timing", "--limit", "folds=11175"])
    assert status == 0, capsys.readouterr().err
