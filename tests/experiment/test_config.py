import re

import pytest

from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config

GOOD = """\
[experiment]
name = "tiny"
random_state = 0

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 1

[models.logreg]
estimator = "sklearn.linear_model.LogisticRegression"
params = { max_iter = 300 }
grid = { C = [0.1, 1.0] }
"""


def write(tmp_path, text, name="EXPERIMENT.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_good_config(tmp_path):
    config = load_config(write(tmp_path, GOOD))
    assert config.name == "tiny" and config.n_jobs == 1 and config.backend == "loky"
    assert config.output_dir == (tmp_path / "EXPERIMENT_results").resolve()
    spec = config.models["logreg"]
    assert spec.estimator.max_iter == 300
    assert spec.grid == {"C": [0.1, 1.0]}


def test_preprocessing_prefixes_the_grid_and_resolves_classes(tmp_path):
    text = GOOD.replace(
        "grid = { C = [0.1, 1.0] }",
        'preprocessing = ["sklearn.preprocessing.StandardScaler"]\n'
        "grid = { C = [0.1], standardscaler__with_mean = [true, false] }",
    )
    text += (
        '\n[models.bagged]\nestimator = "sklearn.ensemble.BaggingClassifier"\n'
        'params = { estimator = { estimator = "sklearn.tree.DecisionTreeClassifier", '
        "params = { max_depth = 2 } }, n_estimators = 3 }\n"
    )
    config = load_config(write(tmp_path, text))
    pipeline = config.models["logreg"].estimator
    assert [name for name, _ in pipeline.steps] == ["standardscaler", "logisticregression"]
    assert set(config.models["logreg"].grid) == {
        "logisticregression__C",
        "standardscaler__with_mean",
    }
    assert config.models["bagged"].estimator.estimator.max_depth == 2


@pytest.mark.parametrize(
    "old, new, line, key, message",
    [
        ("max_iter = 300", "max_iters = 300", 14, "models.logreg.params", "rejects"),
        ("C = [0.1, 1.0]", "D = [0.1, 1.0]", 15, "models.logreg.grid.D", "no parameter 'D'"),
        ("C = [0.1, 1.0]", "C = 0.1", 15, "models.logreg.grid.C", "non-empty list"),
        ("outer_cv = 3", "outer_cv = 1", 9, "protocol.outer_cv", "at least 2"),
        ("outer_cv = 3", 'outer_cv = "3"', 9, "protocol.outer_cv", "must be an integer"),
        ("n_refits = 1", "n_refit = 1", 10, "protocol.n_refit", "unknown key"),
        ('"sklearn:iris"', '"sklearn:mnist"', 6, "data.dataset", "unknown data set"),
        ('"sklearn:iris"', '"openml:iris"', 6, "data.dataset", "'sklearn:NAME'"),
        ("random_state = 0", "random_state = true", 3, "experiment.random_state", "integer"),
        (
            '"sklearn.linear_model.LogisticRegression"',
            '"os.system"',
            13,
            "models.logreg.estimator",
            "not an allowed class",
        ),
        (
            '"sklearn.linear_model.LogisticRegression"',
            '"sklearn.linear_model.NoSuchModel"',
            13,
            "models.logreg.estimator",
            "no public class 'NoSuchModel'",
        ),
        (
            '"sklearn.linear_model.LogisticRegression"',
            '"sklearn.nonexistent.Model"',
            13,
            "models.logreg.estimator",
            "cannot import",
        ),
        ("[protocol]", "[protocols]", 8, "protocols", "unknown table"),
        ("outer_cv = 3", 'scoring = "nope"', 9, "protocol.scoring", "unknown scorer"),
    ],
)
def test_errors_name_line_and_key(tmp_path, old, new, line, key, message):
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path)
    text = str(info.value)
    assert text.startswith(f"{path}, line {line}, key '{key}': "), text
    assert message in text
    assert isinstance(info.value, ValueError)


def test_missing_files_and_keys(tmp_path):
    csv = GOOD.replace('dataset = "sklearn:iris"', 'dataset = "csv"\npath = "no.csv"')
    with pytest.raises(ExperimentConfigError, match=r"line 5, key 'data.target': missing"):
        load_config(write(tmp_path, csv))
    csv = csv.replace('path = "no.csv"', 'path = "no.csv"\ntarget = "y"')
    with pytest.raises(ExperimentConfigError, match=r"line 7, key 'data.path'.*does not exist"):
        load_config(write(tmp_path, csv))
    splits = GOOD.replace("outer_cv = 3", 'splits_file = "splits.json"')
    with pytest.raises(ExperimentConfigError, match=r"line 9, key 'protocol.splits_file'"):
        load_config(write(tmp_path, splits))
    no_models = GOOD[: GOOD.index("[models.logreg]")]
    with pytest.raises(ExperimentConfigError, match=r"key 'models': no models"):
        load_config(write(tmp_path, no_models))
    unused = GOOD.replace('dataset = "sklearn:iris"', 'dataset = "sklearn:iris"\nroot = "x"')
    with pytest.raises(ExperimentConfigError, match=r"line 7, key 'data.root': not used"):
        load_config(write(tmp_path, unused))


def test_toml_syntax_error_has_its_line(tmp_path):
    path = write(tmp_path, GOOD.replace("outer_cv = 3", "outer_cv = "))
    with pytest.raises(ExperimentConfigError, match=re.escape(f"{path} is not valid TOML")) as info:
        load_config(path)
    assert "line 9" in str(info.value)


def test_unreadable_file(tmp_path):
    with pytest.raises(ExperimentConfigError, match="Cannot read the experiment file"):
        load_config(tmp_path / "absent.toml")
