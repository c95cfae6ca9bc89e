"""Auditing a cache by recomputation (issue 28, item 6): a plausible forgery is found."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.exceptions import CacheWarning
from sklearn_fair.model_selection import verify_cache
from sklearn_fair.model_selection._nested._cache import _checksum

X, y = make_classification(n_samples=60, n_features=5, random_state=0)


def nested(cache):
    return NestedCV(
        DecisionTreeClassifier(),  # seeded by the run, so its refits record their predictions
        {"max_depth": [1, 2]},
        outer_cv=3,
        inner_cv=2,
        n_refits=2,
        random_state=0,
        refit=False,
        cache_dir=cache,
    )


def entries(directory, phase=None):
    found = []
    for path in sorted(Path(directory).glob("*/*.json")):
        entry = json.loads(path.read_text())
        if phase is None or entry["key"]["phase"] == phase:
            found.append((path, entry))
    return found


def forge(path, entry, **changes):
    entry["payload"].update(changes)
    entry["checksum"] = _checksum(entry["payload"], entry["key"])  # as a forger can
    path.write_text(json.dumps(entry))


@pytest.fixture
def cache(tmp_path):
    nested(tmp_path / "cache").fit(X, y)
    return tmp_path / "cache"


def snapshot(directory):
    return {p: p.read_bytes() for p in Path(directory).rglob("*") if p.is_file()}


def test_a_clean_cache_verifies_and_is_not_written(cache):
    before = snapshot(cache)
    audit = verify_cache(nested(cache), X, y, sample=1.0, random_state=0)
    assert audit.ok and not audit.differences
    assert audit.n_entries == audit.n_recomputed == len(entries(cache)) > 12
    assert snapshot(cache) == before


def test_a_plausible_forgery_on_one_refit_is_served_but_found(cache):
    # a refit of the probe (the first fold's two refits) would change how many refits run
    # when forged; take the first refit whose forgery changes nothing else
    for path, entry in entries(cache, "refit"):
        original = path.read_text()
        true_score = entry["payload"]["scores"]["score"]
        assert true_score < 0.999
        forge(path, entry, scores={"score": 0.999})
        # it passes every check of type and range: a run serves it without a word...
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheWarning)
            served = nested(cache).fit(X, y)
        if served.cache_info_["computed"] == 0:
            break
        path.write_text(original)
    assert served.cache_info_["computed"] == 0
    assert 0.999 in np.concatenate([f["test_scores"] for f in served.outer_results_])
    # ...and recomputing tells it
    audit = verify_cache(nested(cache), X, y, sample=1.0, random_state=0)
    assert not audit.ok
    assert [d["path"] for d in audit.differences] == [str(path)]
    difference = audit.differences[0]
    assert difference["stored"]["scores"] == {"score": 0.999}
    assert difference["recomputed"]["scores"] == {"score": true_score}
    assert "refit fit" in difference["task"] and str(path) in str(audit)


def test_forged_scores_on_every_refit_and_selection_scores_are_all_found(cache):
    forged = []
    for path, entry in entries(cache, "refit"):
        forge(path, entry, scores={"score": 0.999})
        forged.append(str(path))
    for path, entry in entries(cache, "selection"):
        if entry["payload"]["scores"]["score"] != 1.0:
            forge(path, entry, scores={"score": 1.0})  # changes the winners
            forged.append(str(path))
    audit = verify_cache(nested(cache), X, y, sample=1.0, random_state=0)
    assert sorted(d["path"] for d in audit.differences) == sorted(forged)


def test_forged_predictions_under_a_valid_checksum_are_found(cache):
    path, entry = entries(cache, "refit")[0]
    forge(path, entry, predictions="sha256:" + "ab" * 32)
    audit = verify_cache(nested(cache), X, y, sample=1.0, random_state=0)
    assert [d["path"] for d in audit.differences] == [str(path)]


def test_an_entry_failing_its_checks_is_reported(cache):
    path, entry = entries(cache, "refit")[0]
    forge(path, entry, scores={"score": 1.5})
    audit = verify_cache(nested(cache), X, y, sample=0.5, random_state=0)
    assert not audit.ok
    assert audit.rejected == [(str(path), "the score 'score' is 1.5, outside its range [0.0, 1.0]")]


def test_a_sample_is_drawn_by_its_seed(cache):
    total = len(entries(cache))
    first = verify_cache(nested(cache), X, y, sample=0.4, random_state=1)
    again = verify_cache(nested(cache), X, y, sample=0.4, random_state=1)
    other = verify_cache(nested(cache), X, y, sample=0.4, random_state=2)
    assert 0 < first.n_recomputed < total and first.n_entries == total
    assert first.n_recomputed == again.n_recomputed
    assert first.ok and other.ok
    # the draws are independent per entry: the count is binomial(total, 0.4), far from 0 and total
    counts = [
        verify_cache(nested(cache), X, y, sample=0.4, random_state=s).n_recomputed
        for s in range(3, 6)
    ]
    assert all(0 < c < total for c in counts)


@pytest.mark.parametrize("sample", [0, 1.5, -0.1, True, "0.1", None])
def test_a_bad_sample_is_refused(cache, sample):
    with pytest.raises(ValueError, match="'sample' parameter of verify_cache.*Got"):
        verify_cache(nested(cache), X, y, sample=sample)


def test_an_estimator_without_cache_is_refused():
    with pytest.raises(ValueError, match="'estimator' parameter of verify_cache.*cache_dir"):
        verify_cache(nested(None), X, y)


def test_a_cache_of_other_data_verifies_nothing_and_says_so(cache):
    audit = verify_cache(nested(cache), X[::-1], y[::-1], sample=1.0, random_state=0)
    assert audit.n_entries == 0 and not audit.ok
    assert "NOTHING VERIFIED" in str(audit)


def test_each_entry_is_drawn_by_its_name_not_by_the_order_it_is_met(cache):
    # every refit forged: the sampled ones are found; with the same seed the same entries are
    # sampled whether the run meets them in one worker or in two
    for path, entry in entries(cache, "refit"):
        forge(path, entry, scores={"score": 0.999})

    def sampled(n_jobs, seed):
        audit = verify_cache(
            nested(cache).set_params(n_jobs=n_jobs), X, y, sample=0.5, random_state=seed
        )
        return sorted(d["path"] for d in audit.differences)

    # the entries' names hold the source's fingerprint, so which seed samples some but not
    # all of the few refits changes with every edit of sklearn-fair: take the first that does
    n_refits = len(entries(cache, "refit"))
    seed = next(s for s in range(3, 40) if 0 < len(sampled(1, s)) < n_refits)
    assert sampled(1, seed) == sampled(2, seed)
