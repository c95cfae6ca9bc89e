"""benchmark(..., previous=...) runs the new cells under the scikit-learn configuration the
previous benchmark ran under: each cell records the global settings that change results
(``transform_output``, metadata routing...), saved with it, and an extension under others is
refused naming them; a result saved before they were recorded extends as before."""

import json
import warnings

import numpy as np
import pytest
import sklearn
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

from sklearn_fair import BenchmarkResult, benchmark
from sklearn_fair.exceptions import UncheckedResultWarning
from sklearn_fair.report._integrity import with_checksum

X, Y = make_classification(200, 6, n_informative=2, n_redundant=0, flip_y=0.1, random_state=3)
DATASETS = {"d": (X, Y)}


def _pick(Z):
    # what the pipeline learns from depends on transform_output: column x0 of a DataFrame,
    # the last two columns of an array
    return Z[["x0"]] if hasattr(Z, "columns") else Z[:, -2:]


PICKY = {"picky": make_pipeline(StandardScaler(), FunctionTransformer(_pick), LogisticRegression())}
NEW = {"lr": LogisticRegression(C=0.1)}
SETTINGS = dict(outer_cv=5, inner_cv=3, n_refits=1, random_state=0)
# scikit-learn's global settings that change what estimators compute
SETTINGS_THAT_MATTER = (
    "array_api_dispatch", "enable_metadata_routing", "sparse_interface", "transform_output",
)  # fmt: skip


def _run(models, config=None, **options):
    with sklearn.config_context(**(config or {})), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return benchmark(models, DATASETS, **{**SETTINGS, **options})


def _sklearn_scores(estimator, cell, config):
    """The reference: scikit-learn's own fit and accuracy on each of the cell's outer splits
    (a plain estimator and one refit: the cell's scores are those)."""
    with sklearn.config_context(**config):
        return [
            clone(estimator).fit(X[train], Y[train]).score(X[test], Y[test])
            for train, test in zip(cell.train_indices, cell.test_indices)
        ]


PANDAS, DEFAULT = {"transform_output": "pandas"}, {"transform_output": "default"}


@pytest.fixture(scope="module", params=["default", "pandas"])
def first(request):
    """``(config, result)``: the picky model alone, under each transform_output."""
    config = {"transform_output": request.param}
    return config, _run(PICKY, config)


def _previous(first, source, tmp_path):
    config, result = first
    if source == "file":
        result = BenchmarkResult.load(result.save(tmp_path / "first.json"))
    return config, result


@pytest.mark.parametrize("source", ["memory", "file"])
def test_an_extension_under_another_transform_output_is_refused_naming_it(first, source, tmp_path):
    then, previous = _previous(first, source, tmp_path)
    now = PANDAS if then == DEFAULT else DEFAULT
    # the previous cells are not those of the picky model under the other configuration:
    # reusing them would give a wrong number
    cell = previous.cells["d", "picky"]
    np.testing.assert_allclose(cell.scores, _sklearn_scores(PICKY["picky"], cell, then))
    assert not np.allclose(cell.scores, _sklearn_scores(PICKY["picky"], cell, now))
    with pytest.raises(ValueError) as error:
        _run(NEW, now, previous=previous)
    message = str(error.value)
    assert f"runs under scikit-learn's transform_output={now['transform_output']!r}" in message
    assert f"cells ran under transform_output={then['transform_output']!r}" in message
    assert f"sklearn.config_context(transform_output={then['transform_output']!r})" in message
    # under the previous configuration it extends, with the new cells that configuration gives
    extended = _run(NEW, then, previous=previous)
    for name, estimator in {**PICKY, **NEW}.items():
        cell = extended.cells["d", name]
        np.testing.assert_allclose(cell.scores, _sklearn_scores(estimator, cell, then))


def test_the_configuration_is_recorded_in_each_cell_and_its_saved_file(first, tmp_path):
    config, result = first
    path = result.save(tmp_path / "first.json")
    with sklearn.config_context(**config):
        now = sklearn.get_config()
    expected = {f"sklearn.{name}": repr(now[name]) for name in SETTINGS_THAT_MATTER}
    for fingerprints in (
        result.cells["d", "picky"].fingerprints,
        json.loads(path.read_text())["cells"][0]["fingerprints"],
        BenchmarkResult.load(path).cells["d", "picky"].fingerprints,
    ):
        assert {k: v for k, v in fingerprints.items() if k.startswith("sklearn.")} == expected


def test_metadata_routing_is_checked_too():
    previous = _run({"prior": DummyClassifier()}, {"enable_metadata_routing": True})
    with pytest.raises(ValueError, match="runs under scikit-learn's enable_metadata_routing="
                       "False, and the previous benchmark's cells ran under "
                       "enable_metadata_routing=True"):  # fmt: skip
        _run(NEW, previous=previous)


def test_a_result_saved_before_the_configuration_was_recorded_extends_as_before(tmp_path):
    document = json.loads(_run(PICKY).save(tmp_path / "first.json").read_text())
    for cell in document["cells"]:
        cell["fingerprints"] = {
            k: v for k, v in cell["fingerprints"].items() if not k.startswith("sklearn.")
        }
    old = tmp_path / "old.json"
    old.write_text(json.dumps(with_checksum(document)))
    previous = BenchmarkResult.load(old)
    # under the defaults (those it most likely ran under) as before: silently
    with warnings.catch_warnings():
        warnings.simplefilter("error", UncheckedResultWarning)
        extended = benchmark(NEW, DATASETS, previous=previous, **SETTINGS)
    cell = extended.cells["d", "lr"]
    np.testing.assert_allclose(cell.scores, _sklearn_scores(NEW["lr"], cell, DEFAULT))
    # under another configuration it extends, but says it cannot check it
    with sklearn.config_context(**PANDAS):
        with pytest.warns(UncheckedResultWarning, match="this run has transform_output='pandas'"):
            extended = benchmark(NEW, DATASETS, previous=previous, **SETTINGS)
    assert set(extended.cells) == {("d", "picky"), ("d", "lr")}
