"""Run sets side by side: computed by ``reports/comparisons.py``, drawn by
``views/compare.py``; deltas paired over the common tasks.

The interval of a difference between two run sets is the kit's paired test, the one that
compares two models of a run set (``analyse_cohort``), on the common tasks' task means.
The view draws the numbers the runner wrote and computes none.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tcsexam_lib import run_score
from tcsexam_lib.formulas import combine_track_means
from tcsexam_lib.paths import KIT_ROOT
from tcsexam_lib.reports.comparisons import compare_run_set, paired_delta
from tcsexam_lib.scoring.index_document import ModelResult, as_index_document
from tcsexam_lib.stats import analyse_cohort
from tcsexam_lib.views import Note, compare_run_sets
from tcsexam_lib.vocab import TRACKS


def task_means(entry: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    return ModelResult(entry).task_means()


def _score(suite: str, protocol: str) -> dict[str, Any]:
    demo = KIT_ROOT / "demo" / f"{suite}-{protocol}"
    return run_score(suite=suite, attempts=demo / "attempts.csv", cohort=demo / "cohort.json")


def _as_compare(result: dict[str, Any]) -> dict[str, Any]:
    """What the report runner passes a cohort notebook about another run set."""
    return {
        "suite": result["suite"],
        "solver_protocol": result["solver_protocol"],
        "models": {
            m: {k: e[k] for k in ("status", "index", "track_means")}
            for m, e in result["models"].items()
        },  # fmt: skip
        "task_means": {m: task_means(e) for m, e in result["models"].items()},
    }


def _drawn(result: dict[str, Any], name: str, other: dict[str, Any], by: str):
    """The comparison as the runner computes it (run-set.json), drawn by the view."""
    found = compare_run_set(as_index_document(result), {name: _as_compare(other)}, 0.95)
    return compare_run_sets(result, found, by)


@pytest.fixture(scope="module")
def runs() -> dict[str, dict[str, Any]]:
    return {
        f"{s}-{p}": _score(s, p) for s in ("demo-lite", "demo-full") for p in ("offline", "online")
    }


def _pair_of(a: dict[str, Any], b: dict[str, Any], index: tuple[float, float]):
    """The same pair through analyse_cohort (two 'models': this run set's and the other's)."""
    values = []
    for track in TRACKS:
        common = [i for i in a[track] if a[track][i] is not None and b[track].get(i) is not None]
        values.append(np.array([[a[track][i] for i in common], [b[track][i] for i in common]]))
    out = analyse_cohort(values, names=["this", "other"], index=list(index))
    sign = 1.0 if out.pairs.first[0] == 0 else -1.0
    low, high = out.pairs.ci_low[0], out.pairs.ci_high[0]
    return sign * out.pairs.delta[0], sorted([sign * low, sign * high])


def test_offline_vs_online_is_paired_over_every_task_with_the_kits_test(runs):
    offline, online = runs["demo-full-offline"], runs["demo-full-online"]
    (table,) = _drawn(offline, "demo-full-online", online, "protocol")
    table = table.set_index("model")
    assert "Δ on common tasks" not in table.columns  # the same tasks: one Δ
    for model in ("sim-alpha", "sim-beta"):
        a, b = offline["models"][model], online["models"][model]
        assert table.loc[model, "Δ index"] == a["index"] - b["index"]
        delta, ci = _pair_of(task_means(a), task_means(b), (a["index"], b["index"]))
        assert table.loc[model, "common tasks"] == 32
        shown = str(table.loc[model, "interval"])
        assert shown == f"[{ci[0]:.2f}, {ci[1]:.2f}]" and delta == pytest.approx(
            a["index"] - b["index"]
        )
    assert table.loc["sim-gamma", "interval"] is None  # incomplete: no index, no interval


def test_lite_vs_full_recomputes_both_indexes_on_the_common_tasks(runs):
    full, lite = runs["demo-full-offline"], runs["demo-lite-offline"]
    (table,) = _drawn(full, "demo-lite-offline", lite, "suite")
    table = table.set_index("model")
    a, b = task_means(full["models"]["sim-alpha"]), task_means(lite["models"]["sim-alpha"])
    common = {t: [i for i in b[t] if i in a[t]] for t in TRACKS}
    recomputed = [
        combine_track_means({t: np.mean([m[t][i] for i in common[t]]) for t in TRACKS})
        for m in (a, b)
    ]
    assert table.loc["sim-alpha", "Δ on common tasks"] == pytest.approx(
        recomputed[0] - recomputed[1]
    )
    assert table.loc["sim-alpha", "Δ index"] == pytest.approx(
        full["models"]["sim-alpha"]["index"] - lite["models"]["sim-alpha"]["index"]
    )
    assert table.loc["sim-alpha", "common tasks"] == 20  # Lite's 5 tasks a track
    _, ci = _pair_of(a, b, tuple(recomputed))
    assert str(table.loc["sim-alpha", "interval"]) == f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def test_identical_task_means_give_a_zero_difference_of_width_zero():
    means = {t: {f"x{k}": 0.25 * (k % 4) for k in range(5)} for t in TRACKS}
    out = paired_delta(means, means)
    assert out["delta"] == 0.0 and out["ci"] == [0.0, 0.0] and out["p_value"] == 1.0


def test_nothing_to_compare_says_so(runs):
    note = compare_run_sets(runs["demo-lite-offline"], [], "suite")
    assert isinstance(note, Note) and "nothing to compare" in note.text
    assert "solver protocol offline" in note.text  # plain words, no snake_case


def test_the_view_draws_the_written_numbers_and_computes_none(runs):
    offline, online = runs["demo-lite-offline"], runs["demo-lite-online"]
    (written,) = compare_run_set(
        as_index_document(offline), {"demo-lite-online": _as_compare(online)}, 0.95
    )
    written["models"][0].update(delta_index=12.5, ci=[-1.0, 3.0], n_common_tasks=7)
    written["models"][0]["track_deltas"]["S"] = 0.125
    (table,) = compare_run_sets(offline, [written], "protocol")
    row = table.set_index("model").loc[written["models"][0]["model"]]
    assert (row["Δ index"], row["common tasks"], row["Δ S"]) == (12.5, 7, 0.125)
    assert str(row["interval"]) == "[-1.00, 3.00]" and row["differs"] == "not shown"
    assert compare_run_sets(offline, [written], "suite").text.startswith("No run set")
