"""A benchmark records the versions its fits ran under: its card, in memory and saved and
loaded, names them even where the packages changed after the fit; a result that records none
(NestedCVs fitted by the caller) is not saved as if the saving environment had run it."""

import json
import warnings
from importlib import metadata

import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression

from sklearn_fair import BenchmarkResult, benchmark
from sklearn_fair.exceptions import ReproducibilityWarning

UPGRADED = "9.9.9"
DATA = {"d": make_classification(n_samples=60, n_features=5, random_state=0)}
MODELS = {"prior": DummyClassifier(), "lr": LogisticRegression(max_iter=500)}


def _run(models=MODELS, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ties of the small data
        return benchmark(models, DATA, outer_cv=3, n_refits=1, random_state=0, **options)


def _upgrade(monkeypatch):
    """scikit-learn upgraded in place after the fit (a ``%pip install -U`` in a notebook)."""
    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda name: UPGRADED if name == "scikit-learn" else real(name)
    )


def _versions_line(card):
    return next(p for p in card.section().paragraphs if p.startswith("Versions"))


@pytest.fixture(scope="module")
def result():
    return _run()


def test_a_saved_benchmark_s_card_names_the_versions_its_fits_ran_under(
    result, tmp_path, monkeypatch
):
    assert sklearn.__version__ != UPGRADED
    _upgrade(monkeypatch)
    path = result.save(tmp_path / "upgraded.json")
    monkeypatch.undo()
    card = BenchmarkResult.load(path).report(n_resamples=20).card
    assert card.versions_recorded
    assert card.versions["scikit-learn"] == sklearn.__version__  # the one that ran the fits
    line = _versions_line(card)
    assert line.startswith("Versions (recorded with the results)")
    assert UPGRADED not in line


def test_the_card_of_a_benchmark_in_memory_names_the_versions_of_its_fits(result, monkeypatch):
    _upgrade(monkeypatch)
    card = result.report(n_resamples=20).card
    assert card.versions_recorded
    assert card.versions["scikit-learn"] == sklearn.__version__
    assert UPGRADED not in _versions_line(card)


def test_a_saved_result_that_records_no_versions_does_not_claim_the_saver_s(fitted, tmp_path):
    path = BenchmarkResult.from_results({("d", k): v for k, v in fitted.items()}).save(
        tmp_path / "by_hand.json"
    )
    document = json.loads(path.read_text())
    # the saving environment's are still written (readers of the old format read them) ...
    assert document["versions"]["scikit-learn"] == sklearn.__version__
    # ... but no cell takes them as its own
    assert all(cell["versions"] == {} for cell in document["cells"])
    loaded = BenchmarkResult.load(path)
    assert all(cell.versions == {} for cell in loaded.cells.values())
    card = loaded.report(n_resamples=20).card
    assert not card.versions_recorded
    line = _versions_line(card)
    assert line.startswith("Versions of the environment that printed this card")
    assert "recorded with the results" not in line


def test_extending_a_result_fitted_before_an_upgrade_warns(result, monkeypatch):
    _upgrade(monkeypatch)
    with pytest.warns(ReproducibilityWarning, match=rf"scikit-learn {sklearn.__version__} "
                                                    rf"where this run has {UPGRADED}"):  # fmt: skip
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, message="(?!The previous)")
            benchmark({**MODELS, "stratified": DummyClassifier(strategy="stratified")}, DATA,
                      outer_cv=3, n_refits=1, random_state=0, previous=result)  # fmt: skip


def test_extending_a_result_of_the_same_versions_in_memory_gives_no_warning(result):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReproducibilityWarning)
        extended = _run({**MODELS, "uniform": DummyClassifier(strategy="uniform")},
                        previous=result)  # fmt: skip
    card = extended.report(n_resamples=20).card
    assert card.versions_recorded and card.versions["scikit-learn"] == sklearn.__version__
