"""The card reads the labels from X only for graphs: a feature column named ``y`` of a
DataFrame is no labels."""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold

from sklearn_fair import NestedCV
from sklearn_fair.model_selection import labels_fingerprint
from sklearn_fair.report import nested_cv_report, reproducibility_card

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def run():
    rng = np.random.RandomState(0)
    df = pd.DataFrame({"x": rng.randn(90), "y": rng.randn(90)})  # coordinates as features
    target = (df.x + df.y > 0).astype(int).to_numpy()
    nested = NestedCV(
        LogisticRegression(),
        {"C": [0.1, 1.0]},
        outer_cv=StratifiedKFold(3),
        inner_cv=KFold(2),
        n_refits=1,
        refit=False,
        random_state=0,
    ).fit(df, target)
    return nested, df, target


def _stratified(card):
    return next(item for item in card.checklist if item[0] == "stratified splits")


def test_a_column_y_is_not_read_as_the_labels(run):
    nested, df, target = run
    # StratifiedKFold's test folds hold each class in proportion: by hand, per fold
    for _, test in StratifiedKFold(3).split(df, target):
        counts = np.bincount(target[test], minlength=2)
        assert np.all(np.abs(counts - np.bincount(target) / 3) <= 1)
    card = reproducibility_card(nested, X=df)
    # it said "no: the outer test folds are not stratified by class", having checked the
    # folds against the column y, and fingerprinted that column as the labels
    assert _stratified(card)[1] == "yes"
    assert "no labels given" in _stratified(card)[2]
    assert card.labels_fingerprint is None
    lines = nested_cv_report(nested, X=df).to_markdown().splitlines()
    assert any(line.startswith("| stratified splits | yes |") for line in lines)


def test_the_labels_of_graphs_are_read_from_them(run):
    nested, df, target = run
    # a list of graphs has no attribute y: its labels are those of its graphs
    graphs = [SimpleNamespace(x=np.array([[a, b]]), y=t) for a, b, t in zip(df.x, df.y, target)]
    card = reproducibility_card(nested, X=graphs)
    assert card.labels_fingerprint == labels_fingerprint(target)
    assert _stratified(card)[1] == "yes"
