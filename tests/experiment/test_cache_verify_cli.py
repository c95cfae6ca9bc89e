"""``sklearn-fair cache verify DIR --sample FRACTION``: audit any cache the library writes (what
``sklearn-fair run`` stored is recomputed; NestedCV's and benchmark's are checked)."""

import json
from pathlib import Path

import pytest

from sklearn_fair.cli import main
from sklearn_fair.model_selection._nested._cache import _checksum

EXPERIMENT = """\
[experiment]
name = "tiny"
output_dir = "out"
cache_dir = "cache"
random_state = 0
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = { random_state = 0 }
grid = { max_depth = [1, 2] }

[models.knn]
estimator = "sklearn.neighbors.KNeighborsClassifier"
grid = { n_neighbors = [3, 9] }
"""


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("experiment")
    (folder / "tiny.toml").write_text(EXPERIMENT)
    assert main(["run", str(folder / "tiny.toml")]) == 0
    return folder


@pytest.fixture
def folder(written, tmp_path):
    import shutil

    copy = tmp_path / "copy"  # the cache and its experiment, moved elsewhere together
    shutil.copytree(written, copy)
    return copy


def refit_entries(cache):
    found = []
    for path in sorted(Path(cache).glob("*/*.json")):
        entry = json.loads(path.read_text())
        if entry["key"]["phase"] == "refit":
            found.append((path, entry))
    return found


def test_the_runner_records_the_experiment_that_wrote_the_cache(written):
    import hashlib

    record = json.loads((written / "cache" / "experiments.json").read_text())
    text = (written / "tiny.toml").read_bytes()
    assert record["experiments"] == [
        {"path": "../tiny.toml", "sha256": hashlib.sha256(text).hexdigest()}
    ]


def test_a_clean_cache_verifies(folder, capsys):
    assert main(["cache", "verify", str(folder / "cache"), "--sample", "1"]) == 0
    out = capsys.readouterr().out
    assert "[tree]" in out and "[knn]" in out and " 0 differ" in out


def test_a_plausible_forgery_is_found_with_exit_status_1(folder, capsys):
    path, entry = refit_entries(folder / "cache")[0]
    entry["payload"]["scores"]["score"] = 0.999
    entry["checksum"] = _checksum(entry["payload"], entry["key"])
    path.write_text(json.dumps(entry))
    assert main(["cache", "verify", str(folder / "cache"), "--sample", "1.0"]) == 1
    out = capsys.readouterr().out
    assert f"DIFFERS {path}" in out and "0.999" in out


def test_an_edited_experiment_file_is_refused(folder, capsys):
    text = (folder / "tiny.toml").read_text()
    (folder / "tiny.toml").write_text(text.replace("max_depth = [1, 2]", "max_depth = [1, 3]"))
    assert main(["cache", "verify", str(folder / "cache")]) == 2
    assert "changed since it wrote" in capsys.readouterr().err


def test_a_record_naming_a_file_outside_is_refused(folder, tmp_path, capsys):
    outside = tmp_path / "elsewhere.toml"
    outside.write_text(EXPERIMENT)
    import hashlib

    record = {
        "format": "sklearn-fair-cache-experiments/1",
        "experiments": [
            {
                "path": "../../elsewhere.toml",
                "sha256": hashlib.sha256(outside.read_bytes()).hexdigest(),
            }
        ],
    }
    (folder / "cache" / "experiments.json").write_text(json.dumps(record))
    assert main(["cache", "verify", str(folder / "cache")]) == 2
    assert (
        "outside" in capsys.readouterr().err and "--allow-outside-paths" in "--allow-outside-paths"
    )


@pytest.mark.parametrize(
    "record",
    [
        "[]",
        "{",
        '{"format": "sklearn-fair-cache-experiments/1", "experiments": [{"path": 1}]}',
        "[" * 10_000 + "]" * 10_000,
        json.dumps(
            {
                "format": "sklearn-fair-cache-experiments/1",
                "experiments": [{"path": "a\0b.toml", "sha256": "0" * 64}],
            }
        ),
    ],
    ids=["list", "truncated", "bad record", "deep", "NUL in a path"],
)
def test_a_hostile_record_is_refused(folder, capsys, record):
    (folder / "cache" / "experiments.json").write_text(record)
    assert main(["cache", "verify", str(folder / "cache")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sklearn-fair cache verify:") and "Traceback" not in err


def test_a_record_naming_a_package_that_is_not_allowed_is_refused(folder, capsys):
    import hashlib

    text = EXPERIMENT.replace("sklearn.tree.DecisionTreeClassifier", "os.system")
    (folder / "evil.toml").write_text(text)
    record = {
        "format": "sklearn-fair-cache-experiments/1",
        "experiments": [
            {"path": "../evil.toml", "sha256": hashlib.sha256(text.encode()).hexdigest()}
        ],
    }
    (folder / "cache" / "experiments.json").write_text(json.dumps(record))
    assert main(["cache", "verify", str(folder / "cache")]) == 2  # the loader refuses 'os'
    assert "os" in capsys.readouterr().err


@pytest.mark.parametrize("writer", ["NestedCV", "benchmark"])
def test_a_cache_written_from_python_is_checked_entry_by_entry(tmp_path, capsys, writer):
    from sklearn.datasets import load_iris
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_fair import NestedCV, benchmark

    X, y = load_iris(return_X_y=True)
    cache = tmp_path / "cache"
    model = (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2]})
    if writer == "NestedCV":
        NestedCV(*model, outer_cv=3, inner_cv=2, n_refits=1, refit=False, random_state=0,
                 cache_dir=cache).fit(X, y)  # fmt: skip
    else:
        benchmark({"tree": model}, {"iris": (X, y)}, outer_cv=3, inner_cv=2, n_refits=1,
                  random_state=0, cache_dir=cache)  # fmt: skip
    assert main(["cache", "verify", str(cache)]) == 0
    out = capsys.readouterr().out
    # 3 x 2 x 2 + 3, checked, not recomputed: the line says so rather than "0 recomputed"
    assert "15 entries passed their checks, 0 failed them (checked, none recomputed)" in out
    assert "recomputed," not in out
    assert "checked, not recomputed" in out and "verify_cache" in out
    # an entry edited without its checksum, and one moved over another, fail their checks
    first, second = refit_entries(cache)[:2]
    entry = first[1]
    entry["payload"]["scores"]["score"] = 0.5
    first[0].write_text(json.dumps(entry))
    second[0].write_text(json.dumps(refit_entries(cache)[2][1]))
    assert main(["cache", "verify", str(cache)]) == 1
    out = capsys.readouterr().out
    assert f"REJECTED {first[0]}: its checksum does not match" in out
    assert f"REJECTED {second[0]}: its name is not the digest" in out


def _forged(payload_change=None, key=None):
    def change(path, entry):
        if key is not None:  # an entry under the name of the key it records, as a forger can
            from sklearn_fair.model_selection._nested._cache import entry_path
            from sklearn_fair.model_selection._nested._cache_key import entry_name

            entry["key"] = key
            path.unlink()
            path = entry_path(path.parent.parent, entry_name(key))
            path.parent.mkdir(exist_ok=True)
        if payload_change is not None:
            payload_change(entry["payload"])
        entry["checksum"] = _checksum(entry["payload"], entry["key"])
        path.write_text(json.dumps(entry))

    return change


def _set_score(value):
    return _forged(lambda payload: payload["scores"].update(score=value))


def _set_field(name, value):
    return _forged(lambda payload: payload.update({name: value}))


FORGERIES = {
    "NaN score": _set_score(float("nan")),
    "string score": _set_score("0.9"),
    "int of 401 digits": _set_score(10**400),
    "scores a list": _set_field("scores", [0.9]),
    "negative fit_time": _set_field("fit_time", -5.0),
    "fit_time an int of 401 digits": _set_field("fit_time", 10**400),
    "predictions not a fingerprint": _set_field("predictions", [0, 1]),
    "train scores a string": _set_field("train_scores", "0.9"),
    "train scores of another metric": _set_field("train_scores", {"other": 0.9}),
    "scores an empty table": _set_field("scores", {}),
    "key's metrics a number": _forged(key={"phase": "refit", "metrics": 5}),
    "key a string": _forged(key="a key"),
    "key a list": _forged(key=[1, 2]),
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_an_entry_a_run_would_refuse_fails_its_checks_without_a_traceback(
    tmp_path, capsys, forgery
):
    from sklearn.datasets import load_iris
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_fair import NestedCV

    X, y = load_iris(return_X_y=True)
    cache = tmp_path / "cache"
    tree = DecisionTreeClassifier(random_state=0)
    NestedCV(tree, {"max_depth": [1, 2]}, outer_cv=3, inner_cv=2, n_refits=1, refit=False,
             random_state=0, cache_dir=cache).fit(X, y)  # fmt: skip
    path, entry = refit_entries(cache)[0]
    FORGERIES[forgery](path, entry)
    assert main(["cache", "verify", str(cache)]) == 1
    out = capsys.readouterr().out
    assert "14 entries passed their checks, 1 failed them" in out
    assert "REJECTED" in out and "Traceback" not in out


def test_a_bad_sample_is_refused(folder, capsys):
    assert main(["cache", "verify", str(folder / "cache"), "--sample", "0"]) == 2
    assert "--sample" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command", [["cache", "verify", "somewhere", "--random-state"], ["demo", "--seed"]]
)
@pytest.mark.parametrize("seed", ["-1", "4294967296", "1.5", "zero"])
def test_a_seed_outside_what_random_state_takes_is_a_usage_error(command, seed, capsys):
    # the library refuses these seeds (tests/utils/test_random_state.py); the command line
    # says so in its usage error, exit status 2, not in a traceback
    with pytest.raises(SystemExit) as stop:
        main([*command, seed])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {command[-1]}: must be an int in the range [0, 4294967295]" in err
    assert repr(seed) in err


@pytest.mark.parametrize(
    "command",
    [
        ["cache", "verify", "somewhere", "--n-jobs"],
        ["demo", "--n-jobs"],
        ["run", "x.toml", "--n-jobs"],
    ],
)
@pytest.mark.parametrize("n_jobs", ["0", "1.5", "two"])
def test_an_n_jobs_an_experiment_file_refuses_is_a_usage_error(command, n_jobs, capsys):
    # as an experiment file's n_jobs (tests/experiment/test_hostile_files.py: "n_jobs = 0");
    # joblib's traceback ended the command before
    with pytest.raises(SystemExit) as stop:
        main([*command, n_jobs])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --n-jobs: must be a non-zero int" in err


@pytest.mark.parametrize("n_jobs", [-1, -2, 3])
def test_an_n_jobs_joblib_takes_is_parsed(n_jobs):
    from sklearn_fair.cli import _build_parser

    for command in (["demo"], ["run", "x.toml"], ["cache", "verify", "somewhere"]):
        arguments = _build_parser().parse_args([*command, "--n-jobs", str(n_jobs)])
        assert arguments.n_jobs == n_jobs


def test_run_help_names_every_limit(capsys):
    from dataclasses import fields

    from sklearn_fair.experiment._reading._limits import Limits

    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for limit in fields(Limits):  # each one --limit accepts
        assert limit.name in out


def test_entries_that_keep_large_predictions_verify(tmp_path, capsys):
    # a refit that keeps its test predictions writes an entry of up to 64 MiB; the check of
    # its name read only its first MiB, so a valid entry over 1 MiB failed as "its name is
    # not the digest of the key it records"
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    from sklearn_fair import NestedCV

    X, y = make_classification(n_samples=60_000, n_features=4, random_state=0)
    cache = tmp_path / "cache"
    nested = NestedCV(LogisticRegression(), {"C": [1.0]}, outer_cv=2, inner_cv=2, n_refits=1,
                      refit=False, random_state=0, keep_predictions=True,
                      cache_dir=cache)  # fmt: skip
    nested.fit(X, y)
    sizes = [path.stat().st_size for path in cache.glob("*/*.json")]
    assert max(sizes) > 1 << 20  # the case: an entry over the first MiB
    assert main(["cache", "verify", str(cache)]) == 0
    out = capsys.readouterr().out
    assert "6 entries passed their checks, 0 failed them" in out and "REJECTED" not in out


@pytest.mark.parametrize(
    "setting, cache",
    [("", "tiny_results/cache"), ('output_dir = "runs/out"\n', "runs/out/cache"),
     ('cache_dir = "runs/c"\n', "runs/c")],
    ids=["<stem>_results", "output_dir", "cache_dir"],
)  # fmt: skip
def test_the_own_cache_of_a_run_verifies(tmp_path, capsys, setting, cache):
    # the runner caches in its cache_dir, else <output_dir>/cache (default <stem>_results),
    # below the file: verify refused those records as files outside the cache's folder (the
    # <stem>_results one since 0.1.0.dev0, output_dir's and cache_dir's until now)
    text = EXPERIMENT.replace('cache_dir = "cache"\n', "").replace('output_dir = "out"\n', "")
    (tmp_path / "tiny.toml").write_text(text.replace("[experiment]\n", "[experiment]\n" + setting))
    assert main(["run", str(tmp_path / "tiny.toml")]) == 0
    cache = tmp_path / cache
    assert (cache / "experiments.json").is_file()
    capsys.readouterr()
    # half the entries: a cell of 15 draws none once in 30,000 source versions (0.2 drew
    # none of a cell once in 30: each entry is drawn by its name, which the source hashes)
    assert main(["cache", "verify", str(cache), "--sample", "0.5"]) == 0
    assert "0 differ" in capsys.readouterr().out


def test_a_cache_the_command_line_placed_elsewhere_needs_the_flag(tmp_path, capsys):
    # --output-dir is not in the file: the record is one of a file outside, as any other
    (tmp_path / "tiny.toml").write_text(EXPERIMENT.replace('cache_dir = "cache"\n', ""))
    out = tmp_path / "elsewhere" / "deep"
    assert main(["run", str(tmp_path / "tiny.toml"), "--output-dir", str(out)]) == 0
    capsys.readouterr()
    assert main(["cache", "verify", str(out / "cache"), "--sample", "0.5"]) == 2
    assert "--allow-outside-paths" in capsys.readouterr().err
    assert main(["cache", "verify", str(out / "cache"), "--sample", "0.5",
                 "--allow-outside-paths"]) == 0  # fmt: skip


def test_a_recorded_file_is_read_by_the_bounded_reader(folder, capsys):
    # the record's file is hashed as the runner reads it, never past the size limit (it was
    # read whole to be hashed, then read again, bounded, to be loaded)
    import hashlib

    huge = folder / "huge.toml"
    huge.write_text("# padding\n" * 200_000)  # 2 MB, over the 1 MiB default
    record = {
        "format": "sklearn-fair-cache-experiments/1",
        "experiments": [
            {"path": "../huge.toml", "sha256": hashlib.sha256(b"another text").hexdigest()}
        ],
    }
    (folder / "cache" / "experiments.json").write_text(json.dumps(record))
    assert main(["cache", "verify", str(folder / "cache")]) == 2
    err = capsys.readouterr().err
    assert "size in bytes" in err and "changed since" not in err


def test_a_cache_whose_run_raised_a_limit_verifies_with_that_limit(tmp_path, capsys, monkeypatch):
    # verify read the file under the default limits, and its refusal named a flag it did not
    # take ("--limit jobs=2", then "unrecognized arguments")
    from sklearn_fair.experiment._counting import _plan
    from sklearn_fair.experiment._reading import _limits

    monkeypatch.setattr(_limits, "_cores", lambda: 1)  # the jobs limit's default
    text = EXPERIMENT.replace("progress = false", "progress = false\nn_jobs = 2")
    (tmp_path / "tiny.toml").write_text(text)
    assert main(["run", str(tmp_path / "tiny.toml"), "--limit", "jobs=2"]) == 0
    capsys.readouterr()
    cache = str(tmp_path / "cache")
    assert main(["cache", "verify", cache, "--sample", "0.5"]) == 2
    assert "'experiment.n_jobs'" in capsys.readouterr().err
    workers = []
    nested_of = _plan.nested_of
    monkeypatch.setattr(
        _plan,
        "nested_of",
        lambda *a, n_jobs: workers.append(n_jobs) or nested_of(*a, n_jobs=n_jobs),
    )
    assert main(["cache", "verify", cache, "--sample", "0.5", "--limit", "jobs=2"]) == 0
    assert "0 differ" in capsys.readouterr().out
    assert workers == [2, 2]  # the file's n_jobs, as --n-jobs's help says, so the limit holds


def test_verify_sets_the_device_the_run_set(folder, capsys):
    # --device changes the estimators' parameters, which key the entries: verify took no
    # --device, so a run's entries with it were never found (here: refused as the run would)
    assert main(["cache", "verify", str(folder / "cache"), "--device", "cuda"]) == 2
    assert "device='cuda' was asked for, but no model" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    ["x = " + "[" * 3000 + "]" * 3000 + "\n", ".".join(["a"] * 5000) + " = 1\n"],
    ids=["nested arrays", "a long dotted key"],
)
def test_a_recorded_file_is_read_within_the_limits_of_a_run(folder, tmp_path, text, capsys):
    # whether a file outside is the cache's own was decided by parsing it whole: nested arrays
    # escaped as a RecursionError (exit 1, "an entry differs"), and a dotted key of n parts
    # took memory in n**2 (40 KB: 1.7 GB), where a run refuses both before parsing
    import hashlib
    import tracemalloc

    outside = tmp_path / "elsewhere.toml"
    outside.write_text(text)
    record = {
        "format": "sklearn-fair-cache-experiments/1",
        "experiments": [
            {"path": "../../elsewhere.toml", "sha256": hashlib.sha256(text.encode()).hexdigest()}
        ],
    }
    (folder / "cache" / "experiments.json").write_text(json.dumps(record))
    tracemalloc.start()
    try:
        status = main(["cache", "verify", str(folder / "cache")])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 2
    assert "outside" in capsys.readouterr().err
    assert peak < 20 * 2**20  # tomllib on the dotted key alone: about 100 MB
