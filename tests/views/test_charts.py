"""A chart drawn once and cut to what was drawn: what ``savefig(bbox_inches="tight")`` shows,
without drawing the figure twice more (views/charts.py)."""

import io

import numpy as np
import pytest
from PIL import Image

from tcsexam_lib.views.charts import CHART_DPI, _cropped, _drawn, compact_png, new_axes


def _chart(title: str, label_outside: bool = False):
    fig, ax = new_axes(size=(4.0, 2.5))
    ax.bar(["a", "b", "c"], [1, 3, 2])
    ax.set_title(title)
    if label_outside:
        ax.text(1.6, 0.5, "beyond the figure", transform=ax.transAxes)
    return fig


def _tight(fig) -> Image.Image:
    raw = io.BytesIO()
    fig.savefig(raw, format="png", dpi=CHART_DPI, bbox_inches="tight", facecolor="white")
    return Image.open(raw).convert("RGB")


@pytest.mark.parametrize("title", ["short", "a title of a few more words"])
def test_a_chart_inside_its_figure_is_cut_as_savefig_tight_would(title):
    canvas, image = _drawn(_chart(title))
    once = _cropped(canvas.figure, canvas, image)
    tight = _tight(_chart(title))
    assert once.size == tight.size
    # the same drawing in the same place, but for a shift of under a pixel
    grey = [np.asarray(im.convert("L"), float) for im in (once, tight)]
    assert np.mean(np.abs(grey[0] - grey[1])) < 2  # of 255; a pixel's shift gives 4 or more
    assert once.getpixel((0, 0)) == (255, 255, 255)  # the pad is white


@pytest.mark.parametrize(
    "fig",
    [_chart("x" * 200), _chart("short", label_outside=True)],
    ids=["a title wider than the figure", "a text beyond the figure"],
)
def test_a_chart_drawn_beyond_its_figure_is_left_to_savefig(fig):
    canvas, image = _drawn(fig)
    assert _cropped(fig, canvas, image) is None
    wide = Image.open(io.BytesIO(compact_png(fig)))
    assert wide.width > image.width  # what lies beyond the figure is in the PNG
