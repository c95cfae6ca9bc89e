"""A result saved with result_to_dict keeps its tuning budget: the report of the saved result
prints the candidates, inner fits and searches that the fitted one prints."""

import json

import pytest

from sklearn_fair.exceptions import InvalidResultError
from sklearn_fair.report import nested_cv_report, result_to_dict, verify_result
from sklearn_fair.report._integrity import with_checksum

COLUMNS = ["n_candidates", "n_inner_fits", "n_searches"]


def _saved(fitted):
    return {name: json.loads(json.dumps(result_to_dict(r))) for name, r in fitted.items()}


def test_the_budget_survives_a_json_round_trip(fitted):
    fitted_budget = nested_cv_report(fitted, n_resamples=20).result.budget
    saved_budget = nested_cv_report(_saved(fitted), n_resamples=20).result.budget
    # independent: each grid has 2 candidates, each fitted on every inner split of every fold
    for nested in fitted.values():
        n_inner = sum(
            1 for key in nested.cv_results_ if key.startswith("split") and key.endswith("_score")
        )
        n_outer = len(nested.outer_results_)
        assert len(nested.cv_results_["params"]) == 2 * n_outer and n_inner >= 1
    assert saved_budget[COLUMNS].notna().all().all()
    assert saved_budget[COLUMNS].to_dict() == fitted_budget[COLUMNS].to_dict()
    assert (saved_budget["n_candidates"] == 2).all()


def test_the_budgets_section_prints_the_saved_counts(fitted):
    def columns(report):
        section = next(s for s in report.sections() if s.title == "Tuning budgets")
        return [getattr(c, "text", c) for c in section.columns]

    saved = columns(nested_cv_report(_saved(fitted), n_resamples=20))
    assert {"candidates", "inner fits"} <= set(saved)
    assert saved == columns(nested_cv_report(fitted, n_resamples=20))


def test_a_budget_that_is_not_counts_is_refused(fitted):
    saved = _saved(fitted)["knn"]
    saved.pop("checksum")
    saved["budget"] = {"n_candidates": -2}
    with pytest.raises(InvalidResultError, match="budget"):
        verify_result(with_checksum(saved), source="edited")
