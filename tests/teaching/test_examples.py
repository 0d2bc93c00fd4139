"""The seed's worked example and the tiny ILLUSTRATIVE cohorts (``teaching/examples.py``)."""

from __future__ import annotations

import matplotlib
import pytest

from tcsexam_lib import teaching

matplotlib.use("Agg")


# --- Tiny cohorts ---------------------------------------------------------------------------


def test_the_seed_cohort_gives_55_5():
    cohort = teaching.score_tiny_cohort({"m": {}})
    entry = cohort.model("m")
    assert (entry["status"], entry["index"]) == ("complete", 55.5)
    assert cohort.result["simulated"] is True
    assert "provenance" not in cohort.result  # it would name a removed temporary folder
    assert teaching.worked_example_relative_score() == 0.25


def test_status_walkthrough_has_every_status_and_an_excluded_attempt():
    walk = teaching.status_walkthrough()
    statuses = {name: entry["status"] for name, entry in walk.result["models"].items()}
    assert statuses == {
        "walk-complete": "complete",
        "walk-provisional": "provisional",
        "walk-incomplete": "incomplete",
    }
    complete = walk.model("walk-complete")
    assert complete["index"] == 55.5  # the excluded attempt scoring 1 is not aggregated
    thm_3 = next(t for t in complete["tasks"] if t["item"] == "thm-3")
    assert [r["adoption_status"] for r in thm_3["rows"]] == ["excluded", "selected"]
    assert thm_3["adopted_valid_attempts"] == ["2"] and thm_3["mean"] == 0.0
    assert walk.model("walk-provisional")["index"] == 55.5
    assert walk.model("walk-incomplete")["index"] is None
    codes = {issue["code"] for issue in walk.model("walk-incomplete")["issues"]}
    assert codes == {"missing_attempt", "adopted_not_valid"}
    confirmed = teaching.status_walkthrough(confirmed=True)
    assert confirmed.model("walk-provisional")["status"] == "complete"


def test_attempts_table_shows_the_listed_rows():
    walk = teaching.status_walkthrough()
    table = walk.attempts_table(listed_only=True)
    assert list(table["item"]) == ["thm-3", "thm-3", "con-2", "thm-1", "thm-1", "con-1"]
    assert list(table.columns) == [
        "model",
        "track",
        "item",
        "attempt",
        "score",
        "adoption_status",
        "score_status",
        "note",
    ]
    assert table["note"].str.len().max() <= 50  # pandas shows at most 50 characters
    assert len(walk.attempts_table(models=["walk-complete"])) == 10


def test_tiny_cohort_refuses_unknown_items_models_and_statuses():
    with pytest.raises(ValueError, match=r"unknown item 'thm-9' of the teaching suite"):
        teaching.score_tiny_cohort({"m": {"thm-9": [1]}})
    with pytest.raises(ValueError, match=r"names models that have no attempts: \['other'\]"):
        teaching.score_tiny_cohort({"m": {}}, {"other": 2})
    with pytest.raises(ValueError, match=r"adoption_status 'chosen' is not one of selected"):
        teaching.Attempt(1, "chosen")
    with pytest.raises(ValueError, match=r"score_status 'ok' is not one of valid"):
        teaching.Attempt(1, "selected", "ok")
