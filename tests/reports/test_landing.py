"""The landing page (``reports/landing.py``): model names escaped in text and links."""

from __future__ import annotations

from tcsexam_lib.reports.landing import build_landing_page
from tcsexam_lib.reports.run_set_document import RunSetDocument


def test_landing_page_escapes_model_names_in_text_and_links():
    model = "o'brien<b>"
    folder = f"models/{model}"
    notebook = {"name": "index", "ok": True, "error": None}
    for key, suffix in (("executed", "ipynb"), ("html", "html")):
        notebook[key] = f"{folder}/index.{suffix}"
    entry = {"status": "complete", "index": 55.5,
             "track_means": {"P": 0.4, "S": 0.25, "C": 1.2, "O": 0.0}}  # fmt: skip
    manifest = {
        "name": "lite-offline", "suite": "lite", "protocol": "offline",
        "simulated": False, "reference_id": "r", "status": "complete", "cohort": None,
        "index_json": "i.json", "attempts": "a.csv", "kernel_log": "k.log",
        "summary": {"models": {model: entry}}, "notebooks": {model: [notebook]},
    }  # fmt: skip
    page = build_landing_page([RunSetDocument(manifest, folder="lite-offline")])
    assert "o&#x27;brien&lt;b&gt;" in page and model not in page
    assert "href='lite-offline/models/o%27brien%3Cb%3E/index.html'" in page
