"""``sklearn-fair cache verify`` given the results folder of a run, not its cache: it names the
cache to pass (exit status 2), and never calls the run's own files failed cache entries."""

import json
import shutil

import pytest

from sklearn_fair.cli import main

EXPERIMENT = """\
[experiment]
name = "tiny"
random_state = 0
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.logreg]
estimator = "sklearn.linear_model.LogisticRegression"
grid = { C = [0.1, 1.0] }

[models.forest]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = { random_state = 0 }
grid = { max_depth = [1, 2] }
"""


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("experiment")
    (folder / "exp1.toml").write_text(EXPERIMENT)
    assert main(["run", str(folder / "exp1.toml")]) == 0  # exp1_results/, its cache in cache/
    return folder


@pytest.fixture
def results(written, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(written, copy)
    return copy / "exp1_results"


def test_a_results_folder_names_its_cache_with_exit_status_2(results, capsys):
    assert main(["cache", "verify", str(results)]) == 2
    captured = capsys.readouterr()
    assert "REJECTED" not in captured.out and "passed their checks" not in captured.out
    assert f"{results} is a results folder of 'sklearn-fair run'" in captured.err
    assert f"run sklearn-fair cache verify {results / 'cache'}" in captured.err


def test_the_cache_of_that_results_folder_verifies(results, capsys):
    assert main(["cache", "verify", str(results / "cache"), "--sample", "1"]) == 0
    out = capsys.readouterr().out
    # 3 outer folds x 2 candidates x 2 inner folds + 3 refits, for each of the two models
    assert "30 entries passed their checks, 0 failed them" in out
    assert out.count("15 entries found, 15 recomputed, 0 differ") == 2


@pytest.mark.parametrize("removed", ["outputs.json", "cache"])
def test_a_results_folder_with_one_of_its_marks_is_refused(results, capsys, removed):
    # a run killed before it wrote its record; a run whose cache_dir lies elsewhere
    target = results / removed
    shutil.rmtree(target) if target.is_dir() else target.unlink()
    assert main(["cache", "verify", str(results)]) == 2
    err = capsys.readouterr().err
    assert "is a results folder of 'sklearn-fair run'" in err
    assert ("cache_dir" in err) == (removed == "cache")


def test_only_files_where_a_run_looks_for_entries_are_checked(tmp_path):
    from sklearn.datasets import load_iris
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_fair import NestedCV
    from sklearn_fair.model_selection._nested._verify import check_entries

    X, y = load_iris(return_X_y=True)
    cache = tmp_path / "cache"
    NestedCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2]},
        outer_cv=3,
        inner_cv=2,
        n_refits=1,
        refit=False,
        random_state=0,
        cache_dir=cache,
    ).fit(X, y)
    entries = sorted(cache.glob("*/*.json"))
    assert len(entries) == 15  # 3 x 2 x 2 selection fits, 3 refits
    (cache / "notes").mkdir()
    (cache / "notes" / "readme.json").write_text(json.dumps({"a": 1}))  # no entry
    (cache / "models").mkdir()
    shutil.copy(entries[0], cache / "models" / entries[0].name)  # no run reads it there
    audit = check_entries(cache)
    assert (audit.n_entries, audit.rejected) == (15, [])

    # an entry moved to another entry's folder, or renamed in its own, is still caught
    moved, renamed = entries[1], entries[2]
    other = next(p.parent for p in entries if p.parent != moved.parent)
    moved.rename(other / moved.name)
    renamed.rename(renamed.parent / (renamed.parent.name + "0" * 62 + ".json"))
    audit = check_entries(cache)
    reasons = sorted(reason for _, reason in audit.rejected)
    assert audit.n_entries == 13
    assert reasons == [
        "its name is not the digest of the key it records",
        f"not in the folder its name belongs in ({moved.stem[:2]!r})",
    ]


def test_a_cache_folder_without_the_runs_record_is_not_named_as_its_cache(tmp_path, capsys):
    # the run's cache_dir lay elsewhere; the user keeps a folder of their own named cache
    (tmp_path / "cache").mkdir()
    (tmp_path / "outputs.json").write_text("{}")
    assert main(["cache", "verify", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is a results folder of 'sklearn-fair run'" in err
    assert "cache_dir" in err and str(tmp_path / "cache") not in err
