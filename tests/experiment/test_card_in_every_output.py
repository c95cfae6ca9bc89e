"""report.html's reproducibility card says what report.md's and reproducibility.json's say: it
was made by ``BenchmarkResult.to_html``, which has no data, so it said the splits of a splits
file were not saved, the stratification of labelled folds unknown ("no labels given") and
every fingerprint "not computed"."""

import csv
import html
import json
import re

import numpy as np
import pytest
from sklearn.datasets import load_iris

from sklearn_fair.experiment import run_experiment
from sklearn_fair.model_selection import save_splits

HEAD = """\
[experiment]
name = "cards"
output_dir = "out"
random_state = 0
progress = false
"""
IRIS = (
    '[data{name}]\ndataset = "csv"\npath = "iris.csv"\ntarget = "y"\nsplits_file = "splits.json"\n'
)
WINE = '[data{name}]\ndataset = "sklearn:wine"\n'
MODELS = """
[protocol]
outer_cv = 3
n_refits = 1

[models.tree]
estimator = "sklearn.tree.DecisionTreeClassifier"
params = { random_state = 0 }
grid = { max_depth = [1, 3] }
"""


def _write_iris(folder):
    """iris sorted by class, and 3 outer folds of which the first tests class 2 only."""
    X, y = load_iris(return_X_y=True)
    with open(folder / "iris.csv", "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["a", "b", "c", "d", "y"])
        writer.writerows([*row, label] for row, label in zip(X, y))
    rows = np.arange(150)
    tests = [rows[100:], np.r_[rows[:25], rows[50:75]], np.r_[rows[25:50], rows[75:100]]]
    save_splits([(np.setdiff1d(rows, t), t) for t in tests], folder / "splits.json", y=y)


def _html_card(page):
    """(checklist rows, paragraphs' text) of the page's reproducibility card."""
    start = page.rindex(">Reproducibility card<")  # its heading, after the contents
    section = page[start:]
    table = re.search(r"<table.*?</table>", section, re.S).group(0)
    rows = []
    for row in re.findall(r"<tr.*?</tr>", table, re.S)[1:]:
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append(tuple(html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells))
    text = html.unescape(re.sub(r"<[^>]+>", " ", section))
    return rows, " ".join(text.split())


@pytest.mark.parametrize("several", [False, True], ids=["one", "several"])
def test_report_html_card_says_what_the_data_sets_cards_say(tmp_path, several):
    _write_iris(tmp_path)
    if several:
        text = HEAD + IRIS.format(name=".iris") + WINE.format(name=".wine") + MODELS
    else:
        # one data set: the splits file is the protocol's
        iris = IRIS.format(name="").replace('splits_file = "splits.json"\n', "")
        text = HEAD + iris + MODELS.replace("outer_cv = 3", 'splits_file = "splits.json"')
    (tmp_path / "e.toml").write_text(text)
    run_experiment(tmp_path / "e.toml")
    out = tmp_path / "out"
    saved = json.loads((out / "reproducibility.json").read_text())
    cards = saved["datasets"] if several else {"iris": saved}
    rows, paragraphs = _html_card((out / "report.html").read_text())
    splits = str((tmp_path / "splits.json").resolve())
    # the truth of each data set: iris's folds come from the splits file, its first tests
    # class 2 only; wine's are StratifiedKFold's (outer_cv = 3 for a classifier)
    truth = {"iris": {"data splits saved": "yes", "stratified splits": "no"}}
    if several:
        truth["wine"] = {"data splits saved": "no", "stratified splits": "yes"}
    for dataset, answers in truth.items():
        checklist = {item: answer for item, answer, _ in cards[dataset]["checklist"]}
        for item, answer in answers.items():
            assert checklist[item] == answer, (dataset, item)
    by_item = {item: (answer, how) for item, answer, how in rows}
    assert list(by_item) == [item for item, _, _ in cards["iris"]["checklist"]]
    for item in ("data splits saved", "stratified splits"):
        answer, how = by_item[item]
        if several:
            assert answer == "; ".join(f"{d}: {truth[d][item]}" for d in ("iris", "wine"))
            whys = "; ".join(
                f"{d}: {dict((i, h) for i, _, h in cards[d]['checklist'])[item]}"
                for d in ("iris", "wine")
            )
            assert how == whys
        else:
            assert (answer, how) == tuple(
                dict((i, (a, h)) for i, a, h in cards["iris"]["checklist"])[item]
            )
    assert "not computed" not in paragraphs and "no labels given" not in paragraphs
    assert splits in paragraphs
    for card in cards.values():
        assert card["data_fingerprint"].startswith("sha256:")
        assert card["data_fingerprint"] in paragraphs
        assert card["labels_fingerprint"] in paragraphs
