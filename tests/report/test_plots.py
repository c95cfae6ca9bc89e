import pytest

from sklearn_fair.report import plot_comparison, plot_fold_scores, plot_optimism
from sklearn_fair.stats import compare

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
    assert ax.get_xlabel() == "test accuracy per outer fold"
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend[1:] == [
        "mean, 95% interval (Student t, 3 df, of the mean of 4 scores)",
        "IQM, 95% interval (percentile bootstrap of the IQM, 2000 resamples)",
    ]
    _check_files(paths, ["logistic", "knn", "Test accuracy over the outer folds"])


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
    assert legend[-1] == "validation = test (validation looked better above it)"
    assert ax.get_xlabel() == "test accuracy (outer fold)"
    assert ax.get_ylabel() == "validation accuracy of the selected configuration"
    _check_files(paths, ["validation = test", "knn (optimism"])


def test_comparison_forest(fitted, tmp_path):
    paths = [tmp_path / "forest.png", tmp_path / "forest.svg"]
    figure = plot_comparison(fitted, path=paths)
    ax = figure.axes[0]
    assert [label.get_text() for label in ax.get_yticklabels()] == ["logistic - knn"]
    assert any(line.get_xdata()[0] == 0 for line in ax.get_lines())  # the line at 0
    assert ax.get_xlabel().startswith("difference of mean test accuracy, A - B\n(95% interval")
    _check_files(paths, ["logistic - knn", "Pairwise differences"])


def test_draws_on_given_axes(fitted):
    from matplotlib.figure import Figure

    figure = Figure()
    ax = figure.add_subplot()
    assert plot_optimism(fitted, ax=ax) is figure


def _errorbar_centres(ax):
    return [c.lines[0].get_xdata()[0] for c in ax.containers]


def test_errors_are_drawn_as_positive_errors(fitted_regressors):
    figure = plot_fold_scores(fitted_regressors)
    ax = figure.axes[0]
    assert ax.get_xlabel() == "test RMSE per outer fold (lower is better)"
    offsets = [c.get_offsets() for c in ax.collections if c.get_offsets().shape == (4, 2)]
    assert sorted(offsets[0][:, 0]) == sorted(-fitted_regressors["ridge"].outer_scores_)
    means = _errorbar_centres(ax)[::2]  # mean bars, then IQM bars, per model
    assert means == pytest.approx([-n.score_mean_ for n in fitted_regressors.values()])

    optimism = plot_optimism(fitted_regressors).axes[0]
    assert optimism.get_xlabel() == "test RMSE (outer fold)"
    legend = [text.get_text() for text in optimism.get_legend().get_texts()]
    assert legend[-1] == "validation = test (validation looked better below it)"
    points = optimism.collections[0].get_offsets()
    assert points[:, 1].tolist() == (-fitted_regressors["ridge"].validation_scores_).tolist()

    forest = plot_comparison(fitted_regressors).axes[0]
    assert forest.get_xlabel().startswith("difference of mean test RMSE, A - B (lower is better)")
    table = compare(fitted_regressors)
    assert _errorbar_centres(forest) == pytest.approx([-table["mean_difference"][0]])


def test_results_with_different_metrics_are_not_drawn_on_one_axis(fitted, fitted_regressors):
    mixed = {"logistic": fitted["logistic"], "ridge": fitted_regressors["ridge"]}
    for plot in (plot_fold_scores, plot_optimism, plot_comparison):
        with pytest.raises(ValueError, match="different metrics.*logistic: accuracy.*RMSE"):
            plot(mixed)
