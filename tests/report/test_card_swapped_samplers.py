"""The card's "resampling of training rows" names the samplers each outer fold's refits ran:
a grid that swaps the sampler step puts its selected value in place of the model's own, and
each sampler is counted in the folds that selected it (hunt SAMPLERS, SAMPLERS-1)."""

import warnings
from collections import Counter

import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV, benchmark
from sklearn_fair.report import reproducibility_card, result_to_dict
from sklearn_fair.report._card import cards_of_datasets

imblearn = pytest.importorskip("imblearn")
from imblearn.over_sampling import RandomOverSampler  # noqa: E402
from imblearn.pipeline import Pipeline, make_pipeline  # noqa: E402
from imblearn.under_sampling import RandomUnderSampler  # noqa: E402

X, y = make_classification(n_samples=200, weights=[0.85], random_state=3, n_features=6, flip_y=0.05)
OUTER = StratifiedKFold(5, shuffle=True, random_state=1)
SETTINGS = dict(inner_cv=3, scoring="balanced_accuracy", random_state=0, n_refits=1, n_jobs=1)
ITEM = "resampling of training rows"


def _fit(model, grid):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return NestedCV(model, grid, outer_cv=OUTER, **SETTINGS).fit(X, y)


def _row(card):
    return [row[2] for row in card.checklist if row[0] == ITEM]


def _selected(nested, step):
    """How many outer folds selected each value of ``step`` (by its repr), read off the run's
    own best_params_per_fold_."""
    return Counter(repr(params[step]) for params in nested.best_params_per_fold_)


@pytest.fixture(scope="module")
def two_candidates():
    pipe = Pipeline([("s", "passthrough"), ("c", DecisionTreeClassifier(max_depth=3))])
    grid = {"s": [RandomUnderSampler(random_state=0), RandomOverSampler(random_state=5)]}
    return _fit(pipe, grid)


@pytest.fixture(scope="module")
def own_sampler():
    return Pipeline(
        [
            ("s", RandomUnderSampler(random_state=0)),
            ("c", DecisionTreeClassifier(max_depth=3, random_state=0)),
        ]
    )


def test_each_candidate_sampler_is_counted_in_the_folds_that_selected_it(two_candidates):
    # the card said "RandomOverSampler(random_state=5) (..., selected in 5 of 5 outer folds)"
    # where 2 folds selected it, and never named the RandomUnderSampler of the other 3
    counts = _selected(two_candidates, "s")
    assert len(counts) == 2  # the run selected both: the count is worth checking
    (how,) = _row(reproducibility_card(two_candidates))
    for sampler, count in counts.items():
        assert (
            f"{sampler} (a candidate of the search space, selected in {count} of 5 outer "
            "folds) inside the training rows of each fit that tries it"
        ) in how
    assert "kept in every fit" in how and "re-draws" not in how  # both give their seed


def test_a_sampler_the_search_space_replaces_in_every_fold_is_not_named(own_sampler):
    # the card said "RandomUnderSampler(random_state=0) inside each training fold (inner and
    # outer)" where the grid put "passthrough" in its place in every fit
    nested = _fit(own_sampler, {"s": ["passthrough"]})
    assert set(_selected(nested, "s")) == {"'passthrough'"}
    card = reproducibility_card(nested)
    assert not _row(card)  # as for a model without a sampler
    assert "RandomUnderSampler" not in str(card)


def test_the_sampler_that_ran_is_named_with_its_own_seed(own_sampler):
    # the card named only the model's RandomUnderSampler(random_state=0), which no fit ran,
    # and said the refit seeds do not re-draw its rows
    nested = _fit(own_sampler, {"s": ["passthrough", RandomOverSampler()]})
    counts = _selected(nested, "s")
    ran = counts["RandomOverSampler()"]
    assert 0 < ran < 5  # some folds ran it, some ran none
    (how,) = _row(reproducibility_card(nested))
    assert how.startswith(
        f"RandomOverSampler() (a candidate of the search space, selected in {ran} of 5 outer "
        "folds) inside the training rows of each fit that tries it, whose random_state is None:"
        " each refit re-draws its rows with a seed from the refit seeds"
    )
    assert "RandomUnderSampler" not in how and "do not re-draw" not in how


def test_a_sampler_whose_parameters_are_tuned_is_named_as_each_fold_set_it():
    # the card printed "RandomUnderSampler(random_state=0)", the default sampling_strategy
    # that no fit used
    base = RandomUnderSampler(random_state=0)
    pipe = make_pipeline(base, DecisionTreeClassifier(max_depth=3, random_state=0))
    nested = _fit(pipe, {"randomundersampler__sampling_strategy": [0.7, 1.0]})
    counts = Counter(
        p["randomundersampler__sampling_strategy"] for p in nested.best_params_per_fold_
    )
    (how,) = _row(reproducibility_card(nested))
    for value, count in counts.items():
        sampler = repr(clone(base).set_params(sampling_strategy=value))
        assert (
            f"{sampler} (its sampling_strategy tuned by the search space, selected in {count} "
            "of 5 outer folds)"
        ) in how
    assert f"{base!r} " not in how and "inside each training fold" not in how


def test_a_seed_of_none_the_search_space_sets_is_said_to_be_re_drawn():
    # the card said "whose random_state the search space sets (selected: None, 1): kept in
    # every fit of a fold, the refit seeds do not re-draw its rows" of the folds that selected
    # None, whose refits each drew with a refit seed
    pipe = make_pipeline(RandomUnderSampler(), DecisionTreeClassifier(max_depth=3, random_state=0))
    nested = _fit(pipe, {"randomundersampler__random_state": [1, None]})
    counts = Counter(p["randomundersampler__random_state"] for p in nested.best_params_per_fold_)
    assert set(counts) == {1, None}
    (how,) = _row(reproducibility_card(nested))
    assert (
        f"RandomUnderSampler() (selected in {counts[None]} of 5 outer folds) inside the "
        "training rows of each fit that tries it, whose random_state is None (set by the search "
        "space): each refit re-draws its rows with a seed from the refit seeds"
    ) in how
    assert (
        f"RandomUnderSampler(random_state=1) (selected in {counts[1]} of 5 outer folds) inside "
        "the training rows of each fit that tries it, whose random_state the search space sets "
        "(selected: 1): kept in every fit of a fold, the refit seeds do not re-draw its rows"
    ) in how


def test_a_benchmark_card_counts_the_folds_of_each_cell(own_sampler):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark(
            {"m": (own_sampler, {"s": ["passthrough", RandomOverSampler(random_state=5)]})},
            {"d": (X, y)}, outer_cv=OUTER, inner_cv=3, n_refits=1, scoring="balanced_accuracy",
            random_state=0, n_jobs=1,
        )  # fmt: skip
    params = result.cells["d", "m"].best_params
    ran = sum(isinstance(p["s"], RandomOverSampler) for p in params)
    assert len(params) == 5 and "RandomUnderSampler" not in str(params)
    assert 0 < ran < 5  # some folds ran it, some ran none
    (how,) = _row(result.report().card)
    assert f"(a candidate of the search space, selected in {ran} of 5 outer folds)" in how
    assert "RandomUnderSampler" not in how
    # a saved result holds no estimator: the card does not guess its samplers
    assert not _row(reproducibility_card(result_to_dict(result.cells["d", "m"].estimator)))


def test_the_card_of_data_sets_where_only_some_ran_a_sampler(two_candidates):
    # a data set whose card has no "resampling of training rows" row (its models ran no
    # sampler): the data sets' rows were matched by position, and the merged card (of an
    # experiment's report.html) failed with an IndexError
    pipe = Pipeline([("s", "passthrough"), ("c", DecisionTreeClassifier(random_state=0))])
    none = _fit(pipe, {"c__max_depth": [2, 3]})
    cards = {"a": reproducibility_card(two_candidates), "b": reproducibility_card(none)}
    whole = reproducibility_card({"a": two_candidates, "b": none})
    merged = cards_of_datasets(cards, whole)
    assert [row[0] for row in merged.checklist] == [row[0] for row in whole.checklist]
    ((_, answer, how),) = [row for row in merged.checklist if row[0] == ITEM]
    assert answer == "a: yes; b: no"
    assert how.startswith("a: RandomOverSampler(random_state=5) (a candidate") or how.startswith(
        "a: RandomUnderSampler(random_state=0) (a candidate"
    )
    assert how.endswith("; b: none")
    # every other item as the data sets' cards give it
    checks = {row[0]: row[2] for row in cards["b"].checklist}
    assert all(how == checks[item] or "; b: " in how for item, _, how in merged.checklist[:-1])


class _NeedsTwentyRows(DecisionTreeClassifier):
    def fit(self, X, y, **params):
        if len(X) < 20:
            raise ValueError("needs 20 rows")
        return super().fit(X, y, **params)


def test_a_sampler_no_candidate_touches_runs_in_every_fold_even_one_without_a_winner():
    # outer fold 0 trains on 24 rows: its inner fits (16 rows) all fail, no candidate wins it,
    # yet the model's own sampler, which the grid never touches, ran in every fit there is
    import numpy as np

    rows = np.arange(200)
    splits = [(rows[:24], rows[160:])] + [
        (np.setdiff1d(rows, rows[k * 40 : (k + 1) * 40]), rows[k * 40 : (k + 1) * 40])
        for k in range(4)
    ]
    model = Pipeline(
        [("s", RandomUnderSampler(random_state=0)), ("c", _NeedsTwentyRows(random_state=0))]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = NestedCV(
            model, {"c__max_depth": [2, 3]}, outer_cv=splits, inner_cv=3, random_state=0,
            n_jobs=1, error_score=np.nan,
        ).fit(X, y)  # fmt: skip
    assert [fold.get("best_params") is None for fold in nested.outer_results_] == [True] + [
        False
    ] * 4
    (line,) = _row(reproducibility_card(nested))
    assert line.startswith("RandomUnderSampler(random_state=0) inside each training fold")
    assert "selected" not in line
