"""Hostile experiment files (issue 13, B2): a file is data and must never run code, build
classes it should not, or read and write where it should not."""

import pickle

import pytest

from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import dry_run, load_config, run_experiment

GOOD = """\
[experiment]
progress = false

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
ESTIMATOR = '"sklearn.linear_model.LogisticRegression"'


def write(folder, text, name="EXPERIMENT.toml"):
    path = folder / name
    path.write_text(text)
    return path


def refused(path, key, message, **options):
    with pytest.raises(ExperimentConfigError) as info:
        load_config(path, **options)
    text = str(info.value)
    assert f"key '{key}'" in text, text
    assert message in text, text
    return text


@pytest.mark.parametrize(
    "name, message",
    [
        # a private module (the class that truncated a file through sklearn's re-export)
        ("sklearn.datasets._base.GzipFile", "'_base' is not a public name"),
        ("sklearn_fair.__main__.main", "'__main__' is not a public name"),
        ("sklearn_fair.experiment._build.Builder", "'_build' is not a public name"),
        ("sklearn.tests.test_base.T", "'tests'"),
        ("os.system", "classes can only come from the packages"),
        ("builtins.open", "classes can only come from the packages"),
        ("sklearn", "give the dotted name of a class"),
        ("sklearn.linear_model.LogisticRegression()", "is not a public name"),
        # a public class that is not an estimator is refused before it is called
        ("sklearn.utils.Bunch", "must be a scikit-learn estimator"),
        ("sklearn.model_selection.KFold", "must be a scikit-learn estimator"),
        # a public re-export of a class from outside the allowed packages
        ("sklearn.pipeline.chain", "re-exported from a package outside"),
    ],
)
def test_estimator_names_are_checked_before_anything_is_called(tmp_path, name, message):
    path = write(tmp_path, GOOD.replace(ESTIMATOR, f'"{name}"'))
    refused(path, "models.logreg.estimator", message)


def test_a_class_whose_module_raises_import_error_is_refused_at_its_key(tmp_path, monkeypatch):
    # scikit-learn's experimental classes (HalvingGridSearchCV, until
    # sklearn.experimental.enable_halving_search_cv is imported): the module's __getattr__
    # raises ImportError, which escaped as a traceback, naming neither the line nor the key
    import sklearn.dummy

    def experimental(name):
        raise ImportError(f"{name} is experimental; import sklearn.experimental.enable_it")

    monkeypatch.setattr(sklearn.dummy, "__getattr__", experimental, raising=False)
    path = write(tmp_path, GOOD.replace(ESTIMATOR, '"sklearn.dummy.Experimental"'))
    refused(path, "models.logreg.estimator", "Experimental is experimental; import")


def test_no_class_is_instantiated_before_its_kind_is_checked(tmp_path, monkeypatch):
    import sklearn.utils

    calls = []

    class Spy(sklearn.utils.Bunch):
        def __init__(self, *args, **kwargs):
            calls.append((args, kwargs))
            super().__init__(*args, **kwargs)

    Spy.__module__ = "sklearn.utils"  # as if scikit-learn defined it
    monkeypatch.setattr(sklearn.utils, "Spy", Spy, raising=False)
    path = write(tmp_path, GOOD.replace(ESTIMATOR, '"sklearn.utils.Spy"'))
    refused(path, "models.logreg.estimator", "must be a scikit-learn estimator")
    text = GOOD.replace("max_iter = 300", 'max_iter = { estimator = "sklearn.utils.Spy" }')
    refused(write(tmp_path, text), "models.logreg.params.max_iter.estimator", "must be")
    assert calls == []


@pytest.mark.parametrize(
    "old, new, key, message",
    [
        # classes and instances inside parameters, preprocessing and the protocol
        (
            "max_iter = 300",
            'max_iter = { class = "sklearn.utils.Bunch" }',
            "models.logreg.params.max_iter.class",
            "'max_iter' cannot be a class",
        ),
        (
            "max_iter = 300",
            'module = { class = "sklearn.utils.Bunch" }',
            "models.logreg.params.module.class",
            "is not an allowed class here: it must be a torch.nn.Module",
        ),
        (
            "max_iter = 300",
            'module = { class = "sklearn.pipeline.chain" }',
            "models.logreg.params.module.class",
            "re-exported from a package outside",
        ),
        (
            "max_iter = 300",
            'max_iter = { callback = "skorch.callbacks.LoadInitState", '
            'params = { checkpoint = "x" } }',
            "models.logreg.params.max_iter.callback",
            "must be a skorch callback among",
        ),
        (
            "grid = { C = [0.1, 1.0] }",
            'grid = { module = [{ class = "sklearn.datasets._base.GzipFile" }] }',
            "models.logreg.grid.module.class",
            "'_base' is not a public name",
        ),
        (
            "outer_cv = 3",
            'outer_cv = { splitter = "sklearn.linear_model.LogisticRegression" }',
            "protocol.outer_cv.splitter",
            "must be a splitter",
        ),
        (
            "outer_cv = 3",
            'outer_cv = { splitter = "sklearn.utils.Bunch", params = { a = 1 } }',
            "protocol.outer_cv.splitter",
            "must be a splitter",
        ),
        (
            "params = { max_iter = 300 }",
            'preprocessing = ["sklearn.utils.Bunch"]',
            "models.logreg.preprocessing.estimator",
            "must be a scikit-learn estimator",
        ),
        (
            "params = { max_iter = 300 }",
            'preprocessing = [{ estimator = "sklearn.pipeline.Pipeline", '
            'params = { steps = [], memory = "/tmp/anywhere" } }]',
            "models.logreg.preprocessing.params.memory",
            "write a cache folder",
        ),
        (
            "grid = { C = [0.1, 1.0] }",
            'grid_preset = "os.environ:HOME"',
            "models.logreg.grid_preset",
            "must be 'MAPPING:NAME'",
        ),
        # refused in params only: the same memory in a grid wrote joblib's cache to any
        # folder and unpickled what it found there; NestedCV's cache_dir wrote its task
        # cache there; a vectorizer's input="filename" opened every path a CSV cell named
        (
            'estimator = "sklearn.linear_model.LogisticRegression"\nparams = { max_iter = 300 }\n'
            "grid = { C = [0.1, 1.0] }",
            'estimator = "sklearn.pipeline.Pipeline"\nparams = { steps = [["lr", '
            '{ estimator = "sklearn.linear_model.LogisticRegression" }]] }\n'
            'grid = { memory = ["/tmp/anywhere"], lr__C = [0.1, 1.0] }',
            "models.logreg.grid.memory",
            "write a cache folder",
        ),
        (
            'estimator = "sklearn.linear_model.LogisticRegression"\nparams = { max_iter = 300 }',
            'estimator = "sklearn_fair.NestedCV"\nparams = { estimator = { estimator = '
            '"sklearn.linear_model.LogisticRegression" }, cache_dir = "/tmp/anywhere" }',
            "models.logreg.params.cache_dir",
            "write a cache folder",
        ),
        (
            "params = { max_iter = 300 }",
            'preprocessing = [{ estimator = "sklearn.feature_extraction.text.CountVectorizer", '
            'params = { input = "filename" } }]',
            "models.logreg.preprocessing.params.input",
            "open the files that the data name",
        ),
    ],
)
def test_classes_in_parameters_are_checked(tmp_path, old, new, key, message):
    assert old in GOOD
    refused(write(tmp_path, GOOD.replace(old, new)), key, message)


def test_packages_are_allowed_by_the_user_not_by_the_file(tmp_path):
    text = GOOD.replace(ESTIMATOR, '"xml.dom.minidom.Document"')
    refused(write(tmp_path, text), "models.logreg.estimator", "classes can only come from")
    # allowed by the user, the class must still be an estimator
    refused(
        write(tmp_path, text),
        "models.logreg.estimator",
        "must be a scikit-learn estimator",
        allowed_packages=["xml"],
    )
    text = GOOD.replace("[experiment]", '[experiment]\nallowed_packages = ["xml"]')
    refused(write(tmp_path, text), "experiment.allowed_packages", "unknown key")


NAMES = ["..", ".", "a/b", "../x", ".hidden", "a..b", "a\\b", "/abs", "x" * 300, "\u00e9t\u00e9"]


def test_model_names_are_labels_and_their_files_stay_inside(tmp_path):
    from urllib.parse import unquote

    from sklearn_fair.experiment._reading._text import file_name

    models = tmp_path / "out" / "models"
    names = [file_name(name) for name in NAMES]
    assert len(set(names)) == len(NAMES)  # one file per name
    for name, encoded in zip(NAMES, names):
        assert (models / f"{encoded}.json").resolve().parent == models.resolve()
        assert len(encoded) <= 96 and not encoded.startswith(".")
        if "~" not in encoded:
            assert unquote(encoded) == name  # reversible
    text = GOOD.replace("[models.logreg]", '[models."../x"]').replace(
        "[experiment]", '[experiment]\noutput_dir = "out"'
    )
    text += text[text.index('[models."../x"]') :].replace('"../x"', '"a/b"')
    run_experiment(write(tmp_path, text))
    assert sorted(p.name for p in models.iterdir()) == ["%2E%2E%2Fx.json", "a%2Fb.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["EXPERIMENT.toml", "out"]


@pytest.mark.parametrize(
    "tables, message",
    [
        ('[models.""]', "a name must not be empty"),
        ("[models.A]", "[models.a] and [models.A] would be written to one file"),
    ],
)
def test_an_empty_name_or_names_differing_in_case_are_refused(tmp_path, tables, message):
    text = GOOD.replace("[models.logreg]", "[models.a]")
    text += text[text.index("[models.a]") :].replace("[models.a]", tables)
    with pytest.raises(ExperimentConfigError) as info:
        load_config(write(tmp_path, text))
    assert message in str(info.value)


@pytest.mark.parametrize(
    "old, new, key",
    [
        (
            'dataset = "sklearn:iris"',
            'dataset = "csv"\npath = "../data.csv"\ntarget = "y"',
            "data.path",
        ),
        (
            'dataset = "sklearn:iris"',
            'dataset = "tu:MUTAG"\nroot = "/"',
            "data.root",
        ),
        ("outer_cv = 3", 'splits_file = "../splits.json"', "protocol.splits_file"),
        ("progress = false", 'output_dir = "../results"', "experiment.output_dir"),
        ("progress = false", 'cache_dir = "/tmp"', "experiment.cache_dir"),
    ],
)
def test_paths_outside_the_experiment_folder_need_the_users_permission(tmp_path, old, new, key):
    folder = tmp_path / "experiment"
    folder.mkdir()
    (tmp_path / "data.csv").write_text("a,y\n1,0\n2,1\n")
    (tmp_path / "splits.json").write_text("[]")
    path = write(folder, GOOD.replace(old, new))
    refused(path, key, "is outside the experiment file's folder", data_dir=folder)
    if key != "protocol.splits_file":  # (that file is not a valid splits file)
        load_config(path, data_dir=folder, allow_outside_paths=True)


def test_a_symbolic_link_out_of_the_folder_is_outside(tmp_path):
    folder = tmp_path / "experiment"
    folder.mkdir()
    (tmp_path / "secret.csv").write_text("a,y\n1,0\n2,1\n")
    (folder / "data.csv").symlink_to(tmp_path / "secret.csv")
    text = GOOD.replace(
        'dataset = "sklearn:iris"', 'dataset = "csv"\npath = "data.csv"\ntarget = "y"'
    )
    refused(write(folder, text), "data.path", "is outside", data_dir=folder)


def test_only_the_data_variable_is_expanded(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (data / "d.csv").write_text("a,y\n1,0\n2,1\n")
    folder = tmp_path / "experiment"
    folder.mkdir()
    text = GOOD.replace(
        'dataset = "sklearn:iris"',
        'dataset = "csv"\npath = "${SKLEARN_FAIR_DATA}/d.csv"\ntarget = "y"',
    )
    path = write(folder, text)
    # inputs may lie in the data folder, named by the variable or by data_dir
    monkeypatch.setenv("SKLEARN_FAIR_DATA", str(data))
    assert load_config(path).data["path"] == (data / "d.csv").resolve()
    monkeypatch.delenv("SKLEARN_FAIR_DATA")
    assert load_config(path, data_dir=data).data["path"] == (data / "d.csv").resolve()
    refused(path, "data.path", "which is not set: set the environment variable")
    for variable in ("${HOME}/d.csv", "$HOME/d.csv", "~/d.csv"):
        text = GOOD.replace(
            'dataset = "sklearn:iris"', f'dataset = "csv"\npath = "{variable}"\ntarget = "y"'
        )
        refused(write(folder, text), "data.path", "", data_dir=data)
    # outputs may not go to the data folder
    text = GOOD.replace("progress = false", 'cache_dir = "${SKLEARN_FAIR_DATA}/cache"')
    refused(write(folder, text), "experiment.cache_dir", "is outside", data_dir=data)


SKORCH_NET = """\
[experiment]
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 2
inner_cv = 2
n_refits = 1

[models.net]
estimator = "skorch.NeuralNetClassifier"
params = { module = { class = "torch.nn.Linear" }, max_epochs = 1 }
grid = { lr = [0.1] }
"""


class _Planted:
    """A pickle that leaves a file behind when it is loaded."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


@pytest.mark.parametrize(
    "params, key, message",
    [
        # skorch builds module(root=..., name=...): PyG's TUDataset then unpickles
        # root/name/processed/pre_transform.pt
        (
            'module = { class = "torch_geometric.datasets.TUDataset" }, '
            'module__root = "evil", module__name = "X"',
            "models.net.params.module.class",
            "it must be a torch.nn.Module",
        ),
        (
            'module = { class = "torch.nn.Linear" }, '
            'dataset = { class = "torch_geometric.datasets.TUDataset" }',
            "models.net.params.dataset.class",
            "its 'root' names a place in the file system",
        ),
        (
            'module = { class = "torch.nn.Linear" }, '
            'iterator_train = { class = "torch_geometric.loader.GraphSAINTNodeSampler" }',
            "models.net.params.iterator_train.class",
            "its 'save_dir' names a place in the file system",
        ),
    ],
)
def test_a_class_value_that_reads_files_is_refused_before_the_dry_run_calls_it(
    tmp_path, monkeypatch, params, key, message
):
    pytest.importorskip("skorch")
    pytest.importorskip("torch_geometric")
    processed = tmp_path / "evil" / "X" / "processed"
    processed.mkdir(parents=True)
    (tmp_path / "evil" / "X" / "raw").mkdir()
    for part in ("A", "graph_indicator", "graph_labels"):
        (tmp_path / "evil" / "X" / "raw" / f"X_{part}.txt").write_text("1\n")
    planted = tmp_path / "PLANTED"
    (processed / "pre_transform.pt").write_bytes(pickle.dumps(_Planted(planted)))
    text = SKORCH_NET.replace('module = { class = "torch.nn.Linear" }', params)
    monkeypatch.chdir(tmp_path)  # where module__root = "evil" is
    refused(write(tmp_path, text), key, message)
    with pytest.raises(ExperimentConfigError):
        dry_run(write(tmp_path, text))
    assert not planted.exists()
