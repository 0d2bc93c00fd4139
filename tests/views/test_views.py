"""What the report notebooks show (``tcsexam_lib.views``, on the SIMULATED demo, no kernel).

Issues explained once with what to do, the coverage matrix, charts that never read
mathtext and carry the simulated label, one number format, and the intervals of
``tcsexam stats`` in the leaderboard, forest plot and pairwise matrix.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from tcsexam_lib import InputRefused, run_score
from tcsexam_lib.reports import runner as report_module

# --- report_views on the demo (no kernel) ----------------------------------------------


@pytest.fixture(scope="module")
def demo_index() -> dict[str, Any]:
    demo = report_module.KIT_ROOT / "demo" / "demo-lite-offline"
    return run_score(suite="demo-lite", attempts=demo / "attempts.csv", cohort=demo / "cohort.json")


def test_views_explain_every_blocking_issue_and_excluded_attempt(demo_index):
    from tcsexam_lib import views as report_views

    gamma = report_views.explain_status(demo_index, "sim-gamma").text
    assert gamma.startswith("sim-gamma is incomplete: no index is published")
    blocking = [i for i in demo_index["models"]["sim-gamma"]["issues"] if i["severity"] == "error"]
    assert blocking and all(issue["message"] in gamma for issue in blocking)
    alpha = report_views.explain_status(demo_index, "sim-alpha").text
    assert "[excluded] theorem/sim-thm-01 attempt '1'" in alpha
    assert "provisional" in report_views.explain_status(demo_index, "sim-beta").text


def test_views_coverage_marks_failed_and_missing_repeats(demo_index):
    from tcsexam_lib import views as report_views

    matrix = report_views.coverage_matrix(demo_index, "sim-gamma")
    cells = {cell.split(":")[0] for row in matrix.values.tolist() for cell in row if cell}
    assert {"valid", "failed", "missing"} <= cells
    shown = report_views.track_table(demo_index, "sim-alpha")["contribution"].tolist()
    alpha = demo_index["models"]["sim-alpha"]
    exact = [track["contribution"] for track in alpha["tracks"].values()]
    assert f"{sum(shown):.2f}" == f"{alpha['index']:.2f}"  # the parts add up as shown
    assert all(abs(a - b) < 0.01 for a, b in zip(shown, exact, strict=True))


def test_charts_never_read_mathtext_and_carry_the_simulated_label(demo_index):
    import io

    from matplotlib.text import Text

    from tcsexam_lib import views as report_views

    odd = "sim-$\\frac$"  # not valid mathtext: drawing it as mathtext would raise
    result = {**demo_index, "models": {odd: demo_index["models"]["sim-gamma"]}}
    charts = [
        report_views.plot_track_contributions(result, odd),
        report_views.plot_coverage(result, odd),
        report_views.plot_repeat_spread(result, odd),
        report_views.plot_task_heatmap(result),
    ]
    for fig in charts:
        fig.savefig(io.BytesIO(), format="png")
        assert fig.get_suptitle() == report_views.SIMULATED_TEXT
        sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_text()]
        assert min(sizes) >= 7  # 9.7 px at 100 dpi: tests/browser keeps a phone's at 9 px
        alt = report_views.alt_text(fig)  # the image's description on the page
        assert alt.endswith("(SIMULATED demo data)") and "No description" not in alt
        assert len(alt) > 60
    title = charts[0].axes[0].get_title()
    assert title == f"{odd}: incomplete, no index" and "null" not in title


def test_charts_draw_the_hatches_the_docs_describe(demo_index):
    """docs/reports.md: a task without a mean hatched grey in the heatmap; provisional
    models hatched in the ranked index; a hatch per category in the coverage matrix."""
    import numpy as np

    from tcsexam_lib import views as report_views

    docs = (report_module.KIT_ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    assert "a task without a mean hatched grey" in docs and "provisional models hollow" in docs
    heat = report_views.plot_task_heatmap(demo_index).axes[0]
    masked = np.ma.getmaskarray(heat.images[0].get_array())
    assert masked.sum() == 3  # sim-gamma's three tasks without a mean show the background
    behind = [p for p in heat.patches if p.get_hatch() and p.zorder < heat.images[0].zorder]
    assert len(behind) == 1  # one hatched rectangle under the whole image shows through
    assert behind[0].get_facecolor()[:3] == (1.0, 1.0, 1.0)
    from tcsexam_lib.views.index import COVERAGE_HATCHES

    assert len(set(COVERAGE_HATCHES.values())) == len(COVERAGE_HATCHES)  # one each
    for model in ("sim-alpha", "sim-gamma"):
        matrix = report_views.coverage_matrix(demo_index, model)
        shown = {cell.split(":")[0] for row in matrix.values.tolist() for cell in row if cell}
        drawn = report_views.plot_coverage(demo_index, model).axes[0].patches
        assert {p.get_hatch() or "" for p in drawn} == {COVERAGE_HATCHES[c] for c in shown}


def test_each_issue_is_said_once_with_what_to_do(demo_index):
    from tcsexam_lib import views as report_views

    beta = report_views.explain_status(demo_index, "sim-beta").text
    assert "change its adoption_status from selected_provisional to selected" in beta
    assert "run the report again" in beta
    assert beta.count("sim-con-02") == 1 and "(line 44)" in beta
    assert "provisionally (selected_provisional)" not in beta
    gamma = report_views.explain_status(demo_index, "sim-gamma").text
    blocking = [i for i in demo_index["models"]["sim-gamma"]["issues"] if i["severity"] == "error"]
    for issue in blocking:
        assert gamma.count(issue["message"]) == 1
    assert gamma.count("What to do:") == len(blocking)


def test_tables_use_one_number_format_and_hide_nothing(demo_index):
    from tcsexam_lib import views as report_views

    board = report_views.table_html(report_views.leaderboard(demo_index))
    alpha = demo_index["models"]["sim-alpha"]
    index, solver = alpha["index"], alpha["track_means"]["S"]
    assert f"<td class='num' data-order='{index!r}'>{index:.2f}</td>" in board
    assert f"<td class='num' data-order='{solver!r}'>{solver:.3f}</td>" in board
    assert "<th></th>" not in board and "e-0" not in board and "null" not in board
    issues = report_views.issues_table(demo_index, "sim-alpha")
    assert report_views.table_html(issues).startswith("<p class='tcs-note'>No issue")
    plan = report_views.solver_plan_table(demo_index, "sim-gamma", [])
    assert "planned, no adopted attempt yet" in plan["state"].tolist()
    big = pd.DataFrame({"n": range(2000)})
    assert report_views.table_html(big).count("<tr>") == 2001  # every row, header included


def test_report_intervals_are_those_of_tcsexam_stats(demo_index, tmp_path):
    """Leaderboard, forest plot, pair matrix and track table show the stats document."""
    from matplotlib.patches import Rectangle

    from tcsexam_lib import views as report_views
    from tcsexam_lib.jsonio import write_json_atomic
    from tcsexam_lib.number_format import interval_reach
    from tcsexam_lib.stats.command import run_stats

    write_json_atomic(tmp_path / "index.json", demo_index)
    written = run_stats(index=tmp_path / "index.json", output=tmp_path / "stats.json")
    stats = report_views.stats_result(demo_index, stats_json=tmp_path / "stats.json")
    computed = report_views.stats_result(demo_index)  # standalone: the same numbers
    assert computed["models"] == written["models"] and computed["pairs"] == written["pairs"]
    board = report_views.leaderboard(demo_index, stats)
    board = board.set_index(board["model"].map(str))
    for model, entry in written["models"].items():
        low, high = entry["index_ci"] or (None, None)
        if entry["index"] is None:
            assert board.loc[model, "±"] is None
            continue
        sides = (entry["index"] - low, high - entry["index"])  # the interval may be asymmetric
        assert entry["index_ci_half_width"] == pytest.approx(max(sides))
        shown = board.loc[model, "±"]  # both sides when they differ: never past a bound
        assert shown.order == entry["index_ci_half_width"]
        assert str(shown) == interval_reach(entry["index"], low, high)
    assert str(board.loc["sim-alpha", "possible ranks"]) == "1–2"
    assert board.loc["sim-alpha", "could be first"] == "yes"
    assert board.loc["sim-gamma", "could be first"] is None
    assert str(board.loc["sim-alpha", "tie group"]) == "1"
    assert board.loc["sim-gamma", "tie group"] is None
    # a significant pair is framed twice (both halves of the matrix), a tie is not framed
    for significant in (False, True):
        pairs = [{**p, "significant": significant} for p in stats["pairs"]]
        fig = report_views.plot_pair_matrix(demo_index, {**stats, "pairs": pairs})
        frames = [p for p in fig.axes[0].patches if isinstance(p, Rectangle)]
        assert len(frames) == (2 * len(pairs) if significant else 0)
        assert fig.get_suptitle() == report_views.SIMULATED_TEXT
    forest = report_views.plot_index_intervals(demo_index, stats)
    assert [t.get_text() for t in forest.axes[0].get_yticklabels()] == ["sim-beta", "sim-alpha"]
    tracks = report_views.track_intervals_table(stats, "sim-alpha")
    assert tracks["mean"].tolist() == [
        written["models"]["sim-alpha"]["tracks"][t.split()[1]]["mean"] for t in tracks["track"]
    ]
    assert "no index" in report_views.index_interval_note(stats, "sim-gamma").text


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda s: s["models"]["sim-alpha"].update(index=1.0), "models.sim-alpha.index"),
        (lambda s: s["models"].pop("sim-gamma"), "the models of the index shown"),
        (lambda s: s.pop("pairs"), "field 'pairs'"),
        (lambda s: s["models"]["sim-beta"].update(status="complete"), "sim-beta.status"),
    ],
)
def test_stats_of_another_index_are_refused(demo_index, tmp_path, edit, match):
    from tcsexam_lib import views as report_views
    from tcsexam_lib.jsonio import write_json_atomic

    stats = report_views.stats_result(demo_index, resamples=200)
    edit(stats)
    write_json_atomic(tmp_path / "stats.json", stats)
    with pytest.raises(InputRefused, match=match) as refused:
        report_views.stats_result(demo_index, stats_json=tmp_path / "stats.json")
    assert str(tmp_path / "stats.json") in str(refused.value)


def test_count_axes_tick_whole_numbers_and_nothing_to_draw_is_said():
    """Issue 39: a histogram of two instances has no tick at 0.5 instances; a model without
    a repeated task gets a sentence, not an empty 'spread of repeats (0 tasks)' chart."""
    from tcsexam_lib import views as report_views

    out = {"task": "t", "instances": [{"score": 0.5, "z": 0.0}, {"score": 0.1, "z": -1.0}]}
    for fig in (report_views.plot_instance_scores([out]), report_views.plot_z_histogram([out])):
        ticks = fig.axes[0].get_yticks()
        assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks), ticks
    single = {"models": {"m": {"tasks": [{"track": "solver", "item": "t", "scores": [0.2]}]}}}
    assert report_views.plot_repeat_spread(single, "m").text.startswith("Nothing to draw")
