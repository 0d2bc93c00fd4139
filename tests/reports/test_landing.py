"""The landing page (``reports/landing.py``): ranked, honest about its lead, said once."""

from __future__ import annotations

import re

from tcsexam_lib.reports.landing import build_landing_page
from tcsexam_lib.reports.run_set_document import RunSetDocument

MEANS = {"P": 0.4, "S": 0.25, "C": 1.2, "O": 0.0}


def _manifest(models: dict, *, simulated: bool = False, name: str = "lite-offline", **summary):
    notebooks = {
        model: [
            {
                "name": nb,
                "ok": True,
                "error": None,
                "executed": f"models/{model}/{nb}.ipynb",
                "html": f"models/{model}/{nb}.html",
            }  # fmt: skip
            for nb in ("solver_scoring", "index", "diagnostics")
        ]
        for model in models
    }
    return RunSetDocument({
        "kind": "tcsexam report run set", "kit_version": "0", "name": name, "suite": "lite",
        "protocol": "offline",
        "simulated": simulated, "reference_id": "r", "metric_id": "m-v1", "status": "complete",
        "cohort": {"name": "cohort", "ok": True, "error": None, "executed": "cohort.ipynb",
                   "html": "cohort.html"},
        "index_json": "i.json", "stats_json": "s.json", "attempts": "a.csv",
        "kernel_log": "k.log", "created_utc": "2026-12-02T00:00:00Z",
        "summary": {"suite": "lite", "solver_protocol": "offline", "models": models, **summary},
        "notebooks": notebooks,
    }, folder=name)  # fmt: skip


def _entry(status, index, rank=None, half=None, could=False, ci=None):
    return {"status": status, "index": index, "track_means": MEANS, "rank": rank,
            "index_ci_half_width": half, "index_ci": ci, "could_be_first": could}  # fmt: skip


def test_landing_page_escapes_model_names_in_text_and_links():
    model = "o'brien<b>"
    page = build_landing_page([_manifest({model: _entry("complete", 55.5, 1, 3.0, True)})])
    assert "o&#x27;brien&lt;b&gt;" in page and model not in page
    assert "href='lite-offline/models/o%27brien%3Cb%3E/index.html'" in page


def test_models_are_ranked_incomplete_last_and_the_lead_is_judged():
    models = {  # the cohort file's order is not the ranking; alpha's interval is asymmetric
        "gamma": _entry("incomplete", None),
        "beta": _entry("provisional", 57.67, 2, 17.15, True, [40.52, 74.82]),
        "alpha": _entry("complete", 75.43, 1, 14.26, True, [61.17, 84.03]),
    }
    page = build_landing_page([_manifest(models, simulated=True, level=0.95,
                                         leader_group=["alpha", "beta"])])  # fmt: skip
    rows = re.findall(r"<tr><td class='num' data-order='([^']*)'>([^<]*)</td><td[^>]*>"
                      r"<a [^>]*>(\w+)</a></td><td class='num' data-order='([^']*)'>(.*?)</td>",
                      page)  # fmt: skip
    text = [(r[1], r[2], re.sub(r"<[^>]*>", "", r[4])) for r in rows]
    assert text == [
        ("1", "alpha", "75.43 (+8.60 / −14.26)"),  # never a ± past the interval's bound
        ("2", "beta", "57.67 ± 17.15"),
        ("—", "gamma", "no index"),
    ]
    assert "75.43 <span class='tcs-reach'>(+8.60 / −14.26)</span>" in page  # wraps on a phone
    assert rows[2][0] == "" and rows[2][3] == ""  # no value: the script keeps it last
    assert "The lead is not established: alpha and beta could each be first" in page
    assert "3 models: 1 complete, 1 provisional, 1 incomplete" in page
    assert "Overall status" not in page
    assert page.count("SIMULATED") == 1  # the banner, once
    assert "<footer class='tcs-footer'>TCSExam scoring kit" in page and "m-v1" in page


def test_a_real_lead_is_said_so():
    models = {"a": _entry("complete", 90.0, 1, 2.0, True), "b": _entry("complete", 50.0, 2, 2.0)}
    page = build_landing_page([_manifest(models, level=0.95, leader_group=["a"])])
    assert "The lead is real: only a could be first" in page
    assert "class='tcs-lead'" in page


def test_a_run_set_published_before_ranks_were_kept_is_still_ranked():
    models = {"b": {"status": "complete", "index": 40.0, "track_means": MEANS},
              "a": {"status": "complete", "index": 60.0, "track_means": MEANS}}  # fmt: skip
    page = build_landing_page([_manifest(models)])
    assert page.index(">a</a>") < page.index(">b</a>")


def test_the_footer_names_the_kit_metric_and_build_date_and_each_run_sets_reference(
    monkeypatch,
):
    """What docs/reports.md promises on every page, on the landing page: one line for the
    kit (version, metric, date) and one per run set (reference, suite, solver protocol)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    models = {"a": _entry("complete", 60.0, 1, 5.0, True)}
    page = build_landing_page([
        _manifest(models),
        _manifest(models, name="full-online", suite="full", solver_protocol="online"),
    ])  # fmt: skip
    footer = re.search(r"<footer class='tcs-footer'>(.*?)</footer>", page, re.S).group(1)
    lines = [re.sub(r"<[^>]*>", "", line) for line in footer.split("<br>")]
    assert lines[0].startswith("TCSExam scoring kit ")
    assert lines[0].endswith(" · metric m-v1 · built 2026-09-21T14:13:20Z")
    assert lines[1:] == [
        "lite-offline: reference r · suite lite · solver protocol offline",
        "full-online: reference r · suite full · solver protocol online",
    ]


def test_failures_are_listed_escaped_and_a_model_without_pages_shows_a_dash():
    manifest = _manifest({"a": _entry("complete", 60.0, 1, 5.0, True),
                          "b": _entry("complete", 50.0, 2, 5.0)})  # fmt: skip
    data = manifest.data
    data["description"] = "x <b> & 'y'"
    data["notebooks"]["a"] = []
    failed = data["notebooks"]["b"][2]
    failed.update(ok=False, error="ValueError: <bad> & 'worse'")
    page = build_landing_page([RunSetDocument(data, folder="lite-offline")])
    assert "<h2 class='failed'>1 notebook(s) failed</h2>" in page
    assert (
        "<li><a href='lite-offline/models/b/diagnostics.html'>lite-offline/b/diagnostics</a>: "
        "ValueError: &lt;bad&gt; &amp; &#x27;worse&#x27;</li>"
    ) in page
    assert "diagnostics</a> <span class='failed'>FAILED</span></td>" in page
    assert "<p>x &lt;b&gt; &amp; &#x27;y&#x27;</p>" in page  # not simulated: its description
    rows = re.findall(r"<tr><td class='num'.*?</tr>", page)
    assert rows[0].endswith("<td class='tcs-nowrap'>—</td></tr>")  # a has no pages


def test_pairs_that_cannot_be_tested_and_a_design_that_cannot_separate_are_said():
    """Issue 38: never 'no model is shown to be ahead' when no test could be made."""
    models = {
        "alpha": _entry("complete", 75.43, 1, 14.26, True, [61.17, 84.03]),
        "beta": _entry("complete", 57.67, 2, 17.15, True, [40.52, 74.82]),
    }
    untested = "fewer than two tasks in conjecture, so how much its tasks differ cannot be seen"
    page = build_landing_page([_manifest(models, level=0.95, leader_group=["alpha", "beta"],
                                         pairs_untested=untested)])  # fmt: skip
    assert f"the pairs cannot be tested ({untested})" in page
    assert "shown to be ahead of them" not in page
    note = "no pair can be shown to differ: with 8 tasks the smallest p-value a pair can reach"
    page = build_landing_page([_manifest(models, level=0.95, leader_group=["alpha", "beta"],
                                         notes=[note])])  # fmt: skip
    assert f"Note: {note}." in page
