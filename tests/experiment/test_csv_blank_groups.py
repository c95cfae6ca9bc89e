"""A CSV groups column with missing cells is refused at the data's groups key, text or numeric,
as a missing label is at the target: the missing cells of a text column were one group ""."""

import numpy as np
import pandas as pd
import pytest

from sklearn_fair.cli import main

TOML = """\
[experiment]
progress = false
output_dir = "out"

[data]
dataset = "csv"
path = "data.csv"
target = "label"
groups = "patient"

[protocol]
outer_cv = { splitter = "sklearn.model_selection.GroupKFold", params = { n_splits = 3 } }
inner_cv = 2
n_refits = 1

[models.lr]
estimator = "sklearn.linear_model.LogisticRegression"
"""


def _experiment(tmp_path, groups):
    rng = np.random.RandomState(0)
    rows = [
        f"{a:.3f},{b:.3f},{i % 2},{g}"
        for i, ((a, b), g) in enumerate(zip(rng.randn(len(groups), 2), groups))
    ]
    (tmp_path / "data.csv").write_text("a,b,label,patient\n" + "\n".join(rows) + "\n")
    (tmp_path / "e.toml").write_text(TOML)
    return tmp_path / "e.toml"


def _groups(ids, missing, at):
    return [missing if i in at else ids(i // 4) for i in range(48)]


@pytest.mark.parametrize("ids", [lambda k: f"p{k:02d}", lambda k: str(k)], ids=["text", "number"])
@pytest.mark.parametrize("missing", ["", "NA", "nan", "NULL", "n/a", "#N/A"])
def test_missing_group_cells_are_refused_at_the_groups_key(tmp_path, capsys, ids, missing):
    at = {3, 17, 40}
    path = _experiment(tmp_path, _groups(ids, missing, at))
    # the reference: pandas.read_csv reads those cells as missing
    read = pd.read_csv(tmp_path / "data.csv")["patient"]
    rows = (np.flatnonzero(read.isna()) + 1).tolist()  # data rows, 1-based
    assert rows == [4, 18, 41]
    # a text column ran, its three rows one group ""; a numeric one was refused at 'protocol'
    assert main(["run", str(path)]) == 2
    error = capsys.readouterr().err
    assert "key 'data.groups': the CSV file " in error and "key 'protocol'" not in error
    assert "has 3 missing group(s) in its groups column 'patient' (first on data row 4:" in error
    assert f"data rows {', '.join(map(str, rows))})" in error
    assert "give those rows their group or remove them" in error
    assert not (tmp_path / "out").exists()


def test_a_blank_group_cell_is_missing_as_a_blank_label_is(tmp_path, capsys):
    # pandas keeps " " as text; the target's check takes a blank cell for missing, and so now
    # does the groups'
    path = _experiment(tmp_path, _groups(lambda k: f"p{k:02d}", " ", {5}))
    assert main(["run", str(path)]) == 2
    error = capsys.readouterr().err
    assert "key 'data.groups'" in error
    assert "1 missing group(s) in its groups column 'patient' (first on data row 6: ' ';" in error
