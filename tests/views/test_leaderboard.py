"""The cohort report's views (``views/leaderboard.py``, ``views/pair_tables.py``), at 3
and at 200 models."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tcsexam_lib import run_score
from tcsexam_lib.demo_scale import build_files
from tcsexam_lib.paths import KIT_ROOT
from tcsexam_lib.stats.command import compute_stats
from tcsexam_lib.views import (
    lead_note,
    leaderboard,
    neighbours_table,
    pairs_view,
    plot_index_intervals,
    plot_task_heatmap,
    table_html,
    task_model_table,
    ties_note,
)


@pytest.fixture(scope="module")
def demo() -> tuple[dict[str, Any], dict[str, Any]]:
    folder = KIT_ROOT / "demo" / "demo-lite-offline"
    result = run_score(suite="demo-lite", attempts=folder / "attempts.csv",
                       cohort=folder / "cohort.json")  # fmt: skip
    return result, compute_stats(result).to_dict()


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> tuple[dict[str, Any], dict[str, Any]]:
    """The SIMULATED 60-model run set, scored by the report runner (no notebook run)."""
    from tcsexam_lib.jsonio import read_json
    from tcsexam_lib.reports import render, runner

    root = tmp_path_factory.mktemp("many")
    for name, text in build_files("models", 60).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(render, "execute_notebooks", lambda jobs, *_, **__: [])
        patch.setattr(render, "notebook_jobs", lambda *_: [])
        runner.run_report([root / "demo-models-60.yaml"])
    folder = root / "reports" / "demo-full-offline"
    return read_json(folder / "demo-full-offline.index.json"), read_json(
        folder / "demo-full-offline.stats.json"
    )


def test_the_leaderboard_is_in_rank_order_with_incomplete_models_last(demo):
    result, stats = demo
    board = leaderboard(result, stats, {"sim-alpha": {"index": "models/sim-alpha/index.html"}})
    assert [str(m) for m in board["model"]] == ["sim-alpha", "sim-beta", "sim-gamma"]
    assert board["rank"].tolist() == [1, 2, None] and board["index"].tolist()[2] is None
    assert board.loc[2, "note"] == "3 of 20 tasks without a result; 4 blocking issues"
    page = table_html(board)
    assert "<a href='models/sim-alpha/index.html'>sim-alpha</a>" in page
    assert "<a href" not in page.split("sim-beta")[0].split("sim-alpha</a>")[1]  # no page: no link
    for column in ("±", "could be first", "possible ranks", "tie group", "P"):
        assert "title='" in page.split(f">{column}</th>")[0].rsplit("<th", 1)[1]  # a tooltip


def test_the_lead_line_and_the_tie_note_read_as_the_stats_say(demo):
    _, stats = demo
    assert lead_note(stats).text.startswith(
        "The lead is not established: sim-alpha and sim-beta could each be first"
    )
    assert "tcs-lead open" in lead_note(stats).html_text
    lines = ties_note(stats).text.splitlines()
    assert lines[:2] == [
        "Tie groups down the ranking (no pair inside one is shown to differ; a model may be in "
        "two): sim-alpha, sim-beta.",
        "The one pair is not shown to differ (paired sign-flip tests over the common tasks, "
        "Holm, 5% level).",
    ]
    assert lines[2:] == [f"Note: {note}." for note in stats["notes"]] and stats["notes"]


def test_task_model_reads_pass_fail_and_turns_at_scale(demo, many):
    result, stats = demo
    table = task_model_table(result, stats)
    assert list(table.columns[:3]) == ["track", "task", "sim-alpha"] and len(table) == 20
    theorem = {str(v) for v in table[table["track"] == "theorem"]["sim-alpha"] if v is not None}
    assert theorem <= {"pass", "fail", "0.333", "0.667"}
    big, big_stats = many
    wide = task_model_table(big, big_stats)
    assert len(wide) == 60 and wide.columns[0] == "model" and len(wide.columns) == 33
    assert str(wide["model"].iloc[0]) == big_stats["ranking"][0]  # best first


def test_charts_stay_legible_from_3_to_60_models(demo, many):
    for result, stats in (demo, many):
        for fig in (plot_task_heatmap(result, stats), plot_index_intervals(result, stats)):
            fig.savefig(io.BytesIO(), format="png")
            width, _ = fig.get_size_inches()
            assert width <= 13.0  # shown at its size in a 1400 px page: text is not shrunk
            ax = fig.axes[0]
            labels = [*ax.get_xticklabels(), *ax.get_yticklabels()]
            assert min(t.get_fontsize() for t in labels) >= 7


def test_pairs_give_way_to_each_model_against_the_next_at_scale(demo, many):
    result, stats = demo
    assert [type(p).__name__ for p in pairs_view(result, stats)] == ["Figure", "DataFrame"]
    big, big_stats = many
    note, table = pairs_view(big, big_stats)
    assert "would not be readable" in note.text and len(table) == len(big_stats["ranking"])
    by_model = table.set_index("model")
    for model in big_stats["ranking"]:  # the counts agree with the rank intervals
        best, worst = big_stats["models"][model]["rank_ci"]
        assert best == 1 + by_model.loc[model, "behind"]
        assert worst == len(big_stats["ranking"]) - by_model.loc[model, "ahead of"]
    first, second = big_stats["ranking"][:2]
    assert by_model.loc[first, "Δ to the next"] == pytest.approx(
        big["models"][first]["index"] - big["models"][second]["index"]
    )
    assert neighbours_table({**big_stats, "ranking": [], "pairs": []}).empty


def test_every_page_says_when_the_pairs_cannot_be_tested():
    """Issue 38: a one-task track. The cohort page's lead and tie note, and the model page."""
    from tcsexam_lib.views import index_interval_note

    reason = "fewer than two tasks in conjecture, so how much its tasks differ cannot be seen"
    track = {"mean": 1.0, "n_tasks": 1, "se": None, "ci": [0.025, 1.0]}
    entry = {"status": "complete", "index": 50.0, "index_ci": [40.0, 60.0], "rank": 1,
             "index_ci_half_width": 10.0, "index_se": None, "rank_ci": [1, 2],
             "tracks": {"conjecture": track}}  # fmt: skip
    stats = {"level": 0.95, "leader_group": ["a", "b"], "ranking": ["a", "b"],
             "tie_groups": [["a", "b"]], "pairs_untested": reason, "notes": [],
             "pairs": [{"significant": False, "ci": None, "p_value": None}],
             "models": {"a": entry}}  # fmt: skip
    assert f"the pairs cannot be tested ({reason})" in lead_note(stats).text
    assert f"The one pair cannot be tested: {reason}." in ties_note(stats).text
    assert "shown to differ" not in ties_note(stats).text.splitlines()[1]
    assert "Its pairs cannot be tested: fewer than two tasks in conjecture" in (
        index_interval_note(stats, "a").text
    )
