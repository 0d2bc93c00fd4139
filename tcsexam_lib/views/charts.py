"""Report charts: one look (Okabe-Ito, no mathtext), small PNGs, alt text, the SIMULATED label."""

from __future__ import annotations

from typing import Any

from ..vocab import SIMULATED
from .notebook import SIMULATED_TEXT

#: Colour-blind safe colours (Okabe and Ito), used by every chart.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")


def new_axes(
    ax: Any = None,
    size: tuple[float, float] = (6.0, 3.5),
    margins: tuple[float, float, float, float] | None = None,
):
    """A figure and axes for one report chart (``ax`` given: draw there).

    ``margins`` (left, bottom, right, top, inches) replace the layout engine (docs/speed.md).
    """
    import matplotlib
    from matplotlib.figure import Figure

    matplotlib.rcParams["text.parse_math"] = False
    matplotlib.rcParams["axes.prop_cycle"] = matplotlib.cycler(color=list(OKABE_ITO))
    if ax is not None:
        return ax.figure, ax
    # a figure of its own, not pyplot's: shown once, by the cell that returns it
    fig = Figure(figsize=size, layout=None if margins else "constrained")
    _show_charts_as_compact_png()
    if margins:
        left, bottom, right, top = margins
        width, height = size
        fig.subplots_adjust(left=left / width, bottom=bottom / height,
                            right=1 - right / width, top=1 - top / height)  # fmt: skip
    return fig, fig.subplots()


#: Resolution and colours of a chart image in a report (flat charts need few colours).
CHART_DPI = 100
CHART_COLOURS = 64


def compact_png(fig: Any) -> bytes:
    """A chart as a small PNG (``CHART_DPI``, ``CHART_COLOURS``): every page embeds its charts."""
    import io

    from PIL import Image

    canvas, image = _drawn(fig)
    if fig.get_layout_engine() is not None:  # cropped to what was drawn (a long title too)
        image = _cropped(fig, canvas, image)
        if image is None:  # something drawn beyond the figure: only savefig can show it
            raw = io.BytesIO()
            fig.savefig(raw, format="png", dpi=CHART_DPI, bbox_inches="tight", facecolor="white")
            image = Image.open(raw).convert("RGB")
    octree, flat = Image.Quantize.FASTOCTREE, Image.Dither.NONE  # keeps rare colours (the label)
    image = image.quantize(CHART_COLOURS, method=octree, dither=flat)
    palette = image.getpalette() or []
    for k in range(0, len(palette), 3):  # the octree's near-white back to white
        if min(palette[k : k + 3]) >= 245:
            palette[k : k + 3] = [255, 255, 255]
    image.putpalette(palette)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _drawn(fig: Any) -> tuple[Any, Any]:
    """The figure drawn once, in memory, on white: its canvas and its RGB image."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fig.set_dpi(CHART_DPI)
    fig.patch.set_facecolor("white")
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    size = canvas.get_width_height()
    image = Image.frombuffer("RGBA", size, canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    return canvas, image.convert("RGB")


def _cropped(fig: Any, canvas: Any, image: Any) -> Any:
    """The drawn image cut to what was drawn, with ``savefig.pad_inches`` of white around it
    (what ``bbox_inches="tight"`` gives, without drawing the figure twice more); ``None``
    when something lies outside the figure."""
    import matplotlib
    from PIL import Image

    box = fig.get_tightbbox(canvas.get_renderer())  # inches, from the bottom left
    width, height = image.size
    x0, x1, y0, y1 = (v * CHART_DPI for v in (box.x0, box.x1, box.y0, box.y1))
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return None
    pad = matplotlib.rcParams["savefig.pad_inches"] * CHART_DPI
    size = int(x1 - x0 + 2 * pad), int(y1 - y0 + 2 * pad)  # as savefig's canvas: truncated
    left, bottom = round(x0 - pad), round(height - y0 + pad)  # savefig's origin, to the pixel
    out = Image.new("RGB", size, "white")
    out.paste(image, (-left, size[1] - bottom))
    return out


def _show_charts_as_compact_png() -> None:
    """In a notebook, show every matplotlib figure with :func:`compact_png`."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return
    from matplotlib.figure import Figure

    formatters = shell.display_formatter.formatters
    formatters["image/png"].for_type(Figure, lambda fig: (compact_png(fig), {"alt": alt_text(fig)}))
    formatters["image/svg+xml"].pop(Figure, None)
    formatters["application/pdf"].pop(Figure, None)


def describe(fig: Any, text: str) -> Any:
    """Give a chart its description: the ``alt`` text of its image on the page.

    >>> fig, _ = new_axes()
    >>> alt_text(describe(fig, "Bars of the index"))
    'Bars of the index'
    """
    fig.tcs_alt = text
    return fig


def alt_text(fig: Any) -> str:
    """A chart's description (:func:`describe`), with the simulated label when it has one."""
    text = getattr(fig, "tcs_alt", "") or "A chart of the report"
    if getattr(fig, "tcs_simulated", False):
        text = f"{text} ({SIMULATED})"
    return text


def label_simulated(fig: Any, simulated: bool) -> Any:
    """Put the SIMULATED label on a chart of simulated data (it travels with the image)."""
    fig.tcs_simulated = bool(simulated)
    if simulated:  # above the chart, placed by the layout so that it covers nothing
        fig.suptitle(SIMULATED_TEXT, x=0.99, ha="right", fontsize=8, color="#b71c1c",
                     fontweight="bold")  # fmt: skip
    return fig


def name_models_without_index(fig: Any, missing: list[str]) -> Any:
    """Name under a chart of indexes the models it cannot show (they have no index)."""
    if missing:
        fig.supxlabel("No index (incomplete): " + ", ".join(missing), x=0.01, ha="left",
                      fontsize=8)  # fmt: skip
    return fig
