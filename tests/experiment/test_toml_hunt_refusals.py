"""Experiment files that passed the checks and then read where they should not, or stopped
the run with a traceback: each now refused when the file is read, naming the key (exit 2)."""

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest
from sklearn.base import is_classifier, is_regressor
from sklearn.datasets import load_iris
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, ShuffleSplit, StratifiedKFold, check_cv
from sklearn.neighbors import KNeighborsClassifier

from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config


def write(folder, text, name="e.toml"):
    path = folder / name
    path.write_text(text)
    return path


# -- classes that load pretrained models and tokenizers by name (hub or any folder) -----------

HF_STEP = """\
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 2
n_refits = 1
scoring = "accuracy"
[models.tok]
estimator = "sklearn.dummy.DummyClassifier"
[[models.tok.preprocessing]]
estimator = "skorch.hf.HuggingfacePretrainedTokenizer"
params = { tokenizer = "bert-base-uncased" }
"""
HF_MODEL = """\
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 2
n_refits = 1
scoring = "accuracy"
[models.llm]
estimator = "CLASS"
params = { model_name = "gpt2" }
"""
HF_CASES = [
    pytest.param(
        HF_STEP, "models.tok.preprocessing.estimator", "skorch.hf.HuggingfacePretrainedTokenizer"
    ),
    pytest.param(
        HF_MODEL.replace("CLASS", "skorch.llm.ZeroShotClassifier"),
        "models.llm.estimator",
        "skorch.llm.ZeroShotClassifier",
        marks=pytest.mark.skipif(
            importlib.util.find_spec("skorch") is None
            or importlib.util.find_spec("skorch.llm") is None,
            reason="this skorch has no skorch.llm",
        ),
    ),
]
# in a fresh process: the refusal must come before skorch.hf (or transformers) is imported
READ = """\
import sys
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config
try:
    load_config(sys.argv[1])
except ExperimentConfigError as error:
    print("REFUSED", error)
print("IMPORTED", sorted(m for m in ("skorch.hf", "skorch.llm", "transformers")
                         if m in sys.modules))
"""


@pytest.mark.parametrize(("text", "key", "dotted"), HF_CASES)
def test_pretrained_loaders_refused_before_import(tmp_path, text, key, dotted):
    path = write(tmp_path, text)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", READ, str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "REFUSED" in out, out
    assert f"key '{key}'" in out and f"'{dotted}' is not an allowed class" in out, out
    assert "Hugging Face hub or any folder" in out, out
    assert "IMPORTED []" in out, out

    dry = subprocess.run(
        [sys.executable, "-m", "sklearn_fair", "run", "--dry-run", "--no-timing", str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert dry.returncode == 2, dry.stderr
    assert f"key '{key}'" in dry.stderr and "Traceback" not in dry.stderr, dry.stderr


def test_pretrained_loader_reexported_refused(tmp_path, monkeypatch):
    pytest.importorskip("skorch")
    package = tmp_path / "hfexport_toml2"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from skorch.hf import HuggingfacePretrainedTokenizer as Tokenizer\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "hfexport_toml2", raising=False)
    text = HF_STEP.replace("skorch.hf.HuggingfacePretrainedTokenizer", "hfexport_toml2.Tokenizer")
    path = write(tmp_path, text)
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path, allowed_packages=["hfexport_toml2"])
    text = str(info.value)
    assert "key 'models.tok.preprocessing.estimator'" in text, text
    assert "it is skorch.hf.HuggingfacePretrainedTokenizer" in text, text


# -- outer splits that benchmark refuses when the run starts --------------------------------

SPLITS = {
    "unseeded shuffle": """\
[experiment]
progress = false
output_dir = "out"
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = { splitter = "sklearn.model_selection.KFold", params = { n_splits = 3, shuffle = true } }
[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 2, 3] }
[models.tree2]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 2, 3, 4] }
""",
    "classifier and regressor": """\
[experiment]
progress = false
output_dir = "out"
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 3
scoring = "neg_mean_absolute_error"
[models.ridge]
estimator = "sklearn.linear_model.Ridge"
grid = { alpha = [0.1, 1.0] }
[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [5, 15] }
""",
    "one split": """\
[experiment]
progress = false
output_dir = "out"
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = { splitter = "sklearn.model_selection.ShuffleSplit", params = { n_splits = 1, \
test_size = 0.3, random_state = 0 } }
[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 2, 3] }
""",
}
EXPECTED = {
    "unseeded shuffle": "The outer splits of 'tree' and 'tree2' differ",
    "classifier and regressor": "The outer splits of 'ridge' and 'knn' differ",
    "one split": "gives 1 outer split(s) of data set 'iris'",
}


def _test_folds(cv, estimator=None):
    X, y = load_iris(return_X_y=True)
    cv = check_cv(cv, y, classifier=estimator is not None and is_classifier(estimator))
    return [np.sort(test) for _, test in cv.split(X, y)]


def test_the_splits_do_differ():
    """What the refusals below rest on, by scikit-learn alone."""
    assert is_regressor(Ridge()) and is_classifier(KNeighborsClassifier())
    apart = zip(_test_folds(3, Ridge()), _test_folds(3, KNeighborsClassifier()))
    assert not all(np.array_equal(a, b) for a, b in apart)  # KFold vs StratifiedKFold
    assert [len(t) for t in _test_folds(KFold(3))] == [50, 50, 50]
    assert not np.array_equal(_test_folds(KFold(3))[0], _test_folds(StratifiedKFold(3))[0])
    assert ShuffleSplit(n_splits=1, test_size=0.3, random_state=0).get_n_splits() == 1


@pytest.mark.parametrize("case", SPLITS)
def test_outer_splits_refused_before_any_fit(tmp_path, capsys, monkeypatch, case):
    path = write(tmp_path, SPLITS[case])
    assert main(["run", "--dry-run", "--no-timing", str(path)]) == 2
    err = capsys.readouterr().err
    assert "e.toml, line 7, key 'protocol.outer_cv'" in err and EXPECTED[case] in err, err
    assert "Traceback" not in err

    def no_fit(*args, **kwargs):
        raise AssertionError("the run began fitting")

    monkeypatch.setattr("sklearn_fair.benchmarking.benchmark", no_fit)  # the runner's import
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert "e.toml, line 7, key 'protocol.outer_cv'" in err and EXPECTED[case] in err, err


def test_one_split_from_a_splits_file_refused_at_its_key(tmp_path, capsys):
    from sklearn_fair.model_selection import save_splits

    X, y = load_iris(return_X_y=True)
    train, test = next(ShuffleSplit(1, test_size=0.3, random_state=0).split(X))
    save_splits([(train, test)], tmp_path / "splits.json", y=y)
    text = SPLITS["one split"].replace(
        SPLITS["one split"].splitlines()[6], 'splits_file = "splits.json"'
    )
    path = write(tmp_path, text)
    assert main(["run", "--dry-run", "--no-timing", str(path)]) == 2
    err = capsys.readouterr().err
    assert "key 'protocol.splits_file'" in err and "gives 1 outer split(s)" in err, err


# -- scoring that names no scorer --------------------------------------------------------------


@pytest.mark.parametrize("scoring", ["[]", "{}"])
def test_empty_scoring_refused(tmp_path, capsys, scoring):
    path = write(
        tmp_path,
        f"""\
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 3
scoring = {scoring}
[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
""",
    )
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path)
    assert f"line 5, key 'protocol.scoring': must name at least one scorer; got {scoring}." in (
        str(info.value)
    )
    assert main(["run", "--dry-run", "--no-timing", str(path)]) == 2
    assert "key 'protocol.scoring'" in capsys.readouterr().err
    assert main(["run", str(path)]) == 2
    assert "key 'protocol.scoring'" in capsys.readouterr().err
