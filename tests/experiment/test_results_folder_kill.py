"""A run killed hard while it writes the results folder (kill -9, the OOM killer): the next
run removes, or names, every file the killed run wrote and it does not write itself (hunt
CONCURRENCY, CONCURRENCY-1). Before, the killed run's files were recorded nowhere (only a
Ctrl-C recorded them), so the next run left ``models/nb.json`` of another run beside its own
``summary.csv``, named it nowhere, and called the folder complete."""

import json
import os
import uuid

import pytest

from sklearn_fair.experiment import run_experiment
from sklearn_fair.experiment._running._outputs import MODEL_FORMAT, in_layout, written_by_runner
from sklearn_fair.experiment._running._resultfile import RECORD, ResultsFolder

TOML = """\
[experiment]
output_dir = "out"
progress = false
[data]
dataset = "sklearn:iris"
[protocol]
outer_cv = 3
n_refits = 1
[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = {{ max_depth = [1, 3] }}
{more}"""
NB = '[models.nb]\nestimator = "sklearn.naive_bayes.GaussianNB"\n'


class Killed(BaseException):
    """What the run sees of a kill: nothing after it runs (not KeyboardInterrupt, which
    records the files written so far)."""


def _files(folder):
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and in_layout(p.relative_to(folder).parts)
    }


def _temporary(folder, name):
    """A temporary file as ResultsFolder.write names it, half written, as a kill leaves it."""
    stem, suffix = os.path.splitext(name)
    path = folder / f".{stem}.{uuid.uuid4().hex}.tmp{suffix}"
    path.write_text('{"format": ')
    return path


def test_the_files_of_a_killed_run_are_removed_by_the_next_run(tmp_path, monkeypatch):
    path, out = tmp_path / "e.toml", tmp_path / "out"
    path.write_text(TOML.format(more=""))
    run_experiment(path)
    path.write_text(TOML.format(more=NB))
    write = ResultsFolder.write
    leftovers = []

    def killed_after_nb(self, parts, writer):
        target = write(self, parts, writer)
        if parts == ("models", "nb.json"):  # written, then killed while writing the next
            leftovers.append(_temporary(target.parent, "tree.json"))
            leftovers.append(_temporary(out, "summary.csv"))
            raise Killed
        return target

    monkeypatch.setattr(ResultsFolder, "write", killed_after_nb)
    with pytest.raises(Killed):
        run_experiment(path)
    monkeypatch.undo()
    nb = out / "models" / "nb.json"
    assert nb.exists() and json.loads((out / RECORD).read_text())["complete"] is False

    path.write_text(TOML.format(more=""))
    result = run_experiment(path)
    record = json.loads((out / RECORD).read_text())
    assert record["complete"] is True
    # before: models/nb.json stayed, in neither removed, left nor the record
    assert not nb.exists() and nb in result.removed and result.left == []
    # every file of the layout is this run's, recorded; the killed run's temporaries are gone
    assert _files(out) == set(record["files"]) and "models/tree.json" in record["files"]
    assert not any(p.exists() for p in leftovers)
    assert set(leftovers) <= set(result.removed)


def _run(root, names, kill_after=None):
    """Write ``names`` (models/*.json as model files, the others as text) into ``root`` as a
    run does, its record last; stop as a kill does (no stopped(), no record) after
    ``kill_after``."""
    folder = ResultsFolder(root)
    folder.check([tuple(n.split("/")) for n in names] + [(RECORD,)])
    with folder.writing():
        folder.begin(in_layout)
        for name in names:
            parts = tuple(name.split("/"))
            if parts[0] == "models":  # a model file as written_by_runner knows one
                folder.write_json(parts, {"format": MODEL_FORMAT, "model": name})
            else:
                folder.write_text(parts, f"{name} of {names}")
            if name == kill_after:
                return folder, None
        return folder, folder.replace_record(in_layout, written_by_runner)


def test_a_killed_run_after_a_killed_run_is_still_cleaned_up(tmp_path):
    first = ["summary.csv", "models/a.json"]
    _run(tmp_path, first)
    # killed, having rewritten summary.csv and written comparison.csv and b.json
    _run(tmp_path, ["summary.csv", "comparison.csv", "models/b.json"], kill_after="models/b.json")
    # killed again before writing anything of its own but its interim record
    _run(tmp_path, ["summary.csv", "models/c.json"], kill_after="summary.csv")
    user = tmp_path / "models" / "notes.json"
    user.write_text("{}")  # the user's own, never the runner's
    _, (removed, left) = _run(tmp_path, ["summary.csv", "models/d.json"])
    stale = {"models/a.json", "comparison.csv", "models/b.json"}
    assert {p.relative_to(tmp_path).as_posix() for p in removed} == stale
    assert left == [] and user.read_text() == "{}"
    record = json.loads((tmp_path / RECORD).read_text())
    assert record["complete"] is True and "writing" not in record
    assert _files(tmp_path) == set(record["files"]) | {"models/notes.json"}


def test_a_users_json_file_where_a_killed_run_would_write_is_never_removed(tmp_path):
    # a guard: the killed run's record names models/x.json (it would have written it), but
    # the file there is the user's, not a model file: it is not touched
    _run(tmp_path, ["summary.csv"])
    mine = tmp_path / "models" / "x.json"
    mine.parent.mkdir()
    mine.write_text('{"mine": 1}')
    _run(tmp_path, ["summary.csv", "models/y.json", "models/x.json"], kill_after="models/y.json")
    _, (removed, left) = _run(tmp_path, ["summary.csv"])
    assert removed == [tmp_path / "models" / "y.json"] and left == []
    assert mine.read_text() == '{"mine": 1}'


def test_another_writers_temporary_is_left(tmp_path):
    # (review43 REV-2) the cache's record (cache_dir = output_dir, another lock) and
    # BenchmarkResult.save("out/bench.json") write temporaries of their own beside the results:
    # half-written, they are not a killed run's, and removing them broke those writers
    _run(tmp_path, ["summary.csv"])
    theirs = [
        tmp_path / f".experiments.{uuid.uuid4().hex}.tmp.json",
        tmp_path / f".bench.json.{uuid.uuid4().hex}.tmp",
    ]
    for path in theirs:
        path.write_text("{")
    ours = _temporary(tmp_path, "summary.csv")
    _, (removed, _) = _run(tmp_path, ["summary.csv"])
    assert all(path.exists() for path in theirs)
    assert not ours.exists() and ours in removed


def test_a_users_file_where_a_killed_run_never_wrote_is_left(tmp_path):
    # (review43 REV-3) a killed run that planned comparison.csv, where the user keeps a file of
    # their own, and was killed before writing it: the next run removed the user's file
    _run(tmp_path, ["summary.csv"])
    mine = tmp_path / "comparison.csv"
    mine.write_text("my own notes")
    _run(tmp_path, ["summary.csv", "comparison.csv"], kill_after="summary.csv")
    _, (removed, _) = _run(tmp_path, ["summary.csv"])
    assert mine.read_text() == "my own notes" and mine not in removed
