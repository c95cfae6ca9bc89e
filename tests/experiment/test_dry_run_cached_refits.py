"""Hunt CLI2-4: a dry run after a complete run said its estimate was "extrapolated to the 8
fits not in the task cache" where every fit of the run was cached: a fold's refit is cached
for the candidate it selected, which the dry run does not know. It now says it cannot
confirm them."""

from sklearn_fair.experiment import dry_run, run_experiment

N_OUTER, N_INNER, N_CANDIDATES = 3, 2, 2
EXPERIMENT = f"""\
[experiment]
name = "cached"
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


def test_refits_the_dry_run_cannot_confirm_are_not_said_to_be_uncached(tmp_path):
    path = tmp_path / "cached.toml"
    path.write_text(EXPERIMENT)
    run_experiment(path)
    report = dry_run(path, timing=True, n_timed=1, sample_size=16)
    (found,) = report.cached.values()
    # every selection fit is cached; each fold's refit is cached for its winner only
    assert report.cached_fits == N_OUTER * N_CANDIDATES * N_INNER
    assert found.maybe_refits == N_OUTER
    basis = report.estimates["tree"].basis
    assert f"the {N_OUTER} fits not in the task cache at" not in basis
    assert (
        f"extrapolated to the {N_OUTER} fits not in the task cache or that the dry run cannot "
        f"confirm are cached ({N_OUTER} refits, each cached for some of the candidates its "
        "fold may select, not all) at their training sizes"
    ) in basis
