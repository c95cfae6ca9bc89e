"""What a CSV file must hold besides its target, and where a missing label is reported: at
the data's keys, not as the protocol's misfit."""

import numpy as np
import pytest

from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import load_config
from sklearn_fair.experiment._reading._data import load_csv, load_datasets


class _Source:
    def error(self, key, message):
        return ExperimentConfigError(f"key {'.'.join(key)!r}: {message}")


@pytest.mark.parametrize("groups", [None, "site"])
def test_a_csv_without_a_feature_column_is_refused(tmp_path, groups):
    path = tmp_path / "only.csv"
    path.write_text("label,site\n" + "".join(f"{i % 2},{i % 3}\n" for i in range(6)))
    if groups is None:
        path.write_text("label\n" + "".join(f"{i % 2}\n" for i in range(6)))
    # X was an empty DataFrame of shape (0, 0), and the run said "key 'protocol': the
    # protocol does not fit the data (...): Found input variables with inconsistent
    # numbers of samples: [0, 60]"
    with pytest.raises(ExperimentConfigError) as error:
        load_csv(path, "label", groups, _Source())
    message = str(error.value)
    assert message.startswith("key 'data.path': the CSV file ")
    assert "only.csv" in message
    assert "no feature column besides its target column 'label'" in message
    assert ("groups column 'site'" in message) == (groups == "site")


def _experiment(tmp_path, csv_text):
    (tmp_path / "data.csv").write_text(csv_text)
    (tmp_path / "e.toml").write_text(
        '[experiment]\nname = "e"\n'
        '[data]\ndataset = "csv"\npath = "data.csv"\ntarget = "label"\n'
        "[protocol]\nouter_cv = 3\ninner_cv = 2\n"
        '[models.lr]\nestimator = "sklearn.linear_model.LogisticRegression"\n'
    )
    return load_config(tmp_path / "e.toml")


@pytest.mark.parametrize("cell", ["", " ", "NA", "nan"])
def test_a_missing_numeric_label_is_refused_at_the_target(tmp_path, cell):
    # the label column is numeric: its missing cell was NaN, refused by NestedCV as "key
    # 'protocol': the protocol does not fit the data (...): y contains 1 NaN"
    config = _experiment(tmp_path, f"a,label\n1,0\n2,1\n3,0\n4,{cell}\n5,1\n6,{cell}\n")
    with pytest.raises(ExperimentConfigError) as error:
        load_datasets(config)
    message = str(error.value)
    assert "key 'data.target': the CSV file " in message and "key 'protocol'" not in message
    assert "2 missing label(s) in its target column 'label' (first on data row 4:" in message


def test_a_csv_without_a_feature_column_is_refused_at_its_path(tmp_path):
    config = _experiment(tmp_path, "label\n" + "".join(f"{i % 2}\n" for i in range(6)))
    with pytest.raises(ExperimentConfigError, match="key 'data.path': the CSV file .*no feature"):
        load_datasets(config)


def test_one_feature_column_and_labels_are_read(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,label\n1.5,0\n2,1\n-3,0\n")
    X, y, groups = load_csv(path, "label", None, _Source())
    assert list(X.columns) == ["a"] and X["a"].tolist() == [1.5, 2.0, -3.0]
    assert y.tolist() == [0, 1, 0] and y.dtype == np.int64 and groups is None
