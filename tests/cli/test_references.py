"""``tcsexam reference check|build`` and ``tcsexam verify`` on the command line
(``cli/references.py``).

``reference check --json`` prints JSON that parses, whatever the names it holds: a
folder named with a line break, a right-to-left override or a zero-width space is
written escaped inside its string (never raw on the terminal) and reads back as itself.
"""

from __future__ import annotations

import json

from refdata import small_reference, write_json


def test_reference_check_json_parses_and_shows_hidden_characters_escaped(run_cli, tmp_path):
    folder = tmp_path / "odd\nname\u202eevil\u200b"
    path = write_json(folder / "lite.json", small_reference())
    done = run_cli(["reference", "check", path, "--json"])
    assert done.code == 0, done.err
    report = json.loads(done.out)
    assert report["ok"] is True
    assert report["files"][0]["path"] == str(path)
    assert "\u202e" not in done.out and "\u200b" not in done.out
    assert "\\u202e" in done.out and "\\n" in done.out


def test_reference_check_json_of_a_refused_file_parses_with_its_findings(run_cli, tmp_path):
    data = small_reference()
    data["tasks"]["obj-min"]["instances"]["alone"] = [3, None]
    path = write_json(tmp_path / "lite.json", data)
    done = run_cli(["reference", "check", path, "--json"])
    assert done.code == 2
    (finding,) = json.loads(done.out)["files"][0]["findings"]
    assert finding["code"] == "unlisted_unscorable" and finding["instance"] == "alone"
