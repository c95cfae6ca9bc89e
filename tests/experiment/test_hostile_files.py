"""The hostile-file matrix (issue 28, items 4, 5 and 7): every file that asks for unbounded
work is refused at once, by ``sklearn-fair run`` and by ``--dry-run`` alike, with exit status
2 and a message naming the file, the key, the value, the limit and the flag that lifts it;
no traceback. Each case also bounds the work done before the refusal, by counting: the TOML
parser is not called at all for what the pre-scan refuses, no fit starts, no grid is
expanded, and tracemalloc's peak stays far below the file's claims. No time is measured.

The output matrix (issue 36, at the end of this file): names that are paths, formulas or
control characters, links and FIFOs where outputs go, hostile CSV files and a failing model,
each through one data set and several, run and dry run: refused (or kept inside the results
folder, neutral), with nothing outside the results folder created or changed.

``python -m pytest tests/experiment/test_hostile_files.py -s`` prints the matrix with the
work each case did.
"""

import csv
import importlib.util
import json
import os
import stat
import sys
import tracemalloc

import pytest

from sklearn_fair import NestedCV
from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import Limits, load_config, run_experiment
from sklearn_fair.experiment._reading import _config as config_module

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HEAD = """\
[experiment]
progress = false
{experiment}
[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 1
{protocol}
"""
MODEL = """
[models.m]
estimator = "sklearn.tree.DecisionTreeClassifier"
{model}
"""
PEAK_BYTES = 60 * 2**20  # the largest claims below are 200 MB of text and 10^9 candidates


def toml(experiment="", protocol="", model="grid = { max_depth = [1, 2] }", tail=""):
    return HEAD.format(experiment=experiment, protocol=protocol) + MODEL.format(model=model) + tail


def nine_lists_of_ten():
    params = [
        "max_depth",
        "min_samples_split",
        "min_samples_leaf",
        "max_features",
        "max_leaf_nodes",
        "min_impurity_decrease",
        "ccp_alpha",
        "min_weight_fraction_leaf",
        "random_state",
    ]
    return ", ".join(f"{name} = [{', '.join(str(i + 2) for i in range(10))}]" for name in params)


def nested_arrays(depth):
    return "x = " + "[" * depth + "]" * depth


def nested_tables(depth):
    return "x = " + "{ a = " * depth + "1" + " }" * depth


def write_200_mb(path):
    # one array of 10^8 items: written in blocks, never held whole in memory
    with open(path, "w") as file:
        file.write(toml() + "\n[other]\nitems = [")
        block = "0," * 10**6
        for _ in range(100):
            file.write(block)
        file.write("0]\n")


# name -> (text or writer, expected words in the message: key, value, limit, flag)
CASES = {
    "n_jobs = 100000": (
        toml(experiment="n_jobs = 100000"),
        ["experiment.n_jobs", "100000", f"limit of {Limits().jobs}", "--limit jobs=100000"],
    ),
    "n_jobs = -100000": (
        toml(experiment="n_jobs = -100000"),
        ["experiment.n_jobs", "-100000", "limit 'jobs'", "--limit jobs=N"],
    ),
    "n_jobs = 0": (toml(experiment="n_jobs = 0"), ["experiment.n_jobs", "got 0"]),
    "n_jobs = true": (toml(experiment="n_jobs = true"), ["experiment.n_jobs", "got True"]),
    "estimator n_jobs = 100000": (
        toml(
            model='estimator = "sklearn.ensemble.RandomForestClassifier"\n'
            "params = { n_jobs = 100000 }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.params.n_jobs", "100000", "--limit jobs=100000"],
    ),
    "n_refits = 10^9": (
        toml(protocol="n_refits = 1000000000").replace("n_refits = 1\n", "", 1),
        ["protocol.n_refits", "1000000000", "limit of 100", "--limit refits=1000000000"],
    ),
    "n_refits = -1": (
        toml(protocol="n_refits = -1").replace("n_refits = 1\n", "", 1),
        ["protocol.n_refits", "at least 1; got -1"],
    ),
    "n_refits = true": (
        toml(protocol="n_refits = true").replace("n_refits = 1\n", "", 1),
        ["protocol.n_refits", "must be an integer; got True"],
    ),
    "outer_cv = 10^9": (
        toml().replace("outer_cv = 3", "outer_cv = 1000000000"),
        ["protocol.outer_cv", "1000000000", "limit of 1000", "--limit folds=1000000000"],
    ),
    "outer_cv = -3": (toml().replace("outer_cv = 3", "outer_cv = -3"), ["at least 2; got -3"]),
    "outer_cv = true": (toml().replace("outer_cv = 3", "outer_cv = true"), ["got True"]),
    "KFold(n_splits=10^9) table": (
        toml(
            protocol='inner_cv = { splitter = "sklearn.model_selection.KFold", '
            "params = { n_splits = 1000000000 } }"
        ),
        ["protocol.inner_cv", "1000000000", "--limit folds=1000000000"],
    ),
    "RepeatedKFold(n_repeats=10^6)": (
        toml(
            protocol='inner_cv = { splitter = "sklearn.model_selection.RepeatedKFold", '
            "params = { n_repeats = 1000000 } }"
        ),
        ["protocol.inner_cv", "5000000", "--limit folds=5000000"],
    ),
    # an estimator's own cross-validation (a search given as the estimator, RFECV,
    # CalibratedClassifierCV): its folds were not counted, so each fit ran 5 * 10^8 fits
    "a search's cv = RepeatedKFold(n_repeats=10^8)": (
        toml(
            model='estimator = "sklearn.model_selection.GridSearchCV"\n'
            'params = { estimator = { estimator = "sklearn.tree.DecisionTreeClassifier" }, '
            "param_grid = { max_depth = [1, 2] }, cv = { splitter = "
            '"sklearn.model_selection.RepeatedKFold", params = { n_repeats = 100000000 } } }'
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.params.cv", "500000000", "limit of 1000", "--limit folds=500000000"],
    ),
    "an estimator's cv = 10^9": (
        toml(
            model='estimator = "sklearn.calibration.CalibratedClassifierCV"\n'
            "params = { cv = 1000000000 }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.params.cv", "1000000000", "--limit folds=1000000000"],
    ),
    "an estimator's cv = 10^9 in the grid": (
        toml(
            model='estimator = "sklearn.calibration.CalibratedClassifierCV"\n'
            "grid = { cv = [3, 1000000000] }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.grid.cv", "1000000000", "--limit folds=1000000000"],
    ),
    "10^9 candidates, one table": (
        toml(model=f"grid = {{ {nine_lists_of_ten()} }}"),
        ["models.m.grid", "1000000000", "limit of 10000", "--limit candidates=1000000000"],
    ),
    "10^9 candidates, list of tables": (
        toml(model=f"grid = [{{ {nine_lists_of_ten()} }}, {{ max_depth = [1] }}]"),
        ["models.m.grid", "1000000001", "--limit candidates=1000000001"],
    ),
    # a search inside a parameter tries its space for each of the model's candidates: it was
    # not counted, so 10^9 inner candidates were accepted (the same search as the estimator
    # was refused)
    "a bagged search of 10^6 candidates": (
        toml(
            model='estimator = "sklearn.ensemble.BaggingClassifier"\n'
            'params = { estimator = { estimator = "sklearn.model_selection.GridSearchCV", '
            'params = { estimator = { estimator = "sklearn.tree.DecisionTreeClassifier" }, '
            f"param_grid = {{ {nine_lists_of_ten()} }} }} }} }}\n"
            "grid = { max_samples = [0.5, 1.0] }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.params.estimator", "2000000000", "limit of 10000", "candidates=2000000000"],
    ),
    # an estimator among a grid's values (a grid of one key "estimator" reads as an estimator
    # table, hence max_samples): its workers, folds and search were not counted (the
    # same under params were refused), so a run started 100000 workers in each fit
    "a grid value's n_jobs = 100000": (
        toml(
            model='estimator = "sklearn.ensemble.BaggingClassifier"\n'
            'grid = { estimator = [{ estimator = "sklearn.ensemble.RandomForestClassifier", '
            "params = { n_jobs = 100000 } }], max_samples = [1.0] }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.grid.estimator__n_jobs", "100000", "--limit jobs=100000"],
    ),
    "a grid value's cv = 10^9": (
        toml(
            model='estimator = "sklearn.ensemble.BaggingClassifier"\n'
            'grid = { estimator = [{ estimator = "sklearn.linear_model.LogisticRegressionCV", '
            "params = { cv = 1000000000 } }], max_samples = [1.0] }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.grid.estimator__cv", "1000000000", "--limit folds=1000000000"],
    ),
    # one candidate without the search and 10^9 with it
    "a search of 10^9 candidates among a grid's values": (
        toml(
            model='estimator = "sklearn.ensemble.BaggingClassifier"\n'
            'grid = { estimator = [{ estimator = "sklearn.tree.DecisionTreeClassifier" }, '
            '{ estimator = "sklearn.model_selection.GridSearchCV", '
            'params = { estimator = { estimator = "sklearn.tree.DecisionTreeClassifier" }, '
            f"param_grid = {{ {nine_lists_of_ten()} }} }} }}], max_samples = [1.0] }}"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.grid.estimator", "1000000001", "limit of 10000", "candidates=1000000001"],
    ),
    "a search of 10^6 draws in a grid value's list": (
        toml(
            model='estimator = "sklearn.ensemble.StackingClassifier"\n'
            'params = { estimators = [["t", { estimator = "sklearn.naive_bayes.GaussianNB" }]] }\n'
            "grid = { estimators = [[["
            '"s", { estimator = "sklearn.model_selection.RandomizedSearchCV", '
            'params = { estimator = { estimator = "sklearn.tree.DecisionTreeClassifier" }, '
            f"param_distributions = {{ {nine_lists_of_ten()} }}, n_iter = 1000000 }} }}"
            "]]] }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.grid.estimators", "1000000", "a search draws", "candidates=1000000"],
    ),
    # refused before parsing: deeper than the parser can go, the brackets' nesting is only a
    # lower bound of the parsed document's (the table [other] is a level too)
    "arrays nested 50,000 deep": (
        toml(tail="\n[other]\n" + nested_arrays(50_000)),
        [
            "nesting",
            "at least 50000",
            "limit of 32",
            "200 levels that --limit depth can allow: this file cannot be read",
        ],
    ),
    "inline tables nested 50,000 deep": (
        toml(tail="\n[other]\n" + nested_tables(50_000)),
        ["nesting", "at least 50000", "this file cannot be read"],
    ),
    # models, m, params, then the 40 tables
    "parameter tables nested 40 deep": (
        toml(model="params = { class_weight = " + "{ a = " * 40 + "1" + " }" * 40 + " }"),
        ["models.m.params.class_weight.a.a", "nesting is 43", "--limit depth=43"],
    ),
    # dotted keys nest without brackets: the pre-scan saw 1 (a header), the Builder recursed
    # 5000 deep (RecursionError, exit 1), and 40 were accepted
    "dotted keys nested 40 deep": (
        toml(model="params.class_weight" + ".a" * 40 + " = 1"),
        ["models.m.params.class_weight.a.a", "nesting is 43", "--limit depth=43"],
    ),
    # and, deeper than the parser takes at no cost (its memory is quadratic in a dotted
    # key's levels: 100 MB for these 10 KB), refused before parsing
    "dotted keys nested 5000 deep": (
        toml(model="params.class_weight" + ".a" * 5000 + " = 1"),
        ["nesting", "at least 5000", "this file cannot be read"],
    ),
    "a table header nested 5000 deep": (
        toml(model="[models.m.grid" + ".a" * 5000 + "]\nx = [1]"),
        ["nesting", "at least 5001", "this file cannot be read"],
    ),
    "200 MB file of 10^8 items": (
        write_200_mb,
        ["size in bytes", f"limit of {2**20}", "--limit file_size="],
    ),
    "500,000 items just under the size cap": (
        toml(tail="\n[other]\nitems = [" + "0," * 500_000 + "0]\n"),
        ["number of items", "500001", "limit of 100000", "--limit items=500001"],
    ),
    "a list of 20,000 values": (
        toml(model="grid = { max_depth = [" + ", ".join(["1"] * 20_000) + "] }"),
        ["models.m.grid.max_depth", "20000", "limit of 10000", "--limit list_length=20000"],
    ),
    "a model name of 500,000 characters": (
        toml().replace("[models.m]", '[models."' + "m" * 500_000 + '"]'),
        ["500000", "limit of 10000", "--limit string_length=500000"],
    ),
    "an estimator name of 500,000 characters": (
        toml().replace("sklearn.tree.DecisionTreeClassifier", "sklearn." + "x" * 500_000),
        ["models.m.estimator", "500008", "--limit string_length=500008"],
    ),
    "a grid naming a parameter twice (TOML)": (
        toml(model="grid = { max_depth = [1], max_depth = [2] }"),
        ["is not valid TOML", "max_depth"],
    ),
    "a grid naming a parameter twice (step prefix)": (
        toml(
            model='preprocessing = ["sklearn.preprocessing.StandardScaler"]\n'
            "grid = { max_depth = [1], decisiontreeclassifier__max_depth = [2] }"
        ),
        ["models.m.grid", "a second time: as 'max_depth' and as 'decisiontreeclassifier__max"],
    ),
    "control characters in a grid key": (
        toml(model='grid = { "\\u001b[2J\\u0007evil\\r" = [1] }'),
        ["models.m.grid", "\\x1b[2J\\x07evil\\r"],
    ),
}

# a skorch net's data loader starts num_workers processes in each fit: bounded as n_jobs is
SKORCH_CASES = {
    "skorch num_workers = 100000": (
        toml(
            model='estimator = "skorch.NeuralNetClassifier"\n'
            'params = { module = { class = "torch.nn.Linear" }, '
            "iterator_train__num_workers = 100000 }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.params.iterator_train__num_workers", "100000", "--limit jobs=100000"],
    ),
    "skorch num_workers = 100000 in the grid": (
        toml(
            model='estimator = "skorch.NeuralNetClassifier"\n'
            'params = { module = { class = "torch.nn.Linear" } }\n'
            "grid = { iterator_valid__num_workers = [0, 100000] }"
        ).replace('estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1),
        ["models.m.grid.iterator_valid__num_workers", "100000", "--limit jobs=100000"],
    ),
}
if importlib.util.find_spec("skorch") and importlib.util.find_spec("torch"):
    CASES.update(SKORCH_CASES)


class Work:
    """What a refusal cost: parser calls, fits started, grids expanded, traced memory peak."""

    def __init__(self, monkeypatch):
        self.parsed = self.fits = self.expanded = 0
        loads = tomllib.loads

        def counting_loads(text, **kwargs):
            self.parsed += 1
            return loads(text, **kwargs)

        monkeypatch.setattr(config_module.tomllib, "loads", counting_loads)
        fit = NestedCV.fit

        def counting_fit(nested, *args, **kwargs):
            self.fits += 1
            return fit(nested, *args, **kwargs)

        monkeypatch.setattr(NestedCV, "fit", counting_fit)
        from sklearn.model_selection import ParameterGrid

        iterate = ParameterGrid.__iter__

        def counting_iter(grid):
            self.expanded += 1
            return iterate(grid)

        monkeypatch.setattr(ParameterGrid, "__iter__", counting_iter)


def write_case(tmp_path, case):
    path = tmp_path / "hostile.toml"
    text = CASES[case][0]
    if callable(text):
        text(path)
    else:
        path.write_text(text)
    return path


MEASURED = {}


@pytest.fixture(scope="module", autouse=True)
def print_the_matrix():
    """With -s, prints what each case cost once the module has run."""
    yield
    print("\ncase | mode | file bytes | parser calls | tracemalloc peak (MiB) | message")
    for (case, dry), (size, parsed, peak, message) in MEASURED.items():
        mode = "dry-run" if dry else "run"
        print(f"{case} | {mode} | {size} | {parsed} | {peak / 2**20:.1f} | {message}")


@pytest.mark.parametrize("dry", [False, True], ids=["run", "dry-run"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_file_is_refused_at_once(tmp_path, monkeypatch, capsys, case, dry):
    path = write_case(tmp_path, case)
    words = CASES[case][1]
    work = Work(monkeypatch)
    argv = ["run", str(path)] + (["--dry-run", "--no-timing"] if dry else [])
    if case in SKORCH_CASES:
        import skorch  # noqa: F401 - imported before, not counted in the case's peak
    tracemalloc.start()
    try:
        status = main(argv)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err
    assert str(path) in err, err[:500]
    for word in words:
        assert word in err, (word, err[:500])
    assert not any(c in err for c in "\x1b\x07\r"), "control characters reached the terminal"
    # bounded work: no fit, no grid expanded, the parser not called for what the pre-scan sees
    assert work.fits == 0 and work.expanded == 0
    prescan = any(w in err for w in ("nesting of its", "size in bytes", "number of items"))
    assert work.parsed == (0 if prescan else 1)
    assert peak < PEAK_BYTES, peak
    assert len(err) < 2000  # a huge string is not echoed back
    MEASURED[case, dry] = (os.path.getsize(path), work.parsed, peak, err.strip()[:90])


def test_the_file_cannot_raise_a_limit_but_the_caller_can(tmp_path):
    path = tmp_path / "hostile.toml"
    path.write_text(toml(protocol="n_refits = 150").replace("n_refits = 1\n", "", 1))
    with pytest.raises(ValueError, match="--limit refits=150"):
        load_config(path)
    # a table of the file named like a limit grants nothing
    path.write_text(
        toml(protocol="n_refits = 150").replace("n_refits = 1\n", "", 1) + "\n[limits]\nrefits=200"
    )
    with pytest.raises(ValueError, match="unknown table"):
        load_config(path, limits={"refits": 200})
    path.write_text(toml(protocol="n_refits = 150").replace("n_refits = 1\n", "", 1))
    assert load_config(path, limits={"refits": 200}).protocol["n_refits"] == 150
    assert load_config(path, limits=["refits=150"]).protocol["n_refits"] == 150


def test_the_cli_flag_lifts_a_limit_for_one_run(tmp_path, capsys):
    path = tmp_path / "grid.toml"
    path.write_text(toml(model="grid = { max_depth = [" + ", ".join(["1"] * 12_000) + "] }"))
    assert main(["run", str(path), "--dry-run", "--no-timing"]) == 2
    assert "--limit list_length=12000" in capsys.readouterr().err
    status = main(
        [
            "run",
            str(path),
            "--dry-run",
            "--no-timing",
            "--limit",
            "list_length=12000",
            "--limit",
            "candidates=12000",
        ]
    )
    assert status == 0, capsys.readouterr().err
    assert main(["run", str(path), "--limit", "nonsense=3"]) == 2
    assert "There is no limit 'nonsense'" in capsys.readouterr().err


def test_a_grid_counts_each_value_with_the_candidates_of_its_search(tmp_path):
    # 3 values: a DecisionTreeClassifier (1 candidate), searches of 2 * 3 and 4 candidates;
    # times 2 max_samples: (1 + 6 + 4) * 2 = 22 candidates, each value's fits counted once
    search = (
        '{{ estimator = "sklearn.model_selection.GridSearchCV", params = {{ estimator = '
        '{{ estimator = "sklearn.tree.DecisionTreeClassifier" }}, param_grid = {{ {} }} }} }}'
    )
    grid = (
        'grid = { estimator = [{ estimator = "sklearn.tree.DecisionTreeClassifier" }, '
        + search.format("max_depth = [1, 2], min_samples_leaf = [1, 2, 3]")
        + ", "
        + search.format("max_depth = [1, 2, 3, 4]")
        + "], max_samples = [0.5, 1.0] }"
    )
    path = tmp_path / "grid.toml"
    path.write_text(
        toml(model='estimator = "sklearn.ensemble.BaggingClassifier"\n' + grid).replace(
            'estimator = "sklearn.tree.DecisionTreeClassifier"\n', "", 1
        )
    )
    with pytest.raises(ExperimentConfigError, match="is 22, more than the limit of 21"):
        load_config(path, limits={"candidates": 21})
    spec = load_config(path, limits={"candidates": 22}).models["m"]
    assert spec.grid["max_samples"] == [0.5, 1.0]


def test_a_file_may_ask_for_fewer_workers(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(toml(experiment="n_jobs = 1"))
    assert load_config(path).n_jobs == 1
    path.write_text(toml(experiment="n_jobs = -1"))
    assert load_config(path).n_jobs == -1
    # all cores but one, as joblib counts them (hunt DOC19B, DOC19B-1: taken, while the
    # refusal of 0 said only "a positive integer or -1" was)
    path.write_text(toml(experiment="n_jobs = -2"))
    assert load_config(path).n_jobs == -2
    path.write_text(toml(experiment="n_jobs = 0"))
    with pytest.raises(ExperimentConfigError, match="non-zero integer.*-2 all but one"):
        load_config(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_as_experiment_file_is_refused_without_opening_it(tmp_path, capsys):
    path = tmp_path / "fifo.toml"
    os.mkfifo(path)
    # opened for reading, a FIFO without a writer blocks for ever: it must not be opened
    assert main(["run", str(path)]) == 2
    assert "is not a regular file" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(path).st_mode)


def test_a_split_file_of_millions_of_folds_is_refused_before_parsing(tmp_path, monkeypatch, capsys):
    from sklearn_fair.model_selection import _saved_splits

    fold = '{"train":[0],"test":[1]}'
    n_folds = 2_200_000
    splits = tmp_path / "splits.json"
    with open(splits, "w") as file:
        file.write('{"format":"sklearn-fair-splits","version":1,"n_samples":2,"kfold":false,')
        file.write('"labels_fingerprint":null,"folds":[')
        file.write(",".join([fold] * n_folds))
        file.write("]}")
    assert 50 * 2**20 < splits.stat().st_size < _saved_splits.MAX_BYTES
    path = tmp_path / "hostile.toml"
    path.write_text(toml().replace("outer_cv = 3", 'splits_file = "splits.json"'))
    parsed = []
    monkeypatch.setattr(
        "sklearn_fair.model_selection._bounded_json.json.loads",
        lambda *a, **k: parsed.append(1),
    )
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as info:
            run_experiment(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert "protocol.splits_file" in message and "more than 1001 JSON objects" in message
    assert "--limit folds=N" in message
    assert parsed == []  # refused on the raw text: no JSON object was built
    # the file is read once (its 55 MB) and scanned in fixed-size chunks
    assert peak < splits.stat().st_size + 20 * 2**20, peak
    MEASURED["split file of 2.2 million folds", False] = (
        splits.stat().st_size,
        0,
        peak,
        message[-90:],
    )
    # the command line, run and dry run alike: exit status 2, the message, no traceback
    for dry in ([], ["--dry-run", "--no-timing"]):
        assert main(["run", str(path), *dry]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and str(path) in err and str(splits) in err
        assert "protocol.splits_file" in err and "--limit folds=N" in err
    assert parsed == []


def test_the_experiment_guide_lists_every_limit_with_its_default_and_the_flags():
    import dataclasses
    from pathlib import Path

    guide = (Path(__file__).parents[2] / "docs" / "guide" / "experiments.rst").read_text()
    section = guide.split("Limits a file cannot raise")[1].split("\nPaths\n")[0]
    shown = {
        "jobs": "machine's cores",
        "file_size": "1 MiB",
        "csv_size": "1 GiB",
        "tu_size": "4 GiB",
    }
    for field in dataclasses.fields(Limits):
        rows = [line for line in section.splitlines() if line.startswith(f"``{field.name}``")]
        assert len(rows) == 1, field.name
        default = shown.get(field.name, str(getattr(Limits(), field.name)))
        assert rows[0].split("``")[2].split()[: len(default.split())] == default.split()
    assert Limits().file_size == 2**20 and Limits().tu_size == 2**32
    assert Limits().csv_size == 2**30
    # what the limits also count: data-loading processes, an estimator's own folds
    for bounded in ("iterator_train__num_workers", "iterator_valid__num_workers", "own ``cv``"):
        assert bounded in section, bounded
    for flag in ("--limit NAME=VALUE", 'limits={"NAME": VALUE}'):
        assert flag in section
    for flag in ("--allow-package", "--allow-outside-paths", "--dry-run"):
        assert flag in guide


CSV_TOML = toml().replace(
    'dataset = "sklearn:iris"', 'dataset = "csv"\npath = "data.csv"\ntarget = "y"'
)


def _iris_csv(path):
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    with open(path, "w", newline="") as file:
        csv.writer(file).writerows(
            [["a", "b", "c", "d", "y"], *(list(x) + [t] for x, t in zip(X, y))]
        )
    return path.stat().st_size


def test_a_csv_file_over_the_csv_size_limit_is_refused_and_the_caller_can_raise_it(
    tmp_path, capsys
):
    """A CSV file was read whole into memory, whatever its size; its size is checked before
    it is read, against the csv_size limit, which the caller can raise."""
    from sklearn_fair.experiment import dry_run

    size = _iris_csv(tmp_path / "data.csv")
    path = tmp_path / "e.toml"
    path.write_text(CSV_TOML)
    message = (
        f"{path}, line 6, key 'data.path': the CSV file {str(tmp_path / 'data.csv')!r}: its size "
        f"in bytes is {size}, more than the limit of {size - 1} (limit 'csv_size'); a file "
        f"cannot raise it, the caller can, for one run: --limit csv_size={size}."
    )
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(path, limits={"csv_size": size - 1})
    assert str(info.value) == message
    assert dry_run(path, timing=False, limits={"csv_size": size - 1}).data_problem == (
        f"data: {message}"
    )
    assert main(["run", str(path), "--limit", f"csv_size={size - 1}"]) == 2
    assert message in capsys.readouterr().err
    report = dry_run(path, timing=False, limits={"csv_size": size})
    assert report.data_problem is None and report.total_fits > 0


@pytest.mark.skipif(not os.path.isfile("/proc/self/maps"), reason="no /proc")
def test_a_csv_file_larger_than_its_size_says_is_stopped_at_the_limit_while_read(tmp_path):
    """A file whose size, read before it is, is not what it holds (a file that grows; in
    /proc, 0 bytes said for kilobytes held) is counted while read and stopped one byte past
    the limit."""
    assert os.stat("/proc/self/maps").st_size == 0
    path = tmp_path / "e.toml"
    path.write_text(CSV_TOML.replace('"data.csv"', '"/proc/self/maps"'))
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(path, allow_outside_paths=True, limits={"csv_size": 100})
    maps = os.path.realpath("/proc/self/maps")  # the path resolved: /proc/<pid>/maps
    assert str(info.value).endswith(
        f"key 'data.path': the CSV file {maps!r}: its size in bytes is at least 101, more "
        "than the limit of 100 (limit 'csv_size'); a file cannot raise it, the caller can, "
        "for one run: --limit csv_size=N."
    )


def test_a_huge_line_of_a_csv_file_is_refused_at_the_csv_row_limit(tmp_path):
    """A line of 24 million characters, 12 million cells, was read whole (and split into its
    cells: 126 MB) before its cells were counted; it is read no further than the csv_row
    limit (10 million characters), naming its line."""
    (tmp_path / "data.csv").write_text("a,y\n1,0\n2,1\n" + "0," * 12_000_000 + "1\n3,0\n")
    path = tmp_path / "e.toml"
    path.write_text(CSV_TOML)
    tracemalloc.start()
    try:
        with pytest.raises(ExperimentConfigError) as info:
            run_experiment(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(info.value).endswith(
        f"key 'data.path': line 4 of the CSV file {str(tmp_path / 'data.csv')!r}: its row's "
        "length in characters is at least 10000001, more than the limit of 10000000 (limit "
        "'csv_row'); a file cannot raise it, the caller can, for one run: --limit csv_row=N."
    )
    assert peak < 40 * 2**20, peak  # the 10 MB read of the line (twice), not its cells


def test_a_long_csv_field_is_bounded_whatever_the_processs_field_size_limit(tmp_path):
    """csv.field_size_limit is the process's, which any library may raise; a field, and a
    row of quoted line breaks, are bounded by csv_row all the same."""
    data, path = tmp_path / "data.csv", tmp_path / "e.toml"
    path.write_text(CSV_TOML)
    data.write_text(
        "a,y\n" + "".join(f"{i},{i % 2}\n" for i in range(20)) + "x" * 10_000_001 + ",1\n"
    )
    old = csv.field_size_limit(sys.maxsize)
    try:
        with pytest.raises(ExperimentConfigError, match="line 22 of .*limit 'csv_row'"):
            run_experiment(path)
        # a row of quoted line breaks, each line short, is counted from the line it starts on
        rows = "".join(f"{i},{i % 2}\n" for i in range(20))
        data.write_text('a,y\n1,0\n2,1\n"' + "xxxxxxxxx\n" * 10 + '",1\n' + rows)
        with pytest.raises(
            ExperimentConfigError, match="line 4 of .*at least 51, more than the limit of 50 "
        ):
            run_experiment(path, limits={"csv_row": 50})
        # under a higher limit, the file is read: its text column is what is refused
        with pytest.raises(ExperimentConfigError, match=r"columns \['a'\] hold text"):
            run_experiment(path, limits={"csv_row": 200})
    finally:
        csv.field_size_limit(old)


def test_a_csv_file_over_the_csv_cells_limit_is_refused_at_the_row_that_passes_it(tmp_path, capsys):
    """A CSV file's cells were not bounded but by its bytes: each cell is held (some 100 B
    for a cell of 2 B, one character and its line break), so a file under csv_size could
    take 50 times its size. Its cells, the header's included, are counted while it is read;
    the row that passes csv_cells is refused, naming its line, before the next is read."""
    from sklearn_fair.experiment import dry_run

    _iris_csv(tmp_path / "data.csv")  # a header and 150 rows of 5 cells: 755 cells
    path = tmp_path / "e.toml"
    path.write_text(CSV_TOML)
    where = f"{path}, line 6, key 'data.path': the CSV file {str(tmp_path / 'data.csv')!r}"
    message = (
        f"{where}: its number of cells (rows times columns), counted up to its line 151, is "
        "at least 755, more than the limit of 754 (limit 'csv_cells'); a file cannot raise "
        "it, the caller can, for one run: --limit csv_cells=N."
    )
    with pytest.raises(ExperimentConfigError) as info:
        run_experiment(path, limits={"csv_cells": 754})
    assert str(info.value) == message
    assert dry_run(path, timing=False, limits={"csv_cells": 754}).data_problem == (
        f"data: {message}"
    )
    assert main(["run", str(path), "--limit", "csv_cells=754"]) == 2
    assert message in capsys.readouterr().err
    # stopped at the row that passes the limit: a limit of 11 is passed on line 3 (15 cells)
    with pytest.raises(ExperimentConfigError, match="counted up to its line 3, is at least 15,"):
        run_experiment(path, limits={"csv_cells": 11})
    # the exact boundary: 755 cells are read
    report = dry_run(path, timing=False, limits={"csv_cells": 755})
    assert report.data_problem is None and report.total_fits > 0


def test_a_csv_file_of_many_tiny_rows_is_stopped_with_memory_bounded_by_csv_cells(tmp_path):
    """A file of 400000 rows of one character (800 kB, far under csv_size) was read whole,
    about 100 B a cell (5 million such rows, 10 MB, peaked at 461 MB): its reading stops
    at csv_cells, its memory bounded by the limit, not by the file; an empty line counts
    as a cell, being held as a row."""
    path = tmp_path / "e.toml"
    path.write_text(CSV_TOML.replace('target = "y"', 'target = "a"'))
    peaks = {}
    (tmp_path / "data.csv").write_text("a\n" * 100)
    with pytest.raises(ExperimentConfigError):  # what a first run imports, not measured
        run_experiment(path, limits={"csv_cells": 10})
    for line, content in (("a\n", "one character"), ("\n", "empty")):
        (tmp_path / "data.csv").write_text("a\n" + line * 400_000)
        for limit in (5_000, 50_000):
            tracemalloc.start()
            try:
                with pytest.raises(ExperimentConfigError) as info:
                    run_experiment(path, limits={"csv_cells": limit})
                peaks[content, limit] = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            assert str(info.value).endswith(
                f"counted up to its line {limit + 1}, is at least {limit + 1}, more than the "
                f"limit of {limit} (limit 'csv_cells'); a file cannot raise it, the caller "
                "can, for one run: --limit csv_cells=N."
            )
    for content in ("one character", "empty"):
        # 45000 more rows read: some 40 to 70 B each for a cell (its number, the row's
        # text), far below the 40 MB the file's 400000 rows would take; nothing for an empty
        # line (a row of the wrong length, refused: nothing more is kept)
        grown = peaks[content, 50_000] - peaks[content, 5_000]
        assert grown < 45_000 * 200, (content, peaks)
        assert content == "empty" or 45_000 * 20 < grown, (content, peaks)
        assert peaks[content, 50_000] < 16 * 2**20, (content, peaks)
    MEASURED["CSV file of 400000 tiny rows, csv_cells=50000", False] = (
        (tmp_path / "data.csv").stat().st_size,
        0,
        peaks["empty", 50_000],
        str(info.value)[-90:],
    )


def test_a_forged_split_file_with_kfold_yes_is_refused(tmp_path):
    from sklearn_fair.model_selection import load_splits

    path = tmp_path / "s.json"
    path.write_text(
        json.dumps(
            {
                "format": "sklearn-fair-splits",
                "version": 1,
                "n_samples": 4,
                "kfold": "yes",
                "labels_fingerprint": None,
                "folds": [{"train": [0, 1], "test": [2, 3]}],
            }
        )
    )
    with pytest.raises(ValueError, match=r"s\.json has a 'kfold' field of 'yes'; it must be"):
        load_splits(path)


@pytest.mark.parametrize(
    "text, depth, items",
    [
        ("a = [[1, 2], [3]]", 2, 2),
        # brackets and commas inside strings and comments are not structure
        ('a = "[[[,,,"  # ]]]]]] ,,,\nb = [1]', 1, 0),
        ("a = '[[[' \nb = '''\n[[[\n,,,'''\nc = [[1]]", 2, 0),
        ('a = """\n\\"""[[[[\n""" \nb = { c = { d = [1, 2] } }', 3, 1),
        ('a = """x"""" \nb = [[]]', 2, 0),  # a closing quote run of four
        ("[table]\n[[array.of.tables]]\nx = 1", 2, 0),  # headers open and close their levels
        # a dotted key of n dots nests n - 1 levels at least (a float has a dot)
        ("a.b.c.d = 1.5\nt = 1979-05-27T07:32:00.999", 2, 0),
        ('"a.b.c".d.e = [1.5]', 1, 0),
        ("[x . y . z . w]\nv = 0.5", 2, 0),
    ],
)
def test_the_prescan_measures_the_structure_not_the_strings(text, depth, items):
    from sklearn_fair.experiment._reading._limits import prescan_toml

    tomllib.loads(text)  # every case is valid TOML
    assert prescan_toml(text, Limits(), "x.toml") == (depth, items)


def test_the_prescan_is_linear_in_memory_for_a_megabyte_string():
    from sklearn_fair.experiment._reading._limits import prescan_toml

    text = 'a = "' + 'x\\"[' * 200_000 + '"\n'
    tracemalloc.start()
    try:
        assert prescan_toml(text, Limits(file_size=2**21), "x.toml") == (0, 0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(text)  # the regex keeps no state per character


# -- The output matrix (issue 36): names, links, FIFOs, formulas, control characters, hostile
# CSVs and a failing cell, each through both paths of the one runner (one [data] table, or
# [data.NAME] tables), each asserting the refusal (or the safe outcome) and that nothing outside
# the results folder was created or changed. ``benchmarks/bench_hostile_files.py`` runs the
# same cases in child processes.

ESC_NAME = "\x1b]0;PWNED\x07\x1b[2J\r"
FORMULAS = ("=HYPERLINK(CONCAT(char(104),A1),1)", "@SUM(1+1)*cmd|' -C calc'!A0")


def _key(name):
    return json.dumps(name)  # a TOML basic string: quotes and control characters escaped


def output_toml(several, datasets, models, extra=""):
    """An experiment file: ``datasets`` (name -> [data] table text) as one [data] table or as
    [data.NAME] tables, ``models`` (name -> table text), the first model the baseline."""
    text = '[experiment]\nprogress = false\noutput_dir = "out"\n'
    text += f"[benchmark]\nbaseline = {_key(next(iter(models)))}\n"
    if several:
        text += "".join(f"[data.{_key(n)}]\n{table}\n" for n, table in datasets.items())
    else:
        text += f"[data]\n{next(iter(datasets.values()))}\n"
    text += "[protocol]\nouter_cv = 2\ninner_cv = 2\nn_refits = 1\n" + extra
    return text + "".join(f"[models.{_key(n)}]\n{table}\n" for n, table in models.items())


IRIS, WINE = 'dataset = "sklearn:iris"', 'dataset = "sklearn:wine"'
PRIOR = 'estimator = "sklearn.dummy.DummyClassifier"'
TREE = 'estimator = "sklearn.tree.DecisionTreeClassifier"\ngrid = { max_depth = [1, 2] }'


def _names_case(names):
    def build(folder, several):
        datasets = {names[0]: IRIS, names[1]: WINE} if several else {"iris": IRIS}
        return output_toml(several, datasets, {names[0]: PRIOR, names[1]: TREE}), 0

    return build


def _link_case(where):
    def build(folder, several):
        victim = folder / "outside" / "victim.txt"
        target = folder / "out" / where(several)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.name in ("models", "cache"):
            target.symlink_to(victim.parent, target_is_directory=True)
        else:
            target.symlink_to(victim)
        return output_toml(several, {"iris": IRIS, "wine": WINE}, {"prior": PRIOR, "t": TREE}), 2

    return build


def _fifo_case(folder, several):
    (folder / "out").mkdir()
    os.mkfifo(folder / "out" / "table.md")  # opened, it would block the run for ever
    return output_toml(several, {"iris": IRIS, "wine": WINE}, {"prior": PRIOR, "t": TREE}), 2


def _csv_case(write):
    def build(folder, several):
        write(folder / "data.csv")
        table = 'dataset = "csv"\npath = "data.csv"\ntarget = "y"'
        return output_toml(several, {"csv": table, "iris": IRIS}, {"prior": PRIOR}), 2

    return build


def _long_field(path):
    path.write_text("a,y\n" + "x" * 131_073 + ",1\n")


def _latin1(path):
    path.write_bytes("caf\xe9,y\n1,0\n2,1\n".encode("latin-1"))


def _duplicate_columns(path):
    path.write_text("a,a,y\n" + "".join(f"{i},{i % 3},{i % 2}\n" for i in range(20)))


def _failing_cell(folder, several):
    # priors of 3 classes: fits on iris, fails on every fold of breast_cancer (2 classes)
    bayes = 'estimator = "sklearn.naive_bayes.GaussianNB"\nparams = { priors = [0.3, 0.3, 0.4] }'
    datasets = {"cancer": 'dataset = "sklearn:breast_cancer"', "iris": IRIS}
    return output_toml(several, datasets, {"prior": PRIOR, "bayes": bayes}), 1


OUTPUT_CASES = {
    "names that are paths": _names_case(["../../../escaped", "/some/absolute/dir"]),
    "a name and its './' twin": _names_case(["a", "./a"]),
    "a name with a separator, and one of 300 characters": _names_case(["a/b", "n" * 300]),
    "names that are formulas": _names_case(list(FORMULAS)),
    "a name of control characters": _names_case([ESC_NAME, "b\x07"]),
    "a link where a model's file goes": _link_case(
        lambda several: "models/wine/t.json" if several else "models/t.json"
    ),
    "a link where table.md goes": _link_case(lambda several: "table.md"),
    "a link where the models folder goes": _link_case(lambda several: "models"),
    "a link where the cache folder goes": _link_case(lambda several: "cache"),
    "a FIFO where table.md goes": _fifo_case,
    "a CSV field over 131,072 characters": _csv_case(_long_field),
    "a Latin-1 CSV": _csv_case(_latin1),
    "a CSV naming a column twice": _csv_case(_duplicate_columns),
    "a model that fails on one data set": _failing_cell,
}
OUTPUT_MESSAGES = {
    "a link where": ["is a symbolic link", "remove it"],
    "a FIFO": ["is a FIFO, not a regular file"],
    "a CSV field": ["data.csv", "cannot be read as CSV", "field larger than field limit"],
    "a Latin-1": ["data.csv", "is not UTF-8 text", "save it as UTF-8"],
    "a CSV naming": ["data.csv", "names the columns 'a' more than once"],
    "a model that fails": ["fit(s) failed", "model 'bayes', data set '", "priors"],
}


def snapshot(folder, skip):
    """Every path under ``folder`` but ``skip``: its kind, link target, size and content hash."""
    import hashlib

    found = {}
    for path in sorted(folder.rglob("*")):
        if path == skip or skip in path.parents:
            continue
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            found[path] = ("link", os.readlink(path))
        elif stat.S_ISREG(info.st_mode):
            found[path] = ("file", hashlib.sha256(path.read_bytes()).hexdigest(), info.st_mtime_ns)
        else:
            found[path] = (stat.S_IFMT(info.st_mode),)
    return found


def write_output_case(folder, case, several):
    """Write the case's experiment file into ``folder`` (with a victim file outside the results
    folder); ``(path, expected exit status of the run)``."""
    (folder / "outside").mkdir()
    (folder / "outside" / "victim.txt").write_text("not yours\n")
    text, status = OUTPUT_CASES[case](folder, several)
    path = folder / "hostile.toml"
    path.write_text(text)
    return path, status


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("several", [False, True], ids=["one data set", "several"])
@pytest.mark.parametrize("case", list(OUTPUT_CASES))
def test_a_hostile_output_case_is_refused_or_kept_inside(tmp_path, capsys, case, several):
    path, expected = write_output_case(tmp_path, case, several)
    out = tmp_path / "out"
    before = snapshot(tmp_path, out)
    # the dry run writes nothing; it refuses what the run refuses before fitting (exit status
    # 2); a hostile CSV is data it cannot read (exit status 1), said
    status = main(["run", str(path), "--dry-run", "--no-timing"])
    dry = capsys.readouterr()
    assert status == (1 if "CSV" in case else 2 if expected == 2 else 0), dry.err
    if "CSV" in case:
        assert "NOT AVAILABLE" in dry.out and "data.csv" in dry.out
    status = main(["run", str(path)])
    run = capsys.readouterr()
    assert status == expected, run.err[-2000:]
    for text in (dry.out, dry.err, run.out, run.err):
        assert not any(c in text for c in "\x1b\x07\r"), "control characters reached the terminal"
        assert "Traceback" not in text
    for prefix, words in OUTPUT_MESSAGES.items():
        if case.startswith(prefix):
            for word in words:
                assert word in run.err, (word, run.err[-1000:])
    assert snapshot(tmp_path, out) == before  # nothing outside the results folder changed
    if expected == 2:  # refused before the first fit: no cache was written
        assert (out / "cache").is_symlink() or not (out / "cache").exists()
        return
    for file in out.rglob("*"):  # everything written lies inside, under a short name
        assert out.resolve() in file.resolve().parents and len(file.name) <= 255
        if file.suffix in (".md", ".csv", ".html", ".svg", ".txt", ".json"):
            text = file.read_text(encoding="utf-8")
            assert not any(c in text for c in "\x1b\x07"), f"control characters in {file}"
    for name in ("summary.csv", "scores.csv", "budget.csv", "comparison.csv"):
        if not (out / name).exists():
            continue
        with open(out / name, newline="") as file:
            cells = [c for row in csv.reader(file, quoting=csv.QUOTE_NONNUMERIC) for c in row]
        texts = [c for c in cells if isinstance(c, str)]
        assert not [c for c in texts if c[:1] in ("=", "+", "-", "@", "\t", "\r")], name
        assert not [c for c in texts if "\x1b" in c or "\x07" in c], name
    if case.startswith("names") or "twin" in case or "separator" in case:
        models = out / "models"
        cells = list(models.rglob("*.json"))
        assert len(cells) == (4 if several else 2)  # one file per cell: no two names share one
        names = {(json.loads(c.read_text())["dataset"], json.loads(c.read_text())["name"])
                 for c in cells}  # fmt: skip
        assert len(names) == len(cells)
    if case.startswith("a model that fails"):
        with open(out / "summary.csv", newline="") as file:
            rows = list(csv.DictReader(file))
        failed = [r for r in rows if r["model"] == "bayes" and r["first_error"]]
        assert failed and "priors" in failed[0]["first_error"]
        assert [r for r in rows if r["model"] == "prior" and r["test_mean"]]  # the others


@pytest.mark.parametrize(
    "nested",
    [
        "params.class_weight" + ".a" * 40 + " = 1",
        "params = { class_weight = " + "{ a = " * 40 + "1" + " }" * 40 + " }",
        "[models.m.params.class_weight" + ".a" * 39 + "]\na = 1",
    ],
    ids=["dotted keys", "inline tables", "a header"],
)
def test_the_depth_is_one_limit_whatever_the_syntax(tmp_path, nested):
    # each is 43 deep (models, m, params and 40 tables): the flag the refusal names lifts it
    path = tmp_path / "deep.toml"
    path.write_text(toml(model=nested))
    with pytest.raises(ExperimentConfigError, match=r"nesting is 43, .* --limit depth=43\."):
        load_config(path, limits={"depth": 42})
    params = load_config(path, limits={"depth": 43}).models["m"].estimator.get_params()
    assert params["class_weight"]["a"]["a"]["a"]


def test_the_depth_limit_is_raised_only_as_far_as_the_reader_reads():
    # --limit depth=6000 let a 5000-level file through to the recursive builder, which ended
    # in a RecursionError traceback
    from sklearn_fair.experiment._reading._limits import MAX_DEPTH, parse_limits

    assert parse_limits([f"depth={MAX_DEPTH}"]).depth == MAX_DEPTH
    with pytest.raises(ExperimentConfigError, match="depth can be raised to at most 200; got"):
        parse_limits(["depth=6000"])
