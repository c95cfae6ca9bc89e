"""The options of a tu: data set: drop_degenerate, the features the dry run checks as the
run does, and where an archive is read."""

import json
import shutil
import tarfile

import numpy as np
import pytest

from sklearn_fair.cli import main
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import dry_run, load_config, run_experiment
from sklearn_fair.experiment._reading._data import load_datasets

pytest.importorskip("torch_geometric")

HEAD = """\
[experiment]
progress = false
cache_dir = "cache"

[data]
dataset = "tu:{name}"
root = "TU"
"""
MODEL = """
[models.dummy]
estimator = "sklearn.dummy.DummyClassifier"
grid = { strategy = ["most_frequent", "prior"] }
"""
SPLITS = """
[protocol]
splits_file = "splits.json"
splits_format = "gnn-comparison"
n_refits = 1
"""

# graph sizes of TOY: graph 4 has one node (degenerate); graph 7 has two nodes and only a
# self-loop, which counts as an edge line (kept)
SIZES = [3, 3, 3, 3, 1, 3, 3, 2, 3, 3, 3, 3]
LABELS = [-1, 1] * 6


def _toy(tmp_path, archive=False):
    """TU/TOY/raw (or TU/TOY/TOY.tar.xz) of the graphs of SIZES, and a gnn-comparison split
    file of three folds over the 11 graphs that drop_degenerate keeps."""
    raw = tmp_path / "TU" / "TOY" / "raw"
    raw.mkdir(parents=True)
    indicator, edges, node_labels, node = [], [], [], 0
    for graph, size in enumerate(SIZES, start=1):
        first = node + 1
        for _ in range(size):
            node += 1
            indicator.append(graph)
            node_labels.append(1 + node % 2)
        if size == 2:
            edges.append((first, first))
        for a in range(first, first + size - 1) if size > 2 else ():
            edges += [(a, a + 1), (a + 1, a)]
    (raw / "TOY_graph_indicator.txt").write_text("".join(f"{g}\n" for g in indicator))
    (raw / "TOY_A.txt").write_text("".join(f"{a}, {b}\n" for a, b in edges))
    (raw / "TOY_graph_labels.txt").write_text("".join(f"{y}\n" for y in LABELS))
    (raw / "TOY_node_labels.txt").write_text("".join(f"{y}\n" for y in node_labels))
    if archive:
        with tarfile.open(raw.parent / "TOY.tar.xz", "w:xz") as tar:
            for path in sorted(raw.iterdir()):
                tar.add(path, arcname=f"raw/{path.name}")
        shutil.rmtree(raw)
    folds, kept = [], list(range(11))
    for k in range(3):
        test = kept[k::3]
        train = [i for i in kept if i not in test]
        folds.append(
            {"test": test, "model_selection": [{"train": train[2:], "validation": train[:2]}]}
        )
    (tmp_path / "splits.json").write_text(json.dumps(folds))


def _experiment(tmp_path, name, extra="", protocol=SPLITS):
    path = tmp_path / "e.toml"
    path.write_text(HEAD.format(name=name) + extra + protocol + MODEL)
    return path


@pytest.mark.parametrize("archive", [False, True])
def test_drop_degenerate_counts_the_graphs_the_split_file_indexes(tmp_path, archive):
    """The paper's split files leave out the degenerate graphs (REDDIT-MULTI-5K's indexes
    4,999 of 5,000): drop_degenerate = true was an unknown key, so such a file could not be
    used (the splits did not fit the data). The run and both dry runs count the same graphs."""
    _toy(tmp_path, archive)
    path = _experiment(tmp_path, "TOY", 'features = "node-labels"\ndrop_degenerate = true\n')
    kept = [y for y, size in zip(LABELS, SIZES) if size > 1]  # the single-node graph out
    assert len(kept) == 11
    config = load_config(path)
    for labels_only in (True, False):
        (data,) = load_datasets(config, labels_only=labels_only).values()
        # the run maps labels to 0..C-1 in sorted order; the count reads them as written
        expected = np.unique(kept, return_inverse=True)[1] if not labels_only else kept
        np.testing.assert_array_equal(np.asarray(data.y), expected)
    # the split file's folds: tests of 4, 4 and 3 of the 11 graphs kept
    outer = [(7, 4), (7, 4), (8, 3)]
    for timing in (False, True):
        report = dry_run(path, timing=timing, n_timed=1, sample_size=8)
        assert report.data_problem is None
        assert report.plans["dummy"].outer == outer
        assert report.total_fits == 3 * 2 * 1 + 3
        assert "degenerate graphs dropped" in report.text
    result = run_experiment(path)
    tested = [fold["test_indices"] for fold in result.results["dummy"]["outer_results"]]
    assert sorted(i for fold in tested for i in fold) == list(range(11))
    # without the key, the same split file does not fit the 12 graphs, in both paths
    path.write_text(path.read_text().replace("drop_degenerate = true\n", ""))
    with pytest.raises(ExperimentConfigError, match="are for 11 samples but X has 12"):
        dry_run(path, timing=False)
    with pytest.raises(ExperimentConfigError, match="are for 11 samples but X has 12"):
        run_experiment(path)


@pytest.mark.parametrize(
    "line, message",
    [
        (
            'drop_degenerate = "yes"\n',
            "line 8, key 'data.drop_degenerate': must be true or false; got 'yes'.",
        ),
        ("drop_degenerate = 1\n", "key 'data.drop_degenerate': must be true or false; got 1."),
    ],
)
def test_drop_degenerate_must_be_a_boolean(tmp_path, line, message):
    _toy(tmp_path)
    path = _experiment(tmp_path, "TOY", line)
    with pytest.raises(ExperimentConfigError, match=message.replace(".", r"\.")):
        load_config(path)
    csv = '[data]\ndataset = "csv"\npath = "d.csv"\ntarget = "y"\ndrop_degenerate = true\n' + MODEL
    (tmp_path / "d.csv").write_text("x,y\n1,0\n2,1\n")
    path.write_text(csv)
    with pytest.raises(
        ExperimentConfigError,
        match="key 'data.drop_degenerate': not used by the data set 'csv'",
    ):
        load_config(path)


@pytest.mark.parametrize("drop", ["", "drop_degenerate = true\n"])
@pytest.mark.parametrize("features", [None, "node-labels", "node-labels+attributes"])
def test_counting_dry_run_refuses_node_label_features_without_node_labels(
    tmp_path, data_dir, drop, features
):
    """IMDB-BINARY has no node labels: the run refuses features 'auto' (the default), but the
    dry run that reads only the labels (--no-timing) counted its fits. It now says what the
    run says, under the same key, before any fit."""
    (tmp_path / "TU").mkdir()
    shutil.copytree(data_dir / "TUDataset" / "IMDB-BINARY", tmp_path / "TU" / "IMDB-BINARY")
    extra = drop + ("" if features is None else f'features = "{features}"\n')
    path = _experiment(tmp_path, "IMDB-BINARY", extra, "[protocol]\nouter_cv = 3\n")
    with pytest.raises(ExperimentConfigError, match="key 'data.features'") as info:
        run_experiment(path)
    ran = str(info.value)
    assert "has no node labels" in ran
    report = dry_run(path, timing=False)
    assert report.data_problem == f"IMDB-BINARY: {ran}"
    assert report.total_fits is None and report.plans == {}
    assert main(["run", "--dry-run", "--no-timing", str(path)]) == 1
    # a scheme for graphs without node labels is counted: 1,000 graphs
    _experiment(
        tmp_path, "IMDB-BINARY", drop + 'features = "degree"\n', "[protocol]\nouter_cv = 3\n"
    )
    report = dry_run(path, timing=False)
    assert report.data_problem is None
    assert sum(n_test for _, n_test in report.plans["dummy"].outer) == 1000


def test_an_archive_directly_in_root_is_named_with_where_it_goes(tmp_path):
    """root/NAME.tar.xz is not read (root/NAME/NAME.tar.xz is), as the guide now says; the
    error said only that root/NAME/raw was missing, and nothing of the archive there."""
    _toy(tmp_path, archive=True)
    misplaced = tmp_path / "TU" / "TOY.tar.xz"
    (tmp_path / "TU" / "TOY" / "TOY.tar.xz").rename(misplaced)
    path = _experiment(
        tmp_path, "TOY", 'features = "node-labels"\n', "[protocol]\nouter_cv = 3\ninner_cv = 2\n"
    )
    where = tmp_path / "TU" / "TOY" / "TOY.tar.xz"
    with pytest.raises(ExperimentConfigError, match="key 'data.root'") as info:
        run_experiment(path)
    ran = str(info.value)
    assert f"the archive {str(misplaced)!r} is not read" in ran
    assert f"an archive goes in the data set's folder, as {str(where)!r}" in ran
    for timing in (False, True):
        assert dry_run(path, timing=timing).data_problem == f"TOY: {ran}"
    misplaced.rename(where)  # where the guide says: read
    assert dry_run(path, timing=False).data_problem is None
