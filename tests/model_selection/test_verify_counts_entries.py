"""``verify_cache`` and ``sklearn-fair cache verify`` count the cache's entries, not the run's
tasks: tasks of equal parameters (a grid that lists a value twice, two models that make the
same fit) share one entry, which is found, recomputed and reported once."""

import json
import re
from pathlib import Path

import pytest
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import NestedCV
from sklearn_fair.cli import main
from sklearn_fair.model_selection import verify_cache


def entry_files(cache):
    """The entry files on disk: the independent count (the manifest is not an entry)."""
    return sorted(Path(cache).glob("*/*.json"))


@pytest.fixture
def repeated(tmp_path):
    # the candidate max_depth=2 twice: 3 outer x 2 inner x 3 candidates + 3 refits = 21
    # tasks, of 3 x 2 x 2 + 3 = 15 entries
    X, y = load_iris(return_X_y=True)
    nested = NestedCV(
        DecisionTreeClassifier(),
        {"max_depth": [1, 2, 2]},
        outer_cv=3,
        inner_cv=2,
        n_refits=1,
        refit=False,
        random_state=0,
        cache_dir=tmp_path / "cache",
    ).fit(X, y)
    return nested, X, y


def test_a_repeated_candidate_is_counted_once(repeated):
    nested, X, y = repeated
    files = entry_files(nested.cache_dir)
    assert len(files) == 15
    audit = verify_cache(nested, X, y, sample=1.0, random_state=0)
    assert audit.ok
    assert audit.n_entries == len(files)
    assert audit.entry_names == {path.stem for path in files}
    assert audit.n_recomputed == len(files)
    head = f"Cache {str(nested.cache_dir)!r}: 15 entries found, 15 recomputed, 0 differ"
    assert str(audit).startswith(head)


def test_a_shared_entry_that_fails_its_checks_is_listed_once(repeated):
    nested, X, y = repeated
    files = entry_files(nested.cache_dir)
    shared = [
        path
        for path in files
        if json.loads(path.read_text())["key"]["phase"] == "selection"
        and ["max_depth", 2] in json.loads(path.read_text())["key"]["estimator"]["params"]["dict"]
    ]
    assert len(shared) == 6  # 3 outer x 2 inner, each met by two candidates
    shared[0].write_text("{not json")
    audit = verify_cache(nested, X, y, sample=1.0, random_state=0)
    assert [path for path, _ in audit.rejected] == [str(shared[0])]
    assert audit.n_entries == len(files) - 1


EXPERIMENT = """\
[experiment]
output_dir = "out"
cache_dir = "cache"
random_state = 0
progress = false

[data.first]
dataset = "sklearn:iris"

[data.second]
dataset = "sklearn:wine"

[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 2, 2] }

[models.same]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 2] }
"""


def test_the_cells_counts_add_up_and_shared_entries_are_said(tmp_path, capsys):
    (tmp_path / "e.toml").write_text(EXPERIMENT)
    assert main(["run", str(tmp_path / "e.toml")]) == 0
    capsys.readouterr()
    files = entry_files(tmp_path / "cache")
    # per data set 3 x 2 x 2 selection fits + 3 refits, made alike by both models
    assert len(files) == 2 * 15
    assert main(["cache", "verify", str(tmp_path / "cache"), "--sample", "1"]) == 0
    out = capsys.readouterr().out
    cells = dict(re.findall(r"\[(\w+/\w+)\] Cache '[^']*': (\d+) entries found", out))
    assert cells == {f"{d}/{m}": "15" for d in ("first", "second") for m in ("tree", "same")}
    # the folder's first line checks the entries; the cells' lines recompute them
    first = out.splitlines()[0]
    assert first == (
        f"Cache {str(tmp_path / 'cache')!r}: 30 entries passed their checks, 0 failed them "
        "(checked, none recomputed)."
    )
    assert (
        "The cells' counts add up to 60 entries, 30 of them distinct: cells that make the same "
        "fit (the same data, parameters and seeds) share its entry, counted in each of them."
    ) in out
