"""What a drawn matplotlib figure shows: the texts and legends its edge cuts off."""

from matplotlib.backends.backend_agg import FigureCanvasAgg


def cut_texts(figure, at_least=1):
    """The texts (and "the legend") that matplotlib draws past the figure's edge, drawn on
    an Agg canvas; it draws ``at_least`` texts."""
    FigureCanvasAgg(figure).draw()
    renderer = figure.canvas.get_renderer()
    edge = figure.bbox
    hidden = set()  # matplotlib keeps, and does not draw, the labels of ticks past the limits
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            span = (high - low) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not low - span <= tick.get_loc() <= high + span:
                    hidden |= {id(tick.label1), id(tick.label2)}
    texts = [t for t in figure.findobj(match=lambda a: hasattr(a, "get_text")) if t.get_text()]
    texts = [t for t in texts if t.get_visible() and id(t) not in hidden]
    assert len(texts) >= at_least
    cut = []
    for text in texts:
        box = text.get_window_extent(renderer)
        if not (
            box.x0 >= edge.x0 - 1
            and box.x1 <= edge.x1 + 1
            and box.y0 >= edge.y0 - 1
            and box.y1 <= edge.y1 + 1
        ):
            cut.append(text.get_text())
    for legend in list(figure.legends) + [ax.get_legend() for ax in figure.axes]:
        if legend is not None:
            box = legend.get_window_extent(renderer)
            if box.x0 < edge.x0 - 1 or box.x1 > edge.x1 + 1:
                cut.append("the legend")
    return cut
