"""The two plots of a benchmark page give each model one colour, and long names leave the
plots their room (hunt HTMLPIC, HTMLPIC-2 and HTMLPIC-3).

The critical-difference diagram coloured the models by rank and the interval plot by their
order, so that the same model was blue in one and orange in the other; a data set's or model's
long name, drawn on one line, took most of the figure's width from the axes."""

import re

import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.dummy import DummyClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_fair import benchmark

from ._figures import cut_texts

pytest.importorskip("matplotlib")
pytest.importorskip("scikit_posthocs")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

LONG_DATASET = "iris measured by the botanist " + "x" * 60  # 90 characters
LONG_MODEL = "a decision tree with a deliberately long name for the report " + "y" * 30


def _drawn(figure):
    """``figure`` laid out and drawn as a saved one is (the constrained layout runs then)."""
    FigureCanvasAgg(figure).draw()
    return figure


def _run(models, datasets):
    return benchmark(models, datasets, outer_cv=3, n_refits=1, random_state=0)


@pytest.fixture(scope="module")
def three_models():
    # the tree ranks first, prior second: rank order differs from the models' order
    models = {
        "prior": DummyClassifier(),
        "stratified": DummyClassifier(strategy="stratified", random_state=0),
        "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4]}),
    }
    iris, wine = load_iris(return_X_y=True), load_wine(return_X_y=True)
    return _run(models, {"iris": iris, "wine": wine})


def _interval_colours(figure):
    """Model -> colour of its point and interval in plot_intervals, read from the axes' error
    bars (each labelled with its model)."""
    bars = figure.axes[0].containers
    return {bar.get_label(): to_hex(bar.lines[0].get_color()) for bar in bars}


def _diagram_colours(figure, models):
    """Model -> colour of its label, its marker and its elbow in the critical-difference
    diagram, read from the axes' artists."""
    ax = figure.axes[0]
    colours = {}
    for model in models:
        (label,) = [t for t in ax.texts if model in t.get_text()]
        colours[model] = to_hex(label.get_color())
    markers = {to_hex(c) for path in ax.collections for c in path.get_facecolors()}
    elbows = {to_hex(line.get_color()) for line in ax.get_lines()}
    assert set(colours.values()) <= markers and set(colours.values()) <= elbows
    return colours


def test_a_model_has_one_colour_in_both_plots(three_models):
    intervals = _interval_colours(three_models.plot_intervals())
    diagram = _diagram_colours(three_models.plot_critical_difference(), three_models.models)
    assert set(intervals) == set(three_models.models)
    assert len(set(intervals.values())) == 3  # three colours, one per model
    assert diagram == intervals


def test_the_reports_plots_give_a_model_one_colour(three_models):
    from sklearn_fair.report import _plots

    ranks = three_models.rank_comparison()
    diagram = _diagram_colours(
        _plots.critical_difference_diagram(ranks, 0.05, None), three_models.models
    )
    assert diagram == _interval_colours(three_models.plot_intervals())


def test_a_long_data_set_name_leaves_the_interval_plot_its_width():
    iris, wine = load_iris(return_X_y=True), load_wine(return_X_y=True)
    models = {
        "tree": (DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4]}),
        "prior": DummyClassifier(),
    }
    result = _run(models, {LONG_DATASET: iris, "wine": wine})
    figure = _drawn(result.plot_intervals())
    (ax,) = figure.axes
    assert ax.get_position().width > 0.5
    # the name is all there, on lines of at most 30 characters
    (label,) = [t.get_text() for t in ax.get_yticklabels() if "botanist" in t.get_text()]
    assert max(len(line) for line in label.split("\n")) <= 30
    assert "".join(label.split()) == "".join(LONG_DATASET.split())
    # the wrapped labels of the two rows do not overlap
    renderer = figure.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.get_yticklabels() if t.get_text()]
    assert len(boxes) == 2 and not boxes[0].overlaps(boxes[1])
    assert cut_texts(figure) == []


def test_long_model_names_leave_the_diagram_its_rank_axis():
    iris, wine = load_iris(return_X_y=True), load_wine(return_X_y=True)
    other = "the prior baseline with an equally long descriptive name " + "z" * 30
    models = {
        LONG_MODEL: (DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4]}),
        other: DummyClassifier(),
        "stratified": DummyClassifier(strategy="stratified", random_state=0),
    }
    result = _run(models, {"iris": iris, "wine": wine})
    figure = _drawn(result.plot_critical_difference())
    (ax,) = figure.axes
    assert ax.get_position().width > 0.45
    renderer = figure.canvas.get_renderer()
    labels = [t for t in ax.texts if "(" in t.get_text()]
    assert len(labels) == 3
    for name in (LONG_MODEL, other):  # each name whole, on lines of at most 30 characters
        (text,) = [t.get_text() for t in labels if name[:10] in t.get_text()]
        assert re.sub(r"\s|\(\d\.\d\d\)", "", text) == "".join(name.split())
        assert max(len(line) for line in text.split("\n")) <= 32  # the rank after the name
    boxes = [t.get_window_extent(renderer) for t in labels]
    for i, box in enumerate(boxes):
        assert not any(box.overlaps(other_box) for other_box in boxes[i + 1 :])
    assert cut_texts(figure) == []  # every label within the figure


@pytest.mark.parametrize("n_models", [3, 10, 11, 20, 25])
def test_no_two_models_share_a_colour(n_models):
    # review45b REV-4: "C10" is matplotlib's "C0" again: models 0 and 10 were drawn alike
    from sklearn_fair.report._plots import model_colours

    colours = model_colours([f"m{i}" for i in range(n_models)])
    assert len({to_hex(c) for c in colours.values()}) == n_models
