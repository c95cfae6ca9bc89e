"""The command prints each distinct warning once, as its own, wherever it was raised."""

import re
import subprocess
import sys

import numpy as np

EXPERIMENT = """\
[experiment]
random_state = 0
[benchmark]
baseline = "prior"
[data.neg]
dataset = "csv"
path = "neg.csv"
target = "label"
[data.pos]
dataset = "csv"
path = "pos.csv"
target = "label"
[data.iris]
dataset = "sklearn:iris"
[protocol]
outer_cv = 3
inner_cv = 2
n_refits = 1
[models.nb]
estimator = "sklearn.naive_bayes.MultinomialNB"
grid = { alpha = [0.1, 1.0] }
[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
grid = { max_depth = [1, 3] }
[models.prior]
estimator = "sklearn.dummy.DummyClassifier"
"""


def _write_data(folder):
    # MultinomialNB fails on every fold of "neg" (negative features): the comparisons across
    # data sets leave it out, each saying so in a MissingCellsWarning
    rng = np.random.default_rng(0)
    for name, n, low in (("neg", 60, -3.0), ("pos", 120, 0.0)):
        X = rng.uniform(low, 3.0, size=(n, 4))
        labels = np.where(X[:, 0] + rng.normal(size=n) > low / 2 + 1.5, "yes", "no")
        rows = [",".join([*map(str, x), label]) for x, label in zip(X, labels)]
        (folder / f"{name}.csv").write_text("\n".join(["a,b,c,d,label", *rows]) + "\n")


def test_each_warning_is_printed_once_as_the_commands_own(tmp_path):
    # MissingCellsWarning was printed 8 times for 3 messages: each output writer read the
    # comparisons again, and the report's cached ranks were blamed on functools.py:1001
    _write_data(tmp_path)
    (tmp_path / "b.toml").write_text(EXPERIMENT)
    code = (
        "import sys; from sklearn_fair.cli import main; "
        "sys.exit(main(['run', 'b.toml', '--output-dir', 'out', '--allow-failures']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "report.md").is_file()
    lines = [line for line in done.stderr.splitlines() if "MissingCellsWarning" in line]
    prefix = "sklearn-fair: MissingCellsWarning: "
    assert lines and all(line.startswith(prefix) for line in lines), done.stderr
    methods = sorted(re.match(r"(\w+) leaves out", line[len(prefix) :])[1] for line in lines)
    assert methods == ["aggregate", "compare_across", "rank_comparison"], done.stderr
    assert "functools" not in done.stderr and len(set(lines)) == len(lines), done.stderr
