import pytest

from sklearn_fair.report import plot_comparison, plot_fold_scores, plot_optimism

pytest.importorskip("matplotlib")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _check_files(paths, needles):
    png, svg = paths
    assert png.read_bytes()[:8] == PNG_MAGIC and png.stat().st_size > 2000
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    for needle in needles:
        assert needle in text  # text is kept as text in the SVG


def test_fold_scores(fitted, tmp_path):
    paths = [tmp_path / "folds.png", tmp_path / "folds.svg"]
    figure = plot_fold_scores(fitted, path=paths)
    ax = figure.axes[0]
    assert [label.get_text() for label in ax.get_yticklabels()] == ["logistic", "knn"]
    # one scatter of the folds per model
    offsets = [c.get_offsets() for c in ax.collections if c.get_offsets().shape == (4, 2)]
    assert len(offsets) == 2
    assert sorted(offsets[1][:, 0]) == sorted(fitted["knn"].outer_scores_)
    _check_files(paths, ["logistic", "knn", "Test scores over the outer folds"])


def test_optimism(fitted, tmp_path):
    paths = [tmp_path / "optimism.png", tmp_path / "optimism.svg"]
    figure = plot_optimism(fitted, path=paths)
    ax = figure.axes[0]
    points = ax.collections[0].get_offsets()
    nested = fitted["logistic"]
    assert points[:, 0].tolist() == nested.outer_scores_.tolist()
    assert points[:, 1].tolist() == nested.validation_scores_.tolist()
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend[0] == f"logistic (optimism {nested.optimism_:+.3f})"
    _check_files(paths, ["validation = test", "knn (optimism"])


def test_comparison_forest(fitted, tmp_path):
    paths = [tmp_path / "forest.png", tmp_path / "forest.svg"]
    figure = plot_comparison(fitted, path=paths)
    ax = figure.axes[0]
    assert [label.get_text() for label in ax.get_yticklabels()] == ["logistic - knn"]
    assert any(line.get_xdata()[0] == 0 for line in ax.get_lines())  # the line at 0
    _check_files(paths, ["logistic - knn", "Pairwise differences"])


def test_draws_on_given_axes(fitted):
    from matplotlib.figure import Figure

    figure = Figure()
    ax = figure.add_subplot()
    assert plot_optimism(fitted, ax=ax) is figure
