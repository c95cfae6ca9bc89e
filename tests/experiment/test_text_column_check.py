"""The runner's check, before any fit, that every column of text reaches an encoder: what
scikit-learn and imbalanced-learn run is not refused, what would reach the model as text is."""

import csv

import numpy as np
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import OneHotEncoder

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import ExperimentConfigError
from sklearn_fair.experiment import run_experiment

pd = pytest.importorskip("pandas")

HEAD = """\
[experiment]
output_dir = "out"
random_state = 0
progress = false

[data]
dataset = "csv"
path = "data.csv"
target = "label"

[protocol]
outer_cv = 3
n_refits = 1

[models.lr]
estimator = "sklearn.linear_model.LogisticRegression"
grid = { C = [0.1, 1.0] }
"""
SAMPLER = """
[[models.lr.preprocessing]]
estimator = "imblearn.over_sampling.RandomOverSampler"
params = { random_state = 0 }
"""
IMPUTER = """
[[models.lr.preprocessing]]
estimator = "sklearn.impute.SimpleImputer"
params = { strategy = "most_frequent" }
"""


def _encoder(columns):
    return f"""
[[models.lr.preprocessing]]
estimator = "sklearn.compose.ColumnTransformer"
params.remainder = "passthrough"
params.transformers = [["onehot", {{ estimator = "sklearn.preprocessing.OneHotEncoder", \
params = {{ handle_unknown = "ignore" }} }}, {columns}]]
"""


def _write(tmp_path, *steps, n=60):
    rng = np.random.default_rng(0)
    with open(tmp_path / "data.csv", "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["colour", "x", "site", "label"])
        for i in range(n):
            colour = ["red", "green", "blue"][i % 3]
            label = int(colour == "red" or rng.random() < 0.2)
            writer.writerow([colour, rng.normal(), f"s{i % 4}", label])
    (tmp_path / "e.toml").write_text(HEAD + "".join(steps))
    return tmp_path / "e.toml"


def _by_hand(tmp_path, *steps):
    """NestedCV's outer scores of the pipeline of ``steps`` and LogisticRegression, built
    with scikit-learn's (or imbalanced-learn's) own make_pipeline."""
    frame = pd.read_csv(tmp_path / "data.csv")
    X, y = frame.drop(columns="label"), frame["label"]
    if any(hasattr(step, "fit_resample") for step in steps):
        from imblearn.pipeline import make_pipeline
    else:
        from sklearn.pipeline import make_pipeline
    nested = NestedCV(
        make_pipeline(*steps, LogisticRegression()),
        {"logisticregression__C": [0.1, 1.0]},
        outer_cv=3,
        n_refits=1,
        refit=False,
        random_state=0,
    )
    return nested.fit(X, y).outer_scores_


def _scores(result):
    return [fold["test_score"] for fold in result.results["lr"]["outer_results"]]


def test_a_boolean_mask_selects_the_columns_it_marks(tmp_path):
    # [true, false, true] on colour, x, site: colour and site, as scikit-learn reads it (it
    # was read as the positions [1, 0, 1], so site seemed to reach the model as text)
    path = _write(tmp_path, _encoder("[true, false, true]"))
    result = run_experiment(path)
    encoder = ColumnTransformer(
        [("onehot", OneHotEncoder(handle_unknown="ignore"), [True, False, True])],
        remainder="passthrough",
    )
    np.testing.assert_allclose(_scores(result), _by_hand(tmp_path, encoder))


def test_a_sampler_before_the_encoder_passes_the_columns_to_it(tmp_path):
    imblearn = pytest.importorskip("imblearn")
    path = _write(tmp_path, SAMPLER, _encoder('["colour", "site"]'))
    result = run_experiment(path)
    encoder = ColumnTransformer(
        [("onehot", OneHotEncoder(handle_unknown="ignore"), ["colour", "site"])],
        remainder="passthrough",
    )
    sampler = imblearn.over_sampling.RandomOverSampler(random_state=0)
    np.testing.assert_allclose(_scores(result), _by_hand(tmp_path, sampler, encoder))


@pytest.mark.parametrize(
    "steps, unencoded",
    [
        # a mask that leaves site out: site reaches the model as text
        ((_encoder("[true, false, false]"),), ["site"]),
        # an imputer first is judged as the first step, as the guide says
        ((IMPUTER, _encoder('["colour", "site"]')), ["colour", "site"]),
        # a sampler with nothing after it that encodes
        ((SAMPLER,), ["colour", "site"]),
        ((SAMPLER, _encoder('["colour"]')), ["site"]),
    ],
)
def test_text_that_reaches_the_model_is_still_refused(tmp_path, monkeypatch, steps, unencoded):
    if any("imblearn" in step for step in steps):
        pytest.importorskip("imblearn")
    path = _write(tmp_path, *steps)
    monkeypatch.setattr(NestedCV, "fit", lambda *a, **k: pytest.fail("fitted"))
    with pytest.raises(ExperimentConfigError, match="hold text") as info:
        run_experiment(path)
    assert f"the data's columns {unencoded} hold text" in str(info.value)
