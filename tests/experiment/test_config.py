import os
import re
import sys
import textwrap
from pathlib import Path

import pytest

from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config, run_experiment

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

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


@pytest.mark.parametrize("kind", ["a folder", "a FIFO", "a device"])
def test_a_csv_path_that_is_not_a_regular_file_says_what_it_is(tmp_path, kind):
    # it said "does not exist" of a folder, a FIFO or a device that exists
    if kind == "a folder":
        (tmp_path / "data.csv").mkdir()
        path = "data.csv"
    elif kind == "a FIFO":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this system")
        os.mkfifo(tmp_path / "data.csv")
        path = "data.csv"
    else:
        if not os.path.exists(os.devnull) or os.devnull != "/dev/null":
            pytest.skip("no /dev/null on this system")
        path = os.devnull
    csv = GOOD.replace(
        'dataset = "sklearn:iris"', f'dataset = "csv"\npath = "{path}"\ntarget = "y"'
    )
    with pytest.raises(ExperimentConfigError) as info:
        load_config(write(tmp_path, csv), allow_outside_paths=path == os.devnull)
    text = str(info.value)
    assert "line 7, key 'data.path': the CSV file" in text, text
    assert f"is not a regular file: it is {kind}" in text, text
    assert "does not exist" not in text, text


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


def test_protocol_accepts_every_nested_cv_parameter(tmp_path):
    from sklearn.model_selection import GroupKFold, ShuffleSplit

    text = GOOD.replace(
        "outer_cv = 3",
        'outer_cv = { splitter = "sklearn.model_selection.ShuffleSplit", params = '
        "{ n_splits = 4, test_size = 0.25, random_state = 1 } }\n"
        'inner_cv = { splitter = "sklearn.model_selection.GroupKFold", '
        "params = { n_splits = 2 } }\n"
        'error_score = "raise"\nrefit = "balanced_accuracy"\n'
        'scoring = ["accuracy", "balanced_accuracy"]',
    )
    protocol = load_config(write(tmp_path, text)).protocol
    assert isinstance(protocol["outer_cv"], ShuffleSplit)
    assert protocol["outer_cv"].get_n_splits() == 4 and protocol["outer_cv"].test_size == 0.25
    assert isinstance(protocol["inner_cv"], GroupKFold)
    assert protocol["error_score"] == "raise" and protocol["refit"] == "balanced_accuracy"
    assert protocol["scoring"] == ["accuracy", "balanced_accuracy"]
    assert protocol["n_refits"] == 1


def test_protocol_follows_nested_cv_parameters(tmp_path, monkeypatch):
    """A parameter added to NestedCV is accepted without a change to the runner."""
    import inspect

    import sklearn_fair.benchmarking  # noqa: F401
    import sklearn_fair.model_selection as model_selection
    from sklearn_fair import NestedCV

    # imported before the patch below: a module first imported under it (benchmarking's
    # `from ..model_selection import NestedCV`) would keep NewNestedCV for every later test

    class NewNestedCV(NestedCV):
        def __init__(self, *args, future_option=None, **kwargs):
            super().__init__(*args, **kwargs)
            self.future_option = future_option

    # NestedCV's signature and one more parameter, as scikit-learn reads parameters
    signature = inspect.signature(NestedCV.__init__)
    added = inspect.Parameter("future_option", inspect.Parameter.KEYWORD_ONLY, default=None)
    NewNestedCV.__init__.__signature__ = signature.replace(
        parameters=[*signature.parameters.values(), added]
    )

    path = write(tmp_path, GOOD.replace("n_refits = 1", 'future_option = "inner"'))
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "key 'protocol.future_option': unknown key" in message
    for accepted in ("outer_cv", "inner_cv", "n_refits", "scoring", "error_score", "refit"):
        assert accepted in message
    monkeypatch.setattr(model_selection, "NestedCV", NewNestedCV)
    assert load_config(path).protocol["future_option"] == "inner"
    # and the runner hands it to NestedCV (made in one place, for the run and the dry run)
    import sklearn_fair.experiment._counting._plan as planning

    made = []
    monkeypatch.setattr(
        planning, "NestedCV", lambda *a, **k: made.append(NewNestedCV(*a, **k)) or made[-1]
    )
    run_experiment(path, progress=False)
    assert made and made[0].future_option == "inner"


@pytest.mark.parametrize(
    "key, where",
    [
        ("n_jobs", "[experiment] n_jobs"),
        ("random_state", "[experiment]"),
        ("cache_dir", "[experiment] cache_dir"),
        ("param_grid", "'grid'"),
        ("estimator", "'estimator'"),
        ("verbose", "progress"),
    ],
)
def test_protocol_points_to_where_a_setting_goes(tmp_path, key, where):
    path = write(tmp_path, GOOD.replace("n_refits = 1", f"{key} = 2"))
    with pytest.raises(
        ExperimentConfigError, match=f"key 'protocol.{key}': is not set here"
    ) as info:
        load_config(path)
    assert where in str(info.value)


def test_grid_preset_with_overrides(tmp_path):
    from sklearn_fair.graph import GIN, PAPER_GRIDS

    text = (
        '[data]\ndataset = "sklearn:iris"\n\n[models.gin]\n'
        'estimator = "sklearn_fair.graph.GraphClassifier"\n'
        'params = { module = { class = "sklearn_fair.graph.GIN" } }\n'
        'grid_preset = "sklearn_fair.graph.PAPER_GRIDS:GIN"\n'
        "grid = { max_epochs = [5], batch_size = [64] }\n"
    )
    spec = load_config(write(tmp_path, text)).models["gin"]
    assert spec.estimator.module is GIN
    assert spec.grid["max_epochs"] == [5] and spec.grid["batch_size"] == [64]
    for name, values in PAPER_GRIDS["GIN"].items():
        if name not in ("max_epochs", "batch_size"):
            assert spec.grid[name] == values
    with pytest.raises(ExperimentConfigError, match="has no grid 'GINN'; it has DGCNN"):
        load_config(write(tmp_path, text.replace("PAPER_GRIDS:GIN", "PAPER_GRIDS:GINN")))


def test_sampler_in_preprocessing_builds_an_imbalanced_learn_pipeline(tmp_path):
    from imblearn.pipeline import Pipeline as ImbPipeline
    from sklearn.pipeline import Pipeline

    text = GOOD.replace(
        "grid = { C = [0.1, 1.0] }",
        'preprocessing = ["sklearn.preprocessing.StandardScaler", '
        '{ estimator = "imblearn.under_sampling.RandomUnderSampler", '
        "params = { random_state = 0 } }]\n"
        "grid = { C = [0.1], randomundersampler__replacement = [true, false] }",
    )
    spec = load_config(write(tmp_path, text)).models["logreg"]
    assert isinstance(spec.estimator, ImbPipeline)
    assert [name for name, _ in spec.estimator.steps] == [
        "standardscaler",
        "randomundersampler",
        "logisticregression",
    ]
    plain = load_config(
        write(
            tmp_path,
            GOOD.replace(
                "grid = { C", 'preprocessing = ["sklearn.preprocessing.StandardScaler"]\ngrid = { C'
            ),
        )
    ).models["logreg"]
    assert type(plain.estimator) is Pipeline
    bad = GOOD.replace("grid = { C", 'preprocessing = ["sklearn.linear_model.Ridge"]\ngrid = { C')
    with pytest.raises(ExperimentConfigError, match="neither transform nor fit_resample"):
        load_config(write(tmp_path, bad))


def test_the_user_guides_examples_are_valid_toml():
    guide = Path(__file__).resolve().parents[2] / "docs" / "guide" / "experiments.rst"
    blocks = re.findall(r"\.\. code-block:: toml\n\n((?:    .*\n|\n)+)", guide.read_text())
    assert len(blocks) >= 5
    for block in blocks:
        tomllib.loads(textwrap.dedent(block))


def test_steps_as_an_array_of_tables(tmp_path):
    text = GOOD + (
        "\n[[models.logreg.preprocessing]]\n"
        'estimator = "sklearn.preprocessing.StandardScaler"\n'
        "params.with_mean = false\n"
        "\n[[models.logreg.preprocessing]]\n"
        'estimator = "imblearn.over_sampling.RandomOverSampler"\n'
        "params.random_state = 0\n"
    )
    steps = load_config(write(tmp_path, text)).models["logreg"].estimator.steps
    assert [name for name, _ in steps] == [
        "standardscaler",
        "randomoversampler",
        "logisticregression",
    ]
    assert steps[0][1].with_mean is False and steps[1][1].random_state == 0


@pytest.mark.parametrize(
    "line, message",
    [
        ('select = "worst"', "The 'select' parameter of NestedCV must be"),
        ("fit_timeout = -1", "The 'fit_timeout' parameter of NestedCV must be"),
        ('keep_predictions = "yes"', "The 'keep_predictions' parameter of NestedCV must be"),
    ],
)
def test_a_protocol_value_nested_cv_refuses_is_refused_at_its_key_before_any_fit(
    tmp_path, line, message
):
    # they passed load_config and the dry run, then stopped the run with a traceback naming
    # no file, line or key
    path = write(tmp_path, GOOD.replace("n_refits = 1", f"n_refits = 1\n{line}"))
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path)
    text = str(info.value)
    assert "line 11, key 'protocol." in text and message in text, text


@pytest.mark.parametrize("seed", [-5, 2**32, 2**63 - 1])
def test_a_seed_out_of_range_is_refused_at_its_own_key(tmp_path, seed):
    # it was blamed on 'protocol' ("the protocol does not fit the data")
    path = write(tmp_path, GOOD.replace("random_state = 0", f"random_state = {seed}"))
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path)
    assert "line 3, key 'experiment.random_state': must be an integer from 0" in str(info.value)


def test_scikit_learns_experimental_classes_read_by_their_documented_names(tmp_path):
    """In a fresh process (no experimental module imported yet): the names scikit-learn's docs
    give, which exist only once sklearn.experimental's enabling module is imported."""
    import subprocess

    text = GOOD.replace(
        'estimator = "sklearn.linear_model.LogisticRegression"\nparams = { max_iter = 300 }\n'
        "grid = { C = [0.1, 1.0] }",
        'estimator = "sklearn.model_selection.HalvingGridSearchCV"\n'
        'params = { estimator = { estimator = "sklearn.linear_model.LogisticRegression" }, '
        "param_grid = { C = [0.1, 1.0] }, cv = 2 }",
    )
    text += (
        '\n[models.imputed]\nestimator = "sklearn.linear_model.LogisticRegression"\n'
        'preprocessing = ["sklearn.impute.IterativeImputer"]\n'
    )
    path = write(tmp_path, text)
    code = (
        "import sys; from sklearn_fair.experiment import load_config; "
        "c = load_config(sys.argv[1]); "
        "print(type(c.models['logreg'].estimator).__name__, "
        "[s for s, _ in c.models['imputed'].estimator.steps])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[0] == "HalvingGridSearchCV"
    assert "iterativeimputer" in done.stdout


def test_a_misspelt_key_of_an_instance_table_is_named_at_its_key(tmp_path):
    # { estimator = ..., parms = ... } fell through to a plain dict, and the run ended in
    # AttributeError: 'dict' object has no attribute '__sklearn_tags__'
    text = GOOD.replace(
        'estimator = "sklearn.linear_model.LogisticRegression"\nparams = { max_iter = 300 }\n'
        "grid = { C = [0.1, 1.0] }",
        'estimator = "sklearn.ensemble.BaggingClassifier"\nparams = { estimator = { estimator = '
        '"sklearn.tree.DecisionTreeClassifier", parms = { max_depth = 1 } } }',
    )
    path = write(tmp_path, text)
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path}, line 14, key 'models.logreg.params.estimator': ")
    assert "got also 'parms'" in str(info.value)


def test_a_grid_over_the_estimator_parameter_alone_is_a_grid(tmp_path):
    # a grid table whose one key is 'estimator' was read as an instance table and refused:
    # "... is not an allowed class: give the dotted name of a class"
    text = GOOD.replace(
        'estimator = "sklearn.linear_model.LogisticRegression"\nparams = { max_iter = 300 }\n'
        "grid = { C = [0.1, 1.0] }",
        'estimator = "sklearn.ensemble.BaggingClassifier"\n'
        'grid = { estimator = [{ estimator = "sklearn.tree.DecisionTreeClassifier", params = '
        '{ max_depth = 1 } }, { estimator = "sklearn.linear_model.LogisticRegression" }] }',
    )
    (tree, logistic) = load_config(write(tmp_path, text)).models["logreg"].grid["estimator"]
    assert type(tree).__name__ == "DecisionTreeClassifier" and tree.max_depth == 1
    assert type(logistic).__name__ == "LogisticRegression"
