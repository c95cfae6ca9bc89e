"""The dry run refuses what is in the way of the run's files, as the run does: it checked the
results folder itself only, and counted fits (exit 0) for a folder whose summary.csv was a
link or a folder, or an output_dir holding the data's own scores.csv (hunt DG5)."""

import os

import pytest

from sklearn_fair.cli import main

EXPERIMENT = """\
[experiment]
name = "tiny"
output_dir = "out"
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
grid = { max_depth = [1, 2] }
"""


def _in_the_way(folder, kind):
    out = folder / "out"
    out.mkdir()
    if kind == "link":
        (folder / "elsewhere.csv").write_text("mine\n")
        os.symlink(folder / "elsewhere.csv", out / "summary.csv")
    else:
        (out / "summary.csv").mkdir()


@pytest.mark.parametrize("kind", ["link", "folder"])
def test_the_dry_run_refuses_what_the_run_refuses(tmp_path, kind, capsys):
    (tmp_path / "tiny.toml").write_text(EXPERIMENT)
    _in_the_way(tmp_path, kind)
    dry = main(["run", str(tmp_path / "tiny.toml"), "--dry-run", "--no-timing"])
    said = capsys.readouterr().err
    assert dry == 2 and "summary.csv" in said, said
    assert main(["run", str(tmp_path / "tiny.toml")]) == 2  # the run, as before
    if kind == "link":
        assert (tmp_path / "elsewhere.csv").read_text() == "mine\n"
