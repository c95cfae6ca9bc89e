"""What a result keeps of the fit metadata its run was given (hunt ROUTE-2).

A NestedCV fitted with ``sample_weight`` printed the same reproducibility card, and saved
the same result, as one fitted without: two runs that differ only by their weights could not
be told apart by what the user reads and keeps. compare() refused two results weighted by
different weights with the advice to score them with one common scoring, which they were."""

import json

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import KFold

from sklearn_fair import BenchmarkResult, NestedCV
from sklearn_fair.report import reproducibility_card, result_to_dict
from sklearn_fair.report._integrity import with_checksum
from sklearn_fair.stats import compare
from sklearn_fair.utils import fingerprint
from sklearn_fair.utils._hashing import fingerprint_of_numbers

X, Y = make_classification(90, 6, n_informative=3, random_state=0, flip_y=0.2, weights=[0.7])
BALANCING = np.where(Y == 1, 3.0, 1.0)


def _run(weights=None):
    """A NestedCV whose estimator's fit and scorer request ``sample_weight``."""
    scorer = make_scorer(accuracy_score).set_score_request(sample_weight=True)
    nested = NestedCV(
        LogisticRegression().set_fit_request(sample_weight=True), {"C": [0.01, 1.0]},
        scoring=scorer, outer_cv=KFold(3, shuffle=True, random_state=0), inner_cv=3,
        n_refits=1, refit=False, random_state=0,
    )  # fmt: skip
    params = {} if weights is None else {"sample_weight": weights}
    return nested.fit(X, Y, **params)


def _fit_metadata_line(card):
    (line,) = [line for line in str(card).splitlines() if line.startswith("Fit metadata:")]
    return line


def test_the_card_names_the_weights_a_run_was_given(routing):
    # the two cards were line for line the same
    weighted, unweighted = _run(BALANCING), _run()
    line = _fit_metadata_line(reproducibility_card(weighted))
    assert line == f"Fit metadata: sample_weight {fingerprint(BALANCING)} (all models)."
    assert _fit_metadata_line(reproducibility_card(unweighted)) == (
        "Fit metadata: none (all models)."
    )
    # the metric's note (round 36) holds the start of the same fingerprint
    assert fingerprint(BALANCING).startswith(weighted.metrics_["score"].note.split()[-1])
    both = _fit_metadata_line(reproducibility_card({"w": weighted, "plain": unweighted}))
    assert both == f"Fit metadata: w: sample_weight {fingerprint(BALANCING)}; plain: none."
    other = reproducibility_card({"w": weighted, "ones": _run(np.ones(len(Y)))})
    assert fingerprint(np.ones(len(Y))) in str(other)
    assert reproducibility_card(weighted).to_dict()["fit_metadata"] == {
        "model": {"sample_weight": fingerprint(BALANCING)}
    }


def test_saved_results_keep_the_weights_and_older_ones_still_load(routing, tmp_path):
    weighted = _run(BALANCING)
    saved = json.loads(json.dumps(result_to_dict(weighted)))
    assert saved["fit_metadata"] == {"sample_weight": fingerprint(BALANCING)}
    expected = _fit_metadata_line(reproducibility_card(weighted))
    assert _fit_metadata_line(reproducibility_card(saved)) == expected
    # BenchmarkResult.save and load
    path = BenchmarkResult.from_results({("data", "model"): weighted}).save(tmp_path / "b.json")
    (cell,) = BenchmarkResult.load(path).cells.values()
    assert cell.fit_metadata == {"sample_weight": fingerprint(BALANCING)}
    assert _fit_metadata_line(reproducibility_card({"model": cell})) == expected
    # a result saved before the fit metadata were recorded loads, and says so
    older = {key: value for key, value in saved.items() if key not in ("fit_metadata", "checksum")}
    card = reproducibility_card(with_checksum(older))
    assert _fit_metadata_line(card) == "Fit metadata: not recorded (all models)."


def test_compare_refusal_of_two_weightings_names_the_weights(routing):
    # it advised "Score them with one common 'scoring'", which both already were
    with pytest.raises(ValueError, match="different metrics") as error:
        compare({"A": _run(BALANCING), "B": _run(np.ones(len(Y)))})
    message = str(error.value)
    assert "the same sample_weight" in message
    assert "the same unweighted scorer" in message
    assert "common 'scoring'" not in message
    for weights in (BALANCING, np.ones(len(Y))):
        assert fingerprint(weights)[: len("sha256:") + 12] in message


def test_a_benchmark_of_two_weightings_gives_the_same_advice(routing):
    # BenchmarkResult's own check of one metric per data set said "score them with one common
    # 'scoring'" too; both read the one advice of the metrics module
    cells = {("data", "A"): _run(BALANCING), ("data", "B"): _run(np.ones(len(Y)))}
    with pytest.raises(ValueError, match="different metrics under one name") as error:
        BenchmarkResult.from_results(cells).table()
    message = str(error.value)
    assert "fit and score every result with the same sample_weight" in message
    assert "common 'scoring'" not in message


@pytest.mark.parametrize(
    "container",
    [
        lambda w: __import__("pandas").Series(w, name="weight"),
        lambda w: w.astype(np.float32),
        lambda w: w.astype(int).tolist(),
    ],
    ids=["named Series", "float32", "list of ints"],
)
def test_the_same_weights_in_another_container_are_one_weighting(routing, container):
    # a Series (or a list, or float32) of the same numbers as an array was another
    # fingerprint: compare() refused two results with identical weighted scores, saying
    # their scorers were given different sample_weight (hunt DOC13)
    as_array, other = _run(BALANCING), _run(container(BALANCING))
    np.testing.assert_array_equal(other.outer_scores_, as_array.outer_scores_)
    metric, expected = other.metrics_["score"], as_array.metrics_["score"]
    assert (metric.name, metric.note) == (expected.name, expected.note)
    assert _fit_metadata_line(reproducibility_card(other)) == _fit_metadata_line(
        reproducibility_card(as_array)
    )
    table = compare({"a": as_array, "b": other}).table
    assert table["mean_difference"][0] == 0.0


class _LiveConnection:
    """A fit parameter that cannot be pickled (a logger holding a connection)."""

    def __reduce__(self):
        raise RuntimeError("this logger holds a live connection")


class _WithCallback(ClassifierMixin, BaseEstimator):
    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y, callback=None):
        self.model_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def test_a_fit_parameter_that_cannot_be_pickled_is_recorded_by_its_type(routing):
    # review37: fingerprinting it raised after every fit had run, and the run was lost
    nested = NestedCV(
        _WithCallback().set_fit_request(callback=True), {"C": [0.1, 1.0]}, outer_cv=3,
        inner_cv=3, n_refits=1, random_state=0,
    )  # fmt: skip
    nested.fit(X, Y, callback=_LiveConnection())
    line = _fit_metadata_line(reproducibility_card(nested))
    assert line == "Fit metadata: callback a _LiveConnection, not fingerprinted (all models)."


def test_numbers_of_other_shapes_are_other_records():
    # review37: raveled, a 2 x 3 and a 3 x 2 array of one order were one record
    values = np.arange(6.0)
    assert fingerprint_of_numbers(values.reshape(2, 3)) != fingerprint_of_numbers(
        values.reshape(3, 2)
    )
    assert fingerprint_of_numbers(values.reshape(6, 1)) == fingerprint_of_numbers(values)


def test_signed_zeros_are_one_weight_and_tiny_weights_keep_their_order():
    # hunt DOC15-3: -0.0 and 0.0 weigh alike (numpy: -0.0 == 0.0) but were two records;
    # 1e-50 and 2e-50, which float32 makes 0, made [1e-50, 2e-50], [2e-50, 1e-50] and [0, 0]
    # one record, three weightings (normalised: [1, 2], [2, 1], none)
    assert np.array_equal([-0.0, 1.0], [0.0, 1.0])
    assert fingerprint_of_numbers([-0.0, 1.0]) == fingerprint_of_numbers([0.0, 1.0])
    tiny = [[1e-50, 2e-50], [2e-50, 1e-50], [0.0, 0.0], [1e-40, 2e-40]]  # 1e-40: subnormal
    assert len({fingerprint_of_numbers(weights) for weights in tiny}) == len(tiny)
    # what float32 holds as a normal number is rounded as before
    assert fingerprint_of_numbers([0.7, 1e-30]) == fingerprint_of_numbers(
        np.array([0.7, 1e-30], dtype=np.float32)
    )


def test_compare_advises_the_same_weights_for_a_weighted_and_an_unweighted_result(routing):
    # the two names differ ("accuracy weighted by sample_weight", "accuracy"), and compare()
    # advised passing 'scoring', which cannot make the two alike: both were scored by the key
    # "score"; the difference is the weights (hunt ROUTE-2, left over)
    with pytest.raises(ValueError, match="different metrics") as error:
        compare({"weighted": _run(BALANCING), "plain": _run()})
    message = str(error.value)
    assert "fit and score every result with the same sample_weight" in message
    assert "'scoring' parameter" not in message
    assert fingerprint(BALANCING)[: len("sha256:") + 12] in message


@pytest.mark.parametrize("malformed", ["sample_weight sha256:0", ["sample_weight"], {"w": 3}])
def test_a_saved_result_with_malformed_fit_metadata_is_refused(routing, malformed):
    # a file whose fit_metadata was a text, a list or a number per name (its checksum made
    # anew) loaded, and the card said "Fit metadata: not recorded": what the file said was lost
    saved = json.loads(json.dumps(result_to_dict(_run(BALANCING))))
    saved["fit_metadata"] = malformed
    del saved["checksum"]
    with pytest.raises(ValueError, match="fit_metadata that is not text per fit parameter"):
        reproducibility_card(with_checksum(saved))


def test_a_benchmark_of_a_weighted_and_an_unweighted_cell_advises_the_same_weights(routing):
    # it said only "were scored with different metrics [...]" (review38), where compare()
    # advises the same sample_weight
    cells = {("data", "A"): _run(BALANCING), ("data", "B"): _run()}
    with pytest.raises(ValueError, match="different metrics") as error:
        BenchmarkResult.from_results(cells).table()
    assert "fit and score every result with the same sample_weight" in str(error.value)
