"""Sliders for the formulas (ipywidgets, imported lazily), each with a static fallback.

Live in JupyterLab; elsewhere (nbval, papermill, an export) a note and the
:mod:`.formula_text` report. :func:`strip_widget_views` keeps that text in a stored notebook.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..vocab import TRACK_OF, TRACKS
from .formula_text import (
    DIRECTIONS,
    SEED_MEANS,
    SEED_VALUES,
    SolverCase,
    check_track_means,
    solver_case,
    solver_score_report,
    takes_solver_settings,
    track_means_report,
)
from .plots import figure_png, plot_index_intervals, plot_solver_instance, plot_track_contributions
from .uncertainty import DEFAULT_TASKS, TASKS_PER_TRACK, interval_report

WIDGET_VIEW_MIMETYPE = "application/vnd.jupyter.widget-view+json"

#: The first line of a widget's plain-text form.
FALLBACK_NOTE = (
    "[Interactive widget: run this cell in JupyterLab (ipywidgets) to move the sliders. "
    "The numbers it shows now:]"
)


class TeachingWidget:
    """Live sliders in JupyterLab; a note and the current report as plain text elsewhere.

    ``controls``: name -> slider; ``text``: the report now; ``box``: the container shown.
    """

    def __init__(self, box: Any, controls: dict[str, Any], report: Callable[[], str]):
        self.box = box
        self.controls = controls
        self._report = report

    @property
    def text(self) -> str:
        """The report for the values the sliders hold now."""
        return self._report()

    def __repr__(self) -> str:
        return f"{FALLBACK_NOTE}\n{self.text}"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle = dict(self.box._repr_mimebundle_())
        bundle["text/plain"] = repr(self)
        return bundle


def _readout_html(text: str) -> str:
    return f'<pre style="font-size:12px;line-height:1.35;margin:0">{html.escape(text)}</pre>'


def _live_readout(
    widgets: Any, controls: dict[str, Any], report: Callable[[], str], plot: Callable[[], Any]
) -> tuple[Any, Any]:
    """The readout and the plot of ``controls``, both redrawn on every change: both are
    computed first, then sent one after the other (the plot never lags the readout)."""
    readout = widgets.HTML()
    image = widgets.Image(format="png", layout=widgets.Layout(width="470px"))

    def refresh(change: Any = None) -> None:
        readout.value, image.value = _readout_html(report()), figure_png(plot())

    for control in controls.values():
        control.observe(refresh, names="value")
    refresh()
    return readout, image


def _slider(
    kind: str,
    description: str,
    value: Any,
    width: str = "22em",
    label_width: str = "6em",
    **settings: Any,
) -> Any:
    """An ipywidgets slider (``kind``) that reports its value once it is let go."""
    import ipywidgets as widgets

    return getattr(widgets, kind)(
        value=value,
        description=description,
        continuous_update=False,
        style={"description_width": label_width},
        layout=widgets.Layout(width=width),
        **settings,
    )


def _number_range(low: float, high: float, step: float) -> dict[str, Any]:
    return {"min": low, "max": high, "step": step, "readout_format": ".3g"}


def _solver_controls(widgets: Any, case: SolverCase) -> dict[str, Any]:
    """The solver widget's controls: A, the three reference values, both floors, direction."""
    values, a, rel_floor, abs_floor, direction, _ = case
    low = min(0.0, *values, a)
    high = max(30.0, *values, a)
    return {
        "a": _slider("FloatSlider", "candidate A", a, "33em", **_number_range(low, high, 0.1)),
        **{
            f"v{k}": _slider(
                "FloatSlider", f"reference {k}", value, **_number_range(low, high, 0.1)
            )
            for k, value in enumerate(values, start=1)
        },
        "rel_floor": _slider(
            "FloatSlider", "rel. floor", rel_floor, **_number_range(0.0, max(0.5, rel_floor), 0.005)
        ),
        "abs_floor": _slider(
            "FloatLogSlider",
            "abs. floor",
            abs_floor,
            base=10,
            min=-12,
            max=1,
            step=0.5,
            readout_format=".0e",
        ),  # fmt: skip
        "direction": widgets.ToggleButtons(
            options=list(DIRECTIONS),
            value=direction,
            description="direction",
            style={"description_width": "6em", "button_width": "7.5em"},
            # a flex row: ipywidgets lays a ToggleButtons out as a block, which puts its
            # label on a line of its own above the buttons
            layout=widgets.Layout(display="flex", align_items="center", flex="0 0 auto"),
        ),  # fmt: skip
    }


@takes_solver_settings
def solver_score_widget(
    values: Sequence[float] = SEED_VALUES,
    a: float = 12,
    **settings: Any,
) -> TeachingWidget:
    """Sliders for A, three reference values, both floors and the direction; readout
    :func:`~tcsexam_lib.teaching.solver_score_report`, plot redrawn on every change."""
    import ipywidgets as widgets

    if len(values) != 3:
        raise ValueError(f"the widget has sliders for 3 reference values; got {list(values)!r}")
    controls = _solver_controls(widgets, solver_case(values, a, **settings))

    def arguments() -> dict[str, Any]:
        return {
            "values": [controls[f"v{k}"].value for k in (1, 2, 3)],
            "a": controls["a"].value,
            "rel_floor": controls["rel_floor"].value,
            "abs_floor": controls["abs_floor"].value,
            "direction": controls["direction"].value,
        }

    def report() -> str:
        return solver_score_report(**arguments())

    readout, image = _live_readout(
        widgets, controls, report, lambda: plot_solver_instance(**arguments())
    )
    box = widgets.VBox(
        [
            widgets.HBox([controls["a"], controls["direction"]]),
            widgets.HBox([controls["v1"], controls["v2"], controls["v3"]]),
            widgets.HBox([controls["rel_floor"], controls["abs_floor"]]),
            widgets.HBox([readout, image]),
        ]
    )
    return TeachingWidget(box, controls, report)


def track_means_widget(means: Mapping[str, float] = SEED_MEANS) -> TeachingWidget:
    """Sliders for the track means; readout :func:`~tcsexam_lib.teaching.track_means_report`,
    plot redrawn on every change."""
    import ipywidgets as widgets

    checked = check_track_means(means)
    controls = {
        track: _slider(
            "FloatSlider",
            f"{TRACK_OF[track].letter} ({track})",
            value,
            "30em",
            "9em",
            **_number_range(0.0, 1.0 if TRACK_OF[track].high == 1 else max(2.0, value), 0.01),
        )
        for track, value in checked.items()
    }

    def current() -> dict[str, float]:
        return {track: controls[track].value for track in TRACKS}

    def report() -> str:
        return track_means_report(current())

    readout, image = _live_readout(
        widgets, controls, report, lambda: plot_track_contributions(current())
    )
    box = widgets.HBox([widgets.VBox([*controls.values(), readout]), image])
    return TeachingWidget(box, controls, report)


def tasks_per_track_widget(n_tasks: int = DEFAULT_TASKS) -> TeachingWidget:
    """A tasks-per-track slider for three ILLUSTRATIVE models: :func:`~tcsexam_lib.teaching.
    interval_report` and the intervals on a fixed axis, narrowing as tasks grow."""
    import ipywidgets as widgets

    if n_tasks not in TASKS_PER_TRACK:
        raise ValueError(
            f"n_tasks must be one of {', '.join(map(str, TASKS_PER_TRACK))}; got {n_tasks!r}"
        )
    slider = _slider(
        "SelectionSlider", "tasks per track", n_tasks, "30em", "8em", options=list(TASKS_PER_TRACK)
    )
    controls = {"n_tasks": slider}

    def report() -> str:
        return interval_report(slider.value)

    readout, image = _live_readout(
        widgets, controls, report, lambda: plot_index_intervals(slider.value)
    )
    box = widgets.VBox([slider, readout, image])
    return TeachingWidget(box, controls, report)


def strip_widget_views(notebook: Any, resources: Any = None) -> tuple[Any, Any]:
    """Drop live widget views and widget state from an executed notebook (an nbconvert
    preprocessor; ``make teaching-notebook`` uses it): the plain-text fallbacks stay.

    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(metadata={"widgets": {}})
    >>> cell = nbformat.v4.new_code_cell("w")
    >>> cell.outputs = [nbformat.v4.new_output("display_data", data={
    ...     "text/plain": "fallback", WIDGET_VIEW_MIMETYPE: {"model_id": "x"}})]
    >>> nb.cells.append(cell)
    >>> nb, _ = strip_widget_views(nb)
    >>> dict(nb.cells[0].outputs[0].data), "widgets" in nb.metadata
    ({'text/plain': 'fallback'}, False)
    """
    for cell in notebook.cells:
        if cell.get("cell_type") != "code":
            continue
        kept = []
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data is not None and WIDGET_VIEW_MIMETYPE in data:
                del data[WIDGET_VIEW_MIMETYPE]
                if not data:
                    continue
            kept.append(output)
        cell["outputs"] = kept
    notebook.metadata.pop("widgets", None)
    return notebook, resources
