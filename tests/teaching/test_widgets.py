"""The sliders (``teaching/widgets.py``): moved programmatically against their static
fallbacks, their refusals, and a stored notebook keeping their plain-text form only.
"""

from __future__ import annotations

import matplotlib
import nbformat
import pytest

from tcsexam_lib import teaching
from tcsexam_lib.teaching.widgets import FALLBACK_NOTE, WIDGET_VIEW_MIMETYPE

matplotlib.use("Agg")


# --- Widgets --------------------------------------------------------------------------------


def test_solver_widget_fallback_is_the_static_report():
    widget = teaching.solver_score_widget([10, 12, 14], 12)
    assert widget.text == teaching.solver_score_report([10, 12, 14], 12)
    bundle = widget._repr_mimebundle_()
    assert WIDGET_VIEW_MIMETYPE in bundle
    assert bundle["text/plain"] == f"{FALLBACK_NOTE}\n{widget.text}"
    assert repr(widget) == bundle["text/plain"]


def test_moving_the_solver_sliders_recomputes_the_readout_and_the_plot():
    widget = teaching.solver_score_widget()
    readout, image = widget.box.children[-1].children
    before = bytes(image.value)
    widget.controls["a"].value = 14
    assert "Phi(z) = 0.8413" in widget.text and "Phi(z) = 0.8413" in readout.value
    assert bytes(image.value) != before and bytes(image.value).startswith(b"\x89PNG")
    for name, value in (("v1", 11.9), ("v2", 12), ("v3", 12.1)):
        widget.controls[name].value = value
    assert "relative_floor 0.02*|mu|    0.24  <- sets the scale" in widget.text
    widget.controls["direction"].value = "minimize"
    assert "z = (mu - A)/scale" in widget.text
    widget.controls["rel_floor"].value = 0.5
    assert "relative_floor 0.5*|mu|" in widget.text
    assert widget.text == teaching.solver_score_report(
        [11.9, 12, 12.1], 14, rel_floor=0.5, direction="minimize"
    )


def test_track_means_widget_shows_the_index_and_each_contribution():
    widget = teaching.track_means_widget()
    assert widget.text == teaching.track_means_report(teaching.SEED_MEANS)
    widget.controls["construction"].value = 1.5
    assert "C (construction)  1.5    x 30 = 45 points" in widget.text
    assert widget.text.endswith("= 64.5 points")
    assert set(widget.controls) == {"theorem", "solver", "construction", "conjecture"}


def test_the_tasks_per_track_slider_narrows_the_intervals():
    widget = teaching.tasks_per_track_widget(20)
    assert widget.text == teaching.interval_report(20)
    readout, image = widget.box.children[1:]
    before = bytes(image.value)
    assert "illustrative-b - illustrative-a: 3.00 points" in readout.value
    assert "a: 3.00 points, interval [-1.57, 7.57]: not shown to differ" in widget.text
    widget.controls["n_tasks"].value = 80
    assert widget.text == teaching.interval_report(80)
    assert "80 tasks per track" in readout.value and "not shown to differ" not in widget.text
    assert bytes(image.value) != before and bytes(image.value).startswith(b"\x89PNG")
    assert list(widget.controls["n_tasks"].options) == list(teaching.TASKS_PER_TRACK)


def test_widgets_refuse_bad_arguments():
    with pytest.raises(ValueError, match=r"sliders for 3 reference values; got \[1, 2\]"):
        teaching.solver_score_widget([1, 2], 1)
    with pytest.raises(ValueError, match=r"direction must be one of"):
        teaching.solver_score_widget(direction="sideways")
    with pytest.raises(ValueError, match=r"the solver mean must be in \[0, 1\]"):
        teaching.track_means_widget({**teaching.SEED_MEANS, "solver": 2})
    with pytest.raises(ValueError, match=r"n_tasks must be one of 5, 10, 20, 40, 80, 160; got 7"):
        teaching.tasks_per_track_widget(7)


def test_strip_widget_views_keeps_the_plain_text_and_drops_the_state():
    notebook = nbformat.v4.new_notebook(metadata={"widgets": {"state": {}}})
    cell = nbformat.v4.new_code_cell("widget")
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={"text/plain": "fallback", WIDGET_VIEW_MIMETYPE: {"model_id": "a"}}
        ),
        nbformat.v4.new_output("display_data", data={WIDGET_VIEW_MIMETYPE: {"model_id": "b"}}),
        nbformat.v4.new_output("stream", name="stdout", text="kept\n"),
    ]
    notebook.cells += [cell, nbformat.v4.new_markdown_cell("text")]
    stripped, resources = teaching.strip_widget_views(notebook, {"r": 1})
    assert resources == {"r": 1}
    assert "widgets" not in stripped.metadata
    outputs = stripped.cells[0].outputs
    assert [dict(o.get("data", {})) for o in outputs] == [{"text/plain": "fallback"}, {}]
    assert outputs[1].text == "kept\n"
    nbformat.validate(stripped)


def test_the_readout_changes_only_once_its_plot_is_drawn(monkeypatch):
    """Issue 41: the plot lagged the readout by 1-2 s (z = 0 in the title beside 0.4167)."""
    from tcsexam_lib.teaching import widgets as module

    events = []
    drawn = module.figure_png
    monkeypatch.setattr(module, "figure_png", lambda figure: events.append("plot") or drawn(figure))
    for widget, name, value in [
        (teaching.tasks_per_track_widget(20), "n_tasks", 80),
        (teaching.solver_score_widget([10, 12, 14], 12), "a", 14),
        (teaching.track_means_widget(teaching.SEED_MEANS), "construction", 1.5),
    ]:
        readout = widget.box.children[1] if name == "n_tasks" else None
        readout = readout or next(
            w for w in _descendants(widget.box) if type(w).__name__ == "HTML" and "<pre" in w.value
        )
        readout.observe(lambda change: events.append("readout"), names="value")
        events.clear()
        widget.controls[name].value = value
        assert events == ["plot", "readout"], (name, events)


def _descendants(box):
    for child in getattr(box, "children", ()):
        yield child
        yield from _descendants(child)
