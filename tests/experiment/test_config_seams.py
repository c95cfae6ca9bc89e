"""Experiment files that were read wrong or stopped with a traceback (hunt CONFIG): each now
refused, naming the file's line and key."""

import numpy as np
import pytest

from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import dry_run, load_config, run_experiment
from sklearn_fair.model_selection import NestedCV

IRIS = """\
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1
"""


def write(folder, text, name="e.toml"):
    path = folder / name
    path.write_text(text)
    return path


def refusal(call, *args, **kwargs):
    with pytest.raises(ExperimentConfigError) as info:
        call(*args, **kwargs)
    return str(info.value)


@pytest.fixture
def no_fit(monkeypatch):
    def fit(self, *args, **kwargs):
        raise AssertionError("a model was fitted before the file was checked")

    monkeypatch.setattr(NestedCV, "fit", fit)


# -- CONFIG-4: a blank column name (pandas' index, as to_csv writes it) is no feature ----------


def test_a_pandas_index_column_is_refused_not_learnt(tmp_path, no_fit):
    pd = pytest.importorskip("pandas")
    noise = np.random.default_rng(0).normal(size=200)
    # sorted by label: the row numbers that to_csv writes as its index predict the label
    pd.DataFrame({"noise": noise, "target": np.repeat([0, 1], 100)}).to_csv(tmp_path / "n.csv")
    assert pd.read_csv(tmp_path / "n.csv").columns[0] == "Unnamed: 0"  # pandas' own reading
    path = write(
        tmp_path,
        '[data]\ndataset = "csv"\npath = "n.csv"\ntarget = "target"\n'
        + IRIS.split("[protocol]\n")[1].join(["[protocol]\n", ""])
        + '[models.tree]\nestimator = "sklearn.tree.DecisionTreeClassifier"\n'
        + "grid = { max_depth = [1, 2] }\n",
    )
    message = refusal(run_experiment, path)
    assert "line 3, key 'data.path'" in message
    assert "column without a name (column 1 of the header)" in message
    assert "index=False" in message


@pytest.mark.parametrize(
    "header, columns", [("x,,target", "column 2"), ("x, ,target,", "columns 2, 4")]
)
def test_a_blank_column_name_is_refused_naming_its_place(tmp_path, no_fit, header, columns):
    cells = "1,2,0" + ("," if header.endswith(",") else "")
    rows = "\n".join(cells if i % 2 else cells.replace(",0", ",1") for i in range(6))
    (tmp_path / "d.csv").write_text(f"{header}\n{rows}\n")
    path = write(
        tmp_path,
        IRIS.replace('"sklearn:iris"', '"csv"\npath = "d.csv"\ntarget = "target"')
        + '[models.m]\nestimator = "sklearn.dummy.DummyClassifier"\n',
    )
    message = refusal(run_experiment, path)
    assert f"({columns} of the header)" in message


# -- CONFIG-1: a grid key whose part before "__" holds no estimator ----------------------------


@pytest.mark.parametrize(
    "model, key, holds",
    [
        (
            'estimator = "sklearn.ensemble.BaggingClassifier"\nparams = { n_estimators = 3 }\n'
            "grid = { estimator__max_depth = [2, 3] }\n",
            "models.m.grid.estimator__max_depth",
            "'estimator' holds None",
        ),
        (
            'estimator = "sklearn.linear_model.LogisticRegression"\ngrid = { C__x = [0.1] }\n',
            "models.m.grid.C__x",
            "'C' holds 1.0",
        ),
        (  # the final step of a pipeline, named
            'estimator = "sklearn.ensemble.BaggingClassifier"\n'
            'preprocessing = ["sklearn.preprocessing.StandardScaler"]\n'
            "grid = { baggingclassifier__estimator__max_depth = [2, 3] }\n",
            "models.m.grid.baggingclassifier__estimator__max_depth",
            "'baggingclassifier__estimator' holds None",
        ),
    ],
)
@pytest.mark.parametrize("call", ["dry_run", "run_experiment"])
def test_a_grid_key_under_no_estimator_is_refused(tmp_path, no_fit, model, key, holds, call):
    path = write(tmp_path, IRIS + "[models.m]\n" + model)
    load_config(path)  # the file reads; its candidates cannot be set
    run = {"dry_run": lambda p: dry_run(p, timing=False), "run_experiment": run_experiment}
    message = refusal(run[call], path)
    assert f"line {len(IRIS.splitlines()) + 1 + model.count(chr(10))}, key '{key}'" in message
    assert holds in message and "not an estimator" in message


def test_a_grid_that_sets_the_estimator_and_its_parameter_is_taken(tmp_path, no_fit):
    model = (
        'estimator = "sklearn.ensemble.BaggingClassifier"\nparams = { n_estimators = 2 }\n'
        'grid = { estimator = [{ estimator = "sklearn.tree.DecisionTreeClassifier" }], '
        "estimator__max_depth = [2, 3] }\n"
    )
    dry_run(write(tmp_path, IRIS + "[models.m]\n" + model), timing=False)


# -- CONFIG-2: a bad value of params is named as params, not as the grid -----------------------


@pytest.mark.parametrize(
    "model, line, key",
    [
        (
            'estimator = "sklearn.linear_model.LogisticRegression"\nparams = { C = -1.0 }\n',
            9,
            "models.m.params.C",
        ),
        (
            'estimator = "sklearn.linear_model.LogisticRegression"\nparams = { C = -1.0 }\n'
            "grid = { max_iter = [100, 200] }\n",
            9,
            "models.m.params.C",
        ),
        (
            'estimator = "sklearn.linear_model.LogisticRegression"\n'
            'preprocessing = ["sklearn.preprocessing.StandardScaler"]\n'
            "params = { C = -1.0 }\ngrid = { max_iter = [100, 200] }\n",
            10,
            "models.m.params.C",
        ),
        (
            'estimator = "sklearn.ensemble.BaggingClassifier"\n'
            'params = { estimator = { estimator = "sklearn.tree.DecisionTreeClassifier", '
            "params = { max_depth = -1 } } }\ngrid = { n_estimators = [2, 3] }\n",
            9,
            "models.m.params.estimator.params.max_depth",
        ),
        (  # (review43 REV-4) a step of a list: named 'models.m.params.c.params.C', no such key
            'estimator = "sklearn.pipeline.Pipeline"\nparams = { steps = [["s", { estimator = '
            '"sklearn.preprocessing.StandardScaler" }], ["c", { estimator = "sklearn.svm.SVC", '
            "params = { C = -1.0 } }]] }\n",
            9,
            "models.m.params",
        ),
    ],
)
def test_a_bad_parameter_of_params_is_named_as_params(tmp_path, no_fit, model, line, key):
    message = refusal(dry_run, write(tmp_path, IRIS + "[models.m]\n" + model), timing=False)
    assert f"line {line}, key '{key}'" in message
    assert "parameter of" in message and "candidate" not in message


def test_a_bad_parameter_the_grid_sets_is_still_named_as_the_grid(tmp_path, no_fit):
    model = (
        'estimator = "sklearn.linear_model.LogisticRegression"\nparams = { C = 1.0 }\n'
        "grid = { C = [1.0, -1.0] }\n"
    )
    message = refusal(dry_run, write(tmp_path, IRIS + "[models.m]\n" + model), timing=False)
    assert "line 10, key 'models.m.grid': candidate 1 ({'C': -1.0}) cannot be set" in message


# -- CONFIG-3: a cross-validation table that is not a splitter ---------------------------------


@pytest.mark.parametrize(
    "line, unknown",
    [
        (
            'outer_cv = { spliter = "sklearn.model_selection.KFold", params = { n_splits = 3 } }',
            "'spliter'",
        ),
        ("inner_cv = { n_splits = 3 }", "'n_splits'"),
    ],
)
def test_a_cv_table_that_is_no_splitter_is_refused(tmp_path, line, unknown):
    name = line.split(" =")[0]
    text = IRIS.replace(f"{name} = {3 if name == 'outer_cv' else 2}", line)
    text += '[models.m]\nestimator = "sklearn.linear_model.LogisticRegression"\n'
    message = refusal(load_config, write(tmp_path, text))
    number = 1 + text.splitlines().index(line)
    assert f"line {number}, key 'protocol.{name}'" in message
    assert f"unknown key(s) {unknown}" in message and '{ splitter = "' in message


# -- CONFIG-5: an allowed package must be importable; the file's folder is not searched --------


def test_an_allowed_package_beside_the_file_is_not_imported_and_the_error_says_so(
    tmp_path, monkeypatch, capsys
):
    (tmp_path / "myhelpers.py").write_text(
        "from sklearn.linear_model import LogisticRegression\n\n"
        "class MyClf(LogisticRegression):\n    pass\n"
    )
    text = IRIS + '[models.mine]\nestimator = "myhelpers.MyClf"\n'
    path = write(tmp_path, text)
    monkeypatch.chdir(tmp_path.parent)
    args = ["run", str(path), "--dry-run", "--no-timing", "--allow-package", "myhelpers"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "cannot import module 'myhelpers'" in err and "PYTHONPATH" in err
    monkeypatch.syspath_prepend(str(tmp_path))  # what PYTHONPATH=folder does
    assert main(args) == 0


def test_a_missing_module_of_a_default_package_gets_no_hint(tmp_path):
    text = IRIS + '[models.m]\nestimator = "sklearn.nosuchmodule.Model"\n'
    message = refusal(load_config, write(tmp_path, text))
    assert "cannot import module 'sklearn.nosuchmodule'" in message
    assert "PYTHONPATH" not in message
