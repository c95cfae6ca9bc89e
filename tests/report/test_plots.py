import numpy as np
import pytest

from sklearn_fair.report import plot_comparison, plot_fold_scores, plot_optimism
from sklearn_fair.stats import compare

from ._figures import cut_texts

pytest.importorskip("matplotlib")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _legend(figure):
    """The plot's legend: on a figure of our own, a figure legend outside the axes."""
    legends = list(figure.legends) + [ax.get_legend() for ax in figure.axes if ax.get_legend()]
    assert len(legends) == 1
    return legends[0]


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
    legend = [text.get_text() for text in _legend(figure).get_texts()]
    assert legend[1:] == [
        "mean, 95% interval (corrected t, 3 df)",
        "IQM, 95% interval (percentile bootstrap of the IQM, 10000 resamples)",
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
    legend = [text.get_text() for text in _legend(figure).get_texts()]
    # optimism to two significant digits of the accuracy's spread over the folds
    spread = min(np.std(n.outer_scores_) for n in fitted.values())
    decimals = 1 - int(np.floor(np.log10(spread)))
    assert legend[0] == f"logistic (optimism {nested.optimism_:+.{decimals}f})"
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
    legend = [text.get_text() for text in _legend(optimism.figure).get_texts()]
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
        with pytest.raises(
            ValueError, match="were scored with different metrics.*logistic: accuracy.*RMSE"
        ):
            plot(mixed)


def _draw(figure):
    """Draw ``figure`` on an Agg canvas and return its renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure).draw()
    return figure.canvas.get_renderer()


def _boxes(figure, artists):
    renderer = figure.canvas.get_renderer()
    return [a.get_window_extent(renderer) for a in artists if a.get_visible() and a.get_text()]


def _overlap(a, b):
    return min(a.x1, b.x1) - max(a.x0, b.x0) > 0.5 and min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5


@pytest.mark.parametrize("which", ["fitted", "fitted_regressors", "fitted_large_errors"])
def test_legends_cover_no_data_and_tick_labels_do_not_collide(which, request):
    results = request.getfixturevalue(which)
    for plot in (plot_fold_scores, plot_optimism):
        figure = plot(results)
        renderer = _draw(figure)
        ax = figure.axes[0]
        legend = _legend(figure).get_window_extent(renderer)
        # outside the axes, so over no point, interval or line
        assert not legend.overlaps(ax.get_window_extent()), plot.__name__
        for axis in (ax.xaxis, ax.yaxis):
            labels = _boxes(figure, axis.get_ticklabels())
            assert len(labels) >= 2
            for i, a in enumerate(labels):
                for b in labels[i + 1 :]:
                    assert not _overlap(a, b), (plot.__name__, [t.get_text() for t in
                                                                axis.get_ticklabels()])  # fmt: skip
        # every axis that carries numbers names the metric
        metric = "RMSE" if which != "fitted" else "accuracy"
        assert metric in ax.get_xlabel()
    forest = plot_comparison(results).axes[0]
    _draw(forest.figure)
    assert "RMSE" in forest.get_xlabel() or "accuracy" in forest.get_xlabel()
    labels = _boxes(forest.figure, forest.xaxis.get_ticklabels())
    assert not any(_overlap(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :])


def test_the_resample_count_is_a_parameter(fitted):
    figure = plot_fold_scores(fitted, n_resamples=500)
    legend = [text.get_text() for text in _legend(figure).get_texts()]
    assert legend[-1].endswith("(percentile bootstrap of the IQM, 500 resamples)")


def test_legend_on_the_callers_axes_hangs_below_them(fitted):
    from matplotlib.figure import Figure

    figure = Figure(layout="constrained")
    ax = figure.add_subplot()
    plot_fold_scores(fitted, ax=ax)
    legend = ax.get_legend().get_window_extent(_draw(figure))
    assert legend.y1 <= ax.get_window_extent().y0 + 1


@pytest.mark.parametrize("which", ["fitted", "fitted_large_errors"])
def test_no_text_is_cut_off_by_the_figures_edge(which, request):
    results = request.getfixturevalue(which)
    for plot in (plot_fold_scores, plot_optimism, plot_comparison):
        figure = plot(results)
        assert cut_texts(figure) == [], plot.__name__


def test_the_drawn_interval_is_the_tables_clipped_to_the_metrics_range():
    # the figure of the report drew the mean's interval past an accuracy of 1 where the
    # report's table (summarize with the metric) clips it at 1
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    from sklearn_fair import NestedCV
    from sklearn_fair.stats import summarize

    X, y = make_classification(n_samples=60, class_sep=1.2, random_state=0)
    nested = NestedCV(LogisticRegression(), {"C": [1.0]}, outer_cv=3, refit=False,
                      random_state=0).fit(X, y)  # fmt: skip
    sizes = {"n_train": 40, "n_test": 20}
    unclipped = summarize(nested.outer_scores_, interval="corrected_t", **sizes)
    assert unclipped.ci_high > 1  # the case
    table = summarize(nested.outer_scores_, metric="accuracy", interval="corrected_t", **sizes)
    ax = plot_fold_scores({"logistic": nested}).axes[0]
    mean_bar = ax.containers[0].lines[2][0].get_segments()[0]
    assert [mean_bar[0][0], mean_bar[1][0]] == pytest.approx([table.ci_low, table.ci_high])
    assert table.ci_high == 1.0


def test_the_fold_scores_plot_draws_the_reports_iqm_intervals_by_default():
    from sklearn.datasets import make_regression
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge

    from sklearn_fair import NestedCV
    from sklearn_fair.report import nested_cv_report

    # continuous scores, and a random_state other than 0: the report's root by default
    X, y = make_regression(n_samples=60, n_features=3, noise=20.0, random_state=0)
    results = {
        name: NestedCV(model, outer_cv=6, refit=False, random_state=3).fit(X, y)
        for name, model in (("ridge", Ridge()), ("mean", DummyRegressor()))
    }
    rows = {row["model"]: row for row in nested_cv_report(results, n_resamples=300).rows}
    figure = plot_fold_scores(results, n_resamples=300)
    bars = [c for c in figure.axes[0].containers if c.lines[0].get_marker() == "s"]
    assert len(bars) == 2
    for name, bar in zip(results, bars):
        (segment,) = bar.lines[2][0].get_segments()
        drawn = [segment[0][0], segment[1][0]]
        assert drawn == pytest.approx([rows[name]["iqm_ci_low"], rows[name]["iqm_ci_high"]])


def test_the_optimism_in_the_legend_has_the_reports_digits():
    from sklearn_fair.report import nested_cv_report

    def saved(test, validation, n=10):
        # every fold the same test score: no spread to take the digits from
        return {
            "outer_results": [
                {
                    "test_score": -test, "test_scores": [-test], "validation_score": -validation,
                    "best_params": {}, "train_indices": [i for i in range(4 * n) if i // n != f],
                    "test_indices": list(range(f * n, (f + 1) * n)), "fit_time": 1.0,
                }
                for f in range(4)
            ]
        }  # fmt: skip

    results = {"a": saved(12.5, 12.0), "b": saved(30.25, 29.0)}
    report = nested_cv_report(results, n_resamples=50)
    printed = {str(row[0]): str(row[6]) for row in report.sections()[0].rows}
    # four significant digits of the largest mean, 30.25: 2 decimals
    assert printed == {"a": "+0.50", "b": "+1.25"}
    legend = [text.get_text() for text in _legend(plot_optimism(results)).get_texts()]
    assert [f"{name} (optimism {printed[name]})" in legend for name in printed] == [True, True]


@pytest.mark.parametrize(
    "parameter, value",
    [
        ("random_state", "abc"),
        ("random_state", -1),
        ("random_state", 1.5),
        ("n_resamples", 0),
        ("confidence", 1.5),
        ("interval", "wide"),
    ],
)
def test_fold_scores_names_itself_in_a_bad_parameter(fitted, parameter, value):
    from sklearn.utils._param_validation import InvalidParameterError

    with pytest.raises(InvalidParameterError) as error:
        plot_fold_scores(fitted, **{parameter: value})
    assert str(error.value).startswith(f"The '{parameter}' parameter of plot_fold_scores must")
    assert repr(value) in str(error.value)


def _plotted_intervals(figure, result):
    """``{(dataset, model): (mean, low, high)}`` read from plot_intervals' error bars, on each
    of its axes (one per data set where the metric is not bounded)."""
    drawn = {}
    for ax in figure.axes:
        datasets = [label.get_text() for label in ax.get_yticklabels()]
        for model, bars in zip(result.models, ax.containers):
            centres = bars.lines[0].get_xdata()
            segments = iter(bars.lines[2][0].get_segments())  # one per drawn (finite) point
            for dataset, centre in zip(datasets, centres):
                if np.isfinite(centre):
                    (low, _), (high, _) = next(segments)
                    drawn[dataset, model] = (centre, low, high)
                else:
                    drawn[dataset, model] = (np.nan, np.nan, np.nan)
    return drawn


def _folds_of(scores, n=20):
    """A saved result's per-fold numbers: len(scores) folds of n rows each."""
    return {
        "outer_results": [
            {
                "test_score": s,
                "test_scores": [s],
                "validation_score": s,
                "best_params": {},
                "train_indices": [i for i in range(len(scores) * n) if i // n != f],
                "test_indices": list(range(f * n, (f + 1) * n)),
                "fit_time": 1.0,
            }
            for f, s in enumerate(scores)
        ]
    }


@pytest.mark.parametrize("interval", ["corrected_t", "t", "normal"])
def test_plot_intervals_draws_the_numbers_of_the_reports_table(fitted_regressors, interval):
    # plot_intervals computed its own intervals: of the printed (negated) RMSE, where the
    # table negates the scores' interval, so the drawn ends were off the table's in the last
    # digits; and a mean past 1e308 / 2 overflowed to inf (np.mean) where the table scales,
    # and matplotlib refused the negative bar ("'xerr' must not contain negative values")
    from scipy import stats

    from sklearn_fair import BenchmarkResult

    huge = [1e308, 1.1e308, 1.05e308, 1.02e308]
    result = BenchmarkResult.from_results(
        {
            **{("regression", name): nested for name, nested in fitted_regressors.items()},
            ("huge", "ridge"): _folds_of(huge),
            ("huge", "knn"): _folds_of([0.5, 0.7, float("nan"), 0.6]),  # a failed fold
        }
    )
    report = result.report(confidence=0.9, interval=interval, n_resamples=10)
    rows = {(r["dataset"], r["model"]): r for r in report.rows if r["selects"]}
    drawn = _plotted_intervals(result.plot_intervals(confidence=0.9, interval=interval), result)
    assert set(drawn) == set(rows)
    for key, (mean, low, high) in drawn.items():
        table = rows[key]["test_mean"], rows[key]["ci_low"], rows[key]["ci_high"]
        np.testing.assert_array_equal([mean, low, high], table, err_msg=str(key))
    assert np.isnan(drawn["huge", "knn"]).all()
    # the table's numbers, by hand: the interval of the positive RMSE, in [0, inf)
    rmse = -fitted_regressors["ridge"].outer_scores_
    scale = stats.sem(rmse)
    if interval == "corrected_t":
        scale = np.sqrt(1 / 4 + 15 / 45) * np.std(rmse, ddof=1)  # 4 folds of 15 rows
    quantile = stats.norm.ppf(0.95) if interval == "normal" else stats.t.ppf(0.95, 3)
    expected = [rmse.mean(), max(rmse.mean() - quantile * scale, 0), rmse.mean() + quantile * scale]
    np.testing.assert_allclose(drawn["regression", "ridge"], expected, rtol=1e-12)
    # near 1e308: the mean and interval of the scores in units of 1e300, times 1e300
    small = np.asarray(huge) / 1e300
    scale = {"corrected_t": np.sqrt(1 / 4 + 20 / 60) * np.std(small, ddof=1)}.get(
        interval, stats.sem(small)
    )
    expected = 1e300 * (small.mean() + quantile * scale * np.array([0, -1, 1]))
    np.testing.assert_allclose(drawn["huge", "ridge"], expected, rtol=1e-12)


def test_plot_intervals_takes_the_intervals_the_report_takes(fitted):
    # it took "conservative_z", as mean_interval does, and then failed asking for a
    # 'half_scores' parameter it does not have; the report offers the three of REPORT_INTERVALS
    from sklearn_fair import BenchmarkResult

    result = BenchmarkResult.from_results({("d", name): n for name, n in fitted.items()})
    expected = r"'interval' parameter of BenchmarkResult.plot_intervals must be a str among"
    with pytest.raises(ValueError, match=expected) as raised:
        result.plot_intervals(interval="conservative_z")
    assert "half_scores" not in str(raised.value)
    for interval in ("corrected_t", "t", "normal"):
        result.plot_intervals(interval=interval)


def test_plot_intervals_says_nothing_to_the_console(fitted):
    # it drew each cell's interval from a summary of 1 bootstrap resample of the IQM (whose
    # interval it does not draw), and scipy's standard error of that one resample printed
    # numpy's "RuntimeWarning: Degrees of freedom <= 0 for slice" for every cell, under an
    # experiment's progress bar too
    import warnings

    from sklearn_fair import BenchmarkResult

    result = BenchmarkResult.from_results({("d", name): n for name, n in fitted.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result.plot_intervals()
