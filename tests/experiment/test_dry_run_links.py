"""Hunt HOSTILE2-1: after a run, each subfolder of its task cache moved elsewhere and linked
back, a dry run said "12 of them already in the cache" where the run refuses every entry
("its folder is a symbolic link") and computes them again. The dry run now counts what the
run would serve."""

from pathlib import Path

from sklearn_fair.experiment import dry_run, run_experiment

N_OUTER, N_INNER, N_CANDIDATES = 3, 2, 2
EXPERIMENT = f"""\
[experiment]
name = "links"
output_dir = "out"
random_state = 0
progress = false

[data]
dataset = "sklearn:iris"

[protocol]
outer_cv = {N_OUTER}
inner_cv = {N_INNER}
n_refits = 1

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = {{ max_depth = [1, 2] }}
"""


def test_entries_under_a_linked_subfolder_are_not_counted_as_cached(tmp_path):
    path = tmp_path / "links.toml"
    path.write_text(EXPERIMENT)
    run_experiment(path)
    cache = tmp_path / "out" / "cache"
    # every selection fit is in the cache: 3 outer folds x 2 candidates x 2 inner splits
    assert dry_run(path).cached_fits == N_OUTER * N_CANDIDATES * N_INNER
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folders = [folder for folder in cache.iterdir() if folder.is_dir() and len(folder.name) == 2]
    assert folders
    for folder in folders:
        moved = Path(folder.rename(elsewhere / folder.name))
        folder.symlink_to(moved, target_is_directory=True)
    assert dry_run(path).cached_fits == 0
