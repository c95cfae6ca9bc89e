"""Files that ended in a traceback (exit 1) are refused at their line and key (exit 2): a
NUL character in a path (``ValueError: embedded null byte``), a model that nothing scores
(scikit-learn's TypeError: no ``score`` method and no ``scoring``)."""

import pytest

from sklearn_fair.cli import main
from sklearn_fair.experiment import load_config

DATA = """\
[experiment]
progress = false
[data]
dataset = "csv"
path = "d.csv"
target = "y"
[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1
[models.m]
estimator = "sklearn.linear_model.LogisticRegression"
"""


def _csv(tmp_path):
    rows = "\n".join(f"{i % 7}.5,{i % 2}" for i in range(30))
    (tmp_path / "d.csv").write_text("x,y\n" + rows + "\n")


@pytest.mark.parametrize(
    "old, new, line, key",
    [
        ('path = "d.csv"', 'path = "d\\u0000.csv"', 5, "data.path"),
        ("progress = false", 'progress = false\noutput_dir = "o\\u0000ut"', 3,
         "experiment.output_dir"),
        ("progress = false", 'progress = false\ncache_dir = "c\\u0000"', 3, "experiment.cache_dir"),
        ("outer_cv = 3", 'splits_file = "s\\u0000.json"', 8, "protocol.splits_file"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("dry_run", [True, False])
def test_a_nul_character_in_a_path_is_refused_at_its_key(
    tmp_path, capsys, old, new, line, key, dry_run
):
    _csv(tmp_path)
    path = tmp_path / "exp.toml"
    path.write_text(DATA.replace(old, new))
    assert main(["run", str(path), *(["--dry-run", "--no-timing"] if dry_run else [])]) == 2
    err = capsys.readouterr().err
    assert f"line {line}, key '{key}'" in err and "holds a NUL character" in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "model",
    [
        'estimator = "sklearn.preprocessing.FunctionTransformer"',
        'estimator = "sklearn.preprocessing.FunctionTransformer"\n'
        'preprocessing = ["sklearn.preprocessing.StandardScaler"]',
        'estimator = "sklearn.model_selection.GridSearchCV"\n'
        'params = { estimator = { estimator = "sklearn.preprocessing.FunctionTransformer" }, '
        "param_grid = { validate = [true, false] } }",
    ],
    ids=["transformer", "in a pipeline", "in a search"],
)
@pytest.mark.parametrize("dry_run", [True, False])
def test_a_model_without_score_and_no_scoring_is_refused(tmp_path, capsys, model, dry_run):
    _csv(tmp_path)
    path = tmp_path / "exp.toml"
    path.write_text(DATA.replace('estimator = "sklearn.linear_model.LogisticRegression"', model))
    assert main(["run", str(path), *(["--dry-run", "--no-timing"] if dry_run else [])]) == 2
    err = capsys.readouterr().err
    assert "line 12, key 'models.m.estimator'" in err and "give [protocol] scoring" in err, err
    assert "Traceback" not in err


def test_with_scoring_such_a_model_is_accepted(tmp_path):
    _csv(tmp_path)
    path = tmp_path / "exp.toml"
    text = DATA.replace("linear_model.LogisticRegression", "preprocessing.FunctionTransformer")
    path.write_text(text.replace("n_refits = 1", 'n_refits = 1\nscoring = "accuracy"'))
    assert load_config(path).protocol["scoring"] == "accuracy"
    searched = DATA.replace(
        'estimator = "sklearn.linear_model.LogisticRegression"',
        'estimator = "sklearn.model_selection.GridSearchCV"\n'
        'params = { estimator = { estimator = "sklearn.preprocessing.FunctionTransformer" }, '
        'param_grid = { validate = [true, false] }, scoring = "accuracy" }',
    )
    path.write_text(searched)
    load_config(path)  # the search scores with its own scoring


@pytest.mark.parametrize(
    "old, new, line, key, words",
    [
        # refused with the data, at key 'protocol': "The 'param_grid' parameter of NestedCV
        # is empty"
        ('LogisticRegression"', 'LogisticRegression"\ngrid = []', 13, "models.m.grid",
         "must hold at least one table of lists; got []"),
        # refused with the data, at key 'protocol': "... must name the metric ... Got False",
        # the runner's default, which the file never wrote
        ("n_refits = 1", 'n_refits = 1\nscoring = ["accuracy", "f1"]', 11, "protocol.scoring",
         "is a list or table of metrics, so [protocol] needs refit = 'accuracy' or another "
         "of ['accuracy', 'f1']"),
    ],
)  # fmt: skip
def test_a_fault_is_refused_at_its_own_key_before_the_data_are_read(
    tmp_path, old, new, line, key, words
):
    _csv(tmp_path)
    path = tmp_path / "exp.toml"
    path.write_text(DATA.replace(old, new))
    with pytest.raises(ValueError) as info:
        load_config(path)
    assert f"line {line}, key '{key}': {words}" in str(info.value)


@pytest.mark.parametrize("dry_run", [True, False])
def test_an_inner_cv_beside_a_splits_file_with_inner_splits_is_refused(tmp_path, capsys, dry_run):
    # the file's inner splits were used and inner_cv = 2 dropped without a word
    import numpy as np
    from sklearn.model_selection import KFold

    from sklearn_fair.model_selection import save_splits

    _csv(tmp_path)
    rows = np.arange(30)
    save_splits(
        [(train, test, [(train[:15], train[15:])]) for train, test in KFold(3).split(rows)],
        tmp_path / "s.json",
    )
    path = tmp_path / "exp.toml"
    path.write_text(DATA.replace("outer_cv = 3", 'splits_file = "s.json"'))
    assert main(["run", str(path), *(["--dry-run", "--no-timing"] if dry_run else [])]) == 2
    err = capsys.readouterr().err
    assert "line 9, key 'protocol.inner_cv'" in err and "inner_cv ignored" in err, err
    # without inner_cv, the file's inner splits are the protocol
    path.write_text(DATA.replace("outer_cv = 3", 'splits_file = "s.json"').replace(
        "inner_cv = 2\n", ""))  # fmt: skip
    assert main(["run", str(path), "--dry-run", "--no-timing"]) == 0
