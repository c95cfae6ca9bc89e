"""The tabular demo: named metric, Student t intervals, and compare() deciding the winner."""

import importlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sklearn_fair import _demo
from sklearn_fair.stats import compare


@pytest.fixture(scope="module")
def demo_run():
    models = _demo.demo_models()
    small = {  # two candidates each: the printed form, not the search, is under test
        name: (estimator, {key: values[2:4] for key, values in grid.items()})
        for name, (estimator, grid) in models.items()
    }
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_demo, "demo_models", lambda: small)
        results = _demo.run_demo(outer_cv=3, file=out)
    return results, out.getvalue()


def test_each_model_prints_its_metric_and_a_named_t_interval(demo_run):
    results, text = demo_run
    for name, nested in results.items():
        block = text[text.index(name + "\n") :]
        scores = nested.outer_scores_
        # Nadeau and Bengio's corrected resampled t, from scipy's t (NestedCV.summary()'s)
        folds = nested.outer_results_
        n_train = np.mean([len(f["train_indices"]) for f in folds])
        n_test = np.mean([len(f["test_indices"]) for f in folds])
        scale = np.sqrt(1 / 3 + n_test / n_train) * np.std(scores, ddof=1)
        low, high = stats.t.interval(0.95, 2, loc=scores.mean(), scale=scale)
        low, high = max(low, 0.0), min(high, 1.0)  # an accuracy's interval stays in [0, 1]
        # the labels are padded to the longest, the interval's: its level and its method
        label = "95% corrected-t interval"
        width = len(label) + 2
        assert f"{'test accuracy':<{width}}{scores.mean():.4f} +/- {np.std(scores):.4f}" in block
        assert f"  {label:<{width}}[{low:.4f}, {high:.4f}] (corrected resampled t (Nadeau" in block
        assert f"{'validation accuracy':<{width}}{nested.validation_scores_.mean():.4f}" in block
    assert "normal, of the mean" not in text


def test_the_refits_printed_are_those_each_fold_trained(demo_run):
    results, text = demo_run
    nested = results["logistic regression"]
    # each fold's refits: the seeds that trained a model there (the probe may leave some)
    trained = [len(fold["refit_seeds"]) for fold in nested.outer_results_]
    # each fold's first two refits found its seed inert (lbfgs): each kept those two
    assert trained == [2] * len(trained)
    assert len(nested.refit_seeds_) == 3  # planned: what the demo printed
    line = next(x for x in text[text.index("logistic regression\n") :].splitlines()
                if "refits per fold" in x)  # fmt: skip
    assert line.split("refits per fold")[1].strip() == "2"


def test_the_winner_is_decided_by_compare(demo_run):
    results, text = demo_run
    table = compare(results)
    assert "Which model is better? compare() on the 3 paired outer-fold accuracy scores" in text
    difference = table["mean_difference"][0]
    # as the report prints them: two significant digits of the smallest std of the fold scores
    spread = min(s for s in (np.std(r.outer_scores_) for r in results.values()) if s > 0)
    d = 1 - int(np.floor(np.log10(spread)))
    assert (
        f"logistic regression - k-nearest neighbours: {difference:+.{d}f} accuracy, 95% interval "
        f"[{table['ci_low'][0]:+.{d}f}, {table['ci_high'][0]:+.{d}f}]" in text
    )
    verdict = table["verdict"][0]
    assert f"  -> {verdict}" in text
    if verdict == "difference not demonstrated":
        assert "do not show either model to be better" in text


# --- the README --------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def _run(*args):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    ).stdout


@pytest.mark.timeout(600)
def test_the_readme_shows_what_the_demo_prints():
    """README's block is the real output of `sklearn-fair demo`, timings aside.

    When the demo's numbers change on purpose, `python tools/update_readme.py` rewrites it.
    """
    _, block, _ = _demo.split_readme((ROOT / "README.md").read_text(encoding="utf-8"))
    output = _run("-m", "sklearn_fair", "demo")
    assert "(... s)" in _demo.mask_times(output)  # the timings are masked, nothing else
    assert _demo.mask_times(block) == _demo.mask_times(_demo.readme_block(output)), (
        "README.md's demo block is stale: run python tools/update_readme.py"
    )


def test_a_stale_readme_block_is_caught():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    before, block, after = _demo.split_readme(readme)
    stale = re.sub(r"(test accuracy +)0\.", r"\g<1>1.", block, count=1)
    assert stale != block
    assert _demo.mask_times(stale) != _demo.mask_times(block)
    assert _demo.split_readme(before + stale + after)[1] == stale
    with pytest.raises(ValueError, match="no demo block"):
        _demo.split_readme("# no block here")


def _dotted_names(text):
    return sorted(set(re.findall(r"`(sklearn_fair(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`", text)))


@pytest.mark.parametrize("page", ["README.md", "DEVELOPERS.md", "docs/getting_started.rst"])
def test_the_names_the_docs_give_exist(page):
    names = _dotted_names((ROOT / page).read_text(encoding="utf-8"))
    missing = []
    for name in names:
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            try:
                for attribute in parts[cut:]:
                    obj = getattr(obj, attribute)
            except AttributeError:
                missing.append(name)
            break
        else:
            missing.append(name)
    assert missing == []
    if page == "README.md":
        assert "sklearn_fair.leakage.audit" in names


def test_install_lines_name_no_unpublished_package():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.rst"))]
    offending = [
        f"{page.relative_to(ROOT)}: {match.group(0)}"
        for page in pages
        for match in re.finditer(
            r"pip\s+install\s+[\"']?sklearn-fair\S*", page.read_text(encoding="utf-8")
        )
    ]
    assert offending == []
